"""``hazard play`` and ``hazard referee`` driven end to end through their real input and output.

Each game runs as its own process with a script typed into its standard input (a pipe: the game echoes what
it reads after the prompt, so the transcript reads like a session). Seeded dice make every throw known:
throw ``i`` of seed 97 is 1-3, 2-6, 2-2, 4-1, 1-2, 5-2, ...

Sums show with two decimals unless ``--money`` says otherwise; the commands a game echoes (the referee's
``[4] stake Bob 5``) are written exactly, so that they read back as the same command.
"""

from __future__ import annotations

import re
import signal
from fractions import Fraction
from pathlib import Path

import pytest
from tests.cli.play_helpers import _export, _in_order, _load, _play, _referee
from tests.commandline import fails
from tests.terminal import Terminal, exchanges, run_hazard

from hazard.table import (
    Access,
    Actor,
    Call,
    DiceKind,
    GameStore,
    PassDice,
    Roll,
    SeededDice,
    Sit,
    effective_actions,
    load_game,
)


def test_seed_97_throws_what_these_tests_expect() -> None:
    assert [str(SeededDice(97).throw(i)) for i in range(6)] == ["1-3", "2-6", "2-2", "4-1", "1-2", "5-2"]


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
    # Started as from a test run in the background of a shell without job control, which ignores SIGINT and
    # passes that on to what it starts: the game still gets the Ctrl-C a person's terminal sends
    # (tests.terminal.AT_A_KEYBOARD), and this test holds the harness to it.
    ignored = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        game = Terminal(tmp_path, "play", "--seed", "97", "--db", str(tmp_path / "games.db"))
    finally:
        signal.signal(signal.SIGINT, ignored)
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
