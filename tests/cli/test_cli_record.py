"""``hazard record list|show|export``: games read back from the record, and every record that is refused.

Two games are built through the table service, as the front ends build them: one refereed (every entry by
the referee, for the player it concerns) and one played against bots (every entry by the person or the bot
whose action it is).
"""

from __future__ import annotations

import csv
import io
import json
import re
import shutil
import sqlite3
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from tests.commandline import fails, fuzz, fuzz_place, hostile_paths, hostile_values, run, survives
from tests.paths import LEGACY
from tests.records import reseal

from hazard.core.rulesets import find_ruleset
from hazard.table import (
    REFEREE,
    Actor,
    BotBrains,
    BotPolicy,
    Call,
    DiceKind,
    GameKind,
    GameStore,
    Roll,
    Session,
    Sit,
    Stake,
    TableSpec,
    ThrowDice,
    table_paytable,
)

"""Three games written before actors existed (format hazard-game/1), and what the old export printed."""


def refereed_game(db: Path, *, bankroll: Fraction = Fraction(100)) -> int:
    """Refereed: Bob stakes 5, Ann calls 7, a mistaken 3-4 is voided, then 2-2 and 1-3 win the chance."""
    store = GameStore.open(str(db))
    try:
        rules = find_ruleset("wikipedia")
        paytable, _ = table_paytable(rules)
        session = Session.start(store, TableSpec(rules, paytable, dice=DiceKind.TYPED, kind=GameKind.REFEREE))
        for action in (Sit("Ann", bankroll), Sit("Bob", Fraction(100)), Stake("Bob", Fraction(5)), Call(7)):
            session.play(action, by=REFEREE)
        session.play(Roll(3, 4), by=REFEREE)
        session.correct(5)
        session.play(Roll(2, 2), by=REFEREE)
        session.play(Roll(1, 3), by=REFEREE)
    finally:
        store.close()
    return session.game


def played_game(db: Path) -> int:
    """Against bots, seed 97 (throws 1-3, 2-6, ...): Ann names a stake of 10 against the bank, calls, throws.

    The bank is the setter bot Bob: the stake is his, entered by him.
    """
    store = GameStore.open(str(db))
    try:
        rules = find_ruleset("wikipedia")
        paytable, _ = table_paytable(rules)
        session = Session.start(
            store,
            TableSpec(
                rules,
                paytable,
                dice=DiceKind.SEEDED,
                seed=97,
                kind=GameKind.PLAY,
                bots=BotBrains(Fraction(1)),
            ),
            settings={"bot_unit": "1/1"},
        )
        for sit in (
            Sit("Ann", Fraction(100)),
            Sit("Bob", Fraction(100), BotPolicy.SETTER),
            Sit("Cat", Fraction(100), BotPolicy.BYSTANDER),
        ):
            session.play(sit, by=Actor.player(sit.name))
        ann = Actor.player("Ann")
        session.bots_act(call=False)
        session.act("stake 10", by=ann)
        session.act("call 7", by=ann)
        session.act(ThrowDice(), by=ann)  # 1-3: the chance is 4
    finally:
        store.close()
    return session.game


@pytest.fixture
def db(db: Path) -> Path:
    """The shared fresh record (tests/conftest.py), holding one refereed game."""
    refereed_game(db)
    return db


def _export(capsys: pytest.CaptureFixture[str], db: Path, game: int) -> dict[str, Any]:
    code, out, err = run(capsys, "record", "export", str(game), "--db", str(db), "--format", "json")
    assert (code, err) == (0, ""), err
    data: dict[str, Any] = json.loads(out)
    return data


# --- list ---------------------------------------------------------------------------------------------------


def test_list_shows_every_game_newest_first_with_its_kind(
    capsys: pytest.CaptureFixture[str], db: Path
) -> None:
    played_game(db)
    refereed_game(db)
    code, out, err = run(capsys, "record", "list", "--db", str(db))
    assert (code, err) == (0, "")
    header = next(line.split() for line in out.splitlines() if "entries" in line)
    assert header == ["game", "started", "kind", "label", "ruleset", "entries"]
    rows = [line.split() for line in out.splitlines() if re.match(r"\s+\d+\s", line)]
    assert [(row[0], row[2], row[3:5], row[-2]) for row in rows] == [
        ("3", "referee", ["hazard", "referee"], "wikipedia"),
        ("2", "play", ["hazard", "play"], "wikipedia"),
        ("1", "referee", ["hazard", "referee"], "wikipedia"),
    ]
    assert [row[-1] for row in rows] == ["8", rows[1][-1], "8"]


