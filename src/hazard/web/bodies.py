"""The JSON API's request bodies and refusals: the schemas of its OpenAPI page, apart from the routes (as
the full-stack FastAPI template keeps its API models apart from its tables)."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from hazard.core.rules import StakeArrangement
from hazard.core.staking import Staking
from hazard.table import MAX_GAME, BotPolicy, DiceKind, MoneyStyle

__all__ = [
    "MAX_RULESET_TEXT",
    "REFUSALS",
    "ClaimCode",
    "NewAction",
    "NewBot",
    "NewSeat",
    "NewSeed",
    "NewTable",
    "Refusal",
]

MAX_RULESET_TEXT = 65_536
"""The longest ruleset file the lobby takes (the built-in ones are a few kilobytes)."""


class _Body(BaseModel):
    model_config = ConfigDict(extra="forbid")


class NewTable(_Body):
    """A table to set up: a built-in ruleset by id, or a ruleset file's text (never a path: the server opens
    no file a client names); the same for its paytable."""

    ruleset: str | None = Field(None, max_length=64, description="a built-in ruleset's id, e.g. wikipedia")
    ruleset_toml: str | None = Field(None, max_length=MAX_RULESET_TEXT, description="a ruleset file's text")
    paytable: str | None = Field(None, max_length=64, description="a built-in paytable's id")
    paytable_toml: str | None = Field(None, max_length=MAX_RULESET_TEXT, description="a paytable file's text")
    stakes: StakeArrangement | None = None
    dice: DiceKind = Field(DiceKind.FAIR, description="fair: the server's fair dice; typed: a referee's")
    money: MoneyStyle = MoneyStyle.DECIMAL
    label: str = Field("", max_length=80)
    bot_unit: str = Field("1", max_length=64, description="what the bots stake")
    bot_staking: Staking = Field(
        Staking.FLAT, description="how a setter bot stakes from its unit: flat, martingale or paroli"
    )


class NewSeat(_Body):
    name: str = Field(max_length=200)
    bankroll: str = Field(max_length=64)


class NewBot(_Body):
    name: str = Field(max_length=200)
    bankroll: str = Field(max_length=64)
    policy: BotPolicy = BotPolicy.SETTER


class NewAction(_Body):
    action: str = Field(max_length=2000, description="the action in the terminal's text form, e.g. call 7")
    id: str | None = Field(None, max_length=200, description="the client's own number for the action")
    based_on: int | None = Field(
        None, ge=0, le=MAX_GAME, description="the last entry the sender saw: refused if the dice moved since"
    )


class ClaimCode(_Body):
    code: str = Field(max_length=200, description="the code of a late arrival's claim link")


class NewSeed(_Body):
    hand: int = Field(ge=1, le=MAX_GAME, description="the hand whose commitment the page saw")
    seed: str = Field(
        max_length=200, description="the seat's own seed for that hand: 1 to 64 printable characters"
    )


class Refusal(BaseModel):
    """Every refusal (:mod:`hazard.web.refusals`): the table service's message, the same in a person's
    words, and for a seat's action what it can do now."""

    error: str
    said: str
    next: str | None = None


REFUSALS: dict[int | str, dict[str, Any]] = {
    code: {"model": Refusal, "description": what}
    for code, what in (
        (400, "the body is not JSON"),
        (403, "acting for another seat, or as a spectator"),
        (404, "no such table"),
        (409, "not allowed now"),
        (413, "the body is too large"),
        (422, "malformed"),
        (429, "too many requests"),
        (503, "the game record is unreachable or busy for now; nothing was written: try again"),
    )
}
REFUSALS[429]["headers"] = {
    "Retry-After": {"description": "seconds to wait before trying again", "schema": {"type": "integer"}}
}
