"""``hazard play`` and ``hazard referee`` driven end to end through their real input and output.

Each game runs as its own process with a script typed into its standard input (a pipe: the game echoes what
it reads after the prompt, so the transcript reads like a session). Seeded dice make every throw known:
throw ``i`` of seed 97 is 1-3, 2-6, 2-2, 4-1, 1-2, 5-2, ...
"""

from __future__ import annotations

import re
from fractions import Fraction
from pathlib import Path

import pytest
from tests.terminal import Terminal, exchanges, run_hazard

from hazard.cli import main
from hazard.table.actions import OfferBet, Sit, Stake, TableAction, TakeBet, Withdraw
from hazard.table.dice import SeededDice
from hazard.table.record import GameStore, effective_actions


def test_seed_97_throws_what_these_tests_expect() -> None:
    assert [str(SeededDice(97).throw(i)) for i in range(6)] == ["1-3", "2-6", "2-2", "4-1", "1-2", "5-2"]


def _play(tmp_path: Path, *lines: str, seed: int = 97) -> tuple[str, Path]:
    db = tmp_path / "games.db"
    done = run_hazard(tmp_path, "play", "--seed", str(seed), "--db", str(db), lines=lines)
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stderr == ""
    assert "Traceback" not in done.stdout
    return done.stdout, db


def _actor(action: TableAction) -> str | None:
    """Who an action is by, where it names someone."""
    if isinstance(action, Sit):
        return action.name
    if isinstance(action, Stake | Withdraw):
        return action.player
    if isinstance(action, OfferBet):
        return action.backer
    if isinstance(action, TakeBet):
        return action.layer
    return None


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
        "Starting Game 1 · hazard play · bot unit 1 · wikipedia, paytable wikipedia, stakes bank · seeded",
        "Ann sits down with 100",
        "Bob (setter bot) sits down with 100",
        "Cat (bystander bot) sits down with 100",
        "Bots holding the dice call 7, the best main by exact analysis (expected value +1/9",
        "side bet offered: #1 Cat backs '",
        "Bob stakes 1 against Ann",
        "Round 1 · Ann has the dice · no main yet · 0 throws this round",
        "You hold the dice: stake against the bank (e.g. stake 5), call a main (5, 6, 7, 8 or 9)",
        "Ann> call 7\n  the caster calls 7 as the main",
        "Ann throws 1-3\n  4 with a main of 7 is the chance: the caster now needs 4 before 7",
        "Round 1 · Ann has the dice · main 7, chance 4 · 1 throw this round",
        "Ann throws 2-6\n  8 is neither the chance 4 nor the main 7: throw again",
        "Ann throws 2-2\n  4 is the chance, thrown before the main 7: the caster wins",
        "the caster Ann wins 2 (Bob pays Ann 2)",
        "Round 2 · Ann has the dice · no main yet",
        "the dice pass from Ann to Bob: Ann gives up the dice",
        "Bob holds the dice: stake against Bob (e.g. stake 5)",
        "Ann stakes 5 against Bob",
        "Ann backs '4 or 10 before 7' for 2 at even money",
        "Bob calls 7, the best main by exact analysis",
        "the caster calls 7 as the main\nBob throws 4-1\n  5 with a main of 7 is the chance",
        "Bob throws 1-2\n  3 is neither the chance 5 nor the main 7: throw again",
        "Bob throws 5-2\n  7 is the main, thrown before the chance 5: the caster loses",
        "'4 or 10 before 7' fails: Ann pays ",
        "the caster Bob loses 5 (Bob pays Ann 5)",
        "Round 3 · Bob has the dice · no main yet · 0 throws this round · 1 of 3 losses before the dice pass",
        "Game 1 is saved: carry on with hazard play --resume 1 --db ",
    )
    offered = re.search(r"side bet offered: #(\d+) Ann backs '4 or 10 before 7'", out)
    assert offered is not None
    number = offered.group(1)
    taker = re.search(rf"\n  (Bob|Cat) takes side bet #{number} \('4 or 10 before 7'\)\n", out)
    assert taker is not None
    assert f"side bet #{number} '4 or 10 before 7' fails: Ann pays {taker.group(1)} 2" in out
    # The table at a glance after the second round: Ann has 100 + 2 - 2 + 5.
    assert re.search(r"Ann\s+105\s+105\s+you\s*\n", out[out.rindex("Round 3 ·") :])
    store = GameStore.open(str(db))
    table = store.load(1).table
    store.close()
    assert table.player("Ann").bankroll == 105
    assert table.total_money == 300
    assert (table.caster, table.rounds_played, table.throws) == ("Bob", 2, 6)


