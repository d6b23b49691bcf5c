"""The players seated before each hand of an export, and their seeds, read on entry by entry hand by hand.

The verifier (:mod:`hazard.table.fair.verify`) asks, for each hand in turn, who sat before it began and with
which seed. Asking the whole list of entries again for each hand, or finding a player's place in the seat
order by a scan, makes an export of many hands or many players take time growing with the square of its
size (a 7 MB file of 40,000 players took 87 s); reading each sit and seed entry once, into dictionaries,
keeps it linear.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

__all__ = ["SeatsBefore"]


@dataclass(slots=True)
class SeatsBefore:
    """The sit and client-seed entries of an export (each list in the order of the entries), read up to
    each hand's beginning in turn; ``place`` is each player's place in the final seat order (his first, if
    he is there twice)."""

    sits: Sequence[tuple[int, str]]
    """Each sit entry: its sequence number and the player."""
    seeds: Sequence[tuple[int, str, str, bool]]
    """Each client-seed entry: its sequence number, the player, the seed, whether it is his own."""
    seat_order: Sequence[str]
    place: dict[str, int] = field(init=False, default_factory=dict)
    seated: dict[str, int] = field(init=False, default_factory=dict)
    """Each player seated so far, with his latest sit entry, in the order they first sat."""
    latest: dict[str, tuple[int, str, bool]] = field(init=False, default_factory=dict)
    """Each player's latest seed so far: its entry, the seed, whether it is his own."""
    _read_to: int = field(init=False, default=0)
    _sit: int = field(init=False, default=0)
    _seed: int = field(init=False, default=0)

    def __post_init__(self) -> None:
        for at, name in enumerate(self.seat_order):
            self.place.setdefault(name, at)

    def before(self, seq: int) -> list[str]:
        """Read on to entry ``seq`` (not including it): :attr:`seated` and :attr:`latest` are then those of
        the moment before it. The players first seated since the last call, in order of sitting."""
        if seq < self._read_to:  # hands begin in order, so the verifier never asks; read again all the same
            self.seated, self.latest, self._sit, self._seed = {}, {}, 0, 0
        self._read_to = seq
        new: list[str] = []
        while self._sit < len(self.sits) and self.sits[self._sit][0] < seq:
            sat, name = self.sits[self._sit]
            if name not in self.seated:
                new.append(name)
            self.seated[name] = sat
            self._sit += 1
        while self._seed < len(self.seeds) and self.seeds[self._seed][0] < seq:
            at, player, seed, own = self.seeds[self._seed]
            self.latest[player] = (at, seed, own)
            self._seed += 1
        return new

    def in_seat_order(self) -> list[str]:
        """The players of :attr:`seated` in seat order (each is in the seat order: the caller checks it)."""
        return sorted(self.seated, key=self.place.__getitem__)
