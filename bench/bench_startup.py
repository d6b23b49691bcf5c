"""Start-up of ``hazard --help`` and ``hazard odds -r wikipedia`` against ``python -c "import numpy"``.

Each round runs the three processes in turn (the order rotating from round to round), so that all three
see the same machine; a ratio is taken within a round (paired), and the median and spread of the rounds'
ratios are reported. Wall time is timed from outside; CPU time (user + system) is the child's own, from
``os.wait4``. The programs are the installed ``hazard`` entry point beside this Python (the console script
pip writes, as a user runs it), and this Python for NumPy. The package is byte-compiled first, as pip does
when it installs one: an editable install under ``PYTHONDONTWRITEBYTECODE=1`` would otherwise compile
hazard's sources on every start and time the compiler.

Run ``.venv/bin/python bench/bench_startup.py`` (``--rounds``, ``--json``); results in docs/benchmarks.md.
"""

from __future__ import annotations

import argparse
import compileall
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

import hazard

HAZARD = Path(sys.executable).with_name("hazard")
PACKAGE = Path(hazard.__file__).parent
COMMANDS = {
    "import numpy": [sys.executable, "-c", "import numpy"],
    "hazard --help": [str(HAZARD), "--help"],
    "hazard odds -r wikipedia": [str(HAZARD), "odds", "-r", "wikipedia"],
}
BASE = "import numpy"


def timed(command: list[str]) -> tuple[float, float]:
    """Wall and CPU seconds (user + system, the child's own) of one run of ``command``."""
    began = time.perf_counter()
    child = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, status, usage = os.wait4(child.pid, 0)
    wall = time.perf_counter() - began
    child.returncode = os.waitstatus_to_exitcode(status)  # reaped here: Popen must not wait again
    if child.returncode != 0:
        raise SystemExit(f"{' '.join(command)} exited with {child.returncode}")
    return wall, usage.ru_utime + usage.ru_stime


def spread(values: list[float]) -> tuple[float, float, float]:
    """Median and the quartiles (the middle half of the rounds lies between them)."""
    if len(values) < 2:
        return values[0], values[0], values[0]
    low, _, high = statistics.quantiles(values, n=4, method="inclusive")
    return statistics.median(values), low, high


def measure(rounds: int) -> dict[str, dict[str, list[float]]]:
    """Each command's wall and CPU seconds, one of each per round, after one untimed round."""
    names = list(COMMANDS)
    for name in names:  # warm the file caches; not counted
        timed(COMMANDS[name])
    times: dict[str, dict[str, list[float]]] = {name: {"wall": [], "cpu": []} for name in names}
    for index in range(rounds):
        shift = index % len(names)
        for name in names[shift:] + names[:shift]:
            wall, cpu = timed(COMMANDS[name])
            times[name]["wall"].append(wall)
            times[name]["cpu"].append(cpu)
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=31, help="rounds, each running every command once")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON as well")
    args = parser.parse_args()
    compileall.compile_dir(PACKAGE, quiet=1)
    times = measure(args.rounds)
    report: dict[str, dict[str, float]] = {}
    print(f"{args.rounds} rounds; medians, with the quartiles of the rounds in brackets")
    print(f"{'':26} {'wall ms':>22} {'CPU ms':>22} {'wall ratio':>20} {'CPU ratio':>20}")
    for name, figures in times.items():
        row = {}
        cells = []
        for kind in ("wall", "cpu"):
            middle, low, high = spread([1000 * value for value in figures[kind]])
            row[f"{kind}_ms"] = middle
            cells.append(f"{middle:7.1f} [{low:6.1f}, {high:6.1f}]")
        for kind in ("wall", "cpu"):
            ratios = [a / b for a, b in zip(figures[kind], times[BASE][kind], strict=True)]
            middle, low, high = spread(ratios)
            row[f"{kind}_ratio"] = middle
            row[f"{kind}_ratio_q1"] = low
            row[f"{kind}_ratio_q3"] = high
            cells.append(f"{middle:5.2f} [{low:4.2f}, {high:4.2f}]")
        report[name] = row
        print(
            f"{name:26} "
            + " ".join(f"{cell:>22}" if i < 2 else f"{cell:>20}" for i, cell in enumerate(cells))
        )
    if args.json:
        print(json.dumps({"rounds": args.rounds, "commands": report}, indent=2))


if __name__ == "__main__":
    main()
