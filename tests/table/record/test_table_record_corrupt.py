"""Corrupt and foreign records: every altered, missing, swapped or foreign entry, header or file is
refused, naming it, and left alone."""

from __future__ import annotations

import sqlite3
from fractions import Fraction
from pathlib import Path

import pytest
from tests.records import reseal, rows, sql
from tests.strategies import throw_of as t
from tests.table.record.record_helpers import (
    ANN,
    BEN,
    EVERY_ACTION,
    WIKIPEDIA,
    entry,
    live,
    new_game,
    two_entry_game,
)

from hazard.core.errors import IllegalError, InvalidError
from hazard.core.rules import StakeArrangement
from hazard.core.rulesets import find_paytable
from hazard.table import TableSpec
from hazard.table.fair.dice import DiceKind
from hazard.table.live.timeline import FORMATS, Correction, GameKind, load_game
from hazard.table.record.schema import MAX_DATA
from hazard.table.record.store import GameStore, StaleError
from hazard.table.rules.actions import REFEREE, Actor, BotPolicy, Call, PassDice, Sit, Stake, TableAction


def refused_whole(store: GameStore, game: int, *fragments: str) -> None:
    with pytest.raises(InvalidError) as caught:
        load_game(store, game)
    assert type(caught.value) is InvalidError
    message = str(caught.value)
    assert "\n" not in message
    for fragment in fragments:
        assert fragment in message, (fragment, message)


REF = {"kind": "referee"}


@pytest.mark.parametrize(
    ("data", "fragments"),
    [
        ("{not json", ("is corrupt: entry 2:", "Expecting property name")),
        ("", ("is corrupt: entry 2:",)),
        ("[1, 2]", ("is corrupt: entry 2:", "it names no actor")),
        (entry(REF, action={"type": "dance"}), ("is corrupt: entry 2:", "invalid action type 'dance'")),
        (entry(REF, action={"type": "sit", "name": "Ben"}), ("is corrupt: entry 2:", "missing field")),
        (entry(REF, action={"type": "throw", "roll": "9-9"}), ("is corrupt: entry 2:", "invalid roll '9-9'")),
        (entry(REF, correction={"target": 0, "replacement": None}), ("invalid correction target 0",)),
        (
            entry(REF, correction={"target": 1}),
            ("invalid correction", "expected a target and a replacement"),
        ),
        (
            entry(REF, correction={"target": 1, "replacement": {"type": "x"}}),
            ("invalid action type 'x'",),
        ),
        (
            entry({"kind": "player"}, action={"type": "pass-dice"}),
            ("is corrupt: entry 2:", "invalid actor", "expected a player with a name, the referee or the"),
        ),
        (
            entry({"kind": "bot", "name": "Ben"}, action={"type": "pass-dice"}),
            ("is corrupt: entry 2:", "invalid actor"),
        ),
        (
            entry(REF, action={"type": "pass-dice"}, correction={"target": 1, "replacement": None}),
            ("is corrupt: entry 2:", "expected an actor with an action or a correction"),
        ),
        (entry(REF), ("is corrupt: entry 2:", "expected an actor with an action or a correction")),
        # the forms written before actors existed are refused in a game of the new format
        ('{"type": "pass-dice"}', ("is corrupt: entry 2:", "it names no actor")),
        (
            '{"type": "correction", "target": 1, "replacement": null}',
            ("is corrupt: entry 2:", "names no actor"),
        ),
    ],
    ids=repr,
)
def test_a_corrupt_entry_is_refused_whole(
    store: GameStore, db: Path, data: str, fragments: tuple[str, ...]
) -> None:
    game = two_entry_game(store)
    sql(db, "UPDATE hazard_entries SET data = ? WHERE seq = 2", data)
    refused_whole(store, game, f"record of game {game} is corrupt: entry 2 does not follow")
    reseal(db)  # as a writer with a bug would have sealed it: what the entry says is still checked
    refused_whole(store, game, f"record of game {game}", *fragments)


def test_an_entry_stored_as_a_number_or_bytes_is_refused(store: GameStore, db: Path) -> None:
    game = two_entry_game(store)
    for data in (5, b"\xff\xfe\x00", "[" * 100_000, "[" * (MAX_DATA + 1)):
        sql(db, "UPDATE hazard_entries SET data = ? WHERE seq = 2", data)
        refused_whole(store, game, "is corrupt: entry 2")
        reseal(db)
        refused_whole(store, game, "is corrupt: entry 2")


