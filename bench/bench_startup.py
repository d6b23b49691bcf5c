"""Start-up of ``hazard --help`` and ``hazard odds -r wikipedia`` against ``python -c "import numpy"``.

Each round runs the three processes in turn (the order rotating from round to round), so that all three
see the same machine; a ratio is taken within a round (paired), and the median and spread of the rounds'
ratios are reported. Wall time is timed from outside; CPU time (user + system) is the child's own, from
``os.wait4``. The programs are the installed ``hazard`` entry point beside this Python (the console script
pip writes, as a user runs it), and this Python for NumPy. The package is byte-compiled first, as pip does
when it installs one: an editable install under ``PYTHONDONTWRITEBYTECODE=1`` would otherwise compile
hazard's sources on every start and time the compiler.

``--against CHECKOUT`` compares this checkout with another (its ``src`` byte-compiled too): both are then
started the same way, ``python -m hazard`` with the checkout's ``src`` on ``PYTHONPATH`` (each checkout's
program as its console script starts it), in the same rotating rounds, and each hazard command's ratio to
the other checkout's is reported by round, as above.

``--instructions`` also counts the instructions each process runs, once, under Valgrind's cachegrind (no
cache simulation; ``PYTHONHASHSEED=0`` and ``OPENBLAS_NUM_THREADS=1``, so that the count repeats to within
a few thousand): on a shared machine whose speed changes from minute to minute, the one figure that compares
two versions like with like. It is not a time: NumPy's import spends its time loading extension modules
more than running instructions.

Run ``.venv/bin/python bench/bench_startup.py`` (``--rounds``, ``--json``, ``--against``,
``--instructions``); results in docs/benchmarks.md.
"""

from __future__ import annotations

import argparse
import compileall
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

import hazard

HAZARD = Path(sys.executable).with_name("hazard")
PACKAGE = Path(hazard.__file__).parent
BASE = "import numpy"
PROGRAMS = {"hazard --help": ["--help"], "hazard odds -r wikipedia": ["odds", "-r", "wikipedia"]}


class Command:
    """A process to time: its arguments and what it adds to the environment."""

    def __init__(self, argv: list[str], env: dict[str, str] | None = None) -> None:
        self.argv = argv
        self.env = None if env is None else {**os.environ, **env}


def commands(against: Path | None) -> dict[str, Command]:
    """NumPy's import and each hazard program, and with ``against`` each program of both checkouts."""
    chosen = {BASE: Command([sys.executable, "-c", "import numpy"])}
    if against is None:
        chosen.update({name: Command([str(HAZARD), *args]) for name, args in PROGRAMS.items()})
        return chosen
    for checkout, label in ((PACKAGE.parent, "this"), (against / "src", "against")):
        for name, args in PROGRAMS.items():
            chosen[f"{name} ({label})"] = Command(
                [sys.executable, "-m", "hazard", *args], {"PYTHONPATH": str(checkout)}
            )
    return chosen


def timed(command: Command) -> tuple[float, float]:
    """Wall and CPU seconds (user + system, the child's own) of one run of ``command``."""
    began = time.perf_counter()
    child = subprocess.Popen(
        command.argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=command.env
    )
    _, status, usage = os.wait4(child.pid, 0)
    wall = time.perf_counter() - began
    child.returncode = os.waitstatus_to_exitcode(status)  # reaped here: Popen must not wait again
    if child.returncode != 0:
        raise SystemExit(f"{' '.join(command.argv)} exited with {child.returncode}")
    return wall, usage.ru_utime + usage.ru_stime


def instructions(command: Command) -> int:
    """The instructions one run of ``command`` executes, every thread's, as cachegrind counts them."""
    env = {**(command.env or os.environ), "PYTHONHASHSEED": "0", "OPENBLAS_NUM_THREADS": "1"}
    done = subprocess.run(
        [
            "valgrind",
            "--tool=cachegrind",
            "--cache-sim=no",
            "--cachegrind-out-file=/dev/null",
            *command.argv,
        ],
        capture_output=True,
        text=True,
        env=env,
        timeout=600,
        check=False,
    )
    found = re.search(r"I\s+refs:\s+([\d,]+)", done.stderr)
    if done.returncode != 0 or found is None:
        raise SystemExit(f"valgrind could not count {' '.join(command.argv)}: {done.stderr.strip()[-300:]}")
    return int(found.group(1).replace(",", ""))


def spread(values: list[float]) -> tuple[float, float, float]:
    """Median and the quartiles (the middle half of the rounds lies between them)."""
    if len(values) < 2:
        return values[0], values[0], values[0]
    low, _, high = statistics.quantiles(values, n=4, method="inclusive")
    return statistics.median(values), low, high


