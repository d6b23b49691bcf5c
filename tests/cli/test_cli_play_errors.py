"""``hazard play`` and ``hazard referee``: a bad command line is one error and records nothing, and a
game is resumed only by its own command."""

from __future__ import annotations

from pathlib import Path

import pytest
from tests.cli.play_helpers import _load, _play, _referee
from tests.commandline import fails
from tests.terminal import run_hazard

# --- command-line errors -----------------------------------------------------------------------------------


BOTS = "expected a number of bots from 0 to 9, or NAME[:POLICY[:BANKROLL]] separated by commas"


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (
            ["play", "--money", "guineas"],
            "error: Invalid value for '--money': 'guineas' is not one of 'decimal'",
        ),
        (
            ["referee", "--player", "Ann:1", "--money", "x"],
            "error: Invalid value for '--money': 'x' is not one",
        ),
        (["play", "--bots", "Bob:robot"], "error: invalid bot policy 'robot' in --bots 'Bob:robot'"),
        (
            ["play", "--bots", "Bob:setter:1:2"],
            "error: invalid --bots 'Bob:setter:1:2': " + BOTS,
        ),
        (
            ["play", "--bots", "99"],
            "error: invalid --bots '99': " + BOTS,
        ),
        (
            ["play", "--bots", "10"],
            "error: invalid --bots '10': " + BOTS,
        ),
        (
            ["play", "--name", "Bob", "--bots", "9"],
            "error: invalid --bots '9': expected a number of bots from 0 to 8",
        ),
        (
            ["play", "--bots", "9" * 5000],
            "error: invalid --bots '" + "9" * 80 + "'... (5,000 characters): expected",
        ),
        (
            ["play", "--bots", "-1"],
            "error: invalid --bots '-1': " + BOTS + ", with a letter in each NAME",
        ),
        (
            ["play", "--bots", "+3"],
            "error: invalid --bots '+3': " + BOTS,
        ),
        (
            ["play", "--bots", "2.5"],
            "error: invalid --bots '2.5': " + BOTS,
        ),
        (
            ["play", "--bots", "٣"],
            "error: invalid --bots '٣': " + BOTS,
        ),
        (
            ["play", "--bots", ""],
            "error: invalid --bots '': " + BOTS,
        ),
        (
            ["play", "--bots", "Bob,-1"],
            "error: invalid --bots 'Bob,-1': " + BOTS,
        ),
        (
            ["play", "--bots", "0", "--unit", "2"],
            "error: invalid option --unit with --bots 0: it is what the bots",
        ),
        (
            ["play", "--bots", "0", "--bot-staking", "martingale"],
            "error: invalid option --bot-staking with --bots 0: it is what the bots",
        ),
        (["play", "--bot-staking", "doubling"], "error: Invalid value for '--bot-staking'"),
        (["play", "--bots", "Bob:setter:" + "9" * 5000], "error: invalid bankroll '9999999999999999…' (5000"),
        (
            ["play", "--bots", ",,"],
            "error: invalid --bots ',,': " + BOTS,
        ),
        (["play", "--bots", "Bob,bob"], "error: illegal seat for 'bob': someone of that name"),
        (["play", "--name", "Bob", "--bots", "Bob"], "error: illegal seat for 'Bob': someone of that name"),
        (["play", "--name", ""], "error: invalid player name '': expected 1 to 40 printable characters"),
        (
            ["play", "--name", 'Ann "the Dice"'],
            "error: invalid player name 'Ann \"the Dice\"': expected 1 to 40",
        ),
        (["play", "--name", "x" * 41], "error: invalid player name 'xxxxxxxx"),
        (["play", "--name", "referee"], "error: invalid player name 'referee': expected 1 to 40"),
        (["play", "--bankroll", "-5"], "error: invalid bankroll '-5': expected more than 0"),
        (["play", "--bankroll", "0"], "error: invalid bankroll '0': expected more than 0"),
        (["play", "--bankroll", ""], "error: invalid bankroll '': expected a sum such as 5"),
        (["play", "--unit", ""], "error: invalid bot stake unit '': expected a sum such as 5"),
        (
            ["play", "--unit", "9" * 5000],
            "error: invalid bot stake unit '9999999999999999…' (5000 characters)",
        ),
        (["play", "--bankroll", "9" * 5000], "error: invalid bankroll '9999999999999999…' (5000 characters)"),
        (["play", "--unit", "0"], "error: invalid bot stake unit '0': expected more than 0"),
        (["play", "--unit", "-1"], "error: invalid bot stake unit '-1': expected more than 0"),
        (["play", "--seed", "-1"], "error: invalid --seed '-1': expected a whole number from 0 to 2**63 - 1"),
        (
            ["play", "--seed", "9" * 23],
            "error: invalid --seed '" + "9" * 23 + "': expected a whole number from 0",
        ),
        (["play", "--seed", str(2**63)], f"error: invalid --seed '{2**63}': expected a whole number from 0"),
        (
            ["play", "--seed", "9" * 5000],
            "error: invalid --seed '" + "9" * 80 + "'... (5,000 characters): expected",
        ),
        (["play", "--seed", ""], "error: invalid --seed '': expected a whole number"),
        (["play", "--seed", "x"], "error: invalid --seed 'x': expected a whole number"),
        (["play", "--seed", "７"], "error: invalid --seed '７': expected a whole number"),
        (["play", "--ruleset", "nope"], "error: unknown ruleset 'nope'"),
        (["play", "--paytable", "nope"], "error: unknown paytable 'nope'"),
        (["play", "--stakes", "nope"], "error: Invalid value for '--stakes'"),
        (["play", "3"], "error: invalid game 3: a game number is given only with --resume"),
        (["play", "--resume", "0"], "error: invalid game '0': expected a game number from 1 to 2147483647"),
        (["play", "--resume", str(2**63)], f"error: invalid game '{2**63}': expected a game number from 1"),
        (
            ["play", "--resume", "9" * 5000],
            "error: invalid game '" + "9" * 80 + "'... (5,000 characters): exp",
        ),
        (
            ["referee", "--resume", "x"],
            "error: invalid game 'x': expected a game number from 1 to 2147483647",
        ),
        (
            ["referee", "3", "--player", "Ann:5"],
            "error: invalid game 3: a game number is given only with --resume",
        ),
        (["referee"], "error: invalid table: name the players, e.g. --player Ann:100 --player Bob:100"),
        (["referee", "--player", "Ann"], "error: invalid --player 'Ann': expected NAME:BANKROLL"),
        (["referee", "--player", ":5"], "error: invalid --player ':5': expected NAME:BANKROLL"),
        (["referee", "--player", "Ann:"], "error: invalid bankroll for Ann '': expected a sum"),
        (["referee", "--player", "Ann:x"], "error: invalid bankroll for Ann 'x'"),
        (
            ["referee", "--player", "Ann:" + "9" * 5000],
            "error: invalid bankroll for Ann '9999999999999999…' (5000",
        ),
        (["referee", "--player", 'A"b:5'], "error: invalid player name 'A\"b'"),
        (["referee", "--player", "Ann:5", "--player", "ann:5"], "error: illegal seat for 'ann'"),
        (["play", "--resume", "--name", "Kit"], "error: invalid option --name with --resume: a resumed game"),
        (["referee", "--resume", "--player", "Ann:5"], "error: invalid option --player with --resume"),
    ],
)
def test_a_bad_command_line_is_one_error_and_records_nothing(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, args: list[str], message: str
) -> None:
    db = tmp_path / "games.db"
    error = fails(capsys, *args, "--db", str(db))
    assert error.startswith(message), error
    assert len(error) < 400, error  # a 5000-character value is never echoed whole
    assert not db.exists()


