"""Tests of the ``hazard`` command through its real entry point: output, formats, and every bad input."""

from __future__ import annotations

import csv
import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
import typer.main
from hypothesis import given
from hypothesis import strategies as st
from tests.commandline import fails, fuzz, fuzz_place, hostile_paths, hostile_values, run, survives

import hazard
from hazard import cli
from hazard.cli import COMMANDS, app, load_commands

CRAPS_FILE = (
    'id = "mine"\nname = "Mine"\n[source]\ncitation = "house rules"\n'
    '[main]\nmethod = "fixed"\nmains = [7]\n[opening]\nchances = [4, 5, 6, 8, 9, 10]\n'
    "[opening.7]\nnicks = [7, 11]\nouts = [2, 3, 12]\n"
)


# --- hazard rules ------------------------------------------------------------------------------------------


def test_rules_lists_every_builtin(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "rules")
    assert code == 0
    for ident in ("britannica-1911", "wikipedia", "ecws-1674", "cotton-1674", "sca-isenfir", "craps"):
        assert ident in out
    assert "002_e25665f301869517.txt" in out


def test_rules_shows_a_table_by_main_with_citation_and_notes(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "rules", "ecws")
    assert code == 0
    assert "002_e25665f301869517.txt" in out
    assert "│ 7    │ 7                   │ 2, 3, 12            │ 4, 5, 6, 8, 9, 10 │ 11" in out
    assert "Notes on reading the source" in out
    assert "even money" in out


def test_rules_shows_the_printed_odds_grid(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "rules", "wikipedia")
    assert code == 0
    assert "│ 7             │ 2/1 │ 3/2 │ 6/5 │   — │ 6/5 │ 3/2 │ 2/1 │" in out


def test_rules_of_a_source_without_paytable(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "rules", "britannica-1911")
    assert code == 0
    assert "the source gives none" in out
    code, out, _ = run(capsys, "rules", "britannica-1911", "--paytable", "true-odds")
    assert code == 0
    assert "true-odds" in out


