"""The statements every append makes, sent through the database driver's own cursor.

Each is compiled once for a database's dialect (its SQL text and the order of its parameters), then run on
the transaction's connection as the driver takes it: SQLAlchemy's execution of a statement built once (its
cache key, its parameters, its result, its events) cost about seven times what the driver itself spends on
the same statement (docs/benchmarks.md), and an append makes four of them. What the driver refuses is
raised as SQLAlchemy would have raised it (an ``IntegrityError`` for a number taken, a lost connection
invalidated), so the store's handling of failures is the same either way. A statement whose parameters or
columns need converting (a date on SQLite) is run by SQLAlchemy as before.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, cast

if TYPE_CHECKING:
    import sqlalchemy as sa
    from sqlalchemy.sql.compiler import SQLCompiler
    from sqlalchemy.sql.elements import ClauseElement

__all__ = ["Compiled", "compiled", "fetch_one", "run"]


@dataclass(frozen=True, slots=True)
class Compiled:
    """A statement as one dialect's driver takes it."""

    sql: str
    names: tuple[str, ...] | None
    """The parameters' order, for a driver whose parameters are positional (None: it takes them by name)."""
    direct: bool
    """Whether the driver can take the parameters as given and its rows be read as it gives them (no type of
    the statement converts a parameter or a column)."""

    def parameters(self, given: Mapping[str, object]) -> tuple[object, ...] | Mapping[str, object]:
        return given if self.names is None else tuple(given[name] for name in self.names)


_COMPILED: dict[tuple[int, str, tuple[str, ...]], Compiled] = {}
_KEPT: list[object] = []  # keeps each compiled statement alive, so that its id() is never another's


def compiled(statement: ClauseElement, dialect: sa.Dialect, keys: tuple[str, ...]) -> Compiled:
    """``statement`` compiled for ``dialect`` with the parameters ``keys``: once, then from the cache."""
    key = (id(statement), dialect.name, keys)
    found = _COMPILED.get(key)
    if found is None:
        done = cast("SQLCompiler", statement.compile(dialect=dialect, column_keys=list(keys)))
        names = tuple(done.positiontup) if done.positional and done.positiontup is not None else None
        given = (bind.type.dialect_impl(dialect).bind_processor(dialect) for bind in done.binds.values())
        selected = getattr(statement, "selected_columns", ())
        read = (column.type.dialect_impl(dialect).result_processor(dialect, None) for column in selected)
        direct = all(convert is None for convert in (*given, *read))
        found = _COMPILED[key] = Compiled(done.string, names, direct)
        _KEPT.append(statement)
    return found


def run(connection: sa.Connection, statement: ClauseElement, given: Mapping[str, Any]) -> int:
    """Run ``statement`` with the parameters ``given`` in ``connection``'s transaction; how many rows it
    changed."""
    cursor = _execute(connection, statement, given)
    try:
        return int(cursor.rowcount)
    finally:
        cursor.close()


def fetch_one(
    connection: sa.Connection, statement: ClauseElement, given: Mapping[str, Any]
) -> tuple[Any, ...] | None:
    """The first row ``statement`` selects with the parameters ``given`` (None: none)."""
    cursor = _execute(connection, statement, given)
    try:
        found = cursor.fetchone()
    finally:
        cursor.close()
    return None if found is None else tuple(found)


def _execute(connection: sa.Connection, statement: ClauseElement, given: Mapping[str, Any]) -> Any:
    import sqlalchemy as sa

    dialect = connection.dialect
    done = compiled(statement, dialect, tuple(given))
    if not done.direct:
        return _Through(connection.execute(statement, dict(given)))  # type: ignore[call-overload]
    proxied = connection.connection  # the connection's own, in its transaction
    cursor = proxied.cursor()
    parameters = done.parameters(given)
    try:
        cursor.execute(done.sql, parameters)
    except dialect.loaded_dbapi.Error as error:
        lost = dialect.is_disconnect(error, proxied.dbapi_connection, cursor)
        cursor.close()
        wrapped = sa.exc.DBAPIError.instance(
            done.sql,
            parameters,
            error,
            dialect.loaded_dbapi.Error,
            connection_invalidated=lost,
            dialect=dialect,
        )
        if lost:
            connection.invalidate()
        raise wrapped from error
    return cursor


class _Through:
    """A result of SQLAlchemy's, read as a driver's cursor is."""

    def __init__(self, result: sa.CursorResult[Any]) -> None:
        self._result = result
        self.rowcount = result.rowcount

    def fetchone(self) -> Any:
        return self._result.fetchone()

    def close(self) -> None:
        self._result.close()
