"""bench/anchor.c, the benchmark's C anchor, plays the game hazard plays: its counts match the exact odds.

The anchor is the yardstick bench/bench_simulate.py measures hazard against, so it must do the same work:
here it is built with the system's C compiler, as the benchmark builds it, and run small (craps, and Hazard
on every main of the ``wikipedia`` ruleset, whose table it plays), and each figure it counts is held to
hazard.analysis's exact value: |z| < 4, as the simulator's own figures are. Never how fast.
"""

from __future__ import annotations

import json
import math
import shutil
import subprocess
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from tests.paths import ROOT

from hazard.analysis import analyse
from hazard.core.rulesets import find_ruleset

pytestmark = pytest.mark.slow  # builds a C program (about a second) and runs it nine times

SOURCE = ROOT / "bench" / "anchor.c"
ROUNDS = 400_000


@pytest.fixture(scope="module")
def anchor(tmp_path_factory: pytest.TempPathFactory) -> Path:
    if not SOURCE.is_file():
        pytest.skip(f"no {SOURCE}: bench/ stays in the repository (an sdist does not carry it)")
    compiler = shutil.which("cc")
    if compiler is None:
        pytest.skip("no C compiler `cc` on PATH: the benchmark's C anchor cannot be built")
    program = tmp_path_factory.mktemp("anchor") / "anchor"
    subprocess.run([compiler, "-O3", "-pthread", str(SOURCE), "-o", str(program)], check=True)
    return program


def play(anchor: Path, *arguments: str) -> dict[str, Any]:
    command = [str(anchor), "--rounds", str(ROUNDS), "--threads", "2", *arguments]
    result: dict[str, Any] = json.loads(subprocess.run(command, capture_output=True, check=True).stdout)
    return result


def z_rate(count: int, n: int, p: Fraction) -> float:
    return (count / n - float(p)) / math.sqrt(float(p * (1 - p)) / n)


def check(result: dict[str, Any], ruleset_id: str, main: int) -> None:
    odds = analyse(find_ruleset(ruleset_id), main=main).mains[0]
    n = result["rounds"]
    assert n == ROUNDS
    assert result["throws"] == result["throw_sum"]
    zs = {
        "win": z_rate(result["wins"], n, odds.p_win),
        "nick": z_rate(result["nicks"], n, odds.p_nick),
        "out": z_rate(result["outs"], n, odds.p_out),
        "throws": (result["throws"] / n - float(odds.expected_throws))
        / math.sqrt(float(odds.throws_variance) / n),
    }
    for chance, count in zip(range(4, 11), result["chance_won"], strict=True):
        if chance != main:
            zs[f"won {chance}"] = z_rate(count, n, odds.p_win_by_chance[chance])
        else:
            assert count == 0
    for chance, won, lost in zip(range(4, 11), result["chance_won"], result["chance_lost"], strict=True):
        if chance != main:
            zs[f"set {chance}"] = z_rate(won + lost, n, odds.p_chance_set[chance])
    # Hands: the mean of rounds kept, against a loose bound (a hand's rounds have a standard deviation
    # of the order of their mean, which the anchor does not report).
    kept = odds.expected_rounds_kept
    assert kept is not None
    mean = result["rounds_kept_sum"] / result["hands"]
    zs["rounds kept"] = (mean - float(kept)) / (2 * float(kept) / math.sqrt(result["hands"]))
    bad = {name: z for name, z in zs.items() if not abs(z) < 4}
    assert not bad, f"{ruleset_id} on {main}: {bad} ({result})"


@pytest.mark.parametrize("generator", ["pcg64", "xoshiro"])
def test_the_anchor_plays_craps_as_hazard_does(anchor: Path, generator: str) -> None:
    check(play(anchor, "--game", "craps", "--seed", "3", "--generator", generator), "craps", 7)


@pytest.mark.parametrize("main", [5, 6, 7, 8, 9])
def test_the_anchor_plays_hazard_on_each_main_as_hazard_does(anchor: Path, main: int) -> None:
    result = play(anchor, "--game", "hazard", "--main", str(main), "--seed", str(main))
    check(result, "wikipedia", main)


def test_the_anchor_reports_its_times_and_refuses_bad_options(anchor: Path) -> None:
    result = play(anchor)
    for name in ("play_cpu_seconds", "play_wall_seconds", "process_cpu_seconds", "process_wall_seconds"):
        assert result[name] >= 0
    assert result["threads"] == 2
    assert result["generator"] == "pcg64"
    for bad in (["--game", "poker"], ["--main", "4"], ["--game", "craps", "--main", "6"], ["--threads", "0"]):
        assert subprocess.run([str(anchor), *bad], check=False, capture_output=True).returncode == 2
