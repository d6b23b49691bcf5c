"""The game store: each entry and its actor round-trip, each write is committed, a bad record is refused.

What a game's record means (corrections, the replay, the JSON form) is :mod:`hazard.table.game`'s, tested in
``test_table_game.py``; this is the database under it.
"""

from __future__ import annotations

import json
import os
import sqlite3
from collections.abc import Iterator
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from tests.strategies import rulesets
from tests.strategies import throw_of as t

from hazard.core.dice import Roll
from hazard.core.errors import HazardError, IllegalError, InvalidError
from hazard.core.rules import Ruleset, StakeArrangement
from hazard.core.rulesets import find_paytable, find_ruleset
from hazard.table.actions import (
    REFEREE,
    Actor,
    BotPolicy,
    Call,
    CancelBet,
    OfferBet,
    PassDice,
    Sit,
    Stake,
    TableAction,
    TakeBet,
    Withdraw,
)
from hazard.table.dice import DiceKind
from hazard.table.game import FORMAT, FORMATS, Correction, GameKind, entry_to_json
from hazard.table.record import GameStore, GameSummary, default_database_url
from hazard.table.state import Table, new_table
from hazard.table.transitions import apply_action

WIKIPEDIA = find_ruleset("wikipedia")
WIKI_PAYS = find_paytable("wikipedia")
ANN, BEN, CAT = Actor.player("Ann"), Actor.player("Ben"), Actor.player("Cat")

Move = tuple[Actor, TableAction]

# A legal game holding every kind of action, each by an actor allowed to take it.
EVERY_ACTION: list[Move] = [
    (ANN, Sit("Ann", Fraction(100))),
    (BEN, Sit("Ben", Fraction(201, 2), BotPolicy.SETTER)),
    (REFEREE, Sit("Cat", Fraction(50), BotPolicy.BYSTANDER)),  # the referee seats a bot
    (BEN, Stake("Ben", Fraction(5))),
    (BEN, Withdraw("Ben")),
    (BEN, Stake("Ben", Fraction(7, 2), consent=True)),  # consent where none is needed: Ben's own stake
    (CAT, OfferBet("Cat", "next odd", Fraction(2), Fraction(3, 2))),
    (ANN, TakeBet(1, "Ann")),
    (REFEREE, OfferBet("Cat", "4 or 10 before 7", Fraction(1))),  # entered by the referee for Cat
    (CAT, CancelBet(2)),
    (ANN, Call(7)),
    (ANN, Roll(5, 6)),  # 11 nicks on a main of 7; the odd total wins Cat's side bet
    (ANN, PassDice()),
]


def live(moves: list[Move], ruleset: Ruleset = WIKIPEDIA) -> Table:
    """The table the moves lead to, played straight through the pure rules."""
    table = new_table(ruleset, WIKI_PAYS if ruleset is WIKIPEDIA else find_paytable("even"))
    for actor, action in moves:
        table, _ = apply_action(table, action, by=actor)
    return table


def new_game(store: GameStore, moves: list[Move] | None = None, kind: GameKind = GameKind.PLAY) -> int:
    info = store.create(
        ruleset=WIKIPEDIA,
        paytable=WIKI_PAYS,
        stakes=StakeArrangement.BANK,
        dice=DiceKind.SEEDED if kind is GameKind.PLAY else DiceKind.TYPED,
        kind=kind,
        seed=9 if kind is GameKind.PLAY else None,
        label="test",
    )
    for actor, action in moves or []:
        store.append(info.id, actor, action)
    return info.id


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return tmp_path / "games.db"


@pytest.fixture
def store(db: Path) -> Iterator[GameStore]:
    opened = GameStore.open(str(db))
    yield opened
    opened.close()


def sql(db: Path, statement: str, *params: object) -> None:
    """Change the record underneath the store, as a crash, a bad tool or a bad disk might."""
    connection = sqlite3.connect(db)
    with connection:
        connection.execute(statement, params)
    connection.close()


def rows(db: Path, statement: str) -> list[tuple[object, ...]]:
    connection = sqlite3.connect(db)
    try:
        return connection.execute(statement).fetchall()
    finally:
        connection.close()


def refused_whole(store: GameStore, game: int, *fragments: str) -> None:
    with pytest.raises(InvalidError) as caught:
        store.load(game)
    assert type(caught.value) is InvalidError
    message = str(caught.value)
    assert "\n" not in message
    for fragment in fragments:
        assert fragment in message, (fragment, message)


# --- the round trip ---------------------------------------------------------------------------------------


