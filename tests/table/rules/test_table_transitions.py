"""The table's rules: stakes and settlements checked by hand against the sources, ruleset by ruleset (dice
passing, side bets, refusals, seats and who may act are in the ``test_table_transitions_*`` files beside).

Every amount here is worked out from the source text, not from the code: the Wikipedia article's own example
("with a stake of £10, a main of 7 and a chance of 5, a caster stands to win £15") and its odds table; the
English Civil War Society's even-money sum; the Shire of Isenfir's caster who "collects all bets" or "must
match the bets of all the betters".

Every action is taken by the player whose action it is (:func:`rightful`, worked out here from the rules of
who may act, not by the code), and :func:`play` checks that the referee entering the same action gets the very
same table and events.
"""

from __future__ import annotations

from fractions import Fraction

import pytest
from tests.strategies import throw_of as t
from tests.table.rules.transitions_helpers import (
    all_table,
    bank_table,
    bankrolls,
    play,
    refused,
    setter_table,
    settled,
    table_for,
)

from hazard.core.errors import IllegalError, InvalidError
from hazard.core.events import ChanceSet, MainRethrown, Nick, NoEffect, NoMain, ThrowOut
from hazard.core.paytable import Paytable
from hazard.core.rules import StakeArrangement
from hazard.core.rulesets import find_ruleset
from hazard.core.state import Phase, Termination
from hazard.table.rules.actions import Call, Sit, Stake
from hazard.table.rules.events import CasterChanged, RoundSettled, Thrown
from hazard.table.rules.state import Transfer, new_table

# --- wikipedia: caster against a setter or bank, paid by the source's odds table --------------------------

# The source's betting table, row by row (main) and column by column (chance 4 to 10), as printed.
_WIKIPEDIA_ODDS = {
    5: {4: "4/3", 6: "4/5", 7: "2/3", 8: "4/5", 9: "1/1", 10: "4/3"},
    6: {4: "5/3", 5: "5/4", 7: "5/6", 8: "1/1", 9: "5/4", 10: "5/3"},
    7: {4: "2/1", 5: "3/2", 6: "6/5", 8: "6/5", 9: "3/2", 10: "2/1"},
    8: {4: "5/3", 5: "5/4", 6: "1/1", 7: "5/6", 9: "5/4", 10: "5/3"},
    9: {4: "4/3", 5: "1/1", 6: "4/5", 7: "2/3", 8: "4/5", 10: "4/3"},
}


def test_wikipedia_is_a_bank_table_with_the_source_paytable() -> None:
    table = bank_table()
    assert table.stakes is StakeArrangement.BANK
    assert table.paytable.id == "wikipedia"
    assert table.caster == "Cass"


def test_the_source_example_main_7_chance_5_stake_10_wins_15() -> None:
    table, events = play(bank_table(), Stake("Sam", Fraction(10)), Call(7), t(5), t(5))
    settlement = settled(events)
    assert settlement.outcome.termination is Termination.CHANCE
    assert settlement.transfers == (Transfer("Sam", "Cass", Fraction(15)),)
    assert bankrolls(table) == {"Cass": 1015, "Sam": 985}
    assert str(settlement) == "the caster Cass wins 15.00 (Sam pays Cass 15.00)"
    assert table.wagers == ()
    assert table.round.phase is Phase.MAIN


def test_the_source_example_main_5_chance_6_stake_10_wins_8() -> None:
    table, events = play(bank_table(), Stake("Sam", Fraction(10)), Call(5), t(6), t(4), t(6))
    assert settled(events).transfers == (Transfer("Sam", "Cass", Fraction(8)),)
    assert bankrolls(table) == {"Cass": 1008, "Sam": 992}


@pytest.mark.parametrize(
    ("main", "chance"), [(m, c) for m, row in _WIKIPEDIA_ODDS.items() for c in row], ids=str
)
def test_every_cell_of_the_wikipedia_odds_table_pays_as_printed(main: int, chance: int) -> None:
    # a throw that is neither main nor chance in between must change nothing
    idle = next(total for total in (4, 5, 6, 8, 9, 10) if total not in (main, chance))
    table, events = play(bank_table(), Stake("Sam", Fraction(10)), Call(main), t(chance), t(idle), t(chance))
    won = 10 * Fraction(_WIKIPEDIA_ODDS[main][chance])
    assert settled(events).transfers == (Transfer("Sam", "Cass", won),)
    assert bankrolls(table)["Cass"] == 1000 + won