def test_rules_toml_is_a_loadable_copy(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    code, out, _ = run(capsys, "rules", "ecws", "--toml")
    assert code == 0
    path = tmp_path / "copy.toml"
    path.write_text(out, encoding="utf-8")
    code, shown, _ = run(capsys, "odds", "-r", str(path), "--main", "7", "-f", "json")
    assert code == 0
    assert json.loads(shown)["mains"][0]["p_win"] == "433/935"
    assert "name the ruleset to print" in fails(capsys, "rules", "--toml")


# --- hazard odds -------------------------------------------------------------------------------------------


def test_odds_json_is_the_documented_form(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "odds", "--ruleset", "craps", "--format", "json")
    assert code == 0
    data = json.loads(out)
    assert data["ruleset"] == "craps"
    assert data["paytable"] == "even"
    assert data["overall"] is None
    assert data["mains"][0]["main"] == 7
    assert data["mains"][0]["p_win"] == "244/495"
    assert data["mains"][0]["p_win_float"] == pytest.approx(0.49292929)


def test_odds_json_overall_for_a_thrown_main(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "odds", "-r", "sca", "-f", "json")
    assert code == 0
    data = json.loads(out)
    assert data["p_no_round"] == "1/3"
    assert data["overall"]["main"] is None
    assert [row["main"] for row in data["mains"]] == [5, 6, 7, 8, 9]


def test_odds_one_main_and_a_paytable_override(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "odds", "-r", "britannica", "--main", "6", "--paytable", "even", "-f", "json")
    assert code == 0
    data = json.loads(out)
    assert [row["main"] for row in data["mains"]] == [6]
    assert data["mains"][0]["p_win"] == "6961/14256"
    assert data["paytable"] == "even"
    assert data["mains"][0]["ev"] == "-167/7128"  # 2 p - 1 at even money


def test_odds_one_thrown_main_is_that_mains_row(capsys: pytest.CaptureFixture[str]) -> None:
    """--main 7 on a thrown main: every round on 7 as if thrown, the same figures as the row of 7."""
    code, out, _ = run(capsys, "odds", "-r", "ecws", "-f", "json")
    assert code == 0
    every = json.loads(out)
    code, out, _ = run(capsys, "odds", "-r", "ecws", "--main", "7", "-f", "json")
    assert code == 0
    alone = json.loads(out)
    assert alone["mains"] == [row for row in every["mains"] if row["main"] == 7]
    assert alone["mains"][0]["p_main"] == "1/4"  # still the chance of 7 among rounds played
    assert alone["mains"][0]["expected_throws"] == "3342/935"  # from the opening throw: 9489/1870 - 3/2
    assert alone["overall"] is None
    assert alone["throws_for_main"] == "0/1"
    assert every["throws_for_main"] == "3/2"
    code, out, _ = run(capsys, "odds", "-r", "ecws", "--main", "7")
    assert code == 0
    assert "as if it had been thrown" in out


def _edited_copy(capsys: pytest.CaptureFixture[str], path: Path, ruleset: str, old: str, new: str) -> Path:
    """A built-in ruleset written out by ``hazard rules --toml``, with ``old`` changed to ``new``."""
    code, out, _ = run(capsys, "rules", ruleset, "--toml")
    assert code == 0
    assert old in out
    path.write_text(out.replace(old, new), encoding="utf-8")
    return path


def test_odds_shows_the_whole_passing_rule(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """A thrown-or-pass main that losing never passes: the text says what the finite figure counts."""
    path = _edited_copy(capsys, tmp_path / "sca-keep.toml", "sca", "after_losses = 1", "after_losses = 0")
    said = "losing never passes the dice, but a throw for the main outside 5, 6, 7, 8 and 9 does"
    code, out, _ = run(capsys, "odds", "-r", str(path), "-f", "json")
    assert code == 0
    data = json.loads(out)
    assert data["dice_passing"] == said
    assert data["overall"]["expected_rounds_kept"] == "2/1"  # a third of throws for the main pass the dice
    for args in (("rules", str(path)), ("odds", "-r", str(path))):
        code, out, _ = run(capsys, *args)
        assert code == 0
        assert said in " ".join(out.split())
        assert "keeps them until giving them up" not in " ".join(out.split())


def test_odds_csv(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "odds", "-r", "ecws-1674", "-f", "csv")
    assert code == 0
    rows = list(csv.DictReader(io.StringIO(out)))
    assert [row["main"] for row in rows] == ["5", "6", "7", "8", "9", "all"]
    assert rows[2]["p_win"] == "433/935"
    assert "p_win_by_chance_11" not in rows[0]  # 11 is never a chance
    # Main 7 wins through a chance of 4 when 4 is set (3 of the 34 deciding outcomes) and then beats 7 (3/9).
    assert rows[2]["p_win_by_chance_4"] == "1/34"
    assert float(rows[-1]["p_win_float"]) == pytest.approx(1822253 / 3769920)


def test_odds_table_default_is_the_default_ruleset(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "odds")
    assert code == 0
    assert "wikipedia" in out
    assert "244/495" in out
    assert "6961/14256" in out


@pytest.mark.parametrize(
    "args",
    [
        ("odds", "-r", "ecws-1674"),
        ("rules",),
        ("rules", "wikipedia"),
        ("bet", "4 or 10 before 7"),
        ("compare", "wikipedia", "britannica-1911"),
    ],
)
def test_piped_tables_have_no_trailing_spaces(
    capsys: pytest.CaptureFixture[str], args: tuple[str, ...]
) -> None:
    # Rich pads each line to the console's width; piped into a file, that would be trailing spaces.
    code, out, _ = run(capsys, *args)
    assert code == 0
    lines = out.splitlines()
    assert len(lines) > 3
    assert [line for line in lines if line != line.rstrip()] == []
    assert out.endswith("\n")


def test_a_users_ruleset_file(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = tmp_path / "mine.toml"
    path.write_text(CRAPS_FILE, encoding="utf-8")
    code, out, _ = run(capsys, "odds", "--ruleset", str(path), "--format", "json")
    assert code == 0
    assert json.loads(out)["mains"][0]["p_win"] == "244/495"


# --- bad input: exit 2, one line, no traceback ---------------------------------------------------------


@pytest.mark.parametrize(
    ("args", "fragment"),
    [
        (("odds", "--main", "4"), "illegal main 4 in ruleset 'wikipedia'"),
        (("odds", "--main", "13"), "invalid --main '13': expected a main from 2 to 12"),
        (("odds", "--main", "seven"), "invalid --main 'seven'"),
        (("odds", "--format", "xml"), "'xml' is not one of"),
        (("odds", "--ruleset", "nope"), "unknown ruleset 'nope'"),
        (("odds", "--ruleset", "missing.toml"), "no ruleset file at 'missing.toml'"),
        (("odds", "--paytable", "nope"), "unknown paytable 'nope'"),
        (("odds", "--bogus"), "No such option: --bogus"),
        (("rules", "nope"), "unknown ruleset 'nope'"),
        (("bogus",), "No such command 'bogus'"),
        (("bet",), "Missing argument"),
        (("bet", "4 or 13 before 7"), "13"),
        (("bet", "7 before 7"), "7"),
        (("bet", "7 within 0 throws"), "0"),
        (("bet", "4 or 10 before 7", "--format", "csv"), "'csv' is not one of"),
    ],
)
def test_bad_input(capsys: pytest.CaptureFixture[str], args: tuple[str, ...], fragment: str) -> None:
    assert fragment in fails(capsys, *args)


def test_a_broken_ruleset_file_is_one_clear_line(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = tmp_path / "broken.toml"
    path.write_text('id = "x"\nname = "x"\n', encoding="utf-8")
    line = fails(capsys, "odds", "--ruleset", str(path))
    assert str(path) in line
    assert "missing source" in line
    path.write_text(CRAPS_FILE.replace("[main]", 'colour = "red"\n[main]'), encoding="utf-8")
    assert "unknown key 'source.colour'" in fails(capsys, "odds", "--ruleset", str(path))
    path.write_text("id = \n", encoding="utf-8")
    assert "not valid TOML" in fails(capsys, "rules", str(path))


def test_a_paytable_that_does_not_cover_the_ruleset(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "short.toml"
    path.write_text('id = "short"\nname = "short"\nnick = "1"\nchance = "table"\n[odds.7]\n4 = "2/1"\n')
    line = fails(capsys, "odds", "-r", "craps", "--paytable", str(path))
    assert "no odds for a chance of 5 on a main of 7" in line


# --- hazard bet ------------------------------------------------------------------------------------------


def test_bet_json(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "bet", "4 or 10 before 7", "--format", "json")
    assert code == 0
    data = json.loads(out)
    assert data == {
        "proposition": "4 or 10 before 7",
        "probability": "1/2",
        "probability_float": 0.5,
        "fair_odds": "1 to 1",
        "ev_even_money": "0/1",
    }


def test_bet_table(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "bet", "2, 3, 11 or 12 within 3 throws")
    assert code == 0
    assert "91/216" in out
    assert "125 to 91" in out


# --- the installed program ----------------------------------------------------------------------------------


@pytest.mark.parametrize("encoding", ["ascii", "latin-1"])
def test_an_output_that_cannot_take_every_character_shows_it_as_a_question_mark(encoding: str) -> None:
    # The odds' footnote has an em dash and a minus sign; Rich draws its rules in ASCII where it must.
    done = subprocess.run(
        [sys.executable, "-m", "hazard", "odds", "-r", "wikipedia"],
        capture_output=True,
        env={**os.environ, "PYTHONIOENCODING": encoding},
        timeout=60,
        check=False,
    )
    assert (done.returncode, done.stderr) == (0, b"")
    text = done.stdout.decode(encoding)
    assert "244/495" in text
    assert "the setter's edge is ?EV" in text


def test_the_program_runs_and_fails_cleanly_as_a_process() -> None:
    ok = subprocess.run(
        [sys.executable, "-m", "hazard", "odds", "-f", "json"], capture_output=True, text=True, check=False
    )
    assert ok.returncode == 0
    assert json.loads(ok.stdout)["ruleset"] == "wikipedia"
    bad = subprocess.run(
        [sys.executable, "-m", "hazard", "odds", "--main", "x"], capture_output=True, text=True, check=False
    )
    assert bad.returncode == 2
    assert bad.stdout == ""
    assert len(bad.stderr.strip().splitlines()) == 1
    assert "Traceback" not in bad.stderr


def test_version_prints_the_packages_version_and_exits_zero(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "--version")
    assert (code, out, err) == (0, f"hazard {hazard.__version__}\n", "")
    process = subprocess.run(
        [sys.executable, "-m", "hazard", "--version"], capture_output=True, text=True, check=False
    )
    assert (process.returncode, process.stdout) == (0, f"hazard {hazard.__version__}\n")
    code, out, _ = run(capsys, "--help")
    assert "--version" in out


@pytest.mark.parametrize(("given", "seen"), [(None, "1"), ("4", "4")])
def test_the_program_starts_no_blas_threads_unless_told_to(
    monkeypatch: pytest.MonkeyPatch, given: str | None, seen: str
) -> None:
    """``hazard`` sets NumPy's BLAS to one thread before any command runs (it does no linear algebra: the
    threads would only spin), and keeps a setting of the user's."""
    if given is None:
        monkeypatch.delenv("OPENBLAS_NUM_THREADS", raising=False)
    else:
        monkeypatch.setenv("OPENBLAS_NUM_THREADS", given)
    found: list[str | None] = []

    def leave(code: int) -> None:
        raise SystemExit(code)

    monkeypatch.setattr(
        cli, "main", lambda collector_paused: found.append(os.environ.get("OPENBLAS_NUM_THREADS"))
    )
    monkeypatch.setattr(os, "_exit", leave)
    with pytest.raises(SystemExit):
        cli.run()
    assert found == [seen]


def test_bare_command_shows_help(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys)
    assert code == 0
    assert "odds" in out
    assert "rules" in out
    assert "bet" in out


# --- loading only what a command needs ---------------------------------------------------------------------


def test_every_command_is_mapped_to_the_module_that_registers_it() -> None:
    load_commands()
    group = typer.main.get_command(app)
    assert set(group.commands) == set(COMMANDS)  # type: ignore[attr-defined]
    for name, module in COMMANDS.items():
        callback = group.commands[name].callback  # type: ignore[attr-defined]
        if name != "record":  # a group of its own: its callback is Typer's
            assert callback.__module__ == f"hazard.cli.{module}", name


def _modules_after(*args: str) -> set[str]:
    """The modules a real ``hazard ARGS`` process has imported by the time it exits."""
    script = (
        "import sys, json\n"
        "from hazard.cli import main\n"
        f"try:\n    main({list(args)!r})\n"
        "finally:\n    sys.__stderr__.write('\\n' + json.dumps(sorted(sys.modules)))\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    return set(json.loads(done.stderr.strip().splitlines()[-1]))


def test_each_command_imports_only_what_it_needs() -> None:
    rules = _modules_after("rules")
    assert "hazard.cli.exact" in rules
    assert not {"numpy", "hazard.sim", "hazard.table.record.store", "sqlalchemy", "hazard.cli.play"} & rules
    simulate = _modules_after("simulate", "-r", "craps", "--rounds", "1000", "--format", "json")
    assert "hazard.sim.rounds" in simulate
    assert "numpy" not in simulate  # a study of rounds needs no NumPy (hazard.sim.stream seeds the lanes)
    sessions = _modules_after("simulate", "-r", "craps", "--sessions", "20", "--format", "json")
    assert {"numpy", "hazard.sim.session"} <= sessions
    assert not {"hazard.table.rules.state", "sqlalchemy", "hazard.cli.play", "hazard.cli.exact"} & simulate
    assert not {"rich.table", "rich.progress"} & simulate  # JSON for a pipe draws nothing
    assert not any(name.split(".")[0] == "pydantic" for name in rules | simulate)


def test_a_ruleset_waiting_for_too_many_losses_is_refused(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = _edited_copy(capsys, tmp_path / "patient.toml", "craps", "after_losses = 1", "after_losses = 1000")
    line = fails(capsys, "odds", "-r", str(path))
    assert "patient.toml': dice_passing.after_losses = 1000: expected 0 to 100" in line
    path = _edited_copy(capsys, tmp_path / "patient.toml", "craps", "after_losses = 1", "after_losses = 100")
    code, out, _ = run(capsys, "odds", "-r", str(path), "-f", "json")
    assert code == 0
    assert json.loads(out)["mains"][0]["expected_rounds_kept_float"] > 1e30


# --- fuzzing: any value of any option ends in one error line or an answer ----------------------------------

_EXACT = {
    "odds": ("--ruleset", "--main", "--paytable", "--format"),
    "rules": ("RULESET", "--paytable"),
    "bet": ("PROPOSITION", "--format"),
}


@pytest.mark.slow
@fuzz(150)
@given(data=st.data())
def test_fuzz_any_value_of_an_option_of_rules_odds_or_bet_is_one_error_line_or_an_answer(
    capfd: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path, data: st.DataObject
) -> None:
    place = fuzz_place(tmp_path, monkeypatch)
    command = data.draw(st.sampled_from(sorted(_EXACT)), label="command")
    option = data.draw(st.sampled_from(_EXACT[command]), label="option")
    paths = option in ("--ruleset", "--paytable", "RULESET")
    value = data.draw(hostile_paths(place) if paths else hostile_values(), label="value")
    if option == "PROPOSITION":
        # A value alone, or inside a side bet's own words, where each number is read.
        forms = ["{}", "{} before 7", "4 before {}", "4 within {} throws", "next {}", "{} or 10 before 7"]
        form = data.draw(st.sampled_from(forms), label="form")
        survives(capfd, "bet", form.format(value))
    elif option == "RULESET":
        survives(capfd, "rules", value, *data.draw(st.sampled_from([(), ("--toml",)]), label="toml"))
    elif command == "bet":
        survives(capfd, "bet", "4 or 10 before 7", option, value)
    elif command == "rules":
        survives(capfd, "rules", "ecws", option, value)
    else:
        survives(capfd, "odds", option, value)


def test_a_long_count_of_throws_is_quoted_short(capsys: pytest.CaptureFixture[str]) -> None:
    error = fails(capsys, "bet", "4 within " + "é" * 240 + " throws")
    assert len(error) < 600, len(error)
