"""Throws per second of ``hazard simulate`` against crapssim and against NumPy drawing one of 36 outcomes.

All three are measured in one run, on the same machine, on the same workload: the craps pass line (the
``craps`` ruleset: come-out 7 or 11 wins, 2, 3 or 12 loses, else the point before a 7), one unit flat.

- hazard: the whole ``hazard simulate -r craps --rounds N --format json`` process, start-up included, timed
  from outside; its throws are the ``throws`` field of its JSON. The C kernels are compiled at install, so
  there is no first-run build: the first run is still timed apart (cold file caches), as before.
  The package is byte-compiled first, as pip does when it installs one: an editable install under
  ``PYTHONDONTWRITEBYTECODE=1`` would otherwise compile hazard's sources on every start.
- NumPy: one process drawing integers in [0, 36) with ``Generator.integers`` (PCG64), a million at a time.
- crapssim: a table with one player on the pass line for a number of rolls.
- start-up: ``hazard simulate -r craps --rounds 1 --format json`` against ``python -c "import numpy"``, the
  median of ``--startup-runs`` runs of each, taken in turn.

Run ``make bench`` (or ``.venv/bin/python bench/bench_simulate.py``); ``--help`` lists the sizes.
"""

from __future__ import annotations

import argparse
import compileall
import json
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import numpy as np

import hazard

HAZARD = Path(sys.executable).with_name("hazard")
PACKAGE = Path(hazard.__file__).parent


def numpy_rate(draws: int, dtype: type[np.integer[Any]]) -> float:
    """Integers in [0, 36) drawn per second by one NumPy process, ``2**20`` at a time."""
    rng = np.random.default_rng(12345)
    chunk = 1 << 20
    rng.integers(0, 36, size=chunk, dtype=dtype)  # warm
    done = 0
    began = time.perf_counter()
    while done < draws:
        rng.integers(0, 36, size=chunk, dtype=dtype)
        done += chunk
    return done / (time.perf_counter() - began)


def numpy_process(draws: int) -> float:
    """Integers in [0, 36) per second of a whole ``python`` process that draws ``draws`` of them."""
    code = (
        "import numpy as np\n"
        "rng = np.random.default_rng(12345)\n"
        f"left = {draws}\n"
        "while left > 0:\n"
        "    n = min(left, 1 << 20)\n"
        "    rng.integers(0, 36, size=n)\n"
        "    left -= n\n"
    )
    began = time.perf_counter()
    subprocess.run([sys.executable, "-c", code], check=True)
    return draws / (time.perf_counter() - began)


def hazard_run(rounds: int, env: dict[str, str]) -> tuple[float, int]:
    """Wall seconds of one whole ``hazard simulate`` process, and the throws it reports."""
    command = [
        str(HAZARD),
        "simulate",
        "-r",
        "craps",
        "--rounds",
        str(rounds),
        "--seed",
        "1",
        "--format",
        "json",
    ]
    began = time.perf_counter()
    result = subprocess.run(command, capture_output=True, text=True, check=True, env=env)
    seconds = time.perf_counter() - began
    return seconds, int(json.loads(result.stdout)["throws"])


def hazard_runs(rounds: int, repeat: int) -> tuple[float, int, list[tuple[float, int]]]:
    """A first run of ``hazard simulate``, then ``repeat`` more: the first's seconds and throws, and each
    later run's (in an empty cache folder: the runs must write nothing there)."""
    cache = Path(tempfile.mkdtemp(prefix="hazard-bench-cache-"))
    env = {**os.environ, "XDG_CACHE_HOME": str(cache)}
    try:
        cold_seconds, cold_throws = hazard_run(rounds, env)
        warm = [hazard_run(rounds, env) for _ in range(repeat)]
        assert not any(cache.iterdir()), "hazard simulate wrote to the cache folder"
    finally:
        shutil.rmtree(cache, ignore_errors=True)
    return cold_seconds, cold_throws, warm


def crapssim_rate(rolls: int) -> float:
    """Rolls per second of crapssim, one player on the pass line."""
    from crapssim.strategy import BetPassLine  # noqa: PLC0415 - a bench-only dependency
    from crapssim.table import Table  # noqa: PLC0415

    table = Table(seed=12345)
    table.add_player(bankroll=10**12, strategy=BetPassLine(1))
    began = time.perf_counter()
    table.run(max_rolls=rolls, verbose=False)
    seconds = time.perf_counter() - began
    return table.dice.n_rolls / seconds


