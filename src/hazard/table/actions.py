"""Everything that can happen at a table, as plain data that the game record stores one per line.

An action is an input: a player sits down, a stake is laid, the caster calls, the dice show a throw, a side
bet is offered or taken, the dice are handed on. The table's state is whatever replaying the actions through
:func:`hazard.table.state.apply_action` gives; nothing else is stored.

>>> action_from_json(action_to_json(Throw(Roll(3, 4))))
Throw(roll=Roll(a=3, b=4))
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from hazard.core.dice import Roll
from hazard.core.errors import InvalidError
from hazard.core.numbers import fraction_text

__all__ = [
    "BOT_POLICIES",
    "Call",
    "CancelBet",
    "OfferBet",
    "PassDice",
    "Sit",
    "Stake",
    "TableAction",
    "TakeBet",
    "Throw",
    "Withdraw",
    "action_from_json",
    "action_to_json",
]


BOT_POLICIES = ("setter", "bystander")
"""The bot policies a seat can be played by (see :mod:`hazard.table.bots`)."""


@dataclass(frozen=True, slots=True)
class Sit:
    """``name`` sits down at the caster's right (last in the order the dice travel) with ``bankroll``."""

    name: str
    bankroll: Fraction
    bot: str | None = None
    """The bot policy playing this seat (see :mod:`hazard.table.bots`), or None for a person."""


@dataclass(frozen=True, slots=True)
class Stake:
    """``player`` stakes ``amount`` against the caster (the caster's stake unit for the paytable)."""

    player: str
    amount: Fraction
    consent: bool = False
    """The caster agreed to a bet laid once the chance is set (needed where every player bets)."""


@dataclass(frozen=True, slots=True)
class Withdraw:
    """``player`` takes back the stakes laid against the caster before the round has begun."""

    player: str


@dataclass(frozen=True, slots=True)
class Call:
    """The caster calls ``main``."""

    main: int


@dataclass(frozen=True, slots=True)
class Throw:
    """The dice showed ``roll``."""

    roll: Roll


@dataclass(frozen=True, slots=True)
class OfferBet:
    """``backer`` offers to back ``proposition`` for ``amount`` at ``odds`` (1 is even money)."""

    backer: str
    proposition: str
    amount: Fraction
    odds: Fraction = Fraction(1)


@dataclass(frozen=True, slots=True)
class TakeBet:
    """``layer`` takes side bet number ``bet``, laying against it."""

    bet: int
    layer: str


@dataclass(frozen=True, slots=True)
class CancelBet:
    """The backer withdraws side bet number ``bet`` before anyone has taken it."""

    bet: int


@dataclass(frozen=True, slots=True)
class PassDice:
    """The caster hands the dice on between rounds, by choice."""


TableAction = Sit | Stake | Withdraw | Call | Throw | OfferBet | TakeBet | CancelBet | PassDice
"""Any action at a table."""


def action_to_json(action: TableAction) -> dict[str, Any]:
    """The JSON object the game record stores for ``action``."""
    if isinstance(action, Sit):
        return {
            "type": "sit",
            "name": action.name,
            "bankroll": fraction_text(action.bankroll),
            "bot": action.bot,
        }
    if isinstance(action, Stake):
        return {
            "type": "stake",
            "player": action.player,
            "amount": fraction_text(action.amount),
            "consent": action.consent,
        }
    if isinstance(action, Withdraw):
        return {"type": "withdraw", "player": action.player}
    if isinstance(action, Call):
        return {"type": "call", "main": action.main}
    if isinstance(action, Throw):
        return {"type": "throw", "roll": str(action.roll)}
    if isinstance(action, OfferBet):
        return {
            "type": "offer-bet",
            "backer": action.backer,
            "proposition": action.proposition,
            "amount": fraction_text(action.amount),
            "odds": fraction_text(action.odds),
        }
    if isinstance(action, TakeBet):
        return {"type": "take-bet", "bet": action.bet, "layer": action.layer}
    if isinstance(action, CancelBet):
        return {"type": "cancel-bet", "bet": action.bet}
    return {"type": "pass-dice"}


class _Fields:
    """Reads one stored action's fields, refusing anything missing, extra or of the wrong type."""

    def __init__(self, data: Mapping[str, Any], kind: str, names: set[str]) -> None:
        extra = sorted(set(data) - names - {"type"})
        missing = sorted(names - set(data))
        if extra or missing:
            problem = f"unknown field {extra[0]!r}" if extra else f"missing field {missing[0]!r}"
            raise InvalidError(f"invalid {kind} action: {problem}")
        self.data = data
        self.kind = kind

    def text(self, name: str) -> str:
        value = self.data[name]
        if not isinstance(value, str) or not value:
            raise InvalidError(f"invalid {self.kind} action: {name} = {value!r}, expected text")
        return value

    def number(self, name: str) -> int:
        value = self.data[name]
        if not isinstance(value, int) or isinstance(value, bool):
            raise InvalidError(f"invalid {self.kind} action: {name} = {value!r}, expected a whole number")
        return value

    def flag(self, name: str) -> bool:
        value = self.data[name]
        if not isinstance(value, bool):
            raise InvalidError(f"invalid {self.kind} action: {name} = {value!r}, expected true or false")
        return value

    def money(self, name: str) -> Fraction:
        value = self.text(name)
        try:
            amount = Fraction(value)
        except (ValueError, ZeroDivisionError):
            raise InvalidError(
                f"invalid {self.kind} action: {name} = {value!r}, expected a fraction"
            ) from None
        if amount < 0:
            raise InvalidError(f"invalid {self.kind} action: {name} = {value!r}, expected 0 or more")
        return amount


def action_from_json(data: object) -> TableAction:
    """Read one stored action back; an :class:`InvalidError` for anything that is not exactly one."""
    if not isinstance(data, dict) or not isinstance(data.get("type"), str):
        raise InvalidError(f"invalid action {data!r}: expected a JSON object with a 'type'")
    kind = data["type"]
    if kind == "sit":
        f = _Fields(data, kind, {"name", "bankroll", "bot"})
        bot = data["bot"]
        if bot is not None and not isinstance(bot, str):
            raise InvalidError(f"invalid sit action: bot = {bot!r}, expected text or null")
        return Sit(f.text("name"), f.money("bankroll"), bot)
    if kind == "stake":
        f = _Fields(data, kind, {"player", "amount", "consent"})
        return Stake(f.text("player"), f.money("amount"), f.flag("consent"))
    if kind == "withdraw":
        return Withdraw(_Fields(data, kind, {"player"}).text("player"))
    if kind == "call":
        return Call(_Fields(data, kind, {"main"}).number("main"))
    if kind == "throw":
        return Throw(Roll.parse(_Fields(data, kind, {"roll"}).text("roll")))
    if kind == "offer-bet":
        f = _Fields(data, kind, {"backer", "proposition", "amount", "odds"})
        return OfferBet(f.text("backer"), f.text("proposition"), f.money("amount"), f.money("odds"))
    if kind == "take-bet":
        f = _Fields(data, kind, {"bet", "layer"})
        return TakeBet(f.number("bet"), f.text("layer"))
    if kind == "cancel-bet":
        return CancelBet(_Fields(data, kind, {"bet"}).number("bet"))
    if kind == "pass-dice":
        _Fields(data, kind, set())
        return PassDice()
    raise InvalidError(
        f"invalid action type {kind!r}: expected sit, stake, withdraw, call, throw, offer-bet, "
        "take-bet, cancel-bet or pass-dice"
    )
