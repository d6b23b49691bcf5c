"""``hazard simulate`` through the real entry point: the JSON form, determinism, plots, Ctrl-C, bad input."""

from __future__ import annotations

import contextlib
import csv
import io
import json
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st
from tests.commandline import fails, files_in, fuzz, fuzz_place, hostile_paths, hostile_values, run, survives

REQUIRED = [
    "ruleset",
    "main",
    "rounds",
    "seed",
    "throws",
    "wins",
    "win_rate",
    "win_rate_ci",
    "exact_p_win",
    "z",
    "seconds",
]


def json_of(capsys: pytest.CaptureFixture[str], *args: str) -> dict[str, object]:
    code, out, err = run(capsys, "simulate", "--format", "json", *args)
    assert code == 0, err
    data: dict[str, object] = json.loads(out)
    return data


def test_json_has_the_stable_fields(capsys: pytest.CaptureFixture[str]) -> None:
    data = json_of(capsys, "-r", "craps", "--rounds", "100000", "--seed", "5")
    for key in REQUIRED:
        assert key in data
    assert data["ruleset"] == "craps"
    assert data["main"] == 7
    assert data["rounds"] == 100_000
    assert data["seed"] == 5
    assert data["exact_p_win"] == pytest.approx(244 / 495)
    assert abs(data["z"]) < 4  # type: ignore[arg-type]
    low, high = data["win_rate_ci"]  # type: ignore[misc]
    assert low < data["win_rate"] < high  # type: ignore[operator]


def test_a_thrown_main_is_null(capsys: pytest.CaptureFixture[str]) -> None:
    data = json_of(capsys, "-r", "ecws", "--rounds", "50000")
    assert data["main"] is None
    assert data["exact_p_win"] == pytest.approx(1822253 / 3769920)
    assert len(data["mains"]) == 5  # type: ignore[arg-type]
    data = json_of(capsys, "-r", "ecws", "--rounds", "50000", "--main", "6")
    assert data["main"] == 6
    assert data["exact_p_win"] == pytest.approx(6961 / 14256)


def test_the_same_seed_gives_the_same_json(capsys: pytest.CaptureFixture[str]) -> None:
    args = ("-r", "wikipedia", "--rounds", "600000", "--seed", "31")
    outputs = []
    for extra in ((), ("--workers", "1"), ("--workers", "2", "--chunk", "100"), ("--chunk", "7777")):
        data = json_of(capsys, *args, *extra)
        data.pop("seconds")
        outputs.append(data)
    assert all(o == outputs[0] for o in outputs[1:])
    assert json_of(capsys, *args[:-1], "32")["wins"] != outputs[0]["wins"]


def test_table_and_csv(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "simulate", "-r", "sca", "--rounds", "30000")
    assert code == 0
    assert "win rate" in out
    assert "By main" in out
    code, out, _ = run(capsys, "simulate", "-r", "craps", "--rounds", "30000", "--format", "csv")
    assert code == 0
    rows = list(csv.DictReader(io.StringIO(out)))
    assert rows[0]["figure"] == "win_rate"
    assert float(rows[0]["exact"]) == pytest.approx(244 / 495)


