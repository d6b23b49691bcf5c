"""Games written by the previous release (format ``hazard-game/1``, before entries named their actors): the
legacy record reads as it is, replays to the same table, is sealed when first written, and is resumed only as
its own kind."""

from __future__ import annotations

import hashlib
import json
import re
import shutil
import sqlite3
from collections.abc import Iterator
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from tests.paths import LEGACY
from tests.records import reseal, sql
from tests.table.live.game_helpers import ANN, BOB, WIKI_PAYS, WIKIPEDIA

from hazard.core.errors import IllegalError, InvalidError
from hazard.core.rules import StakeArrangement
from hazard.table.fair.dice import DiceKind
from hazard.table.live.session import Session
from hazard.table.live.timeline import GameKind, entry_from_json, entry_text, game_json, load_game
from hazard.table.record.engine import Access
from hazard.table.record.store import GameStore
from hazard.table.rules.actions import REFEREE, Roll, Sit, Stake, action_to_json
from hazard.table.rules.bots import BotBrains
from hazard.table.rules.events import Thrown
from hazard.table.rules.money import MoneyStyle, format_money

# --- games written by the previous release ------------------------------------------------------------------

LEGACY_GAMES = (1, 2, 3)
_LEGACY_DIGEST = hashlib.sha256((LEGACY / "games.db").read_bytes()).hexdigest()


@pytest.fixture
def legacy(tmp_path: Path) -> Iterator[GameStore]:
    """The previous release's record, copied: the fixture itself is never opened for writing."""
    db = tmp_path / "games.db"
    shutil.copyfile(LEGACY / "games.db", db)
    store = GameStore.open(str(db))
    yield store
    store.close()
    assert hashlib.sha256((LEGACY / "games.db").read_bytes()).hexdigest() == _LEGACY_DIGEST


def exported(game: int) -> dict[str, Any]:
    """What the previous release's ``hazard record export N`` printed for game ``game``."""
    data: dict[str, Any] = json.loads((LEGACY / f"game-{game}.json").read_text())
    return data


_NUMBER = re.compile(r"\d+(?:\.\d+|/\d+)?")


def same_in_substance(old: str, new: str) -> bool:
    """Whether an event's text says what it said before, sums apart from how they are written.

    The previous release wrote a sum exactly (``5``, ``5/3``); now every sum has two decimals (``5.00``,
    ``1.67``). Every other word and number is the same.
    """
    if _NUMBER.sub("#", old) != _NUMBER.sub("#", new):
        return False
    for was, now in zip(_NUMBER.findall(old), _NUMBER.findall(new), strict=True):
        if "." in now:  # a sum, in the new decimal style
            if format_money(Fraction(was), MoneyStyle.DECIMAL) != now:
                return False
        elif was != now:
            return False
    return True


def test_same_in_substance() -> None:
    assert same_in_substance(
        "the caster Ann wins 5 (Bob pays Ann 5)", "the caster Ann wins 5.00 (Bob pays Ann 5.00)"
    )
    assert same_in_substance("Ann wins 5/3", "Ann wins 1.67")
    assert not same_in_substance("Ann wins 5", "Ann wins 6.00")
    assert not same_in_substance("Ann wins 5", "Bob wins 5.00")
    assert not same_in_substance("main 7", "main 8")


def test_the_legacy_record_holds_three_games_of_the_old_format(legacy: GameStore) -> None:
    assert [(g.id, g.kind, g.ruleset, g.entries) for g in legacy.games()] == [
        (3, GameKind.PLAY, "sca-isenfir", 28),
        (2, GameKind.PLAY, "wikipedia", 18),
        (1, GameKind.REFEREE, "wikipedia", 27),
    ]
    for game in LEGACY_GAMES:
        assert load_game(legacy, game).info.format == "hazard-game/1"


