"""The game store: each entry and its actor round-trip, each write is committed, a bad record is refused.

What a game's record means (corrections, the replay, the JSON form) is :mod:`hazard.table.live.timeline`'s,
tested in ``test_table_game.py``; this is the database under it.
"""

from __future__ import annotations

import json
import os
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from tests.records import reseal, rows, sql
from tests.strategies import rulesets
from tests.table.record.record_helpers import (
    ANN,
    EVERY_ACTION,
    WIKI_PAYS,
    WIKIPEDIA,
    live,
    new_game,
    two_entry_game,
)

from hazard.core.dice import Roll
from hazard.core.errors import HazardError, IllegalError, InvalidError
from hazard.core.rules import Ruleset, StakeArrangement
from hazard.core.rulesets import find_paytable, find_ruleset
from hazard.table.fair.dice import DiceKind
from hazard.table.live.timeline import FORMAT, Correction, GameKind, entry_to_json, load_game
from hazard.table.record.engine import Access, default_database_url
from hazard.table.record.load import GameSummary
from hazard.table.record.store import GameStore
from hazard.table.rules.actions import (
    REFEREE,
    Call,
    CancelBet,
    OfferBet,
    PassDice,
    Sit,
    Stake,
    TakeBet,
    Withdraw,
)
from hazard.table.rules.state import new_table

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
