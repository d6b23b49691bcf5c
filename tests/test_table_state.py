"""The table: stakes and settlements checked by hand against the sources, dice passing, side bets, refusals.

Every amount here is worked out from the source text, not from the code: the Wikipedia article's own example
("with a stake of £10, a main of 7 and a chance of 5, a caster stands to win £15") and its odds table; the
English Civil War Society's even-money sum; the Shire of Isenfir's caster who "collects all bets" or "must
match the bets of all the betters".
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

import pytest
from tests.strategies import throw_of as t

from hazard.core.dice import Roll
from hazard.core.errors import HazardError, IllegalError, InvalidError
from hazard.core.events import ChanceSet, MainRethrown, Nick, NoEffect, NoMain, ThrowOut
from hazard.core.paytable import Paytable
from hazard.core.propositions import parse_proposition
from hazard.core.rules import StakeArrangement
from hazard.core.rulesets import find_paytable, find_ruleset, paytable_for
from hazard.core.state import Phase, Termination
from hazard.table.actions import (
    Call,
    CancelBet,
    OfferBet,
    PassDice,
    Sit,
    Stake,
    TableAction,
    TakeBet,
    Throw,
    Withdraw,
)
from hazard.table.state import (
    AnyEvent,
    BetSettled,
    CasterChanged,
    RoundSettled,
    Table,
    Transfer,
    apply_action,
    new_table,
)


def table_for(
    ruleset: str,
    *seats: tuple[str, int] | tuple[str, int, str],
    paytable: str | None = None,
    stakes: StakeArrangement | None = None,
) -> Table:
    """A table for a built-in ruleset with players seated in order (the first holds the dice)."""
    rules = find_ruleset(ruleset)
    pays = find_paytable(paytable) if paytable else (paytable_for(rules) or find_paytable("even"))
    table = new_table(rules, pays, stakes)
    for seat in seats:
        bot = seat[2] if len(seat) == 3 else None
        table, _ = apply_action(table, Sit(seat[0], Fraction(seat[1]), bot))
    return table


def play(table: Table, *actions: TableAction) -> tuple[Table, list[AnyEvent]]:
    """Apply ``actions`` in turn; every event. Money must be conserved and no bankroll negative throughout."""
    events: list[AnyEvent] = []
    money = table.total_money
    for action in actions:
        table, new = apply_action(table, action)
        events.extend(new)
        if not isinstance(action, Sit):
            assert table.total_money == money, f"money not conserved by {action}"
        money = table.total_money
        assert all(p.bankroll >= 0 for p in table.players)
        assert all(table.available(p.name) >= 0 for p in table.players)
    return table, events


def bankrolls(table: Table) -> dict[str, Fraction]:
    return {p.name: p.bankroll for p in table.players}


def settled(events: Sequence[AnyEvent]) -> RoundSettled:
    found = [e for e in events if isinstance(e, RoundSettled)]
    assert len(found) == 1, events
    return found[0]


def refused(table: Table, action: TableAction, error: type[HazardError], *fragments: str) -> None:
    """``action`` is refused with ``error`` naming each fragment, and the table is left as it was."""
    before = repr(table)
    with pytest.raises(error) as caught:
        apply_action(table, action)
    assert type(caught.value) is error
    for fragment in fragments:
        assert fragment in str(caught.value), (fragment, str(caught.value))
    assert repr(table) == before


# --- wikipedia: caster against a setter or bank, paid by the source's odds table --------------------------

# The source's betting table, row by row (main) and column by column (chance 4 to 10), as printed.
_WIKIPEDIA_ODDS = {
    5: {4: "4/3", 6: "4/5", 7: "2/3", 8: "4/5", 9: "1/1", 10: "4/3"},
    6: {4: "5/3", 5: "5/4", 7: "5/6", 8: "1/1", 9: "5/4", 10: "5/3"},
    7: {4: "2/1", 5: "3/2", 6: "6/5", 8: "6/5", 9: "3/2", 10: "2/1"},
    8: {4: "5/3", 5: "5/4", 6: "1/1", 7: "5/6", 9: "5/4", 10: "5/3"},
    9: {4: "4/3", 5: "1/1", 6: "4/5", 7: "2/3", 8: "4/5", 10: "4/3"},
}


def bank_table() -> Table:
    return table_for("wikipedia", ("Cass", 1000), ("Sam", 1000))


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
    assert str(settlement) == "the caster Cass wins 15 (Sam pays Cass 15)"
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
    assert [type(e) for e in events[-2:]] == [Nick, RoundSettled]
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
    assert str(settled(events)) == "the caster Cass loses 10 (Cass pays Sam 10)"


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


# --- ecws-1674: the setter's sum, accepted at even money -------------------------------------------------


def setter_table() -> Table:
    return table_for("ecws-1674", ("Cass", 100), ("Sam", 100), ("Sue", 100))


def test_ecws_setter_sum_even_money_on_a_chance() -> None:
    table = setter_table()
    assert table.stakes is StakeArrangement.SETTER_SUM
    # 2 is no main: thrown again; 7 is the main; 11 on 7 is neither nick nor crab: thrown again;
    # 4 the chance; then 4 before 7
    table, events = play(table, Stake("Sam", Fraction(10)), t(2), t(7), t(11), t(4), t(6), t(4))
    assert isinstance(events[1], MainRethrown)
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


# --- sca-isenfir: every other player against the caster -------------------------------------------------


def all_table(cass: int = 1000) -> Table:
    return table_for("sca-isenfir", ("Cass", cass), ("Ann", 100), ("Ben", 100), ("Cat", 100))


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
    table, _ = play(table, Stake("Ben", Fraction(10), consent=True), t(5), t(8))
    # part III: the main before the chance, the caster matches every bet, the later one included
    assert bankrolls(table) == {"Cass": 985, "Ann": 105, "Ben": 110, "Cat": 100}


def test_sca_bets_before_the_main_and_after_it_need_no_consent() -> None:
    table, _ = play(all_table(), Stake("Ann", Fraction(5)), t(9), Stake("Ben", Fraction(5)))
    assert [w.opponent for w in table.wagers] == ["Ann", "Ben"]


def test_sca_a_main_thrown_out_of_range_passes_the_dice_and_no_stakes_change_hands() -> None:
    for total in (2, 3, 4, 10, 11, 12):
        table, events = play(all_table(), Stake("Ann", Fraction(5)), Stake("Ben", Fraction(7)), t(total))
        assert isinstance(events[2], NoMain)
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
    refused(table, Stake("Ben", Fraction(15)), IllegalError, "10 free")
    table, _ = play(table, Stake("Ben", Fraction(10)))
    refused(table, Stake("Cat", Fraction(1, 100)), IllegalError, "the caster Cass cannot cover it", "0 free")
    table, events = play(table, t(2))
    assert bankrolls(table)["Cass"] == 0
    assert settled(events).transfers == (
        Transfer("Cass", "Ann", Fraction(20)),
        Transfer("Cass", "Ben", Fraction(10)),
    )


# --- uncovered stakes and illegal actions -----------------------------------------------------------------


def test_a_setter_must_cover_the_stake_times_the_best_odds() -> None:
    # the Wikipedia table's best odds are 2/1 (main 7, chance 4 or 10), so a stake of 10 needs 20
    table = table_for("wikipedia", ("Cass", 100), ("Sam", 19), ("Sue", 20))
    refused(
        table,
        Stake("Sam", Fraction(10)),
        IllegalError,
        "stake of 10 by 'Sam'",
        "Sam cannot cover it (the caster could win 20; Sam has 19 free)",
    )
    table, _ = play(table, Stake("Sue", Fraction(10)), Call(7), t(10), t(10))
    assert bankrolls(table)["Sue"] == 0


def test_under_even_money_the_setter_covers_the_stake_itself() -> None:
    table = table_for("ecws-1674", ("Cass", 100), ("Sam", 10))
    refused(table, Stake("Sam", Fraction(21, 2)), IllegalError, "stake of 10.50 by 'Sam'", "cannot cover")
    play(table, Stake("Sam", Fraction(10)))


def test_the_bank_caster_must_cover_what_he_could_lose() -> None:
    table = table_for("wikipedia", ("Cass", 15), ("Sam", 1000), ("Sue", 1000))
    table, _ = play(table, Stake("Sam", Fraction(10)))
    refused(
        table,
        Stake("Sue", Fraction(6)),
        IllegalError,
        "stake of 6 by 'Sue'",
        "the caster Cass cannot cover it (5 free)",
    )


def test_side_bets_hold_back_money_from_stakes() -> None:
    table = table_for("wikipedia", ("Cass", 100), ("Sam", 30), ("Sue", 100))
    table, _ = play(table, OfferBet("Sam", "next odd", Fraction(15)))
    assert table.committed("Sam") == 15
    assert table.available("Sam") == 15
    refused(table, Stake("Sam", Fraction(10)), IllegalError, "Sam has 15 free")
    table, _ = play(table, CancelBet(1), Stake("Sam", Fraction(10)))
    assert table.committed("Sam") == 20
    assert table.committed("Cass") == 10


@pytest.mark.parametrize(
    ("action", "error", "fragments"),
    [
        (Throw(Roll(3, 4)), IllegalError, ("illegal throw 3-4", "Cass must call a main first")),
        (Call(4), IllegalError, ("illegal main 4", "the mains are 5, 6, 7, 8 and 9")),
        (Call(13), InvalidError, ("invalid main 13",)),
        (Stake("Zed", Fraction(5)), IllegalError, ("illegal player 'Zed'", "not at the table")),
        (Stake("Cass", Fraction(5)), IllegalError, ("stake of 5 by 'Cass'", "cannot stake against himself")),
        (Stake("Sam", Fraction(0)), InvalidError, ("stake of 0 by 'Sam'", "above 0")),
        (Stake("Sam", Fraction(-1)), InvalidError, ("stake of -1 by 'Sam'", "above 0")),
        (Withdraw("Sam"), IllegalError, ("withdrawal by 'Sam'", "no stake of theirs")),
        (Withdraw("Zed"), IllegalError, ("illegal player 'Zed'",)),
        (Sit("sam", Fraction(5)), IllegalError, ("seat for 'sam'", "already at the table")),
        (Sit("  ", Fraction(5)), InvalidError, ("invalid player name '  '",)),
        (Sit("x" * 41, Fraction(5)), InvalidError, ("invalid player name", "1 to 40 characters")),
        (Sit("Ned", Fraction(-5)), InvalidError, ("invalid bankroll -5 for 'Ned'",)),
        (OfferBet("Zed", "next odd", Fraction(1)), IllegalError, ("illegal player 'Zed'",)),
        (TakeBet(1, "Sam"), IllegalError, ("side bet #1", "no such bet is open")),
        (CancelBet(7), IllegalError, ("side bet #7", "no such bet is open")),
    ],
    ids=repr,
)
def test_illegal_and_invalid_actions_at_the_start(
    action: TableAction, error: type[HazardError], fragments: tuple[str, ...]
) -> None:
    refused(bank_table(), action, error, *fragments)


def test_illegal_actions_once_the_round_has_begun() -> None:
    table, _ = play(bank_table(), Stake("Sam", Fraction(5)), Call(7))
    refused(table, Stake("Sam", Fraction(5)), IllegalError, "stake of 5 by 'Sam'", "before the round begins")
    refused(table, Call(8), IllegalError, "illegal call of main 8", "the main is already set")
    refused(table, Withdraw("Sam"), IllegalError, "withdrawal by 'Sam'", "it has begun")
    refused(table, PassDice(), IllegalError, "pass of the dice", "finish the round first")


def test_an_empty_table_refuses_play() -> None:
    table = table_for("wikipedia")
    refused(table, Call(7), IllegalError, "call of main 7", "nobody is at the table")
    refused(table, Stake("Sam", Fraction(1)), IllegalError, "nobody is at the table")
    refused(table, PassDice(), IllegalError, "nobody is at the table")
    refused(table_for("ecws-1674"), t(7), IllegalError, "illegal throw 1-6", "nobody is at the table")


def test_calling_where_the_main_is_thrown_or_fixed_is_refused() -> None:
    refused(setter_table(), Call(7), IllegalError, "illegal call of main 7", "thrown, not called")
    refused(all_table(), Call(6), IllegalError, "illegal call of main 6", "thrown, not called")
    craps = table_for("craps", ("Cass", 10), ("Sam", 10))
    refused(craps, Call(7), IllegalError, "illegal call of main 7", "always 7")


def test_withdrawing_stakes_before_the_round() -> None:
    table, _ = play(bank_table(), Stake("Sam", Fraction(5)), Stake("Sam", Fraction(3)))
    table, events = play(table, Withdraw("Sam"))
    assert table.wagers == ()
    assert str(events[0]) == "Sam takes back the stakes against the caster"
    table, events = play(table, Call(7), t(7))
    assert settled(events).transfers == ()


def test_sitting_down_joins_at_the_end_of_the_order_and_the_first_takes_the_dice() -> None:
    table = table_for("wikipedia")
    table, events = play(table, Sit("Ann", Fraction(10)), Sit("Ben", Fraction(0), "setter"))
    assert table.caster == "Ann"
    assert [str(e) for e in events] == [
        "Ann sits down with 10",
        "Ann takes the dice",
        "Ben (setter bot) sits down with 0",
    ]
    assert [p.name for p in table.players] == ["Ann", "Ben"]
    assert table.total_money == 10


# --- dice passing ------------------------------------------------------------------------------------------


def lose(table: Table, ruleset_calls: bool = True) -> tuple[Table, list[AnyEvent]]:
    """The caster throws out (2 is an out on every main)."""
    return play(table, *([Call(7)] if ruleset_calls else [t(7)]), t(2))


def win(table: Table) -> tuple[Table, list[AnyEvent]]:
    return play(table, Call(7), t(7))


def test_wikipedia_three_losses_in_a_row_pass_the_dice_to_the_left() -> None:
    table = table_for("wikipedia", ("Ann", 10), ("Ben", 10), ("Cat", 10))
    table, _ = lose(table)
    table, _ = lose(table)
    assert (table.caster, table.losses_in_row) == ("Ann", 2)
    table, events = lose(table)
    assert table.caster == "Ben"
    assert table.losses_in_row == 0
    assert events[-1] == CasterChanged("Ann", "Ben", "the dice pass after 3 lost rounds in a row")
    assert str(events[-1]) == "the dice pass from Ann to Ben: the dice pass after 3 lost rounds in a row"


def test_wikipedia_a_win_resets_the_count_and_a_lost_chance_counts() -> None:
    table = table_for("wikipedia", ("Ann", 10), ("Ben", 10), ("Cat", 10))
    table, _ = lose(table)
    table, _ = lose(table)
    table, _ = win(table)
    assert (table.caster, table.losses_in_row) == ("Ann", 0)
    table, _ = lose(table)
    table, _ = play(table, Call(6), t(5), t(6))  # the main before the chance
    assert (table.caster, table.losses_in_row) == ("Ann", 2)
    table, _ = lose(table)
    assert table.caster == "Ben"
    assert table.rounds_played == 6


def test_the_dice_wrap_around_from_the_last_seat_to_the_first() -> None:
    table = table_for("wikipedia", ("Ann", 10), ("Ben", 10), ("Cat", 10))
    casters = []
    for _ in range(4):
        for _ in range(3):
            table, _ = lose(table)
        casters.append(table.caster)
    assert casters == ["Ben", "Cat", "Ann", "Ben"]


def test_sca_every_loss_passes_and_a_win_keeps_the_dice() -> None:
    table = table_for("sca-isenfir", ("Ann", 10), ("Ben", 10), ("Cat", 10))
    table, _ = play(table, t(7), t(7))  # a nick: keeps the dice
    assert table.caster == "Ann"
    table, _ = play(table, t(7), t(4), t(4))  # the chance: keeps the dice
    assert table.caster == "Ann"
    table, _ = play(table, t(7), t(4), t(7))  # the main after the chance: passes
    assert table.caster == "Ben"
    table, _ = play(table, t(5), t(3))  # thrown out: passes
    assert table.caster == "Cat"
    table, events = play(table, t(12))  # no main: passes, wrapping round
    assert table.caster == "Ann"
    assert events[-1] == CasterChanged("Cat", "Ann", "the throw for the main was no main")


def test_craps_only_a_seven_out_passes_the_dice() -> None:
    table = table_for("craps", ("Ann", 100), ("Ben", 100))
    for total in (2, 3, 12):
        table, events = play(table, t(total))
        assert settled(events).outcome.termination is Termination.OUT
        assert table.caster == "Ann"
    table, _ = play(table, t(6), t(8), t(6))  # point made
    assert table.caster == "Ann"
    table, events = play(table, t(6), t(7))  # seven out
    assert table.caster == "Ben"
    assert events[-1] == CasterChanged(
        "Ann", "Ben", "every round lost to the main after a chance passes the dice"
    )


def test_craps_pass_line_stakes_settle_at_even_money() -> None:
    # The main is fixed, so it is set before anything happens; stakes are laid before the come-out throw.
    table = table_for("craps", ("Ann", 100), ("Ben", 100))
    assert not table.round_begun
    table, events = play(table, Stake("Ben", Fraction(10)), t(11))
    assert settled(events).transfers == (Transfer("Ben", "Ann", Fraction(10)),)
    table, events = play(table, Stake("Ben", Fraction(10)), t(4), t(4))
    assert settled(events).transfers == (Transfer("Ben", "Ann", Fraction(10)),)
    table, _ = play(table, Stake("Ben", Fraction(10)), t(4))
    assert table.round_begun
    refused(table, Stake("Ben", Fraction(10)), IllegalError, "before the round begins")
    table, events = play(table, t(7))
    assert settled(events).transfers == (Transfer("Ann", "Ben", Fraction(10)),)
    assert bankrolls(table) == {"Ann": 110, "Ben": 90}


def test_craps_the_shooter_may_give_up_the_dice_between_rounds() -> None:
    table = table_for("craps", ("Ann", 100), ("Ben", 100))
    table, events = play(table, PassDice())
    assert table.caster == "Ben"
    assert events == [CasterChanged("Ann", "Ben", "Ann gives up the dice")]


@pytest.mark.parametrize("ruleset", ["britannica-1911", "ecws-1674", "cotton-1674"])
def test_losing_never_passes_the_dice_where_the_source_is_silent(ruleset: str) -> None:
    table = table_for(ruleset, ("Ann", 10), ("Ben", 10))
    calls = table.ruleset.method.value == "called"
    for _ in range(10):
        table, events = lose(table, ruleset_calls=calls)
        assert settled(events).outcome.termination is Termination.OUT
    assert table.caster == "Ann"
    assert not any(isinstance(e, CasterChanged) for e in events)


def test_the_dice_may_be_passed_by_choice_between_rounds_only() -> None:
    table = table_for("britannica-1911", ("Ann", 10), ("Ben", 10), ("Cat", 10), paytable="even")
    table, events = play(table, Stake("Ben", Fraction(5)), PassDice())
    assert table.caster == "Ben"
    assert table.wagers == ()  # the stakes laid against Ann are off
    assert [str(e) for e in events[1:]] == [
        "every setter takes back the stakes against the caster",
        "the dice pass from Ann to Ben: Ann gives up the dice",
    ]
    table, _ = play(table, Call(6))
    refused(
        table, PassDice(), IllegalError, "illegal pass of the dice in round (main 6", "finish the round first"
    )
    table, _ = play(table, t(4))
    refused(table, PassDice(), IllegalError, "main 6, chance 4")
    table, _ = play(table, t(4), PassDice(), PassDice())
    assert table.caster == "Ann"


def test_the_dice_cannot_be_passed_to_nobody() -> None:
    refused(table_for("ecws-1674", ("Ann", 10)), PassDice(), IllegalError, "nobody else is at the table")


# --- side bets ---------------------------------------------------------------------------------------------


def side_table() -> Table:
    return table_for("wikipedia", ("Cass", 100), ("Ann", 100), ("Ben", 100))


def test_a_next_odd_bet_is_decided_on_the_very_next_throw() -> None:
    table, events = play(side_table(), OfferBet("Ann", "even money the next number is odd", Fraction(10)))
    assert str(events[0]) == "side bet offered: #1 Ann backs 'next odd' for 10 at even money"
    table, events = play(table, TakeBet(1, "Ben"))
    assert str(events[0]) == "Ben takes side bet #1 ('next odd')"
    assert table.committed("Ben") == 10
    table, events = play(table, Call(8), t(9))
    bet_events = [e for e in events if isinstance(e, BetSettled)]
    assert len(bet_events) == 1
    assert bet_events[0].backer_wins
    assert bet_events[0].transfer == Transfer("Ben", "Ann", Fraction(10))
    assert str(bet_events[0]) == "side bet #1 'next odd' comes true: Ben pays Ann 10"
    assert table.side_bets == ()
    assert bankrolls(table) == {"Cass": 100, "Ann": 110, "Ben": 90}


def test_a_lost_side_bet_costs_the_backer_his_amount() -> None:
    table, _ = play(side_table(), OfferBet("Ann", "next odd", Fraction(10)), TakeBet(1, "Ben"), Call(8))
    table, events = play(table, t(8))
    bet = next(e for e in events if isinstance(e, BetSettled))
    assert not bet.backer_wins
    assert bet.transfer == Transfer("Ann", "Ben", Fraction(10))
    assert str(bet) == "side bet #1 'next odd' fails: Ann pays Ben 10"
    assert bankrolls(table) == {"Cass": 100, "Ann": 90, "Ben": 110}


def test_a_before_bet_is_decided_several_rounds_later() -> None:
    table, _ = play(side_table(), OfferBet("Ben", "4 or 10 before 7", Fraction(6)), TakeBet(1, "Cass"))
    # three rounds with no 4, 10 or 7: nicks on 6, 8 and 9
    table, events = play(table, Call(6), t(6), Call(8), t(12), Call(9), t(9))
    assert table.rounds_played == 3
    assert not any(isinstance(e, BetSettled) for e in events)
    assert len(table.side_bets) == 1
    tracker = table.side_bets[0].tracker
    assert tracker is not None
    assert tracker.throws == 3
    table, events = play(table, Call(5), t(4))
    assert isinstance(events[-1], BetSettled)
    assert events[-1].transfer == Transfer("Cass", "Ben", Fraction(6))
    assert table.side_bets == ()
    assert bankrolls(table) == {"Cass": 94, "Ann": 100, "Ben": 106}


def test_a_within_3_throws_bet_is_lost_after_3_misses() -> None:
    text = "Even money the Caster will throw 2, 3 ,11 or 12 in three rolls"
    table, _ = play(side_table(), OfferBet("Ann", text, Fraction(4)), TakeBet(1, "Ben"))
    assert str(table.side_bets[0].proposition) == "2, 3, 11 or 12 within 3 throws"
    table, events = play(table, Call(7), t(4), t(5))
    assert not any(isinstance(e, BetSettled) for e in events)
    table, events = play(table, t(6))
    assert [e.transfer for e in events if isinstance(e, BetSettled)] == [Transfer("Ann", "Ben", Fraction(4))]
    # the round goes on regardless
    assert table.round.phase is Phase.CHANCE


def test_side_bets_count_only_the_throws_after_they_are_taken() -> None:
    table, _ = play(side_table(), OfferBet("Ann", "next 7", Fraction(1)), Call(6), t(7))
    assert len(table.side_bets) == 1  # an offered bet nobody took is not settled
    assert bankrolls(table)["Ann"] == 100
    table, events = play(table, TakeBet(1, "Cass"), t(8))
    assert [e.transfer for e in events if isinstance(e, BetSettled)] == [Transfer("Ann", "Cass", Fraction(1))]


def test_a_side_bet_at_agreed_odds_pays_the_odds() -> None:
    table, events = play(side_table(), OfferBet("Ann", "next 12", Fraction(2), Fraction(30)))
    assert str(events[0]) == "side bet offered: #1 Ann backs 'next 12' for 2 at odds 30 to 1"
    table, _ = play(table, TakeBet(1, "Ben"))
    assert table.committed("Ben") == 60
    table, events = play(table, Call(6), t(12))
    assert [e.transfer for e in events if isinstance(e, BetSettled)] == [Transfer("Ben", "Ann", Fraction(60))]
    # the same throw nicks the main of 6: the round and the side bet settle together
    assert isinstance(events[-1], RoundSettled)
    assert bankrolls(table) == {"Cass": 100, "Ann": 160, "Ben": 40}


def test_a_side_bet_at_fractional_odds_loses_only_the_amount() -> None:
    table, events = play(
        side_table(), OfferBet("Ann", "odd before even", Fraction(10), Fraction(5, 6)), TakeBet(1, "Ben")
    )
    assert "odds 5 to 6" in str(events[0])
    table, _ = play(table, Call(7), t(7))
    assert bankrolls(table) == {"Cass": 100, "Ann": Fraction(325, 3), "Ben": Fraction(275, 3)}


def test_side_bets_are_offered_and_taken_mid_round_and_settle_with_the_round() -> None:
    table, _ = play(side_table(), Stake("Ann", Fraction(10)), Call(7), t(5))
    table, _ = play(table, OfferBet("Cass", "not 5 before 7", Fraction(20)), TakeBet(1, "Ben"))
    # Cass bets against his own chance as a hedge; the 5 wins his round and loses the side bet
    table, events = play(table, t(5))
    assert [e.transfer for e in events if isinstance(e, BetSettled)] == [
        Transfer("Cass", "Ben", Fraction(20))
    ]
    assert settled(events).transfers == (Transfer("Ann", "Cass", Fraction(15)),)
    assert bankrolls(table) == {"Cass": 95, "Ann": 85, "Ben": 120}


def test_cancelling_an_offer_nobody_took() -> None:
    table, _ = play(
        side_table(), OfferBet("Ann", "next odd", Fraction(10)), OfferBet("Ben", "next 7", Fraction(1))
    )
    assert table.available("Ann") == 90
    table, events = play(table, CancelBet(1))
    assert str(events[0]) == "side bet #1 withdrawn"
    assert [b.number for b in table.side_bets] == [2]
    assert table.available("Ann") == 100
    table, _ = play(table, OfferBet("Ann", "next odd", Fraction(1)))
    assert [b.number for b in table.side_bets] == [2, 3]  # numbers are never reused


@pytest.mark.parametrize(
    ("action", "error", "fragments"),
    [
        (TakeBet(1, "Ann"), IllegalError, ("take of side bet #1", "Ann cannot lay against himself")),
        (TakeBet(2, "Cass"), IllegalError, ("take of side bet #2", "Ben has already taken it")),
        (CancelBet(2), IllegalError, ("withdrawal of side bet #2", "Ben has taken it")),
        (TakeBet(9, "Cass"), IllegalError, ("side bet #9", "no such bet")),
        (TakeBet(1, "Zed"), IllegalError, ("illegal player 'Zed'",)),
        (TakeBet(3, "Cass"), IllegalError, ("take of side bet #3 by 'Cass'", "could cost 200", "100 free")),
        (
            OfferBet("Ann", "next odd", Fraction(81)),
            IllegalError,
            ("side bet by 'Ann'", "81 is more than the 80 free"),
        ),
        (
            OfferBet("Ann", "purple before 7", Fraction(1)),
            InvalidError,
            ("invalid proposition 'purple before 7'",),
        ),
        (OfferBet("Ann", "7 before 7", Fraction(1)), InvalidError, ("invalid proposition '7 before 7'",)),
        (OfferBet("Ann", "", Fraction(1)), InvalidError, ("invalid proposition ''",)),
        (OfferBet("Ann", "next odd", Fraction(0)), InvalidError, ("side bet by 'Ann'", "above 0")),
        (
            OfferBet("Ann", "next odd", Fraction(1), Fraction(0)),
            InvalidError,
            ("side bet by 'Ann'", "above 0"),
        ),
    ],
    ids=repr,
)
def test_side_bet_refusals(action: TableAction, error: type[HazardError], fragments: tuple[str, ...]) -> None:
    table, _ = play(
        side_table(),
        OfferBet("Ann", "next odd", Fraction(10)),
        OfferBet("Ann", "next 7", Fraction(10)),
        TakeBet(2, "Ben"),
        OfferBet("Ben", "next 12", Fraction(10), Fraction(20)),
    )
    refused(table, action, error, *fragments)


def test_taking_a_bet_you_cannot_cover_after_other_commitments() -> None:
    table, _ = play(
        side_table(),
        OfferBet("Ann", "next odd", Fraction(50)),
        OfferBet("Ben", "next even", Fraction(60)),
        TakeBet(1, "Cass"),
    )
    refused(table, TakeBet(2, "Cass"), IllegalError, "by 'Cass'", "could cost 60, more than the 50 free")
    # Ann's own open offer holds back 50 of her 100 too
    refused(table, TakeBet(2, "Ann"), IllegalError, "by 'Ann'", "could cost 60, more than the 50 free")
    table, _ = play(table, CancelBet(2), OfferBet("Ben", "next even", Fraction(50)), TakeBet(3, "Ann"))
    assert table.available("Ann") == 0
    assert table.available("Cass") == 50
    # both bets settle on one throw, whichever way it goes
    table, _ = play(table, Call(7), t(8))
    assert bankrolls(table) == {"Cass": 150, "Ann": 0, "Ben": 150}


def test_the_parsed_proposition_is_stored_normalised() -> None:
    table, _ = play(
        side_table(), OfferBet("Ann", "the caster will throw 4 or 10 before throwing 7", Fraction(1))
    )
    assert table.side_bets[0].proposition == parse_proposition("4 or 10 before 7")


# --- seating ---------------------------------------------------------------------------------------------


def test_a_newcomer_sits_at_the_casters_right() -> None:
    # Ann, Bob, Cat: the dice pass Ann -> Bob -> Cat -> Ann. Bob holds them when Dan sits down: Dan is the
    # last to receive them, so he goes between Ann and Bob, and the dice travel Bob -> Cat -> Ann -> Dan.
    table = table_for("ecws-1674", ("Ann", 10), ("Bob", 10), ("Cat", 10))
    table, _ = play(table, PassDice())
    assert table.caster == "Bob"
    table, _ = play(table, Sit("Dan", Fraction(10)))
    order = [table.caster]
    for _ in range(3):
        order.append(table.next_after(order[-1]))
    assert order == ["Bob", "Cat", "Ann", "Dan"]


def test_an_unknown_bot_policy_is_refused() -> None:
    table = table_for("ecws-1674", ("Ann", 10))
    refused(table, Sit("Bot", Fraction(10), "setr"), InvalidError, "invalid bot 'setr'", "setter, bystander")


def test_alone_at_the_table_the_caster_keeps_the_dice() -> None:
    table = table_for("sca-isenfir", ("Ann", 10))
    table, events = play(table, Throw(t(4).roll))  # no main: the dice would pass, but to nobody else
    assert table.caster == "Ann"
    assert not [e for e in events if isinstance(e, CasterChanged)]
