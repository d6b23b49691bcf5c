"""When the dice pass: the core's rule (hazard.core.passing) and the exact rounds kept (hazard.analysis)."""

from __future__ import annotations

import dataclasses
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from tests.bounds import within_cpu

from hazard.analysis import analyse, analyse_random_main, as_float
from hazard.analysis.markov import invert
from hazard.analysis.passing import effect_probabilities, expected_rounds_kept, rounds_kept
from hazard.core.errors import IllegalError, InvalidError
from hazard.core.passing import PassingEffect, after_round, passing_effect, passing_text
from hazard.core.rules import MAX_AFTER_LOSSES, DicePassing, LossCount, MainMethod
from hazard.core.rulesets import builtin_rulesets, find_ruleset
from hazard.core.state import Outcome, Termination

F = Fraction
CLEAR, COUNT, KEEP, PASS = PassingEffect.CLEAR, PassingEffect.COUNT, PassingEffect.KEEP, PassingEffect.PASS


# --- the rule, in the core ---------------------------------------------------------------------------------

_NEVER = DicePassing(0)
_ANY = DicePassing(3, LossCount.ANY)
_SEVEN_OUT = DicePassing(1, LossCount.AFTER_CHANCE)


@pytest.mark.parametrize(
    ("termination", "never", "any_loss", "seven_out"),
    [
        (Termination.NICK, CLEAR, CLEAR, CLEAR),
        (Termination.CHANCE, CLEAR, CLEAR, CLEAR),
        (Termination.OUT, KEEP, COUNT, KEEP),
        (Termination.MAIN, KEEP, COUNT, COUNT),
        (Termination.NO_MAIN, PASS, PASS, PASS),
    ],
    ids=lambda x: getattr(x, "value", str(x)),
)
def test_what_each_ending_does(
    termination: Termination, never: PassingEffect, any_loss: PassingEffect, seven_out: PassingEffect
) -> None:
    assert passing_effect(_NEVER, termination) is never
    assert passing_effect(_ANY, termination) is any_loss
    assert passing_effect(_SEVEN_OUT, termination) is seven_out


passings = st.builds(DicePassing, st.integers(0, 6), st.sampled_from(LossCount))


@settings(max_examples=200, deadline=None)
@given(passings, st.lists(st.sampled_from(Termination), max_size=40))
def test_after_round_follows_the_effects(passing: DicePassing, endings: list[Termination]) -> None:
    """A reference reading of the rule, round by round: the count, and when the dice pass."""
    losses = 0
    for termination in endings:
        effect = passing_effect(passing, termination)
        after, passed = after_round(passing, losses, termination)
        if effect is PASS:
            assert (after, passed) == (0, True)
        elif effect is CLEAR:
            assert (after, passed) == (0, False)
        elif effect is KEEP:
            assert (after, passed) == (losses, False)
        else:
            assert passing.by_losses
            assert passed == (losses + 1 == passing.after_losses)
            assert after == (0 if passed else losses + 1)
        assert 0 <= after < max(passing.after_losses, 1)
        losses = after


def test_three_losses_in_a_row_pass_the_dice() -> None:
    losses, passed = 0, False
    for termination in (Termination.OUT, Termination.MAIN, Termination.NICK, Termination.OUT):
        losses, passed = after_round(_ANY, losses, termination)
    assert (losses, passed) == (1, False)
    losses, passed = after_round(_ANY, losses, Termination.MAIN)
    assert (losses, passed) == (2, False)
    assert after_round(_ANY, losses, Termination.OUT) == (0, True)


@pytest.mark.parametrize(("passing", "losses"), [(_ANY, 3), (_ANY, -1), (_NEVER, 1), (_SEVEN_OUT, 1)])
def test_a_count_out_of_range_is_invalid(passing: DicePassing, losses: int) -> None:
    with pytest.raises(InvalidError, match=f"invalid count of losses in a row {losses}: expected"):
        after_round(passing, losses, Termination.OUT)


@pytest.mark.parametrize(
    ("ruleset_id", "text"),
    [
        ("britannica-1911", "losing never passes the dice; the caster keeps them until giving them up"),
        ("wikipedia", "the dice pass after 3 lost rounds in a row"),
        ("ecws-1674", "losing never passes the dice; the caster keeps them until giving them up"),
        (
            "sca-isenfir",
            "every lost round passes the dice; so does a throw for the main outside 5, 6, 7, 8 and 9",
        ),
        ("craps", "every round lost to the main after a chance passes the dice"),
    ],
)
def test_the_whole_rule_in_words(ruleset_id: str, text: str) -> None:
    assert passing_text(find_ruleset(ruleset_id)) == text


