"""Two six-sided dice: rolls, their 36 ordered outcomes and the probability of each total."""

from __future__ import annotations

import re
from dataclasses import dataclass
from fractions import Fraction
from functools import cache

from hazard.core.errors import InvalidError, quoted

__all__ = ["ROLLS", "TOTALS", "Roll", "total_probability", "ways"]

_FACES = range(1, 7)
TOTALS: tuple[int, ...] = tuple(range(2, 13))
"""Every total two dice can show, 2 to 12."""

# "3-4", "3 4", "3,4", "3+4" and "34" all name the same throw; anything else is refused.
_ROLL_TEXT = re.compile(r"^\s*([0-9])\s*(?:[-,+/x ]\s*)?([0-9])\s*$")


@dataclass(frozen=True, order=True, slots=True)
class Roll:
    """One throw of two dice, kept in order (``Roll(2, 4)`` and ``Roll(4, 2)`` are different outcomes).

    >>> Roll(3, 4).total
    7
    >>> Roll.parse("6-6")
    Roll(a=6, b=6)
    """

    a: int
    b: int

    def __post_init__(self) -> None:
        for face in (self.a, self.b):
            if not isinstance(face, int) or isinstance(face, bool) or face not in _FACES:
                raise InvalidError(f"invalid roll {quoted(self.a)}-{quoted(self.b)}: each die shows 1 to 6")

    @property
    def total(self) -> int:
        """The sum of the two faces."""
        return self.a + self.b

    @property
    def is_doublet(self) -> bool:
        """Whether both dice show the same face."""
        return self.a == self.b

    @classmethod
    def parse(cls, text: str) -> Roll:
        """Read a throw written as ``3-4``, ``3 4``, ``3,4`` or ``34``.

        >>> Roll.parse("2 5").total
        7
        """
        match = _ROLL_TEXT.match(text)
        if match is None:
            raise InvalidError(
                f"invalid roll {quoted(text)}: expected two faces from 1 to 6, like '3-4' or '3 4'",
                said=f"{quoted(text)} isn't a throw: type two faces from 1 to 6, like 3-4.",
            )
        a, b = int(match.group(1)), int(match.group(2))
        if a not in _FACES or b not in _FACES:
            raise InvalidError(
                f"invalid roll {quoted(text)}: each die shows 1 to 6",
                said=f"{quoted(text)} isn't a throw: each die shows 1 to 6; type two faces like 3-4.",
            )
        return cls(a, b)

    def __str__(self) -> str:
        return f"{self.a}-{self.b}"


ROLLS: tuple[Roll, ...] = tuple(Roll(a, b) for a in _FACES for b in _FACES)
"""The 36 equally likely ordered outcomes of a throw."""


@cache
def ways(total: int) -> int:
    """How many of the 36 ordered outcomes make ``total`` (0 for a total two dice cannot show).

    >>> [ways(t) for t in TOTALS]
    [1, 2, 3, 4, 5, 6, 5, 4, 3, 2, 1]
    """
    return sum(1 for roll in ROLLS if roll.total == total)


def total_probability(total: int) -> Fraction:
    """The exact probability that one throw shows ``total``.

    >>> total_probability(7)
    Fraction(1, 6)
    """
    return Fraction(ways(total), len(ROLLS))
