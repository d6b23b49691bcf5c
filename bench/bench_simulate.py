"""``hazard simulate`` like with like: throws per CPU-second and per core against a C anchor, NumPy, crapssim.

Every figure is measured in one run, on the same machine, on the same workload: the craps pass line (the
``craps`` ruleset: come-out 7 or 11 wins, 2, 3 or 12 loses, else the point before a 7). Each comparison is
of like with like, as paired runs taken in turn (A B A B ...), ``--pairs`` pairs: the median and the range
of each figure and of each pair's ratio are reported, CPU time beside wall time everywhere (CPU: user and
system time, of the process or, in process, ``time.process_time``).

- The C anchor (bench/anchor.c): the best plain C loop for the same work (PCG64 words, eleven base-36
  digits each, rounds played and tallied from the same main/nick/out table), built here in a temporary
  folder with the system's C compiler twice: ``cc -O3 -march=native`` and a portable ``cc -O3``. Its
  ``play_cpu_seconds`` is its work alone (threads started to threads joined). ``anchor`` in the report is,
  pair by pair, the faster of the two builds: the yardstick every ratio to the anchor is taken against.
  Per core, the anchor is also run with xoshiro256** instead of PCG64 (``anchor_xoshiro``, the faster
  build again): the limit were hazard to change its generator.
- Per core (one worker, one thread, per CPU-second): hazard's kernel work alone, the library call
  ``simulate_rounds(compile_rules(craps), N, seed, workers=1)`` timed in this process (start-up taken off:
  no interpreter start, no import, the table compiled before the clock starts), against the anchor with
  ``--threads 1`` (its play time alone), and against NumPy drawing ``integers(0, 36)`` in this process
  (single-threaded: NumPy's generators are). Also the whole ``hazard simulate --workers 1`` process, start-up
  included, timed from outside.
- The whole machine: the whole process ``hazard simulate -r craps --rounds N`` (a worker per core) against
  the whole anchor process with a thread per core, both timed from outside: throws per wall second (and per
  CPU-second).
- crapssim: a table with one player on the pass line for a number of rolls (per wall second, one thread).
- start-up: ``hazard simulate -r craps --rounds 1 --format json`` against ``python -c "import numpy"``, the
  median of ``--startup-runs`` runs of each, taken in turn.

The hazard package is byte-compiled first, as pip does when it installs one: an editable install under
``PYTHONDONTWRITEBYTECODE=1`` would otherwise compile hazard's sources on every start. On a shared machine,
run it under ``nice`` and read the ratios: each pair's two runs see the same load, absolute times do not.

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
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np

import hazard
from hazard.core.rulesets import find_ruleset
from hazard.sim import compile_rules, simulate_rounds

HAZARD = Path(sys.executable).with_name("hazard")
PACKAGE = Path(hazard.__file__).parent
ANCHOR = Path(__file__).with_name("anchor.c")
SEED = 1

# The anchor's two builds: this CPU's instructions, and the portable code any x86-64 (or other) CPU runs.
BUILDS = {"native": ["-O3", "-march=native"], "portable": ["-O3"]}


class Timed:
    """One timed run: its throws, wall seconds and CPU seconds (user and system)."""

    def __init__(self, throws: int, wall: float, cpu: float) -> None:
        self.throws, self.wall, self.cpu = throws, wall, cpu

    @property
    def per_cpu(self) -> float:
        return self.throws / self.cpu

    @property
    def per_wall(self) -> float:
        return self.throws / self.wall


def run_process(command: Sequence[str], env: dict[str, str] | None = None) -> tuple[float, float, str]:
    """Wall and CPU seconds (user and system, from ``os.wait4``) of one whole process, and its output."""
    began = time.perf_counter()
    with subprocess.Popen(command, stdout=subprocess.PIPE, text=True, env=env) as process:
        assert process.stdout is not None
        out = process.stdout.read()
        _, status, usage = os.wait4(process.pid, 0)
        wall = time.perf_counter() - began
        process.returncode = os.waitstatus_to_exitcode(status)
    if process.returncode:
        raise subprocess.CalledProcessError(process.returncode, command)
    return wall, usage.ru_utime + usage.ru_stime, out


def build_anchor(folder: Path) -> dict[str, Path]:
    """The anchor built with each of BUILDS' flags into ``folder``; empty (and said) without ``cc``."""
    compiler = shutil.which(os.environ.get("CC", "cc"))
    if compiler is None:
        print("no C compiler (cc, or $CC): the C anchor is left out", file=sys.stderr)
        return {}
    built = {}
    for name, flags in BUILDS.items():
        program = folder / f"anchor-{name}"
        subprocess.run([compiler, *flags, "-pthread", str(ANCHOR), "-o", str(program)], check=True)
        built[name] = program
    return built