def test_a_thrown_or_pass_main_that_losing_never_passes_says_what_does() -> None:
    """The figure is finite (a main out of range passes the dice), and the words say why."""
    ruleset = dataclasses.replace(find_ruleset("sca-isenfir"), passing=DicePassing(0))
    text = passing_text(ruleset)
    assert text == "losing never passes the dice, but a throw for the main outside 5, 6, 7, 8 and 9 does"
    assert "keeps them" not in text
    report = analyse(ruleset)
    assert report.overall is not None
    assert report.overall.expected_rounds_kept == (1 - report.p_no_round) / report.p_no_round  # geometric
    assert report.to_json_dict()["dice_passing"] == text


@pytest.mark.parametrize("ruleset", builtin_rulesets(), ids=lambda r: r.id)
def test_every_report_shows_the_whole_rule(ruleset: object) -> None:
    assert analyse(ruleset).to_json_dict()["dice_passing"] == passing_text(ruleset)  # type: ignore[arg-type]


@pytest.mark.parametrize("after", [MAX_AFTER_LOSSES + 1, 1000, 2**31])
def test_a_count_beyond_the_maximum_is_refused(after: int) -> None:
    with pytest.raises(InvalidError, match=f"invalid dice passing after {after} losses: expected 0 to 100"):
        DicePassing(after)


# --- the closed form, against the linear system it replaces ------------------------------------------------


def _linear_system(w: Fraction, c: Fraction, k: Fraction, q: Fraction, n: int) -> Fraction | None:
    """The answer the hard way (the analyser's before the closed form), solved exactly:
    E_s = (1 - q) + w E_0 + c E_{s+1} + k E_s for s < n, with E_n = 0."""
    streak = max(n, 1)
    system = []
    for s in range(streak):
        row = [F(0)] * streak
        row[s] += 1 - k
        row[0] -= w
        if s + 1 < streak:
            row[s + 1] -= c
        system.append(row)
    try:
        inverse = invert(system)
    except ZeroDivisionError:
        return None
    return sum((inverse[0][j] * (1 - q) for j in range(streak)), F(0))


probabilities = st.fractions(min_value=0, max_value=1, max_denominator=60)


@settings(max_examples=300, deadline=None)
@given(st.lists(probabilities, min_size=4, max_size=4), st.integers(0, 8))
def test_the_closed_form_solves_the_linear_system(weights: list[Fraction], n: int) -> None:
    if sum(weights) == 0:
        weights = [F(1), F(0), F(0), F(0)]
    w, c, k, q = (x / sum(weights) for x in weights)
    if n == 0:
        k, c = k + c, F(0)  # nothing counts where losses never pass the dice
    effects = {CLEAR: w, COUNT: c, KEEP: k, PASS: q}
    expected = _linear_system(w, c, k, q, n) if (c or q) else None
    assert rounds_kept(effects, n) == expected


def test_a_hundred_losses_in_a_row_solve_at_once_and_satisfy_every_equation() -> None:
    """The closed form at the largest count: fast, and E_0 .. E_n satisfy the recursion exactly."""
    ruleset = dataclasses.replace(find_ruleset("wikipedia"), passing=DicePassing(MAX_AFTER_LOSSES))
    with within_cpu(2.0, "the analysis"):
        odds = analyse(ruleset, main=6).mains[0]
    kept = odds.expected_rounds_kept
    assert kept is not None
    assert as_float(kept) is not None  # every form of the figure can be written
    effects = effect_probabilities(ruleset.passing, odds.outcomes)
    w, c, k, q = (effects[e] for e in PassingEffect)
    values = [kept]
    for _ in range(MAX_AFTER_LOSSES):  # E_{s+1} from the equation for E_s
        values.append(((1 - k) * values[-1] - (1 - q) - w * kept) / c)
    assert values[-1] == 0


def _coin(win: Fraction) -> dict[Outcome, Fraction]:
    return {Outcome(Termination.NICK, 7): win, Outcome(Termination.OUT, 7): 1 - win}


@settings(max_examples=50, deadline=None)
@given(st.fractions(min_value=F(1, 100), max_value=F(99, 100)), st.integers(1, 5))
def test_losses_in_a_row_match_the_run_length_formula(win: Fraction, k: int) -> None:
    # Expected trials until k losses in a row, each with probability q: (1 - q^k) / ((1 - q) q^k).
    q = 1 - win
    expected = (1 - q**k) / ((1 - q) * q**k)
    assert expected_rounds_kept(DicePassing(after_losses=k), _coin(win)) == expected


