"""The game record: every action round-trips, corrections never delete, and a bad record is refused whole."""

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
from hazard.core.errors import IllegalError, InvalidError
from hazard.core.rules import Ruleset, StakeArrangement
from hazard.core.rulesets import find_paytable, find_ruleset
from hazard.table.actions import (
    Call,
    CancelBet,
    OfferBet,
    PassDice,
    Sit,
    Stake,
    TableAction,
    TakeBet,
    Throw,
    Withdraw,
    action_to_json,
)
from hazard.table.record import (
    FORMAT,
    Correction,
    Entry,
    GameInfo,
    GameStore,
    default_database_url,
    effective_actions,
    replay,
)
from hazard.table.state import Table, apply_action, new_table

WIKIPEDIA = find_ruleset("wikipedia")
WIKI_PAYS = find_paytable("wikipedia")

# A legal game holding every kind of action.
EVERY_ACTION: list[TableAction] = [
    Sit("Ann", Fraction(100)),
    Sit("Ben", Fraction(201, 2), "setter"),
    Sit("Cat", Fraction(50), "bystander"),
    Stake("Ben", Fraction(5)),
    Withdraw("Ben"),
    Stake("Ben", Fraction(7, 2), consent=True),
    OfferBet("Cat", "next odd", Fraction(2), Fraction(3, 2)),
    TakeBet(1, "Ann"),
    OfferBet("Cat", "4 or 10 before 7", Fraction(1)),
    CancelBet(2),
    Call(7),
    Throw(Roll(5, 6)),  # 11 nicks on a main of 7; the odd total wins Cat's side bet
    PassDice(),
]


def live(actions: list[TableAction], ruleset: Ruleset = WIKIPEDIA) -> Table:
    table = new_table(ruleset, WIKI_PAYS if ruleset is WIKIPEDIA else find_paytable("even"))
    for action in actions:
        table, _ = apply_action(table, action)
    return table


def new_game(store: GameStore, actions: list[TableAction] | None = None) -> int:
    game = store.create(
        ruleset=WIKIPEDIA,
        paytable=WIKI_PAYS,
        stakes=StakeArrangement.BANK,
        dice="seeded",
        seed=9,
        label="test",
    )
    for action in actions or []:
        store.append(game, action)
    return game


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


def refused_whole(store: GameStore, game: int, *fragments: str) -> None:
    with pytest.raises(InvalidError) as caught:
        store.load(game)
    assert type(caught.value) is InvalidError
    message = str(caught.value)
    assert "\n" not in message
    for fragment in fragments:
        assert fragment in message, (fragment, message)


# --- the round trip ---------------------------------------------------------------------------------------


def test_every_action_type_round_trips_through_the_record(store: GameStore, db: Path) -> None:
    assert {type(a) for a in EVERY_ACTION} == {
        Sit,
        Stake,
        Withdraw,
        OfferBet,
        TakeBet,
        CancelBet,
        Call,
        Throw,
        PassDice,
    }
    game = new_game(store, EVERY_ACTION)
    loaded = store.load(game)
    assert [entry.item for entry in loaded.entries] == EVERY_ACTION
    assert [entry.seq for entry in loaded.entries] == list(range(1, len(EVERY_ACTION) + 1))
    assert loaded.table == live(EVERY_ACTION)
    assert loaded.table.caster == "Ben"
    assert loaded.table.player("Cat").bankroll == 53  # 3/2 on 2 from Ann
    # what is stored is the JSON form of each action, one per entry
    rows = sqlite3.connect(db).execute("SELECT data FROM hazard_entries ORDER BY seq").fetchall()
    assert [json.loads(row[0]) for row in rows] == [action_to_json(a) for a in EVERY_ACTION]


def test_corrections_round_trip_through_the_record(store: GameStore) -> None:
    game = new_game(store, EVERY_ACTION[:3])
    store.append(game, Correction(2))
    store.append(game, Correction(3, Sit("Cal", Fraction(5), None)))
    loaded = store.load(game)
    assert [entry.item for entry in loaded.entries][3:] == [
        Correction(2, None),
        Correction(3, Sit("Cal", Fraction(5), None)),
    ]
    assert [p.name for p in loaded.table.players] == ["Ann", "Cal"]


def test_the_setup_is_stored_with_the_game(store: GameStore) -> None:
    ecws = find_ruleset("ecws-1674")
    game = store.create(
        ruleset=ecws,
        paytable=find_paytable("true-odds"),
        stakes=StakeArrangement.ALL_AGAINST_CASTER,
        dice="typed",
        label="club night",
    )
    info = store.load(game).info
    assert (info.id, info.label, info.dice, info.seed) == (game, "club night", "typed", None)
    assert info.ruleset == ecws
    assert info.paytable == find_paytable("true-odds")
    assert info.stakes is StakeArrangement.ALL_AGAINST_CASTER
    assert store.load(game).table == new_table(
        ecws, find_paytable("true-odds"), StakeArrangement.ALL_AGAINST_CASTER
    )


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rulesets())
def test_any_valid_ruleset_round_trips_through_the_record(ruleset: Ruleset) -> None:
    store = GameStore.open("sqlite://")
    paytable = find_paytable("true-odds")
    game = store.create(ruleset=ruleset, paytable=paytable, stakes=ruleset.stakes, dice="secure")
    loaded = store.load(game)
    assert loaded.info.ruleset == ruleset
    assert loaded.table == new_table(ruleset, paytable)
    store.close()


