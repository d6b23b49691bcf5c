"""The record of play from afar: keys to seats, client numbers, closed games and listeners woken by
each committed entry."""

from __future__ import annotations

import os
import shutil
import sqlite3
import time
from fractions import Fraction
from pathlib import Path

import pytest
from tests.paths import LEGACY
from tests.table.record.record_helpers import ANN, BEN, WIKI_PAYS, WIKIPEDIA, live, new_game

from hazard.core.errors import InvalidError
from hazard.core.rules import StakeArrangement
from hazard.table.fair.dice import DiceKind
from hazard.table.live.timeline import GameKind, game_json, load_game
from hazard.table.record.engine import Access
from hazard.table.record.keys import SeatKey
from hazard.table.record.store import GameStore, StaleError
from hazard.table.rules.actions import REFEREE, Sit
from hazard.table.rules.closing import Close

# --- play from afar: keys to seats, client numbers, closed games, heads ---------------------------------


def test_keys_client_numbers_and_closing_are_kept_with_their_entries(store: GameStore, db: Path) -> None:
    info = store.create(
        ruleset=WIKIPEDIA,
        paytable=WIKI_PAYS,
        stakes=StakeArrangement.BANK,
        dice=DiceKind.TYPED,
        kind=GameKind.WEB,
        keys={"a" * 64: None},
    )
    game = info.id
    store.append(game, ANN, Sit("Ann", Fraction(10)), seq=1, key=("b" * 64, "Ann"), request="ann-1")
    assert store.holder(game, "a" * 64) == SeatKey(None)
    assert store.holder(game, "a" * 64).is_host  # type: ignore[union-attr]
    assert store.holder(game, "b" * 64) == SeatKey("Ann", 1)  # the seating of entry 1, his sit
    assert store.holder(game, "c" * 64) is None
    assert store.holder(game + 1, "b" * 64) is None  # a key opens one game only
    assert store.requests(game) == {"ann-1": 1}
    # the same client number again is another writer's entry: refused, and nothing written
    with pytest.raises(StaleError):
        store.append(game, BEN, Sit("Ben", Fraction(10)), seq=2, request="ann-1")
    assert store.heads([game, 99]) == {game: 1}
    assert store.closed() == frozenset()
    store.append(game, REFEREE, Close(), seq=2)  # a close is an entry of the record like any other
    assert store.closed() == frozenset({game})
    assert store.head(game) == 2
    assert store.head(game + 1) is None
    reader = GameStore.open(str(db), access=Access.READ)
    assert reader.requests(game) == {"ann-1": 1}
    assert reader.holder(game, "b" * 64) == SeatKey("Ann", 1)
    assert reader.closed() == frozenset({game})
    with pytest.raises(InvalidError, match="opened for reading"):
        reader.append(game, REFEREE, Close())
    loaded = load_game(reader, game)
    assert loaded.closed
    assert loaded.table == live([(ANN, Sit("Ann", Fraction(10)))])


def test_a_game_an_older_record_closed_beside_the_chain_still_reads_as_closed(db: Path) -> None:
    store = GameStore.open(str(db))
    game, other = new_game(store), new_game(store)
    store.append(game, ANN, Sit("Ann", Fraction(10)), seq=1)
    with sqlite3.connect(db) as older:  # what a server of an earlier release wrote on a close
        older.execute("INSERT INTO hazard_closed (game, at) VALUES (?, '2026-01-01T00:00:00+00:00')", (game,))
    reader = GameStore.open(str(db), access=Access.READ)
    assert reader.closed() == frozenset({game})
    assert load_game(reader, game).closed
    assert not load_game(reader, other).closed
    assert game_json(load_game(reader, game))["closed"] is True
    assert game_json(load_game(reader, other))["closed"] is False


def test_anything_recorded_after_a_close_is_refused_as_a_record_that_does_not_replay(db: Path) -> None:
    store = GameStore.open(str(db))
    game = new_game(store)
    store.append(game, REFEREE, Close(), seq=1)
    store.append(game, ANN, Sit("Ann", Fraction(10)), seq=2)  # a writer that did not check, or a forger
    assert game not in store.closed()  # the close is not its last entry
    with pytest.raises(InvalidError, match="entry 2 comes after entry 1, which closed the table"):
        load_game(store, game)


def test_a_record_made_before_play_from_afar_has_no_keys_and_gets_them_when_written(db: Path) -> None:
    shutil.copy(LEGACY / "games.db", db)
    reader = GameStore.open(str(db), access=Access.READ)
    assert reader.holder(1, "a" * 64) is None
    assert reader.requests(1) == {}
    assert reader.closed() == frozenset()
    writer = GameStore.open(str(db))
    assert writer.requests(1) == {}


def test_a_listener_is_woken_by_each_committed_entry_on_postgresql_and_none_is_kept_elsewhere(
    store: GameStore,
) -> None:
    import threading

    assert store.listen(lambda game, seq: None) is None  # SQLite tells nobody: a watcher polls the heads
    url = os.environ.get("HAZARD_TEST_DATABASE_URL")
    if url is None:
        pytest.skip("set HAZARD_TEST_DATABASE_URL to a PostgreSQL database to run the rest")
    writer, listener = GameStore.open(url), GameStore.open(url)
    woken = threading.Event()
    told: list[tuple[int, int]] = []

    def wake(game: int, seq: int) -> None:
        told.append((game, seq))
        woken.set()

    stop = listener.listen(wake)
    assert stop is not None
    try:
        game = new_game(writer)
        time.sleep(0.5)  # the listener's connection is up
        woken.clear()
        writer.append(game, ANN, Sit("Ann", Fraction(5)), seq=1)
        assert woken.wait(timeout=10)
        assert (game, 1) in told
    finally:
        stop()
        writer.close()
        listener.close()


def test_a_busy_or_lost_database_is_unavailable_not_malformed(db: Path) -> None:
    from hazard.table.record.engine import RecordUnavailable

    store = GameStore.open(str(db))
    game = new_game(store)
    slow = GameStore.open(f"sqlite:///{db}?timeout=0.1")  # gives up on a lock after a tenth of a second
    with sqlite3.connect(db, timeout=0) as locker:
        locker.execute("BEGIN EXCLUSIVE")
        with pytest.raises(RecordUnavailable, match="database is locked"):
            slow.append(game, ANN, Sit("Ann", Fraction(5)))
        locker.rollback()
    with sqlite3.connect(db) as dropper:
        dropper.execute("DROP TABLE hazard_entries")
    with pytest.raises(InvalidError) as caught:
        store.append(game, ANN, Sit("Ann", Fraction(5)))
    assert not isinstance(caught.value, RecordUnavailable)  # a record missing a table is not one for now