def anchor_run(program: Path, rounds: int, threads: int, generator: str = "pcg64") -> tuple[Timed, Timed]:
    """The anchor on ``rounds`` craps rounds: its play alone (its own clocks), and its whole process."""
    command = [str(program), "--game", "craps", "--rounds", str(rounds), "--seed", str(SEED)]
    command += ["--generator", generator]
    wall, cpu, out = run_process([*command, "--threads", str(threads)])
    report = json.loads(out)
    play = Timed(report["throws"], report["play_wall_seconds"], report["play_cpu_seconds"])
    return play, Timed(report["throws"], wall, cpu)


def hazard_library(rounds: int) -> Timed:
    """hazard's kernel work alone: ``simulate_rounds`` with one worker, in this process, the table compiled
    before the clocks start."""
    table = compile_rules(find_ruleset("craps"))
    wall, cpu = time.perf_counter(), time.process_time()
    counts = simulate_rounds(table, rounds, SEED, workers=1)
    return Timed(counts.throws, time.perf_counter() - wall, time.process_time() - cpu)


def hazard_process(rounds: int, env: dict[str, str], workers: int | None = None) -> Timed:
    """One whole ``hazard simulate`` process, timed from outside; ``workers`` None: one per core."""
    command = [str(HAZARD), "simulate", "-r", "craps", "--rounds", str(rounds), "--seed", str(SEED)]
    if workers is not None:
        command += ["--workers", str(workers)]
    wall, cpu, out = run_process([*command, "--format", "json"], env)
    return Timed(int(json.loads(out)["throws"]), wall, cpu)


def numpy_draws(draws: int, dtype: type[np.integer[Any]] = np.int64) -> Timed:
    """Integers in [0, 36) drawn by NumPy in this process (single-threaded), ``2**20`` at a time."""
    rng = np.random.default_rng(12345)
    chunk = 1 << 20
    rng.integers(0, 36, size=chunk, dtype=dtype)  # warm
    done = 0
    wall, cpu = time.perf_counter(), time.process_time()
    while done < draws:
        rng.integers(0, 36, size=chunk, dtype=dtype)
        done += chunk
    return Timed(done, time.perf_counter() - wall, time.process_time() - cpu)


def summary(values: Sequence[float]) -> dict[str, Any]:
    return {"median": statistics.median(values), "min": min(values), "max": max(values), "all": list(values)}


def interleaved(runs: dict[str, Callable[[], Timed]], pairs: int) -> dict[str, list[Timed]]:
    """Each run once a pair, in turn (A B C A B C ...), ``pairs`` times: every pair sees the same load."""
    out: dict[str, list[Timed]] = {name: [] for name in runs}
    for _ in range(pairs):
        for name, run in runs.items():
            out[name].append(run())
    return out


def best_of(runs: dict[str, list[Timed]], names: Sequence[str], rate: str, best: str = "anchor") -> None:
    """Add ``best``: pair by pair, the faster (in ``rate``) of the builds ``names``, the yardstick."""
    present = [runs[name] for name in names if name in runs]
    if present:
        runs[best] = [max(timed, key=lambda t: getattr(t, rate)) for timed in zip(*present, strict=True)]


