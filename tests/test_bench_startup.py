"""bench/bench_startup.py times the start-up of ``hazard --help`` and ``hazard odds`` against NumPy's import:
its report, the comparison with another checkout, and bad options.

Never how fast: only that every command is timed and the ratios are the rounds' own.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest
from tests.paths import ROOT

BENCH = ROOT / "bench" / "bench_startup.py"
PROGRAMS = ("hazard --help", "hazard odds -r wikipedia")


@pytest.fixture(autouse=True)
def _bench_present() -> None:
    if not BENCH.is_file():
        pytest.skip(f"no {BENCH}: bench/ stays in the repository (an sdist does not carry it)")


def _bench(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(BENCH), *args], capture_output=True, text=True, timeout=120, check=False, env=env
    )


def test_every_command_is_timed_and_numpy_is_the_base() -> None:
    done = _bench("--rounds", "1", "--json")
    assert done.returncode == 0, done.stderr
    figures = json.loads(done.stdout[done.stdout.index("{") :])
    assert figures["rounds"] == 1
    assert list(figures["commands"]) == ["import numpy", *PROGRAMS]
    base = figures["commands"]["import numpy"]
    assert base["wall_ratio"] == base["cpu_ratio"] == 1
    for name in PROGRAMS:
        row = figures["commands"][name]
        assert row["wall_ms"] > 0
        assert row["cpu_ms"] > 0
        assert row["wall_ratio"] == pytest.approx(row["wall_ms"] / base["wall_ms"])  # one round: its own


def test_a_checkout_is_compared_with_another_started_the_same_way() -> None:
    done = _bench("--rounds", "1", "--json", "--against", str(ROOT))  # this checkout against itself
    assert done.returncode == 0, done.stderr
    figures = json.loads(done.stdout[done.stdout.index("{") :])
    assert list(figures["commands"]) == [
        "import numpy",
        *(f"{name} (this)" for name in PROGRAMS),
        *(f"{name} (against)" for name in PROGRAMS),
    ]
    assert figures["against"]["checkout"] == str(ROOT.resolve())
    for name in PROGRAMS:
        this = figures["commands"][f"{name} (this)"]
        other = figures["commands"][f"{name} (against)"]
        ratio = figures["against"]["ratios"][name]["cpu_ratio"]
        assert ratio == pytest.approx(this["cpu_ms"] / other["cpu_ms"])


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("--rounds", "0"), "argument --rounds: expected 1 to 1000 rounds, not '0'"),
        (("--against", "/"), "argument --against: expected a checkout of hazard (with src/hazard), not '/'"),
    ],
)
def test_a_bad_option_is_one_error(args: tuple[str, ...], message: str) -> None:
    done = _bench(*args)
    assert done.returncode == 2
    assert done.stderr.strip().splitlines()[-1] == f"bench_startup.py: error: {message}"


def test_counting_instructions_without_valgrind_says_what_to_install() -> None:
    env = {**os.environ, "PATH": os.path.dirname(sys.executable)}  # this Python's folder, no valgrind
    done = _bench("--rounds", "1", "--instructions", env=env)
    assert done.returncode == 2
    assert done.stderr.strip().splitlines()[-1] == (
        "bench_startup.py: error: --instructions: valgrind is not installed (Debian: apt install valgrind)"
    )
