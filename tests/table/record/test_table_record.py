"""The game store: each entry and its actor round-trip, each write is committed, a bad record is refused.

What a game's record means (corrections, the replay, the JSON form) is :mod:`hazard.table.live.timeline`'s,
tested in ``test_table_game.py``; this is the database under it.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import sqlite3
import time
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from tests.paths import LEGACY
from tests.records import reseal, rows, sql
from tests.strategies import rulesets
from tests.strategies import throw_of as t

from hazard.core.dice import Roll
from hazard.core.errors import HazardError, IllegalError, InvalidError
from hazard.core.rules import Ruleset, StakeArrangement
from hazard.core.rulesets import find_paytable, find_ruleset
from hazard.table import TableSpec
from hazard.table.fair.dice import DiceKind
from hazard.table.live.timeline import (
    FORMAT,
    FORMATS,
    Correction,
    GameKind,
    ReplayedGame,
    entry_to_json,
    game_json,
    load_game,
)
from hazard.table.record.engine import Access, default_database_url
from hazard.table.record.keys import SeatKey
from hazard.table.record.load import GameSummary
from hazard.table.record.schema import MAX_DATA
from hazard.table.record.store import GameStore, StaleError
from hazard.table.rules.actions import (
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
from hazard.table.rules.closing import Close
from hazard.table.rules.state import Table, new_table
from hazard.table.rules.transitions import apply_action

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
    """The table the moves lead to, played straight through the pure rules as entries 1, 2, ... (a sit's entry
    is its player's seating)."""
    table = new_table(ruleset, WIKI_PAYS if ruleset is WIKIPEDIA else find_paytable("even"))
    for seq, (actor, action) in enumerate(moves, start=1):
        table, _ = apply_action(table, action, by=actor, seq=seq)
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


def refused_whole(store: GameStore, game: int, *fragments: str) -> None:
    with pytest.raises(InvalidError) as caught:
        load_game(store, game)
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
    loaded = load_game(store, game)
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
    assert load_game(store, game).entries == (entry,)
    assert store.append(game, REFEREE, Correction(1)).seq == 2


def test_corrections_round_trip_through_the_record(store: GameStore) -> None:
    game = new_game(store, EVERY_ACTION[:3])
    store.append(game, REFEREE, Correction(2))
    store.append(game, REFEREE, Correction(3, Sit("Cal", Fraction(5), None)))
    loaded = load_game(store, game)
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
    info = load_game(store, created.id).info
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
    assert load_game(store, created.id).table == new_table(
        ecws, find_paytable("true-odds"), StakeArrangement.ALL_AGAINST_CASTER
    )


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow], derandomize=True)
@given(rulesets())
def test_any_valid_ruleset_round_trips_through_the_record(ruleset: Ruleset) -> None:
    store = GameStore.open("sqlite://", in_memory=True)
    paytable = find_paytable("true-odds")
    info = store.create(
        ruleset=ruleset, paytable=paytable, stakes=ruleset.stakes, dice=DiceKind.SECURE, kind=GameKind.PLAY
    )
    loaded = load_game(store, info.id)
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


def test_a_games_kind_has_a_column_of_its_own(store: GameStore, db: Path) -> None:
    game = store.create(
        ruleset=WIKIPEDIA,
        paytable=find_paytable("even"),
        stakes=StakeArrangement.BANK,
        dice=DiceKind.SECURE,
        kind=GameKind.REFEREE,  # a kind need not follow from the dice
        settings={"bot_unit": "5/2", "kind": "a front end's own"},
    )
    assert load_game(store, game.id).info.kind is GameKind.REFEREE
    assert load_game(store, game.id).info.settings == {"bot_unit": "5/2", "kind": "a front end's own"}
    assert rows(db, f"SELECT kind FROM hazard_games WHERE id = {game.id}") == [("referee",)]


def test_every_entry_is_committed_when_it_is_written(db: Path) -> None:
    writer = GameStore.open(str(db))
    game = new_game(writer, EVERY_ACTION[:5])
    reader = GameStore.open(f"sqlite:///{db}")  # a second connection, as after a crash
    assert [(e.actor, e.item) for e in load_game(reader, game).entries] == EVERY_ACTION[:5]
    writer.append(game, *EVERY_ACTION[5])
    assert len(load_game(reader, game).entries) == 6
    writer.close()
    reader.close()


def test_an_unknown_game_is_refused(store: GameStore) -> None:
    with pytest.raises(IllegalError, match=r"illegal game 42: the record at .* has no such game"):
        load_game(store, 42)