@pytest.mark.parametrize(
    ("main", "throw"), [(5, 5), (6, 6), (6, 12), (7, 7), (7, 11), (8, 8), (8, 12), (9, 9)], ids=str
)
def test_a_nick_pays_the_stake(main: int, throw: int) -> None:
    table, events = play(bank_table(), Stake("Sam", Fraction(10)), Call(main), t(throw))
    assert [type(e) for e in events[-3:]] == [Thrown, Nick, RoundSettled]
    assert settled(events).transfers == (Transfer("Sam", "Cass", Fraction(10)),)
    assert bankrolls(table) == {"Cass": 1010, "Sam": 990}


@pytest.mark.parametrize(
    ("main", "throw"), [(5, 2), (5, 11), (5, 12), (6, 3), (6, 11), (7, 2), (7, 3), (7, 12), (9, 12)], ids=str
)
def test_an_out_loses_the_stake(main: int, throw: int) -> None:
    table, events = play(bank_table(), Stake("Sam", Fraction(10)), Call(main), t(throw))
    assert any(isinstance(e, ThrowOut) for e in events)
    assert settled(events).transfers == (Transfer("Cass", "Sam", Fraction(10)),)
    assert bankrolls(table) == {"Cass": 990, "Sam": 1010}


def test_a_lost_chance_loses_the_stake_whatever_the_odds() -> None:
    table, events = play(bank_table(), Stake("Sam", Fraction(10)), Call(7), t(4), t(11), t(2), t(7))
    assert settled(events).outcome.termination is Termination.MAIN
    assert settled(events).transfers == (Transfer("Cass", "Sam", Fraction(10)),)
    assert bankrolls(table) == {"Cass": 990, "Sam": 1010}
    assert str(settled(events)) == "the caster Cass loses 10.00 (Cass pays Sam 10.00)"


def test_several_setters_against_one_caster_are_each_paid_by_the_table() -> None:
    table = table_for("wikipedia", ("Cass", 100), ("Sam", 100), ("Sue", 100))
    table, events = play(table, Stake("Sam", Fraction(10)), Stake("Sue", Fraction(4)), Call(9), t(6), t(6))
    # main 9, chance 6: 4/5
    assert settled(events).transfers == (
        Transfer("Sam", "Cass", Fraction(8)),
        Transfer("Sue", "Cass", Fraction(16, 5)),
    )
    assert bankrolls(table) == {"Cass": Fraction(5560, 50), "Sam": 92, "Sue": Fraction(484, 5)}


def test_a_round_without_stakes_moves_no_money() -> None:
    table, events = play(bank_table(), Call(7), t(7))
    assert settled(events).transfers == ()
    assert str(settled(events)) == "no stakes change hands"
    assert bankrolls(table) == {"Cass": 1000, "Sam": 1000}


# --- other paytables and arrangements overriding the ruleset's --------------------------------------------


def test_the_even_paytable_overrides_the_wikipedia_odds() -> None:
    table = table_for("wikipedia", ("Cass", 100), ("Sam", 100), paytable="even")
    table, events = play(table, Stake("Sam", Fraction(10)), Call(7), t(4), t(4))
    assert settled(events).transfers == (Transfer("Sam", "Cass", Fraction(10)),)


def test_the_true_odds_paytable_overrides_the_wikipedia_odds() -> None:
    table = table_for("wikipedia", ("Cass", 100), ("Sam", 100), paytable="true-odds")
    # main 6, chance 4: 5 ways to 3, so 5/3 of the stake
    table, events = play(table, Stake("Sam", Fraction(10)), Call(6), t(4), t(4))
    assert settled(events).transfers == (Transfer("Sam", "Cass", Fraction(50, 3)),)
    # main 7, chance 9: 6 ways to 4, so 3/2
    table, events = play(table, Stake("Sam", Fraction(10)), Call(7), t(9), t(9))
    assert settled(events).transfers == (Transfer("Sam", "Cass", Fraction(15)),)
    # a nick is even money
    table, events = play(table, Stake("Sam", Fraction(10)), Call(8), t(12))
    assert settled(events).transfers == (Transfer("Sam", "Cass", Fraction(10)),)


