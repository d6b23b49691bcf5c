"""``hazard record list|show|export``: games read back from the record, and every record that is refused."""

from __future__ import annotations

import csv
import io
import json
import re
import sqlite3
from fractions import Fraction
from pathlib import Path

import pytest
from tests.commandline import fails, run

from hazard.core.dice import Roll
from hazard.core.rulesets import find_ruleset, paytable_for
from hazard.table.actions import Call, Sit, Stake, Throw
from hazard.table.record import GameStore
from hazard.table.session import Session


def refereed_game(db: Path) -> int:
    """Refereed: Bob stakes 5, Ann calls 7, a mistaken 3-4 is voided, then 2-2 and 1-3 win the chance."""
    store = GameStore.open(str(db))
    rules = find_ruleset("wikipedia")
    paytable = paytable_for(rules)
    assert paytable is not None
    session = Session.start(store, ruleset=rules, paytable=paytable, dice="typed", label="hazard referee")
    for action in (Sit("Ann", Fraction(100)), Sit("Bob", Fraction(100)), Stake("Bob", Fraction(5)), Call(7)):
        session.play(action)
    session.play(Throw(Roll(3, 4)))
    session.correct(5)
    session.play(Throw(Roll(2, 2)))
    session.play(Throw(Roll(1, 3)))
    store.close()
    return session.game


@pytest.fixture
def db(tmp_path: Path) -> Path:
    path = tmp_path / "games.db"
    refereed_game(path)
    return path


def test_list_shows_every_game_newest_first(capsys: pytest.CaptureFixture[str], db: Path) -> None:
    refereed_game(db)
    code, out, err = run(capsys, "record", "list", "--db", str(db))
    assert (code, err) == (0, "")
    rows = [line.split() for line in out.splitlines() if re.match(r"\s+\d+\s", line)]
    assert [(row[0], row[2:4], row[-2:]) for row in rows] == [
        ("2", ["hazard", "referee"], ["wikipedia", "8"]),
        ("1", ["hazard", "referee"], ["wikipedia", "8"]),
    ]


