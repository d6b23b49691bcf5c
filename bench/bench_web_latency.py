"""From an action to the last page's update: how soon three open pages of one table show each action.

The benchmark starts ``python -m hazard serve`` itself, on a free port of 127.0.0.1 over a fresh SQLite
record in a temporary folder, with its request limits raised out of the way (``--rate 1000 --seat-rate 1000
--tables 1000 --per-address 1000``: every page and the benchmark come from 127.0.0.1). Through the API it sets
up a table of the server's fair dice (ruleset ``wikipedia``) and seats two players, Ann and Bob; then it opens
three pages of the table in Debian's Chromium (``/usr/bin/chromium``, headless, driven by Playwright), each in
a browser context of its own: Ann's seat, Bob's seat (each with its seat's cookie, as the join form leaves
it) and a spectator. Then, one action at a time, it reads the table's state and sends the caster's next
action through the API with his token (``call 7`` when the table waits for a main, ``throw`` when it waits
for the dice, and ``pass`` instead of a call every ``PASS_EVERY`` rounds, so that the dice change hands),
waits until all three pages show it, and pauses ``--pause`` seconds (a person's pace is far slower).

For each action it measures, from just before the ``POST`` is sent (``time.time()`` in this process) to the
moment each page's ``.view[data-seq]`` first reaches the action's entry number (``performance.timeOrigin +
performance.now()`` in the page, taken by a ``MutationObserver`` installed before the page's own script):
both are the one machine's wall clock, and each page's offset from this process's clock is measured (the
best of ``CLOCK_SAMPLES`` round trips) before and after the run and the start's taken off. The last page's
time is the figure; each page's, and what it is made of, are reported beside it:

- ``answer``: the ``POST``'s answer (the hub answers once the record has committed the action's entries);
- ``socket``: the page's live socket receiving the update carrying the entry (a listener the benchmark adds
  to every ``WebSocket`` the page opens, before the page's own);
- ``fetch``: the page's fetch of its view (``/tables/{id}/view``) that brought the entry, start to end
  (Resource Timing), and ``wait``: from the socket's update to that fetch's start (below 0 where a fetch
  begun for an earlier update, of the same action or the one before, was answered with the entry already
  in it);
- ``swap``: from that fetch's end to the view's entry number changing in the page (the HTML swapped in, the
  page's handlers wired again); ``frame``: to the next animation frame after it.

For reference, the view a page fetches is then fetched ``VIEW_SAMPLES`` times by the benchmark itself
(``view_alone_ms``), as a seat and as a spectator, the table standing still; and the browser's CPU while
the three pages stand still for ``--idle`` seconds (``browser_idle_cpu_s_per_s``).

Also: the server process's CPU seconds over the measured actions (from /proc), the benchmark's own (this
process, Python's threads and Playwright's calls) and Chromium's with Playwright's driver (this process's
other descendants, from /proc), the machine's, the wall time, and the threads of each.

Run ``.venv/bin/python bench/bench_web_latency.py`` (``--actions``, ``--warmup``, ``--pause``, ``--idle``,
``--reduced-motion``: the pages ask for reduced motion, as a player's system setting may, so the dice are
not animated; ``--json PATH``). It prints a summary on standard error and, with ``--json``, writes every
figure to PATH.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from playwright.sync_api import BrowserContext, Page, sync_playwright

from _web_latency_server import CHROMIUM, CHROMIUM_ARGS, Server, _browser_ticks, _threads, _ticks, machine_cpu

RULESET = "wikipedia"
BANKROLL = "1000000"
MAIN = 7
PASS_EVERY = 5
"""The caster passes the dice instead of calling a main at every this many rounds."""
WAIT_MS = 10_000
"""The longest one page may take to show one action."""
CLOCK_SAMPLES = 15
VIEW_SAMPLES = 50
PAGES = ("Ann", "Bob", "spectator")

# Installed in every page before its own script: when its view's entry number changes, when its sockets
# receive each update, and what its view fetches took; and a wait for an entry to be shown.
INSTRUMENT = """(() => {
  const clock = () => performance.timeOrigin + performance.now();
  const seen = { shown: [], drawn: [], socket: [], fetches: [], waiters: [] };
  window.__latency = seen;
  let last = 0;
  const check = () => {
    const view = document.querySelector(".view");
    if (view === null) return;
    const shown = Number(view.dataset.seq);
    if (!(shown > last)) return;
    last = shown;
    const at = clock();
    seen.shown.push([shown, at]);
    requestAnimationFrame(() => seen.drawn.push([shown, clock()]));
    seen.waiters = seen.waiters.filter(([k, done]) => (shown >= k ? (done(true), false) : true));
  };
  new MutationObserver(check).observe(document, {
    subtree: true, childList: true, attributes: true, attributeFilter: ["data-seq"],
  });
  document.addEventListener("DOMContentLoaded", check);
  window.__latencyWait = (k, ms) => new Promise((done) => {
    check();
    if (last >= k) return done(true);
    seen.waiters.push([k, done]);
    setTimeout(() => done(false), ms);
  });
  const Native = window.WebSocket;
  window.WebSocket = class extends Native {
    constructor(...args) {
      super(...args);
      this.addEventListener("message", (event) => {
        const at = clock();
        try {
          const update = JSON.parse(event.data);
          if (typeof update.seq === "number") seen.socket.push([update.seq, at]);
        } catch (error) { /* not an update */ }
      });
    }
  };
  performance.setResourceTimingBufferSize(1000000);
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      if (entry.name.includes("/view?")) {
        const origin = performance.timeOrigin;
        seen.fetches.push([origin + entry.startTime, origin + entry.responseEnd]);
      }
    }
  }).observe({ type: "resource", buffered: true });
})();"""


# --- the table and its pages -------------------------------------------------------------------------------


@dataclass
class Table:
    game: int
    tokens: dict[str, str] = field(default_factory=dict)


def set_up(server: Server) -> Table:
    status, made = server.call("POST", "/api/tables", {"ruleset": RULESET, "dice": "fair"})
    if status != 201:
        raise RuntimeError(f"the table was not set up ({status}): {made}")
    table = Table(int(made["id"]))
    for name in PAGES[:2]:
        body = {"name": name, "bankroll": BANKROLL}
        status, seat = server.call("POST", f"/api/tables/{table.game}/seats", body)
        if status != 201:
            raise RuntimeError(f"{name} was not seated ({status}): {seat}")
        table.tokens[name] = seat["token"]
    return table


def next_action(state: dict[str, Any], passed: set[int]) -> tuple[str, str]:
    """The caster and the action the table waits for from him, from its state; ``passed``: the rounds
    played when the dice were last passed (a pass plays no round: once at each such count)."""
    turn = state["state"]["turn"]
    caster = turn["caster"]
    if turn["need"] == "throw":
        return caster, "throw"
    rounds = int(state["state"]["rounds_played"])
    if rounds and rounds % PASS_EVERY == 0 and rounds not in passed:
        passed.add(rounds)
        return caster, "pass"
    return caster, f"call {MAIN}"


def clock_offset(page: Page) -> tuple[float, float]:
    """The page's wall clock less this process's (seconds), and its uncertainty (half the best round trip)."""
    best = (0.0, float("inf"))
    for _ in range(CLOCK_SAMPLES):
        before = time.time()
        theirs = page.evaluate("() => performance.timeOrigin + performance.now()") / 1000
        after = time.time()
        if (after - before) / 2 < best[1]:
            best = (theirs - (before + after) / 2, (after - before) / 2)
    return best


@dataclass
class Sent:
    seq: int
    action: str
    sent: float
    answered: float


def first_at(marks: list[list[float]], seq: int) -> float | None:
    """The first time (seconds) in ``marks`` ([seq, ms] pairs, in order) at which ``seq`` was reached."""
    for mark_seq, at in marks:
        if mark_seq >= seq:
            return at / 1000
    return None


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))]


def summary(values: list[float]) -> dict[str, float]:
    """Median, p90, p99 and max, in milliseconds."""
    ms = [1000 * v for v in values]
    if not ms:
        return {}
    return {
        "n": len(ms),
        "median": round(statistics.median(ms), 2),
        "p90": round(pct(ms, 0.90), 2),
        "p99": round(pct(ms, 0.99), 2),
        "max": round(max(ms), 2),
        "mean": round(statistics.fmean(ms), 2),
    }


def page_times(marks: dict[str, list[list[float]]], offset: float, sent: Sent) -> dict[str, float]:
    """When (in this process's clock, seconds after the POST was sent) one page got, fetched and showed one
    action's entry."""
    shown = first_at(marks["shown"], sent.seq)
    if shown is None:
        return {}
    shown -= offset
    times: dict[str, float] = {"shown": shown - sent.sent}
    drawn = first_at(marks["drawn"], sent.seq)
    if drawn is not None:
        times["frame"] = drawn - offset - shown
    got = first_at(marks["socket"], sent.seq)
    if got is not None:
        times["socket"] = got - offset - sent.sent
    fetches = [(a / 1000 - offset, b / 1000 - offset) for a, b in marks["fetches"]]
    brought = [f for f in fetches if f[1] <= shown + 0.0005]  # Resource Timing's ends are coarsened a little
    if brought:
        start, end = brought[-1]
        times["fetch"] = end - start
        times["swap"] = max(0.0, shown - end)
        if got is not None:
            times["wait"] = start - (got - offset)
    return times


@contextmanager
def pages(server: Server, table: Table, *, reduced_motion: bool) -> Iterator[dict[str, Page]]:
    """The table's three pages, each in a Chromium context of its own, once each shows the table."""
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        try:
            opened: dict[str, Page] = {}
            contexts: list[BrowserContext] = []
            for name in PAGES:
                motion: Literal["reduce", "no-preference"] = "reduce" if reduced_motion else "no-preference"
                context = browser.new_context(base_url=server.url, reduced_motion=motion)
                contexts.append(context)
                context.set_default_timeout(WAIT_MS)
                if name in table.tokens:
                    seat, key = f"hazard_seat_{table.game}", table.tokens[name]
                    context.add_cookies([{"name": seat, "value": key, "url": server.url}])
                context.add_init_script(INSTRUMENT)
                page = context.new_page()
                page.goto(f"/tables/{table.game}")
                page.wait_for_selector(".view[data-seq]", state="attached")
                opened[name] = page
            yield opened
            for context in contexts:
                context.close()
        finally:
            browser.close()


def run(actions: int, warmup: int, pause: float, idle_s: float, *, reduced_motion: bool) -> dict[str, Any]:
    loadavg = os.getloadavg()
    with tempfile.TemporaryDirectory(prefix="hazard-latency-") as folder, Server(Path(folder)) as server:
        table = set_up(server)
        with pages(server, table, reduced_motion=reduced_motion) as opened:
            sent: list[Sent] = []
            refused: list[str] = []
            passed: set[int] = set()
            window: dict[str, float] = {}
            for number in range(warmup + actions):
                if number == warmup:
                    offsets_before = {name: clock_offset(page) for name, page in opened.items()}
                    browser_before = _browser_ticks(server.pid)
                    window = {
                        "wall": time.perf_counter(),
                        "server": _ticks(server.pid),
                        "bench": time.process_time(),
                        "browser": 0.0,
                        "machine": machine_cpu(),
                    }
                status, state = server.call("GET", f"/api/tables/{table.game}")
                caster, action = next_action(state, passed)
                t0 = time.time()
                path, token = f"/api/tables/{table.game}/actions", table.tokens[caster]
                status, answer = server.call("POST", path, {"action": action}, token=token)
                t1 = time.time()
                if status != 200:
                    refused.append(f"{action} by {caster}: {status} {answer}")
                    continue
                seq = int(answer["seq"])
                for name, page in opened.items():
                    if not page.evaluate("([k, ms]) => window.__latencyWait(k, ms)", [seq, WAIT_MS]):
                        raise RuntimeError(f"the {name} page did not show entry {seq} within {WAIT_MS} ms")
                if number >= warmup:
                    sent.append(Sent(seq, action, t0, t1))
                time.sleep(pause)
            browser_after = _browser_ticks(server.pid)
            after = {
                "wall": time.perf_counter(),
                "server": _ticks(server.pid),
                "bench": time.process_time(),
                # a process that began in the window counts whole; one that ended in it, not at all
                "browser": sum(t - browser_before.get(pid, 0.0) for pid, t in browser_after.items()),
                "machine": machine_cpu(),
            }
            offsets_after = {name: clock_offset(page) for name, page in opened.items()}
            alone, sizes = view_alone(server, table)
            idle_before = _browser_ticks(server.pid)
            time.sleep(idle_s)
            idle = sum(t - idle_before.get(pid, 0.0) for pid, t in _browser_ticks(server.pid).items())
            marks = {name: page.evaluate("() => window.__latency") for name, page in opened.items()}
            threads = {
                "server": _threads(server.pid),
                "bench": _threads(os.getpid()),
                "browser": sum(_threads(pid) for pid in browser_after),
                "browser_processes": len(browser_after),
            }
    measured = Measured(sent, refused, marks, offsets_before, offsets_after, window, after, threads)
    figures = report(measured, loadavg, pause)
    figures["view_alone_ms"] = {name: summary(times) for name, times in alone.items()}
    figures["view_bytes"] = sizes
    figures["browser_idle_cpu_s_per_s"] = round(idle / idle_s, 3) if idle_s else None
    return figures


def view_alone(server: Server, table: Table) -> tuple[dict[str, list[float]], dict[str, int]]:
    """For reference, the view a page fetches after each update, fetched by this process alone (as Ann's seat,
    with her token, and as a spectator, without one) while the table stands still: the server's part of a
    page's ``fetch``; and the size of each (the last)."""
    times: dict[str, list[float]] = {"Ann": [], "spectator": []}
    sizes: dict[str, int] = {}
    server.connection.close()  # a fresh one (the last request may be seconds ago): it reconnects
    for _ in range(VIEW_SAMPLES):
        for name, found in times.items():
            headers = {} if name not in table.tokens else {"authorization": f"Bearer {table.tokens[name]}"}
            began = time.perf_counter()
            server.connection.request("GET", f"/tables/{table.game}/view?mode=table", headers=headers)
            answer = server.connection.getresponse()
            sizes[name] = len(answer.read())
            found.append(time.perf_counter() - began)
            if answer.status != 200:
                raise RuntimeError(f"the view was refused ({answer.status})")
    return times, sizes


@dataclass(frozen=True)
class Measured:
    """What one run saw: the actions sent, the pages' marks and clocks, and the CPU before and after."""

    sent: list[Sent]
    refused: list[str]
    marks: dict[str, dict[str, list[list[float]]]]
    offsets_before: dict[str, tuple[float, float]]
    offsets_after: dict[str, tuple[float, float]]
    window: dict[str, float]
    after: dict[str, float]
    threads: dict[str, int]


def report(measured: Measured, loadavg: tuple[float, float, float], pause: float) -> dict[str, Any]:
    """The figures of one run."""
    sent, refused, marks = measured.sent, measured.refused, measured.marks
    offsets_before, offsets_after = measured.offsets_before, measured.offsets_after
    window, after, threads = measured.window, measured.after, measured.threads
    per_page: dict[str, dict[str, list[float]]] = {name: {} for name in marks}
    last: dict[str, list[float]] = {"shown": [], "answer": []}
    for action in sent:
        times = {name: page_times(marks[name], offsets_before[name][0], action) for name in marks}
        for name, found in times.items():
            for part, value in found.items():
                per_page[name].setdefault(part, []).append(value)
        last["shown"].append(max(found["shown"] for found in times.values()))
        last["answer"].append(action.answered - action.sent)
    used = {kind: after[kind] - window[kind] for kind in window}
    return {
        "actions": len(sent),
        "kinds": {kind: sum(s.action.split()[0] == kind for s in sent) for kind in ("call", "throw", "pass")},
        "refused": refused,
        "pause_s": pause,
        "last_page_ms": summary(last["shown"]),
        "answer_ms": summary(last["answer"]),
        "pages_ms": {name: {part: summary(v) for part, v in ps.items()} for name, ps in per_page.items()},
        "clock_offset_ms": {
            name: {
                "before": round(1000 * offsets_before[name][0], 3),
                "after": round(1000 * offsets_after[name][0], 3),
                "uncertainty": round(1000 * max(offsets_before[name][1], offsets_after[name][1]), 3),
            }
            for name in marks
        },
        "wall_s": round(used["wall"], 2),
        "cpu_s": {
            "server": round(used["server"], 2),
            "bench": round(used["bench"], 2),
            "browser": round(used["browser"], 2),
            "machine": round(used["machine"], 2),
        },
        "threads": threads,
        "machine": {
            "nproc": os.cpu_count(),
            "cpu": _cpu_model(),
            "python": platform.python_version(),
            "loadavg_before": [round(x, 2) for x in loadavg],
            "loadavg_after": [round(x, 2) for x in os.getloadavg()],
            "nice": os.nice(0),
        },
    }


def _cpu_model() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor()


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n", 1)[0])
    parser.add_argument("--actions", type=int, default=200, help="actions measured (default 200)")
    parser.add_argument(
        "--warmup", type=int, default=20, help="actions played first, unmeasured (default 20)"
    )
    parser.add_argument("--pause", type=float, default=0.1, help="seconds between actions (default 0.1)")
    parser.add_argument("--idle", type=float, default=5.0, help="seconds the pages stand still at the end")
    parser.add_argument(
        "--reduced-motion", action="store_true", help="the pages prefer reduced motion (no dice animation)"
    )
    parser.add_argument("--json", type=Path, help="write every figure to this file")
    args = parser.parse_args()
    if not CHROMIUM.is_file():
        parser.error(f"no {CHROMIUM}: apt-get install chromium")
    if args.actions < 1 or min(args.warmup, args.pause, args.idle) < 0:
        parser.error("--actions must be at least 1; --warmup, --pause and --idle at least 0")
    figures = run(args.actions, args.warmup, args.pause, args.idle, reduced_motion=args.reduced_motion)
    figures["reduced_motion"] = args.reduced_motion
    figures["command"] = " ".join(["bench/bench_web_latency.py", *sys.argv[1:]])
    if args.json is not None:
        args.json.write_text(json.dumps(figures, indent=2) + "\n")
    last, cpu = figures["last_page_ms"], figures["cpu_s"]
    print(
        f"{figures['actions']} actions ({figures['kinds']}), {len(figures['refused'])} refused; "
        f"last of three pages: median {last['median']} ms, p90 {last['p90']}, p99 {last['p99']}, "
        f"max {last['max']}; "
        f"answer median {figures['answer_ms']['median']} ms; wall {figures['wall_s']} s; CPU s {cpu}",
        file=sys.stderr,
    )
    for name, parts in figures["pages_ms"].items():
        text = ", ".join(f"{part} {s['median']}/{s['p99']}" for part, s in parts.items() if s)
        print(f"  {name} (median/p99 ms): {text}", file=sys.stderr)


if __name__ == "__main__":
    main()