BAD_AS_CASTER = [
    ("foo", "error: unknown command 'foo': type help for the commands"),
    ("help me", "error: invalid command 'help me': help takes nothing after it"),
    ("call", "error: invalid command 'call': expected call MAIN, e.g. call 7"),
    ("call x", "error: invalid main 'x': expected a whole number"),
    ("call 4", "error: illegal main 4 in ruleset 'wikipedia': the mains are 5, 6, 7, 8 and 9"),
    ("13", "error: invalid main 13: expected a total from 2 to 12"),
    ("throw", "error: illegal throw: Ann must call a main first (5, 6, 7, 8 or 9), e.g. call 7"),
    ("3-4", "error: invalid command '3-4': hazard play throws its own dice; type throw or press Enter"),
    ("throw 3 4", "error: invalid command 'throw 3 4': hazard play throws its own dice; type throw alone"),
    ("stake", "error: invalid command 'stake': expected stake AMOUNT, e.g. stake 5"),
    ("stake 500", "error: illegal stake of 500 by 'Ann': no one at the table can cover it as the bank"),
    ("withdraw", "error: illegal withdrawal by 'Ann': no stake of theirs is laid"),
    ("take 9", "error: illegal side bet #9: no such bet is open"),
    ("take 1", "error: illegal take of side bet #1: Bob has already taken it"),  # Cat's, taken by the setter
    ("take x", "error: invalid side bet number 'x': expected a whole number"),
    ("cancel 1", "error: illegal withdrawal of side bet #1: it is Cat's to withdraw"),
    ("offer", "error: invalid command 'offer': expected offer AMOUNT on BET [at ODDS]"),
    ("offer lots on 4 before 7", "error: invalid side bet amount 'lots': expected a sum such as 10"),
    ("offer 2 on nonsense", "error: invalid proposition 'nonsense': expected 'A before B'"),
    ("offer 2 on 4 or 10 before 7 at 0", "error: invalid odds '0': expected more than 0"),
    ("offer 500 on 4 or 10 before 7", "error: illegal side bet by 'Ann': 500 is more than the 99 free"),
]
BAD_AS_SETTER = [
    ("stake 500", "error: illegal stake of 500 by 'Ann': Ann cannot cover it (the caster could win 1000;"),
    ("stake -5", "error: invalid stake '-5': expected a sum such as 10, 2.50 or 25/3"),
    ("pass", "error: illegal pass of the dice: Bob holds them, not you"),
    ("call 7", "error: illegal call of main 7: Bob holds the dice and calls, not you"),
]
BAD_IN_ROUND = [
    ("stake 1", "error: illegal stake of 1 by 'Ann' in round (main 7, chance 4): stakes are laid before"),
    ("withdraw", "error: illegal withdrawal by 'Ann' in round (main 7, chance 4): it has begun"),
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
    for typed, message in [*BAD_AS_CASTER, *BAD_AS_SETTER, *BAD_IN_ROUND]:
        answer = next(answer for echoed, answer in turns if echoed == typed)
        assert len(answer) == 1, (typed, answer)
        assert answer[0].startswith(message), (typed, answer[0])
    assert "Bob throws 1-3" in out
    assert "Bob throws 2-6\n  8 is neither the chance 4 nor the main 7: throw again" in out
    store = GameStore.open(str(db))
    game = store.load(1)
    store.close()
    # The bad entries left no trace: Ann's seat and her pass are all she did; Bob called once, threw twice.
    standing = [action for _, action in effective_actions(game.entries)]
    assert [action for action in standing if _actor(action) == "Ann"] == [Sit("Ann", Fraction(100))]
    assert [type(action).__name__ for action in standing if _actor(action) is None] == [
        "PassDice",
        "Call",
    ] + ["Throw"] * 2
    assert (game.table.caster, game.table.round.chance, game.table.throws) == ("Bob", 4, 2)


def test_help_bets_and_table_answer_without_recording(tmp_path: Path) -> None:
    out, db = _play(tmp_path, "help", "bets", "table", "quit")
    answers = dict(exchanges(out, "Ann> "))
    assert answers["help"][0] == "Commands (Enter alone throws the dice):"
    assert any("offer AMOUNT on BET [at ODDS]" in line for line in answers["help"])
    assert answers["bets"][0].startswith(
        "Even-money side bets from 002_e25665f301869517.txt: 4 or 10 before 7"
    )
    assert answers["table"][0] == "Round 1 · Ann has the dice · no main yet · 0 throws this round"
    store = GameStore.open(str(db))
    assert len(store.load(1).entries) == 6  # three seats, then the bots' side bet, its taker and a stake
    store.close()


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
    store = GameStore.open(str(tmp_path / "games.db"))
    assert store.load(1).table.round.main == 7
    store.close()


def test_bots_by_name_and_policy_and_a_ruleset_without_a_paytable(tmp_path: Path) -> None:
    db = tmp_path / "games.db"
    done = run_hazard(
        tmp_path,
        "play",
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
        "--seed",
        "5",
        "--db",
        str(db),
        lines=["quit"],
    )
    assert done.returncode == 0, done.stderr
    _in_order(
        done.stdout,
        "britannica-1911 has no paytable of its own: stakes settle at even money (choose one with --payt",
        "Starting Game 1 · hazard play · bot unit 2 · britannica-1911, paytable even, stakes setter-sum",
        "Zoe sits down with 50",
        "Max (bystander bot) sits down with 20",
        "Sam (setter bot) sits down with 50",
        "Sam stakes 2 against Zoe",
        "Zoe> quit",
    )


# --- command-line errors -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["play", "--bots", "Bob:robot"], "error: invalid bot policy 'robot' in --bots 'Bob:robot'"),
        (["play", "--bots", "Bob:setter:1:2"], "error: invalid bots 'Bob:setter:1:2': expected a number"),
        (["play", "--bots", "99"], "error: invalid bots '99': at most 9 bots by number"),
        (["play", "--name", "Bob", "--bots", "Bob"], "error: illegal seat for 'Bob': someone of that name"),
        (["play", "--name", ""], "error: invalid player name '': expected 1 to 40 characters"),
        (["play", "--bankroll", "-5"], "error: invalid bankroll '-5': expected a sum such as 10"),
        (["play", "--unit", "0"], "error: invalid bot stake unit '0': expected more than 0"),
        (["play", "--seed", "-1"], "error: invalid seed -1: expected a whole number of 0 or more"),
        (["play", "--seed", "x"], "error: Invalid value for '--seed'"),
        (["play", "--ruleset", "nope"], "error: unknown ruleset 'nope'"),
        (["play", "--paytable", "nope"], "error: unknown paytable 'nope'"),
        (["play", "--stakes", "nope"], "error: Invalid value for '--stakes'"),
        (["play", "3"], "error: invalid game 3: a game number is given only with --resume"),
        (["referee"], "error: invalid table: name the players, e.g. --player Ann:100 --player Bob:100"),
        (["referee", "--player", "Ann"], "error: invalid player 'Ann': expected NAME:BANKROLL"),
        (["referee", "--player", "Ann Lee:5"], "error: invalid player 'Ann Lee:5': a name is one word"),
        (["referee", "--player", "Ann:x"], "error: invalid bankroll for Ann 'x'"),
        (["referee", "--player", "Ann:5", "--player", "ann:5"], "error: illegal seat for 'ann'"),
    ],
)
def test_a_bad_command_line_is_one_error_and_records_nothing(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, args: list[str], message: str
) -> None:
    db = tmp_path / "games.db"
    with pytest.raises(SystemExit) as exit_:
        main([*args, "--db", str(db)])
    assert exit_.value.code == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.count("\n") == 1
    assert captured.err.startswith(message), captured.err
    assert not db.exists()


