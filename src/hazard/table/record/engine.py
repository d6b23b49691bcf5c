"""Opening a game record's database: what ``--db`` names, the SQLite engine, and one clear error for a
database's failure.

Any SQLAlchemy URL works (``postgresql+psycopg://...``); the default is an SQLite file in the user's data
folder. An SQLite engine's writing transactions take the write lock when they begin; one opened for reading
is read-only. SQLAlchemy is imported on first use, not by every command.
"""

from __future__ import annotations

import enum
import os
import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import quote

from hazard.core.errors import InvalidError, quoted
from hazard.extras import MissingExtra
from hazard.table.record.sqlite_file import Recovery, recover, sqlite_or_empty

if TYPE_CHECKING:
    import sqlalchemy as sa

__all__ = [
    "Access",
    "RecordUnavailable",
    "as_given",
    "as_url",
    "begin",
    "default_database_url",
    "failed",
    "make_engine",
    "reason",
    "shown",
    "sqlite_engine",
]


class Access(enum.Enum):
    """What a program opening a record will do with it."""

    CREATE = "create"
    """Write games, making the record first where there is none (starting a game)."""
    WRITE = "write"
    """Write to a record that must be there already (resuming a game); a missing SQLite file is refused."""
    READ = "read"
    """Only read: a missing file is refused, and nothing is ever written (an SQLite file is opened read-only;
    a record of the release before the chain is read as it is)."""


def default_database_url() -> str:
    """An SQLite file in the user's data folder (created if need be)."""
    import platformdirs

    folder = Path(platformdirs.user_data_dir("hazard", appauthor=False))
    folder.mkdir(parents=True, exist_ok=True)
    return f"sqlite:///{folder / 'games.db'}"


class RecordUnavailable(InvalidError):
    """The database could not be reached, or was too busy to answer: nothing was written, and the same request
    may succeed later (a server answers 503, not that the request was malformed)."""


def failed(doing: str, url: str, error: BaseException) -> InvalidError:
    """One clear error for a database's failure: :class:`RecordUnavailable` where it is the database's state
    (a lost connection, a lock held too long), else an :class:`InvalidError` (a record that is not one)."""
    import sqlalchemy as sa

    kind = InvalidError
    if isinstance(error, sa.exc.OperationalError | sa.exc.InterfaceError | sa.exc.TimeoutError):
        said = reason(error)
        if "no such table" not in said and "no such column" not in said:
            kind = RecordUnavailable
    return kind(f"cannot {doing} the game record {url!r}: {reason(error)}")


def make_engine(url: str, *, access: Access, in_memory: bool) -> tuple[sa.Engine, Recovery | None]:
    """An engine for the record at SQLAlchemy URL ``url``, and the journal of a killed SQLite writer that
    opening to read rolled back (see :func:`~hazard.table.record.sqlite_file.recover`), which the caller
    closes."""
    import sqlalchemy as sa

    parsed = sa.engine.make_url(url)
    if parsed.get_backend_name() != "sqlite":
        try:
            return sa.create_engine(url), None
        except ImportError as error:
            # SQLAlchemy imports the URL's driver here; psycopg is the postgres extra's, so that is named
            if parsed.get_driver_name() == "psycopg" and (error.name or "").startswith("psycopg"):
                named = shown(parsed.render_as_string(hide_password=True))
                raise MissingExtra(f"the game record {named}", "postgres", error.name or "psycopg") from None
            raise
    database, recovery = parsed.database, None
    if access is Access.READ and database and not database.startswith(("file:", ":memory:")):
        recovery = recover(Path(database))  # a reader cannot roll a hot journal back itself
        database = database if recovery is None else str(recovery.path)
    try:
        return sqlite_engine(url, database, access=access, in_memory=in_memory), recovery
    except BaseException:
        if recovery is not None:
            recovery.close()
        raise


def sqlite_engine(url: str, database: str | None, *, access: Access, in_memory: bool) -> sa.Engine:
    """An SQLite engine whose transactions take the write lock when they begin (so of two writers one waits
    and then sees the other's entry, rather than both reading the same head); read-only for reading."""
    import sqlalchemy as sa

    memory = not database or database == ":memory:" or database.startswith("file::memory:")
    if memory and not in_memory:
        raise InvalidError(
            f"cannot open the game record {url!r}: an in-memory database keeps nothing after the program "
            "ends; give a file, e.g. --db games.db"
        )
    path = Path(database or ":memory:")
    try:
        there = memory or path.is_file()
    except OSError as error:  # a name too long, a folder that cannot be searched ...
        raise InvalidError(f"cannot open the game record {shown(as_given(url))}: {error.strerror}") from None
    if access is not Access.CREATE and not there:
        raise InvalidError(f"cannot open the game record {shown(as_given(url))}: no such file")
    if there and not memory and not sqlite_or_empty(path):
        raise InvalidError(
            f"cannot open the game record {shown(as_given(url))}: it is not an SQLite database (it does "
            "not begin as one), so not a game record; it is left as it is: give a record, or a new file"
        )
    if access is Access.READ and not memory:
        uri = f"file:{quote(os.fsencode(path.resolve()))}?mode=ro"  # bytes: any name the system allows
        engine = sa.create_engine(
            "sqlite://", creator=lambda: sqlite3.connect(uri, uri=True, check_same_thread=False)
        )
    else:
        engine = sa.create_engine(url)
    from sqlalchemy import event

    @event.listens_for(engine, "connect")
    def _connect(dbapi_connection: Any, _record: object) -> None:
        dbapi_connection.isolation_level = None  # SQLAlchemy, not the driver, begins transactions

    @event.listens_for(engine, "begin")
    def _begin_transaction(connection: sa.Connection) -> None:
        immediate = access is not Access.READ and connection.get_execution_options().get(
            "hazard_write", False
        )
        connection.exec_driver_sql("BEGIN IMMEDIATE" if immediate else "BEGIN")

    return engine


@contextmanager
def begin(engine: sa.Engine) -> Iterator[sa.Connection]:
    """A writing transaction: on SQLite it holds the write lock from its first statement."""
    with engine.connect() as opened:
        connection = opened.execution_options(hazard_write=True)
        with connection.begin():
            yield connection


def as_url(url: str | None) -> str:
    """An SQLAlchemy URL for what ``--db`` says: a URL as it is, a path as an SQLite file, nothing as the
    default; a ``file:`` URI, a path too long to be one, or a home folder that is not there refused."""
    if url is None:
        return default_database_url()
    if len(url) > 4096:
        raise InvalidError(
            f"cannot open the game record {shown(url)}: expected a path or URL of at most 4096 characters"
        )
    if "://" in url:
        return url
    if url.startswith("file:"):
        raise InvalidError(
            f"cannot open the game record {url!r}: expected an SQLite file's path, or an SQLAlchemy URL such "
            "as sqlite:///games.db (an SQLite 'file:' URI is neither)"
        )
    try:
        return f"sqlite:///{Path(url).expanduser()}"
    except RuntimeError as error:  # "~nosuchuser/games.db": no such home folder
        raise InvalidError(f"cannot open the game record {shown(url)}: {error}") from None


def as_given(url: str) -> str:
    return url.removeprefix("sqlite:///")


def shown(value: object) -> str:
    """A stored value or a path as an error quotes it (a path may be long and still be worth reading)."""
    return quoted(value, limit=120)


def reason(error: BaseException) -> str:
    """What went wrong, in one line: the driver's own words, without SQLAlchemy's statement and link."""
    text = " ".join(str(error).split())
    for tail in (" [SQL:", " (Background on this error"):
        text = text.split(tail, 1)[0]
    return text[:300]
