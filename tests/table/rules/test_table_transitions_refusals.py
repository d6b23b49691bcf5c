"""Table transitions refused: uncovered stakes, illegal and invalid actions, an empty table,
withdrawals of stakes not one's own."""

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

from hazard.core.dice import Roll
from hazard.core.errors import HazardError, IllegalError, InvalidError
from hazard.table.rules.actions import (
    REFEREE,
    BotPolicy,
    Call,
    CancelBet,
    OfferBet,
    PassDice,
    Sit,
    Stake,
    TableAction,
    TakeBet,
    Withdraw,
)
from hazard.table.rules.events import CasterChanged, Seated, Withdrawn
from hazard.table.rules.state import Player
from hazard.table.rules.transitions import check_throw

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