def startup(runs: int) -> tuple[float, float]:
    """Median wall seconds of ``hazard simulate -r craps --rounds 1 --format json`` and of ``python -c
    "import numpy"``, ``runs`` of each, taken in turn so that both see the same machine."""
    commands = (
        [str(HAZARD), "simulate", "-r", "craps", "--rounds", "1", "--format", "json"],
        [sys.executable, "-c", "import numpy"],
    )
    times: list[list[float]] = [[], []]
    for _ in range(runs):
        for i, command in enumerate(commands):
            began = time.perf_counter()
            subprocess.run(command, stdout=subprocess.DEVNULL, check=True)
            times[i].append(time.perf_counter() - began)
    return statistics.median(times[0]), statistics.median(times[1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=50_000_000, help="rounds for hazard simulate")
    parser.add_argument("--repeat", type=int, default=5, help="warm hazard runs (the median is reported)")
    parser.add_argument("--numpy-draws", type=int, default=400_000_000, help="integers NumPy draws")
    parser.add_argument("--crapssim-rolls", type=int, default=200_000, help="rolls crapssim plays")
    parser.add_argument("--startup-runs", type=int, default=21, help="start-ups timed of each")
    args = parser.parse_args()

    compileall.compile_dir(PACKAGE, quiet=1)
    cold_seconds, cold_throws, warm = hazard_runs(args.rounds, args.repeat)
    seconds = statistics.median(s for s, _ in warm)
    throws = warm[0][1]
    assert all(t == throws for _, t in warm), "the same seed must give the same throws"
    hazard = throws / seconds
    numpy64 = numpy_rate(args.numpy_draws, np.int64)
    numpy8 = numpy_rate(args.numpy_draws, np.uint8)
    numpy_whole = numpy_process(throws)
    craps = crapssim_rate(args.crapssim_rolls)
    started, numpy_imported = startup(args.startup_runs)
    report = {
        "machine": f"{platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}",
        "rounds": args.rounds,
        "hazard_throws": throws,
        "hazard_seconds_warm_median": seconds,
        "hazard_seconds_warm_all": [s for s, _ in warm],
        "hazard_seconds_cold": cold_seconds,
        "hazard_throws_per_second": hazard,
        "hazard_throws_per_second_cold": cold_throws / cold_seconds,
        "numpy_int64_draws_per_second": numpy64,
        "numpy_uint8_draws_per_second": numpy8,
        "numpy_whole_process_draws_per_second": numpy_whole,
        "crapssim_rolls_per_second": craps,
        "ratio_to_crapssim": hazard / craps,
        "ratio_to_numpy_int64": hazard / numpy64,
        "ratio_to_numpy_uint8": hazard / numpy8,
        "ratio_to_numpy_whole_process": hazard / numpy_whole,
        "startup_seconds_median": started,
        "import_numpy_seconds_median": numpy_imported,
        "startup_ratio_to_import_numpy": started / numpy_imported,
    }
    print(json.dumps(report, indent=2))
    print(
        f"\nhazard simulate, {args.rounds:,} craps rounds, whole process: {hazard / 1e6:,.1f} M throws/s "
        f"({throws:,} throws in {seconds:.3f} s; first run: {cold_seconds:.2f} s)\n"
        f"NumPy integers in [0, 36), one process: {numpy64 / 1e6:,.1f} M/s (int64), "
        f"{numpy8 / 1e6:,.1f} M/s (uint8); as a whole process drawing as many: {numpy_whole / 1e6:,.1f} M/s\n"
        f"crapssim, pass line: {craps / 1e3:,.1f} k rolls/s\n"
        f"hazard / crapssim: {hazard / craps:,.0f}x (target 1,000x); "
        f"hazard / NumPy: {hazard / numpy64:.2f} (target 1.0)\n"
        f"start-up: {started * 1e3:.1f} ms against import numpy {numpy_imported * 1e3:.1f} ms: "
        f"{started / numpy_imported:.2f}x (target 1.3x or less)",
        file=sys.stderr,
    )


if __name__ == "__main__":
    main()