def test_a_paytable_with_a_richer_nick_pays_it() -> None:
    rules = find_ruleset("wikipedia")
    table = new_table(rules, Paytable("rich-nick", "Nick pays 2", nick=Fraction(2)))
    table, _ = play(table, Sit("Cass", Fraction(100)), Sit("Sam", Fraction(100)))
    table, events = play(table, Stake("Sam", Fraction(10)), Call(7), t(11))
    assert settled(events).transfers == (Transfer("Sam", "Cass", Fraction(20)),)
    # ... and a setter must be able to cover twice the stake
    refused(table, Stake("Sam", Fraction(41)), IllegalError, "Sam cannot cover it", "could win 82")


def test_a_paytable_missing_a_chance_of_the_ruleset_is_refused_at_the_table() -> None:
    rules = find_ruleset("wikipedia")
    partial = Paytable("partial", "Partial", table={(7, 4): Fraction(2)})
    with pytest.raises(InvalidError, match="no odds for a chance of"):
        new_table(rules, partial)


def test_the_stake_arrangement_can_be_overridden() -> None:
    table = table_for(
        "ecws-1674", ("Cass", 100), ("Sam", 100), ("Sue", 100), stakes=StakeArrangement.ALL_AGAINST_CASTER
    )
    assert table.stakes is StakeArrangement.ALL_AGAINST_CASTER
    # two betters at once, which the ruleset's own setter-sum arrangement refuses
    table, events = play(table, Stake("Sam", Fraction(10)), Stake("Sue", Fraction(5)), t(7), t(7))
    assert settled(events).transfers == (
        Transfer("Sam", "Cass", Fraction(10)),
        Transfer("Sue", "Cass", Fraction(5)),
    )


def test_ecws_setter_sum_even_money_on_a_chance() -> None:
    table = setter_table()
    assert table.stakes is StakeArrangement.SETTER_SUM
    # 2 is no main: thrown again; 7 is the main; 11 on 7 is neither nick nor crab: thrown again;
    # 4 the chance; then 4 before 7
    table, events = play(table, Stake("Sam", Fraction(10)), t(2), t(7), t(11), t(4), t(6), t(4))
    assert events[1] == Thrown("Cass", t(2))
    assert isinstance(events[2], MainRethrown)
    assert any(isinstance(e, NoEffect) and e.chance is None for e in events)
    assert any(isinstance(e, ChanceSet) for e in events)
    assert settled(events).transfers == (Transfer("Sam", "Cass", Fraction(10)),)
    assert bankrolls(table) == {"Cass": 110, "Sam": 90, "Sue": 100}


def test_ecws_setter_sum_lost_to_a_crab_and_to_the_main() -> None:
    table, events = play(setter_table(), Stake("Sam", Fraction(10)), t(6), t(11))
    assert settled(events).transfers == (Transfer("Cass", "Sam", Fraction(10)),)
    table, events = play(table, Stake("Sam", Fraction(25)), t(9), t(5), t(9))
    assert settled(events).transfers == (Transfer("Cass", "Sam", Fraction(25)),)
    assert bankrolls(table) == {"Cass": 65, "Sam": 135, "Sue": 100}


def test_ecws_the_setter_may_add_to_his_sum_but_nobody_else_may_set() -> None:
    table, _ = play(setter_table(), Stake("Sam", Fraction(10)), Stake("Sam", Fraction(5)))
    refused(
        table, Stake("Sue", Fraction(5)), IllegalError, "stake of 5 by 'Sue'", "Sam is already the setter"
    )
    table, events = play(table, t(8), t(12))
    assert settled(events).transfers == (
        Transfer("Sam", "Cass", Fraction(10)),
        Transfer("Sam", "Cass", Fraction(5)),
    )


def test_ecws_no_sum_after_the_first_throw() -> None:
    table, _ = play(setter_table(), t(2))  # thrown again for the main, but the round has begun
    refused(table, Stake("Sam", Fraction(5)), IllegalError, "stake of 5 by 'Sam'", "before the round begins")