@pytest.mark.parametrize("game", LEGACY_GAMES)
def test_a_legacy_game_replays_to_the_same_table(legacy: GameStore, game: int) -> None:
    """Every player's bankroll and free money, the stakes, the side bets, the caster, the round and the counts
    are those the previous release exported."""
    old, loaded = exported(game), load_game(legacy, game)
    new = game_json(loaded)
    assert {k: new["game"][k] for k in old["game"]} == old["game"]  # the setup, as it was exported
    assert (new["game"]["format"], loaded.info.format) == ("hazard-game/1", "hazard-game/1")
    before, now = old["state"], new["state"]
    for key in ("caster", "phase", "main", "chance", "rounds_played", "throws", "throws_this_round"):
        assert now[key] == before[key], key
    assert now["losses_in_row"] == before["losses_in_row"]

    def players(state: dict[str, Any]) -> list[tuple[object, ...]]:
        return [(p["name"], p["bot"], Fraction(p["bankroll"]), Fraction(p["free"])) for p in state["players"]]

    def stakes(state: dict[str, Any]) -> list[tuple[object, ...]]:
        return [(s["player"], Fraction(s["amount"])) for s in state["stakes"]]

    def bets(state: dict[str, Any]) -> list[tuple[object, ...]]:
        return [
            (
                b["number"],
                b["backer"],
                b["layer"],
                b["proposition"],
                Fraction(b["amount"]),
                Fraction(b["odds"]),
            )
            for b in state["side_bets"]
        ]

    assert players(now) == players(before)
    assert stakes(now) == stakes(before)
    assert bets(now) == bets(before)
    assert [(p.name, p.bankroll, loaded.table.available(p.name)) for p in loaded.table.players] == [
        (name, bankroll, free) for name, _, bankroll, free in players(before)
    ]


@pytest.mark.parametrize("game", LEGACY_GAMES)
def test_every_legacy_entry_stands_and_does_as_it_did(legacy: GameStore, game: int) -> None:
    """Each entry's item, text, standing and events are the exported ones, except in these ways.

    - A throw now has a first event of its own, what the dice showed (``Ann throws 3-4``).
    - An event's own text (``str(event)``) writes sums with two decimals (``Bob stakes 5.00 against Ann``; it
      was ``5``); what is the same in substance is compared: the words, and each sum read back.
    - Every entry names its actor: in a legacy game, the referee, who entered everything then.
    """
    old, loaded = exported(game), load_game(legacy, game)
    new = game_json(loaded)
    assert len(new["entries"]) == len(old["entries"]) == len(loaded.entries)
    for was, now, entry in zip(old["entries"], new["entries"], loaded.entries, strict=True):
        where = f"game {game} entry {was['seq']}"
        assert (entry.seq, entry.at, entry_text(entry), now["standing"]) == (
            was["seq"],
            was["at"],
            was["text"],
            was["standing"],
        ), where
        assert (now["seq"], now["at"], now["text"]) == (entry.seq, entry.at, was["text"]), where
        assert entry.actor == REFEREE, where
        assert now["actor"] == {"kind": "referee"}, where
        assert entry_from_json(was["entry"]) == (REFEREE, entry.item), where
        events = loaded.events_of(entry.seq)
        exported_now = list(now["events"])
        if isinstance(entry.item, Roll) and now["standing"] != "void":
            thrown = events[0]
            assert isinstance(thrown, Thrown), where
            assert (thrown.caster, thrown.roll) == (now["for"], entry.item), where
            assert str(thrown) == f"{now['for']} throws {was['entry']['roll']}", where
            assert exported_now.pop(0) == str(thrown), where
            events = events[1:]
        assert len(events) == len(exported_now) == len(was["events"]), (where, events, was["events"])
        for before, event, after in zip(was["events"], events, exported_now, strict=True):
            assert same_in_substance(before, str(event)), (where, before, str(event))
            assert same_in_substance(before, after), (where, before, after)


def test_a_legacy_record_is_read_as_it_is_and_sealed_when_first_written(tmp_path: Path) -> None:
    db = tmp_path / "games.db"
    shutil.copyfile(LEGACY / "games.db", db)
    reader = GameStore.open(str(db), access=Access.READ)
    as_read = [load_game(reader, game) for game in LEGACY_GAMES]
    reader.close()
    assert hashlib.sha256(db.read_bytes()).hexdigest() == _LEGACY_DIGEST  # reading wrote nothing
    writer = GameStore.open(str(db))  # opened to play on: sealed, each game as it was
    assert [load_game(writer, game).table for game in LEGACY_GAMES] == [game.table for game in as_read]
    assert [load_game(writer, game).entries for game in LEGACY_GAMES] == [game.entries for game in as_read]
    writer.close()
    sql(db, "UPDATE hazard_entries SET at = '2020-01-01T00:00:00+00:00' WHERE game = 2 AND seq = 7")
    with pytest.raises(InvalidError, match="record of game 2 is corrupt: entry 7 does not follow"):
        load_game(GameStore.open(str(db), access=Access.READ), 2)


def test_a_legacy_game_is_resumed_only_as_its_own_kind(legacy: GameStore) -> None:
    with pytest.raises(
        IllegalError, match="illegal resume of game 1 as a hazard play game: it is a hazard referee"
    ):
        Session.resume(legacy, 1, kind=GameKind.PLAY)
    assert Session.resume(legacy, None, kind=GameKind.PLAY).game == 3
    assert Session.resume(legacy, None, kind=GameKind.REFEREE).game == 1


