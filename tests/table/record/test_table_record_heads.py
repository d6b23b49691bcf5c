"""Each game's head (how many entries, and the last one's digest) is a row of its own: the one row an entry
moves on, the game's row (its setup, a ruleset and a paytable as text) written once. A record of the release
that kept the head in the game's row is read as it is, and moved to head rows when first opened to write."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from tests.records import rows, sql
from tests.table.record.record_helpers import EVERY_ACTION, new_game

from hazard.core.errors import InvalidError
from hazard.table.live.timeline import game_json, load_game
from hazard.table.record.engine import Access, as_url
from hazard.table.record.schema import Layout, layout
from hazard.table.record.store import GameStore, StaleError


def _head_in_game(database: str) -> None:
    """Lay the record out as the release before the head rows did: each game's head in its game's row."""
    engine = sa.create_engine(as_url(database))
    with engine.begin() as connection:
        for column in ("entries INTEGER NOT NULL DEFAULT 0", "head VARCHAR(64) NOT NULL DEFAULT ''"):
            connection.exec_driver_sql(f"ALTER TABLE hazard_games ADD COLUMN {column}")
        connection.exec_driver_sql(
            "UPDATE hazard_games SET "
            "entries = (SELECT entries FROM hazard_heads WHERE game = hazard_games.id), "
            "head = (SELECT head FROM hazard_heads WHERE game = hazard_games.id)"
        )
        connection.exec_driver_sql("DROP TABLE hazard_heads")
    engine.dispose()


def _laid_out(database: str) -> tuple[Layout, set[str]]:
    """The record's layout and its games' columns, read from outside any store."""
    engine = sa.create_engine(as_url(database))
    with engine.connect() as connection, connection.begin():
        found = layout(connection)
        columns = {c["name"] for c in sa.inspect(connection).get_columns("hazard_games")}
    engine.dispose()
    return found, columns


def _exported(store: GameStore, game: int) -> str:
    return json.dumps(game_json(load_game(store, game)), sort_keys=True)


@contextmanager
def _statements() -> Iterator[list[str]]:
    """Every SQL statement SQLite runs, on every connection opened while the block runs (the append sends
    its statements through the driver's own cursor, under SQLAlchemy's events)."""
    sent: list[str] = []

    def traced(dbapi_connection: Any, _record: object) -> None:
        if isinstance(dbapi_connection, sqlite3.Connection):
            dbapi_connection.set_trace_callback(sent.append)

    sa.event.listen(sa.Engine, "connect", traced)
    try:
        yield sent
    finally:
        sa.event.remove(sa.Engine, "connect", traced)


def _versions(database: str, game: int) -> tuple[object, object]:
    """The PostgreSQL row versions (``xmin``: the transaction that last wrote each) of a game's row and of
    its head row."""
    engine = sa.create_engine(database)
    with engine.connect() as connection:
        found = connection.exec_driver_sql(
            "SELECT g.xmin::text, h.xmin::text FROM hazard_games g JOIN hazard_heads h ON h.game = g.id "
            f"WHERE g.id = {int(game)}"
        ).one()
    engine.dispose()
    return found[0], found[1]


def test_a_record_with_the_head_in_the_games_row_reads_as_it_is_then_moves_it_when_written(
    database: str,
) -> None:
    first = GameStore.open(database)
    game = new_game(first, EVERY_ACTION[:6])
    empty = new_game(first)
    before = _exported(first, game)
    first.close()
    _head_in_game(database)
    assert _laid_out(database)[0] is Layout.HEAD_IN_GAME

    reader = GameStore.open(database, access=Access.READ)
    try:
        assert _exported(reader, game) == before
        assert (reader.head(game), reader.heads([game, empty]), reader.head(empty)) == (
            6,
            {game: 6, empty: 0},
            0,
        )
        assert [(s.id, s.entries) for s in reader.games()][:2] == [(empty, 0), (game, 6)]
        assert [e.seq for e in reader.entries_after(game, 3)] == [4, 5, 6]
        with pytest.raises(InvalidError, match="opened for reading"):
            reader.append(game, *EVERY_ACTION[6], seq=7)
    finally:
        reader.close()
    assert _laid_out(database)[0] is Layout.HEAD_IN_GAME  # reading wrote nothing

    writer = GameStore.open(database, access=Access.WRITE)
    try:
        found, columns = _laid_out(database)
        assert found is Layout.CHAINED
        assert not {"entries", "head"} & columns
        assert _exported(writer, game) == before
        assert writer.head(empty) == 0
        for seq, (actor, action) in enumerate(EVERY_ACTION[6:9], start=7):
            writer.append(game, actor, action, seq=seq)
        with pytest.raises(StaleError):
            writer.append(game, *EVERY_ACTION[9], seq=9)
        resumed = load_game(writer, game)
        assert [e.seq for e in resumed.entries] == list(range(1, 10))
        assert json.dumps(game_json(resumed), sort_keys=True) != before
    finally:
        writer.close()


def test_an_append_writes_the_head_row_and_never_the_games_row(database: str) -> None:
    postgres = database.startswith("postgresql")
    with _statements() as sent:
        store = GameStore.open(database)
    try:
        game = new_game(store, EVERY_ACTION[:2])
        before = _versions(database, game) if postgres else None
        del sent[:]
        store.append(game, *EVERY_ACTION[2], seq=3)
        with store.batch():
            store.append(game, *EVERY_ACTION[3], seq=4, request="client-4")
            store.append(game, *EVERY_ACTION[4], seq=5)
        assert store.head(game) == 5
        if postgres:
            assert before is not None
            game_row, head_row = _versions(database, game)
            assert game_row == before[0]
            assert head_row != before[1]
        else:
            assert sum(s.startswith("UPDATE hazard_heads") for s in sent) == 3, sent
            assert [s for s in sent if "INSERT INTO hazard_entries" in s]
            assert not [s for s in sent if "hazard_games" in s]
    finally:
        store.close()


def test_a_second_store_on_the_file_sees_the_head_and_is_refused_a_stale_append(db: Path) -> None:
    one, two = GameStore.open(str(db)), GameStore.open(str(db), access=Access.WRITE)
    try:
        game = new_game(one, EVERY_ACTION[:3])
        assert two.head(game) == 3
        one.append(game, *EVERY_ACTION[3], seq=4)
        assert (two.head(game), two.heads([game])) == (4, {game: 4})
        with pytest.raises(StaleError, match="its record ends at entry 4"):
            two.append(game, *EVERY_ACTION[3], seq=4)
        two.append(game, *EVERY_ACTION[4], seq=5)
        assert [e.seq for e in one.entries_after(game, 3)] == [4, 5]
        assert len(load_game(one, game).entries) == 5
    finally:
        one.close()
        two.close()
    assert rows(db, f"SELECT entries FROM hazard_heads WHERE game = {game}") == [(5,)]


def test_a_game_whose_head_row_is_lost_is_refused_naming_it(store: GameStore, db: Path) -> None:
    game = new_game(store, EVERY_ACTION[:3])
    sql(db, "DELETE FROM hazard_heads WHERE game = ?", game)
    missing = f"record of game {game} is corrupt: its head .* is missing"
    with pytest.raises(InvalidError, match=missing):
        store.load(game)
    with pytest.raises(InvalidError, match=missing):
        store.entries_after(game, 1)
    assert (store.head(game), [s.entries for s in store.games()]) == (None, [0])


def test_a_record_whose_heads_are_in_two_places_or_none_is_refused(db: Path) -> None:
    GameStore.open(str(db)).close()
    sql(db, "DROP TABLE hazard_heads")
    with pytest.raises(InvalidError, match="table 'hazard_heads' is missing: it is not a whole"):
        GameStore.open(str(db), access=Access.READ)
    sql(db, "CREATE TABLE hazard_heads (game INTEGER PRIMARY KEY, entries INTEGER, head TEXT, extra TEXT)")
    with pytest.raises(InvalidError, match="table 'hazard_heads' is not laid out as a hazard game record"):
        GameStore.open(str(db), access=Access.READ)
    sql(db, "DROP TABLE hazard_heads")
    sql(db, "CREATE TABLE hazard_heads (game INTEGER PRIMARY KEY, entries INTEGER, head TEXT)")
    _head_in_game_columns(db)
    with pytest.raises(InvalidError, match="of two different releases"):
        GameStore.open(str(db), access=Access.WRITE)


def _head_in_game_columns(db: Path) -> None:
    sql(db, "ALTER TABLE hazard_games ADD COLUMN entries INTEGER NOT NULL DEFAULT 0")
    sql(db, "ALTER TABLE hazard_games ADD COLUMN head VARCHAR(64) NOT NULL DEFAULT ''")