def test_a_seed_that_is_not_a_number_is_refused(store: GameStore, db: Path) -> None:
    game = two_entry_game(store)
    sql(db, "UPDATE hazard_games SET seed = 'lucky'")
    refused_whole(store, game, f"record of game {game} is corrupt: its seed 'lucky' is not a whole number")


def test_an_entry_that_is_illegal_on_replay_is_refused(store: GameStore) -> None:
    game = two_entry_game(store)
    store.append(game, ANN, t(7))  # nobody has called a main
    store.append(game, ANN, Call(7))
    refused_whole(store, game, f"record of game {game} does not replay: entry 3: illegal throw 1-6")


@pytest.mark.parametrize(
    ("actor", "action", "fragment"),
    [
        (ANN, Stake("Ben", Fraction(1)), "illegal stake Ben 1 by Ann"),
        (BEN, Call(7), "only the caster, Ann, calls the main"),
        (Actor.player("Zed"), PassDice(), "Zed is not at the table (seated: Ann, Ben)"),
        (BEN, Sit("Cat", Fraction(5)), "a player sits only himself down"),
    ],
    ids=repr,
)
def test_an_entry_by_an_actor_who_may_not_take_it_is_refused(
    store: GameStore, actor: Actor, action: TableAction, fragment: str
) -> None:
    game = two_entry_game(store)
    store.append(game, actor, action)
    refused_whole(store, game, f"record of game {game} does not replay: entry 3:", fragment)


def test_an_illegal_correction_in_the_record_is_refused(store: GameStore) -> None:
    game = two_entry_game(store)
    store.append(game, REFEREE, Correction(1, Call(7)))  # no caster without Ann
    refused_whole(store, game, "does not replay: entry 1:")
    game = two_entry_game(store)
    store.append(game, REFEREE, Correction(3))
    refused_whole(store, game, "does not replay", "illegal correction of entry 3")


def test_a_missing_entry_is_refused(store: GameStore, db: Path) -> None:
    game = new_game(store, EVERY_ACTION[:4])
    sql(db, "DELETE FROM hazard_entries WHERE seq = 2")
    refused_whole(store, game, f"record of game {game} is corrupt: entry 2 is missing")


def test_lost_last_entries_are_refused(store: GameStore, db: Path) -> None:
    """What a damaged index page did: the game read back shorter, and was then played on from there."""
    game = new_game(store, EVERY_ACTION[:4])
    sql(db, "DELETE FROM hazard_entries WHERE seq >= 3")
    refused_whole(
        store, game, f"record of game {game} is corrupt: it holds entries 1 to 2 of 4: entries 3 to 4"
    )
    with pytest.raises(StaleError):  # nor is anything written after what is left
        store.append(game, *EVERY_ACTION[2], seq=3)


def test_an_altered_entry_is_refused_naming_it(store: GameStore, db: Path) -> None:
    """What a flipped bit did: a side bet at 1/5 instead of 1/1, loaded without a word."""
    game = new_game(store, EVERY_ACTION[:9])
    (data,) = rows(db, "SELECT data FROM hazard_entries WHERE seq = 7")[0]
    assert '"odds": "3/2"' in str(data)
    sql(db, "UPDATE hazard_entries SET data = ? WHERE seq = 7", str(data).replace('"3/2"', '"3/5"'))
    refused_whole(
        store, game, f"record of game {game} is corrupt: entry 7 does not follow from the entries before"
    )


def test_entries_swapped_are_refused_naming_the_first(store: GameStore, db: Path) -> None:
    game = new_game(store, EVERY_ACTION[:6])
    (four, five) = rows(db, "SELECT data FROM hazard_entries WHERE seq IN (4, 5) ORDER BY seq")
    sql(db, "UPDATE hazard_entries SET data = ? WHERE seq = 4", five[0])
    sql(db, "UPDATE hazard_entries SET data = ? WHERE seq = 5", four[0])
    refused_whole(store, game, "entry 4 does not follow")
    sql(db, "UPDATE hazard_entries SET seq = 99 WHERE seq = 4")  # and renumbered, digests and all
    sql(db, "UPDATE hazard_entries SET seq = 4 WHERE seq = 5")
    sql(db, "UPDATE hazard_entries SET seq = 5 WHERE seq = 99")
    refused_whole(store, game, "entry 4 does not follow")


