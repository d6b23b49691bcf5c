"""Who takes an action at a table: a seated player, the referee, or the game's own fair dice."""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Any

from hazard.core.errors import IllegalError, InvalidError

__all__ = [
    "DICE",
    "MAX_NAME",
    "REFEREE",
    "Actor",
    "ActorError",
    "ActorKind",
    "BotPolicy",
    "SeatKey",
    "actor_from_json",
    "actor_to_json",
]

MAX_NAME = 40
"""The longest name a player may have."""


class ActorKind(enum.Enum):
    """Who takes an action: a player seated at the table, or the referee who enters it for a player."""

    PLAYER = "player"
    REFEREE = "referee"
    DICE = "dice"
    """The game's own fair dice, writing their commitments, reveals and the seeds they draw."""


class ActorError(IllegalError):
    """An action its actor may not take at any moment: another player's, or by one who is not at the table."""


@dataclass(frozen=True, slots=True)
class Actor:
    """Who takes an action: ``Actor.player("Ann")``, or :data:`REFEREE`."""

    kind: ActorKind
    name: str | None = None

    def __post_init__(self) -> None:
        if (self.kind is ActorKind.PLAYER) != (self.name is not None):
            raise InvalidError(
                f"invalid actor {self.kind.value} {self.name!r}: a player has a name, the referee none"
            )

    @classmethod
    def player(cls, name: str) -> Actor:
        """The seated player ``name``."""
        return cls(ActorKind.PLAYER, name)

    @property
    def is_referee(self) -> bool:
        return self.kind is ActorKind.REFEREE

    def __str__(self) -> str:
        if self.kind is ActorKind.DICE:
            return "the dice"
        return "the referee" if self.name is None else self.name


REFEREE = Actor(ActorKind.REFEREE)
"""The referee, who may enter any player's action (and whose entries the record marks as such)."""
DICE = Actor(ActorKind.DICE)
"""The game's fair dice (``hazard.table.fair.commit_reveal``): they act for nobody at the table."""


class BotPolicy(enum.Enum):
    """How a bot seated at a table plays (see ``hazard.table.rules.bots``)."""

    SETTER = "setter"
    BYSTANDER = "bystander"


def actor_to_json(actor: Actor) -> dict[str, Any]:
    """The JSON object the game record stores for ``actor``."""
    if actor.name is None:
        return {"kind": actor.kind.value}
    return {"kind": actor.kind.value, "name": actor.name}


def actor_from_json(data: object) -> Actor:
    """Read a stored actor back; an :class:`InvalidError` for anything else."""
    if data == {"kind": ActorKind.REFEREE.value}:
        return REFEREE
    if data == {"kind": ActorKind.DICE.value}:
        return DICE
    if (
        isinstance(data, dict)
        and set(data) == {"kind", "name"}
        and data["kind"] == ActorKind.PLAYER.value
        and isinstance(data["name"], str)
        and data["name"]
    ):
        return Actor.player(data["name"])
    raise InvalidError(
        f"invalid actor {str(data)[:80]!r}: expected a player with a name, the referee or the dice"
    )


@dataclass(frozen=True, slots=True)
class SeatKey:
    """A key to a game played from afar, by whose it is: a seated player's seating, or (``player`` None)
    its host's."""

    player: str | None
    seating: int | None = None
    """The number of the entry that seated the player (None for the host): the key opens that seating only."""

    @property
    def is_host(self) -> bool:
        return self.player is None