def test_sessions(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    plot = tmp_path / "sessions.png"
    data = json_of(
        capsys, "-r", "wikipedia", "--main", "7", "--sessions", "50", "--rounds", "100",
        "--staking", "martingale", "--plot", str(plot),
    )  # fmt: skip
    assert data["mode"] == "sessions"
    assert data["sessions"] == 50
    assert data["exact_edge"] == pytest.approx(-1 / 9)
    assert plot.read_bytes().startswith(b"\x89PNG")
    code, out, _ = run(capsys, "simulate", "-r", "sca", "--sessions", "20", "--rounds", "50")
    assert code == 0
    assert "risk of ruin" in out
    code, out, _ = run(capsys, "simulate", "-r", "sca", "--sessions", "20", "--rounds", "50", "-f", "csv")
    assert code == 0
    assert len(list(csv.DictReader(io.StringIO(out)))) == 20


def test_with_a_bar_on_a_terminal_the_csv_still_goes_to_standard_output(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Standard error a terminal (the bars drawn there), standard output a file: every line goes to the
    file, none into the terminal, for the study and for the replays alike."""
    from hazard.sim import tally

    monkeypatch.setattr(tally, "DISTINCT_LIMIT", 3)  # the quantiles take a replay too, with its own bar
    monkeypatch.setattr(sys.stderr, "isatty", lambda: True)
    monkeypatch.setenv("FORCE_COLOR", "1")  # Rich draws its bars as on a terminal
    monkeypatch.setenv("TTY_COMPATIBLE", "1")
    code, out, err = run(capsys, "simulate", "-r", "sca", "--sessions", "40", "--rounds", "50", "-f", "csv")
    assert code == 0
    assert len(list(csv.DictReader(io.StringIO(out)))) == 40
    assert ",-1," not in err  # no session's line


def test_a_plot_is_written(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    target = tmp_path / "rounds.png"
    code, _, err = run(capsys, "simulate", "-r", "cotton", "--rounds", "20000", "--plot", str(target))
    assert code == 0, err
    assert target.read_bytes().startswith(b"\x89PNG")


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (("--rounds", "0"), "invalid --rounds '0': expected a whole number from 1 to 1000000000000"),
        (("--rounds", str(10**12 + 1)), "invalid --rounds '1000000000001': expected a whole number from 1"),
        (("--seed", "-1"), "invalid --seed '-1': expected a whole number from 0 to 2**128 - 1"),
        (("--seed", str(2**128)), f"invalid --seed '{2**128}': expected a whole number from 0 to 2**128 - 1"),
        (("--seed", "9" * 5000), "invalid --seed '" + "9" * 80 + "'... (5,000 characters): expected"),
        (("-r", "no-such-game"), "unknown ruleset 'no-such-game'"),
        (("-r", "ecws", "--main", "4"), "illegal main 4"),
        (("--main", "-7"), "invalid --main '-7': expected a whole number"),
        (("--plot", "/no/such/folder/plot.png"), "cannot write --plot '/no/such/folder/plot.png': no folder"),
        (("--plot", "plot.gif"), "invalid --plot 'plot.gif': expected a file name ending in .png"),
        (("--plot", "/dev/null"), "expected a file name ending in .png"),
        (("--plot", "/etc/passwd/plot.png"), "'/etc/passwd' is not a folder"),
        (("--rounds", "many"), "invalid --rounds 'many'"),
        (("--rounds", "1e6"), "invalid --rounds '1e6'"),
        (("--rounds", "٣"), "invalid --rounds '٣'"),
        (("--format", "xml"), "xml"),
        (("--sessions", "0"), "invalid --sessions '0': expected a whole number from 1"),
        (("--sessions", "5", "--bankroll", "nan"), "invalid --bankroll 'nan': expected a number such as 100"),
        (("--sessions", "5", "--stake", "inf"), "invalid --stake 'inf': expected a number such as 100"),
        (("--sessions", "5", "--stake", "1e999"), "invalid --stake '1e999': expected a number such as 100"),
        (("--sessions", "5", "--stake", "-1"), "invalid --stake '-1': expected a number such as 100"),
        (("--sessions", "5", "--stake", "0"), "invalid stake 0.0: expected a number above 0"),
        (("--sessions", "5", "--bankroll", "٣"), "invalid --bankroll '٣'"),
        (("--sessions", "5", "--players", "1"), "invalid number of players 1"),
        (("--staking", "double"), "double"),
        (("--workers", "0"), "invalid number of workers 0"),
    ],
)
def test_bad_input_is_one_line_and_status_2(
    capsys: pytest.CaptureFixture[str], args: tuple[str, ...], expected: str
) -> None:
    line = fails(capsys, "simulate", *args)
    assert expected in line


def test_ctrl_c_prints_what_was_played(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from hazard.cli import simulate as command
    from hazard.sim import workers

    monkeypatch.setattr(workers, "PROGRESS_INTERVAL", 0.0)  # told after the first block, not 0.1 s in

    @contextlib.contextmanager
    def interrupting(total: int, what: str) -> Iterator[Callable[[int], None]]:
        def update(done: int) -> None:
            raise KeyboardInterrupt

        yield update

    monkeypatch.setattr(command, "_progress", interrupting)
    from hazard.sim.backend import backend
    from hazard.sim.stream import BLOCK_ROUNDS

    rounds = (2 * backend().blocks_per_call + 1) * BLOCK_ROUNDS  # three calls of the kernels, on any path
    code, out, err = run(
        capsys, "simulate", "-r", "craps", "--rounds", str(rounds), "--workers", "1", "-f", "json"
    )
    assert code == 130
    data = json.loads(out)
    assert data["interrupted"] is True
    assert 0 < data["rounds"] < rounds
    assert "interrupted" in err
    assert "error" not in err


def test_main_means_every_round_on_it_as_in_hazard_odds(capsys: pytest.CaptureFixture[str]) -> None:
    """--main 7 on a thrown main: simulated from the opening throw, beside the odds' row of 7."""
    code, out, _ = run(capsys, "odds", "-r", "ecws", "-f", "json")
    assert code == 0
    odds = json.loads(out)
    row = next(r for r in odds["mains"] if r["main"] == 7)
    data = json_of(capsys, "-r", "ecws", "--main", "7", "--rounds", "100000")
    figures: Any = data["figures"]
    assert data["main"] == 7
    assert data["exact_p_win"] == row["p_win_float"]
    assert figures["throws_per_round"]["exact"] == row["expected_throws_float"]
    assert abs(figures["throws_per_round"]["z"]) < 4
    assert data["no_round"]["count"] == 0  # type: ignore[index]
    code, out, _ = run(capsys, "simulate", "-r", "ecws", "--main", "7", "--rounds", "1000")
    assert code == 0
    assert "main 7, every round as if thrown" in out


def test_by_main_throws_count_from_the_throw_for_the_main(capsys: pytest.CaptureFixture[str]) -> None:
    """Without --main, each main's exact throws are the odds' row plus the expected throws for the main."""
    code, out, _ = run(capsys, "odds", "-r", "ecws", "-f", "json")
    assert code == 0
    odds = json.loads(out)
    data = json_of(capsys, "-r", "ecws", "--rounds", "200000")
    for group, row in zip(data["mains"], odds["mains"], strict=True):  # type: ignore[call-overload]
        throws = group["figures"]["throws_per_round"]
        assert throws["exact"] == pytest.approx(row["expected_throws_float"] + odds["throws_for_main_float"])
        assert abs(throws["z"]) < 4
    overall: Any = data["figures"]
    assert overall["throws_per_round"]["exact"] == odds["overall"]["expected_throws_float"]


def test_a_main_called_at_random_has_its_exact_rounds_kept(capsys: pytest.CaptureFixture[str]) -> None:
    data = json_of(capsys, "-r", "wikipedia", "--rounds", "400000", "--seed", "3")
    kept: Any = data["rounds_kept"]
    assert data["main"] is None
    assert kept["exact"] == pytest.approx(13.39903496820039, abs=1e-12)
    assert f"{kept['exact']:.3f}" == "13.399"
    assert kept["ci"][0] - 0.05 < kept["exact"] < kept["ci"][1] + 0.05
    sessions = json_of(capsys, "-r", "wikipedia", "--sessions", "40", "--rounds", "100")
    assert sessions["rounds_kept"]["exact"] == kept["exact"]  # type: ignore[index]
    code, out, _ = run(capsys, "simulate", "-r", "wikipedia", "--sessions", "40", "--rounds", "100")
    assert code == 0
    assert "(exact, every hand played out: 13.399)" in out
    code, out, _ = run(capsys, "simulate", "-r", "wikipedia", "--rounds", "20000")
    assert code == 0
    assert "13.399" in out


def test_the_dice_passing_rule_is_shown_whole(capsys: pytest.CaptureFixture[str]) -> None:
    said = "every lost round passes the dice; so does a throw for the main outside 5, 6, 7, 8 and 9"
    assert json_of(capsys, "-r", "sca", "--rounds", "1000")["dice_passing"] == said
    assert json_of(capsys, "-r", "sca", "--sessions", "4", "--rounds", "10")["dice_passing"] == said
    for extra in ((), ("--sessions", "4")):
        code, out, _ = run(capsys, "simulate", "-r", "sca", "--rounds", "1000", *extra)
        assert code == 0
        assert said in " ".join(out.split())


# --- options that mean something only with another, and files checked before the work ----------------------


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (
            ("--cap", "10"),
            "invalid option --cap without --sessions: it sets up a session study; add --sessions N",
        ),
        (("--players", "3"), "invalid option --players without --sessions"),
        (("--bankroll", "50"), "invalid option --bankroll without --sessions"),
        (("--stake", "2"), "invalid option --stake without --sessions"),
        (("--staking", "paroli"), "invalid option --staking without --sessions"),
        (("--paytable", "even"), "invalid option --paytable without --sessions"),
        (("--sessions", "3", "--chunk", "10"), "invalid option --chunk with --sessions: it sizes the steps"),
        (("--sessions", "3", "--cap", "4"), "invalid option --cap without --staking martingale or paroli"),
        (("--sessions", "3", "--staking", "flat", "--cap", "4"), "invalid option --cap without --staking"),
    ],
)
def test_an_option_that_needs_another_is_refused_without_it(
    capsys: pytest.CaptureFixture[str], args: tuple[str, ...], expected: str
) -> None:
    assert fails(capsys, "simulate", "--rounds", "1000", *args).startswith(f"error: {expected}")


