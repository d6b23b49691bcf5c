"""``hazard referee`` end to end: real dice recorded and mistakes corrected without deleting, side
bets, players joining, and each money style."""

from __future__ import annotations

import os
import re
import subprocess
from fractions import Fraction
from pathlib import Path

from tests.cli.play_helpers import _in_order, _load, _referee
from tests.terminal import HAZARD, WAIT, exchanges, hazard_env, run_hazard

from hazard.table import REFEREE

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
