"""Settling side bets: a :class:`Tracker` follows one bet throw by throw until it is won or lost."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import assert_never

from hazard.core.dice import Roll
from hazard.core.errors import InvalidError, quoted
from hazard.core.propositions._parser import parse_proposition
from hazard.core.propositions._types import Before, Next, Not, Proposition, Within


def _decide(proposition: Proposition, thrown: int, roll: Roll) -> bool | None:
    """What ``roll`` decides, after ``thrown`` earlier throws that decided nothing."""
    if isinstance(proposition, Before):
        if roll in proposition.first:
            return True
        return False if roll in proposition.second else None
    if isinstance(proposition, Within):
        if roll in proposition.target:
            return True
        return False if thrown + 1 >= proposition.throws else None
    if isinstance(proposition, Next):
        return roll in proposition.target
    if isinstance(proposition, Not):
        decided = _decide(proposition.proposition, thrown, roll)
        return None if decided is None else not decided
    assert_never(proposition)


@dataclass(frozen=True, slots=True)
class Tracker:
    """Where a side bet stands after some throws: ``decided`` is True (won), False (lost) or None.

    ``throws`` counts the throws taken into account; once the bet is decided further throws are ignored,
    so one throw can be fed to every open bet at a table.

    >>> tracker = start("2, 3, 11 or 12 within 2 throws")
    >>> tracker.advance(Roll(3, 4)).decided is None
    True
    >>> tracker.advance(Roll(3, 4)).advance(Roll(4, 4)).decided
    False
    """

    proposition: Proposition
    throws: int = 0
    decided: bool | None = None

    def advance(self, roll: Roll) -> Tracker:
        """The tracker after one more throw (itself, unchanged, if the bet is already decided)."""
        if self.decided is not None:
            return self
        if not isinstance(roll, Roll):
            raise InvalidError(f"invalid throw {quoted(roll)}: expected a Roll")
        return Tracker(self.proposition, self.throws + 1, _decide(self.proposition, self.throws, roll))

    @property
    def is_decided(self) -> bool:
        """Whether the bet is settled, won or lost."""
        return self.decided is not None


def start(proposition: Proposition | str) -> Tracker:
    """A tracker for a bet just laid, before any throw (text is parsed with :func:`parse_proposition`)."""
    if isinstance(proposition, str):
        proposition = parse_proposition(proposition)
    return Tracker(proposition)


def settle(proposition: Proposition | str, rolls: Iterable[Roll]) -> bool | None:
    """Whether ``rolls``, in order, win the bet (True), lose it (False) or leave it open (None).

    >>> settle("odd before even", [Roll(1, 1), Roll(2, 5)])
    False
    """
    tracker = start(proposition)
    for roll in rolls:
        tracker = tracker.advance(roll)
        if tracker.is_decided:
            break
    return tracker.decided
