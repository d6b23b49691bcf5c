"""Verifying a game of fair dice from its JSON form: what a player runs to check that the dice were fair.

:func:`verify_game` reads the form :func:`hazard.table.game_json` gives a game (so it serves a game loaded
from the record and an exported file alike) and checks, hand by hand
(:mod:`hazard.table.fair.commit_reveal` gives the scheme):

- **the commitment**: the hand's commitment in ``hands`` is the one its ``commit`` entry recorded, and that
  entry comes before the hand's ``hand-opened`` entry (the server committed before the players' seeds were
  fixed: otherwise it could have chosen its seed knowing them);
- **the server seed**, once revealed: the one its ``reveal`` entry recorded, and its SHA-256 is the
  commitment. Only the last hand of a game still open may be unrevealed (every hand before it has ended, and
  a closed game reveals its last: the export's ``closed``, absent in older exports, which are read as open);
  an unrevealed hand is pending, listed in :attr:`Verification.unrevealed`, its throws left unchecked, and
  that is not a failure;
- **the client seed**: the one its ``hand-opened`` entry recorded, and exactly what the players' seeds make:
  every player whose ``sit`` entry comes before the ``hand-opened`` entry and who has a ``client-seed`` entry
  before it, in seat order, each with the seed of his latest one, joined by commas. The seat order is read
  from the ``sit``, ``leave`` and ``reveal`` entries by the table's own rules
  (:mod:`hazard.table.fair.verify_seats`), and at the end the export's final ``state`` must seat the players
  the entries leave seated, in that order. Each part whose
  ``client-seed`` entry was made by the player (not by the dice, who draw a seed for a player who set none)
  after the hand's commitment is named in :attr:`HandCheck.chosen`, with a warning where there is none;
- **when the seeds were set** (:mod:`hazard.table.fair.seed_order`): no seed drawn by the dice between the
  hand's commitment and its end (the server chooses nothing once it has committed), none set after its first
  throw, and none anywhere holding the ``,`` that joins the seeds;
- **the throws**: the hand lists, with nonces 0, 1, 2, ... in order, every ``throw`` entry that comes after
  its ``hand-opened`` entry and before the next hand's, and none after its server seed was revealed; each
  listed roll is the one its entry records; and, once revealed, each is what the seeds give
  (:func:`~hazard.table.fair.commit_reveal.fair_throw`). No throw entry comes before the first hand began, and
  no ``correction`` entry touches a throw or a fair-dice entry (those are the server's, not the referee's);
- the export's ``hands`` are numbered 1, 2, ... and every fair-dice entry names one of them, once for each
  kind of entry; and, after every hand, the final ``state``'s seat order (above).

The checks run in that order, hand after hand, and the first that fails is the
:attr:`Verification.problem`, in words naming the hand, the entry and what does not match. Input that is not
such a JSON form at all (not an object, a key missing, a value of the wrong type, a seed that is not 64
lowercase hex digits) is refused with an :class:`~hazard.core.errors.InvalidError`, as is a game whose dice
are not fair (it has nothing to verify).

>>> verify_game({"game": {"dice": "seeded"}, "entries": [], "hands": [], "state": {}})
Traceback (most recent call last):
...
hazard.core.errors.InvalidError: invalid game to verify: not provably fair: seeded dice (only a game of fair dice carries a proof of its throws)
"""  # noqa: E501

from __future__ import annotations

import bisect
import itertools
from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from hazard.core.errors import quoted
from hazard.table.fair.commit_reveal import Hand, commitment, throw_mismatch
from hazard.table.fair.seed_order import FreshSeed, SeedEntry, SeedOrder, seed_text_problem
from hazard.table.fair.seed_order import shown as _shown
from hazard.table.fair.verification import HandCheck, Verification
from hazard.table.fair.verification import plural as _plural
from hazard.table.fair.verify_export import Export, Note, read_export
from hazard.table.fair.verify_seats import SeatsBefore

__all__ = ["FreshSeed", "HandCheck", "Verification", "verify_game"]


