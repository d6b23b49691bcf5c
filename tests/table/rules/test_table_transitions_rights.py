"""Who may act at the table: each actor only for himself, the caster for the dice and the bets he
consents to, and a player never with more rights than the referee."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from tests.strategies import played_tables, table_actions_among
from tests.strategies import throw_of as t
from tests.table.rules.transitions_helpers import By, play, refused, rightful, table_for

from hazard.core.dice import Roll
from hazard.core.errors import HazardError, IllegalError
from hazard.table.rules.actions import (
    REFEREE,
    Actor,
    ActorError,
    Call,
    CancelBet,
    OfferBet,
    PassDice,
    Sit,
    Stake,
    TableAction,
    TakeBet,
    Withdraw,
    action_text,
)
from hazard.table.rules.events import AnyEvent, Seated
from hazard.table.rules.state import Player, Table
from hazard.table.rules.transitions import acting_for, apply_action, check_throw

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