def test_list_of_an_empty_record(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    GameStore.open(str(tmp_path / "empty.db")).close()
    code, out, _ = run(capsys, "record", "list", "--db", str(tmp_path / "empty.db"))
    assert code == 0
    assert out.startswith("No games in the record at sqlite:///")


# --- show ---------------------------------------------------------------------------------------------------


def test_show_gives_every_entry_who_entered_it_what_it_did_and_the_table(
    capsys: pytest.CaptureFixture[str], db: Path
) -> None:
    code, out, err = run(capsys, "record", "show", "1", "--db", str(db))
    assert (code, err) == (0, "")
    assert out.startswith("Game 1 · hazard referee · wikipedia, paytable wikipedia, stakes bank · typed dice")
    assert "\n[1] sit Ann 100 · entered by the referee for Ann · " in out
    assert "\n[3] stake Bob 5 · entered by the referee for Bob · " in out
    assert "\n      Bob stakes 5.00 against Ann\n" in out
    assert "\n[4] call 7 · entered by the referee for Ann · " in out
    # A void throw was the caster's for no one: it did nothing.
    assert "\n[5] throw 3-4 · entered by the referee · void · " in out
    assert "\n[6] correction: entry 5 is void · entered by the referee · " in out
    assert re.search(
        r"\n\[8\] throw 1-3 · entered by the referee for Ann · \S+\n"
        r"      Ann throws 1-3\n"
        r"      4 is the chance, thrown before the main 7: the caster wins\n"
        r"      the caster Ann wins 10\.00 \(Bob pays Ann 10\.00\)\n",
        out,
    )
    assert "Round 2 · Ann has the dice · no main yet · 0 throws this round" in out
    assert re.search(r"Ann\s+110\.00\s+110\.00\s+caster", out)
    assert re.search(r"Bob\s+90\.00\s+90\.00", out)


def test_show_of_a_played_game_names_the_person_and_the_bots(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    db = tmp_path / "games.db"
    played_game(db)
    code, out, err = run(capsys, "record", "show", "1", "--db", str(db))
    assert (code, err) == (0, "")
    assert out.startswith("Game 1 · hazard play · bot unit 1.00 · wikipedia, paytable wikipedia, stakes bank")
    assert "seeded dice (seed 97)" in out.splitlines()[0]
    assert "\n[1] sit Ann 100 · by Ann · " in out
    assert "\n[2] sit Bob 100 as a setter bot · by Bob · " in out
    assert "\n[3] sit Cat 100 as a bystander bot · by Cat · " in out
    # Ann named the stake; the bank that covers it is Bob's, so the entry is his.
    assert re.search(r"\n\[\d+\] stake Bob 10 · by Bob · \S+\n      Bob stakes 10\.00 against Ann\n", out)
    assert re.search(r"\n\[\d+\] call 7 · by Ann · ", out)
    assert re.search(r"\n\[\d+\] throw 1-3 · by Ann · \S+\n      Ann throws 1-3\n", out)


def test_show_in_each_money_style(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    db = tmp_path / "games.db"
    refereed_game(db, bankroll=Fraction(305, 3))
    shown = {}
    for style in ("decimal", "exact", "lsd"):
        code, out, err = run(capsys, "record", "show", "1", "--db", str(db), "--money", style)
        assert (code, err) == (0, ""), err
        shown[style] = out
    default = run(capsys, "record", "show", "1", "--db", str(db))[1]
    assert default == shown["decimal"]
    # The commands read back exactly in every style: decimal would lose a third, so it falls back on exact.
    assert "\n[1] sit Ann 305/3 · " in shown["decimal"]
    assert "\n      Ann sits down with 101.67\n" in shown["decimal"]
    assert re.search(r"Ann\s+111\.67\s+111\.67\s+caster", shown["decimal"])
    assert "\n[1] sit Ann 305/3 · " in shown["exact"]
    assert "\n      Ann sits down with 305/3\n" in shown["exact"]
    assert "the caster Ann wins 10 (Bob pays Ann 10)" in shown["exact"]
    assert re.search(r"Ann\s+335/3\s+335/3\s+caster", shown["exact"])
    assert "\n[1] sit Ann £101 13s 4d · " in shown["lsd"]
    assert "\n      Ann sits down with £101 13s 4d\n" in shown["lsd"]
    assert "\n[3] stake Bob £5 · " in shown["lsd"]
    assert "the caster Ann wins £10 (Bob pays Ann £10)" in shown["lsd"]
    assert re.search(r"Ann\s+£111 13s 4d\s+£111 13s 4d\s+caster", shown["lsd"])


# --- export -------------------------------------------------------------------------------------------------


def test_export_json_has_entries_with_actors_events_and_the_state(
    capsys: pytest.CaptureFixture[str], db: Path
) -> None:
    data = _export(capsys, db, 1)
    assert data["game"] == {
        "id": 1,
        "format": "hazard-game/2",
        "created": data["game"]["created"],
        "label": "hazard referee",
        "kind": "referee",
        "ruleset": "wikipedia",
        "paytable": "wikipedia",
        "stakes": "bank",
        "dice": "typed",
        "fairness": "real dice, typed by the referee",  # named plainly (issue 19, finding 12)
        "seed": None,
        "settings": {},
    }
    entries = data["entries"]
    assert [e["seq"] for e in entries] == list(range(1, 9))
    # The referee entered every entry, each for the player whose action it is.
    assert all(e["actor"] == {"kind": "referee"} for e in entries)
    assert [e["for"] for e in entries] == ["Ann", "Bob", "Bob", "Ann", None, None, "Ann", "Ann"]
    assert [e["standing"] for e in entries] == ["stands"] * 4 + ["void", "correction", "stands", "stands"]
    assert [e["entry"]["type"] for e in entries] == ["sit", "sit", "stake", "call", "throw", "correction"] + [
        "throw"
    ] * 2
    assert entries[2]["entry"] == {"type": "stake", "player": "Bob", "amount": "5/1", "consent": False}
    assert entries[5]["entry"] == {"type": "correction", "target": 5, "replacement": None}
    assert entries[4]["events"] == []
    assert entries[7]["text"] == "throw 1-3"
    assert entries[7]["events"] == [
        "Ann throws 1-3",
        "4 is the chance, thrown before the main 7: the caster wins",
        "the caster Ann wins 10 (Bob pays Ann 10)",  # exact, whatever the screen shows
    ]
    state = data["state"]
    assert (state["caster"], state["phase"], state["main"], state["throws"], state["rounds_played"]) == (
        "Ann",
        "main",
        None,
        2,
        1,
    )
    assert state["turn"] == {"caster": "Ann", "need": "call", "stakes_open": True}
    assert [(p["name"], p["bankroll"], p["bankroll_float"]) for p in state["players"]] == [
        ("Ann", "110/1", 110.0),
        ("Bob", "90/1", 90.0),
    ]


def test_export_json_keeps_sums_exact_with_a_float_beside(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    db = tmp_path / "games.db"
    refereed_game(db, bankroll=Fraction(305, 3))
    data = _export(capsys, db, 1)
    assert data["entries"][0]["entry"]["bankroll"] == "305/3"
    ann = data["state"]["players"][0]
    assert (ann["name"], ann["bankroll"], ann["free"]) == ("Ann", "335/3", "335/3")
    assert ann["bankroll_float"] == pytest.approx(335 / 3)
    assert ann["free_float"] == pytest.approx(335 / 3)


def test_export_json_of_a_played_game_names_the_person_or_the_bot(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    db = tmp_path / "games.db"
    played_game(db)
    data = _export(capsys, db, 1)
    assert (data["game"]["kind"], data["game"]["dice"], data["game"]["seed"]) == ("play", "seeded", 97)
    entries = data["entries"]
    assert all(e["actor"]["kind"] == "player" for e in entries)
    by = [(e["actor"]["name"], e["text"]) for e in entries]
    assert by[:3] == [
        ("Ann", "sit Ann 100"),
        ("Bob", "sit Bob 100 as a setter bot"),
        ("Cat", "sit Cat 100 as a bystander bot"),
    ]
    assert ("Bob", "stake Bob 10") in by
    assert by[-2:] == [("Ann", "call 7"), ("Ann", "throw 1-3")]
    # Nothing was entered for someone else: each actor is the player the entry is for.
    assert all(e["for"] == e["actor"]["name"] for e in entries)
    state = data["state"]
    assert (state["main"], state["chance"], state["throws"]) == (7, 4, 1)
    assert {"player": "Bob", "amount": "10/1", "amount_float": 10.0} in state["stakes"]


def test_export_events_keep_the_sums_exact(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    # An export is the record to read back and to audit: "Bob stakes 0.38" for a stake of 3/8 is not
    # what happened. The entry's own text is exact ("stake Bob 3/8"); its events should be so too.
    db = tmp_path / "games.db"
    store = GameStore.open(str(db))
    try:
        rules = find_ruleset("wikipedia")
        paytable, _ = table_paytable(rules)
        session = Session.start(store, TableSpec(rules, paytable, dice=DiceKind.TYPED, kind=GameKind.REFEREE))
        for text in ("sit Ann 100", "sit Bob 100", "stake Bob 7s 6d"):
            session.act(text, by=REFEREE)
    finally:
        store.close()
    data = _export(capsys, db, 1)
    assert data["entries"][2]["text"] == "stake Bob 3/8"
    assert data["entries"][2]["events"] == ["Bob stakes 3/8 against Ann"]
    code, out, _ = run(capsys, "record", "export", "1", "--db", str(db), "--format", "csv")
    assert code == 0
    assert list(csv.DictReader(io.StringIO(out)))[2]["events"] == "Bob stakes 3/8 against Ann"


def test_export_csv_has_a_row_per_entry_with_its_actor(capsys: pytest.CaptureFixture[str], db: Path) -> None:
    code, out, _ = run(capsys, "record", "export", "1", "--db", str(db), "--format", "csv")
    assert code == 0
    rows = list(csv.DictReader(io.StringIO(out)))
    assert list(rows[0]) == ["seq", "at", "actor", "for", "type", "entry", "standing", "events", "data"]
    assert [row["entry"] for row in rows] == [
        "sit Ann 100",
        "sit Bob 100",
        "stake Bob 5",
        "call 7",
        "throw 3-4",
        "correction: entry 5 is void",
        "throw 2-2",
        "throw 1-3",
    ]
    assert {row["actor"] for row in rows} == {"the referee"}
    assert [row["for"] for row in rows] == ["Ann", "Bob", "Bob", "Ann", "", "", "Ann", "Ann"]
    assert [row["standing"] for row in rows][4:6] == ["void", "correction"]
    assert rows[0]["events"] == "Ann sits down with 100 | Ann takes the dice"  # exact, as in JSON
    assert json.loads(rows[6]["data"]) == {"type": "throw", "roll": "2-2"}
    assert json.loads(rows[5]["data"]) == {"type": "correction", "target": 5, "replacement": None}


# --- records written before actors existed ------------------------------------------------------------------


def test_a_legacy_record_lists_shows_and_exports(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    db = tmp_path / "games.db"
    shutil.copy(LEGACY / "games.db", db)
    code, out, _ = run(capsys, "record", "list", "--db", str(db))
    assert code == 0
    kinds = [line.split()[2] for line in out.splitlines() if re.match(r"\s+\d+\s", line)]
    assert kinds == ["play", "play", "referee"]
    for game in (1, 2, 3):
        old = json.loads((LEGACY / f"game-{game}.json").read_text(encoding="utf-8"))
        new = _export(capsys, db, game)
        assert new["game"]["format"] == "hazard-game/1"
        assert new["game"]["kind"] == ("referee" if old["game"]["label"] == "hazard referee" else "play")
        # The same entries, standing the same way; each read as entered by the referee.
        assert [(e["seq"], e["text"], e["standing"]) for e in new["entries"]] == [
            (e["seq"], e["text"], e["standing"]) for e in old["entries"]
        ]
        assert all(e["actor"] == {"kind": "referee"} for e in new["entries"])
        assert [(p["name"], p["bankroll"]) for p in new["state"]["players"]] == [
            (p["name"], f"{Fraction(p['bankroll']).numerator}/{Fraction(p['bankroll']).denominator}")
            for p in old["state"]["players"]
        ]
        code, out, _ = run(capsys, "record", "show", str(game), "--db", str(db))
        assert code == 0
        assert "\n[1] sit Ann 100 · entered by the referee for Ann · " in out


# --- records that are refused ------------------------------------------------------------------------------


def _tamper(db: Path, sql: str) -> None:
    connection = sqlite3.connect(db)
    connection.execute(sql)
    connection.commit()
    connection.close()


def _entry(seq: int, data: str) -> str:
    return f"UPDATE hazard_entries SET data = '{data}' WHERE seq = {seq}"


def _by_referee(action: str) -> str:
    return '{"actor": {"kind": "referee"}, "action": ' + action + "}"


REFUSED = {
    "a roll no die shows": (
        _entry(7, _by_referee('{"type": "throw", "roll": "9-9"}')),
        "error: record of game 1 is corrupt: entry 7: invalid roll '9-9': each die shows 1 to 6",
    ),
    "not JSON": (_entry(3, "{not json"), "error: record of game 1 is corrupt: entry 3:"),
    "a main the ruleset lacks": (
        _entry(4, _by_referee('{"type": "call", "main": 4}')),
        "error: record of game 1 does not replay: entry 4: illegal main 4 in ruleset 'wikipedia'",
    ),
    "a throw before the call": (
        _entry(4, _by_referee('{"type": "throw", "roll": "1-1"}')),
        "error: record of game 1 does not replay: entry 4: illegal throw 1-1 in round (no main yet)",
    ),
    # An entry of the old form, with no actor, in a game written since actors exist.
    "an entry with no actor": (
        _entry(7, '{"type": "throw", "roll": "2-2"}'),
        "error: record of game 1 is corrupt: entry 7: it names no actor",
    ),
    "an unknown actor": (
        _entry(3, '{"actor": {"kind": "wizard"}, "action": {"type": "pass-dice"}}'),
        "error: record of game 1 is corrupt: entry 3: invalid actor",
    ),
    "an actor with no action": (
        _entry(3, '{"actor": {"kind": "referee"}}'),
        "error: record of game 1 is corrupt: entry 3: invalid entry",
    ),
    # Who may act is checked on replay as at the table: Ann stakes only for herself, Ann alone calls.
    "a stake for another": (
        _entry(
            3,
            '{"actor": {"kind": "player", "name": "Ann"}, '
            '"action": {"type": "stake", "player": "Bob", "amount": "5/1", "consent": false}}',
        ),
        "error: record of game 1 does not replay: entry 3: illegal stake Bob 5 by Ann at the "
        "wikipedia table of ",
    ),
    "a call by a setter": (
        _entry(4, '{"actor": {"kind": "player", "name": "Bob"}, "action": {"type": "call", "main": 7}}'),
        "error: record of game 1 does not replay: entry 4: illegal call 7 by Bob ",
    ),
    # Only the referee corrects the record (Session.correct refuses anyone else), so a correction entered
    # by a player is no record the table could have written.
    "a correction by a player": (
        _entry(
            6,
            '{"actor": {"kind": "player", "name": "Ann"}, "correction": {"target": 5, "replacement": null}}',
        ),
        "error: record of game 1 does not replay: invalid correction in entry 6: illegal correction "
        "of entry 5 by Ann: only the referee corrects the record",
    ),
    "a missing entry": (
        "DELETE FROM hazard_entries WHERE seq = 2",
        "error: record of game 1 is corrupt: entry 2 is missing",
    ),
    "a foreign format": (
        "UPDATE hazard_games SET format = 'chess/1'",
        "error: record of game 1 is in format 'chess/1'",
    ),
    "a ruleset that is no ruleset": (
        "UPDATE hazard_games SET ruleset = 'nonsense'",
        "error: record of game 1 is corrupt:",
    ),
    "an unknown kind": (
        "UPDATE hazard_games SET kind = 'poker'",
        "error: record of game 1 is corrupt: its kind is 'poker'",
    ),
}


@pytest.mark.parametrize(("sql", "message"), list(REFUSED.values()), ids=list(REFUSED))
def test_a_game_that_does_not_replay_is_refused_whole(
    capsys: pytest.CaptureFixture[str], db: Path, sql: str, message: str
) -> None:
    _tamper(db, sql)
    if "DELETE" not in sql:  # the chain finds the change first, naming the entry or the setup ...
        for command in (["record", "show", "1"], ["referee", "--resume", "1"]):
            error = fails(capsys, *command, "--db", str(db))
            assert error.startswith("error: record of game 1 is corrupt: "), error
            assert "does not follow" in error or "was changed" in error, error
        reseal(db)  # ... and sealed anew, as a writer with a bug would have, what it says is still checked
    for command in (
        ["record", "show", "1"],
        ["record", "export", "1"],
        ["record", "export", "1", "--format", "csv"],
        ["referee", "--resume", "1"],
    ):
        error = fails(capsys, *command, "--db", str(db))
        assert error.startswith(message), (command, error)


def test_a_foreign_or_broken_file_is_refused(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    foreign = tmp_path / "notes.db"
    connection = sqlite3.connect(foreign)
    connection.execute("CREATE TABLE notes (id INTEGER, body TEXT)")
    connection.commit()
    connection.close()
    garbage = tmp_path / "garbage.db"
    garbage.write_bytes(b"not a database\x00" * 200)
    cases = {
        foreign: "it is a database of something else (tables: notes), not a hazard game record",
        garbage: "it is not an SQLite database (it does not begin as one)",
        tmp_path / "missing.db": "no such file",
    }
    for path, reason in cases.items():
        for command in (
            ["record", "list"],
            ["record", "show", "1"],
            ["record", "export", "1"],
            ["play", "--resume"],
            ["referee", "--resume"],
        ):
            message = fails(capsys, *command, "--db", str(path))
            assert message.startswith("error: cannot open the game record "), message
            assert reason in message
    assert not (tmp_path / "missing.db").exists()
    assert sqlite3.connect(foreign).execute("SELECT name FROM sqlite_master").fetchall() == [("notes",)]


def test_a_game_not_in_the_record(capsys: pytest.CaptureFixture[str], db: Path) -> None:
    for command in ("show", "export"):
        message = fails(capsys, "record", command, "7", "--db", str(db))
        assert re.match(
            r"error: illegal game 7: the record at 'sqlite:///.*games\.db' has no such game$", message
        )


def test_bad_command_lines(capsys: pytest.CaptureFixture[str], db: Path) -> None:
    assert fails(capsys, "record", "export", "1", "--db", str(db), "--format", "xml").startswith(
        "error: Invalid value for '--format'"
    )
    assert fails(capsys, "record", "show", "1", "--db", str(db), "--money", "guineas") == (
        "error: Invalid value for '--money': 'guineas' is not one of 'decimal', 'exact', 'lsd'."
    )
    games = "expected a game number from 1 to 2147483647"  # the record's bound: one message everywhere
    for game in ("x", "0", "７", "1.0", "", " ", str(2**31), str(2**63), "9" * 5000):
        for command in ("show", "export"):
            message = fails(capsys, "record", command, game, "--db", str(db))
            assert message.startswith("error: invalid game '"), message
            assert message.endswith(games), message
            assert len(message) < 300, message  # a long number is never echoed whole
    assert fails(capsys, "record", "frob") == "error: No such command 'frob'."
    code, out, _ = run(capsys, "record")
    assert code == 0
    assert "list" in out
    assert "export" in out


# --- fuzzing: any value of any option ends in one error line or what was asked -----------------------------


@fuzz(120)
@given(data=st.data())
def test_fuzz_any_value_of_a_record_option_is_one_error_line_or_the_game(
    capfd: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path, data: st.DataObject
) -> None:
    place = fuzz_place(tmp_path, monkeypatch)
    db = place / "games.db"
    if not db.exists():
        refereed_game(db)
    command = data.draw(st.sampled_from(["list", "show", "export"]), label="command")
    options = {"list": ["--db"], "show": ["GAME", "--db", "--money"], "export": ["GAME", "--db", "--format"]}
    option = data.draw(st.sampled_from(options[command]), label="option")
    value = data.draw(hostile_paths(place) if option == "--db" else hostile_values(), label="value")
    words = {"--db": str(db), option: value}
    game = words.pop("GAME", "1")
    args = [word for pair in words.items() for word in pair]
    if command == "list":
        survives(capfd, "record", "list", *args)
    else:
        survives(capfd, "record", command, game, *args)


@pytest.mark.parametrize("command", [["record", "list"], ["record", "show", "1"], ["play", "--seed", "1"]])
def test_a_db_under_a_missing_home_is_one_error_line(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path, command: list[str]
) -> None:
    fuzz_place(tmp_path, monkeypatch)
    assert fails(capsys, *command, "--db", "~nosuchuser/games.db").startswith(
        "error: cannot open the game record"
    )
