"""How long the exact analysis takes: ``hazard.analysis.analyse`` of each built-in ruleset, in this process.

Each ruleset (under its own paytable) is solved once untimed, then ``--repeat`` times; the fastest run's CPU
time (``time.process_time``: this one thread) is reported, in milliseconds, with the total over the
rulesets. The analysis is what ``hazard odds`` computes after its imports, and what the ruleset designer
solves for each fresh change.

To compare two checkouts, like with like on one machine, run this with each one's ``src`` first on
``PYTHONPATH``, alternating (``PYTHONPATH=<checkout>/src .venv/bin/python bench/bench_analysis.py``); only
the ratio within a pair counts on a shared machine. Results in docs/benchmarks.md (Start-up).
"""

from __future__ import annotations

import argparse
import json
import time

import hazard
from hazard.analysis import analyse
from hazard.core.rulesets import builtin_rulesets, paytable_for


def measure(repeat: int) -> dict[str, float]:
    """The fastest CPU seconds of ``repeat`` analyses of each built-in ruleset, by its id."""
    fastest: dict[str, float] = {}
    for ruleset in builtin_rulesets():
        paytable = paytable_for(ruleset, None)
        analyse(ruleset, paytable)  # untimed: whatever is loaded or cached on first use
        best = float("inf")
        for _ in range(repeat):
            began = time.process_time()
            analyse(ruleset, paytable)
            best = min(best, time.process_time() - began)
        fastest[ruleset.id] = best
    return fastest


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=7, help="timed runs of each ruleset (default 7)")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON as well")
    args = parser.parse_args()
    if not 1 <= args.repeat <= 1000:
        parser.error(f"--repeat {args.repeat}: expected 1 to 1000 runs")
    fastest = measure(args.repeat)
    print(f"hazard from {hazard.__file__}; the fastest of {args.repeat} runs, CPU ms")
    for name, seconds in fastest.items():
        print(f"{name:20} {1000 * seconds:8.2f}")
    total = sum(fastest.values())
    print(f"{'all':20} {1000 * total:8.2f}")
    if args.json:
        print(json.dumps({"repeat": args.repeat, "cpu_ms": {k: 1000 * v for k, v in fastest.items()}}))


if __name__ == "__main__":
    main()
