"""Paytables: what the caster's stake nets on each ending, checks against a ruleset, validation."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given, settings
from tests.fuzzing import BUILTIN_PAYTABLE_TEXTS, check_paytable_text, mutated_toml
from tests.strategies import rulesets

from hazard.analysis.markov import RoundChain
from hazard.core.dice import ways
from hazard.core.errors import InvalidError
from hazard.core.paytable import ChanceOdds, Paytable
from hazard.core.rules import MainMethod, MainRow, Ruleset
from hazard.core.rulesets import builtin_rulesets, find_paytable, find_ruleset, paytable_from_toml
from hazard.core.state import Outcome, Phase, Round, Termination

EVEN = find_paytable("even")
TRUE_ODDS = find_paytable("true-odds")
WIKIPEDIA = find_paytable("wikipedia")


@pytest.mark.parametrize(
    ("outcome", "even", "true_odds", "wikipedia"),
    [
        (Outcome(Termination.NICK, 7), 1, 1, 1),
        (Outcome(Termination.NICK, 5), 1, 1, 1),
        (Outcome(Termination.OUT, 7), -1, -1, -1),
        (Outcome(Termination.MAIN, 7, 4), -1, -1, -1),
        (Outcome(Termination.MAIN, 5, 7), -1, -1, -1),
        (Outcome(Termination.NO_MAIN, None), 0, 0, 0),
        (Outcome(Termination.CHANCE, 7, 4), 1, 2, 2),
        (Outcome(Termination.CHANCE, 7, 5), 1, Fraction(3, 2), Fraction(3, 2)),
        (Outcome(Termination.CHANCE, 5, 7), 1, Fraction(2, 3), Fraction(2, 3)),
        (Outcome(Termination.CHANCE, 6, 8), 1, 1, 1),
        (Outcome(Termination.CHANCE, 9, 6), 1, Fraction(4, 5), Fraction(4, 5)),
    ],
    ids=str,
)
def test_caster_net(outcome: Outcome, even: Fraction, true_odds: Fraction, wikipedia: Fraction) -> None:
    assert EVEN.caster_net(outcome) == even
    assert TRUE_ODDS.caster_net(outcome) == true_odds
    assert WIKIPEDIA.caster_net(outcome) == wikipedia
    assert isinstance(WIKIPEDIA.caster_net(outcome), Fraction)


def test_true_odds_are_main_ways_to_chance_ways() -> None:
    for row in find_ruleset("britannica-1911").rows:
        for chance in row.chances:
            assert TRUE_ODDS.chance_odds(row.main, chance) == Fraction(ways(row.main), ways(chance))


@pytest.mark.parametrize(("main", "chance"), [(m, c) for m in range(5, 10) for c in range(4, 11) if m != c])
def test_true_odds_make_the_chance_a_fair_bet(main: int, chance: int) -> None:
    # Once the chance is set it comes first with probability ways(chance) / (ways(chance) + ways(main)).
    win = Fraction(ways(chance), ways(chance) + ways(main))
    expected = win * TRUE_ODDS.caster_net(Outcome(Termination.CHANCE, main, chance)) + (1 - win) * (
        TRUE_ODDS.caster_net(Outcome(Termination.MAIN, main, chance))
    )
    assert expected == 0
    # Even money favours the setter on every chance less likely than the main, and the caster otherwise.
    even = win * 1 - (1 - win)
    assert (even < 0) == (ways(chance) < ways(main))


class TestCheck:
    def test_full_table_passes(self) -> None:
        WIKIPEDIA.check(find_ruleset("wikipedia"))
        EVEN.check(find_ruleset("craps"))

    def test_missing_cell_is_refused(self) -> None:
        table = dict(WIKIPEDIA.table)
        del table[(7, 4)]
        partial = Paytable("partial", "Partial", flat=None, table=table)
        with pytest.raises(InvalidError) as info:
            partial.check(find_ruleset("wikipedia"))
        assert str(info.value) == (
            "paytable 'partial' has no odds for a chance of 4 on a main of 7, "
            "which ruleset 'wikipedia' can set"
        )
        # Without 4 among the points, craps never needs the missing cell.
        craps = find_ruleset("craps")
        row = craps.row(7)
        no_four = Ruleset(
            id="no-four",
            name="Craps without 4",
            source=craps.source,
            method=craps.method,
            rows=(MainRow(7, row.nicks, row.outs, row.chances - {4}),),
        )
        partial.check(no_four)

    def test_table_for_other_mains_is_refused(self) -> None:
        with pytest.raises(InvalidError, match="no odds for a chance of 4 on a main of 7"):
            Paytable("sixes", "Sixes", flat=None, table={(6, 5): Fraction(5, 4)}).check(find_ruleset("craps"))

    @settings(max_examples=40, deadline=None)
    @given(rulesets())
    def test_flat_and_true_odds_cover_any_ruleset(self, ruleset: Ruleset) -> None:
        EVEN.check(ruleset)
        TRUE_ODDS.check(ruleset)
        for row in ruleset.rows:
            for chance in row.chances:
                assert TRUE_ODDS.caster_net(Outcome(Termination.CHANCE, row.main, chance)) > 0


class TestValidation:
    def test_defaults_to_even_money(self) -> None:
        paytable = Paytable("plain", "Plain")
        assert paytable.nick == 1
        assert paytable.flat == 1
        assert paytable.chance_odds(7, 4) == 1
        assert paytable.describe_chance() == "even money"

    @pytest.mark.parametrize(
        "kwargs",
        [
            {"flat": Fraction(2), "table": {(7, 4): Fraction(2)}},
            {"flat": None, "true_odds": True, "table": {(7, 4): Fraction(2)}},
        ],
    )
    def test_exactly_one_way_to_pay_a_chance(self, kwargs: dict[str, object]) -> None:
        with pytest.raises(InvalidError) as info:
            Paytable("odd", "Odd", **kwargs)  # type: ignore[arg-type]
        assert str(info.value) == (
            "invalid paytable 'odd': a won chance must be paid one way (flat odds, true odds or a table)"
        )

    @pytest.mark.parametrize(
        ("kwargs", "message"),
        [
            ({"nick": Fraction(0)}, "invalid paytable 'bad': nick odds 0 must be above 0"),
            ({"nick": Fraction(-1, 2)}, "invalid paytable 'bad': nick odds -1/2 must be above 0"),
            ({"flat": Fraction(0)}, "invalid paytable 'bad': chance odds 0 must be above 0"),
            (
                {"flat": None, "table": {(7, 4): Fraction(2), (7, 5): Fraction(0)}},
                "invalid paytable 'bad': main 7 chance 5 odds 0 must be above 0",
            ),
        ],
    )
    def test_odds_must_be_positive(self, kwargs: dict[str, object], message: str) -> None:
        with pytest.raises(InvalidError) as info:
            Paytable("bad", "Bad", **kwargs)  # type: ignore[arg-type]
        assert str(info.value) == message

    def test_true_odds_alone(self) -> None:
        paytable = Paytable("t", "T", flat=None, true_odds=True)
        assert paytable.chance_odds(6, 4) == Fraction(5, 3)

    def test_missing_cell(self) -> None:
        with pytest.raises(InvalidError) as info:
            WIKIPEDIA.chance_odds(7, 7)
        assert str(info.value) == "paytable 'wikipedia' has no odds for a chance of 7 on a main of 7"

    @pytest.mark.parametrize(
        ("paytable", "text"),
        [
            (EVEN, "even money"),
            (Paytable("f", "F", flat=Fraction(3, 2)), "3/2 on every chance"),
            (TRUE_ODDS, "the true odds against the chance (main's ways to chance's ways)"),
            (WIKIPEDIA, "odds by main and chance, from a table"),
        ],
        ids=lambda p: p.id if isinstance(p, Paytable) else "text",
    )
    def test_describe_chance(self, paytable: Paytable, text: str) -> None:
        assert paytable.describe_chance() == text

    def test_hashable(self) -> None:
        assert hash(WIKIPEDIA) == hash(find_paytable("wikipedia"))

    def test_chance_odds_names(self) -> None:
        assert ChanceOdds.TRUE == "true-odds"
        assert ChanceOdds.TABLE == "table"


def test_true_odds_alone_needs_no_flat_and_nothing_said_is_even() -> None:
    assert Paytable("t", "T", true_odds=True).chance_odds(7, 4) == 2
    assert Paytable("e", "E").chance_odds(7, 4) == 1


# --- the most a unit stake can win the caster ------------------------------------------------------------


def _one_main(ruleset: Ruleset, main: int) -> Ruleset:
    return Ruleset(
        id=f"{ruleset.id}-on-{main}",
        name=ruleset.name,
        source=ruleset.source,
        method=MainMethod.FIXED,
        rows=(ruleset.row(main),),
    )


@pytest.mark.parametrize(
    ("main", "even", "true_odds", "wikipedia"),
    [
        (None, 1, 2, 2),
        (5, 1, Fraction(4, 3), Fraction(4, 3)),  # a 4 or a 10 on a main of 5: 4 ways to 3
        (6, 1, Fraction(5, 3), Fraction(5, 3)),
        (7, 1, 2, 2),
        (8, 1, Fraction(5, 3), Fraction(5, 3)),
        (9, 1, Fraction(4, 3), Fraction(4, 3)),
    ],
)
def test_most_won_on_wikipedia(
    main: int | None, even: Fraction, true_odds: Fraction, wikipedia: Fraction
) -> None:
    ruleset = find_ruleset("wikipedia")
    played = ruleset if main is None else _one_main(ruleset, main)
    assert EVEN.most_won(played) == even
    assert TRUE_ODDS.most_won(played) == true_odds
    assert WIKIPEDIA.most_won(played) == wikipedia


def _reachable_best(paytable: Paytable, ruleset: Ruleset) -> Fraction:
    """The most the caster's unit can net over every ending the engine reaches, by brute force."""
    best = Fraction(0)
    for main in ruleset.mains:
        for outcome in RoundChain.build(_opening(ruleset, main)).outcomes:
            best = max(best, paytable.caster_net(outcome))
    return best


