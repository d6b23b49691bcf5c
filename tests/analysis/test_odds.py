"""Tests of hazard.analysis.odds: published figures, hand-derived formulas, brute force, and properties."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from fractions import Fraction

import pytest
from hypothesis import HealthCheck, given, settings
from tests.strategies import rulesets

from hazard.analysis import RoundChain, analyse, analyse_random_main
from hazard.analysis.odds import MainOdds
from hazard.core.dice import ROLLS, TOTALS, total_probability, ways
from hazard.core.engine import Call, Mover, apply, new_round, to_move
from hazard.core.errors import IllegalError, InvalidError
from hazard.core.paytable import Paytable
from hazard.core.rules import MainMethod, Ruleset
from hazard.core.rulesets import builtin_rulesets, find_paytable, find_ruleset, paytable_for
from hazard.core.state import Outcome, Phase, Round, Termination

BUILTIN = [ruleset.id for ruleset in builtin_rulesets()]


def _row(report_rows: tuple[MainOdds, ...], main: int) -> MainOdds:
    return next(odds for odds in report_rows if odds.main == main)


# --- published figures ---------------------------------------------------------------------------------


def test_craps_pass_line_wins_244_in_495() -> None:
    report = analyse(find_ruleset("craps"), paytable_for(find_ruleset("craps")))
    (odds,) = report.mains
    assert odds.p_win == Fraction(244, 495)
    assert odds.ev == Fraction(-7, 495)  # the pass line's 1.41% house edge
    assert odds.edge == Fraction(7, 495)
    assert odds.expected_throws == Fraction(557, 165)  # 3.376 rolls per pass-line decision


@pytest.mark.parametrize("main", [6, 8])
@pytest.mark.parametrize("ruleset_id", ["britannica-1911", "wikipedia", "cotton-1674", "ecws-1674"])
def test_chambers_setter_against_caster_on_6_or_8_is_7295_to_6961(ruleset_id: str, main: int) -> None:
    odds = analyse(find_ruleset(ruleset_id), main=main).mains[0]
    assert odds.p_win == Fraction(6961, 14256)
    assert odds.p_lose / odds.p_win == Fraction(7295, 6961)


# --- hand formulas, independent of the chain --------------------------------------------------------------


def _closed_form_p_win(ruleset: Ruleset, main: int) -> Fraction:
    """P(win) on a main from the sources' reasoning: a nick, or a chance c then c before the main.

    Opening throws that decide nothing are thrown again, so each opening branch is scaled by
    1 / (1 - P(again)).
    """
    row = ruleset.row(main)
    p_again = sum((total_probability(t) for t in row.again), Fraction(0))
    win = sum((total_probability(t) for t in row.nicks), Fraction(0))
    for chance in row.chances:
        win += total_probability(chance) * Fraction(ways(chance), ways(chance) + ways(main))
    return win / (1 - p_again)


@pytest.mark.parametrize("ruleset_id", BUILTIN)
def test_p_win_matches_the_closed_form(ruleset_id: str) -> None:
    ruleset = find_ruleset(ruleset_id)
    report = analyse(ruleset)
    for odds in report.mains:
        assert odds.main is not None
        assert odds.p_win == _closed_form_p_win(ruleset, odds.main)
    if ruleset.method.is_thrown:
        assert report.overall is not None
        weights = {m: Fraction(ways(m), sum(ways(x) for x in ruleset.mains)) for m in ruleset.mains}
        assert report.overall.p_win == sum(weights[m] * _closed_form_p_win(ruleset, m) for m in ruleset.mains)
        for odds in report.mains:
            assert odds.main is not None
            assert odds.p_main == weights[odds.main]


def test_ecws_main_7_throws_11_again() -> None:
    # 11 neither nicks nor throws out on 7, so the opening throw is repeated: P(nick) = 6/34, not 6/36.
    odds = analyse(find_ruleset("ecws-1674"), main=7).mains[0]
    assert odds.p_nick == Fraction(6, 34)
    assert odds.p_out == Fraction(4, 34)
    assert odds.p_win == Fraction(433, 935)


def test_sca_main_7_loses_to_11() -> None:
    odds = analyse(find_ruleset("sca-isenfir"), main=7).mains[0]
    assert odds.p_nick == Fraction(6, 36)
    assert odds.p_out == Fraction(6, 36)
    assert odds.p_win == Fraction(433, 990)


def test_sca_reports_the_no_round_throw_beside_the_figures() -> None:
    report = analyse(find_ruleset("sca-isenfir"))
    assert report.p_no_round == Fraction(12, 36)
    assert report.overall is not None
    # One throw for the main, then the round: the overall figure counts that throw.
    first = analyse(find_ruleset("sca-isenfir"), main=5).mains[0]
    assert first.expected_throws == report.mains[0].expected_throws


def test_thrown_main_counts_the_throws_for_the_main_in_the_overall_row_only() -> None:
    # ecws rethrows until 5-9 (24 of 36 outcomes): 36/24 = 3/2 throws on average set the main.
    ecws = analyse(find_ruleset("ecws-1674"))
    thrown = _row(ecws.mains, 6)
    called = analyse(find_ruleset("britannica-1911"), main=6).mains[0]
    assert thrown.expected_throws == called.expected_throws  # a main's row starts at its opening throw
    assert ecws.throws_for_main == Fraction(3, 2)
    assert ecws.from_throw_for_main(thrown).expected_throws == called.expected_throws + Fraction(3, 2)
    sca = analyse(find_ruleset("sca-isenfir"))
    assert sca.throws_for_main == 1
    assert sca.from_throw_for_main(_row(sca.mains, 6)).expected_throws == called.expected_throws + 1


THROWN = [r.id for r in builtin_rulesets() if r.method.is_thrown]


@pytest.mark.parametrize("ruleset_id", THROWN)
def test_one_main_asked_for_is_that_mains_row(ruleset_id: str) -> None:
    """``--main M`` and the row of M are one figure: every round on M, as if M had been thrown."""
    ruleset = find_ruleset(ruleset_id)
    paytable = paytable_for(ruleset)
    report = analyse(ruleset, paytable)
    for row in report.mains:
        assert row.main is not None
        alone = analyse(ruleset, paytable, main=row.main)
        assert alone.mains == (row,)
        assert alone.overall is None
        assert alone.p_no_round == 0  # its rounds start at the opening throw
        assert alone.throws_for_main == 0
        # The same as a ruleset whose main is fixed to M, but for P(main).
        fixed = analyse(replace(ruleset, method=MainMethod.FIXED, rows=(ruleset.row(row.main),)), paytable)
        assert fixed.mains == (replace(row, p_main=Fraction(1)),)


def _from_the_throw_for_main(ruleset: Ruleset, main: int) -> tuple[Fraction, Fraction, list[Fraction]]:
    """The rounds on ``main`` of the thrown chain, conditioned directly: mean, variance and distribution."""
    chain = RoundChain.build(new_round(ruleset))

    def on(outcome: Outcome) -> bool:
        return outcome.main == main

    mass = chain.probability(on)
    first, second = chain.throw_moments(on)
    distribution = [p / mass for p in chain.throw_distribution(on, up_to=12)]
    return first / mass, second / mass - (first / mass) ** 2, distribution


@pytest.mark.parametrize("ruleset_id", THROWN)
def test_adding_the_throws_for_the_main_is_conditioning_the_thrown_chain(ruleset_id: str) -> None:
    ruleset = find_ruleset(ruleset_id)
    report = analyse(ruleset)
    for row in report.mains:
        assert row.main is not None
        seen = report.from_throw_for_main(row)
        expected, variance, distribution = _from_the_throw_for_main(ruleset, row.main)
        assert seen.expected_throws == expected
        assert seen.throws_variance == variance
        assert list(seen.throws_distribution) == distribution
        assert replace(seen, expected_throws=row.expected_throws, throws_variance=row.throws_variance,
                       throws_distribution=row.throws_distribution) == row  # fmt: skip


@settings(max_examples=30, deadline=None)
@given(rulesets(methods=(MainMethod.THROWN, MainMethod.THROWN_OR_PASS)))
def test_the_overall_row_is_the_mains_and_the_throws_for_the_main(ruleset: Ruleset) -> None:
    report = analyse(ruleset)
    assert report.overall is not None
    mixed = sum((row.p_main * row.expected_throws for row in report.mains), Fraction(0))
    assert report.overall.expected_throws == mixed + report.throws_for_main
    for t, p in enumerate(report.overall.throws_distribution):
        assert p == sum(
            (row.p_main * report.from_throw_for_main(row).throws_distribution[t] for row in report.mains),
            Fraction(0),
        )
    # The mains' outcomes, weighted by P(main), are the overall outcomes.
    for outcome, p in report.overall.outcomes.items():
        assert outcome.main is not None
        assert (
            p == _row(report.mains, outcome.main).p_main * _row(report.mains, outcome.main).outcomes[outcome]
        )


def test_a_called_or_fixed_main_has_no_throws_for_it() -> None:
    assert analyse(find_ruleset("wikipedia")).throws_for_main == 0
    craps = analyse(find_ruleset("craps"))
    assert craps.throws_for_main == 0
    assert craps.from_throw_for_main(craps.mains[0]) == craps.mains[0]


# --- a main called at random ------------------------------------------------------------------------------


@pytest.mark.parametrize("ruleset_id", ["britannica-1911", "wikipedia", "craps"])
def test_a_main_called_at_random_is_the_mean_of_the_mains(ruleset_id: str) -> None:
    ruleset = find_ruleset(ruleset_id)
    paytable = paytable_for(ruleset) or find_paytable("even")
    rows = analyse(ruleset, paytable).mains
    mixed = analyse_random_main(ruleset, paytable)
    k = len(rows)
    assert mixed.main is None
    assert mixed.p_main == 1
    for name in ("p_win", "p_nick", "p_out", "ev", "expected_throws"):
        assert getattr(mixed, name) == sum((getattr(row, name) for row in rows), Fraction(0)) / k
    assert mixed.p_nick + mixed.p_out + sum(mixed.p_chance_set.values(), Fraction(0)) == 1
    assert sum(mixed.outcomes.values(), Fraction(0)) == 1
    second = sum((row.throws_variance + row.expected_throws**2 for row in rows), Fraction(0)) / k
    assert mixed.throws_variance == second - mixed.expected_throws**2
    if k == 1:
        assert mixed == replace(rows[0], main=None)


# --- paytables ---------------------------------------------------------------------------------------------


def test_wikipedia_table_is_fair_after_the_chance() -> None:
    # Every printed cell equals the true odds, so EV is the opening throw's even-money part alone.
    for odds in analyse(find_ruleset("wikipedia"), find_paytable("wikipedia")).mains:
        assert odds.ev == odds.p_nick - odds.p_out
    for odds in analyse(find_ruleset("wikipedia"), find_paytable("true-odds")).mains:
        assert odds.ev == odds.p_nick - odds.p_out


@pytest.mark.parametrize("ruleset_id", BUILTIN)
def test_even_money_ev_and_variance(ruleset_id: str) -> None:
    report = analyse(find_ruleset(ruleset_id), find_paytable("even"))
    for odds in [*report.mains, *([report.overall] if report.overall else [])]:
        assert odds.ev == 2 * odds.p_win - 1
        assert odds.variance == 1 - odds.ev**2


def test_variance_under_the_wikipedia_table_by_hand() -> None:
    ruleset = find_ruleset("wikipedia")
    paytable = find_paytable("wikipedia")
    odds = analyse(ruleset, paytable, main=7).mains[0]
    second = odds.p_nick * 1 + odds.p_out * 1
    for chance, p in odds.p_win_by_chance.items():
        second += p * paytable.chance_odds(7, chance) ** 2
    second += odds.p_lose - odds.p_out  # lost to the main after a chance: the stake, squared
    assert odds.ev is not None
    assert odds.variance == second - odds.ev**2


def test_no_paytable_means_no_expected_value() -> None:
    odds = analyse(find_ruleset("britannica-1911"), main=7).mains[0]
    assert odds.ev is None
    assert odds.edge is None
    assert odds.variance is None


def test_a_paytable_missing_a_cell_is_refused() -> None:
    partial = Paytable(id="partial", name="partial", flat=None, table={(7, 4): Fraction(2)})
    with pytest.raises(InvalidError, match="no odds for a chance of 5 on a main of 7"):
        analyse(find_ruleset("craps"), partial)


# --- bad input ---------------------------------------------------------------------------------------------


def test_a_main_outside_the_ruleset_is_illegal() -> None:
    with pytest.raises(IllegalError, match="illegal main 4 in ruleset 'wikipedia'"):
        analyse(find_ruleset("wikipedia"), main=4)
    with pytest.raises(IllegalError, match="illegal main 6 in ruleset 'craps'"):
        analyse(find_ruleset("craps"), main=6)


def test_a_main_that_is_no_total_is_invalid() -> None:
    with pytest.raises(InvalidError, match="invalid main 13"):
        analyse(find_ruleset("wikipedia"), main=13)


# --- JSON ------------------------------------------------------------------------------------------------


def test_json_form() -> None:
    data = analyse(find_ruleset("craps"), find_paytable("even")).to_json_dict()
    assert data["ruleset"] == "craps"
    assert data["paytable"] == "even"
    assert data["overall"] is None
    (main,) = data["mains"]
    assert main["main"] == 7
    assert main["p_win"] == "244/495"
    assert main["p_win_float"] == pytest.approx(244 / 495)
    assert main["expected_throws"] == "557/165"
    assert main["ev"] == "-7/495"
    for key in ("p_nick", "p_out", "throws_variance", "edge", "variance", "expected_rounds_kept"):
        assert isinstance(main[key], str)
        assert isinstance(main[f"{key}_float"], float)
    assert set(main["p_win_by_chance"]) == {"4", "5", "6", "8", "9", "10"}
    ecws = find_ruleset("ecws-1674")
    thrown = analyse(ecws, paytable_for(ecws)).to_json_dict()
    assert thrown["overall"]["main"] is None
    assert thrown["paytable"] == "even"
    assert thrown["throws_for_main"] == "3/2"
    assert thrown["throws_for_main_float"] == 1.5
    assert (
        thrown["dice_passing"] == "losing never passes the dice; the caster keeps them until giving them up"
    )
    assert analyse(find_ruleset("britannica-1911")).to_json_dict()["mains"][0]["ev"] is None
    assert data["throws_for_main"] == "0/1"
    assert data["p_no_round"] == "0/1"
    assert data["p_no_round_float"] == 0.0


# --- brute force and properties ---------------------------------------------------------------------------


def _sequences(
    state: Round, depth: int, probability: Fraction, throws: int
) -> Iterator[tuple[Round, Fraction, int]]:
    """Every sequence of throws from ``state`` up to ``depth`` throws, grouped by total (same effect)."""
    if state.is_over or depth == 0:
        yield state, probability, throws
        return
    by_total = {roll.total: roll for roll in ROLLS}
    for total in TOTALS:
        after, _ = apply(state, by_total[total])
        yield from _sequences(after, depth - 1, probability * total_probability(total), throws + 1)


def _check_against_brute_force(ruleset: Ruleset, depth: int) -> None:
    report = analyse(ruleset, distribution_throws=depth)
    starts: list[tuple[MainOdds, Round]] = []
    if ruleset.method.is_thrown:
        assert report.overall is not None
        starts.append((report.overall, new_round(ruleset)))
        for odds in report.mains:  # a main's row starts at its opening throw, as if it had been thrown
            starts.append((odds, Round(ruleset, Phase.OPENING, main=odds.main)))
    else:
        for odds in report.mains:
            state = new_round(ruleset)
            if to_move(state) is Mover.CASTER:
                state, _ = apply(state, Call(odds.main or 0))
            starts.append((odds, state))
    for odds, start in starts:
        played = 1 - report.p_no_round if start.phase is Phase.MAIN else 1
        won = lost = no_round = undecided = Fraction(0)
        by_throws = [Fraction(0)] * depth
        for end, p, throws in _sequences(start, depth, Fraction(1), 0):
            if not end.is_over:
                undecided += p
                continue
            assert end.outcome is not None
            if end.outcome.termination is Termination.NO_MAIN:
                no_round += p
                continue
            by_throws[throws - 1] += p
            if end.outcome.caster_wins:
                won += p
            else:
                lost += p
        # Exact P(win) lies between what the truncated tree has won and that plus the undecided mass.
        assert won <= odds.p_win * played <= won + undecided
        assert lost <= odds.p_lose * played <= lost + undecided
        # Throw counts the tree saw in full are exact.
        assert [p / played for p in by_throws] == list(odds.throws_distribution)


@pytest.mark.parametrize("ruleset_id", BUILTIN)
def test_builtin_rulesets_agree_with_brute_force(ruleset_id: str) -> None:
    _check_against_brute_force(find_ruleset(ruleset_id), depth=4)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rulesets())
def test_random_rulesets_agree_with_brute_force(ruleset: Ruleset) -> None:
    _check_against_brute_force(ruleset, depth=3)


@settings(max_examples=40, deadline=None)
@given(rulesets())
def test_outcome_probabilities_sum_to_one_for_every_main(ruleset: Ruleset) -> None:
    report = analyse(ruleset, find_paytable("true-odds"))
    rows = [*report.mains, *([report.overall] if report.overall else [])]
    for odds in rows:
        assert odds.p_nick + odds.p_out + sum(odds.p_chance_set.values(), Fraction(0)) == 1
        assert odds.p_nick + odds.p_chance_won == odds.p_win
        assert 0 <= odds.p_win <= 1
        assert odds.expected_throws >= 1
        assert odds.throws_variance >= 0
        assert 0 <= odds.throws_tail <= 1
    if ruleset.method.is_thrown:
        assert sum((odds.p_main for odds in report.mains), Fraction(0)) == 1
    else:
        assert report.p_no_round == 0


@pytest.mark.parametrize("method", [MainMethod.THROWN, MainMethod.THROWN_OR_PASS])
def test_overall_is_the_mix_of_the_mains(method: MainMethod) -> None:
    ruleset = next(r for r in builtin_rulesets() if r.method is method)
    report = analyse(ruleset, find_paytable("even"))
    assert report.overall is not None
    for name in ("p_win", "p_nick", "p_out", "ev"):
        mixed = sum((odds.p_main * getattr(odds, name) for odds in report.mains), Fraction(0))
        assert getattr(report.overall, name) == mixed