# --- hazard referee -----------------------------------------------------------------------------------------


def test_referee_records_real_dice_and_corrects_mistakes_without_deleting(tmp_path: Path) -> None:
    db = tmp_path / "club.db"
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
        "stake Bob",
        "frobnicate",
        "void 99",
        "void 6",
        "fix 5",
        "5 5",  # [8]
        "throw 1-3",  # [9] the chance: Ann would win 10
        "fix 8 3-4",  # refused: entry 9 would then be a throw with no main called
        "fix 9 3-4",  # [10] entry 9 was really 3-4: the main, so Ann loses 5
        "log",
        "quit",
    ]
    done = run_hazard(
        tmp_path, "referee", "--player", "Ann:100", "--player", "Bob:100", "--db", str(db), lines=lines
    )
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""
    out = done.stdout
    answers = dict(exchanges(out, "referee> "))
    assert answers["stake bob 5"][:2] == ["[3] stake Bob 5", "  Bob stakes 5 against Ann"]
    assert answers["3 4"][:3] == [
        "[5] throw 3-4",
        "  7 with a main of 7 is a nick: the caster wins",
        "  the caster Ann wins 5 (Bob pays Ann 5)",
    ]
    assert answers["undo"][0] == "[6] correction: entry 5 is void (was 'throw 3-4')"
    assert re.search(r"Ann\s+100\s+95\s+covers 5\s+caster", "\n".join(answers["undo"]))
    assert answers["2-2"][1] == "  4 with a main of 7 is the chance: the caster now needs 4 before 7"
    errors = {
        "7-1": "error: invalid roll '7-1': each die shows 1 to 6",
        "9": "error: invalid roll '9': expected two faces from 1 to 6, like '3-4' or '3 4'",
        "throw": "error: invalid command 'throw': expected throw ROLL (or just the roll), e.g. 3-4 or 3 4",
        "stake Zed 5": "error: illegal player 'Zed': not at the table (seated: Ann, Bob)",
        "stake Bob": "error: invalid command 'stake': expected stake NAME AMOUNT [consent], e.g. stake Bob 5",
        "frobnicate": "error: unknown command 'frobnicate': type help for the commands",
        "void 99": "error: illegal correction of entry 99: the record has entries 1 to 7",
        "void 6": "error: illegal correction of entry 6: it is a correction itself; correct entry 5 instead",
        "fix 5": "error: invalid command 'fix': expected fix N COMMAND, e.g. fix 7 3-4",
        "fix 8 3-4": "error: illegal correction of entry 8: record of game 1 does not replay: entry 9: "
        "illegal throw 1-3 in round (no main yet): Ann must call a main first",
    }
    for typed, message in errors.items():
        assert answers[typed] == [message], (typed, answers[typed])
    assert answers["throw 1-3"][2] == "  the caster Ann wins 10 (Bob pays Ann 10)"
    assert answers["fix 9 3-4"][0] == "[10] correction: entry 9 now reads 'throw 3-4' (was 'throw 1-3')"
    log = "\n".join(answers["log"])  # the entry's time stands after the last '·'
    assert log.startswith("Entries of game 1:\n[1] sit Ann 100 · ")
    assert re.search(r"\n\[5\] throw 3-4 · void · \S+\n\[6\] correction: entry 5 is void · ", log)
    assert re.search(
        r"\n\[9\] throw 1-3 · replaced · \S+\n"
        r"      7 is the main, thrown before the chance 4: the caster loses\n"
        r"      the caster Ann loses 5 \(Ann pays Bob 5\)\n"
        r"\[10\] correction: entry 9 now reads 'throw 3-4' · ",
        log,
    )
    assert "Game 1 is saved: carry on with hazard referee --resume 1 --db " in out

    store = GameStore.open(str(db))
    game = store.load(1)
    store.close()
    assert len(game.entries) == 10  # every entry kept, the mistakes and their corrections included
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
        "referee> 3-3\n[12] throw 3-3\n  6 with a main of 6 is a nick: the caster wins",
    )


