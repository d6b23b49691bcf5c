"""The close of a table: an entry of its record, after which nothing more may be done.

A table's host (the referee) closes it. The close is written like every other entry (appended after the
entry the closer's table knows, its number checked and the chain moved in one transaction), so every process
that plays the table learns of it by the same catch-up by which it learns of a sit or a stake, and the table
itself refuses what comes after it. At a table of fair dice the close is written with the reveal of the hand
in play (:class:`~hazard.table.fair.commit_reveal.Revealed`, just before it, in one transaction), so that no
hand's server seed stays secret once the table is closed.

Older records kept a close beside the chain, in a table of its own (``hazard_closed``); they still read as
closed (:meth:`~hazard.table.record.store.GameStore.load`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, cast

from hazard.core.errors import IllegalError, InvalidError
from hazard.table.fair.commit_reveal import FairNote, note_text
from hazard.table.rules.actions import TableAction, action_text, is_action

if TYPE_CHECKING:
    from hazard.table.rules.entries import Correction, Entry

__all__ = [
    "CLOSE_TYPE",
    "Close",
    "check_open",
    "close_from_json",
    "close_text",
    "close_to_json",
    "closed_at",
    "item_text",
]

CLOSE_TYPE = "close"
"""The entry type a close has in an export (``{"type": "close"}``) and the key it is stored under."""


@dataclass(frozen=True, slots=True)
class Close:
    """The table is closed: no one sits, stakes, throws, seeds or corrects anything after this entry."""


def close_text(_: Close | None = None) -> str:
    """A close in words, as the record's listing shows it."""
    return "the table is closed: nothing more may be done"


def close_to_json(_: Close) -> dict[str, Any]:
    """A close as the record stores it (under ``"close"``, beside its actor)."""
    return {}


def close_from_json(data: object) -> Close:
    """Read a stored close; an :class:`InvalidError` for anything but the empty object it is stored as."""
    if data != {}:
        raise InvalidError(f"invalid close {str(data)[:80]!r}: expected an empty object")
    return Close()


def closed_at(entries: Sequence[Entry]) -> int | None:
    """The number of the entry that closed the table (None while it is open); an :class:`InvalidError`
    where any entry comes after it, since a closed table takes nothing more."""
    for index, entry in enumerate(entries):
        if isinstance(entry.item, Close):
            if index + 1 < len(entries):
                raise InvalidError(
                    f"entry {entries[index + 1].seq} comes after entry {entry.seq}, which closed the table"
                )
            return entry.seq
    return None


def check_open(closed: bool, game: int, what: str) -> None:
    """Refuse ``what`` (an action, a note, a correction, in words) at a table that is ``closed``."""
    if closed:
        raise IllegalError(
            f"illegal {what} at table {game}: its host has closed it; nothing more may be done"
        )


def item_text(item: TableAction | Correction | FairNote | Close) -> str:
    """An entry's item in words, as a refusal names it."""
    if isinstance(item, FairNote):
        return note_text(item)
    if isinstance(item, Close):
        return "close"
    if is_action(item):  # any registered action type, which writes its own text
        return action_text(item)
    return f"correction of entry {cast('Correction', item).target}"
