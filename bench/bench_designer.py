"""The ruleset designer's update latency: from a change on the page to the new exact odds shown.

The benchmark starts ``python -m hazard serve`` itself (``_web_latency_server.Server``: a free port of
127.0.0.1, a fresh record, the request limits out of the way), opens ``/designer?from=ID`` in Debian's
Chromium (``/usr/bin/chromium``, headless, driven by Playwright) for each of five built-in rulesets
(``--starts``: those whose mains are 5 to 9), and changes the opening table's cells one at a time, each by
its select, as a person would: first ``--changes`` cells, one after another, from a chance to "thrown
again" (every ruleset so made is new to the server, so each is read and solved exactly: ``fresh``), then
the same cells back in reverse order (each ruleset one asked before, answered from the server's cache by
content: ``cached``).

For each change the page's own script measures, with ``performance.now()``, from the ``change`` event to the
figures written into the page (``data-took`` of ``#figures-state``: the TOML written, the ``POST
/api/designer/odds``, its answer and the table redrawn); the benchmark also measures, in this process, from
Playwright's ``select_option`` to its seeing the page's update counter move (``round_trip``: the former plus
Playwright's own round trips). Reported: the median, the 99th percentile (the nearest rank) and the
largest, in milliseconds, for each kind.

Run ``.venv/bin/python bench/bench_designer.py`` (``--changes``, ``--starts``, ``--json PATH``). It prints a
summary on standard error and, with ``--json``, writes every figure to PATH.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import platform
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from playwright.sync_api import Page, sync_playwright

from _web_latency_server import CHROMIUM, CHROMIUM_ARGS, Server

STARTS = ("britannica-1911", "wikipedia", "ecws-1674", "cotton-1674", "sca-isenfir")
"""The built-in rulesets with the mains 5 to 9, each of whose cells 4 to 10 is a chance but on its main."""
MAINS = (5, 6, 7, 8, 9)
CHANCES = (4, 5, 6, 7, 8, 9, 10)
WAIT_MS = 10_000


def _cells(count: int) -> list[str]:
    """``count`` cells of Cotton's table that are a chance there, main by main."""
    cells = [f"cell-{main}-{total}" for total in CHANCES for main in MAINS if main != total]
    if count > len(cells):
        raise SystemExit(f"at most {len(cells)} changes: there are no more chance cells to change")
    return cells[:count]


def _change(page: Page, cell: str, value: str, number: int) -> tuple[float, float]:
    """Set ``cell`` to ``value``; the page's own time for the update, and this process's, in ms."""
    began = time.perf_counter()
    page.select_option(f'select[name="{cell}"]', value)
    # A selector, not a script: the page's policy lets no string be evaluated as JavaScript.
    page.locator(f'#figures-state[data-updates="{number}"]').wait_for(state="attached", timeout=WAIT_MS)
    round_trip = (time.perf_counter() - began) * 1000
    state = page.locator("#figures-state")
    if state.get_attribute("data-state") != "current":
        raise RuntimeError(f"{cell} = {value} was refused: {page.locator('.said').all_inner_texts()}")
    return float(state.get_attribute("data-took") or "nan"), round_trip


def _summary(values: list[float]) -> dict[str, float]:
    ordered = sorted(values)
    rank = max(1, math.ceil(0.99 * len(ordered)))
    return {
        "median_ms": round(statistics.median(ordered), 2),
        "p99_ms": round(ordered[rank - 1], 2),
        "max_ms": round(ordered[-1], 2),
        "n": len(ordered),
    }


def measure(changes: int, starts: list[str]) -> dict[str, Any]:
    """Every figure of one run: from each of ``starts``, ``changes`` fresh changes and as many cached."""
    cells = _cells(changes)
    took: dict[str, list[float]] = {"fresh": [], "cached": []}
    trips: dict[str, list[float]] = {"fresh": [], "cached": []}
    with tempfile.TemporaryDirectory() as folder, Server(Path(folder)) as server, sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        try:
            for start in starts:
                page = browser.new_page()
                page.goto(f"{server.url}/designer?from={start}")
                page.wait_for_selector("#figure-overall")
                plan = [(cell, "again", "fresh") for cell in cells]
                plan += [(cell, "chance", "cached") for cell in reversed(cells)]
                for number, (cell, value, kind) in enumerate(plan, start=1):
                    page_ms, trip_ms = _change(page, cell, value, number)
                    took[kind].append(page_ms)
                    trips[kind].append(trip_ms)
                page.close()
        finally:
            browser.close()
    return {
        "command": " ".join(["bench/bench_designer.py", *sys.argv[1:]]),
        "machine": {"python": platform.python_version(), "cpus": _cpus()},
        "starts": starts,
        "page": {kind: _summary(values) for kind, values in took.items()},
        "round_trip": {kind: _summary(values) for kind, values in trips.items()},
        "samples_ms": took,
    }


def _cpus() -> int:
    return len(os.sched_getaffinity(0))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--changes", type=int, default=30, help="fresh changes (as many cached follow)")
    parser.add_argument(
        "--starts", default=",".join(STARTS), help="the built-in rulesets to start from, by commas"
    )
    parser.add_argument("--json", type=Path, help="write every figure to this file")
    args = parser.parse_args()
    if not CHROMIUM.is_file():
        parser.error(f"no {CHROMIUM}: apt-get install chromium")
    if args.changes < 1:
        parser.error("--changes: expected at least 1")
    figures = measure(args.changes, args.starts.split(","))
    for kind in ("fresh", "cached"):
        page, trip = figures["page"][kind], figures["round_trip"][kind]
        print(
            f"{kind:>6}: change to figures shown median {page['median_ms']:.1f} ms, "
            f"p99 {page['p99_ms']:.1f} ms, max {page['max_ms']:.1f} ms (n={page['n']}); "
            f"with Playwright's round trips median {trip['median_ms']:.1f} ms, p99 {trip['p99_ms']:.1f} ms",
            file=sys.stderr,
        )
    if args.json:
        args.json.write_text(json.dumps(figures, indent=2) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