def test_an_append_to_an_unknown_game_is_refused_and_writes_nothing(store: GameStore, db: Path) -> None:
    """An entry for a game that is not in the record must not wait there for the next game of that number."""
    with pytest.raises(HazardError, match=r"game 1\b"):
        store.append(1, ANN, Sit("Ann", Fraction(5)))
    assert rows(db, "SELECT game, seq FROM hazard_entries") == []
    game = new_game(store)
    assert load_game(store, game).entries == ()


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


@pytest.mark.parametrize(
    "content", [b"x", b"\n", b"my notes, not a database", b"SQLite format 2\x00" + bytes(200), bytes(4096)]
)
def test_a_file_that_is_not_a_database_is_refused_naming_it_and_left_alone(
    tmp_path: Path, content: bytes
) -> None:
    path = tmp_path / "notes.db"
    path.write_bytes(content)
    for access in Access:
        with pytest.raises(InvalidError) as caught:
            GameStore.open(str(path), access=access)
        assert str(caught.value).startswith(
            f"cannot open the game record '{path}': it is not an SQLite database (it does not begin as one)"
        )
    assert path.read_bytes() == content
    assert os.listdir(tmp_path) == ["notes.db"]  # no journal, nothing beside it


def test_resuming_from_an_empty_file_writes_nothing(tmp_path: Path) -> None:
    path = tmp_path / "empty.db"
    path.touch()
    store = GameStore.open(str(path), access=Access.WRITE)
    assert store.games() == []
    with pytest.raises(IllegalError, match="has no such game"):
        load_game(store, 1)
    store.close()
    assert path.stat().st_size == 0
    GameStore.open(str(path)).close()  # a game started there makes the record, as ever
    assert path.stat().st_size > 0


def test_opening_for_reading_refuses_a_missing_file_and_makes_none(db: Path) -> None:
    for access in (Access.READ, Access.WRITE):
        with pytest.raises(InvalidError, match=f"cannot open the game record '{db}': no such file"):
            GameStore.open(str(db), access=access)
        with pytest.raises(InvalidError, match="no such file"):
            GameStore.open(f"sqlite:///{db}", access=access)  # the URL form is no way round it
    assert not db.exists()
    GameStore.open(str(db)).close()
    reader = GameStore.open(str(db), access=Access.READ)
    assert reader.games() == []
    reader.close()


@pytest.mark.parametrize("content", [b"", b"SQLite format 3\x00" + bytes(84)], ids=["empty", "truncated"])
def test_reading_writes_nothing_not_even_the_tables(db: Path, content: bytes) -> None:
    db.write_bytes(content)
    if content:
        with pytest.raises(InvalidError, match="cannot open the game record"):
            GameStore.open(str(db), access=Access.READ)
    else:
        reader = GameStore.open(str(db), access=Access.READ)
        assert reader.games() == []
        with pytest.raises(IllegalError, match="has no such game"):
            load_game(reader, 1)
        with pytest.raises(InvalidError, match="opened for reading"):
            reader.append(1, ANN, Sit("Ann", Fraction(5)))
        reader.close()
    assert db.read_bytes() == content


def test_a_reader_never_writes_to_a_record(store: GameStore, db: Path) -> None:
    game = two_entry_game(store)
    before = db.read_bytes()
    reader = GameStore.open(str(db), access=Access.READ)
    assert len(load_game(reader, game).entries) == 2
    with pytest.raises(InvalidError, match="opened for reading"):
        reader.append(game, ANN, Call(7), seq=3)
    reader.close()
    assert db.read_bytes() == before


def test_a_record_missing_its_entries_table_is_refused_not_shown_empty(store: GameStore, db: Path) -> None:
    two_entry_game(store)
    sql(db, "DROP TABLE hazard_entries")
    for access in Access:
        with pytest.raises(InvalidError, match="its table 'hazard_entries' is missing"):
            GameStore.open(str(db), access=access)