def test_referee_side_bets_and_players_joining(tmp_path: Path) -> None:
    lines = [
        "sit Cat 20",
        "offer cat 2 on 4 or 10 before 7 at 2 to 1",
        "take 1 Bob",
        "take 1 Ann",
        "call 8",
        "4-6",
        "quit",
    ]
    db = str(tmp_path / "g.db")
    done = run_hazard(
        tmp_path, "referee", "--player", "Ann:100", "--player", "Bob:100", "--db", db, lines=lines
    )
    answers = dict(exchanges(done.stdout, "referee> "))
    assert answers["sit Cat 20"][:2] == ["[3] sit Cat 20", "  Cat sits down with 20"]
    assert answers["offer cat 2 on 4 or 10 before 7 at 2 to 1"][1] == (
        "  side bet offered: #1 Cat backs '4 or 10 before 7' for 2 at odds 2 to 1"
    )
    assert answers["take 1 Bob"][1] == "  Bob takes side bet #1 ('4 or 10 before 7')"
    assert answers["take 1 Ann"] == ["error: illegal take of side bet #1: Bob has already taken it"]
    assert "  side bet #1 '4 or 10 before 7' comes true: Bob pays Cat 4" in answers["4-6"]


def test_the_caster_names_his_stake_against_the_bank(tmp_path: Path) -> None:
    # Wikipedia's arrangement: the caster stakes against the bank; the setter bot covers it at the
    # paytable's odds (up to 2/1 here, so 10 needs 20 of the setter's free money).
    out, db = _play(tmp_path, "stake 10", "stake 60", "quit")
    _in_order(
        out,
        "Ann> stake 10\n  Bob stakes 10 against Ann",
        "Ann> stake 60\nerror: illegal stake of 60 by 'Ann': no one at the table can cover it as the bank",
    )
    store = GameStore.open(str(db))
    try:
        wagers = store.load(1).table.wagers
    finally:
        store.close()
    assert sorted((w.opponent, w.amount) for w in wagers) == [("Bob", Fraction(1)), ("Bob", Fraction(10))]
