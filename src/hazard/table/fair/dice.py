"""Where throws come from at a table: the operating system's secure generator, a seeded one, or real dice.

Real dice need no code here: the referee types what they showed, read by :meth:`hazard.core.dice.Roll.parse`.
The rules engine never rolls; only these do.
"""

from __future__ import annotations

import enum
import random
import secrets
from dataclasses import dataclass
from typing import Protocol

from hazard.core.dice import Roll
from hazard.core.errors import InvalidError

__all__ = ["DiceKind", "DiceSource", "SecureDice", "SeededDice", "dice_for"]


class DiceKind(enum.Enum):
    """Where a game's throws come from."""

    SECURE = "secure"
    """The operating system's secure generator."""
    SEEDED = "seeded"
    """A seeded generator: the same seed gives the same throws."""
    TYPED = "typed"
    """Real dice, their throws typed in by the referee."""
    FAIR = "fair"
    """Provably fair dice: each hand's seed committed before it, shown after it
    (``hazard.table.fair.commit_reveal``)."""

    @property
    def own(self) -> bool:
        """Whether the game throws its own dice (a throw is asked for, never named)."""
        return self is not DiceKind.TYPED

    def describe(self, seed: int | None = None) -> str:
        """The dice in words: ``seeded dice (seed 7)``."""
        return f"seeded dice (seed {seed})" if self is DiceKind.SEEDED else f"{self.value} dice"

    @property
    def fairness(self) -> str:
        """What the dice prove of their throws, plainly, as exports and ``hazard verify`` say it."""
        return _FAIRNESS[self]


_FAIRNESS = {
    DiceKind.FAIR: "provably fair",
    DiceKind.SEEDED: "not provably fair: seeded dice",
    DiceKind.SECURE: "not provably fair: the server's secure random dice",
    DiceKind.TYPED: "real dice, typed by the referee",
}


class DiceSource(Protocol):
    """Anything that can throw two dice; ``index`` counts the table's throws from 0."""

    def throw(self, index: int) -> Roll: ...


class SecureDice:
    """Throws from the operating system's cryptographically secure generator: nobody can predict them."""

    def throw(self, index: int) -> Roll:
        return Roll(secrets.randbelow(6) + 1, secrets.randbelow(6) + 1)


@dataclass(frozen=True)
class SeededDice:
    """Reproducible throws: throw ``index`` of seed ``seed`` is always the same.

    Each throw is drawn from its own generator seeded by (seed, index), so a game resumed from its record
    carries on with exactly the throws it would have had, however many times it was stopped.

    >>> SeededDice(7).throw(0) == SeededDice(7).throw(0)
    True
    """

    seed: int

    def __post_init__(self) -> None:
        if not 0 <= self.seed < 2**63:
            raise InvalidError(f"invalid seed {self.seed}: expected a whole number from 0 to 2**63 - 1")

    def throw(self, index: int) -> Roll:
        generator = random.Random(f"hazard/{self.seed}/{index}")
        return Roll(generator.randint(1, 6), generator.randint(1, 6))


def dice_for(kind: DiceKind, seed: int | None = None) -> DiceSource | None:
    """The dice source of a game of ``kind`` (None for real dice, typed in); seeded dice need ``seed``."""
    if kind is DiceKind.SEEDED:
        if seed is None:
            raise InvalidError("invalid dice: seeded dice need a seed")
        return SeededDice(seed)
    if seed is not None:
        raise InvalidError(f"invalid seed {seed}: only seeded dice take a seed, not {kind.describe()}")
    return SecureDice() if kind is DiceKind.SECURE else None  # fair dice are thrown by the session
