"""Table transitions that pass the dice: after losses, by choice, in craps, around the table; and
every throw announced first."""

from __future__ import annotations

from fractions import Fraction

import pytest
from tests.strategies import throw_of as t
from tests.table.rules.transitions_helpers import (
    bank_table,
    bankrolls,
    play,
    refused,
    settled,
    side_table,
    table_for,
)

from hazard.core.errors import IllegalError
from hazard.core.state import Termination
from hazard.table.rules.actions import Actor, Call, OfferBet, PassDice, Stake, TakeBet, Withdraw
from hazard.table.rules.events import AnyEvent, CasterChanged, Thrown, Withdrawn
from hazard.table.rules.state import Table, Transfer
from hazard.table.rules.transitions import apply_action

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
