"""The table's rules: stakes and settlements checked by hand against the sources, dice passing, side bets,
refusals, and who may take which action.

Every amount here is worked out from the source text, not from the code: the Wikipedia article's own example
("with a stake of £10, a main of 7 and a chance of 5, a caster stands to win £15") and its odds table; the
English Civil War Society's even-money sum; the Shire of Isenfir's caster who "collects all bets" or "must
match the bets of all the betters".

Every action is taken by the player whose action it is (:func:`rightful`, worked out here from the rules of
who may act, not by the code), and :func:`play` checks that the referee entering the same action gets the very
same table and events.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from tests.strategies import played_tables, table_actions_among
from tests.strategies import throw_of as t

from hazard.core.dice import Roll
from hazard.core.errors import HazardError, IllegalError, InvalidError
from hazard.core.events import ChanceSet, MainRethrown, Nick, NoEffect, NoMain, ThrowOut
from hazard.core.paytable import Paytable
from hazard.core.propositions import parse_proposition
from hazard.core.rules import StakeArrangement
from hazard.core.rulesets import find_paytable, find_ruleset, paytable_for
from hazard.core.state import Phase, Termination
from hazard.table.rules.actions import (
    REFEREE,
    Actor,
    ActorError,
    BotPolicy,
    Call,
    CancelBet,
    Leave,
    OfferBet,
    PassDice,
    Sit,
    Stake,
    TableAction,
    TakeBet,
    Withdraw,
    action_text,
)
from hazard.table.rules.events import (
    AnyEvent,
    BetSettled,
    CasterChanged,
    RoundSettled,
    Seated,
    Thrown,
    Withdrawn,
)
from hazard.table.rules.state import Player, Table, Transfer, new_table
from hazard.table.rules.transitions import acting_for, apply_action, check_throw

# --- helpers -----------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class By:
    """``action`` taken by ``actor`` rather than by the player whose action it is (the referee, mostly)."""

    actor: Actor
    action: TableAction


Step = TableAction | By


def rightful(table: Table, action: TableAction) -> Actor:
    """The player whose action ``action`` is at ``table``, by the rules of who may act (worked out here).

    The one who sits, stakes, withdraws, offers or takes; the backer of a bet cancelled; the caster for a
    call, a throw, a pass, and a late stake he consents to (once the chance is set, where everyone bets
    against the caster; elsewhere a stake marked with consent is still the setter's own). The referee where
    nobody is (no caster, no such bet).
    """
    name: str | None
    if isinstance(action, Sit):
        name = action.name.strip()
    elif isinstance(action, Stake):
        late = table.stakes is StakeArrangement.ALL_AGAINST_CASTER and table.round.phase is Phase.CHANCE
        name = table.caster if action.consent and late else action.player
    elif isinstance(action, Withdraw):
        name = action.player
    elif isinstance(action, OfferBet):
        name = action.backer
    elif isinstance(action, TakeBet):
        name = action.layer
    elif isinstance(action, CancelBet):
        name = next((bet.backer for bet in table.side_bets if bet.number == action.bet), None)
    else:
        name = table.caster
    return REFEREE if name is None else Actor.player(name)


def table_for(
    ruleset: str,
    *seats: tuple[str, int] | tuple[str, int, BotPolicy],
    paytable: str | None = None,
    stakes: StakeArrangement | None = None,
) -> Table:
    """A table for a built-in ruleset with players seated in order (the first holds the dice), each sitting
    himself down."""
    rules = find_ruleset(ruleset)
    pays = find_paytable(paytable) if paytable else (paytable_for(rules) or find_paytable("even"))
    table = new_table(rules, pays, stakes)
    for seat in seats:
        bot = seat[2] if len(seat) == 3 else None
        table, _ = play(table, Sit(seat[0], Fraction(seat[1]), bot))
    return table


def play(table: Table, *steps: Step) -> tuple[Table, list[AnyEvent]]:
    """Take ``steps`` in turn, each by its rightful player unless it says who; every event.

    Money must be conserved and no bankroll or free sum negative throughout; and where a player acts, the
    referee entering the same action must get the same table and events (a player never has other rights).
    """
    events: list[AnyEvent] = []
    money = table.total_money
    for step in steps:
        action, by = (step.action, step.actor) if isinstance(step, By) else (step, rightful(table, step))
        after, new = apply_action(table, action, by=by)
        if not by.is_referee:
            assert apply_action(table, action, by=REFEREE) == (after, new), (
                f"{action} by {by} and the referee"
            )
        table = after
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


def refused(
    table: Table, action: TableAction, error: type[HazardError], *fragments: str, by: Actor | None = None
) -> str:
    """``action`` is refused with ``error`` naming each fragment, and the table is left as it was.

    Without ``by``, both the rightful player and the referee are refused, with the same message.
    """
    before = repr(table)
    actors = [by] if by is not None else list(dict.fromkeys([rightful(table, action), REFEREE]))
    messages = []
    for actor in actors:
        with pytest.raises(error) as caught:
            apply_action(table, action, by=actor)
        assert type(caught.value) is error
        messages.append(str(caught.value))
        for fragment in fragments:
            assert fragment in str(caught.value), (fragment, str(caught.value))
        assert repr(table) == before
    assert len(set(messages)) == 1, messages
    return messages[0]


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


# --- ecws-1674: the setter's sum, accepted at even money -------------------------------------------------


def setter_table() -> Table:
    return table_for("ecws-1674", ("Cass", 100), ("Sam", 100), ("Sue", 100))


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
    refused(table, Stake("Sam", Fraction(21, 2)), IllegalError, "stake of 21/2 by 'Sam'", "cannot cover")
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
        (Roll(3, 4), IllegalError, ("illegal throw 3-4", "Cass must call a main first")),
        (Call(4), IllegalError, ("illegal main 4", "the mains are 5, 6, 7, 8 and 9")),
        (Call(13), InvalidError, ("invalid main 13",)),
        (
            Stake("Cass", Fraction(5)),
            IllegalError,
            ("stake of 5 by 'Cass'", "cannot stake against himself"),
        ),
        (Stake("Sam", Fraction(0)), InvalidError, ("stake of 0 by 'Sam'", "above 0")),
        (Stake("Sam", Fraction(-1)), InvalidError, ("stake of -1 by 'Sam'", "above 0")),
        (Withdraw("Sam"), IllegalError, ("withdrawal by 'Sam'", "no stake of theirs")),
        (Sit("Sam", Fraction(5)), IllegalError, ("seat for 'Sam'", "already at the table")),
        (Sit("sam", Fraction(5)), IllegalError, ("seat for 'sam'", "already at the table")),
        (Sit("  ", Fraction(5)), InvalidError, ("invalid player name '  '",)),
        (Sit("x" * 41, Fraction(5)), InvalidError, ("invalid player name", "1 to 40 printable characters")),
        (Sit('Ann "the Dice"', Fraction(5)), InvalidError, ("invalid player name", "no double quote")),
        (Sit("Referee", Fraction(5)), InvalidError, ("invalid player name 'Referee'",)),
        (Sit("Ned", Fraction(-5)), InvalidError, ("invalid bankroll for 'Ned': -5, expected 0 or more",)),
        (TakeBet(1, "Sam"), IllegalError, ("side bet #1", "no such bet is open")),
        (CancelBet(7), IllegalError, ("side bet #7", "no such bet is open")),
    ],
    ids=repr,
)
def test_illegal_and_invalid_actions_at_the_start(
    action: TableAction, error: type[HazardError], fragments: tuple[str, ...]
) -> None:
    refused(bank_table(), action, error, *fragments)


@pytest.mark.parametrize(
    ("action", "error", "fragments"),
    [
        (Stake("Zed", Fraction(5)), IllegalError, ("illegal player 'Zed'", "not at the table")),
        (Withdraw("Zed"), IllegalError, ("illegal player 'Zed'",)),
        (OfferBet("Zed", "next odd", Fraction(1)), IllegalError, ("illegal player 'Zed'",)),
    ],
    ids=repr,
)
def test_the_referee_cannot_act_for_a_player_not_at_the_table(
    action: TableAction, error: type[HazardError], fragments: tuple[str, ...]
) -> None:
    # (Zed himself is refused before that: see who may act, below)
    refused(bank_table(), action, error, *fragments, by=REFEREE)


def test_illegal_actions_once_the_round_has_begun() -> None:
    table, _ = play(bank_table(), Stake("Sam", Fraction(5)), Call(7))
    refused(table, Stake("Sam", Fraction(5)), IllegalError, "stake of 5 by 'Sam'", "before the round begins")
    refused(table, Call(8), IllegalError, "illegal call of main 8", "the main is already set")
    refused(table, Withdraw("Sam"), IllegalError, "withdrawal by 'Sam'", "it has begun")
    refused(table, PassDice(), IllegalError, "pass of the dice", "finish the round first")


def test_an_empty_table_refuses_play() -> None:
    table = table_for("wikipedia")
    refused(table, Call(7), IllegalError, "call of main 7", "nobody is at the table")
    refused(table, Stake("Sam", Fraction(1)), IllegalError, "nobody is at the table", by=REFEREE)
    refused(table, PassDice(), IllegalError, "nobody is at the table")
    refused(table_for("ecws-1674"), t(7), IllegalError, "illegal throw 1-6", "nobody is at the table")
    with pytest.raises(IllegalError) as caught:
        check_throw(table, by=REFEREE)
    assert str(caught.value) == "illegal throw: nobody is at the table yet"


def test_calling_where_the_main_is_thrown_or_fixed_is_refused() -> None:
    refused(setter_table(), Call(7), IllegalError, "illegal call of main 7", "thrown, not called")
    refused(all_table(), Call(6), IllegalError, "illegal call of main 6", "thrown, not called")
    craps = table_for("craps", ("Cass", 10), ("Sam", 10))
    refused(craps, Call(7), IllegalError, "illegal call of main 7", "always 7")


def test_withdrawing_stakes_before_the_round() -> None:
    table, _ = play(bank_table(), Stake("Sam", Fraction(5)), Stake("Sam", Fraction(3)))
    table, events = play(table, Withdraw("Sam"))
    assert table.wagers == ()
    assert events == [Withdrawn(("Sam",))]
    assert str(events[0]) == "Sam takes back the stakes against the caster"
    table, events = play(table, Call(7), t(7))
    assert settled(events).transfers == ()


def test_withdrawing_takes_back_only_ones_own_stakes() -> None:
    table = table_for("wikipedia", ("Cass", 100), ("Sam", 100), ("Sue", 100))
    table, _ = play(table, Stake("Sam", Fraction(5)), Stake("Sue", Fraction(3)), Stake("Sam", Fraction(2)))
    table, events = play(table, Withdraw("Sam"))
    assert events == [Withdrawn(("Sam",))]
    assert [(w.opponent, w.amount) for w in table.wagers] == [("Sue", 3)]


def test_sitting_down_joins_at_the_end_of_the_order_and_the_first_takes_the_dice() -> None:
    table = table_for("wikipedia")
    table, events = play(table, Sit("Ann", Fraction(10)), Sit("Ben", Fraction(0), BotPolicy.SETTER))
    assert table.caster == "Ann"
    assert events == [
        Seated(Player("Ann", Fraction(10))),
        CasterChanged(None, "Ann", "the first to sit"),
        Seated(Player("Ben", Fraction(0), BotPolicy.SETTER)),
    ]
    assert [str(e) for e in events] == [
        "Ann sits down with 10.00",
        "Ann takes the dice",
        "Ben (setter bot) sits down with 0.00",
    ]
    assert table.players == (Player("Ann", Fraction(10)), Player("Ben", Fraction(0), BotPolicy.SETTER))
    assert table.total_money == 10


def test_a_name_is_seated_stripped() -> None:
    table, events = play(table_for("wikipedia"), Sit("  Ann ", Fraction(10)))
    assert [p.name for p in table.players] == ["Ann"]
    assert events[1] == CasterChanged(None, "Ann", "the first to sit")


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


def test_after_the_dice_pass_only_the_new_caster_throws() -> None:
    table = table_for("sca-isenfir", ("Ann", 10), ("Ben", 10))
    table, _ = play(table, t(12))  # no main: the dice pass to Ben
    assert table.caster == "Ben"
    table, events = play(table, t(7))
    assert events[0] == Thrown("Ben", t(7))
    with pytest.raises(IllegalError, match="only the caster, Ben, throws the dice"):
        apply_action(table, t(7), by=Actor.player("Ann"))


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
    assert events[1:] == [Withdrawn(("Ben",)), CasterChanged("Ann", "Ben", "Ann gives up the dice")]
    assert [str(e) for e in events[1:]] == [
        "Ben takes back the stakes against the caster",
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


def test_passing_the_dice_gives_back_every_setters_stakes_each_named_once() -> None:
    table = table_for("wikipedia", ("Ann", 100), ("Ben", 100), ("Cat", 100))
    table, events = play(
        table, Stake("Ben", Fraction(5)), Stake("Cat", Fraction(2)), Stake("Ben", Fraction(1)), PassDice()
    )
    assert events[3:] == [Withdrawn(("Ben", "Cat")), CasterChanged("Ann", "Ben", "Ann gives up the dice")]
    assert str(events[3]) == "Ben and Cat take back the stakes against the caster"
    assert bankrolls(table) == {"Ann": 100, "Ben": 100, "Cat": 100}


def test_the_dice_cannot_be_passed_to_nobody() -> None:
    refused(table_for("ecws-1674", ("Ann", 10)), PassDice(), IllegalError, "nobody else is at the table")


# --- side bets ---------------------------------------------------------------------------------------------


def side_table() -> Table:
    return table_for("wikipedia", ("Cass", 100), ("Ann", 100), ("Ben", 100))


def test_a_next_odd_bet_is_decided_on_the_very_next_throw() -> None:
    table, events = play(side_table(), OfferBet("Ann", "even money the next number is odd", Fraction(10)))
    assert str(events[0]) == "side bet offered: #1 Ann backs 'next odd' for 10.00 at even money"
    table, events = play(table, TakeBet(1, "Ben"))
    assert str(events[0]) == "Ben takes side bet #1 ('next odd')"
    assert table.committed("Ben") == 10
    table, events = play(table, Call(8), t(9))
    bet_events = [e for e in events if isinstance(e, BetSettled)]
    assert len(bet_events) == 1
    assert bet_events[0].backer_wins
    assert bet_events[0].transfer == Transfer("Ben", "Ann", Fraction(10))
    assert str(bet_events[0]) == "side bet #1 'next odd' comes true: Ben pays Ann 10.00"
    assert table.side_bets == ()
    assert bankrolls(table) == {"Cass": 100, "Ann": 110, "Ben": 90}


def test_a_lost_side_bet_costs_the_backer_his_amount() -> None:
    table, _ = play(side_table(), OfferBet("Ann", "next odd", Fraction(10)), TakeBet(1, "Ben"), Call(8))
    table, events = play(table, t(8))
    bet = next(e for e in events if isinstance(e, BetSettled))
    assert not bet.backer_wins
    assert bet.transfer == Transfer("Ann", "Ben", Fraction(10))
    assert str(bet) == "side bet #1 'next odd' fails: Ann pays Ben 10.00"
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


def test_a_side_bet_settles_after_the_round_events_of_its_throw_and_before_the_settlement() -> None:
    table, _ = play(side_table(), OfferBet("Ann", "next 12", Fraction(1)), TakeBet(1, "Ben"), Call(6))
    table, events = play(table, t(12))
    # what the dice showed, what it did to the round, the side bets it decided, and the round's settlement
    assert [type(e) for e in events] == [Thrown, Nick, BetSettled, RoundSettled]


def test_a_side_bet_at_agreed_odds_pays_the_odds() -> None:
    table, events = play(side_table(), OfferBet("Ann", "next 12", Fraction(2), Fraction(30)))
    assert str(events[0]) == "side bet offered: #1 Ann backs 'next 12' for 2.00 at odds 30 to 1"
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
        (
            TakeBet(3, "Cass"),
            IllegalError,
            ("take of side bet #3 by 'Cass'", "could cost 200", "100 free"),
        ),
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


def test_a_bet_cannot_be_taken_for_a_player_not_at_the_table() -> None:
    table, _ = play(side_table(), OfferBet("Ann", "next odd", Fraction(10)))
    refused(table, TakeBet(1, "Zed"), IllegalError, "illegal player 'Zed'", by=REFEREE)


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
    order = ["Bob"]
    for _ in range(3):
        order.append(table.next_after(order[-1]))
    assert order == ["Bob", "Cat", "Ann", "Dan"]


@pytest.mark.parametrize("policy", list(BotPolicy), ids=str)
def test_a_bot_sits_with_its_policy(policy: BotPolicy) -> None:
    table, events = play(table_for("ecws-1674", ("Ann", 10)), Sit("Bot", Fraction(10), policy))
    assert table.player("Bot") == Player("Bot", Fraction(10), policy)
    assert events == [Seated(Player("Bot", Fraction(10), policy))]


def test_alone_at_the_table_the_caster_keeps_the_dice() -> None:
    table = table_for("sca-isenfir", ("Ann", 10))
    table, events = play(table, t(4))  # no main: the dice would pass, but to nobody else
    assert table.caster == "Ann"
    assert not [e for e in events if isinstance(e, CasterChanged)]


# --- every throw is announced first ----------------------------------------------------------------------


def test_every_throw_begins_with_who_threw_what() -> None:
    table, _ = play(bank_table(), Stake("Sam", Fraction(10)), Call(7))
    for total in (4, 11, 6, 4):
        before = table.caster
        table, events = play(table, t(total))
        assert events[0] == Thrown("Cass", t(total))
        assert before == "Cass"
        assert sum(isinstance(e, Thrown) for e in events) == 1
    assert (table.throws, table.throws_this_round) == (4, 0)


def test_a_call_and_other_actions_throw_nothing() -> None:
    _, events = play(
        side_table(),
        Stake("Ann", Fraction(1)),
        OfferBet("Ben", "next odd", Fraction(1)),
        TakeBet(1, "Cass"),
        Withdraw("Ann"),
        Call(7),
    )
    assert not any(isinstance(e, Thrown) for e in events)


# --- who may act ------------------------------------------------------------------------------------------


ANN, BEN, CASS, SAM, SUE, ZED = (Actor.player(n) for n in ("Ann", "Ben", "Cass", "Sam", "Sue", "Zed"))


def open_table() -> Table:
    """Cass holds the dice at a bank table; Sam has 5 staked and side bet #1 on offer."""
    table = table_for("wikipedia", ("Cass", 100), ("Sam", 100), ("Sue", 100))
    table, _ = play(table, Stake("Sam", Fraction(5)), OfferBet("Sam", "next odd", Fraction(2)))
    return table


def called_table() -> Table:
    """The same, after Cass has called 7."""
    return play(open_table(), Call(7))[0]


def late_table() -> Table:
    """Isenfir: Cass has thrown a main of 8 and then a chance of 4; a bet laid now needs his consent."""
    return play(table_for("sca-isenfir", ("Cass", 100), ("Ann", 100), ("Ben", 100)), t(8), t(4))[0]


TABLES = {"open": open_table, "called": called_table, "late": late_table}

NOT_SEATED = "Zed is not at the table (seated: Cass, Sam, Sue)"
STAKES_FOR_SUE = "a player stakes only for himself (this is Sue's)"
WITHDRAWS_FOR_SAM = "a player withdraws only his own stakes (this is Sam's)"
OFFERS_FOR_SAM = "a player offers only his own side bets (this is Sam's)"
CANCELS_FOR_SAM = "a player withdraws only his own side bets (this is Sam's)"
TAKES_FOR_SUE = "a player takes a side bet only for himself (this is Sue's)"
CONSENTS = (
    "a bet laid once the chance is set is the caster's to accept; Cass, the caster, enters it with consent"
)
SITS = "a player sits only himself down; the referee seats others"
DAN = Actor.player("Dan")
LATE = Stake("Ben", Fraction(10), consent=True)
OFFER = OfferBet("Sam", "next 7", Fraction(1))

# table, action, the actor refused, the player whose action it is, and why the actor is refused.
REFUSALS: list[tuple[str, TableAction, Actor, Actor, str]] = [
    ("open", Stake("Sue", Fraction(5)), SAM, SUE, STAKES_FOR_SUE),
    ("open", Stake("Sue", Fraction(5)), CASS, SUE, STAKES_FOR_SUE),
    ("open", Withdraw("Sam"), SUE, SAM, WITHDRAWS_FOR_SAM),
    ("open", Withdraw("Sam"), CASS, SAM, WITHDRAWS_FOR_SAM),
    ("open", Call(7), SAM, CASS, "only the caster, Cass, calls the main"),
    ("called", Roll(3, 4), SUE, CASS, "only the caster, Cass, throws the dice"),
    ("open", PassDice(), SUE, CASS, "only the caster, Cass, passes the dice"),
    ("open", OFFER, SUE, SAM, OFFERS_FOR_SAM),
    ("open", OFFER, CASS, SAM, OFFERS_FOR_SAM),
    ("open", CancelBet(1), SUE, SAM, CANCELS_FOR_SAM),
    ("open", CancelBet(1), CASS, SAM, CANCELS_FOR_SAM),
    ("open", TakeBet(1, "Sue"), CASS, SUE, TAKES_FOR_SUE),
    ("open", TakeBet(1, "Sue"), SAM, SUE, TAKES_FOR_SUE),  # the backer, in the layer's name
    ("late", LATE, BEN, CASS, CONSENTS),  # the better himself
    ("late", LATE, ANN, CASS, CONSENTS),
    ("open", Sit("Dan", Fraction(10)), SAM, DAN, SITS),
    ("open", Sit("Dan", Fraction(10)), CASS, DAN, SITS),
    ("open", Stake("Sue", Fraction(5)), ZED, SUE, NOT_SEATED),
    ("open", Withdraw("Sam"), ZED, SAM, NOT_SEATED),
    ("open", Call(7), ZED, CASS, NOT_SEATED),
    ("called", Roll(3, 4), ZED, CASS, NOT_SEATED),
    ("open", PassDice(), ZED, CASS, NOT_SEATED),
    ("open", OFFER, ZED, SAM, NOT_SEATED),
    ("open", CancelBet(1), ZED, SAM, NOT_SEATED),
    ("open", TakeBet(1, "Sue"), ZED, SUE, NOT_SEATED),
    ("late", LATE, ZED, CASS, "Zed is not at the table (seated: Cass, Ann, Ben)"),
]


@pytest.mark.parametrize(
    ("which", "action", "actor", "owner", "why"),
    REFUSALS,
    ids=[f"{which}: {action_text(action)} by {actor}" for which, action, actor, _, _ in REFUSALS],
)
def test_an_actor_acts_only_for_himself_and_the_caster_only_for_the_dice(
    which: str, action: TableAction, actor: Actor, owner: Actor, why: str
) -> None:
    table = TABLES[which]()
    message = refused(table, action, ActorError, by=actor)
    assert message == f"illegal {action_text(action)} by {actor} at the {table}: {why}"
    # the referee may enter it, and so may the player whose action it is, to the same effect
    assert rightful(table, action) == owner
    entered = apply_action(table, action, by=REFEREE)
    assert apply_action(table, action, by=owner) == entered


@pytest.mark.parametrize(
    "action",
    [
        Stake("Zed", Fraction(5)),
        Withdraw("Zed"),
        OfferBet("Zed", "next 7", Fraction(1)),
        TakeBet(1, "Zed"),
    ],
    ids=repr,
)
def test_a_player_not_at_the_table_can_do_nothing_for_himself_and_nor_can_the_referee(
    action: TableAction,
) -> None:
    table = open_table()
    message = refused(table, action, IllegalError, by=REFEREE)
    assert message == "illegal player 'Zed': not at the table (seated: Cass, Sam, Sue)"
    own = refused(table, action, ActorError, by=ZED)
    assert own == f"illegal {action_text(action)} by Zed at the {table}: {NOT_SEATED}"


def test_a_player_not_at_the_table_may_sit_himself_down() -> None:
    table, events = play(open_table(), By(ZED, Sit("Zed", Fraction(7))))
    assert table.player("Zed") == Player("Zed", Fraction(7))
    assert events == [Seated(Player("Zed", Fraction(7)))]
    # ... and from then on acts for himself
    table, _ = play(table, By(ZED, Stake("Zed", Fraction(1))))
    assert table.staked_by("Zed") == 1


def main_thrown_table() -> Table:
    """Isenfir: Cass has thrown a main of 8; no chance yet, so bets need no consent."""
    return play(table_for("sca-isenfir", ("Cass", 100), ("Ann", 100), ("Ben", 100)), t(8))[0]


@pytest.mark.parametrize(
    ("which", "stake"),
    [
        ("a bank table", Stake("Sue", Fraction(5), consent=True)),
        ("before the chance", Stake("Ann", Fraction(5), consent=True)),
    ],
    ids=str,
)
def test_the_caster_enters_a_bet_for_another_only_where_it_needs_his_consent(
    which: str, stake: Stake
) -> None:
    # Consent is the caster accepting a bet laid once the chance is set, where every player bets against him.
    # Anywhere else it would let the caster stake another player's money, which only that player (or the
    # referee) may do.
    table = open_table() if which == "a bank table" else main_thrown_table()
    with pytest.raises(IllegalError) as caught:
        apply_action(table, stake, by=CASS)
    assert str(caught.value).startswith(f"illegal {action_text(stake)} by Cass at the {table}: ")
    apply_action(table, stake, by=REFEREE)  # the referee may enter anything the table allows


def test_a_throw_of_the_games_own_dice_is_refused_before_the_dice_are_asked() -> None:
    table = open_table()
    with pytest.raises(IllegalError) as caught:
        check_throw(table, by=SAM)
    assert str(caught.value) == f"illegal throw by Sam at the {table}: only the caster, Cass, throws the dice"
    with pytest.raises(IllegalError) as caught:
        check_throw(table, by=ZED)
    assert str(caught.value) == f"illegal throw by Zed at the {table}: only the caster, Cass, throws the dice"
    for by in (CASS, REFEREE):
        with pytest.raises(IllegalError) as caught:
            check_throw(table, by=by)
        assert str(caught.value) == (
            f"illegal throw by {by} in round (no main yet): Cass must call a main first (5, 6, 7, 8 or 9), "
            "e.g. call 7"
        )
    called = called_table()
    check_throw(called, by=CASS)
    check_throw(called, by=REFEREE)
    with pytest.raises(IllegalError, match="only the caster, Cass, throws the dice"):
        check_throw(called, by=SUE)


@pytest.mark.parametrize(
    ("action", "owner"),
    [
        (Sit(" Dan ", Fraction(1)), "Dan"),
        (Stake("Sue", Fraction(1)), "Sue"),
        (Stake("Sue", Fraction(1), consent=True), "Sue"),
        (Withdraw("Sam"), "Sam"),
        (Call(7), "Cass"),
        (Roll(3, 4), "Cass"),
        (PassDice(), "Cass"),
        (OfferBet("Sue", "next 7", Fraction(1)), "Sue"),
        (TakeBet(1, "Sue"), "Sue"),
        (CancelBet(1), "Sam"),
        (CancelBet(9), None),
    ],
    ids=repr,
)
def test_acting_for_names_whose_action_it_is(action: TableAction, owner: str | None) -> None:
    # a consented stake is still the staker's own bet, though the caster enters it
    assert acting_for(open_table(), action) == owner


def test_acting_for_names_nobody_for_the_caster_of_an_empty_table() -> None:
    empty = table_for("wikipedia")
    assert [acting_for(empty, action) for action in (Call(7), Roll(3, 4), PassDice())] == [None, None, None]


# --- a player never has more rights than the referee -------------------------------------------------------

NAMES = ("Ann", "Bob", "Cat")
EVERYONE = tuple(Actor.player(name) for name in (*NAMES, "Zed"))


def outcome(table: Table, action: TableAction, by: Actor) -> tuple[Table, tuple[AnyEvent, ...]] | None:
    """What ``by`` taking ``action`` does, or None if it is refused (any other error fails the test)."""
    try:
        return apply_action(table, action, by=by)
    except HazardError:
        return None


@pytest.mark.slow
@settings(derandomize=True, max_examples=300, deadline=None)
@given(
    table=played_tables(NAMES),
    actions=st.lists(table_actions_among((*NAMES, "Zed")), min_size=5, max_size=30),
)
def test_a_player_never_has_more_rights_than_the_referee(table: Table, actions: list[TableAction]) -> None:
    # at every step of a random game: whatever a player may do the referee may, to the same effect; the
    # player whose action it is may do whatever the referee may; and the game goes on as the referee says
    money = table.total_money
    for action in actions:
        entered = outcome(table, action, REFEREE)
        for actor in EVERYONE:
            done = outcome(table, action, actor)
            if done is not None:
                assert entered is not None, f"{action} accepted by {actor}, refused by the referee at {table}"
                assert done == entered
        owner = rightful(table, action)
        if not owner.is_referee:
            assert (outcome(table, action, owner) is None) == (entered is None), f"{action} by {owner}"
        if entered is None:
            continue
        table = entered[0]
        money += action.bankroll if isinstance(action, Sit) else 0
        assert table.total_money == money
        assert all(p.bankroll >= 0 and table.available(p.name) >= 0 for p in table.players)


WIKIPEDIA = find_ruleset("wikipedia")


# --- bounds: every sum a table holds, and every sum it can come to, has a short exact form -----------------


@pytest.mark.parametrize(
    ("action", "fragment"),
    [
        (Sit("Ned", Fraction(10**12 + 1)), "expected at most 1000000000000 units"),
        (Sit("Ned", Fraction(10**4400)), "expected at most 1000000000000 units"),  # a record's 4,400 nines
        (Sit("Ned", Fraction(1, 10**9 + 1)), "expected a denominator of at most 1000000000"),
        (Sit("Ned", Fraction(1, 10**5000)), "<a fraction of about"),
        (Stake("Bob", Fraction(10**13)), "expected at most 1000000000000 units"),
        (OfferBet("Bob", "next 7", Fraction(1), Fraction(10**9 + 1)), "a and b at most 1000000000"),
        (OfferBet("Bob", "next 7", Fraction(1), Fraction(1, 10**5000)), "<a fraction of about"),
        (OfferBet("Bob", "next 7", Fraction(10**5000, 3)), "<a fraction of about"),
    ],
    ids=lambda value: str(value)[:60] if isinstance(value, str) else type(value).__name__,
)
def test_a_sum_no_table_can_mean_is_refused_whoever_enters_it(action: TableAction, fragment: str) -> None:
    table = new_table(WIKIPEDIA, find_paytable("wikipedia"))
    for name in ("Ann", "Bob"):
        table, _ = apply_action(table, Sit(name, Fraction(100)), by=REFEREE)
    with pytest.raises(InvalidError) as caught:
        apply_action(table, action, by=REFEREE)
    assert fragment in str(caught.value)
    assert len(str(caught.value)) < 300


def test_the_money_at_a_table_never_comes_to_parts_finer_than_its_bound() -> None:
    """Side bets at odds with ever new prime denominators: each alone is fine, together they would make a
    bankroll of hundreds of digits; the one that would go past the bound is refused, saying why."""
    primes = [p for p in range(999_000, 1_000_000) if all(p % d for d in range(2, 1000))]
    table = new_table(WIKIPEDIA, find_paytable("wikipedia"))
    for name in ("Ann", "Bob", "Cat"):
        table, _ = apply_action(table, Sit(name, Fraction(10**9)), by=REFEREE)
    refused: list[str] = []
    taken = 0
    for number, prime in enumerate(primes[:20], start=1):
        offer = OfferBet("Bob", "next 7", Fraction(1), Fraction(prime - 1, prime))
        try:
            table, _ = apply_action(table, offer, by=REFEREE)
            table, _ = apply_action(table, TakeBet(number, "Cat"), by=REFEREE)
        except IllegalError as error:
            refused.append(str(error))
            break
        taken += 1
    assert refused, "twenty bets at odds of new primes were all taken"
    assert "money at the table would come to parts of a unit finer than" in refused[0]
    assert 2 <= taken < 20
    for roll in (t(7), t(7), t(7)):  # whatever settles, every bankroll keeps a short exact form
        table, _ = (
            apply_action(table, Call(7), by=REFEREE) if table.round.phase is Phase.MAIN else (table, ())
        )
        table, _ = apply_action(table, roll, by=REFEREE)
        for player in table.players:
            assert player.bankroll.denominator <= 10**30
            assert len(str(player.bankroll.numerator)) < 60


def test_a_table_seats_at_most_its_bound() -> None:
    table = new_table(WIKIPEDIA, find_paytable("wikipedia"))
    for number in range(100):
        table, _ = apply_action(table, Sit(f"P{number}", Fraction(1)), by=REFEREE)
    with pytest.raises(IllegalError, match="the table seats at most 100 players"):
        apply_action(table, Sit("Late", Fraction(1)), by=REFEREE)


@pytest.mark.parametrize("name", ["ann", "ANN", "Ａｎｎ", "Ann "])
def test_a_name_that_is_another_seated_name_is_refused(name: str) -> None:
    table, _ = apply_action(
        new_table(WIKIPEDIA, find_paytable("wikipedia")), Sit("Ann", Fraction(5)), by=REFEREE
    )
    with pytest.raises(IllegalError, match="someone of that name is already at the table"):
        apply_action(table, Sit(name, Fraction(5)), by=REFEREE)


# --- getting up from the table ------------------------------------------------------------------------


def _three(ruleset: str = "wikipedia") -> Table:
    from hazard.core.rulesets import find_paytable, find_ruleset

    table = new_table(find_ruleset(ruleset), find_paytable("even"))
    for name in ("Ann", "Bob", "Cat"):
        table, _ = apply_action(table, Sit(name, Fraction(100)), by=Actor.player(name))
    return table


def test_a_setter_gets_up_between_rounds_with_his_stakes_and_offers_withdrawn() -> None:
    table = _three()
    table, _ = apply_action(table, Stake("Bob", Fraction(5)), by=Actor.player("Bob"))
    table, _ = apply_action(table, OfferBet("Bob", "next 7", Fraction(2)), by=Actor.player("Bob"))
    money = table.total_money
    after, events = apply_action(table, Leave("Bob"), by=Actor.player("Bob"))
    assert [str(e) for e in events] == [
        "Bob takes back the stakes against the caster",
        "side bet #1 withdrawn",
        "Bob leaves the table with 100.00",
    ]
    assert [p.name for p in after.players] == ["Ann", "Cat"]
    assert after.wagers == ()
    assert after.side_bets == ()
    assert after.total_money == money - 100  # he takes his bankroll with him, and nothing else moves


def test_the_caster_gets_up_between_rounds_and_the_dice_pass() -> None:
    table = _three()
    table, _ = apply_action(table, Stake("Cat", Fraction(5)), by=Actor.player("Cat"))
    after, events = apply_action(table, Leave("Ann"), by=REFEREE)
    assert [str(e) for e in events] == [
        "Cat takes back the stakes against the caster",
        "the dice pass from Ann to Bob: Ann leaves the table",
        "Ann leaves the table with 100.00",
    ]
    assert after.caster == "Bob"
    alone, _ = apply_action(apply_action(after, Leave("Bob"), by=REFEREE)[0], Leave("Cat"), by=REFEREE)
    assert alone.players == ()
    assert alone.caster is None


def test_nobody_gets_up_while_his_money_is_at_risk_or_makes_another_get_up() -> None:
    table = _three()
    table, _ = apply_action(table, Stake("Bob", Fraction(5)), by=Actor.player("Bob"))
    table, _ = apply_action(table, OfferBet("Cat", "next 7", Fraction(1)), by=Actor.player("Cat"))
    table, _ = apply_action(table, TakeBet(1, "Ann"), by=Actor.player("Ann"))
    with pytest.raises(ActorError, match="a player gets only himself up from the table"):
        apply_action(table, Leave("Bob"), by=Actor.player("Ann"))
    with pytest.raises(IllegalError, match="side bet #1 of his is in play"):
        apply_action(table, Leave("Cat"), by=Actor.player("Cat"))
    table, _ = apply_action(table, Call(7), by=Actor.player("Ann"))
    with pytest.raises(IllegalError, match="he casts it; finish the round first"):
        apply_action(table, Leave("Ann"), by=REFEREE)
    with pytest.raises(IllegalError, match="his stake against the caster is at risk"):
        apply_action(table, Leave("Bob"), by=Actor.player("Bob"))
    with pytest.raises(IllegalError, match="illegal player 'Zed'"):
        apply_action(table, Leave("Zed"), by=REFEREE)