def test_an_entry_put_in_after_the_last_is_refused(store: GameStore, db: Path) -> None:
    game = new_game(store, EVERY_ACTION[:3])
    (last,) = rows(db, "SELECT at, data, digest FROM hazard_entries WHERE seq = 3")
    sql(db, "INSERT INTO hazard_entries (game, seq, at, data, digest) VALUES (?, 4, ?, ?, ?)", game, *last)
    refused_whole(store, game, f"record of game {game} is corrupt: entry 4 does not follow")
    reseal(db)  # even with a chain recomputed over it, the game's head does not reach it ...
    sql(db, "UPDATE hazard_heads SET entries = 3")
    refused_whole(store, game, "entry 4 was put in after the game's last entry, 3")


@pytest.mark.parametrize("count", [-5, -1])
def test_a_count_of_entries_below_zero_is_refused_as_such(store: GameStore, db: Path, count: int) -> None:
    game = new_game(store, EVERY_ACTION[:3])
    sql(db, "UPDATE hazard_heads SET entries = ?", count)
    refused_whole(store, game, f"record of game {game} is corrupt: its count of entries is {count}, below 0")


@pytest.mark.parametrize("column", ["label", "ruleset", "paytable", "stakes", "created", "kind", "settings"])
def test_a_changed_setup_is_refused(store: GameStore, db: Path, column: str) -> None:
    game = new_game(store, EVERY_ACTION[:2])
    empty = new_game(store)
    (value,) = rows(db, f"SELECT {column} FROM hazard_games WHERE id = {game}")[0]
    changed = str(value).replace("bank", "setter-sum").replace("test", "tost").replace("play", "referee")
    changed = changed.replace("2026", "2025").replace("{}", '{"bot_unit": "2"}').replace("nick", "nick ")
    changed = changed if changed != value else f"{value} "
    sql(db, f"UPDATE hazard_games SET {column} = ?", changed)
    refused_whole(store, game, f"record of game {game} is corrupt: its setup or its entry 1 was changed")
    refused_whole(store, empty, f"record of game {empty} is corrupt: its setup does not match its digest")


def test_every_stored_byte_is_sealed(store: GameStore, db: Path) -> None:
    """Any one character of any entry changed, and the game is refused naming that entry (or it still reads
    the same: a change JSON does not see, such as a space)."""
    game = new_game(store, EVERY_ACTION)
    original = {seq: str(data) for seq, data in rows(db, "SELECT seq, data FROM hazard_entries")}
    for seq, data in original.items():
        for place in range(0, len(data), 7):
            flipped = data[:place] + chr(ord(data[place]) ^ 1) + data[place + 1 :]
            sql(db, "UPDATE hazard_entries SET data = ? WHERE seq = ?", flipped, seq)
            refused_whole(store, game, f"is corrupt: {'its setup or its ' if seq == 1 else ''}entry {seq} ")
        sql(db, "UPDATE hazard_entries SET data = ? WHERE seq = ?", data, seq)
    assert load_game(store, game).table == live(EVERY_ACTION)


@pytest.mark.parametrize(
    ("column", "value", "fragments"),
    [
        (
            "format",
            "hazard-game/3",
            ("in format 'hazard-game/3', expected 'hazard-game/1' or 'hazard-game/2'",),
        ),
        ("format", "chess-pgn", ("in format 'chess-pgn'",)),
        ("stakes", "winner-takes-all", ("is corrupt", "'winner-takes-all'")),
        ("dice", "loaded", ("is corrupt", "'loaded'")),
        ("ruleset", "id = [", ("is corrupt", "not valid TOML")),
        ("paytable", 'id = "x"', ("is corrupt",)),
        ("settings", '["not", "a table"]', ("is corrupt", "settings")),
        ("kind", "poker", ("is corrupt", "its kind is 'poker'")),
        ("kind", "", ("is corrupt", "its kind is ''")),
    ],
)
def test_a_foreign_or_corrupt_game_header_is_refused(
    store: GameStore, db: Path, column: str, value: str, fragments: tuple[str, ...]
) -> None:
    game = two_entry_game(store)
    sql(db, f"UPDATE hazard_games SET {column} = ?", value)
    refused_whole(store, game, f"record of game {game} is corrupt: its setup or its entry 1 was changed")
    reseal(db)
    refused_whole(store, game, f"record of game {game}", *fragments)
    assert FORMATS == ("hazard-game/1", "hazard-game/2")


def test_a_game_whose_kind_cannot_be_read_is_listed_without_one(store: GameStore, db: Path) -> None:
    game = two_entry_game(store)
    sql(db, "UPDATE hazard_games SET kind = ?", "poker")
    assert [(g.id, g.kind) for g in store.games()] == [(game, None)]
    with pytest.raises(IllegalError, match="holds no hazard play game"):
        store.latest(GameKind.PLAY)