def test_effects_sum_to_one() -> None:
    report = analyse(find_ruleset("sca-isenfir"))
    assert report.overall is not None
    effects = effect_probabilities(report.ruleset.passing, report.overall.outcomes, report.p_no_round)
    assert sum(effects.values(), F(0)) == 1
    assert effects[PASS] == report.p_no_round


@pytest.mark.parametrize(
    ("effects", "message"),
    [
        ({CLEAR: F(1, 2)}, "summing to 1"),
        ({CLEAR: F(3, 2), COUNT: F(-1, 2)}, "summing to 1"),
    ],
)
def test_effects_that_are_no_distribution_are_invalid(
    effects: dict[PassingEffect, Fraction], message: str
) -> None:
    with pytest.raises(InvalidError, match=message):
        rounds_kept(effects, 1)


def test_a_count_with_no_count_to_reach_is_invalid() -> None:
    with pytest.raises(InvalidError, match="expected 1 or more"):
        rounds_kept({CLEAR: F(1, 2), COUNT: F(1, 2)}, 0)


def test_never_passing_has_no_expectation() -> None:
    assert expected_rounds_kept(DicePassing(after_losses=0), _coin(F(1, 2))) is None
    assert analyse(find_ruleset("britannica-1911"), main=7).mains[0].expected_rounds_kept is None


def test_a_pass_before_the_round_counts_no_round() -> None:
    # Never passing by losses, but a third of attempts pass at once: geometric count of rounds.
    assert expected_rounds_kept(DicePassing(after_losses=0), _coin(F(1, 2)), F(1, 3)) == 2


def test_only_losses_after_a_chance_count_for_seven_out() -> None:
    outcomes = {
        Outcome(Termination.NICK, 7): F(2, 9),
        Outcome(Termination.OUT, 7): F(1, 9),
        Outcome(Termination.MAIN, 7, 4): F(1, 3),
        Outcome(Termination.CHANCE, 7, 4): F(1, 3),
    }
    assert expected_rounds_kept(DicePassing(1, LossCount.AFTER_CHANCE), outcomes) == 3
    assert expected_rounds_kept(DicePassing(1, LossCount.ANY), outcomes) == F(9, 4)


def test_craps_shooter_keeps_the_dice_until_a_seven_out() -> None:
    # P(seven out) = P(point set, then 7 first) = 196/495.
    assert analyse(find_ruleset("craps")).mains[0].expected_rounds_kept == F(495, 196)


def test_sca_a_win_keeps_the_dice_and_a_loss_or_no_main_passes() -> None:
    report = analyse(find_ruleset("sca-isenfir"))
    assert report.overall is not None
    main_set = 1 - report.p_no_round
    win = report.overall.p_win
    assert report.overall.expected_rounds_kept == main_set / (1 - main_set * win)
    # A main's row is every round on that main, as if thrown: no throw for the main passes the dice.
    for odds in report.mains:
        assert odds.expected_rounds_kept == 1 / odds.p_lose


@pytest.mark.parametrize("main", [5, 6, 7, 8, 9])
def test_wikipedia_three_losses_in_succession(main: int) -> None:
    odds = analyse(find_ruleset("wikipedia"), main=main).mains[0]
    q = odds.p_lose
    assert odds.expected_rounds_kept == (1 - q**3) / ((1 - q) * q**3)


def test_wikipedia_caster_calling_a_main_at_random_keeps_the_dice_13_399_rounds() -> None:
    odds = analyse_random_main(find_ruleset("wikipedia"))
    assert odds.expected_rounds_kept == F(3432302039855442600, 256160391252149357)
    assert f"{float(odds.expected_rounds_kept):.3f}" == "13.399"
    # The mixed round loses with the mean of the mains' chances, and three of them in a row pass the dice.
    q = odds.p_lose
    assert odds.expected_rounds_kept == (1 - q**3) / ((1 - q) * q**3)


def test_huge_figures_have_no_float() -> None:
    assert as_float(F(10**400, 3)) is None
    assert as_float(F(1, 3)) == pytest.approx(1 / 3)


def test_the_random_main_is_for_a_called_main() -> None:
    thrown = next(r for r in builtin_rulesets() if r.method is MainMethod.THROWN)
    with pytest.raises(IllegalError, match="illegal random main in ruleset 'ecws-1674': the main is thrown"):
        analyse_random_main(thrown)