def carry_on(session: Session) -> None:
    """A few more actions in a resumed legacy game, each by the actor who takes it now."""
    table = session.table
    if session.info.kind is GameKind.REFEREE:  # game 1: Bob holds the dice, between rounds
        assert table.caster == "Bob"
        session.act("stake 2", by=ANN)
        session.act("call 7", by=BOB)
        session.act("3-4", by=REFEREE)  # the referee types the real dice
        session.correct()  # and undoes the throw
        session.act("4 4", by=BOB)
        return
    for _ in range(12):  # games 2 and 3: the person Ann and the bots
        session.bots_act(call=False)
        turn = session.table.turn
        if turn.caster == "Ann" and turn.need.value == "call":
            session.act("call 7", by=ANN)
        session.act("throw", by=ANN)


@pytest.mark.parametrize("game", LEGACY_GAMES)
def test_a_legacy_game_can_be_resumed_appended_to_and_loaded_again(
    legacy: GameStore, game: int, tmp_path: Path
) -> None:
    kind = load_game(legacy, game).info.kind
    settings_ = load_game(legacy, game).info.settings
    brains = BotBrains(unit=Fraction(settings_.get("bot_unit", "1")))
    session = Session.resume(legacy, game, kind=kind, brains=brains)
    before = len(session.entries)
    assert session.table == load_game(legacy, game).table
    carry_on(session)
    assert len(session.entries) > before
    again = load_game(legacy, game)
    assert again.table == session.table
    assert again.entries == tuple(session.entries)
    assert again.info.format == "hazard-game/1"  # the game keeps its format; its new entries name actors
    added = again.entries[before:]
    assert all(entry.actor == REFEREE for entry in again.entries[:before])
    assert any(not entry.actor.is_referee for entry in added)
    connection = sqlite3.connect(tmp_path / "games.db")
    data = [
        json.loads(row[0])
        for row in connection.execute("SELECT data FROM hazard_entries WHERE game = ? ORDER BY seq", (game,))
    ]
    connection.close()
    assert all("actor" not in item for item in data[:before])
    assert all("actor" in item for item in data[before:])
    assert [entry_from_json(item) for item in data[before:]] == [(e.actor, e.item) for e in added]
    # and a game loaded from the old record plays on from exactly where it was
    resumed = Session.resume(legacy, game, kind=kind, brains=brains)
    assert resumed.table == session.table


def test_a_new_format_entry_without_an_actor_is_refused_as_corrupt(legacy: GameStore, tmp_path: Path) -> None:
    info = legacy.create(
        ruleset=WIKIPEDIA,
        paytable=WIKI_PAYS,
        stakes=StakeArrangement.BANK,
        dice=DiceKind.TYPED,
        kind=GameKind.REFEREE,
    )
    for actor, action in (
        (ANN, Sit("Ann", Fraction(10))),
        (BOB, Sit("Bob", Fraction(10))),
        (BOB, Stake("Bob", Fraction(1))),
    ):
        legacy.append(info.id, actor, action)
    connection = sqlite3.connect(tmp_path / "games.db")
    with connection:
        connection.execute(
            "UPDATE hazard_entries SET data = ? WHERE game = ? AND seq = 2",
            (json.dumps(action_to_json(Sit("Bob", Fraction(10)))), info.id),
        )
    connection.close()
    with pytest.raises(InvalidError, match=f"record of game {info.id} is corrupt: entry 2 does not follow"):
        load_game(legacy, info.id)
    reseal(tmp_path / "games.db")
    with pytest.raises(InvalidError) as caught:
        load_game(legacy, info.id)
    assert str(caught.value) == f"record of game {info.id} is corrupt: entry 2: it names no actor"
    for game in LEGACY_GAMES:  # the old games, in the same record, still load
        load_game(legacy, game)


def test_a_legacy_entry_in_any_form_other_than_the_two_is_refused(legacy: GameStore, tmp_path: Path) -> None:
    connection = sqlite3.connect(tmp_path / "games.db")
    with connection:
        connection.execute(
            "UPDATE hazard_entries SET data = ? WHERE game = 2 AND seq = 5",
            (json.dumps({"actor": {"kind": "bot"}, "action": {"type": "pass-dice"}}),),
        )
    connection.close()
    reseal(tmp_path / "games.db")
    with pytest.raises(InvalidError, match=r"record of game 2 is corrupt: entry 5: invalid actor"):
        load_game(legacy, 2)
    load_game(legacy, 1)