def test_games_are_listed_newest_first(store: GameStore) -> None:
    first = new_game(store, EVERY_ACTION[:2])
    second = store.create(
        ruleset=find_ruleset("craps"),
        paytable=find_paytable("even"),
        stakes=StakeArrangement.BANK,
        dice="secure",
    )
    listed = store.games()
    assert [(g[0], g[2], g[3], g[4]) for g in listed] == [
        (second, "", "craps", 0),
        (first, "test", "wikipedia", 2),
    ]


def test_every_entry_is_committed_when_it_is_written(db: Path) -> None:
    writer = GameStore.open(str(db))
    game = new_game(writer, EVERY_ACTION[:5])
    reader = GameStore.open(f"sqlite:///{db}")  # a second connection, as after a crash
    assert [entry.item for entry in reader.load(game).entries] == EVERY_ACTION[:5]
    writer.append(game, EVERY_ACTION[5])
    assert len(reader.load(game).entries) == 6
    writer.close()
    reader.close()


def test_an_unknown_game_is_refused(store: GameStore) -> None:
    with pytest.raises(IllegalError, match=r"illegal game 42: the record at .* has no such game"):
        store.load(42)


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


# --- corrections ------------------------------------------------------------------------------------------


def entries(*items: TableAction | Correction) -> list[Entry]:
    return [Entry(seq, "now", item) for seq, item in enumerate(items, start=1)]


def test_effective_actions_apply_voids_and_replacements() -> None:
    a, b, c = Sit("A", Fraction(1)), Sit("B", Fraction(2)), Sit("C", Fraction(3))
    d = Sit("D", Fraction(4))
    assert effective_actions(entries(a, b, c)) == [(1, a), (2, b), (3, c)]
    assert effective_actions(entries(a, b, Correction(1), c)) == [(2, b), (4, c)]
    assert effective_actions(entries(a, b, Correction(2, d))) == [(1, a), (2, d)]
    # a later correction of the same entry stands
    assert effective_actions(entries(a, b, Correction(2, d), Correction(2, c))) == [(1, a), (2, c)]
    assert effective_actions(entries(a, b, Correction(2, d), Correction(2))) == [(1, a)]


@pytest.mark.parametrize(
    "items",
    [
        (Sit("A", Fraction(1)), Correction(1), Correction(2)),  # a correction of a correction
        (Sit("A", Fraction(1)), Correction(3), Sit("B", Fraction(1))),  # of a later entry
        (Sit("A", Fraction(1)), Correction(2)),  # of itself
        (Sit("A", Fraction(1)), Correction(9)),  # of nothing
    ],
    ids=["correction", "later", "itself", "missing"],
)
def test_a_correction_must_name_an_earlier_action(items: tuple[TableAction | Correction, ...]) -> None:
    with pytest.raises(
        InvalidError, match=r"invalid correction in entry \d: entry \d is not an earlier action"
    ):
        effective_actions(entries(*items))


def test_replay_tags_each_event_with_its_entry() -> None:
    info = GameInfo(1, "now", "", WIKIPEDIA, WIKI_PAYS, StakeArrangement.BANK, "typed", None)
    game = replay(info, entries(Sit("A", Fraction(10)), Sit("B", Fraction(10)), Call(7), t(7)))
    assert [seq for seq, _ in game.events] == [1, 1, 2, 3, 4, 4]
    assert str(game.events[-2][1]) == "7 with a main of 7 is a nick: the caster wins"


def test_a_correction_changes_the_replayed_game_and_deletes_nothing(store: GameStore) -> None:
    actions: list[TableAction] = [
        Sit("Ann", Fraction(100)),
        Sit("Ben", Fraction(100)),
        Stake("Ben", Fraction(10)),
        Call(7),
        t(2),
    ]
    game = new_game(store, actions)
    assert store.load(game).table.player("Ann").bankroll == 90
    # the dice showed 4-3, a nick; the referee typed 1-1 by mistake
    store.append(game, Correction(5, Throw(Roll(4, 3))))
    loaded = store.load(game)
    assert loaded.table.player("Ann").bankroll == 110
    assert [entry.item for entry in loaded.entries][:5] == actions  # the mistaken entry is still there
    assert len(loaded.entries) == 6
    # void the stake: the round then moves no money
    store.append(game, Correction(3))
    loaded = store.load(game)
    assert loaded.table.player("Ann").bankroll == 100
    assert len(loaded.entries) == 7
    assert loaded.table == live([actions[0], actions[1], Call(7), Throw(Roll(4, 3))])


