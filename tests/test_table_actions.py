"""Table actions as the game record stores them: a JSON object per action, read back exactly or refused."""

from __future__ import annotations

import json
from fractions import Fraction
from typing import Any, get_args

import pytest
from hypothesis import given
from tests.strategies import table_actions

from hazard.core.dice import Roll
from hazard.core.errors import InvalidError
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
    action_from_json,
    action_to_json,
)

EVERY_KIND: list[tuple[TableAction, dict[str, Any]]] = [
    (
        Sit("Ann", Fraction(100), None),
        {"type": "sit", "name": "Ann", "bankroll": "100/1", "bot": None},
    ),
    (
        Sit("Bot", Fraction(201, 2), "setter"),
        {"type": "sit", "name": "Bot", "bankroll": "201/2", "bot": "setter"},
    ),
    (
        Stake("Ann", Fraction(10), consent=True),
        {"type": "stake", "player": "Ann", "amount": "10/1", "consent": True},
    ),
    (Withdraw("Ann"), {"type": "withdraw", "player": "Ann"}),
    (Call(7), {"type": "call", "main": 7}),
    (Throw(Roll(6, 1)), {"type": "throw", "roll": "6-1"}),
    (
        OfferBet("Ann", "4 or 10 before 7", Fraction(5), Fraction(3, 2)),
        {
            "type": "offer-bet",
            "backer": "Ann",
            "proposition": "4 or 10 before 7",
            "amount": "5/1",
            "odds": "3/2",
        },
    ),
    (TakeBet(3, "Bob"), {"type": "take-bet", "bet": 3, "layer": "Bob"}),
    (CancelBet(3), {"type": "cancel-bet", "bet": 3}),
    (PassDice(), {"type": "pass-dice"}),
]


@pytest.mark.parametrize(("action", "data"), EVERY_KIND, ids=lambda x: type(x).__name__)
def test_every_kind_of_action_has_a_fixed_json_form(action: TableAction, data: dict[str, Any]) -> None:
    assert action_to_json(action) == data
    assert action_from_json(json.loads(json.dumps(data))) == action


def test_the_pinned_forms_cover_every_kind_of_action() -> None:
    assert {type(action) for action, _ in EVERY_KIND} == set(get_args(TableAction))


def test_defaults() -> None:
    assert Stake("Ann", Fraction(1)).consent is False
    assert OfferBet("Ann", "next odd", Fraction(1)).odds == 1
    assert Sit("Ann", Fraction(1)).bot is None


@given(table_actions())
def test_json_round_trip(action: TableAction) -> None:
    text = json.dumps(action_to_json(action), sort_keys=True)
    assert action_from_json(json.loads(text)) == action


@pytest.mark.parametrize(
    ("data", "fragment"),
    [
        (None, "expected a JSON object with a 'type'"),
        ([1, 2], "expected a JSON object with a 'type'"),
        ("sit", "expected a JSON object with a 'type'"),
        ({"name": "Ann"}, "expected a JSON object with a 'type'"),
        ({"type": 3}, "expected a JSON object with a 'type'"),
        ({"type": "dance"}, "invalid action type 'dance'"),
        ({"type": "correction", "target": 1, "replacement": None}, "invalid action type 'correction'"),
        ({"type": "withdraw"}, "invalid withdraw action: missing field 'player'"),
        (
            {"type": "withdraw", "player": "Ann", "amount": "1"},
            "invalid withdraw action: unknown field 'amount'",
        ),
        ({"type": "pass-dice", "who": "Ann"}, "invalid pass-dice action: unknown field 'who'"),
        ({"type": "sit", "name": "", "bankroll": "1", "bot": None}, "name = '', expected text"),
        ({"type": "sit", "name": 5, "bankroll": "1", "bot": None}, "name = 5, expected text"),
        ({"type": "sit", "name": "Ann", "bankroll": 100, "bot": None}, "bankroll = 100, expected text"),
        (
            {"type": "sit", "name": "Ann", "bankroll": "lots", "bot": None},
            "bankroll = 'lots', expected a fraction",
        ),
        (
            {"type": "sit", "name": "Ann", "bankroll": "1/0", "bot": None},
            "bankroll = '1/0', expected a fraction",
        ),
        (
            {"type": "sit", "name": "Ann", "bankroll": "-3", "bot": None},
            "bankroll = '-3', expected 0 or more",
        ),
        ({"type": "sit", "name": "Ann", "bankroll": "1", "bot": 1}, "bot = 1, expected text or null"),
        ({"type": "stake", "player": "Ann", "amount": "1", "consent": "yes"}, "consent = 'yes'"),
        ({"type": "call", "main": "7"}, "main = '7', expected a whole number"),
        ({"type": "call", "main": True}, "main = True, expected a whole number"),
        ({"type": "call", "main": 7.0}, "main = 7.0, expected a whole number"),
        ({"type": "throw", "roll": "7-1"}, "invalid roll '7-1'"),
        ({"type": "throw", "roll": [3, 4]}, "roll = [3, 4], expected text"),
        ({"type": "take-bet", "bet": "1", "layer": "Bob"}, "bet = '1', expected a whole number"),
        ({"type": "cancel-bet", "bet": None}, "bet = None, expected a whole number"),
        (
            {"type": "offer-bet", "backer": "A", "proposition": "next odd", "amount": "1", "odds": "x"},
            "odds = 'x', expected a fraction",
        ),
    ],
)
def test_malformed_actions_are_refused(data: object, fragment: str) -> None:
    with pytest.raises(InvalidError) as caught:
        action_from_json(data)
    assert fragment in str(caught.value)


def test_a_proposition_is_stored_as_typed_and_checked_only_at_the_table() -> None:
    # The record keeps what the player said; whether it is a proposition is the table's business.
    data = {"type": "offer-bet", "backer": "A", "proposition": "purple", "amount": "1/1", "odds": "1/1"}
    assert action_from_json(data) == OfferBet("A", "purple", Fraction(1))
