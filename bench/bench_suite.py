"""Where the test suite's CPU goes: a pytest run, with the CPU time of every process it starts, by kind.

The suite's wall time on two cores is bounded by the CPU of everything it runs, most of which is not pytest's:
Chromium's processes (its renderers, its browser process, its GPU process), the ``hazard serve`` and
``hazard`` processes the tests start, and the C compiler. This runs one pytest command and samples
``/proc`` every ``--every`` seconds: each process under it (its process tree) is counted at the largest CPU
time (user + system) it was seen with, so a process that ends between samples loses at most one period. The
sums by kind are printed beside the wall time, largest first, with how many processes of each kind ran;
``--top N`` lists the N processes that took the most, each with its command line.

Run ``.venv/bin/python bench/bench_suite.py`` for the whole suite as ``make unit`` runs it (two workers,
``--dist worksteal``, a fresh base folder in memory where there is one), or name what pytest should run after
``--``: ``bench/bench_suite.py -- tests/web/test_web_browser.py``. Linux only (``/proc``). ``--json FILE``
writes the figures. Results in docs/benchmarks.md.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

TICK = os.sysconf("SC_CLK_TCK")
RULES = (
    # (what the command line holds, the kind), the first that matches; Chromium's by its --type
    ("--type=renderer", "chromium renderers"),
    ("--type=gpu-process", "chromium gpu process"),
    ("--type=utility", "chromium utility processes"),
    ("--type=zygote", "chromium zygote"),
    ("chromium", "chromium browser process"),
    (" hazard serve", "hazard serve"),
    ("-m hazard", "hazard (the command line)"),
    ("exec(eval(sys.stdin.readline()))", "pytest workers"),  # pytest-xdist's
    ("pytest", "pytest (the controller)"),
    ("playwright/driver", "playwright's driver (node)"),
    ("/cc1", "the C compiler"),
    ("gcc", "the C compiler"),
)


def kind(command: str) -> str:
    """The kind of process a command line is: the first of ``RULES`` it matches, else its program's name."""
    found = next((name for part, name in RULES if part in command), None)
    return found or Path(command.split(" ", maxsplit=1)[0]).name or "other"


def sample(root: int, seen: dict[int, tuple[str, float, str]]) -> None:
    """Record the CPU time of every process in ``root``'s tree now."""
    parents: dict[int, int] = {}
    times: dict[int, float] = {}
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/stat") as stat:
                fields = stat.read().rsplit(")", 1)[1].split()
        except OSError:
            continue  # ended meanwhile
        parents[int(name)] = int(fields[1])
        times[int(name)] = (int(fields[11]) + int(fields[12])) / TICK
    tree = {root}
    grown = True
    while grown:
        grown = False
        for pid, parent in parents.items():
            if parent in tree and pid not in tree:
                tree.add(pid)
                grown = True
    for pid in tree:
        if pid not in times:
            continue
        known = seen.get(pid)
        if known is None:
            try:
                raw = Path(f"/proc/{pid}/cmdline").read_bytes()
            except OSError:
                continue
            command = raw.replace(b"\0", b" ").decode(errors="replace").strip()
            known = (kind(command), 0.0, command)
        seen[pid] = (known[0], max(known[1], times[pid]), known[2])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--every", type=float, default=0.3, help="seconds between samples (default 0.3)")
    parser.add_argument("--json", type=Path, help="write the figures here")
    parser.add_argument("--top", type=int, default=0, help="list the N processes that took the most CPU")
    parser.add_argument("pytest", nargs="*", help="what pytest runs (after --); default the whole suite")
    args = parser.parse_args()
    if not 0.05 <= args.every <= 5:
        parser.error(f"--every {args.every}: expected 0.05 to 5 seconds")
    if not 0 <= args.top <= 1000:
        parser.error(f"--top {args.top}: expected 0 to 1000 processes")
    if not Path("/proc/self/stat").is_file():
        parser.error("this benchmark reads /proc: Linux only")
    shm = Path("/dev/shm")
    base = Path(tempfile.mkdtemp(prefix="hz.", dir=shm if shm.is_dir() and os.access(shm, os.W_OK) else None))
    pytest = Path(sys.executable).with_name("pytest")
    command = [str(pytest), "-q", "-p", "no:cacheprovider", f"--basetemp={base}"]
    command += args.pytest or ["-n", "auto", "--dist", "worksteal"]
    env = {**os.environ, "PYTHONDONTWRITEBYTECODE": ""}  # as make unit runs it
    seen: dict[int, tuple[str, float, str]] = {}
    began = time.perf_counter()
    try:
        process = subprocess.Popen(command, env=env)
        while process.poll() is None:
            sample(process.pid, seen)
            time.sleep(args.every)
    finally:
        shutil.rmtree(base, ignore_errors=True)
    wall = time.perf_counter() - began
    sums: dict[str, float] = {}
    counts: dict[str, int] = {}
    for name, cpu, _ in seen.values():
        sums[name] = sums.get(name, 0.0) + cpu
        counts[name] = counts.get(name, 0) + 1
    total = sum(sums.values())
    print(f"pytest {' '.join(command[1:])}: exit status {process.returncode}")
    print(f"wall {wall:.1f} s; CPU {total:.1f} s in all ({total / wall:.2f} cores busy on average)")
    for name, cpu in sorted(sums.items(), key=lambda item: -item[1]):
        if cpu >= 0.05:
            print(f"{cpu:9.1f} s  {100 * cpu / total:5.1f} %  {counts[name]:5d} × {name}")
    top = sorted(seen.values(), key=lambda item: -item[1])[: args.top]
    if top:
        print(f"the {len(top)} process{'' if len(top) == 1 else 'es'} that took the most:")
    for name, cpu, command in top:
        print(f"{cpu:9.1f} s  {name}: {command[:160]}")
    if args.json:
        figures = {"wall_s": wall, "cpu_s": sums, "processes": counts, "status": process.returncode}
        args.json.write_text(json.dumps(figures, indent=2))
    raise SystemExit(process.returncode)


if __name__ == "__main__":
    main()