def verify_game(data: Mapping[str, Any]) -> Verification:
    """Check a game of fair dice in its JSON form (:func:`hazard.table.game_json`, or an exported file read
    back): every check of this module's description, in order, up to the first that fails.

    Raises :class:`~hazard.core.errors.InvalidError` where ``data`` is not that form, or the game's dice are
    not fair.
    """
    export = read_export(data)
    return replace(_Verifier(export).run(), game=export.game)


# --- reading the JSON form: anything not of the expected shape is refused by name ---------------------------


class _Mismatch(Exception):
    """The first check that failed, in words: ends the verification."""


class _Verifier:
    """One verification of one export: the checks in order, counting what passed."""

    def __init__(self, export: Export) -> None:
        self.export = export
        self.throws = 0
        self.hands = 0
        self.unrevealed: list[int] = []
        self.checked: list[HandCheck] = []
        self.notes: dict[str, dict[int, Note]] = {}
        # Each throw entry belongs to the hand most recently begun before it (its hand-opened entry).
        self.owner: dict[int, int] = {}
        self.owned: dict[int, list[int]] = {}
        self.seats = SeatsBefore(export.moves, export.seeds, export.edits)  # read on hand by hand
        self.seed_order = SeedOrder(
            [SeedEntry(seq, player, seed, export.setters[seq]) for seq, player, seed, _ in export.seeds]
        )

    def run(self) -> Verification:
        try:
            self._check_structure()
            refused = seed_text_problem(self.seed_order.seeds)
            if refused is not None:
                raise _Mismatch(refused)
            for hand in self.export.hands:
                self._check_hand(hand)
            self._check_state()
            problem = None
        except _Mismatch as mismatch:
            problem = str(mismatch)
        return Verification(
            throws=self.throws,
            hands=self.hands,
            unrevealed=tuple(self.unrevealed),
            problem=problem,
            checked=tuple(self.checked),
        )

    def _check_structure(self) -> None:
        export = self.export
        for i, hand in enumerate(export.hands):
            if hand.number != i + 1:
                raise _Mismatch(
                    f"the hands are not numbered 1, 2, ... in order: hand {hand.number} is listed at place "
                    f"{i + 1}"
                )
        for kind, notes in export.notes.items():
            by_hand: dict[int, Note] = {}
            for note in notes:
                if note.hand > len(export.hands):
                    raise _Mismatch(
                        f"entry {note.seq} ({kind}) names hand {note.hand}, which is not among the game's "
                        f"{_plural(len(export.hands), 'hand')}"
                    )
                if note.hand in by_hand:
                    raise _Mismatch(
                        f"hand {note.hand}: entries {by_hand[note.hand].seq} and {note.seq} are both its "
                        f"{kind} entry"
                    )
                by_hand[note.hand] = note
            self.notes[kind] = by_hand
        fair_entries = {note.seq for notes in export.notes.values() for note in notes}
        fair_entries |= set(export.rolls) | {seq for seq, _, _, _ in export.seeds}
        for seq, target in export.corrections:
            if target in fair_entries:
                raise _Mismatch(
                    f"entry {seq} corrects entry {target}, a {_shown(export.kinds[target])} entry: a fair "
                    "game's throws and dice entries are the server's and cannot be corrected"
                )
        began = sorted((note.seq, note.hand) for note in self.notes["hand-opened"].values())
        for (_, first), (seq, then) in itertools.pairwise(began):
            if then < first:
                raise _Mismatch(f"hand {then} began (entry {seq}) after hand {first}")
        starts = [opened for opened, _ in began]
        for seq in sorted(export.rolls):
            at = bisect.bisect_left(starts, seq)  # how many hands began before this throw
            if at == 0:
                raise _Mismatch(
                    f"throw entry {seq} comes before any hand began (no hand-opened entry before it)"
                )
            owner = self.owner[seq] = began[at - 1][1]
            self.owned.setdefault(owner, []).append(seq)

    def _check_hand(self, hand: Hand) -> None:
        number = hand.number
        committed = self.notes["commit"].get(number)
        if committed is None:
            raise _Mismatch(f"hand {number}: no commit entry records its commitment")
        if hand.commitment != committed.value:
            raise _Mismatch(
                f"hand {number}: its commitment {hand.commitment} is not the one recorded at entry "
                f"{committed.seq} ({committed.value})"
            )
        chosen = self._check_client_seed(hand, committed)
        revealed = self._check_reveal(hand)
        if revealed is None:
            self._check_closed(hand)
        self._check_seed_times(hand, committed, revealed)
        self._check_throws(hand, revealed)
        if revealed is not None:
            mismatch = throw_mismatch(hand)  # its server seed is the revealed one (checked above)
            if mismatch is not None:
                raise _Mismatch(mismatch)
            self.throws += len(hand.throws)
            self.hands += 1
        else:
            self.unrevealed.append(number)
        self.checked.append(
            HandCheck(
                number, hand.commitment, revealed is not None, hand.client_seed, len(hand.throws), chosen
            )
        )

    def _check_client_seed(self, hand: Hand, committed: Note) -> tuple[FreshSeed, ...]:
        """The hand's client seed against its hand-opened entry and the players' seeds; the players whose own
        seed, set after the commitment, is part of it."""
        number = hand.number
        opened = self.notes["hand-opened"].get(number)
        if hand.client_seed is None:
            if opened is not None:
                raise _Mismatch(
                    f"hand {number}: entry {opened.seq} fixed its client seed as {quoted(opened.value)}, but "
                    "the hands give it none"
                )
            if hand.throws:
                raise _Mismatch(
                    f"hand {number}: it has {_plural(len(hand.throws), 'throw')} but no client seed"
                )
            return ()
        if opened is None:
            raise _Mismatch(
                f"hand {number}: its client seed {quoted(hand.client_seed)} is in no hand-opened entry"
            )
        if hand.client_seed != opened.value:
            raise _Mismatch(
                f"hand {number}: its client seed {quoted(hand.client_seed)} is not the one fixed at entry "
                f"{opened.seq} ({quoted(opened.value)})"
            )
        if committed.seq > opened.seq:
            raise _Mismatch(
                f"hand {number}: its commitment (entry {committed.seq}) comes after its client seed was "
                f"fixed (entry {opened.seq}), so the server could have chosen its seed knowing the players'"
            )
        self.seats.before(opened.seq)
        latest = self.seats.latest
        # A player seated with no seed yet (a newcomer since the commitment who set none) has no part.
        order = [name for name in self.seats.ring.names() if name in latest]
        made = ",".join(latest[name][1] for name in order)
        if made != opened.value:
            names = ", ".join(map(_shown, order)) or "nobody"
            raise _Mismatch(
                f"hand {number}: its client seed {quoted(opened.value)} (entry {opened.seq}) is not what the "
                f"seated players' seeds make in seat order ({names}): {quoted(made)}"
            )
        return tuple(
            self._fresh(name, latest[name][0])
            for name in order
            if latest[name][2] and latest[name][0] > committed.seq
        )

    def _check_state(self) -> None:
        """The export's final state seats the players its entries leave seated, in the same order."""
        self.seats.before(max(self.export.kinds, default=0) + 1)
        order, stated = self.seats.ring.names(), list(self.export.seat_order)
        if stated != order:
            named = set(stated)
            missing = next((name for name in order if name not in named), None)
            why = (
                f"{_shown(missing)}, seated at entry {self.seats.seated[missing]} and never gone, is not "
                "among them"
                if missing is not None
                else f"its entries leave {', '.join(map(_shown, order)) or 'nobody'} seated, in that order"
            )
            raise _Mismatch(
                f"the game's state seats {', '.join(map(_shown, stated)) or 'nobody'} in seat order, but "
                f"{why}"
            )

    def _fresh(self, player: str, seq: int) -> FreshSeed:
        by = self.export.setters[seq]
        return FreshSeed(player, seq, None if by == player else by)

    def _check_seed_times(self, hand: Hand, committed: Note, revealed: Note | None) -> None:
        """No seed drawn by the dice after the hand's commitment, none set after its first throw
        (:class:`~hazard.table.fair.seed_order.SeedOrder`)."""
        opened = self.notes["hand-opened"].get(hand.number)
        end = None if revealed is None else revealed.seq
        problem = self.seed_order.problem(
            hand.number, committed.seq, None if opened is None else opened.seq, end
        )
        if problem is not None:
            raise _Mismatch(problem)

    def _check_closed(self, hand: Hand) -> None:
        """A hand left unrevealed is pending only while the game is open: a closed game reveals its last."""
        if self.export.closed:
            raise _Mismatch(
                f"hand {hand.number}: the game is closed, but the hand's server seed was never revealed, so "
                f"its {_plural(len(hand.throws), 'throw')} cannot be checked"
            )

    def _check_reveal(self, hand: Hand) -> Note | None:
        """The hand's reveal entry, once its server seed is checked against it and against the commitment."""
        number = hand.number
        revealed = self.notes["reveal"].get(number)
        if hand.server_seed is None:
            if revealed is not None:
                raise _Mismatch(
                    f"hand {number}: entry {revealed.seq} reveals its server seed, but the hands give it none"
                )
            if number < len(self.export.hands):
                raise _Mismatch(
                    f"hand {number}: it has ended (hand {number + 1} follows) but its server seed was never "
                    "revealed"
                )
            return None
        if revealed is None:
            raise _Mismatch(f"hand {number}: its server seed is revealed in no reveal entry")
        if hand.server_seed != revealed.value:
            raise _Mismatch(
                f"hand {number}: its server seed {hand.server_seed} is not the one revealed at entry "
                f"{revealed.seq} ({revealed.value})"
            )
        if commitment(bytes.fromhex(hand.server_seed)) != hand.commitment:
            raise _Mismatch(f"hand {number}: its server seed does not match its commitment")
        return revealed

    def _check_throws(self, hand: Hand, revealed: Note | None) -> None:
        """The hand's list of throws against the throw entries: nonces in order, rolls equal, none missing."""
        number = hand.number
        export = self.export
        for n, (entry, nonce, roll) in enumerate(hand.throws):
            kind = export.kinds.get(entry)
            if kind != "throw":
                what = "no such entry" if kind is None else f"a {_shown(kind)} entry"
                raise _Mismatch(f"hand {number}: its throw {n} (nonce {nonce}) is entry {entry}, {what}")
            if nonce != n:
                raise _Mismatch(
                    f"hand {number}, throw entry {entry}: its nonce is {quoted(nonce)}, expected {n} (a "
                    "hand's throws are numbered from 0 in order)"
                )
            recorded = export.rolls[entry]
            if roll != recorded:
                raise _Mismatch(
                    f"hand {number}, throw entry {entry} (nonce {nonce}): the hand has {roll}, but the entry "
                    f"records {recorded}"
                )
            if self.owner[entry] != number:
                raise _Mismatch(
                    f"hand {number}, throw entry {entry} (nonce {nonce}): it was thrown in hand "
                    f"{self.owner[entry]}, not in hand {number}"
                )
            if revealed is not None and entry > revealed.seq:
                raise _Mismatch(
                    f"hand {number}, throw entry {entry} (nonce {nonce}): it comes after the hand's server "
                    f"seed was revealed (entry {revealed.seq})"
                )
        listed = [entry for entry, _, _ in hand.throws]
        owned = self.owned.get(number, [])
        if listed != owned:
            shown = set(listed)
            missing = [seq for seq in owned if seq not in shown]
            if missing:
                raise _Mismatch(f"hand {number}: throw entry {missing[0]} is not among the hand's throws")
            raise _Mismatch(
                f"hand {number}: its throws are not its throw entries in order, once each "
                f"(entries {', '.join(map(str, listed))})"
            )