def _opening(ruleset: Ruleset, main: int) -> Round:
    return Round(ruleset, Phase.OPENING, main=main)


@settings(max_examples=60, deadline=None)
@given(rulesets())
def test_most_won_is_the_best_net_the_engine_can_reach(ruleset: Ruleset) -> None:
    for paytable in (EVEN, TRUE_ODDS, Paytable("rich", "Rich nick", nick=Fraction(7), flat=Fraction(3, 2))):
        assert paytable.most_won(ruleset) == _reachable_best(paytable, ruleset)


def test_a_nick_counts_only_where_some_main_has_one() -> None:
    rich = Paytable("rich", "Rich nick", nick=Fraction(5), flat=None, true_odds=True)
    craps = find_ruleset("craps")
    assert rich.most_won(craps) == 5
    row = craps.row(7)
    no_nick = Ruleset(
        "no-nick",
        "No nick",
        craps.source,
        MainMethod.FIXED,
        (MainRow(7, frozenset(), row.outs, row.chances),),
    )
    assert rich.most_won(no_nick) == 2
    only_outs = Ruleset(
        "outs",
        "Outs",
        craps.source,
        MainMethod.FIXED,
        (MainRow(7, frozenset(), frozenset({2}), frozenset()),),
    )
    assert rich.most_won(only_outs) == 0