def test_every_action_type_and_its_actor_round_trips_through_the_record(store: GameStore, db: Path) -> None:
    assert {type(action) for _, action in EVERY_ACTION} == {
        Sit,
        Stake,
        Withdraw,
        OfferBet,
        TakeBet,
        CancelBet,
        Call,
        Roll,
        PassDice,
    }
    game = new_game(store, EVERY_ACTION)
    loaded = store.load(game)
    assert [(entry.actor, entry.item) for entry in loaded.entries] == EVERY_ACTION
    assert [entry.seq for entry in loaded.entries] == list(range(1, len(EVERY_ACTION) + 1))
    assert loaded.info.format == FORMAT == "hazard-game/2"
    assert loaded.table == live(EVERY_ACTION)
    assert loaded.table.caster == "Ben"
    assert loaded.table.player("Cat").bankroll == 53  # 3/2 on 2 from Ann
    # what is stored is the JSON form of each entry, its actor with its action, one per row
    stored = rows(db, "SELECT data FROM hazard_entries ORDER BY seq")
    assert [json.loads(str(row[0])) for row in stored] == [entry_to_json(a, i) for a, i in EVERY_ACTION]
    assert json.loads(str(stored[0][0])) == {
        "actor": {"kind": "player", "name": "Ann"},
        "action": {"type": "sit", "name": "Ann", "bankroll": "100/1", "bot": None},
    }
    assert json.loads(str(stored[2][0]))["actor"] == {"kind": "referee"}


def test_append_returns_the_entry_as_it_will_read_back(store: GameStore) -> None:
    game = new_game(store)
    entry = store.append(game, ANN, Sit("Ann", Fraction(10)))
    assert (entry.seq, entry.actor, entry.item) == (1, ANN, Sit("Ann", Fraction(10)))
    assert store.load(game).entries == (entry,)
    assert store.append(game, REFEREE, Correction(1)).seq == 2


def test_corrections_round_trip_through_the_record(store: GameStore) -> None:
    game = new_game(store, EVERY_ACTION[:3])
    store.append(game, REFEREE, Correction(2))
    store.append(game, REFEREE, Correction(3, Sit("Cal", Fraction(5), None)))
    loaded = store.load(game)
    assert [(entry.actor, entry.item) for entry in loaded.entries][3:] == [
        (REFEREE, Correction(2, None)),
        (REFEREE, Correction(3, Sit("Cal", Fraction(5), None))),
    ]
    assert [p.name for p in loaded.table.players] == ["Ann", "Cal"]


def test_the_setup_is_stored_with_the_game(store: GameStore) -> None:
    ecws = find_ruleset("ecws-1674")
    created = store.create(
        ruleset=ecws,
        paytable=find_paytable("true-odds"),
        stakes=StakeArrangement.ALL_AGAINST_CASTER,
        dice=DiceKind.TYPED,
        kind=GameKind.REFEREE,
        label="club night",
    )
    info = store.load(created.id).info
    assert info == created
    assert (info.id, info.label, info.dice, info.seed, info.kind) == (
        created.id,
        "club night",
        DiceKind.TYPED,
        None,
        GameKind.REFEREE,
    )
    assert info.ruleset == ecws
    assert info.paytable == find_paytable("true-odds")
    assert info.stakes is StakeArrangement.ALL_AGAINST_CASTER
    assert info.settings == {}
    assert store.load(created.id).table == new_table(
        ecws, find_paytable("true-odds"), StakeArrangement.ALL_AGAINST_CASTER
    )


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow], derandomize=True)
@given(rulesets())
def test_any_valid_ruleset_round_trips_through_the_record(ruleset: Ruleset) -> None:
    store = GameStore.open("sqlite://")
    paytable = find_paytable("true-odds")
    info = store.create(
        ruleset=ruleset, paytable=paytable, stakes=ruleset.stakes, dice=DiceKind.SECURE, kind=GameKind.PLAY
    )
    loaded = store.load(info.id)
    assert loaded.info.ruleset == ruleset
    assert loaded.table == new_table(ruleset, paytable)
    store.close()


def test_games_are_listed_newest_first_with_their_kind(store: GameStore) -> None:
    first = new_game(store, EVERY_ACTION[:2])
    second = store.create(
        ruleset=find_ruleset("craps"),
        paytable=find_paytable("even"),
        stakes=StakeArrangement.BANK,
        dice=DiceKind.TYPED,
        kind=GameKind.REFEREE,
    )
    listed = store.games()
    assert all(isinstance(summary, GameSummary) for summary in listed)
    assert [(g.id, g.label, g.kind, g.ruleset, g.entries) for g in listed] == [
        (second.id, "", GameKind.REFEREE, "craps", 0),
        (first, "test", GameKind.PLAY, "wikipedia", 2),
    ]
    assert listed[0].created == second.created


