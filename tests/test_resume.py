"""A game killed outright (``kill -9``) mid-round carries on from its record exactly as if never stopped.

Throw ``i`` of seed 1 is 3-1, 3-3, 5-3, 4-2, 2-6, 3-2, 2-2, 1-6, ...: a chance of 4 on the first throw, won on
the seventh.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from tests.terminal import Terminal, run_hazard

from hazard.cli import main
from hazard.table.dice import SeededDice
from hazard.table.record import GameStore, ReplayedGame, effective_actions

LINES = [
    "call 7",
    "",  # 3-1: the chance is 4. The game is killed here.
    "",  # 3-3
    "stake 1",  # refused: the caster cannot stake
    "",  # 5-3
    "",  # 4-2
    "",  # 2-6
    "",  # 3-2
    "",  # 2-2: the chance before the main, Ann wins
    "",  # refused: a main first
    "call 6",
    "",  # 1-6: 7 is the chance on a main of 6
    "quit",
]
KILLED_AFTER = 2
"""How many lines the killed game had read."""


def _load(db: Path) -> ReplayedGame:
    store = GameStore.open(str(db))
    try:
        return store.load(1)
    finally:
        store.close()


def _after(text: str, marker: str) -> str:
    return text[text.index(marker) :]


def test_seed_1_throws_what_this_test_expects() -> None:
    throws = [str(SeededDice(1).throw(i)) for i in range(8)]
    assert throws == ["3-1", "3-3", "5-3", "4-2", "2-6", "3-2", "2-2", "1-6"]


def test_a_game_killed_mid_round_resumes_exactly(tmp_path: Path) -> None:
    whole_db, killed_db = tmp_path / "whole.db", tmp_path / "killed.db"
    whole = run_hazard(tmp_path, "play", "--seed", "1", "--db", str(whole_db), lines=LINES)
    assert whole.returncode == 0, whole.stderr

    game = Terminal(tmp_path, "play", "--seed", "1", "--db", str(killed_db))
    for line in LINES[:KILLED_AFTER]:
        game.expect("Ann> ")
        game.send(line)
    game.expect("4 with a main of 7 is the chance: the caster now needs 4 before 7")
    assert game.kill() == -9
    killed = _load(killed_db)  # the throw was recorded before it was shown
    assert (killed.table.round.main, killed.table.round.chance, killed.table.throws) == (7, 4, 1)

    resumed = run_hazard(tmp_path, "play", "--resume", "--db", str(killed_db), lines=LINES[KILLED_AFTER:])
    assert resumed.returncode == 0, resumed.stderr
    assert resumed.stderr == ""
    assert "Resuming Game 1 · hazard play · bot unit 1 · wikipedia" in resumed.stdout
    assert "Round 1 · Ann has the dice · main 7, chance 4 · 1 throw this round" in resumed.stdout
    assert "Ann throws 3-3\n" in resumed.stdout  # throw 2 of seed 1, as if never stopped

    first, second = _load(whole_db), _load(killed_db)
    a, b = first.table, second.table
    assert [(p.name, p.bankroll) for p in a.players] == [(p.name, p.bankroll) for p in b.players]
    assert (a.caster, a.round.main, a.round.chance, a.throws, a.throws_this_round, a.rounds_played) == (
        b.caster,
        b.round.main,
        b.round.chance,
        b.throws,
        b.throws_this_round,
        b.rounds_played,
    )
    assert (a.caster, a.round.main, a.round.chance, a.throws, a.rounds_played) == ("Ann", 6, 7, 8, 1)
    assert a == b  # stakes, side bets, losses in a row: all of it
    assert [action for _, action in effective_actions(first.entries)] == [
        action for _, action in effective_actions(second.entries)
    ]
    # And the screen ends on the same table.
    assert _after(whole.stdout, "Ann> call 6") == _after(resumed.stdout, "Ann> call 6").replace(
        str(killed_db), str(whole_db)
    )


def _fails(capsys: pytest.CaptureFixture[str], *args: str) -> str:
    with pytest.raises(SystemExit) as exit_:
        main(list(args))
    captured = capsys.readouterr()
    assert (exit_.value.code, captured.out, captured.err.count("\n")) == (2, "", 1), captured
    return captured.err.strip()


def test_resume_finds_the_latest_game_of_its_kind(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    db = str(tmp_path / "games.db")
    assert run_hazard(tmp_path, "play", "--seed", "3", "--db", db).returncode == 0
    assert run_hazard(tmp_path, "referee", "--player", "Ann:10", "--db", db).returncode == 0
    assert "Resuming Game 1 · hazard play" in run_hazard(tmp_path, "play", "--resume", "--db", db).stdout
    assert (
        "Resuming Game 2 · hazard referee" in run_hazard(tmp_path, "referee", "--resume", "--db", db).stdout
    )

    assert _fails(capsys, "play", "--resume", "2", "--db", db) == (
        "error: illegal resume of game 2 with hazard play: its dice are real ones typed in; "
        "resume it with hazard referee --resume 2"
    )
    assert _fails(capsys, "referee", "--resume", "1", "--db", db) == (
        "error: illegal resume of game 1 with hazard referee: the game throws its own dice; "
        "resume it with hazard play --resume 1"
    )
    assert _fails(capsys, "play", "--resume", "--seed", "4", "--db", db) == (
        "error: invalid option --seed with --resume: a resumed game keeps the setup in its record"
    )
    assert _fails(capsys, "referee", "--resume", "--player", "Bo:1", "--db", db).startswith(
        "error: invalid option --player with --resume"
    )
    assert _fails(capsys, "play", "--resume", "9", "--db", db).startswith("error: illegal game 9:")

    connection = sqlite3.connect(db)
    connection.execute("DELETE FROM hazard_entries WHERE game = 1")
    connection.execute("DELETE FROM hazard_entries WHERE game = 2")
    connection.commit()
    connection.close()
    assert _fails(capsys, "play", "--resume", "1", "--db", db) == (
        "error: illegal resume of game 1 with hazard play: it needs exactly one person at the table, "
        "and it has 0"
    )
    empty = str(tmp_path / "empty.db")
    GameStore.open(empty).close()
    assert _fails(capsys, "play", "--resume", "--db", empty).startswith(
        "error: illegal --resume: the record at 'sqlite:///"
    )