def figures(runs: dict[str, list[Timed]], against: str) -> dict[str, Any]:
    """Each run's throws per CPU-second and per wall second, its wall and CPU seconds, and its ratio to
    ``against`` pair by pair in both."""
    out: dict[str, Any] = {}
    for name, timed in runs.items():
        out[name] = {
            "throws": timed[0].throws,
            "throws_per_cpu_second": summary([t.per_cpu for t in timed]),
            "throws_per_wall_second": summary([t.per_wall for t in timed]),
            "cpu_seconds": summary([t.cpu for t in timed]),
            "wall_seconds": summary([t.wall for t in timed]),
        }
        if against in runs and name != against:
            pairs = list(zip(timed, runs[against], strict=True))
            out[name][f"ratio_to_{against}"] = {
                way: summary([getattr(a, way) / getattr(b, way) for a, b in pairs])
                for way in ("per_cpu", "per_wall")
            }
    return out


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
    parser.add_argument("--rounds", type=int, default=50_000_000, help="rounds, whole machine")
    parser.add_argument("--kernel-rounds", type=int, default=200_000_000, help="rounds, per core")
    parser.add_argument("--pairs", type=int, default=5, help="paired runs of each comparison")
    parser.add_argument("--numpy-draws", type=int, default=400_000_000, help="integers NumPy draws")
    parser.add_argument("--crapssim-rolls", type=int, default=200_000, help="rolls crapssim plays")
    parser.add_argument("--startup-runs", type=int, default=21, help="start-ups timed of each")
    args = parser.parse_args()

    compileall.compile_dir(PACKAGE, quiet=1)
    cores = os.cpu_count() or 1
    cache = Path(tempfile.mkdtemp(prefix="hazard-bench-"))
    env = {**os.environ, "XDG_CACHE_HOME": str(cache / "cache")}
    (cache / "cache").mkdir()
    try:
        anchors = build_anchor(cache)
        hazard_process(args.rounds, env)  # a first run, untimed: cold file caches
        core: dict[str, Callable[[], Timed]] = {"hazard_kernel": lambda: hazard_library(args.kernel_rounds)}
        for name, program in anchors.items():
            core[f"anchor_{name}"] = lambda p=program: anchor_run(p, args.kernel_rounds, 1)[0]
        for name, program in anchors.items():  # the limit if hazard changed its generator for xoshiro256**
            core[f"anchor_{name}_xoshiro"] = lambda p=program: anchor_run(
                p, args.kernel_rounds, 1, "xoshiro"
            )[0]
        core["numpy"] = lambda: numpy_draws(args.numpy_draws)
        core["hazard_process"] = lambda: hazard_process(args.kernel_rounds, env, workers=1)
        per_core = interleaved(core, args.pairs)
        machine: dict[str, Callable[[], Timed]] = {"hazard_process": lambda: hazard_process(args.rounds, env)}
        for name, program in anchors.items():
            machine[f"anchor_{name}"] = lambda p=program: anchor_run(p, args.rounds, cores)[1]
        whole = interleaved(machine, args.pairs)
        assert not any((cache / "cache").iterdir()), "hazard simulate wrote to the cache folder"
        builds = [f"anchor_{name}" for name in BUILDS]
        best_of(per_core, builds, "per_cpu")
        best_of(per_core, [f"{name}_xoshiro" for name in builds], "per_cpu", "anchor_xoshiro")
        best_of(whole, builds, "per_wall")
    finally:
        shutil.rmtree(cache, ignore_errors=True)
    craps = crapssim_rate(args.crapssim_rolls)
    started, numpy_imported = startup(args.startup_runs)
    first = "anchor" if anchors else "numpy"
    report = {
        "machine": f"{platform.machine()}, {cores} cores, Python {platform.python_version()}",
        "anchor_builds": {name: " ".join(["cc", *flags, "-pthread"]) for name, flags in BUILDS.items()},
        "per_core": {
            "rounds": args.kernel_rounds,
            "numpy_draws": args.numpy_draws,
            "against_anchor": figures(per_core, first),
            "against_numpy": figures(per_core, "numpy"),
        },
        "whole_machine": {
            "rounds": args.rounds,
            "threads": cores,
            "against_anchor": figures(whole, first),
        },
        "crapssim_rolls_per_second": craps,
        "hazard_whole_machine_per_crapssim": statistics.median(t.per_wall for t in whole["hazard_process"])
        / craps,
        "startup_seconds_median": started,
        "import_numpy_seconds_median": numpy_imported,
        "startup_ratio_to_import_numpy": started / numpy_imported,
    }
    print(json.dumps(report, indent=2))
    say(report, first)


def say(report: dict[str, Any], first: str) -> None:
    """The report's main figures in words, on standard error."""

    def line(name: str, figure: dict[str, Any], rate: str, way: str, numpy: dict[str, Any] | None) -> str:
        r = figure[rate]
        text = f"  {name:24} {r['median'] / 1e6:7.1f} ({r['min'] / 1e6:.1f}-{r['max'] / 1e6:.1f})"
        for against, ratios in ((first, figure.get(f"ratio_to_{first}")), ("numpy", numpy)):
            if ratios is not None:
                q = ratios[way]
                text += f"  / {against}: {q['median']:.2f} ({q['min']:.2f}-{q['max']:.2f})"
        return text

    core, whole = report["per_core"], report["whole_machine"]
    lines = [
        f"per core, {core['rounds']:,} craps rounds, M throws per CPU-second (median, range), ratios by pair:"
    ]
    for name, figure in core["against_anchor"].items():
        numpy = core["against_numpy"][name].get("ratio_to_numpy")
        lines.append(line(name, figure, "throws_per_cpu_second", "per_cpu", numpy))
    lines.append(
        f"whole machine, {whole['rounds']:,} rounds, {whole['threads']} threads, whole processes, "
        "M throws per wall second (median, range), ratios per pair:"
    )
    for name, figure in whole["against_anchor"].items():
        lines.append(line(name, figure, "throws_per_wall_second", "per_wall", None))
    lines.append(
        f"crapssim, pass line: {report['crapssim_rolls_per_second'] / 1e3:,.1f} k rolls/s; "
        f"hazard, whole machine / crapssim: {report['hazard_whole_machine_per_crapssim']:,.0f}x"
    )
    lines.append(
        f"start-up: {report['startup_seconds_median'] * 1e3:.1f} ms against import numpy "
        f"{report['import_numpy_seconds_median'] * 1e3:.1f} ms: "
        f"{report['startup_ratio_to_import_numpy']:.2f}x"
    )
    print("\n".join(lines), file=sys.stderr)


if __name__ == "__main__":
    main()
