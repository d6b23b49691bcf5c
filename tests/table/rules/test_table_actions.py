"""Table actions: who takes them, their one text form (printed and read back by the same code) and the JSON
form the game record stores, read back exactly or refused."""

from __future__ import annotations

import contextlib
import json
from fractions import Fraction
from typing import Any, get_args

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from tests.strategies import actors, table_actions

from hazard.core.dice import ROLLS, Roll
from hazard.core.errors import InvalidError
from hazard.table.rules.actions import (
    REFEREE,
    Actor,
    ActorKind,
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
    ThrowDice,
    Withdraw,
    action_from_json,
    action_text,
    action_to_json,
    actor_from_json,
    actor_to_json,
    check_name,
    name_key,
    parse_action,
)
from hazard.table.rules.money import MoneyStyle

ANN = Actor.player("Ann")
SEATED = ("Ann", "Bob", "Cat", "Ann Lee")

EVERY_KIND: list[tuple[TableAction, dict[str, Any], str]] = [
    (
        Sit("Ann", Fraction(100), None),
        {"type": "sit", "name": "Ann", "bankroll": "100/1", "bot": None},
        "sit Ann 100",
    ),
    (
        Sit("Bot", Fraction(201, 2), BotPolicy.SETTER),
        {"type": "sit", "name": "Bot", "bankroll": "201/2", "bot": "setter"},
        "sit Bot 201/2 as a setter bot",
    ),
    (
        Stake("Ann", Fraction(10), consent=True),
        {"type": "stake", "player": "Ann", "amount": "10/1", "consent": True},
        "stake Ann 10 consent",
    ),
    (Withdraw("Ann"), {"type": "withdraw", "player": "Ann"}, "withdraw Ann"),
    (Leave("Ann"), {"type": "leave", "player": "Ann"}, "leave Ann"),
    (Call(7), {"type": "call", "main": 7}, "call 7"),
    (Roll(6, 1), {"type": "throw", "roll": "6-1"}, "throw 6-1"),
    (
        OfferBet("Ann", "4 or 10 before 7", Fraction(5), Fraction(3, 2)),
        {
            "type": "offer-bet",
            "backer": "Ann",
            "proposition": "4 or 10 before 7",
            "amount": "5/1",
            "odds": "3/2",
        },
        "offer Ann 5 on 4 or 10 before 7 at 3/2",
    ),
    (TakeBet(3, "Bob"), {"type": "take-bet", "bet": 3, "layer": "Bob"}, "take 3 Bob"),
    (CancelBet(3), {"type": "cancel-bet", "bet": 3}, "cancel 3"),
    (PassDice(), {"type": "pass-dice"}, "pass"),
]


@pytest.mark.parametrize(("action", "data", "text"), EVERY_KIND, ids=lambda x: type(x).__name__)
def test_every_kind_of_action_has_a_fixed_json_form(
    action: TableAction, data: dict[str, Any], text: str
) -> None:
    assert action_to_json(action) == data
    assert action_from_json(json.loads(json.dumps(data))) == action


@pytest.mark.parametrize(("action", "data", "text"), EVERY_KIND, ids=lambda x: type(x).__name__)
def test_every_kind_of_action_has_one_text_form(action: TableAction, data: dict[str, Any], text: str) -> None:
    assert action_text(action) == text
    for by in (REFEREE, ANN, Actor.player("Zed")):
        assert parse_action(text, by=by, players=SEATED) == action


def test_the_pinned_forms_cover_every_kind_of_action() -> None:
    assert {type(action) for action, _, _ in EVERY_KIND} == set(get_args(TableAction))


def test_defaults() -> None:
    assert Stake("Ann", Fraction(1)).consent is False
    assert OfferBet("Ann", "next odd", Fraction(1)).odds == 1
    assert Sit("Ann", Fraction(1)).bot is None


@given(table_actions())
def test_json_round_trip(action: TableAction) -> None:
    text = json.dumps(action_to_json(action), sort_keys=True)
    assert action_from_json(json.loads(text)) == action


# --- actors -----------------------------------------------------------------------------------------------


def test_actors() -> None:
    assert str(REFEREE) == "the referee"
    assert REFEREE.is_referee
    assert str(ANN) == "Ann"
    assert ANN.kind is ActorKind.PLAYER
    assert not ANN.is_referee
    with pytest.raises(InvalidError, match="a player has a name, the referee none"):
        Actor(ActorKind.PLAYER)
    with pytest.raises(InvalidError, match="a player has a name, the referee none"):
        Actor(ActorKind.REFEREE, "Ann")


@given(actors())
def test_actor_json_round_trip(actor: Actor) -> None:
    assert actor_from_json(json.loads(json.dumps(actor_to_json(actor)))) == actor