def test_latest_is_the_newest_game_of_a_kind(store: GameStore) -> None:
    with pytest.raises(
        IllegalError, match=r"illegal game: the record at .* holds no hazard play game to resume"
    ):
        store.latest(GameKind.PLAY)
    play = [new_game(store, kind=GameKind.PLAY) for _ in range(2)]
    referee = new_game(store, kind=GameKind.REFEREE)
    assert store.latest(GameKind.PLAY) == play[-1]
    assert store.latest(GameKind.REFEREE) == referee
    assert new_game(store, kind=GameKind.PLAY) == store.latest(GameKind.PLAY)


def test_a_games_kind_is_kept_in_its_settings_and_not_given_twice(store: GameStore, db: Path) -> None:
    game = store.create(
        ruleset=WIKIPEDIA,
        paytable=find_paytable("even"),
        stakes=StakeArrangement.BANK,
        dice=DiceKind.SECURE,
        kind=GameKind.REFEREE,  # a kind need not follow from the dice
        settings={"bot_unit": "5/2"},
    )
    assert store.load(game.id).info.kind is GameKind.REFEREE
    assert store.load(game.id).info.settings == {"bot_unit": "5/2"}
    (kept,) = rows(db, f"SELECT settings FROM hazard_games WHERE id = {game.id}")
    assert json.loads(str(kept[0])) == {"bot_unit": "5/2", "kind": "referee"}
    with pytest.raises(
        InvalidError, match="invalid game setting 'kind': the record keeps the game's kind itself"
    ):
        store.create(
            ruleset=WIKIPEDIA,
            paytable=WIKI_PAYS,
            stakes=StakeArrangement.BANK,
            dice=DiceKind.SECURE,
            kind=GameKind.PLAY,
            settings={"kind": "play"},
        )
    assert len(store.games()) == 1


def test_every_entry_is_committed_when_it_is_written(db: Path) -> None:
    writer = GameStore.open(str(db))
    game = new_game(writer, EVERY_ACTION[:5])
    reader = GameStore.open(f"sqlite:///{db}")  # a second connection, as after a crash
    assert [(e.actor, e.item) for e in reader.load(game).entries] == EVERY_ACTION[:5]
    writer.append(game, *EVERY_ACTION[5])
    assert len(reader.load(game).entries) == 6
    writer.close()
    reader.close()


def test_an_unknown_game_is_refused(store: GameStore) -> None:
    with pytest.raises(IllegalError, match=r"illegal game 42: the record at .* has no such game"):
        store.load(42)


def test_an_append_to_an_unknown_game_is_refused_and_writes_nothing(store: GameStore, db: Path) -> None:
    """An entry for a game that is not in the record must not wait there for the next game of that number."""
    with pytest.raises(HazardError, match=r"game 1\b"):
        store.append(1, ANN, Sit("Ann", Fraction(5)))
    assert rows(db, "SELECT game, seq FROM hazard_entries") == []
    game = new_game(store)
    assert store.load(game).entries == ()


def test_the_default_record_lives_in_the_user_data_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import platformdirs

    monkeypatch.setattr(
        platformdirs, "user_data_dir", lambda *args, **kwargs: str(tmp_path / "data" / "hazard")
    )
    assert default_database_url() == f"sqlite:///{tmp_path / 'data' / 'hazard' / 'games.db'}"
    store = GameStore.open()
    assert store.url == default_database_url()
    new_game(store)
    store.close()
    assert (tmp_path / "data" / "hazard" / "games.db").is_file()


def test_a_path_with_a_tilde_is_in_the_home_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HOME", str(tmp_path))
    store = GameStore.open("~/mine.db")
    new_game(store)
    store.close()
    assert (tmp_path / "mine.db").is_file()


def test_opening_for_reading_refuses_a_missing_file_and_makes_none(db: Path) -> None:
    with pytest.raises(InvalidError, match=f"cannot open the game record '{db}': no such file"):
        GameStore.open(str(db), create=False)
    assert not db.exists()
    GameStore.open(str(db)).close()
    reader = GameStore.open(str(db), create=False)
    assert reader.games() == []
    reader.close()


# --- corrupt and foreign records ----------------------------------------------------------------------------


def two_entry_game(store: GameStore) -> int:
    return new_game(store, [(ANN, Sit("Ann", Fraction(10))), (BEN, Sit("Ben", Fraction(10)))])


