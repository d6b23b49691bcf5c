"""How a study's time and memory grow with its size: rounds and sessions, decade by decade.

Each size is one ``hazard simulate ... --format json`` process: its time is the JSON's ``seconds`` (the
study itself, start-up excluded) and its wall time from outside; its memory is the process's peak resident
set (``os.wait4``). Beside each, the growth over the size before it: time and memory per unit of work
relative to the previous size (1.00 is linear; the issue's bound is 1.2).

- rounds: ``hazard simulate -r craps --rounds N`` for N = 10^6 ... ``--max-rounds``;
- sessions: ``hazard simulate -r craps --sessions N --rounds 200`` for N = 10^3 ... ``--max-sessions``.

Run ``.venv/bin/python bench/bench_scaling.py [--min-rounds 1e6] [--max-rounds 1e9] [--max-sessions 1e6]
[--json PATH]`` (``--max-sessions 0``: rounds only). The CPU time (user and system, from ``os.wait4``) is
beside the wall time, for a run that shares the machine.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

HAZARD = str(Path(sys.executable).with_name("hazard"))


def measure(arguments: list[str]) -> dict[str, Any]:
    """One ``hazard simulate`` process: its study's seconds, its wall seconds, its peak memory (MB)."""
    began = time.perf_counter()
    with tempfile.TemporaryFile() as err:
        process = subprocess.Popen(
            [HAZARD, "simulate", *arguments, "--format", "json"], stdout=subprocess.PIPE, stderr=err
        )
        assert process.stdout is not None
        out = process.stdout.read()
        process.stdout.close()
        _, status, usage = os.wait4(process.pid, 0)  # reaped here, with its own resource use
        process.returncode = os.waitstatus_to_exitcode(status)
        wall = time.perf_counter() - began
        if process.returncode != 0:
            err.seek(0)
            raise RuntimeError(f"hazard simulate {' '.join(arguments)} failed: {err.read().decode()[-500:]}")
    data = json.loads(out)
    return {
        "seconds": data["seconds"],
        "wall_seconds": wall,
        "cpu_seconds": usage.ru_utime + usage.ru_stime,
        "peak_mb": usage.ru_maxrss / 1024,
    }


def series(name: str, sizes: list[int], arguments: Any) -> list[dict[str, Any]]:
    rows: list[dict[str, Any]] = []
    for size in sizes:
        got = measure(arguments(size))
        row = {
            "size": size,
            "seconds": got["seconds"],
            "wall_seconds": got["wall_seconds"],
            "cpu_seconds": got["cpu_seconds"],
            "peak_mb": got["peak_mb"],
        }
        if rows:
            before = rows[-1]
            scale = size / before["size"]
            row["time_growth"] = got["seconds"] / before["seconds"] / scale
            row["cpu_growth"] = got["cpu_seconds"] / before["cpu_seconds"] / scale
            row["memory_growth"] = got["peak_mb"] / before["peak_mb"] / scale
        rows.append(row)
        nan = float("nan")
        growth = (
            f"  per unit against the size before: time {row.get('time_growth', nan):.2f}, "
            f"CPU {row.get('cpu_growth', nan):.2f}, "
            f"memory {row.get('memory_growth', nan):.3f}"
        )
        print(
            f"{name} {size:>16,}: {got['seconds']:9.3f} s (wall {got['wall_seconds']:.3f} s, "
            f"CPU {got['cpu_seconds']:.3f} s), "
            f"peak {got['peak_mb']:7.1f} MB" + (growth if len(rows) > 1 else ""),
            file=sys.stderr,
        )
    return rows


def decades(low: int, high: int) -> list[int]:
    out, n = [], low
    while n <= high:
        out.append(n)
        n *= 10
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--min-rounds", type=float, default=1e6)
    parser.add_argument("--max-rounds", type=float, default=1e9)
    parser.add_argument("--max-sessions", type=float, default=1e6)
    parser.add_argument("--json", type=Path)
    options = parser.parse_args()
    rounds = series(
        "rounds",
        decades(int(options.min_rounds), int(options.max_rounds)),
        lambda n: ["-r", "craps", "--rounds", str(n)],
    )
    sessions = series(
        "sessions",
        decades(10**3, int(options.max_sessions)),
        lambda n: ["-r", "craps", "--sessions", str(n), "--rounds", "200"],
    )
    report = {
        "machine": f"{platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}",
        "rounds": rounds,
        "sessions_of_200_rounds": sessions,
    }
    text = json.dumps(report, indent=2)
    print(text)
    if options.json is not None:
        options.json.write_text(text + "\n")


if __name__ == "__main__":
    main()
