"""Playing onto a table the entries another writer made, as the record's replay would (a session's
catch-up)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from hazard.core.dice import Roll
from hazard.core.errors import InvalidError
from hazard.table.closing import Close
from hazard.table.events import AnyEvent
from hazard.table.fair import FairNote, FairState
from hazard.table.game import MARK_EVERY, Correction, Entry, Timeline
from hazard.table.state import Table
from hazard.table.transitions import apply_action

__all__ = ["Followed", "Recorded", "follow"]


@dataclass(frozen=True, slots=True)
class Recorded:
    """An entry just written to the record, and what it did."""

    entry: Entry
    events: tuple[AnyEvent, ...]


@dataclass(frozen=True, slots=True)
class Followed:
    """A table moved on by entries another writer made, and what each of them did."""

    table: Table
    fair: FairState | None
    closed: bool
    timeline: Timeline
    done: tuple[Recorded, ...]

    @property
    def state(self) -> tuple[Table, FairState | None, bool, Timeline]:
        return self.table, self.fair, self.closed, self.timeline


def follow(
    timeline: Timeline, table: Table, fair: FairState | None, closed: bool, entries: Sequence[Entry]
) -> Followed | None:
    """Play ``entries`` one by one onto ``table`` (the fair dice at ``fair``, the table ``closed`` or not);
    None where one is a correction (which replays from a kept table instead), an :class:`InvalidError` where
    one does not follow (a fair note in a game of other dice, anything after the close)."""
    if any(isinstance(entry.item, Correction) for entry in entries):
        return None
    game = timeline.info.id
    marks = dict(timeline.marks)
    done = []
    for entry in entries:
        item = entry.item
        events: tuple[AnyEvent, ...] = ()
        if closed:
            raise InvalidError(f"record of game {game}: entry {entry.seq} comes after the table was closed")
        closed = isinstance(item, Close)
        if isinstance(item, FairNote) or (fair is not None and isinstance(item, Roll)):
            if fair is None:
                raise InvalidError(f"record of game {game}: entry {entry.seq} is a fair dice note")
            fair = fair.after(entry.seq, item)
        if not isinstance(item, FairNote | Correction | Close):
            table, events = apply_action(table, item, by=entry.actor, seq=entry.seq)
        if (entry.seq + 1) % MARK_EVERY == 1:  # the table before the next entry is kept, as replay keeps it
            marks[entry.seq + 1] = table
        done.append(Recorded(entry, events))
    return Followed(table, fair, closed, Timeline(timeline.info, marks), tuple(done))
