"""Where throws come from at a table: the operating system's secure generator, or a seeded one.

A third source, real dice typed in by a referee, needs no code here: the referee's text goes through
:meth:`hazard.core.dice.Roll.parse`. The rules engine never rolls; only these do.
"""

from __future__ import annotations

import random
import secrets
from dataclasses import dataclass
from typing import Protocol

from hazard.core.dice import Roll
from hazard.core.errors import InvalidError

__all__ = ["DiceSource", "SecureDice", "SeededDice"]


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
        if self.seed < 0:
            raise InvalidError(f"invalid seed {self.seed}: expected a whole number of 0 or more")

    def throw(self, index: int) -> Roll:
        generator = random.Random(f"hazard/{self.seed}/{index}")
        return Roll(generator.randint(1, 6), generator.randint(1, 6))