def test_an_option_with_the_one_it_needs_is_taken(capsys: pytest.CaptureFixture[str]) -> None:
    data = json_of(capsys, "--sessions", "3", "--rounds", "20", "--staking", "martingale", "--cap", "4")
    assert data["mode"] == "sessions"
    assert json_of(capsys, "--rounds", "1000", "--chunk", "100")["rounds"] == 1000


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("x" * 300 + ".png", "the name is too long (304 characters in one name"),
        ("missing/plot.png", "no folder '"),
        ("plain.txt/plot.png", "is not a folder"),
        ("folder.png", "it is a folder"),
    ],
)
def test_a_plot_that_cannot_be_written_is_refused_before_the_run(
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
    name: str,
    expected: str,
) -> None:
    from hazard.cli import simulate as command

    (tmp_path / "plain.txt").write_text("text", encoding="utf-8")
    (tmp_path / "folder.png").mkdir()
    before = files_in(tmp_path)

    def no_run(*args: object, **kwargs: object) -> None:
        raise AssertionError("the run started")

    monkeypatch.setattr(command, "study_rounds", no_run)
    error = fails(capsys, "simulate", "--rounds", "1000", "--plot", str(tmp_path / name))
    assert error.startswith("error: cannot write --plot '"), error
    assert expected in error, error
    assert files_in(tmp_path) == before  # nothing made to find out