def test_resuming_a_game_with_the_other_command_is_refused(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    _, db = _play(tmp_path, "call 7", "quit")  # game 1
    _referee(tmp_path, "quit")  # game 2
    assert fails(capsys, "referee", "--resume", "1", "--db", str(db)) == (
        "error: illegal resume of game 1 as a hazard referee game: it is a hazard play game "
        "(seeded dice (seed 97)); resume it with hazard play --resume 1"
    )
    assert fails(capsys, "play", "--resume", "2", "--db", str(db)) == (
        "error: illegal resume of game 2 as a hazard play game: it is a hazard referee game (typed dice); "
        "resume it with hazard referee --resume 2"
    )
    # Without a number, each takes the latest game of its own kind.
    again = run_hazard(tmp_path, "play", "--resume", "--db", str(db), lines=["quit"])
    assert "Resuming Game 1 · hazard play" in again.stdout, again.stdout + again.stderr
    again = run_hazard(tmp_path, "referee", "--resume", "--db", str(db), lines=["quit"])
    assert "Resuming Game 2 · hazard referee" in again.stdout, again.stdout + again.stderr
    assert [len(_load(db, game).entries) for game in (1, 2)] == [7, 2]


def test_resuming_when_there_is_no_game_of_that_kind(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    _, db = _referee(tmp_path, "quit")
    assert fails(capsys, "play", "--resume", "--db", str(db)).startswith(
        "error: illegal game: the record at 'sqlite:///"
    )
    assert fails(capsys, "play", "--resume", "--db", str(db)).endswith("holds no hazard play game to resume")
    assert fails(capsys, "referee", "--resume", "5", "--db", str(db)).endswith("has no such game")
