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

from dataclasses import dataclass
from typing import Any

from hazard.core.errors import IllegalError, InvalidError

__all__ = [
    "CLOSE_TYPE",
    "Close",
    "check_open",
    "close_from_json",
    "close_text",
    "close_to_json",
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


def check_open(closed: bool, game: int, what: str) -> None:
    """Refuse ``what`` (an action, a note, a correction, in words) at a table that is ``closed``."""
    if closed:
        raise IllegalError(
            f"illegal {what} at table {game}: its host has closed it; nothing more may be done"
        )