# --- corrupt and foreign records ----------------------------------------------------------------------------


def two_entry_game(store: GameStore) -> int:
    return new_game(store, [Sit("Ann", Fraction(10)), Sit("Ben", Fraction(10))])


@pytest.mark.parametrize(
    ("data", "fragments"),
    [
        ("{not json", ("is corrupt: entry 2:", "Expecting property name")),
        ("", ("is corrupt: entry 2:",)),
        ("[1, 2]", ("is corrupt: entry 2:", "expected a JSON object with a 'type'")),
        ('{"type": "dance"}', ("is corrupt: entry 2:", "invalid action type 'dance'")),
        ('{"type": "sit", "name": "Ben"}', ("is corrupt: entry 2:", "missing field")),
        ('{"type": "throw", "roll": "9-9"}', ("is corrupt: entry 2:", "invalid roll '9-9'")),
        ('{"type": "correction", "target": 0, "replacement": null}', ("invalid correction target 0",)),
        (
            '{"type": "correction", "target": 1}',
            ("invalid correction", "expected a target and a replacement"),
        ),
        ('{"type": "correction", "target": 1, "replacement": {"type": "x"}}', ("invalid action type 'x'",)),
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
    store.append(game, t(7))  # nobody has called a main
    store.append(game, Call(7))
    refused_whole(store, game, f"record of game {game} does not replay: entry 3: illegal throw 1-6")


def test_an_illegal_correction_in_the_record_is_refused(store: GameStore) -> None:
    game = two_entry_game(store)
    store.append(game, Correction(1, Call(7)))  # no caster without Ann
    refused_whole(store, game, "does not replay: entry 1:")
    game = two_entry_game(store)
    store.append(game, Correction(3))
    refused_whole(store, game, "does not replay", "entry 3 is not an earlier action")


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
        ("format", "hazard-game/2", ("in format 'hazard-game/2', expected 'hazard-game/1'",)),
        ("format", "chess-pgn", ("in format 'chess-pgn'",)),
        ("stakes", "winner-takes-all", ("is corrupt", "'winner-takes-all'")),
        ("ruleset", "id = [", ("is corrupt", "not valid TOML")),
        ("paytable", 'id = "x"', ("is corrupt",)),
    ],
)
def test_a_foreign_or_corrupt_game_header_is_refused(
    store: GameStore, db: Path, column: str, value: str, fragments: tuple[str, ...]
) -> None:
    game = two_entry_game(store)
    sql(db, f"UPDATE hazard_games SET {column} = ?", value)
    refused_whole(store, game, f"record of game {game}", *fragments)
    assert FORMAT == "hazard-game/1"


def test_a_sqlite_file_of_something_else_is_refused_and_left_alone(db: Path) -> None:
    sql(db, "CREATE TABLE people (name TEXT)")
    with pytest.raises(InvalidError) as caught:
        GameStore.open(str(db))
    assert type(caught.value) is InvalidError
    assert f"cannot open the game record 'sqlite:///{db}'" in str(caught.value)
    assert "database of something else (tables: people)" in str(caught.value)
    tables = sqlite3.connect(db).execute("SELECT name FROM sqlite_master WHERE type = 'table'").fetchall()
    assert tables == [("people",)]


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
        store.append(game, Call(7))
    with pytest.raises(InvalidError, match="cannot read the game record"):
        store.load(game)


def test_an_empty_sqlite_file_becomes_a_record(db: Path) -> None:
    sqlite3.connect(db).close()
    store = GameStore.open(str(db))
    assert store.games() == []
    store.close()


def test_a_front_ends_settings_are_kept_with_the_game(store: GameStore, db: Path) -> None:
    game = store.create(
        ruleset=WIKIPEDIA,
        paytable=find_paytable("even"),
        stakes=StakeArrangement.BANK,
        dice="secure",
        settings={"bot_unit": "5/2"},
    )
    assert store.load(game).info.settings == {"bot_unit": "5/2"}
    sql(db, "UPDATE hazard_games SET settings = ? WHERE id = ?", '["not", "a table"]', game)
    refused_whole(store, game, f"record of game {game} is corrupt", "settings")


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
            dice="seeded",
            seed=8,
            settings={"bot_unit": "2/1"},
            brains=BotBrains(unit=Fraction(2)),
        )
        for name, bot in (("Cas", "setter"), ("Sam", "setter"), ("Bea", "bystander")):
            session.play(Sit(name, Fraction(50), bot))
        for _ in range(40):
            session.bots_act()
            session.throw()
        loaded = store.load(session.game)
        assert loaded.table == session.table
        assert loaded.info.settings == {"bot_unit": "2/1"}
        assert len(loaded.entries) == len(session.entries)
    finally:
        store.close()