@pytest.mark.parametrize(
    "data",
    [
        None,
        "Ann",
        {},
        {"kind": "player"},
        {"kind": "player", "name": ""},
        {"kind": "referee", "name": "Ann"},
        {"kind": "banker", "name": "Ann"},
        {"kind": "player", "name": 3},
    ],
)
def test_a_malformed_actor_is_refused(data: object) -> None:
    with pytest.raises(InvalidError, match="expected a player with a name, the referee or the dice"):
        actor_from_json(data)


# --- names ------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "kept"),
    [
        ("Ann", "Ann"),
        ("  Ann Lee ", "Ann Lee"),
        ("Ann \n  Lee", "Ann Lee"),
        ("O'Neil", "O'Neil"),
        ("Zoë", "Zoë"),
        ("Zoe\u0308", "Zoë"),  # the same letters, written decomposed: one name
        ("Ａｎｎ", "Ann"),  # full-width letters are the letters
        ("Ｂｏｂ　Ｌｅｅ", "Bob Lee"),
        ("Ólafur", "Ólafur"),
        ("Яна", "Яна"),
        ("李", "李"),
        ("Ann2", "Ann2"),
    ],
)
def test_names(name: str, kept: str) -> None:
    assert check_name(name) == kept
    assert name_key(name) == kept.casefold()


@pytest.mark.parametrize(
    "name",
    [
        "",
        "   ",
        "x" * 41,
        "x" * 10_000,
        'Ann "the Bold"',
        "Ann\x07Lee",
        "referee",
        "Consent",
        "5",  # would read as a call
        "3-4",  # a roll
        "#1",  # a side bet's number
        "-1",
        "stake",  # verbs
        "Throw",
        "Ann\u200b",  # zero-width space: looks like Ann
        "An\u200dn",  # zero-width joiner
        "\u2060Ann",  # word joiner
        "Ann\u00ad",  # soft hyphen
        "\u3164",  # a Hangul filler: a letter that shows nothing
        "Ann\x1b[31m",  # a terminal's escape: would colour everything after it
        "\x1b]0;owned\x07",
        "Ann\u202eBob",  # right-to-left override
        "Ann\ufe0f",
    ],
    ids=ascii,
)
def test_bad_names_are_refused(name: str) -> None:
    with pytest.raises(InvalidError, match="invalid player name") as caught:
        check_name(name)
    assert "\x1b" not in str(caught.value)  # shown escaped
    assert "\u200b" not in str(caught.value)
    assert len(str(caught.value)) < 400


# --- the text form ----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "by", "action"),
    [
        ("stake 5", ANN, Stake("Ann", Fraction(5))),
        ("stake 2.50", ANN, Stake("Ann", Fraction(5, 2))),
        ("stake 5/3", ANN, Stake("Ann", Fraction(5, 3))),
        ("stake £1 10s", ANN, Stake("Ann", Fraction(3, 2))),
        ("stake 7s 6d", ANN, Stake("Ann", Fraction(3, 8))),
        ("stake 5 consent", ANN, Stake("Ann", Fraction(5), consent=True)),
        ("STAKE bob 5", REFEREE, Stake("Bob", Fraction(5))),
        ("stake Bob £1 10s consent", REFEREE, Stake("Bob", Fraction(3, 2), consent=True)),
        ('stake "ann lee" 7s 6d', REFEREE, Stake("Ann Lee", Fraction(3, 8))),
        ("stake Bob 5", ANN, Stake("Bob", Fraction(5))),  # parsed as written; the table refuses it for Ann
        ("withdraw", ANN, Withdraw("Ann")),
        ("withdraw cat", REFEREE, Withdraw("Cat")),
        ("leave", ANN, Leave("Ann")),
        ("leave cat", REFEREE, Leave("Cat")),
        ("call 7", ANN, Call(7)),
        ("7", ANN, Call(7)),
        ("call 12", REFEREE, Call(12)),
        ("throw", ANN, ThrowDice()),
        ("", ANN, ThrowDice()),
        ("t", ANN, ThrowDice()),
        ("throw 3-4", REFEREE, Roll(3, 4)),
        ("3 4", REFEREE, Roll(3, 4)),
        ("34", REFEREE, Roll(3, 4)),
        ("3-4", ANN, Roll(3, 4)),
        ("11", REFEREE, Roll(1, 1)),  # two digits are a roll; a single digit is a call
        ("offer 2 on 4 or 10 before 7", ANN, OfferBet("Ann", "4 or 10 before 7", Fraction(2))),
        ("offer 2 on next odd at 2 to 1", ANN, OfferBet("Ann", "next odd", Fraction(2), Fraction(2))),
        ("offer 2 on next odd at 5:2", ANN, OfferBet("Ann", "next odd", Fraction(2), Fraction(5, 2))),
        ("offer 2 on next odd at evens", ANN, OfferBet("Ann", "next odd", Fraction(2))),
        ("offer 2 on next odd at 1.5", ANN, OfferBet("Ann", "next odd", Fraction(2), Fraction(3, 2))),
        ("offer £1 10s on odd before even", ANN, OfferBet("Ann", "odd before even", Fraction(3, 2))),
        ("offer cat 2 on next odd", REFEREE, OfferBet("Cat", "next odd", Fraction(2))),
        ("take 3", ANN, TakeBet(3, "Ann")),
        ("take #3", ANN, TakeBet(3, "Ann")),
        ("take 3 bob", REFEREE, TakeBet(3, "Bob")),
        ("cancel 3", ANN, CancelBet(3)),
        ("pass", REFEREE, PassDice()),
        ("sit Dan 100", REFEREE, Sit("Dan", Fraction(100))),
        ("sit Dan 0", REFEREE, Sit("Dan", Fraction(0))),
        ("sit Dan £5 6s 8d as a bystander bot", REFEREE, Sit("Dan", Fraction(16, 3), BotPolicy.BYSTANDER)),
        ("sit Dan 5 as setter", REFEREE, Sit("Dan", Fraction(5), BotPolicy.SETTER)),
    ],
)
def test_commands_people_type(text: str, by: Actor, action: TableAction | ThrowDice) -> None:
    assert parse_action(text, by=by, players=SEATED) == action