def test_most_won_needs_odds_for_every_chance() -> None:
    with pytest.raises(InvalidError, match="no odds for a chance of 4 on a main of 7"):
        Paytable("sixes", "Sixes", flat=None, table={(6, 5): Fraction(5, 4)}).most_won(find_ruleset("craps"))


# --- Fuzzing: mutated paytable files load, or are refused with one InvalidError, quickly ---


@settings(derandomize=True, database=None, max_examples=400, deadline=None)
@given(mutated_toml(BUILTIN_PAYTABLE_TEXTS))
def test_fuzz_mutated_builtin_paytables_load_or_are_refused(text: str) -> None:
    check_paytable_text(text)


@settings(derandomize=True, database=None, max_examples=100, deadline=None)
@given(mutated_toml(BUILTIN_PAYTABLE_TEXTS))
def test_fuzz_a_loaded_paytable_settles_every_ending_of_a_ruleset(text: str) -> None:
    # What loads must be usable: checked against a ruleset, it pays or refuses with an InvalidError.
    try:
        paytable = paytable_from_toml(text, "'fuzz.toml'")
    except InvalidError:
        return
    for ruleset in builtin_rulesets():
        try:
            paytable.check(ruleset)
        except InvalidError:
            continue
        assert paytable.most_won(ruleset) > 0
        for row in ruleset.rows:
            assert paytable.caster_net(Outcome(Termination.NICK, row.main)) == paytable.nick
            for chance in sorted(row.chances):
                assert paytable.caster_net(Outcome(Termination.CHANCE, row.main, chance)) > 0
