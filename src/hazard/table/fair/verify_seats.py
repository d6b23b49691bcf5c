"""The players seated before each hand of an export, in seat order, and their seeds, read on entry by entry.

The verifier (:mod:`hazard.table.fair.verify`) asks, for each hand in turn, who sat before it began, in which
order, and with which seed. The order comes from the entries themselves, by the table's own rules
(:mod:`hazard.core.seats`): a ``sit`` puts the newcomer at the caster's right, a ``leave`` (a player's own, or
the host's removal) takes him away, handing the dice on where he held them, and every ``reveal`` ends a hand
because the dice passed to the caster's left; a ``correction`` of a sit or a leave plays the seats again
with it, as the table replays the game. (Not the export's final ``state``: a player who left is not in it,
and one who sat again sits elsewhere.) Each sit, leave, reveal and seed entry is read once, so an export
of many hands or many players takes time growing with its size.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from hazard.core.seats import SeatRing

__all__ = ["Edit", "SeatMove", "SeatsBefore"]


class SeatMove(enum.Enum):
    """An entry that changes the seat order or who casts."""

    SIT = "sit"
    LEAVE = "leave"
    PASS = "reveal"
    """A hand's reveal: the dice passed (with the leave before it, where the caster left)."""
    CORRECT = "correction"
    """The referee's correction: the table replays the game with its target void, or replaced."""


Edit = tuple[int, tuple[SeatMove, str] | None]
"""A correction: the entry it corrects, and the sit or leave it puts there (None: none, or another action)."""


@dataclass(slots=True)
class SeatsBefore:
    """The seat moves and client-seed entries of an export (each list in the order of the entries), read up
    to each hand's beginning in turn."""

    moves: Sequence[tuple[int, SeatMove, str]]
    """Each sit, leave, reveal and correction entry: its sequence number, what it does, and the player
    (``""`` for a reveal or a correction)."""
    seeds: Sequence[tuple[int, str, str, bool]]
    """Each client-seed entry: its sequence number, the player, the seed, whether it is his own."""
    edits: Mapping[int, Edit] = field(default_factory=dict)
    """Each correction entry's :data:`Edit`, by its sequence number."""
    ring: SeatRing = field(init=False, default_factory=SeatRing)
    """The players seated now, in seat order (:meth:`SeatRing.names`)."""
    caster: str | None = field(init=False, default=None)
    seated: dict[str, int] = field(init=False, default_factory=dict)
    """Each player seated now, with his sit entry."""
    latest: dict[str, tuple[int, str, bool]] = field(init=False, default_factory=dict)
    """Each player's latest seed so far: its entry, the seed, whether it is his own."""
    _seat_entries: set[int] = field(init=False, default_factory=set)
    """The sit and leave entries: a correction of one of them moves the seats."""
    _edited: dict[int, tuple[SeatMove, str] | None] = field(init=False, default_factory=dict)
    """The corrections read so far that touch the seats: each target, and the move it holds now."""
    _after_leave: set[int] = field(init=False, default_factory=set)
    """The entries just after a leave: a reveal there ends the hand of a caster who left, the dice handed on
    with his leave already (or, where it is void, not at all); a leave of another ends no hand."""
    _read_to: int = field(init=False, default=0)
    _move: int = field(init=False, default=0)
    _seed: int = field(init=False, default=0)

    def __post_init__(self) -> None:
        seats = (SeatMove.SIT, SeatMove.LEAVE)
        self._seat_entries = {seq for seq, move, _ in self.moves if move in seats}
        self._after_leave = {seq + 1 for seq, move, _ in self.moves if move is SeatMove.LEAVE}

    def before(self, seq: int) -> None:
        """Read on to entry ``seq`` (not including it): :attr:`ring`, :attr:`seated` and :attr:`latest` are
        then those of the moment before it."""
        if seq < self._read_to:  # hands begin in order, so the verifier never asks; read again all the same
            self._restart()
            self.latest, self._edited, self._move, self._seed = {}, {}, 0, 0
        self._read_to = seq
        while self._move < len(self.moves) and self.moves[self._move][0] < seq:
            at, move, name = self.moves[self._move]
            if move is SeatMove.CORRECT:
                self._correct(at)
            else:
                self._play(at, move, name)
            self._move += 1
        while self._seed < len(self.seeds) and self.seeds[self._seed][0] < seq:
            at, player, seed, own = self.seeds[self._seed]
            self.latest[player] = (at, seed, own)
            self._seed += 1

    def _restart(self) -> None:
        self.ring, self.caster, self.seated = SeatRing(), None, {}

    def _correct(self, at: int) -> None:
        """A correction that voids or replaces a sit or a leave, or puts one in another action's place: the
        seats played again from the first entry, as the table replays the game. Each such correction costs a
        reading of the moves before it (a referee's corrections are few); any other costs nothing."""
        target, replacement = self.edits[at]
        if replacement is None and target not in self._seat_entries:
            return  # neither its target nor what it puts there seats anyone
        self._edited[target] = replacement
        moved: dict[int, tuple[SeatMove, str]] = {
            seq: (move, name) for seq, move, name in self.moves[: self._move] if move is not SeatMove.CORRECT
        }
        for seq, edit in self._edited.items():
            if edit is None:
                moved.pop(seq, None)
            else:
                moved[seq] = edit
        self._restart()
        for seq in sorted(moved):
            self._play(seq, *moved[seq])

    def _play(self, at: int, move: SeatMove, name: str) -> None:
        # A sit of one seated already, or a leave of one not seated, the table refuses: it moves nobody.
        if move is SeatMove.SIT and name not in self.seated:
            self.ring.sit(name, self.caster)
            self.seated[name] = at
            if self.caster is None:
                self.caster = name
        elif move is SeatMove.LEAVE and name in self.seated:
            if name == self.caster:  # the dice to his left; alone, he takes them with him
                after = self.ring.next_in_turn(name)
                self.caster = after if after != name else None
            self.ring.leave(name)
            del self.seated[name]
        elif move is SeatMove.PASS and at not in self._after_leave and self.caster is not None:
            self.caster = self.ring.next_in_turn(self.caster)
