"""Seats at the table: sitting down, the table's bounds on seats and sums, and getting up."""

from __future__ import annotations

from fractions import Fraction

import pytest
from tests.strategies import throw_of as t
from tests.table.rules.transitions_helpers import play, table_for

from hazard.core.errors import IllegalError, InvalidError
from hazard.core.rulesets import find_paytable, find_ruleset
from hazard.core.state import Phase
from hazard.table.rules.actions import (
    REFEREE,
    Actor,
    ActorError,
    BotPolicy,
    Call,
    Leave,
    OfferBet,
    PassDice,
    Sit,
    Stake,
    TableAction,
    TakeBet,
)
from hazard.table.rules.events import CasterChanged, Seated
from hazard.table.rules.state import Player, Table, new_table
from hazard.table.rules.transitions import apply_action

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
