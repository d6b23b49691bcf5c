"""What a front end offers a player (``choices``): everything offered is accepted by the table's rules, and
the player whose turn it is is always offered his move.

A random walk over built-in rulesets: at each step one offered choice of one player is made, through the
pure :func:`apply_action`, which must accept it.
"""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hazard.core.dice import ROLLS
from hazard.core.rulesets import find_ruleset
from hazard.table import (
    Actor,
    BotPolicy,
    Call,
    CancelBet,
    Choices,
    OfferBet,
    PassDice,
    Sit,
    Stake,
    Table,
    TableAction,
    TakeBet,
    Withdraw,
    apply_action,
    choices,
    table_paytable,
)
from hazard.table.rules.state import Need
from hazard.table.rules.transitions import check_throw, new_table

NAMES = ("Ann", "Bob", "Cat")


def seated(ruleset: str) -> Table:
    rules = find_ruleset(ruleset)
    table = new_table(rules, table_paytable(rules)[0])
    for name in NAMES:
        table, _ = apply_action(table, Sit(name, Fraction(1000)), by=Actor.player(name))
    return table


def moves(table: Table, name: str, can: Choices) -> list[TableAction]:
    offered: list[TableAction] = [Call(main) for main in can.mains]
    if can.throw:
        offered.extend(ROLLS[:3])
    if can.stake:
        offered.append(Stake(name, Fraction(1)))
    if can.withdraw:
        offered.append(Withdraw(name))
    if can.pass_dice:
        offered.append(PassDice())
    if can.offer:
        offered.append(OfferBet(name, "next 7", Fraction(1)))
    offered.extend(TakeBet(number, name) for number in can.take)
    offered.extend(CancelBet(number) for number in can.cancel)
    return offered


@pytest.mark.parametrize("ruleset", ["wikipedia", "craps", "ecws-1674", "britannica-1911", "sca-isenfir"])
@settings(max_examples=15, deadline=None, derandomize=True)
@given(picks=st.lists(st.integers(min_value=0, max_value=10_000), min_size=40, max_size=80))
def test_every_choice_offered_is_accepted(ruleset: str, picks: list[int]) -> None:
    table = seated(ruleset)
    for pick in picks:
        name = NAMES[pick % len(NAMES)]
        can = choices(table, name)
        turn = table.turn
        if turn.caster == name:  # the player whose turn it is has his move offered
            assert can.mains if turn.need is Need.CALL else can.throw
        if can.throw:
            check_throw(table, by=Actor.player(name))
        offered = moves(table, name, can)
        if not offered:
            continue
        move = offered[pick // len(NAMES) % len(offered)]
        table, _ = apply_action(table, move, by=Actor.player(name))


def test_nobody_not_at_the_table_is_offered_anything() -> None:
    assert choices(seated("wikipedia"), "Zed") == Choices()


def test_a_bot_caster_waits_for_a_person_to_ask_for_its_throw() -> None:
    rules = find_ruleset("wikipedia")
    table = new_table(rules, table_paytable(rules)[0])
    table, _ = apply_action(table, Sit("Dan", Fraction(100), BotPolicy.SETTER), by=Actor.player("Dan"))
    table, _ = apply_action(table, Sit("Ann", Fraction(100)), by=Actor.player("Ann"))
    can = choices(table, "Ann")
    assert can.throw_for == "Dan"
    assert not can.throw
    assert not can.mains
