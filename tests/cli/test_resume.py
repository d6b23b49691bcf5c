"""A game killed outright (``kill -9``) mid-round carries on from its record exactly as if never stopped.

These drive the real ``hazard play`` and ``hazard referee`` programs. Throw ``i`` of seed 1 is 3-1, 3-3, 5-3,
4-2, 2-6, 3-2, 2-2, 1-6, ...: a chance of 4 on the first throw, won on the seventh.
"""

from __future__ import annotations

import sqlite3
from fractions import Fraction
from pathlib import Path

import pytest
from tests.commandline import fails
from tests.records import reseal
from tests.terminal import Terminal, run_hazard

from hazard.table.fair.dice import SeededDice
from hazard.table.live.timeline import GameKind, ReplayedGame, effective_actions, game_json, load_game
from hazard.table.record.store import GameStore
from hazard.table.rules.actions import REFEREE, Actor

pytestmark = pytest.mark.slow  # real hazard play and referee processes, killed mid-round

LINES = [
    "call 7",
    "",  # 3-1: the chance is 4. The game is killed here.
    "",  # 3-3
    "stake 1",  # refused: the round has begun
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


def _load(db: Path, game: int = 1) -> ReplayedGame:
    store = GameStore.open(str(db))
    try:
        return load_game(store, game)
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
    assert killed.entries[-1].actor == Actor.player("Ann")  # Ann threw, and the record says so

    resumed = run_hazard(tmp_path, "play", "--resume", "--db", str(killed_db), lines=LINES[KILLED_AFTER:])
    assert resumed.returncode == 0, resumed.stderr
    assert resumed.stderr == ""
    assert "Resuming Game 1 · hazard play · bot unit 1.00 · wikipedia" in resumed.stdout
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
    # the same actions, each by the same actor: Ann's own, and each bot's
    assert effective_actions(first.entries) == effective_actions(second.entries)
    actors = {actor for _, actor, _ in effective_actions(second.entries)}
    assert Actor.player("Ann") in actors
    assert REFEREE not in actors  # nobody referees a game of hazard play
    assert all("actor" in entry for entry in game_json(second)["entries"])
    # And the screen ends on the same table.
    assert _after(whole.stdout, "Ann> call 6") == _after(resumed.stdout, "Ann> call 6").replace(
        str(killed_db), str(whole_db)
    )


def test_a_refereed_game_killed_mid_round_resumes_exactly(tmp_path: Path) -> None:
    """The referee's game: real dice typed in, killed after the chance is set, resumed, and finished."""
    db = tmp_path / "games.db"
    game = Terminal(tmp_path, "referee", "--player", "Ann:20", "--player", "Bob:20", "--db", str(db))
    for line in ("stake Bob 2", "call 7", "2-2"):
        game.expect("referee> ")
        game.send(line)
    game.expect("4 with a main of 7 is the chance")
    assert game.kill() == -9
    killed = _load(db)
    assert (killed.table.round.main, killed.table.round.chance) == (7, 4)
    assert {entry.actor for entry in killed.entries} == {REFEREE}  # the referee typed every entry

    resumed = run_hazard(tmp_path, "referee", "--resume", "--db", str(db), lines=["1-3", "quit"])
    assert resumed.returncode == 0, resumed.stderr
    assert "Resuming Game 1 · hazard referee" in resumed.stdout
    finished = _load(db)
    assert finished.info.kind is GameKind.REFEREE
    assert finished.table.rounds_played == 1
    # a won chance of 4 on a main of 7 pays the Wikipedia table's 2 to 1 on Bob's 2
    assert [(p.name, p.bankroll) for p in finished.table.players] == [
        ("Ann", Fraction(24)),
        ("Bob", Fraction(16)),
    ]


def test_resume_finds_the_latest_game_of_its_kind(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    db = str(tmp_path / "games.db")
    assert run_hazard(tmp_path, "play", "--seed", "3", "--db", db).returncode == 0
    assert run_hazard(tmp_path, "referee", "--player", "Ann:10", "--db", db).returncode == 0
    assert "Resuming Game 1 · hazard play" in run_hazard(tmp_path, "play", "--resume", "--db", db).stdout
    assert (
        "Resuming Game 2 · hazard referee" in run_hazard(tmp_path, "referee", "--resume", "--db", db).stdout
    )

    assert fails(capsys, "play", "--resume", "2", "--db", db) == (
        "error: illegal resume of game 2 as a hazard play game: it is a hazard referee game (typed dice); "
        "resume it with hazard referee --resume 2"
    )
    assert fails(capsys, "referee", "--resume", "1", "--db", db) == (
        "error: illegal resume of game 1 as a hazard referee game: it is a hazard play game "
        "(seeded dice (seed 3)); resume it with hazard play --resume 1"
    )
    assert fails(capsys, "play", "--resume", "--seed", "4", "--db", db) == (
        "error: invalid option --seed with --resume: a resumed game keeps the setup in its record"
    )
    assert fails(capsys, "referee", "--resume", "--player", "Bo:1", "--db", db).startswith(
        "error: invalid option --player with --resume"
    )
    assert fails(capsys, "play", "--resume", "9", "--db", db).startswith("error: illegal game 9:")

    connection = sqlite3.connect(db)
    connection.execute("DELETE FROM hazard_entries WHERE game = 1")
    connection.execute("DELETE FROM hazard_entries WHERE game = 2")
    connection.commit()
    connection.close()
    message = fails(capsys, "play", "--resume", "1", "--db", db)
    assert message.startswith("error: record of game 1 is corrupt: it holds no entries of "), message
    reseal(Path(db))  # a game whose record, whole, has nobody at the table
    message = fails(capsys, "play", "--resume", "1", "--db", db)
    assert (
        "resume of game 1 with hazard play: it needs exactly one person at the table, and it has 0" in message
    )
    empty = str(tmp_path / "empty.db")
    GameStore.open(empty).close()
    message = fails(capsys, "play", "--resume", "--db", empty)
    assert message.startswith("error: illegal"), message
    assert "the record at 'sqlite:///" in message
    assert "holds no hazard play game to resume" in message


def test_two_referees_on_one_game_cannot_write_over_each_other(tmp_path: Path) -> None:
    """Issue 9's first failure: two `hazard referee --resume` on one game, each typing `stake Bob 400`. The
    second to write finds the game moved on, catches up (as a web server does, through the game's one actor),
    and its line is judged against the table as the record now has it: refused for what it is, writing
    nothing, with the table shown as it now is."""
    db = str(tmp_path / "games.db")
    started = run_hazard(tmp_path, "referee", "--player", "Ann:1000", "--player", "Bob:1000", "--db", db)
    assert started.returncode == 0, started.stderr
    first = Terminal(tmp_path, "referee", "--resume", "1", "--db", db)
    second = Terminal(tmp_path, "referee", "--resume", "1", "--db", db)
    try:
        first.expect("referee> ")
        second.expect("referee> ")
        first.send("stake Bob 400")
        first.expect("Bob stakes 400.00 against Ann")
        second.send("stake Bob 400")
        shown = second.expect("referee> ")
        assert "illegal stake of 400 by 'Bob': Bob cannot cover it" in shown
        assert "400.00 against Ann" in shown  # the table as the record now has it
        second.send("stake Bob 400")  # and again, refused for what it is
        assert "cannot cover it" in second.expect("referee> ")
        second.send("quit")
        first.send("quit")
    finally:
        first.kill()
        second.kill()
    loaded = load_game(GameStore.open(db), 1)  # one order of entries, and it replays
    assert [e.seq for e in loaded.entries] == [1, 2, 3]
    assert [(w.opponent, w.amount) for w in loaded.table.wagers] == [("Bob", Fraction(400))]
