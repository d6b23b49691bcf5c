"""The SQLite file beneath a record: a file that is none (refused, and left alone), and a hot journal.

A file given as a record that does not begin as an SQLite database is no record; SQLite itself takes a
file of a few bytes for an empty database and writes a record over it. :func:`sqlite_or_empty` tells.

Reading an SQLite record that a writer killed mid-commit left with a hot journal:

SQLite keeps a record whole across a ``kill -9`` by its rollback journal: the pages a transaction changes
are saved there first, and the next connection to open the file rolls the unfinished transaction back. But
a read-only connection cannot roll back, so until some writer opened the file, every reader (``hazard record
list/show/export``, ``hazard verify``) was refused with "attempt to write a readonly database". No data is
lost, but the message is wrong and the readers are blocked.

:func:`recover` finds such a journal before a reader opens the file, and rolls it back: in the file itself
where it can be written (what any writer would do first: the file goes back to its last commit, and every
committed entry is kept), else in a private copy of the file and its journal, which the reader then reads
(the file and its journal are left as they are, for a writer to roll back). Either way it says what happened.
"""

from __future__ import annotations

import os
import shutil
import sqlite3
import tempfile
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import quote

__all__ = ["RECOVERED", "Recovery", "recover", "sqlite_or_empty"]

_SQLITE_HEADER = b"SQLite format 3\x00"
"""How every SQLite database file begins."""

RECOVERED = "recovered an interrupted write: the last uncommitted entry was rolled back"
"""What a reader says when a killed writer's journal was rolled back (every committed entry is kept)."""

_READONLY_ROLLBACK = 776
"""SQLITE_READONLY_ROLLBACK: a hot journal that a read-only connection cannot roll back."""


@dataclass(frozen=True, slots=True)
class Recovery:
    """A hot journal rolled back before reading: the file to read, and what was done, in words."""

    path: Path
    """The record itself, or (where it is read-only) a private copy of it, rolled back."""
    note: str
    copy: tempfile.TemporaryDirectory[str] | None = None
    """The private copy's folder, removed by :meth:`close`."""

    def close(self) -> None:
        """Remove the private copy, if one was made."""
        if self.copy is not None:
            self.copy.cleanup()


def recover(path: Path) -> Recovery | None:
    """Roll back a hot journal of the SQLite file at ``path`` where there is one (None where there is not:
    no journal, an empty one, or a live writer's): in the file where it can be written, else in a private
    copy."""
    journal = path.with_name(path.name + "-journal")
    try:
        if not journal.is_file() or journal.stat().st_size == 0 or not _refused(path):
            return None
    except OSError:
        return None  # what cannot be looked at is for the reader to report
    shown = str(path)
    try:
        _roll_back(path)
        if not _refused(path):
            return Recovery(path, f"{RECOVERED} (in {shown}; every committed entry is kept)")
    except (sqlite3.Error, OSError):
        pass  # the file is read-only to this user: roll back a copy instead
    folder = tempfile.TemporaryDirectory(prefix="hazard-record-")
    try:
        copy = Path(folder.name) / "record.db"
        shutil.copyfile(path, copy)
        shutil.copyfile(journal, copy.with_name(copy.name + "-journal"))
        _roll_back(copy)
    except (sqlite3.Error, OSError):
        folder.cleanup()
        return None  # nothing recovered: the reader reports what it finds
    except BaseException:
        folder.cleanup()
        raise
    return Recovery(
        copy,
        f"{RECOVERED} (in a private copy: {shown} is read-only, and keeps its journal for a writer to roll "
        "back; every committed entry is kept)",
        folder,
    )


def _uri(path: Path, mode: str) -> str:
    return f"file:{quote(os.fsencode(path.resolve()))}?mode={mode}"


def _refused(path: Path) -> bool:
    """Whether a read-only connection is refused the file for a hot journal it cannot roll back."""
    try:
        connection = sqlite3.connect(_uri(path, "ro"), uri=True)
    except sqlite3.Error:
        return False
    try:
        connection.execute("SELECT count(*) FROM sqlite_master").fetchone()
    except sqlite3.Error as error:
        return getattr(error, "sqlite_errorcode", None) == _READONLY_ROLLBACK or "readonly" in str(error)
    finally:
        connection.close()
    return False


def _roll_back(path: Path) -> None:
    """Open the file to read and write, never creating it: SQLite rolls a hot journal back as it reads."""
    connection = sqlite3.connect(_uri(path, "rw"), uri=True)
    try:
        connection.execute("SELECT count(*) FROM sqlite_master").fetchone()
    finally:
        connection.close()


def sqlite_or_empty(path: Path) -> bool:
    """Whether the file at ``path`` begins as an SQLite database does, or is empty (a new record)."""
    try:
        with path.open("rb") as file:
            head = file.read(len(_SQLITE_HEADER))
    except OSError:
        return True  # what cannot be read is for SQLite to report
    return head in (b"", _SQLITE_HEADER)