def entry(actor: object, **item: object) -> str:
    return json.dumps({"actor": actor, **item})


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
            ("is corrupt: entry 2:", "invalid actor", "expected a player with a name, or the referee"),
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
    refused_whole(store, game, f"record of game {game}", *fragments)


def test_an_entry_stored_as_a_number_or_bytes_is_refused(store: GameStore, db: Path) -> None:
    game = two_entry_game(store)
    sql(db, "UPDATE hazard_entries SET data = ? WHERE seq = 2", 5)
    refused_whole(store, game, "is corrupt: entry 2")
    sql(db, "UPDATE hazard_entries SET data = ? WHERE seq = 2", b"\xff\xfe\x00")
    refused_whole(store, game, "is corrupt: entry 2")
    sql(db, "UPDATE hazard_entries SET data = ? WHERE seq = 2", "[" * 100_000)
    refused_whole(store, game, "is corrupt: entry 2")


def test_a_seed_that_is_not_a_number_is_refused(store: GameStore, db: Path) -> None:
    game = two_entry_game(store)
    sql(db, "UPDATE hazard_games SET seed = 'lucky'")
    refused_whole(store, game, f"record of game {game} is corrupt: seed 'lucky' is not a whole number")


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


def test_a_missing_last_entry_is_just_a_shorter_game(store: GameStore, db: Path) -> None:
    # what kill -9 between two writes leaves: the record up to the last committed entry
    game = new_game(store, EVERY_ACTION[:4])
    sql(db, "DELETE FROM hazard_entries WHERE seq = 4")
    assert store.load(game).table == live(EVERY_ACTION[:3])


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
        ("settings", '{"kind": "poker"}', ("is corrupt", "its kind is 'poker'")),
        ("settings", "{}", ("is corrupt", "its kind is None")),  # a new game always keeps its kind
    ],
)
def test_a_foreign_or_corrupt_game_header_is_refused(
    store: GameStore, db: Path, column: str, value: str, fragments: tuple[str, ...]
) -> None:
    game = two_entry_game(store)
    sql(db, f"UPDATE hazard_games SET {column} = ?", value)
    refused_whole(store, game, f"record of game {game}", *fragments)
    assert FORMATS == ("hazard-game/1", "hazard-game/2")


def test_a_game_whose_kind_cannot_be_read_is_listed_without_one(store: GameStore, db: Path) -> None:
    game = two_entry_game(store)
    sql(db, "UPDATE hazard_games SET settings = ?", '{"kind": "poker"}')
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
    with pytest.raises(InvalidError, match=r"cannot open the game record .*file is not a database"):
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
        store.load(game)


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
    assert store.load(info.id).info.settings == {"bot_unit": "5/2"}
    sql(db, "UPDATE hazard_games SET settings = ? WHERE id = ?", '{"bot_unit": 5, "kind": "play"}', info.id)
    refused_whole(store, info.id, f"record of game {info.id} is corrupt", "settings are not a table of texts")


@pytest.mark.skipif(
    "HAZARD_TEST_DATABASE_URL" not in os.environ,
    reason="set HAZARD_TEST_DATABASE_URL to an empty database (e.g. PostgreSQL) to run against it",
)
def test_a_game_round_trips_through_another_database() -> None:
    """The same record on any SQLAlchemy database: a seeded bot game, stored, loaded and resumed."""
    from hazard.table.bots import BotBrains
    from hazard.table.session import Session

    store = GameStore.open(os.environ["HAZARD_TEST_DATABASE_URL"])
    try:
        session = Session.start(
            store,
            ruleset=WIKIPEDIA,
            paytable=find_paytable("wikipedia"),
            dice=DiceKind.SEEDED,
            seed=8,
            settings={"bot_unit": "2/1"},
            brains=BotBrains(unit=Fraction(2)),
        )
        for name, bot in (("Cas", BotPolicy.SETTER), ("Sam", BotPolicy.SETTER), ("Bea", BotPolicy.BYSTANDER)):
            session.play(Sit(name, Fraction(50), bot), by=REFEREE)
        for _ in range(40):
            session.bots_act()
            session.throw(by=REFEREE)
        loaded = store.load(session.game)
        assert loaded.table == session.table
        assert loaded.info.settings == {"bot_unit": "2/1"}
        assert loaded.entries == tuple(session.entries)
        assert {entry.actor for entry in loaded.entries} >= {Actor.player("Cas"), REFEREE}
        resumed = Session.resume(store, session.game, kind=GameKind.PLAY, brains=BotBrains(unit=Fraction(2)))
        assert resumed.table == session.table
        assert store.latest(GameKind.PLAY) >= session.game
    finally:
        store.close()