def test_a_sqlite_file_of_something_else_is_refused_and_left_alone(db: Path) -> None:
    sql(db, "CREATE TABLE people (name TEXT)")
    with pytest.raises(InvalidError) as caught:
        GameStore.open(str(db))
    assert type(caught.value) is InvalidError
    assert f"cannot open the game record 'sqlite:///{db}'" in str(caught.value)
    assert "database of something else (tables: people)" in str(caught.value)
    assert rows(db, "SELECT name FROM sqlite_master WHERE type = 'table'") == [("people",)]


def test_a_sqlite_file_with_a_foreign_table_of_our_name_is_refused(db: Path) -> None:
    sql(db, "CREATE TABLE hazard_games (id INTEGER PRIMARY KEY, score REAL)")
    with pytest.raises(InvalidError, match="table 'hazard_games' is not laid out as a hazard game record"):
        GameStore.open(str(db))


def test_a_file_that_is_not_a_database_is_refused(db: Path) -> None:
    db.write_text("Hazard is an Old English game with two dice.\n" * 200)
    with pytest.raises(InvalidError, match=r"cannot open the game record .*: it is not an SQLite database"):
        GameStore.open(str(db))
    assert db.read_text().startswith("Hazard is an Old English game")


@pytest.mark.parametrize("where", ["missing/folder/games.db", "."])
def test_an_unreadable_path_is_refused(tmp_path: Path, where: str) -> None:
    with pytest.raises(InvalidError, match=r"cannot open the game record .*unable to open database file"):
        GameStore.open(str(tmp_path / where))


def test_an_unknown_database_url_is_refused() -> None:
    with pytest.raises(InvalidError, match="cannot open the game record 'nosuchdb://x'"):
        GameStore.open("nosuchdb://x")


def test_a_record_whose_tables_vanish_is_refused_on_read_and_write(store: GameStore, db: Path) -> None:
    game = two_entry_game(store)
    sql(db, "DROP TABLE hazard_entries")
    with pytest.raises(InvalidError, match="cannot write to the game record"):
        store.append(game, ANN, Call(7))
    with pytest.raises(InvalidError, match="cannot read the game record"):
        load_game(store, game)


def test_an_empty_sqlite_file_becomes_a_record(db: Path) -> None:
    sqlite3.connect(db).close()
    store = GameStore.open(str(db))
    assert store.games() == []
    store.close()


def test_a_front_ends_settings_are_kept_with_the_game(store: GameStore, db: Path) -> None:
    info = store.create(
        ruleset=WIKIPEDIA,
        paytable=find_paytable("even"),
        stakes=StakeArrangement.BANK,
        dice=DiceKind.SECURE,
        kind=GameKind.PLAY,
        settings={"bot_unit": "5/2"},
    )
    assert info.settings == {"bot_unit": "5/2"}
    assert load_game(store, info.id).info.settings == {"bot_unit": "5/2"}
    sql(db, "UPDATE hazard_games SET settings = ? WHERE id = ?", '{"bot_unit": 5}', info.id)
    reseal(db)
    refused_whole(store, info.id, f"record of game {info.id} is corrupt", "settings are not a table of texts")


def test_a_game_round_trips_through_another_database(postgres_url: str) -> None:
    """The same record on any SQLAlchemy database: a seeded bot game, stored, loaded and resumed."""
    from hazard.table.live.session import Session
    from hazard.table.rules.bots import BotBrains

    store = GameStore.open(postgres_url)
    try:
        session = Session.start(
            store,
            TableSpec(
                WIKIPEDIA,
                find_paytable("wikipedia"),
                dice=DiceKind.SEEDED,
                seed=8,
                bots=BotBrains(unit=Fraction(2)),
            ),
            settings={"bot_unit": "2/1"},
        )
        for name, bot in (("Cas", BotPolicy.SETTER), ("Sam", BotPolicy.SETTER), ("Bea", BotPolicy.BYSTANDER)):
            session.play(Sit(name, Fraction(50), bot), by=REFEREE)
        for _ in range(40):
            session.bots_act()
            session.throw(by=REFEREE)
        loaded = load_game(store, session.game)
        assert loaded.table == session.table
        assert loaded.info.settings == {"bot_unit": "2/1"}
        assert loaded.entries == tuple(session.entries)
        assert {entry.actor for entry in loaded.entries} >= {Actor.player("Cas"), REFEREE}
        resumed = Session.resume(store, session.game, kind=GameKind.PLAY, brains=BotBrains(unit=Fraction(2)))
        assert resumed.table == session.table
        assert store.latest(GameKind.PLAY) >= session.game
    finally:
        store.close()