def test_list_of_an_empty_record(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    GameStore.open(str(tmp_path / "empty.db")).close()
    code, out, _ = run(capsys, "record", "list", "--db", str(tmp_path / "empty.db"))
    assert code == 0
    assert out.startswith("No games in the record at sqlite:///")


def test_show_gives_every_entry_what_it_did_and_the_table(
    capsys: pytest.CaptureFixture[str], db: Path
) -> None:
    code, out, err = run(capsys, "record", "show", "1", "--db", str(db))
    assert (code, err) == (0, "")
    assert out.startswith("Game 1 · hazard referee · wikipedia, paytable wikipedia, stakes bank · typed dice")
    assert "\n[3] stake Bob 5 · " in out
    assert "\n      Bob stakes 5 against Ann\n" in out
    assert "\n[5] throw 3-4 · void · " in out
    assert "\n[6] correction: entry 5 is void · " in out
    assert re.search(
        r"\n\[8\] throw 1-3 · \S+\n      4 is the chance, thrown before the main 7: the caster wins\n"
        r"      the caster Ann wins 10 \(Bob pays Ann 10\)\n",
        out,
    )
    assert "Round 2 · Ann has the dice · no main yet · 0 throws this round" in out
    assert re.search(r"Ann\s+110\s+110\s+caster", out)
    assert re.search(r"Bob\s+90\s+90", out)


def test_export_json_has_entries_events_and_state(capsys: pytest.CaptureFixture[str], db: Path) -> None:
    code, out, _ = run(capsys, "record", "export", "1", "--db", str(db), "--format", "json")
    assert code == 0
    data = json.loads(out)
    assert data["game"] == {
        "id": 1,
        "created": data["game"]["created"],
        "label": "hazard referee",
        "ruleset": "wikipedia",
        "paytable": "wikipedia",
        "stakes": "bank",
        "dice": "typed",
        "seed": None,
    }
    entries = data["entries"]
    assert [e["seq"] for e in entries] == list(range(1, 9))
    assert [e["standing"] for e in entries] == ["stands"] * 4 + ["void", "correction", "stands", "stands"]
    assert entries[2]["entry"] == {"type": "stake", "player": "Bob", "amount": "5/1", "consent": False}
    assert entries[5]["entry"] == {"type": "correction", "target": 5, "replacement": None}
    assert entries[4]["events"] == []
    assert entries[7]["text"] == "throw 1-3"
    assert entries[7]["events"] == [
        "4 is the chance, thrown before the main 7: the caster wins",
        "the caster Ann wins 10 (Bob pays Ann 10)",
    ]
    state = data["state"]
    assert (state["caster"], state["phase"], state["main"], state["throws"], state["rounds_played"]) == (
        "Ann",
        "main",
        None,
        2,
        1,
    )
    assert [(p["name"], p["bankroll"]) for p in state["players"]] == [("Ann", "110"), ("Bob", "90")]


def test_export_csv_has_a_row_per_entry(capsys: pytest.CaptureFixture[str], db: Path) -> None:
    code, out, _ = run(capsys, "record", "export", "1", "--db", str(db), "--format", "csv")
    assert code == 0
    rows = list(csv.DictReader(io.StringIO(out)))
    assert list(rows[0]) == ["seq", "at", "type", "entry", "standing", "events", "data"]
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
    assert rows[0]["events"] == "Ann sits down with 100 | Ann takes the dice"
    assert json.loads(rows[6]["data"]) == {"type": "throw", "roll": "2-2"}


# --- records that are refused ------------------------------------------------------------------------------


def _tamper(db: Path, sql: str) -> None:
    connection = sqlite3.connect(db)
    connection.execute(sql)
    connection.commit()
    connection.close()


@pytest.mark.parametrize(
    ("sql", "message"),
    [
        (
            'UPDATE hazard_entries SET data = \'{"type": "throw", "roll": "9-9"}\' WHERE seq = 7',
            "error: record of game 1 is corrupt: entry 7: invalid roll '9-9': each die shows 1 to 6",
        ),
        (
            "UPDATE hazard_entries SET data = '{not json' WHERE seq = 3",
            "error: record of game 1 is corrupt: entry 3:",
        ),
        (
            'UPDATE hazard_entries SET data = \'{"type": "call", "main": 4}\' WHERE seq = 4',
            "error: record of game 1 does not replay: entry 4: illegal main 4 in ruleset 'wikipedia'",
        ),
        (
            'UPDATE hazard_entries SET data = \'{"type": "throw", "roll": "1-1"}\' WHERE seq = 4',
            "error: record of game 1 does not replay: entry 4: illegal throw 1-1 in round (no main yet)",
        ),
        (
            "DELETE FROM hazard_entries WHERE seq = 2",
            "error: record of game 1 is corrupt: entry 2 is missing",
        ),
        ("UPDATE hazard_games SET format = 'chess/1'", "error: record of game 1 is in format 'chess/1'"),
        ("UPDATE hazard_games SET ruleset = 'nonsense'", "error: record of game 1 is corrupt:"),
    ],
)
def test_a_game_that_does_not_replay_is_refused_whole(
    capsys: pytest.CaptureFixture[str], db: Path, sql: str, message: str
) -> None:
    _tamper(db, sql)
    for command in (["record", "show", "1"], ["record", "export", "1"], ["referee", "--resume", "1"]):
        assert fails(capsys, *command, "--db", str(db)).startswith(message)


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
        garbage: "file is not a database",
        tmp_path / "missing.db": "no such file",
    }
    for path, reason in cases.items():
        for command in (["record", "list"], ["record", "show", "1"], ["play", "--resume"]):
            message = fails(capsys, *command, "--db", str(path))
            assert message.startswith("error: cannot open the game record "), message
            assert reason in message
    assert not (tmp_path / "missing.db").exists()
    assert sqlite3.connect(foreign).execute("SELECT name FROM sqlite_master").fetchall() == [("notes",)]


def test_a_game_not_in_the_record(capsys: pytest.CaptureFixture[str], db: Path) -> None:
    message = fails(capsys, "record", "show", "7", "--db", str(db))
    assert re.match(
        r"error: illegal game 7: the record at 'sqlite:///.*games\.db' has no such game$", message
    )


def test_bad_command_lines(capsys: pytest.CaptureFixture[str], db: Path) -> None:
    assert fails(capsys, "record", "export", "1", "--db", str(db), "--format", "xml").startswith(
        "error: Invalid value for '--format'"
    )
    assert fails(capsys, "record", "show", "x", "--db", str(db)).startswith("error: Invalid value for 'game'")
    assert fails(capsys, "record", "frob") == "error: No such command 'frob'."
    code, out, _ = run(capsys, "record")
    assert code == 0
    assert "list" in out
    assert "export" in out
