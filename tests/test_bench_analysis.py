"""bench/bench_analysis.py times the exact analysis of every built-in ruleset: its report, and a bad option.

Never how fast: only that each built-in ruleset is measured and the figures add up.
"""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from tests.paths import ROOT

from hazard.core.rulesets import builtin_rulesets

BENCH = ROOT / "bench" / "bench_analysis.py"


@pytest.fixture(autouse=True)
def _bench_present() -> None:
    if not BENCH.is_file():
        pytest.skip(f"no {BENCH}: bench/ stays in the repository (an sdist does not carry it)")


def test_every_builtin_ruleset_is_timed() -> None:
    done = subprocess.run(
        [sys.executable, str(BENCH), "--repeat", "1", "--json"],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    figures = json.loads(done.stdout.strip().splitlines()[-1])
    assert figures["repeat"] == 1
    assert list(figures["cpu_ms"]) == [ruleset.id for ruleset in builtin_rulesets()]
    assert all(ms >= 0 for ms in figures["cpu_ms"].values())
    rows = {line.split()[0]: float(line.split()[1]) for line in done.stdout.splitlines()[1:-1]}
    assert rows["all"] == pytest.approx(sum(figures["cpu_ms"].values()), abs=0.01 * len(rows))


def test_a_bad_repeat_is_one_error() -> None:
    done = subprocess.run(
        [sys.executable, str(BENCH), "--repeat", "0"], capture_output=True, text=True, timeout=60, check=False
    )
    assert done.returncode == 2
    assert (
        done.stderr.strip().splitlines()[-1]
        == "bench_analysis.py: error: --repeat 0: expected 1 to 1000 runs"
    )
