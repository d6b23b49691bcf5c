"""``hazard drill``: piped answers, the clock, the score equal to the exact values, scores kept by name across
runs, one-line errors, and a real terminal under tmux."""

from __future__ import annotations

import shutil
import subprocess
import time
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from tests.commandline import fails, feed, fuzz, hostile_lines, hostile_values, run, survives
from tests.terminal import HAZARD, Terminal, hazard_env, run_hazard

from hazard.analysis.drill import Answer, Drill
from hazard.cli.drill import value_text


def _expected(seed: int, answers: list[Answer | None], seconds: float = 10) -> Drill:
    drill = Drill(seed, len(answers), seconds)
    for answer in answers:
        drill, _ = drill.answer(answer or Answer.REFUSE, timed_out=answer is None)
    return drill


@pytest.mark.slow  # two processes
def test_piped_answers_score_the_exact_values_and_the_best_are_kept_by_name(tmp_path: Path) -> None:
    db = str(tmp_path / "games.db")
    answers = [Answer.TAKE, Answer.REFUSE, Answer.TAKE, Answer.TAKE]
    lines = ["t", "r", "maybe", "take", "T"]  # a line that is no answer is asked again
    done = run_hazard(
        tmp_path, "drill", "--seed", "12", "--rounds", "4", "--name", "Ann", "--db", db, lines=lines
    )
    assert done.returncode == 0, done.stderr
    expected = _expected(12, answers)
    for judged in expected.judged:
        offer = judged.offer
        assert f"At {offer.stated}: {offer.proposition}" in done.stdout
        assert f"Fair odds {offer.fair_odds} (P = {offer.analysis.probability})" in done.stdout
        assert f"taking is worth {value_text(offer.value)} a unit" in done.stdout
    assert "answer t (take) or r (refuse)" in done.stdout
    assert (
        f"Score {value_text(expected.score)} (the best possible {value_text(expected.best)})" in done.stdout
    )
    assert "Kept for Ann" in done.stdout
    again = run_hazard(
        tmp_path, "drill", "--seed", "12", "--rounds", "4", "--name", "ann", "--db", db, lines=["r"] * 4
    )
    assert again.returncode == 0, again.stderr
    refused = _expected(12, [Answer.REFUSE] * 4)
    best = again.stdout.split("best:")[1]
    scores = sorted([expected.score, refused.score], reverse=True)
    assert [line.strip().split("  ")[0].split(". ")[1] for line in best.strip().splitlines()] == [
        value_text(s) for s in scores
    ]


@pytest.mark.slow  # a process, and a second of the clock
def test_no_answer_in_time_refuses_and_the_end_of_input_stops_the_drill(tmp_path: Path) -> None:
    terminal = Terminal(tmp_path, "drill", "--seed", "4", "--rounds", "3", "--seconds", "1")
    terminal.expect("take or refuse [t/r]> ")
    started = time.monotonic()
    terminal.expect("time! no answer in time refuses the bet")
    assert time.monotonic() - started >= 0.9
    terminal.expect("You refused: 0")
    terminal.expect("take or refuse [t/r]> ")
    terminal.send("t")
    terminal.expect("You took")
    terminal.kill()
    ended = run_hazard(tmp_path, "drill", "--seed", "4", "--rounds", "3", "--name", "Ann", lines=["t"])
    assert ended.returncode == 0
    assert "The drill stops at round 2: the input has ended; nothing is kept." in ended.stdout


@pytest.mark.parametrize(
    ("args", "error"),
    [
        (["--rounds", "0"], "error: invalid --rounds '0': expected a whole number from 1 to 100"),
        (["--seconds", "0.5"], "error: invalid --seconds '0.5': expected 1 to 120"),
        (["--seconds", "nan"], "error: invalid --seconds 'nan'"),
        (["--seed", "x"], "error: invalid --seed 'x'"),
        (["--name", "7up"], "error: invalid player name '7up'"),
    ],
)
def test_bad_options_are_one_error_line(
    capsys: pytest.CaptureFixture[str], args: list[str], error: str
) -> None:
    assert fails(capsys, "drill", *args).startswith(error)


def test_answers_read_in_process_score_the_exact_values(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    feed(monkeypatch, ["r", "t", "no", "r"])
    code, out, err = run(capsys, "drill", "--seed", "30", "--rounds", "3")
    assert (code, err) == (0, "")
    expected = _expected(30, [Answer.REFUSE, Answer.TAKE, Answer.REFUSE])
    for judged in expected.judged:
        assert f"taking is worth {value_text(judged.offer.value)} a unit" in out
        assert f"{value_text(judged.points)} (missed {value_text(judged.missed)})" in out
    assert f"Score {value_text(expected.score)} (the best possible {value_text(expected.best)})" in out


@pytest.mark.slow
@pytest.mark.skipif(shutil.which("tmux") is None, reason="needs tmux")
def test_the_drill_in_a_real_terminal_under_tmux(tmp_path: Path) -> None:
    session = f"hazard-drill-{tmp_path.name}"
    env = hazard_env(tmp_path)
    # The pane stays a while after the drill ends, to be read.
    command = " ".join([*HAZARD, "drill", "--seed", "9", "--rounds", "3", "--seconds", "2"]) + "; sleep 60"
    socket = ["-S", str(tmp_path / "tmux.sock")]
    subprocess.run(
        ["tmux", *socket, "new-session", "-d", "-s", session, "-x", "140", "-y", "50", command],
        env=env,
        check=True,
    )
    try:
        pane = ["tmux", *socket]

        def shown() -> str:
            return subprocess.run(
                [*pane, "capture-pane", "-p", "-t", session], check=True, capture_output=True, text=True
            ).stdout

        def wait(text: str, count: int = 1) -> str:
            deadline = time.monotonic() + 30
            while (screen := shown()).count(text) < count:
                assert time.monotonic() < deadline, f"tmux never showed {text!r}:\n{screen}"
                time.sleep(0.1)
            return screen

        wait("take or refuse [t/r]>")
        subprocess.run([*pane, "send-keys", "-t", session, "t", "Enter"], check=True)
        wait("You took")
        wait("take or refuse [t/r]>", 2)
        subprocess.run([*pane, "send-keys", "-t", session, "r", "Enter"], check=True)
        wait("You refused", 1)
        wait("1 s · take or refuse [t/r]>")  # at a terminal, the prompt counts the seconds down
        wait("time! no answer in time refuses the bet")  # the third is let run out
        screen = wait("right. Seed 9.")
        expected = _expected(9, [Answer.TAKE, Answer.REFUSE, None], seconds=2)
        assert f"Score {value_text(expected.score)}" in screen
    finally:
        subprocess.run(["tmux", *socket, "kill-server"], check=False, capture_output=True)


@fuzz(60)
@given(
    option=st.sampled_from(["--seed", "--rounds", "--seconds", "--name"]),
    value=hostile_values(),
    lines=st.lists(hostile_lines(["t", "r", "take", "refuse"]), max_size=4),
)
def test_any_option_and_any_answers_end_cleanly(
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    option: str,
    value: str,
    lines: list[str],
) -> None:
    """Whatever is given or typed, the drill ends with status 0 or one ``error:`` line (a name opens no
    record here: an in-memory one is refused)."""
    feed(monkeypatch, lines)
    survives(capsys, "drill", "--rounds", "5", "--db", "sqlite://", option, value)
