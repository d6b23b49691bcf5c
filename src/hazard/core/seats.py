"""Where a newcomer sits and who holds the dice next: the seat order's two rules, defined once.

The table applies them as players sit and the dice pass (:mod:`hazard.table.rules.transitions`), and the
verifier of fair dice follows them through an export's entries to know the seat order before each hand
(:mod:`hazard.table.fair.verify_seats`): so the two cannot disagree on the order of a hand's client seed.

The table keeps its players in a tuple and calls the two functions; the verifier, which may read an export of
thousands of sittings, follows the same rules on a :class:`SeatRing`, where each costs the same however many
sit (the tests play both on the same moves and find the same order).

>>> names = ["Ann", "Bob"]
>>> names.insert(newcomer_place(names, "Bob"), "Cat")  # at the caster Bob's right
>>> names, next_in_turn(names, "Bob")
(['Ann', 'Cat', 'Bob'], 'Ann')
>>> ring = SeatRing()
>>> for name, caster in (("Ann", None), ("Bob", "Ann"), ("Cat", "Bob")):
...     ring.sit(name, caster)
>>> ring.names(), ring.next_in_turn("Bob")
(['Ann', 'Cat', 'Bob'], 'Ann')
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

__all__ = ["SeatRing", "newcomer_place", "next_in_turn"]


def newcomer_place(names: Sequence[str], caster: str | None) -> int:
    """The place in the seat order ``names`` where a newcomer sits: at the caster's right, last in the order
    the dice travel from him (so at the end where the caster sits first, or nobody casts yet)."""
    at = names.index(caster) if caster is not None else 0
    return at if at > 0 else len(names)


def next_in_turn(names: Sequence[str], name: str) -> str:
    """The player on ``name``'s left in the seat order ``names``: the next to hold the dice (``name`` himself
    where he sits alone). ``name`` must be in ``names``."""
    return names[(names.index(name) + 1) % len(names)]


@dataclass(slots=True)
class SeatRing:
    """The seat order as a ring of neighbours, the rules above in constant time a move: a newcomer just
    before the caster round the table (the first seat staying first), a leaver's neighbours closing up, the
    dice going to the caster's left."""

    first: str | None = None
    """Who sits first in the seat order; None where nobody sits."""
    _left: dict[str, str] = field(default_factory=dict)
    """Each player's left-hand neighbour: the next to hold the dice after him."""
    _right: dict[str, str] = field(default_factory=dict)

    def __contains__(self, name: object) -> bool:
        return name in self._left

    def sit(self, name: str, caster: str | None) -> None:
        """Seat ``name`` (not seated) at ``caster``'s right, as :func:`newcomer_place` does; with no caster
        (nobody sits), alone."""
        if self.first is None:
            self.first, self._left[name], self._right[name] = name, name, name
            return
        before = self.first if caster is None else caster  # no caster: last, at the first's right
        right = self._right[before]
        self._left[right], self._right[name] = name, right
        self._left[name], self._right[before] = before, name

    def leave(self, name: str) -> None:
        """Take ``name`` (seated) from the ring; his left-hand neighbour sits first where he did."""
        left, right = self._left.pop(name), self._right.pop(name)
        if left == name:
            self.first = None
            return
        self._left[right], self._right[left] = left, right
        if self.first == name:
            self.first = left

    def next_in_turn(self, name: str) -> str:
        """As :func:`next_in_turn`: ``name``'s left-hand neighbour (he himself, alone)."""
        return self._left[name]

    def names(self) -> list[str]:
        """The players in seat order, from the first."""
        order: list[str] = []
        name = self.first
        while name is not None and (not order or name != self.first):
            order.append(name)
            name = self._left[name]
        return order