def measure(chosen: dict[str, Command], rounds: int) -> dict[str, dict[str, list[float]]]:
    """Each command's wall and CPU seconds, one of each per round, after one untimed round."""
    names = list(chosen)
    for name in names:  # warm the file caches; not counted
        timed(chosen[name])
    times: dict[str, dict[str, list[float]]] = {name: {"wall": [], "cpu": []} for name in names}
    for index in range(rounds):
        shift = index % len(names)
        for name in names[shift:] + names[:shift]:
            wall, cpu = timed(chosen[name])
            times[name]["wall"].append(wall)
            times[name]["cpu"].append(cpu)
    return times


def ratios(times: dict[str, dict[str, list[float]]], name: str, base: str) -> dict[str, float]:
    """The median and quartiles of ``name``'s ratio to ``base`` within each round, by wall and by CPU."""
    row = {}
    for kind in ("wall", "cpu"):
        middle, low, high = spread([a / b for a, b in zip(times[name][kind], times[base][kind], strict=True)])
        row.update({f"{kind}_ratio": middle, f"{kind}_ratio_q1": low, f"{kind}_ratio_q3": high})
    return row


def _ratio_text(row: dict[str, float], kind: str, shape: str) -> str:
    """A ratio's median and quartiles, as ``1.23 [1.10, 1.40]``."""
    low, high = row[f"{kind}_ratio_q1"], row[f"{kind}_ratio_q3"]
    return f"{row[f'{kind}_ratio']:{shape}} [{low:.2f}, {high:.2f}]"


def _rounds(text: str) -> int:
    value = int(text) if text.isdigit() else 0
    if not 1 <= value <= 1000:
        raise argparse.ArgumentTypeError(f"expected 1 to 1000 rounds, not {text!r}")
    return value


def _checkout(text: str) -> Path:
    path = Path(text)
    if not (path / "src" / "hazard" / "cli" / "__init__.py").is_file():
        raise argparse.ArgumentTypeError(f"expected a checkout of hazard (with src/hazard), not {text!r}")
    return path.resolve()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=_rounds, default=31, help="rounds, each running every command once")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON as well")
    parser.add_argument("--against", type=_checkout, help="another checkout of hazard, to compare with")
    parser.add_argument("--instructions", action="store_true", help="count instructions under cachegrind")
    args = parser.parse_args()
    if args.instructions and shutil.which("valgrind") is None:
        parser.error("--instructions: valgrind is not installed (Debian: apt install valgrind)")
    compileall.compile_dir(PACKAGE, quiet=1)
    if args.against is not None:
        compileall.compile_dir(args.against / "src", quiet=1)
    chosen = commands(args.against)
    times = measure(chosen, args.rounds)
    report: dict[str, dict[str, float]] = {}
    print(f"{args.rounds} rounds; medians, with the quartiles of the rounds in brackets")
    print(f"{'':36} {'wall ms':>22} {'CPU ms':>22} {'wall ratio':>20} {'CPU ratio':>20}")
    for name, figures in times.items():
        row: dict[str, float] = {}
        cells = []
        for kind in ("wall", "cpu"):
            middle, low, high = spread([1000 * value for value in figures[kind]])
            row[f"{kind}_ms"] = middle
            cells.append(f"{middle:7.1f} [{low:6.1f}, {high:6.1f}]")
        row.update(ratios(times, name, BASE))
        for kind in ("wall", "cpu"):
            cells.append(_ratio_text(row, kind, "5.2f"))
        report[name] = row
        print(
            f"{name:36} "
            + " ".join(f"{cell:>22}" if i < 2 else f"{cell:>20}" for i, cell in enumerate(cells))
        )
    out: dict[str, object] = {"rounds": args.rounds, "commands": report}
    if args.against is not None:
        print(f"\nthis checkout / {args.against}, by round:")
        compared = {}
        for name in PROGRAMS:
            row = ratios(times, f"{name} (this)", f"{name} (against)")
            compared[name] = row
            print(f"{name:36} wall {_ratio_text(row, 'wall', '.3f')}   CPU {_ratio_text(row, 'cpu', '.3f')}")
        out["against"] = {"checkout": str(args.against), "ratios": compared}
    if args.instructions:
        counted = {name: instructions(command) for name, command in chosen.items()}
        print("\ninstructions, one run each under cachegrind:")
        for name, count in counted.items():
            print(f"{name:36} {count / 1e6:10.1f} M   {count / counted[BASE]:.3f} of import numpy")
        out["instructions"] = counted
    if args.json:
        print(json.dumps(out, indent=2))


if __name__ == "__main__":
    main()
