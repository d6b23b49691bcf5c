"""``hazard play`` with bots: named with their policies and bankrolls, covering the caster's stake
against the bank, consenting to a late stake, and staking by a progression kept for a resume."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import pytest
from tests.cli.play_helpers import _export, _in_order, _load, _play
from tests.terminal import run_hazard

from hazard.table import Access, GameStore, Stake, effective_actions, load_game


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


def test_setter_bots_may_stake_by_a_progression_kept_for_a_resume(tmp_path: Path) -> None:
    out, db = _play(tmp_path, "quit", args=("--bots", "Sam", "--unit", "2", "--bot-staking", "martingale"))
    assert "bot unit 2.00, martingale stakes" in out
    info = load_game(GameStore.open(str(db), access=Access.READ), 1).info
    assert info.settings == {"bot_unit": "2/1", "bot_staking": "martingale"}
    again = run_hazard(tmp_path, "play", "--resume", "--db", str(db), lines=("quit",))
    assert again.returncode == 0, again.stdout + again.stderr
    assert "martingale stakes" in again.stdout