@pytest.mark.parametrize(
    ("url", "fragment"),
    [
        ("sqlite://", "an in-memory database keeps nothing"),
        ("sqlite:///:memory:", "an in-memory database keeps nothing"),
        ("file:x.db?mode=ro", "an SQLite 'file:' URI is neither"),
        ("x" * 5000, "expected a path or URL of at most 4096 characters"),
        ("x" * 300, "name too long"),
        ("postgresql+nosuchdriver://h/db", "cannot open the game record"),
        ("://", "cannot open the game record"),
    ],
)
def test_a_record_that_cannot_keep_games_is_refused(
    url: str, fragment: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    for access in Access:
        with pytest.raises(InvalidError) as caught:
            GameStore.open(url, access=access)
        assert "cannot open the game record" in str(caught.value)
        assert fragment.lower() in str(caught.value).lower() or access is not Access.CREATE
        assert len(str(caught.value)) < 700
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize(
    "number", [0, -1, 2**31, 2**63, 10**5000], ids=["0", "-1", "2**31", "2**63", "10**5000"]
)
def test_a_game_number_no_record_can_hold_is_refused_before_the_database(
    store: GameStore, number: int
) -> None:
    with pytest.raises(InvalidError, match=r"invalid game .*: expected a game number from 1 to 2147483647$"):
        load_game(store, number)


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
    sql(db, "UPDATE hazard_games SET entries = 3")
    refused_whole(store, game, "entry 4 was put in after the game's last entry, 3")


@pytest.mark.parametrize("count", [-5, -1])
def test_a_count_of_entries_below_zero_is_refused_as_such(store: GameStore, db: Path, count: int) -> None:
    game = new_game(store, EVERY_ACTION[:3])
    sql(db, "UPDATE hazard_games SET entries = ?", count)
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


# --- fuzzing the stored rows -------------------------------------------------------------------------------

_HOSTILE = st.one_of(
    st.text(max_size=40),
    st.integers(min_value=-(2**63), max_value=2**63 - 1),
    st.binary(max_size=20),
    st.none(),
    st.sampled_from(
        [
            "[" * 5000,
            '{"actor": ' * 3000,
            "9" * 5000,
            '{"kind": "referee"}',
            json.dumps(
                {
                    "actor": {"kind": "referee"},
                    "action": {"type": "sit", "name": "Ned", "bankroll": "1e999999999", "bot": None},
                }
            ),
            json.dumps(
                {
                    "actor": {"kind": "referee"},
                    "action": {"type": "sit", "name": "Ned", "bankroll": "9" * 40 + "/1", "bot": None},
                }
            ),
            json.dumps(
                {
                    "actor": {"kind": "referee"},
                    "action": {"type": "stake", "player": "Ben", "amount": "1/" + "7" * 40, "consent": False},
                }
            ),
            json.dumps({"actor": {"kind": "player", "name": "\x1b[31mBen"}, "action": {"type": "pass-dice"}}),
            'id = "x"\npaytable = "/dev/zero"\n',
            "a = " + "[" * 1000 + "]" * 1000,
            "",
        ]
    ),
)


@st.composite
def damages(draw: st.DrawFn) -> tuple[str, ...]:
    """One way a record's rows might be damaged: a field replaced, a character flipped, a row cut or added."""
    kind = draw(st.sampled_from(["entry field", "game field", "flip", "delete", "duplicate"]))
    if kind == "entry field":
        return (kind, draw(st.sampled_from(["at", "data", "digest", "seq"])), draw(st.integers(1, 13)))
    if kind == "game field":
        columns = ["format", "created", "label", "kind", "ruleset", "paytable", "stakes", "dice", "seed"]
        return (kind, draw(st.sampled_from([*columns, "settings", "entries", "head"])), 0)
    return (kind, "", draw(st.integers(1, 13)))


@pytest.mark.slow
@settings(
    max_examples=int(os.environ.get("HAZARD_FUZZ_EXAMPLES", "150")),
    derandomize=True,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(damage=damages(), value=_HOSTILE, resealed=st.booleans(), place=st.integers(0, 10_000))
def test_a_damaged_record_is_refused_with_one_clear_error_or_read_as_it_was(
    tmp_path_factory: pytest.TempPathFactory,
    damage: tuple[str, str, int],
    value: object,
    resealed: bool,
    place: int,
) -> None:
    """Whatever is done to the stored rows, a load gives the game as it was written, or refuses it whole with
    one line naming what is wrong: never another error, never a game that differs."""
    folder = tmp_path_factory.mktemp("fuzz")
    db = folder / "games.db"
    game, whole = _fuzz_template(tmp_path_factory, db)
    kind, column, seq = damage
    try:
        if kind == "entry field":
            sql(db, f"UPDATE hazard_entries SET {column} = ? WHERE seq = ?", value, seq)
        elif kind == "game field":
            sql(db, f"UPDATE hazard_games SET {column} = ?", value)
        elif kind == "flip":
            (data,) = rows(db, f"SELECT data FROM hazard_entries WHERE seq = {seq}")[0]
            text = str(data)
            at = place % len(text)
            flipped = text[:at] + chr(ord(text[at]) ^ (1 + place % 7)) + text[at + 1 :]
            sql(db, "UPDATE hazard_entries SET data = ? WHERE seq = ?", flipped, seq)
        elif kind == "delete":
            sql(db, "DELETE FROM hazard_entries WHERE seq = ?", seq)
        else:
            sql(
                db,
                "INSERT INTO hazard_entries (game, seq, at, data, digest) "
                "SELECT game, 100, at, data, digest FROM hazard_entries WHERE seq = ?",
                seq,
            )
    except sqlite3.IntegrityError:  # the database itself refused the damage (a NULL where none may go)
        return
    if resealed:
        with contextlib.suppress(Exception):  # some damage (a text where a number goes) cannot be resealed
            reseal(db)
    for access in (Access.CREATE, Access.READ):
        try:
            reader = GameStore.open(str(db), access=access)
            reader.games()
            loaded = load_game(reader, game)
        except HazardError as error:
            message = str(error)
            assert "\n" not in message, message
            assert len(message) < 1000, message
            assert "Traceback" not in message
        else:
            if not resealed:
                assert loaded.table == whole.table
                assert [(e.actor, e.item) for e in loaded.entries] == [
                    (e.actor, e.item) for e in whole.entries
                ]
            reader.close()


_TEMPLATE: list[tuple[Path, int, ReplayedGame]] = []


def _fuzz_template(factory: pytest.TempPathFactory, db: Path) -> tuple[int, ReplayedGame]:
    """A copy at ``db`` of one record holding a game of every action, and that game as read back (written and
    read once, the file copied for each case: each copy is the same bytes, so it reads back the same)."""
    if not _TEMPLATE:
        template = factory.mktemp("template") / "games.db"
        store = GameStore.open(str(template))
        new_game(store, EVERY_ACTION)
        store.close()
        store = GameStore.open(str(template), access=Access.READ)
        (summary,) = store.games()
        _TEMPLATE.append((template, summary.id, load_game(store, summary.id)))
        store.close()
    template, game, whole = _TEMPLATE[0]
    shutil.copyfile(template, db)
    return game, whole


# --- a game carries everything its replay needs ------------------------------------------------------------

_OWN_RULESET = """\
id = "mine"
name = "Our club's rules"
paytable = "pay.toml"
stakes = "bank"
[source]
citation = "our club"
[main]
method = "called"
mains = [5, 6, 7, 8, 9]
[opening]
chances = [4, 5, 6, 7, 8, 9, 10]
[opening.5]
nicks = [5]
outs = [2, 3, 11, 12]
[opening.6]
nicks = [6, 12]
outs = [2, 3, 11]
[opening.7]
nicks = [7, 11]
outs = [2, 3, 12]
[opening.8]
nicks = [8, 12]
outs = [2, 3, 11]
[opening.9]
nicks = [9]
outs = [2, 3, 11, 12]
"""
_OWN_PAYTABLE = 'id = "ours"\nname = "Ours"\nnick = "3/2"\nchance = "2/1"\n'


def test_a_game_under_a_users_own_ruleset_reads_back_from_anywhere(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from hazard.core.rulesets import load_ruleset, paytable_for

    folder = tmp_path / "rules"
    folder.mkdir()
    (folder / "mine.toml").write_text(_OWN_RULESET)
    (folder / "pay.toml").write_text(_OWN_PAYTABLE)
    monkeypatch.chdir(folder)
    ruleset = load_ruleset("mine.toml")
    paytable = paytable_for(ruleset)
    assert paytable is not None
    assert paytable.nick == Fraction(3, 2)
    store = GameStore.open(str(tmp_path / "games.db"))
    info = store.create(
        ruleset=ruleset,
        paytable=paytable,
        stakes=StakeArrangement.BANK,
        dice=DiceKind.TYPED,
        kind=GameKind.REFEREE,
    )
    store.append(info.id, REFEREE, Sit("Ann", Fraction(10)))
    (folder / "pay.toml").write_text('id = "ours"\nname = "Ours"\nnick = "1/1"\n')  # changed ...
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    (folder / "pay.toml").unlink()  # ... then gone
    loaded = load_game(store, info.id)
    assert loaded.info.ruleset == ruleset
    assert loaded.info.paytable == paytable
    assert paytable_for(loaded.info.ruleset) == paytable


def test_a_stored_ruleset_naming_a_paytable_file_reads_no_file(store: GameStore, db: Path) -> None:
    """Records written before rulesets carried their paytable named its file; loading one reads no file (not
    even /dev/zero): the game's own paytable, which the record keeps, is the one meant."""
    game = two_entry_game(store)
    (text,) = rows(db, f"SELECT ruleset FROM hazard_games WHERE id = {game}")[0]
    assert "paytable = " in str(text)
    named = "\n".join(
        'paytable = "/dev/zero"' if line.startswith("paytable = ") else line
        for line in str(text).splitlines()
    )
    sql(db, "UPDATE hazard_games SET ruleset = ?", named)
    reseal(db)
    loaded = load_game(store, game)
    assert loaded.info.ruleset.paytable == WIKI_PAYS


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
