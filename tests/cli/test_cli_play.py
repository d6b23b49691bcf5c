"""``hazard play`` and ``hazard referee`` driven end to end through their real input and output.

Each game runs as its own process with a script typed into its standard input (a pipe: the game echoes what
it reads after the prompt, so the transcript reads like a session). Seeded dice make every throw known:
throw ``i`` of seed 97 is 1-3, 2-6, 2-2, 4-1, 1-2, 5-2, ...

Sums show with two decimals unless ``--money`` says otherwise; the commands a game echoes (the referee's
``[4] stake Bob 5``) are written exactly, so that they read back as the same command.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from tests.commandline import (
    fails,
    feed,
    fuzz,
    fuzz_place,
    hostile_lines,
    hostile_paths,
    hostile_values,
    run,
    survives,
)
from tests.terminal import HAZARD, WAIT, Terminal, exchanges, hazard_env, run_hazard

from hazard.table import (
    REFEREE,
    Access,
    Actor,
    Call,
    DiceKind,
    GameStore,
    PassDice,
    ReplayedGame,
    Roll,
    SeededDice,
    Sit,
    Stake,
    effective_actions,
    load_game,
)


def test_seed_97_throws_what_these_tests_expect() -> None:
    assert [str(SeededDice(97).throw(i)) for i in range(6)] == ["1-3", "2-6", "2-2", "4-1", "1-2", "5-2"]


def _play(tmp_path: Path, *lines: str, seed: int = 97, args: tuple[str, ...] = ()) -> tuple[str, Path]:
    db = tmp_path / "games.db"
    done = run_hazard(tmp_path, "play", "--seed", str(seed), "--db", str(db), *args, lines=lines)
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stderr == ""
    assert "Traceback" not in done.stdout
    return done.stdout, db


def _referee(
    tmp_path: Path, *lines: str, players: tuple[str, ...] = ("Ann:100", "Bob:100"), args: tuple[str, ...] = ()
) -> tuple[str, Path]:
    db = tmp_path / "games.db"
    seats = [arg for player in players for arg in ("--player", player)]
    done = run_hazard(tmp_path, "referee", *seats, "--db", str(db), *args, lines=lines)
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stderr == ""
    assert "Traceback" not in done.stdout
    return done.stdout, db


def _load(db: Path, game: int = 1) -> ReplayedGame:
    store = GameStore.open(str(db))
    try:
        return load_game(store, game)
    finally:
        store.close()


def _export(capsys: pytest.CaptureFixture[str], db: Path, game: int = 1) -> dict[str, Any]:
    code, out, err = run(capsys, "record", "export", str(game), "--db", str(db), "--format", "json")
    assert (code, err) == (0, ""), err
    data: dict[str, Any] = json.loads(out)
    return data


def _in_order(text: str, *parts: str) -> None:
    at = 0
    for part in parts:
        found = text.find(part, at)
        assert found >= 0, f"{part!r} missing (after position {at}) in:\n{text}"
        at = found + len(part)


# --- hazard play -------------------------------------------------------------------------------------------


def test_two_whole_rounds_against_bots(tmp_path: Path) -> None:
    out, db = _play(
        tmp_path,
        "call 7",
        "",  # 1-3: the chance is 4
        "",  # 2-6
        "",  # 2-2: the chance, so Ann wins Bob's stake at the paytable's 2 to 1
        "pass",
        "stake 5",
        "offer 2 on 4 or 10 before 7",
        "",  # Bob calls and throws 4-1: the chance is 5
        "",  # 1-2
        "",  # 5-2: the main before the chance, Bob loses
        "quit",
    )
    # What the bystander Cat bets on is the bots' business; every line about Ann's money is checked by hand.
    _in_order(
        out,
        "Starting Game 1 · hazard play · bot unit 1.00 · wikipedia, paytable wikipedia, stakes bank · "
        "seeded dice (seed 97)",
        "Ann sits down with 100.00",
        "Bob (setter bot) sits down with 100.00",
        "Cat (bystander bot) sits down with 100.00",
        "Bots holding the dice call 7, the best main by exact analysis (expected value +1/9",
        "side bet offered: #1 Cat backs '",
        "Bob stakes 1.00 against Ann",
        "Round 1 · Ann has the dice · no main yet · 0 throws this round",
        "You hold the dice: stake against the bank (e.g. stake 5), call a main (5, 6, 7, 8 or 9)",
        "Ann> call 7\n  the caster calls 7 as the main",
        # Each throw: who threw what, then its events.
        "Ann> \nAnn throws 1-3\n  4 with a main of 7 is the chance: the caster now needs 4 before 7",
        "Round 1 · Ann has the dice · main 7, chance 4 · 1 throw this round",
        "Ann throws 2-6\n  8 is neither the chance 4 nor the main 7: throw again",
        "Ann throws 2-2\n  4 is the chance, thrown before the main 7: the caster wins",
        "  the caster Ann wins 2.00 (Bob pays Ann 2.00)",
        "Round 2 · Ann has the dice · no main yet",
        "Ann> pass\n",
        "the dice pass from Ann to Bob: Ann gives up the dice",
        "Bob holds the dice: stake against Bob (e.g. stake 5)",
        "Ann> stake 5\n  Ann stakes 5.00 against Bob",
        "Ann> offer 2 on 4 or 10 before 7\n  side bet offered: #",
        " Ann backs '4 or 10 before 7' for 2.00 at even money",
        "Bob calls 7, the best main by exact analysis",
        "  the caster calls 7 as the main\nBob throws 4-1\n  5 with a main of 7 is the chance",
        "Bob throws 1-2\n  3 is neither the chance 5 nor the main 7: throw again",
        "Bob throws 5-2\n  7 is the main, thrown before the chance 5: the caster loses",
        "'4 or 10 before 7' fails: Ann pays ",
        "the caster Bob loses 5.00 (Bob pays Ann 5.00)",
        "Round 3 · Bob has the dice · no main yet · 0 throws this round · 1 of 3 losses before the dice pass",
        "Ann> quit\nGame 1 is saved: carry on with hazard play --resume 1 --db ",
    )
    offered = re.search(r"side bet offered: #(\d+) Ann backs '4 or 10 before 7'", out)
    assert offered is not None
    number = offered.group(1)
    taker = re.search(rf"\n  (Bob|Cat) takes side bet #{number} \('4 or 10 before 7'\)\n", out)
    assert taker is not None
    assert f"side bet #{number} '4 or 10 before 7' fails: Ann pays {taker.group(1)} 2.00" in out
    # The table at a glance after the second round: Ann has 100 + 2 - 2 + 5.
    assert re.search(r"Ann\s+105\.00\s+105\.00\s+you\s*\n", out[out.rindex("Round 3 ·") :])
    table = _load(db).table
    assert table.player("Ann").bankroll == 105
    assert table.total_money == 300
    assert (table.caster, table.rounds_played, table.throws) == ("Bob", 2, 6)


BAD_AS_CASTER = [
    # Not a command at all.
    ("foo", "error: unknown command 'foo'"),
    ("help me", "error: invalid command 'help me': help takes nothing after it"),
    ("quit now", "error: invalid command 'quit now': quit takes nothing after it"),
    ("log", "error: unknown command 'log'"),  # the referee's; hazard play has no log to correct
    ("undo", "error: unknown command 'undo'"),
    ("fix 1 3-4", "error: unknown command 'fix 1 3-4'"),
    (
        "x" * 5000,
        "error: unknown command '" + "x" * 80 + "'... (5,000 characters): type help",
    ),
    # Calls.
    ("call", "error: invalid command 'call': expected call MAIN, e.g. call 7"),
    ("call x", "error: invalid command 'call x': expected call MAIN, e.g. call 7"),
    ("call 7 8", "error: invalid command 'call 7 8': expected call MAIN, e.g. call 7"),
    ("call 4", "error: illegal main 4 in ruleset 'wikipedia': the mains are 5, 6, 7, 8 and 9"),
    ("call 13", "error: invalid main 13: expected a total from 2 to 12"),
    ("0", "error: invalid main 0: expected a total from 2 to 12"),
    # Throws: the game throws its own dice, and only once a main is called.
    ("throw", "error: illegal throw by Ann in round (no main yet): Ann must call a main first"),
    ("", "error: illegal throw by Ann in round (no main yet): Ann must call a main first"),
    (
        "3-4",
        "error: illegal throw 3-4 by Ann in game 1: the game throws its own seeded dice (seed 97): ask for a "
        "throw ('throw') instead of naming one",
    ),
    ("throw 3 4", "error: illegal throw 3-4 by Ann in game 1: the game throws its own seeded dice"),
    (
        "13",
        "error: illegal throw 1-3 by Ann in game 1: the game throws its own seeded dice",
    ),  # two digits are a roll
    ("7 7", "error: invalid roll '7 7': each die shows 1 to 6"),
    # Stakes, and the sums they name.
    ("stake", "error: invalid command 'stake': expected stake [NAME] AMOUNT [consent], e.g. stake 5"),
    ("stake 500", "error: illegal stake Ann 500 by Ann: no one at the table can cover it as the bank"),
    ("stake -5", "error: invalid stake '-5': expected more than 0"),
    ("stake 0", "error: invalid stake '0': expected more than 0"),
    ("stake abc", "error: invalid stake 'abc': expected a sum such as 5, 2.50, 5/3, £1 10s or 7s 6d"),
    (
        "stake 1/0",
        "error: invalid stake '1/0': expected a sum such as 5, 2.50, 5/3, £1 10s or 7s 6d, with a denominator"
        " of 1 or more",
    ),
    ("stake £110s", "error: invalid stake '£110s': expected a sum such as 5, 2.50, 5/3, £1 10s or 7s 6d"),
    ("stake " + "9" * 70, "error: invalid stake '9999999999999999…' (70 characters): expected at most 64"),
    (
        "stake " + "9" * 5000,
        "error: invalid command 'stake 9999999999999999999999999999999999' (and 4966 more "
        "characters): expected",
    ),
    ("withdraw", "error: illegal withdrawal by 'Ann': no stake of theirs is laid"),
    # Side bets: #1 is Cat's, taken by the setter Bob.
    ("take 9", "error: illegal side bet #9: no such bet is open"),
    ("take 1", "error: illegal take of side bet #1: Bob has already taken it"),
    ("take x", "error: invalid side bet number 'x': expected a whole number"),
    ("offer", "error: invalid command 'offer': expected offer [NAME] AMOUNT on BET [at ODDS]"),
    ("offer lots on 4 before 7", "error: invalid side bet amount 'lots': expected a sum such as 5, 2.50"),
    ("offer 2 on nonsense", "error: invalid proposition 'nonsense': expected 'A before B'"),
    ("offer 2 on 4 or 10 before 7 at 0", "error: invalid odds '0': expected odds above 0"),
    ("offer 500 on 4 or 10 before 7", "error: illegal side bet by 'Ann': 500 is more than the 99 free"),
    # Who may act is the table's to say: a player acts only for himself.
    (
        "stake Bob 5",
        "error: illegal stake Bob 5 by Ann at the wikipedia table of 3 players, caster Ann, round: "
        "no main yet: "
        "a player stakes only for himself (this is Bob's)",
    ),
    (
        "withdraw Bob",
        "error: illegal withdraw Bob by Ann at the wikipedia table of 3 players, caster Ann, round: "
        "no main yet: "
        "a player withdraws only his own stakes",
    ),
    (
        "take 1 Bob",
        "error: illegal take 1 Bob by Ann at the wikipedia table of 3 players, caster Ann, round: no "
        "main yet: "
        "a player takes a side bet only for himself",
    ),
    (
        "offer Cat 2 on 4 before 7",
        "error: illegal offer Cat 2 on 4 before 7 by Ann at the wikipedia table of 3 players, caster "
        "Ann, round: "
        "no main yet: a player offers only his own side bets",
    ),
    (
        "cancel 1",
        "error: illegal cancel 1 by Ann at the wikipedia table of 3 players, caster Ann, round: no main yet: "
        "a player withdraws only his own side bets (this is Cat's)",
    ),
    (
        "sit Zed 5",
        "error: illegal sit Zed 5 by Ann at the wikipedia table of 3 players, caster Ann, round: no "
        "main yet: a player sits only himself down",
    ),
    ("sit Ann 100", "error: illegal seat for 'Ann': someone of that name is already at the table"),
]
BAD_AS_SETTER = [
    (
        "stake 500",
        "error: illegal stake of 500 by 'Ann': Ann cannot cover it (the caster could win 1000; "
        "Ann has 100 free)",
    ),
    ("stake -5", "error: invalid stake '-5': expected more than 0"),
    (
        "pass",
        "error: illegal pass by Ann at the wikipedia table of 3 players, caster Bob, round: no main yet: "
        "only the caster, Bob, passes the dice",
    ),
    (
        "call 7",
        "error: illegal call 7 by Ann at the wikipedia table of 3 players, caster Bob, round: no main yet: "
        "only the caster, Bob, calls the main",
    ),
    ("7", "error: illegal call 7 by Ann at the wikipedia table of 3 players, caster Bob"),
    ("3 4", "error: illegal throw 3-4 by Ann in game 1: the game throws its own seeded dice"),
]
BAD_IN_ROUND = [
    ("stake 1", "error: illegal stake of 1 by 'Ann' in round (main 7, chance 4): stakes are laid before"),
    ("withdraw", "error: illegal withdrawal by 'Ann' in round (main 7, chance 4): it has begun"),
    (
        "pass",
        "error: illegal pass by Ann at the wikipedia table of 3 players, caster Bob, round: main 7, chance 4",
    ),
]


def test_every_bad_entry_is_one_error_line_and_nothing_recorded_is_lost(tmp_path: Path) -> None:
    lines = [
        *(typed for typed, _ in BAD_AS_CASTER),
        "pass",
        *(typed for typed, _ in BAD_AS_SETTER),
        "",  # Bob calls 7 and throws 1-3: the chance is 4
        *(typed for typed, _ in BAD_IN_ROUND),
        "",  # and the game goes on: 2-6
        "quit",
    ]
    out, db = _play(tmp_path, *lines)
    turns = iter(exchanges(out, "Ann> "))
    answers = {}
    for typed, message in [*BAD_AS_CASTER, *BAD_AS_SETTER, *BAD_IN_ROUND]:
        answer = next(answer for echoed, answer in turns if echoed == typed)
        assert len(answer) == 1, (typed, answer)
        assert answer[0].startswith(message), (typed, answer[0])
        answers[typed] = answer[0]
    assert answers["stake 1"].endswith(
        "by 'Ann' in round (main 7, chance 4): stakes are laid before the round begins"
    )
    assert "Bob throws 1-3" in out
    assert "Bob throws 2-6\n  8 is neither the chance 4 nor the main 7: throw again" in out
    # The bad entries left no trace: Ann's seat and her pass are all she did; Bob called once, threw twice.
    game = _load(db)
    standing = effective_actions(game.entries)
    assert [action for _, by, action in standing if by == Actor.player("Ann")] == [
        Sit("Ann", Fraction(100)),
        PassDice(),
    ]
    assert [action for _, by, action in standing if isinstance(action, Call | Roll)] == [
        Call(7),
        Roll(1, 3),
        Roll(2, 6),
    ]
    assert all(by == Actor.player("Bob") for _, by, action in standing if isinstance(action, Call | Roll))
    assert not any(by.is_referee for _, by, _ in standing)
    assert (game.table.caster, game.table.round.chance, game.table.throws) == ("Bob", 4, 2)


def test_an_unknown_command_points_to_help(tmp_path: Path) -> None:
    # "expected one of sit, stake, ..., or a roll" lists the referee's verbs, two of which hazard play
    # refuses (sit, a roll), and none of help, table, bets, quit: the old answer sent you to help.
    out, _ = _play(tmp_path, "frobnicate", "quit")
    (answer,) = dict(exchanges(out, "Ann> "))["frobnicate"]
    assert answer.startswith("error: unknown command 'frobnicate'")
    assert "help" in answer, answer
    out, _ = _referee(tmp_path, "frobnicate", "quit")
    (answer,) = dict(exchanges(out, "referee> "))["frobnicate"]
    assert answer.startswith("error: unknown command 'frobnicate'")
    assert "help" in answer, answer


def test_naming_a_throw_in_play_says_how_to_throw(tmp_path: Path) -> None:
    # The refusal says how to throw: with the command throw (or Enter, as the hint says).
    out, _ = _play(tmp_path, "call 7", "3-4", "quit")
    (answer,) = dict(exchanges(out, "Ann> "))["3-4"]
    assert answer.startswith("error: illegal throw 3-4 by Ann in game 1: the game throws its own seeded dice")
    assert "('throw')" in answer, answer


def test_help_bets_and_table_answer_without_recording(tmp_path: Path) -> None:
    out, db = _play(tmp_path, "help", "bets", "table", "?", "show", "quit")
    answers = dict(exchanges(out, "Ann> "))
    assert answers["help"][0] == "Commands (Enter alone throws the dice):"
    assert any("offer AMOUNT on BET [at ODDS]" in line for line in answers["help"])
    assert any("stake 5/3, stake £1 10s" in line for line in answers["help"])
    assert answers["?"] == answers["help"]
    assert answers["bets"][0].startswith(
        "Even-money side bets from 002_e25665f301869517.txt: 4 or 10 before 7"
    )
    assert answers["table"][0] == "Round 1 · Ann has the dice · no main yet · 0 throws this round"
    assert re.search(r"Ann\s+100\.00\s+99\.00\s+covers 1\.00\s+you, caster", "\n".join(answers["table"]))
    assert answers["show"] == answers["table"]
    assert len(_load(db).entries) == 6  # three seats, then the bots' side bet, its taker and a stake


def test_end_of_input_leaves_the_game_to_resume(tmp_path: Path) -> None:
    out, _ = _play(tmp_path, "call 7")
    assert out.rstrip().endswith(
        "Game 1 is saved: carry on with hazard play --resume 1 --db " + str(tmp_path / "games.db")
    )


def test_ctrl_c_leaves_the_game_cleanly(tmp_path: Path) -> None:
    game = Terminal(tmp_path, "play", "--seed", "97", "--db", str(tmp_path / "games.db"))
    game.expect("Ann> ")
    game.send("call 7")
    game.expect("the caster calls 7 as the main")
    game.expect("Ann> ")
    assert game.interrupt() == 0
    assert "Game 1 is saved: carry on with hazard play --resume 1" in game.output
    assert "Traceback" not in game.output
    assert _load(tmp_path / "games.db").table.round.main == 7


def test_resume_carries_on_where_the_game_stopped(tmp_path: Path) -> None:
    _, db = _play(tmp_path, "call 7", "")  # 1-3: the chance is 4
    again = run_hazard(tmp_path, "play", "--resume", "--db", str(db), lines=["", "quit"])
    assert again.returncode == 0, again.stderr
    _in_order(
        again.stdout,
        "Resuming Game 1 · hazard play · bot unit 1.00 · wikipedia, paytable wikipedia, stakes bank · "
        "seeded dice (seed 97)",
        "8 entries replayed from the record",
        "Round 1 · Ann has the dice · main 7, chance 4 · 1 throw this round",
        "Ann> \nAnn throws 2-6\n",  # throw 2 of seed 97, as if never stopped
    )


def test_bots_by_name_and_policy_and_a_ruleset_without_a_paytable(tmp_path: Path) -> None:
    out, _ = _play(
        tmp_path,
        "quit",
        seed=5,
        args=(
            "--ruleset",
            "britannica",
            "--name",
            "Zoe",
            "--bankroll",
            "50",
            "--bots",
            "Max:bystander:20,Sam",
            "--unit",
            "2",
        ),
    )
    _in_order(
        out,
        "britannica-1911 has no paytable of its own: stakes settle at even money (choose one with --payt",
        "Starting Game 1 · hazard play · bot unit 2.00 · britannica-1911, paytable even, stakes setter-sum",
        "Zoe sits down with 50.00",
        "Max (bystander bot) sits down with 20.00",
        "Sam (setter bot) sits down with 50.00",
        "Sam stakes 2.00 against Zoe",
        "Zoe> quit",
    )


def test_the_caster_names_his_stake_against_the_bank(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    # Wikipedia's arrangement: the caster stakes against the bank; the setter bot covers it at the
    # paytable's odds (up to 2/1 here, so 10 needs 20 of the setter's free money).
    out, db = _play(tmp_path, "stake 10", "stake 60", "quit")
    _in_order(
        out,
        "Ann> stake 10\n  Bob stakes 10.00 against Ann",
        "Ann> stake 60\nerror: illegal stake Ann 60 by Ann: no one at the table can cover it as the bank",
    )
    wagers = _load(db).table.wagers
    assert sorted((w.opponent, w.amount) for w in wagers) == [("Bob", Fraction(1)), ("Bob", Fraction(10))]
    # The stake is the bank's: the bot that covers it is the one who entered it.
    stakes = [e for e in _export(capsys, db)["entries"] if e["entry"]["type"] == "stake"]
    assert [(e["actor"], e["text"]) for e in stakes] == [
        ({"kind": "player", "name": "Bob"}, "stake Bob 1"),
        ({"kind": "player", "name": "Bob"}, "stake Bob 10"),
    ]


def test_a_late_stake_against_a_bot_caster_is_entered_with_his_consent(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    # Everyone against the caster: once the chance is set, a bet needs the caster's consent; a bot gives it.
    out, db = _play(tmp_path, "pass", "", "stake 5", "quit", args=("--stakes", "all-against-caster"))
    _in_order(out, "Bob throws 1-3\n", "Ann> stake 5\n  Ann stakes 5.00 against Bob\n")
    last = _export(capsys, db)["entries"][-1]
    assert (last["actor"], last["for"], last["text"]) == (
        {"kind": "player", "name": "Bob"},
        "Ann",
        "stake Ann 5 consent",
    )
    assert Stake("Ann", Fraction(5), consent=True) in [
        action for _, _, action in effective_actions(_load(db).entries)
    ]


def test_every_form_of_a_sum_is_recorded_exactly(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    forms = [
        "stake 5",
        "stake 2.50",
        "stake 5/3",
        "stake £1 10s",
        "stake 7s 6d",
        "STAKE 1.25",
        "stake  3 / 4",
    ]
    out, db = _play(tmp_path, "pass", *forms, "quit")  # Bob holds the dice: Ann stakes against him
    answers = dict(exchanges(out, "Ann> "))
    shown = [answers[form][0] for form in forms]
    assert shown == [
        "  Ann stakes 5.00 against Bob",
        "  Ann stakes 2.50 against Bob",
        "  Ann stakes 1.67 against Bob",
        "  Ann stakes 1.50 against Bob",
        "  Ann stakes 0.38 against Bob",
        "  Ann stakes 1.25 against Bob",
        "  Ann stakes 0.75 against Bob",
    ]
    stakes = [
        e for e in _export(capsys, db)["entries"] if e["entry"]["type"] == "stake" and e["for"] == "Ann"
    ]
    assert [e["entry"]["amount"] for e in stakes] == ["5/1", "5/2", "5/3", "3/2", "3/8", "5/4", "3/4"]
    assert [e["text"] for e in stakes] == [
        "stake Ann 5",
        "stake Ann 5/2",
        "stake Ann 5/3",
        "stake Ann 3/2",
        "stake Ann 3/8",
        "stake Ann 5/4",
        "stake Ann 3/4",
    ]
    assert all(e["actor"] == {"kind": "player", "name": "Ann"} for e in stakes)
    assert _load(db).table.staked_by("Ann") == sum(
        (
            Fraction(5),
            Fraction(5, 2),
            Fraction(5, 3),
            Fraction(3, 2),
            Fraction(3, 8),
            Fraction(5, 4),
            Fraction(3, 4),
        ),
        Fraction(0),
    )


def test_play_in_each_money_style(tmp_path: Path) -> None:
    shown = {}
    for style in ("decimal", "exact", "lsd", None):
        folder = tmp_path / str(style)
        folder.mkdir()
        money = () if style is None else ("--money", style)
        shown[style], _ = _play(
            folder, "pass", "stake 7s 6d", "table", "quit", args=("--bankroll", "305/3", *money)
        )
    started = re.compile(r"started \S+|--db \S+")
    assert started.sub("", shown[None]) == started.sub("", shown["decimal"])  # decimal is the default
    decimal, exact, lsd = shown["decimal"], shown["exact"], shown["lsd"]
    assert "Ann sits down with 101.67\n" in decimal
    assert "Ann sits down with 305/3\n" in exact
    assert "Ann sits down with £101 13s 4d\n" in lsd
    assert "bot unit 1.00 ·" in decimal
    assert "bot unit 1 ·" in exact
    assert "bot unit £1 ·" in lsd
    assert "Ann> stake 7s 6d\n  Ann stakes 0.38 against Bob\n" in decimal
    assert "Ann> stake 7s 6d\n  Ann stakes 3/8 against Bob\n" in exact
    assert "Ann> stake 7s 6d\n  Ann stakes 7s 6d against Bob\n" in lsd
    table = {style: "\n".join(dict(exchanges(text, "Ann> "))["table"]) for style, text in shown.items()}
    assert re.search(r"Ann\s+101\.67\s+\S+\s+0\.38 against Bob\s+you", table["decimal"])
    assert re.search(r"Ann\s+305/3\s+\S+\s+3/8 against Bob\s+you", table["exact"])
    assert re.search(r"Ann\s+£101 13s 4d\s+.+\s+7s 6d against Bob\s+you", table["lsd"])


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


# --- hazard referee -----------------------------------------------------------------------------------------


def test_referee_records_real_dice_and_corrects_mistakes_without_deleting(tmp_path: Path) -> None:
    lines = [
        "stake bob 5",  # [3]
        "call 7",  # [4]
        "3 4",  # [5] a nick, typed by mistake
        "undo",  # [6] voids entry 5
        "2-2",  # [7] the chance is 4
        "7-1",
        "9",
        "throw",
        "stake Zed 5",
        "stake 5",
        "void 99",
        "void 6",
        "void x",
        "fix 5",
        "undo now",
        "",  # the referee's Enter asks nothing
        "5 5",  # [8]
        "throw 1-3",  # [9] the chance: Ann would win 10
        "fix 8 3-4",  # refused: entry 9 would then be a throw with no main called
        "fix 9 3-4",  # [10] entry 9 was really 3-4: the main, so Ann loses 5
        "log",
        "quit",
    ]
    out, db = _referee(tmp_path, *lines)
    answers = dict(exchanges(out, "referee> "))
    assert out.startswith(
        "Starting Game 1 · hazard referee · wikipedia, paytable wikipedia, stakes bank · typed"
    )
    _in_order(out, "[1] sit Ann 100\n  Ann sits down with 100.00\n  Ann takes the dice\n[2] sit Bob 100\n")
    assert answers["stake bob 5"][:2] == ["[3] stake Bob 5", "  Bob stakes 5.00 against Ann"]
    assert answers["3 4"][:4] == [
        "[5] throw 3-4",
        "  Ann throws 3-4",
        "  7 with a main of 7 is a nick: the caster wins",
        "  the caster Ann wins 5.00 (Bob pays Ann 5.00)",
    ]
    assert answers["undo"][0].startswith("[6] correction: entry 5 is void (was 'throw 3-4'")
    assert re.search(r"Ann\s+100\.00\s+95\.00\s+covers 5\.00\s+caster", "\n".join(answers["undo"]))
    assert answers["2-2"][:3] == [
        "[7] throw 2-2",
        "  Ann throws 2-2",
        "  4 with a main of 7 is the chance: the caster now needs 4 before 7",
    ]
    errors = {
        "7-1": "error: invalid roll '7-1': each die shows 1 to 6",
        "9": "error: illegal call of main 9 in round (main 7, chance 4): the main is already set",
        "throw": "error: illegal throw by the referee in game 1: its throws are real dice, typed in as they",
        "stake Zed 5": "error: illegal player 'Zed': not at the table (seated: Ann, Bob)",
        "stake 5": "error: invalid command 'stake 5': the referee names the player: stake NAME AMOUNT",
        "void 99": "error: illegal correction of entry 99: it can only correct entries 1 to 7",
        "void 6": "error: illegal correction of entry 6: it is a correction itself; correct entry 5 instead",
        "void x": "error: invalid entry number 'x': expected an entry number, the [N] before a recorded line",
        "fix 5": "error: invalid command 'fix 5': expected fix N COMMAND, e.g. fix 7 3-4",
        "undo now": "error: invalid command 'undo now': expected undo",
        "fix 8 3-4": "error: illegal correction of entry 8: record of game 1 does not replay: entry 9: "
        "illegal throw 1-3 in round (no main yet): Ann must call a main first",
    }
    for typed, message in errors.items():
        assert len(answers[typed]) == 1, (typed, answers[typed])
        assert answers[typed][0].startswith(message), (typed, answers[typed])
    assert answers[""] == []
    assert answers["throw 1-3"][3] == "  the caster Ann wins 10.00 (Bob pays Ann 10.00)"
    assert answers["fix 9 3-4"][0].startswith(
        "[10] correction: entry 9 now reads 'throw 3-4' (was 'throw 1-3'"
    )
    log = "\n".join(answers["log"])  # the entry's time stands after the last '·'
    assert log.startswith("Entries of game 1:\n[1] sit Ann 100 · entered by the referee for Ann · ")
    assert "\n[3] stake Bob 5 · entered by the referee for Bob · " in log
    assert re.search(
        r"\n\[5\] throw 3-4 · entered by the referee · void · \S+\n"
        r"\[6\] correction: entry 5 is void · entered by the referee · ",
        log,
    )
    assert re.search(
        r"\n\[9\] throw 1-3 · entered by the referee for Ann · replaced · \S+\n"
        r"      Ann throws 3-4\n"
        r"      7 is the main, thrown before the chance 4: the caster loses\n"
        r"      the caster Ann loses 5\.00 \(Ann pays Bob 5\.00\)\n"
        r"\[10\] correction: entry 9 now reads 'throw 3-4' · entered by the referee · ",
        log,
    )
    assert "Game 1 is saved: carry on with hazard referee --resume 1 --db " in out

    game = _load(db)
    assert len(game.entries) == 10  # every entry kept, the mistakes and their corrections included
    assert all(entry.actor == REFEREE for entry in game.entries)
    assert {p.name: p.bankroll for p in game.table.players} == {"Ann": 95, "Bob": 105}
    assert (game.table.caster, game.table.rounds_played, game.table.losses_in_row) == ("Ann", 1, 1)

    again = run_hazard(tmp_path, "referee", "--resume", "--db", str(db), lines=["call 6", "3-3", "quit"])
    assert again.returncode == 0, again.stderr
    _in_order(
        again.stdout,
        "Resuming Game 1 · hazard referee · wikipedia, paytable wikipedia, stakes bank · typed dice",
        "10 entries replayed from the record",
        "Round 2 · Ann has the dice · no main yet · 0 throws this round · 1 of 3 losses before the dice pass",
        "referee> call 6\n[11] call 6",
        "referee> 3-3\n[12] throw 3-3\n  Ann throws 3-3\n  6 with a main of 6 is a nick: the caster wins",
    )


def test_a_stake_with_no_sum_gives_the_command_form(tmp_path: Path) -> None:
    # Not "invalid stake 'Bob'", which reads as though Bob were the sum.
    out, _ = _referee(tmp_path, "stake Bob", "stake", "quit")
    answers = dict(exchanges(out, "referee> "))
    for typed in ("stake Bob", "stake"):
        (answer,) = answers[typed]
        assert answer.startswith(f"error: invalid command '{typed}': expected stake "), answer
        assert "NAME] AMOUNT" in answer or "NAME AMOUNT" in answer, answer


def test_referee_side_bets_and_players_joining(tmp_path: Path) -> None:
    lines = [
        "sit Cat 20",
        'sit "Dan Roe" 10',
        "offer cat 2 on 4 or 10 before 7 at 2 to 1",
        "take 1 Bob",
        "take 1 Ann",
        "take 1",
        "cancel 1",
        'offer "dan roe" 1 on 6 before 8',
        "cancel 2",
        "call 8",
        "4-6",
        "quit",
    ]
    out, db = _referee(tmp_path, *lines)
    answers = dict(exchanges(out, "referee> "))
    assert answers["sit Cat 20"][:2] == ["[3] sit Cat 20", "  Cat sits down with 20.00"]
    assert answers['sit "Dan Roe" 10'][:2] == ['[4] sit "Dan Roe" 10', "  Dan Roe sits down with 10.00"]
    assert answers["offer cat 2 on 4 or 10 before 7 at 2 to 1"][:2] == [
        "[5] offer Cat 2 on 4 or 10 before 7 at 2/1",
        "  side bet offered: #1 Cat backs '4 or 10 before 7' for 2.00 at odds 2 to 1",
    ]
    assert answers["take 1 Bob"][:2] == ["[6] take 1 Bob", "  Bob takes side bet #1 ('4 or 10 before 7')"]
    assert answers["take 1 Ann"] == ["error: illegal take of side bet #1: Bob has already taken it"]
    assert answers["take 1"][0].startswith("error: invalid command 'take 1': the referee names the player")
    assert len(answers["cancel 1"]) == 1
    assert answers["cancel 1"][0].startswith("error: illegal ")
    assert answers['offer "dan roe" 1 on 6 before 8'][0] == '[7] offer "Dan Roe" 1 on 6 before 8'
    assert answers["cancel 2"][:2] == ["[8] cancel 2", "  side bet #2 withdrawn"]
    assert "  side bet #1 '4 or 10 before 7' comes true: Bob pays Cat 4.00" in answers["4-6"]
    entries = _load(db).entries
    assert [str(entry.actor) for entry in entries] == ["the referee"] * 10


def test_referee_in_pounds_shillings_and_pence(tmp_path: Path) -> None:
    lines = ["stake Bob £1 10s", "stake cat 7s 6d", "call 7", "3-4", "log", "quit"]
    out, db = _referee(tmp_path, *lines, players=("Ann:305/3", "Bob:100", "Cat:£5"), args=("--money", "lsd"))
    answers = dict(exchanges(out, "referee> "))
    _in_order(out, "[1] sit Ann £101 13s 4d\n  Ann sits down with £101 13s 4d\n", "[3] sit Cat £5\n")
    assert answers["stake Bob £1 10s"][:2] == ["[4] stake Bob £1 10s", "  Bob stakes £1 10s against Ann"]
    assert answers["stake cat 7s 6d"][:2] == ["[5] stake Cat 7s 6d", "  Cat stakes 7s 6d against Ann"]
    assert re.search(
        r"Ann\s+£101 13s 4d\s+£99 15s 10d\s+covers £1 17s 6d\s+caster", "\n".join(answers["stake cat 7s 6d"])
    )
    assert answers["3-4"][:4] == [
        "[7] throw 3-4",
        "  Ann throws 3-4",
        "  7 with a main of 7 is a nick: the caster wins",
        "  the caster Ann wins £1 17s 6d (Bob pays Ann £1 10s; Cat pays Ann 7s 6d)",
    ]
    table = "\n".join(answers["3-4"])
    assert re.search(r"Ann\s+£103 10s 10d\s+£103 10s 10d\s+caster", table)
    assert re.search(r"Bob\s+£98 10s\s+£98 10s", table)
    assert re.search(r"Cat\s+£4 12s 6d\s+£4 12s 6d", table)
    log = "\n".join(answers["log"])
    assert "\n[4] stake Bob £1 10s · entered by the referee for Bob · " in log
    assert "\n[5] stake Cat 7s 6d · entered by the referee for Cat · " in log
    bankrolls = {p.name: p.bankroll for p in _load(db).table.players}
    assert bankrolls == {
        "Ann": Fraction(305, 3) + Fraction(15, 8),
        "Bob": Fraction(197, 2),
        "Cat": Fraction(37, 8),
    }


def test_referee_exact_and_decimal_sums(tmp_path: Path) -> None:
    shown = {}
    for style in ("decimal", "exact"):
        folder = tmp_path / style
        folder.mkdir()
        shown[style], _ = _referee(
            folder, "stake Bob 5/3", "quit", players=("Ann:305/3", "Bob:100"), args=("--money", style)
        )
    # Decimal shows sums to the penny; the commands it echoes stay exact, so that they read back the same.
    assert "[1] sit Ann 305/3\n  Ann sits down with 101.67\n" in shown["decimal"]
    assert "[3] stake Bob 5/3\n  Bob stakes 1.67 against Ann\n" in shown["decimal"]
    assert re.search(r"Ann\s+101\.67\s+100\.00\s+covers 1\.67\s+caster", shown["decimal"])
    assert "[1] sit Ann 305/3\n  Ann sits down with 305/3\n" in shown["exact"]
    assert "[3] stake Bob 5/3\n  Bob stakes 5/3 against Ann\n" in shown["exact"]
    assert re.search(r"Ann\s+305/3\s+100\s+covers 5/3\s+caster", shown["exact"])


def test_referee_with_a_name_of_two_words(tmp_path: Path) -> None:
    out, db = _referee(tmp_path, 'stake "bob roe" 5', "quit", players=("Ann Lee:100", "Bob Roe:100"))
    _in_order(out, '[1] sit "Ann Lee" 100\n  Ann Lee sits down with 100.00\n  Ann Lee takes the dice\n')
    answer = dict(exchanges(out, "referee> "))['stake "bob roe" 5']
    assert answer[:2] == ['[3] stake "Bob Roe" 5', "  Bob Roe stakes 5.00 against Ann Lee"]
    assert [p.name for p in _load(db).table.players] == ["Ann Lee", "Bob Roe"]


def test_bytes_that_are_not_utf8_are_refused_by_name_not_by_a_crash(tmp_path: Path) -> None:
    """A stray byte at the prompt, or a file name from another system, under a strict UTF-8 locale."""
    db = os.fsencode(tmp_path) + b"/\xff.db"
    done = subprocess.run(
        [*HAZARD, "play", "--seed", "1", "--db", db],
        input=b"stake \xff\ntable\nquit\n",
        capture_output=True,
        env={**hazard_env(tmp_path), "PYTHONIOENCODING": "utf-8:strict"},
        timeout=WAIT,
        check=False,
    )
    assert (done.returncode, done.stderr) == (0, b""), done.stdout[-2000:] + done.stderr
    assert b"\nerror: invalid stake '\\udcff': expected a sum such as 5" in done.stdout
    assert done.stdout.rstrip().endswith(b"hazard play --resume 1 --db '" + db + b"'")  # the name as given
    assert os.path.exists(db)


# --- fuzzing: whatever is typed, one error line and the game goes on ---------------------------------------


@pytest.fixture
def place(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capfd: pytest.CaptureFixture[str]) -> Path:
    """A folder for the fuzzers, with a record holding a played game (1) and a refereed one (2)."""
    folder = fuzz_place(tmp_path, monkeypatch)
    db = str(folder / "games.db")
    feed(monkeypatch, ["quit"])
    assert main_runs("play", "--seed", "1", "--db", db)
    feed(monkeypatch, ["quit"])
    assert main_runs("referee", "--player", "Ann:100", "--player", "Bob:100", "--db", db)
    capfd.readouterr()  # what the games printed is not the fuzzers' to read
    return folder


def main_runs(*args: str) -> bool:
    from hazard.cli import main

    try:
        main(list(args))
    except SystemExit as exit_:
        return not exit_.code
    return True


_PATHS = ("--ruleset", "--paytable", "--db")
_PLAY = (
    "--ruleset",
    "--paytable",
    "--stakes",
    "--name",
    "--bankroll",
    "--bots",
    "--unit",
    "--seed",
    "--money",
)
_REFEREE = ("--player", "--ruleset", "--paytable", "--stakes", "--money")


def _values_of(option: str, place: Path) -> st.SearchStrategy[str]:
    if option == "--db":
        return hostile_paths(place)
    return hostile_paths(place) if option in _PATHS else hostile_values()


def _with(base: dict[str, str], option: str, value: str) -> list[str]:
    given = {**base, option: value}
    return [word for pair in given.items() for word in pair]


@fuzz(120)
@given(data=st.data())
def test_fuzz_any_value_of_a_play_option_is_one_error_line_or_a_game(
    capfd: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, place: Path, data: st.DataObject
) -> None:
    db = str(place / "games.db")
    option = data.draw(st.sampled_from((*_PLAY, "--db", "GAME")), label="option")
    value = data.draw(_values_of(option, place), label="value")
    feed(monkeypatch, ["quit"])
    if option == "GAME":
        survives(capfd, "play", "--resume", value, "--db", db)
    else:
        survives(capfd, "play", *_with({"--seed": "1", "--db": db}, option, value))


@fuzz(80)
@given(data=st.data())
def test_fuzz_any_value_of_a_referee_option_is_one_error_line_or_a_game(
    capfd: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, place: Path, data: st.DataObject
) -> None:
    db = str(place / "games.db")
    option = data.draw(st.sampled_from((*_REFEREE, "--db", "GAME")), label="option")
    value = data.draw(_values_of(option, place), label="value")
    feed(monkeypatch, ["quit"])
    if option == "GAME":
        survives(capfd, "referee", "--resume", value, "--db", db)
    elif option == "--player":  # one bad seat beside a good one
        survives(capfd, "referee", "--player", "Ann:100", "--player", value, "--db", db)
    else:
        survives(capfd, "referee", *_with({"--player": "Ann:100", "--db": db}, option, value))


PLAY_LINES = (
    "",
    "throw",
    "stake 5",
    "stake 2.50",
    "stake 5/3",
    "stake £1 10s",
    "withdraw",
    "call 7",
    "7",
    "offer 2 on 4 or 10 before 7",
    "offer 2 on 4 before 7 at 2/1",
    "offer 1 on next odd",
    "offer 1 on 6 within 3 throws",
    "take 1",
    "take 2",
    "cancel 2",
    "pass",
    "help",
    "bets",
    "table",
)
REFEREE_LINES = (
    "",
    "3-4",
    "3 4",
    "throw 3-4",
    "call 7",
    "stake Bob 5",
    "stake Bob 5 consent",
    "withdraw Bob",
    "offer Bob 2 on 4 or 10 before 7",
    "offer Ann 2 on 4 before 7 at 2/1",
    "take 1 Ann",
    "cancel 1",
    "pass",
    "sit Cat 50",
    "undo",
    "void 3",
    "void 1",
    "fix 3 3-4",
    "fix 3 stake Bob 2",
    "log",
    "help",
    "bets",
    "table",
)
"""What each prompt understands, for the fuzzer to mutate: every verb, with its usual arguments."""


def _each_line_is_answered(out: str, prompt: str, lines: list[str]) -> None:
    """Each line typed was answered, an error with that one line alone, and the ``table`` after it worked."""
    turns = exchanges(out, prompt)
    assert len(turns) == 2 * len(lines) + 1, out[-2000:]  # each line and its probe, then quit
    for at, line in enumerate(lines):
        _, answer = turns[2 * at]
        errors = [said for said in answer if said.startswith("error:")]
        assert not errors or answer == errors[:1], (line[:200], answer)
        assert not errors or len(errors[0]) < 600, (line[:200], errors)
        _, probe = turns[2 * at + 1]
        assert probe, line[:200]
        assert probe[0].startswith("Round "), (line[:200], probe)
    assert "is saved: carry on with" in out.rsplit(prompt, 1)[1]


@fuzz(30)
@given(lines=st.lists(hostile_lines(PLAY_LINES), min_size=1, max_size=6))
def test_fuzz_any_line_at_the_play_prompt_is_one_error_line_and_the_game_goes_on(
    capfd: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, place: Path, lines: list[str]
) -> None:
    # After each line, a valid command ("table") that must still work; then quit, which must save the game.
    feed(monkeypatch, [*(said for line in lines for said in (line, "table")), "quit"])
    code, out, err = survives(capfd, "play", "--seed", "1", "--db", str(place / "games.db"))
    assert (code, err) == (0, "")
    _each_line_is_answered(out, "Ann> ", lines)


@fuzz(30)
@given(lines=st.lists(hostile_lines(REFEREE_LINES), min_size=1, max_size=6))
def test_fuzz_any_line_at_the_referee_prompt_is_one_error_line_and_the_game_goes_on(
    capfd: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, place: Path, lines: list[str]
) -> None:
    feed(monkeypatch, [*(said for line in lines for said in (line, "table")), "quit"])
    seats = ("--player", "Ann:100", "--player", "Bob:100")
    code, out, err = survives(capfd, "referee", *seats, "--db", str(place / "games.db"))
    assert (code, err) == (0, "")
    _each_line_is_answered(out, "referee> ", lines)


def test_the_dice_are_fair_unless_asked_otherwise(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    db = str(tmp_path / "games.db")
    played = run_hazard(tmp_path, "play", "--db", db, lines=["seed kit's", "call 7", "", "quit"])
    assert played.returncode == 0, played.stderr
    assert "· fair dice ·" in played.stdout
    assert "hand 1: the dice commit to their seed, SHA-256 " in played.stdout
    assert "seed for Ann: kit's" in played.stdout
    assert "commitment (SHA-256 of the hand's seed): " in played.stdout
    store = GameStore.open(db, access=Access.READ)
    (game,) = store.games()
    loaded = load_game(store, game.id)
    assert loaded.info.dice is DiceKind.FAIR
    store.close()
    for dice, expected in (("secure", DiceKind.SECURE), ("fair", DiceKind.FAIR)):
        assert run_hazard(tmp_path, "play", "--dice", dice, "--db", db, lines=["quit"]).returncode == 0
        store = GameStore.open(db, access=Access.READ)
        assert load_game(store, store.games()[0].id).info.dice is expected
        store.close()
    assert fails(capsys, "play", "--dice", "seeded", "--db", db) == (
        "error: invalid option --dice seeded without --seed: seeded dice need a seed"
    )
    assert fails(capsys, "play", "--dice", "fair", "--seed", "3", "--db", db) == (
        "error: invalid option --seed with --dice fair: only seeded dice take a seed"
    )
    assert fails(capsys, "play", "--resume", "--dice", "fair", "--db", db).startswith(
        "error: invalid option --dice with --resume"
    )


def test_setter_bots_may_stake_by_a_progression_kept_for_a_resume(tmp_path: Path) -> None:
    out, db = _play(tmp_path, "quit", args=("--bots", "Sam", "--unit", "2", "--bot-staking", "martingale"))
    assert "bot unit 2.00, martingale stakes" in out
    info = load_game(GameStore.open(str(db), access=Access.READ), 1).info
    assert info.settings == {"bot_unit": "2/1", "bot_staking": "martingale"}
    again = run_hazard(tmp_path, "play", "--resume", "--db", str(db), lines=("quit",))
    assert again.returncode == 0, again.stdout + again.stderr
    assert "martingale stakes" in again.stdout


def test_a_refusal_at_a_table_in_pounds_shows_pounds_shillings_and_pence(tmp_path: Path) -> None:
    # Issue 19: refusals showed fractions of a unit (3/8, 1/1680) whatever --money said; and the long s of
    # "7ſ 6d" was read as 7s 6d.
    out, _ = _referee(
        tmp_path,
        "stake Bob 7s 6d",
        "stake Bob 7ſ 6d",
        "quit",
        players=("Ann:10s", "Bob:2s"),
        args=("--money", "lsd"),
    )
    assert (
        "illegal stake of 7s 6d by 'Bob': Bob cannot cover it (the caster could win 15s; Bob has 2s free)"
        in out
    )
    assert "'ſ' (the long s) looks like s but is not one" in out
    assert "3/8" not in out


def test_close_ends_a_game_for_good_and_shows_the_hand_seed(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    db = tmp_path / "games.db"
    played = run_hazard(tmp_path, "play", "--db", str(db), lines=["call 7", "", "close"])  # fair dice
    assert played.returncode == 0, played.stdout + played.stderr
    assert "Traceback" not in played.stdout
    _in_order(
        played.stdout,
        "Ann> close\n",
        "hand 1 ends: the dice's seed was ",  # the hand in play is revealed with the close
        "Game 1 is closed: its record is kept; nothing more is played",
    )
    assert "carry on with" not in played.stdout.split("Ann> close")[-1]
    record = _export(capsys, db)
    assert record["closed"] is True
    assert record["entries"][-1]["entry"] == {"type": "close"}
    assert all(hand["server_seed"] is not None for hand in record["hands"])
    again = run_hazard(tmp_path, "play", "--resume", "--db", str(db), lines=["", "quit"])
    assert again.returncode != 0
    assert "illegal resume of game 1: it is closed" in again.stdout + again.stderr
    assert "Traceback" not in again.stdout + again.stderr
