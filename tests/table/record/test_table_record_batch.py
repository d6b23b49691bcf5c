"""Group commit (GameStore.batch): a batch's writes are committed together, or none of them."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import pytest
from tests.table.record.record_helpers import ANN, BEN, new_game

from hazard.core.errors import InvalidError
from hazard.table.live.timeline import load_game
from hazard.table.record.engine import Access
from hazard.table.record.store import GameStore, StaleError
from hazard.table.rules.actions import REFEREE, Sit
from hazard.table.rules.closing import Close

# --- group commit: GameStore.batch -------------------------------------------------------------------------


def test_a_batch_commits_its_writes_together_and_no_one_sees_them_before(database: str) -> None:
    writer, reader = GameStore.open(database), GameStore.open(database)
    try:
        games = [new_game(writer) for _ in range(3)]
        with writer.batch():
            for number, game in enumerate(games):
                writer.append(game, ANN, Sit("Ann", Fraction(5)), seq=1, request=f"r{number}")
                writer.append(game, BEN, Sit("Ben", Fraction(5)), seq=2)
            with writer.batch():  # a batch inside a batch is the same batch
                writer.append(games[0], REFEREE, Close(), seq=3)
            assert reader.heads(games) == dict.fromkeys(games, 0)
            assert reader.closed() & set(games) == set()
        assert reader.heads(games) == {games[0]: 3, games[1]: 2, games[2]: 2}
        assert reader.requests(games[2]) == {"r2": 1}
        assert games[0] in reader.closed()
        assert [e.item for e in load_game(reader, games[1]).entries] == [
            Sit("Ann", Fraction(5)),
            Sit("Ben", Fraction(5)),
        ]
    finally:
        writer.close()
        reader.close()


def test_a_stale_append_in_a_batch_is_refused_alone(database: str) -> None:
    store = GameStore.open(database)
    try:
        first, second = new_game(store), new_game(store)
        with store.batch():
            store.append(first, ANN, Sit("Ann", Fraction(5)), seq=1)
            with pytest.raises(StaleError):  # checked before anything is written: the batch goes on
                store.append(second, ANN, Sit("Ann", Fraction(5)), seq=2)
            store.append(second, BEN, Sit("Ben", Fraction(5)), seq=1)
        assert store.heads([first, second]) == {first: 1, second: 1}
        assert [e.item for e in load_game(store, second).entries] == [Sit("Ben", Fraction(5))]
    finally:
        store.close()


def test_a_database_error_in_a_batch_writes_none_of_it(database: str) -> None:
    """A client number already taken fails in the database after part of its append: nothing of the batch,
    before or after it, may be committed."""
    store = GameStore.open(database)
    try:
        game, other = new_game(store), new_game(store)
        store.append(game, ANN, Sit("Ann", Fraction(5)), seq=1, request="taken")

        def spoiled() -> None:
            with store.batch():
                store.append(other, ANN, Sit("Ann", Fraction(5)), seq=1)
                with pytest.raises(StaleError):
                    store.append(game, BEN, Sit("Ben", Fraction(5)), seq=2, request="taken")
                with pytest.raises(InvalidError, match="cannot write to the game record"):
                    store.append(other, BEN, Sit("Ben", Fraction(5)), seq=2)  # the batch is spoiled

        with pytest.raises(InvalidError, match="cannot write to the game record") as caught:
            spoiled()
        assert "\n" not in str(caught.value)
        assert store.heads([game, other]) == {game: 1, other: 0}
        assert store.requests(game) == {"taken": 1}
        # and the store writes on afterwards, in a batch or not
        store.append(other, ANN, Sit("Ann", Fraction(5)), seq=1)
        with store.batch():
            store.append(other, BEN, Sit("Ben", Fraction(5)), seq=2)
        assert store.heads([other]) == {other: 2}
    finally:
        store.close()


def test_an_error_of_the_callers_in_a_batch_rolls_it_back(store: GameStore) -> None:
    game = new_game(store)

    def failing() -> None:
        with store.batch():
            store.append(game, ANN, Sit("Ann", Fraction(5)), seq=1)
            raise ZeroDivisionError

    with pytest.raises(ZeroDivisionError):
        failing()
    assert store.heads([game]) == {game: 0}


def test_a_reader_cannot_batch(store: GameStore, db: Path) -> None:
    new_game(store)
    reader = GameStore.open(str(db), access=Access.READ)
    with pytest.raises(InvalidError, match="opened for reading"), reader.batch():
        pass
    reader.close()