def test_sca_the_caster_collects_all_bets_on_a_win() -> None:
    table = all_table()
    assert table.stakes is StakeArrangement.ALL_AGAINST_CASTER
    # Part I: 6 is the main; then the betters bet; Part II: 12 on a main of 6 is a W
    table, events = play(
        table, t(6), Stake("Ann", Fraction(5)), Stake("Ben", Fraction(10)), Stake("Cat", Fraction(20)), t(12)
    )
    assert settled(events).transfers == (
        Transfer("Ann", "Cass", Fraction(5)),
        Transfer("Ben", "Cass", Fraction(10)),
        Transfer("Cat", "Cass", Fraction(20)),
    )
    assert bankrolls(table) == {"Cass": 1035, "Ann": 95, "Ben": 90, "Cat": 80}
    assert table.caster == "Cass"  # a win keeps the dice


def test_sca_the_caster_matches_all_bets_on_a_loss_and_passes_the_dice() -> None:
    # 11 on a main of 7 is an L in the source's Part II table
    table, events = play(
        all_table(),
        t(7),
        Stake("Ann", Fraction(5)),
        Stake("Ben", Fraction(10)),
        Stake("Cat", Fraction(20)),
        t(11),
    )
    assert settled(events).outcome.termination is Termination.OUT
    assert settled(events).transfers == (
        Transfer("Cass", "Ann", Fraction(5)),
        Transfer("Cass", "Ben", Fraction(10)),
        Transfer("Cass", "Cat", Fraction(20)),
    )
    assert bankrolls(table) == {"Cass": 965, "Ann": 105, "Ben": 110, "Cat": 120}
    assert table.caster == "Ann"
    assert events[-1] == CasterChanged("Cass", "Ann", "every lost round passes the dice")


def test_sca_bets_once_the_chance_is_set_need_the_casters_consent() -> None:
    table, _ = play(all_table(), t(8), Stake("Ann", Fraction(5)), t(4))
    assert table.round.phase is Phase.CHANCE
    refused(
        table,
        Stake("Ben", Fraction(10)),
        IllegalError,
        "stake of 10 by 'Ben'",
        "once the chance is set",
        "consent",
    )
    # the caster enters the late bet with his consent (and the referee may, for him)
    table, _ = play(table, Stake("Ben", Fraction(10), consent=True), t(5), t(8))
    # part III: the main before the chance, the caster matches every bet, the later one included
    assert bankrolls(table) == {"Cass": 985, "Ann": 105, "Ben": 110, "Cat": 100}


def test_sca_bets_before_the_main_and_after_it_need_no_consent() -> None:
    table, _ = play(all_table(), Stake("Ann", Fraction(5)), t(9), Stake("Ben", Fraction(5)))
    assert [w.opponent for w in table.wagers] == ["Ann", "Ben"]


def test_sca_a_main_thrown_out_of_range_passes_the_dice_and_no_stakes_change_hands() -> None:
    for total in (2, 3, 4, 10, 11, 12):
        table, events = play(all_table(), Stake("Ann", Fraction(5)), Stake("Ben", Fraction(7)), t(total))
        assert events[2] == Thrown("Cass", t(total))
        assert isinstance(events[3], NoMain)
        settlement = settled(events)
        assert settlement.outcome.termination is Termination.NO_MAIN
        assert settlement.transfers == ()
        assert bankrolls(table) == {"Cass": 1000, "Ann": 100, "Ben": 100, "Cat": 100}
        assert table.wagers == ()
        assert table.caster == "Ann"
        assert table.rounds_played == 0
        assert isinstance(events[-1], CasterChanged)


def test_sca_the_caster_must_cover_all_the_bets_together() -> None:
    table, _ = play(all_table(cass=30), t(7), Stake("Ann", Fraction(20)))
    refused(
        table,
        Stake("Ben", Fraction(15)),
        IllegalError,
        "stake of 15 by 'Ben'",
        "the caster Cass cannot cover it",
    )
    refused(table, Stake("Ben", Fraction(15)), IllegalError, "(10 free)")
    table, _ = play(table, Stake("Ben", Fraction(10)))
    refused(
        table, Stake("Cat", Fraction(1, 100)), IllegalError, "the caster Cass cannot cover it", "(0 free)"
    )
    table, events = play(table, t(2))
    assert bankrolls(table)["Cass"] == 0
    assert settled(events).transfers == (
        Transfer("Cass", "Ann", Fraction(20)),
        Transfer("Cass", "Ben", Fraction(10)),
    )
