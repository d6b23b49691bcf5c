"""Session rounds per CPU-second: this checkout's ``hazard simulate --sessions`` against others', in turn.

Issue 23's measure: ``hazard simulate -r craps --sessions 100000 --rounds 200`` (2·10⁷ session rounds), the
whole process timed from outside, start-up included (CPU: user and system time, from ``os.wait4``; wall
beside it), at ``--workers`` 1 and 2, and start-up alone (``--sessions 16 --rounds 1``). Each ``--against``
names another checkout's ``src`` folder (its kernels built in place: ``python setup.py build_ext --inplace``
there), run with this interpreter and ``PYTHONPATH`` set to it, as this checkout's is; every ``src`` is
byte-compiled first, as pip does when it installs a package. The runs are taken in turn (A B C A B C ...),
``--pairs`` rounds of them, so that each round's runs see the same load of a shared machine; a ratio is
taken within each round, and its median and range reported. Each round also checks that the JSON (``seconds``
left out) of each ``--against`` checkout is this one's: the same sessions, to the bit; a ``--before``
checkout, of an earlier model, is timed the same way but not compared.

    nice -n 5 .venv/bin/python bench/bench_sessions.py --against /tmp/main/src --before /tmp/old/src --pairs 4
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

HERE = Path(__file__).resolve().parent.parent / "src"
HAZARD = Path(sys.executable).with_name("hazard")


def timed(src: Path, args: list[str]) -> tuple[float, float, str]:
    """Wall and CPU seconds of one whole ``hazard simulate`` process of the checkout at ``src``, and its JSON
    without ``seconds``."""
    env = {**os.environ, "PYTHONPATH": str(src)}
    began = time.perf_counter()
    command = [str(HAZARD), "simulate", "-r", "craps", "--format", "json", *args]
    with subprocess.Popen(command, stdout=subprocess.PIPE, text=True, env=env) as process:
        assert process.stdout is not None
        out = process.stdout.read()
        _, status, usage = os.wait4(process.pid, 0)
        wall = time.perf_counter() - began
    if os.waitstatus_to_exitcode(status):
        raise SystemExit(f"{command} under {src} failed")
    found = json.loads(out)
    found.pop("seconds", None)
    return wall, usage.ru_utime + usage.ru_stime, json.dumps(found, sort_keys=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--against", type=Path, action="append", default=[], help="a same model's src")
    parser.add_argument("--before", type=Path, action="append", default=[], help="an earlier model's src")
    parser.add_argument("--pairs", type=int, default=4)
    parser.add_argument("--sessions", type=int, default=100_000)
    parser.add_argument("--rounds", type=int, default=200)
    args = parser.parse_args()
    trees = {"this": HERE, **{str(path): path.resolve() for path in [*args.against, *args.before]}}
    compared = {"this", *map(str, args.against)}
    for src in trees.values():
        compileall.compile_dir(src / "hazard", quiet=1)
    size = ["--sessions", str(args.sessions), "--rounds", str(args.rounds)]
    cases = {
        "workers 1": [*size, "--workers", "1"],
        "workers 2": [*size, "--workers", "2"],
        "start-up": ["--sessions", "16", "--rounds", "1", "--workers", "1"],
    }
    rounds_played = args.sessions * args.rounds
    for case, case_args in cases.items():
        runs: dict[str, list[tuple[float, float]]] = {name: [] for name in trees}
        for _ in range(args.pairs):
            outputs = set()
            for name, src in trees.items():
                wall, cpu, out = timed(src, case_args)
                runs[name].append((wall, cpu))
                if name in compared:
                    outputs.add(out)
            if len(outputs) != 1:
                raise SystemExit(f"{case}: the checkouts' results differ")
        print(f"{case}:")
        for name, timings in runs.items():
            cpus = [cpu for _, cpu in timings]
            walls = [wall for wall, _ in timings]
            line = f"  {name}: CPU s {min(cpus):.2f}-{max(cpus):.2f}"
            line += f", wall s {min(walls):.2f}-{max(walls):.2f}"
            if case != "start-up":
                rates = [rounds_played / cpu / 1e6 for cpu in cpus]
                line += f", M session rounds per CPU-second {min(rates):.2f}-{max(rates):.2f}"
            if name != "this":
                ratios = [theirs / ours for (_, theirs), (_, ours) in zip(timings, runs["this"], strict=True)]
                line += (
                    f"; this / it, per CPU-second: {statistics.median(ratios):.2f} "
                    f"({min(ratios):.2f}-{max(ratios):.2f})"
                )
            print(line)


if __name__ == "__main__":
    main()