def test_a_plot_over_a_file_keeps_the_file_until_it_is_drawn(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    target = tmp_path / "old.png"
    target.write_bytes(b"an old picture")
    # The plot is checked first, the ruleset after it: the check opened the file and left it as it was.
    refused = fails(capsys, "simulate", "--rounds", "1000", "--plot", str(target), "-r", "nope")
    assert refused.startswith("error: unknown ruleset 'nope'")
    assert target.read_bytes() == b"an old picture"
    code, _, err = run(capsys, "simulate", "--rounds", "1000", "--plot", str(target))
    assert code == 0, err
    assert target.read_bytes().startswith(b"\x89PNG")


# --- fuzzing: any value of any option ends in one error line or a result -----------------------------------

_NUMBERS = (
    "--main",
    "--rounds",
    "--sessions",
    "--seed",
    "--players",
    "--bankroll",
    "--stake",
    "--cap",
    "--workers",
    "--chunk",
)
_SESSION = ("--sessions", "--players", "--bankroll", "--stake", "--staking", "--cap", "--paytable")
_COUNTS = {"--rounds": 10**4, "--sessions": 100, "--chunk": 10**7, "--workers": 64, "--players": 64}
"""The most of each count a fuzzer may ask for: a valid count above it is a long run, not a bad value."""


def _too_long(option: str, value: str) -> bool:
    text = value.strip()
    most = _COUNTS.get(option)
    return bool(most and text.isascii() and text.isdigit() and len(text) < 30 and int(text) > most)


@pytest.mark.slow
@fuzz(150)
@given(data=st.data())
def test_fuzz_any_value_of_a_simulate_option_is_one_error_line_or_a_result(
    capfd: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path, data: st.DataObject
) -> None:
    place = fuzz_place(tmp_path, monkeypatch)
    options = (*_NUMBERS, "--ruleset", "--paytable", "--plot", "--format", "--staking")
    option = data.draw(st.sampled_from(options), label="option")
    paths = option in ("--ruleset", "--paytable", "--plot")
    value = data.draw(hostile_paths(place) if paths else hostile_values(), label="value")
    assume(not _too_long(option, value))
    words = {"--rounds": "1000", "--format": "json"}
    if option in _SESSION:
        words.update({"--sessions": "3", "--rounds": "20"})
    if option == "--cap":
        words["--staking"] = "martingale"
    words[option] = value
    before = files_in(place)
    code, _, _ = survives(capfd, "simulate", *(word for pair in words.items() for word in pair))
    if code == 2:
        assert files_in(place) == before, value  # a refused plot leaves nothing behind