@pytest.mark.parametrize(
    ("text", "by", "message"),
    [
        ("stake", ANN, "invalid command 'stake': expected stake [NAME] AMOUNT [consent]"),
        ("stake abc", ANN, "invalid stake 'abc': expected a sum such as 5, 2.50, 5/3, £1 10s or 7s 6d"),
        ("stake 0", ANN, "invalid stake '0': expected more than 0"),
        ("stake Bob", REFEREE, "invalid command 'stake Bob': expected stake NAME AMOUNT [consent]"),
        ("stake 5", REFEREE, "invalid command 'stake 5': the referee names the player: stake NAME AMOUNT"),
        ("withdraw", REFEREE, "the referee names the player: withdraw NAME"),
        ("take 3", REFEREE, "the referee names the player: take N NAME"),
        ("offer 2 on next odd", REFEREE, "the referee names the player: offer NAME AMOUNT"),
        ("call", ANN, "invalid command 'call': expected call MAIN"),
        ("call seven", ANN, "invalid command 'call seven': expected call MAIN"),
        ("call 123", ANN, "invalid command 'call 123': expected call MAIN"),
        ("throw 7-1", REFEREE, "invalid roll '7-1'"),
        ("10", REFEREE, "invalid roll '10'"),
        ("offer 2", ANN, "invalid command 'offer 2': expected offer [NAME] AMOUNT on BET [at ODDS]"),
        ("offer 2 on", ANN, "invalid command 'offer 2 on': expected offer"),
        ("offer 2 on next odd at 0", ANN, "invalid odds '0'"),
        (
            "offer 2 on next odd at -1/2",
            ANN,
            "invalid odds '-1/2': expected odds above 0",
        ),  # not the bet's fault
        ("offer 2 on next odd at 3/0", ANN, "invalid odds '3/0'"),
        (
            "offer 2 on next odd at 10000000000/1",
            ANN,
            "invalid odds '10000000000/1': expected odds above 0, a/b",
        ),
        ("offer 2 on next odd at lots", ANN, "invalid odds 'lots'"),
        ("stake 1e400", ANN, "invalid stake '1e400'"),
        (
            "stake " + "9" * 44,
            REFEREE,
            "invalid stake '" + "9" * 44 + "': expected at most 1000000000000 units",
        ),
        ("take", ANN, "invalid command 'take': expected take N [NAME]"),
        ("take x", ANN, "invalid side bet number 'x': expected a whole number"),
        ("take 9999999999999", ANN, "invalid side bet number '9999999999999': expected a whole number"),
        ("cancel 3 Bob", ANN, "invalid command 'cancel 3 Bob': expected cancel N"),
        ("pass now", ANN, "invalid command 'pass now': expected pass"),
        ("sit Dan", REFEREE, "invalid command 'sit Dan': expected sit NAME BANKROLL"),
        ("sit Dan 5 as a gambler bot", REFEREE, "invalid bot 'gambler'"),
        ('sit "referee" 5', REFEREE, "invalid player name 'referee'"),
        (
            "dance",
            ANN,
            "unknown command 'dance': expected one of sit, stake, withdraw, leave, call, throw, offer",
        ),
        ("stake " + "9" * 5000, ANN, "expected at most 400 characters"),
        ("stake " + "9" * 300, ANN, "expected at most 64 characters"),
    ],
)
def test_what_is_no_command_is_refused(text: str, by: Actor, message: str) -> None:
    with pytest.raises(InvalidError) as caught:
        parse_action(text, by=by, players=SEATED)
    assert message in str(caught.value)
    assert "\n" not in str(caught.value)


@pytest.mark.parametrize("money", list(MoneyStyle))
@given(action=table_actions())
@settings(max_examples=150, derandomize=True)
def test_printed_text_reads_back_to_the_same_action(money: MoneyStyle, action: TableAction) -> None:
    # Only actions whose fields the text form can carry: a name is a name, a proposition some words.
    try:
        names = [check_name(n) for n in _names(action)]
    except InvalidError:
        return
    if names != _names(action) or (
        isinstance(action, OfferBet) and action.proposition != " ".join(action.proposition.split())
    ):
        return
    if isinstance(action, Stake | OfferBet | Sit) and not _amounts_ok(action):
        return
    if isinstance(action, TakeBet | CancelBet) and not 0 <= action.bet < 10**9:
        return
    if isinstance(action, Call) and not 0 <= action.main <= 99:
        return
    text = action_text(action, money)
    assert parse_action(text, by=REFEREE) == action


def _names(action: TableAction) -> list[str]:
    if isinstance(action, Sit):
        return [action.name]
    if isinstance(action, Stake | Withdraw | Leave):
        return [action.player]
    if isinstance(action, OfferBet):
        return [action.backer]
    if isinstance(action, TakeBet):
        return [action.layer]
    return []


def _amounts_ok(action: Stake | OfferBet | Sit) -> bool:
    amount = action.bankroll if isinstance(action, Sit) else action.amount
    if isinstance(action, OfferBet) and (
        action.odds <= 0 or " on " in f" {action.proposition} " or " at " in f" {action.proposition} "
    ):
        return False
    if isinstance(action, OfferBet) and not action.proposition.strip():
        return False
    return (amount > 0 or isinstance(action, Sit)) and amount.denominator <= 1000


@given(st.text(max_size=60), st.sampled_from([REFEREE, ANN]))
@settings(max_examples=300, derandomize=True)
def test_the_parser_refuses_anything_with_one_invalid_error(text: str, by: Actor) -> None:
    with contextlib.suppress(InvalidError):  # anything else (a crash, another error) fails the test
        parse_action(text, by=by, players=SEATED)


def test_every_roll_reads_as_a_throw() -> None:
    for roll in ROLLS:
        assert parse_action(str(roll), by=REFEREE) == roll
        assert parse_action(action_text(roll), by=REFEREE) == roll


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
            {"type": "sit", "name": "Ann", "bankroll": "-3/1", "bot": None},
            "bankroll = '-3/1', expected 0 or more",
        ),
        (
            {"type": "sit", "name": "Ann", "bankroll": "3", "bot": None},
            "bankroll = '3', expected a fraction a/b",
        ),
        (
            {"type": "sit", "name": "Ann", "bankroll": "9" * 5000 + "/1", "bot": None},
            "expected a fraction a/b",
        ),
        (
            {"type": "sit", "name": "Ann", "bankroll": "1/1", "bot": 1},
            "bot = 1, expected a bot policy or null",
        ),
        (
            {"type": "sit", "name": "Ann", "bankroll": "1/1", "bot": "gambler"},
            "bot = 'gambler', expected a bot policy or null",
        ),
        ({"type": "stake", "player": "Ann", "amount": "1/1", "consent": "yes"}, "consent = 'yes'"),
        ({"type": "call", "main": "7"}, "main = '7', expected a whole number"),
        ({"type": "call", "main": True}, "main = True, expected a whole number"),
        ({"type": "call", "main": 7.0}, "main = 7.0, expected a whole number"),
        ({"type": "throw", "roll": "7-1"}, "invalid roll '7-1'"),
        ({"type": "throw", "roll": [3, 4]}, "roll = [3, 4], expected text"),
        ({"type": "take-bet", "bet": "1", "layer": "Bob"}, "bet = '1', expected a whole number"),
        ({"type": "cancel-bet", "bet": None}, "bet = None, expected a whole number"),
        (
            {"type": "offer-bet", "backer": "A", "proposition": "next odd", "amount": "1/1", "odds": "x"},
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


@pytest.mark.parametrize(
    "text",
    ["withdraw Ann please", "leave Ann at once", "take 1 Ann now", "withdraw Ann Lee", "leave Bob Cat"],
)
def test_a_name_followed_by_more_is_no_command(text: str) -> None:
    # A name of several words is written in double quotes: nothing may follow the name silently.
    with pytest.raises(InvalidError, match="invalid command"):
        parse_action(text, by=REFEREE, players=SEATED)
    assert parse_action('withdraw "Ann Lee"', by=REFEREE) == Withdraw("Ann Lee")
