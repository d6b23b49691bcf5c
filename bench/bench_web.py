"""The web table under load: durable actions per second, and how soon every player at the table sees each one.

The benchmark starts the server itself, on loopback (:func:`hazard.web.run_server`, as ``hazard serve`` runs
it, in a child process, its request limits raised out of the way; ``--servers N``: N processes on the one
record, each table on one of them), over an SQLite file in a temporary folder and,
given ``--postgres URL`` (or ``HAZARD_TEST_DATABASE_URL``), over PostgreSQL too. It sets up ``--tables``
tables (ruleset ``wikipedia``: the bank arrangement, setters staking against the caster before the round) of
``--players`` players each. Every player is a client of its own: an ``aiohttp`` session with one keep-alive
connection for its actions, and a socket following its table's live updates. Each player
acts on what its socket shows, as a page would: a setter stakes 1 once a round is open; the caster waits for
the setters' stakes (at most ``STAKE_WAIT`` seconds), calls 7, and throws until the round ends; the dice pass
as the rules say. After each action a player waits until its own socket has shown that action before it
decides again; an action refused (409) makes it read the table's state again and go on. ``--think`` is a
pause before each action (uniform between half and one and a half times it; 0: as fast as the server
answers); each value given is one run.

Measured over a window of ``--seconds`` after ``--warmup`` seconds of play:

- durable actions per second: the 2xx answers to ``POST /api/tables/{id}/actions`` received in the window
  (the hub answers only once the record has committed the action's entries);
- entries per second: the record's entries written in the window (a throw that opens a fair hand also writes
  its seeds; dice that pass write a reveal and a commitment), as the tables' sockets numbered them;
- the latency from sending an action to the moment the last of its table's sockets has received the update
  carrying the action's entry number (p50, p99, max), over the actions sent in the window;
- refusals (non-2xx answers) by status and message; the CPU time of the server process, of the benchmark's
  own process (the clients) and of the whole machine (PostgreSQL's, and anything else running, is the rest).

The baseline, timed in the same run on the same database just before and just after each run (the ratio is
against the mean of the two: a disk's commit rate drifts): one writer in this process appending entries
through ``GameStore.append`` (a stake's entry with its client number: the rows the web table writes for one
action), each entry one committed transaction, for ``--baseline-seconds``. It is the record's own rate of
durable writes, without the web layer, the rules, the sockets or any concurrency: what one action costs the
database at the least. For reference, the same with several writers at once, once per database.

Run ``.venv/bin/python bench/bench_web.py`` (SQLite), or ``.ci/run .venv/bin/python bench/bench_web.py`` for
PostgreSQL as well (``--no-sqlite``: PostgreSQL alone). ``--json PATH`` writes the figures. ``--py-spy
PREFIX`` (``pip install py-spy``) samples the server over each window into two collapsed-stack files:
``-wall``, every thread whether it waits or runs, and ``-gil``, the thread holding the GIL (where the CPU
goes).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import json
import os
import platform
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any

import aiohttp

from _web_players import DRAIN, Player, Run, Table
from _web_server import RULESET, WORKERS, Server, baseline, client_collections, machine_cpu, serve

try:
    import uvloop
except ImportError:  # uvicorn[standard] brings it; without it, asyncio's own loop
    uvloop = None  # type: ignore[assignment]
WARMUP_LIMIT = 90.0
"""The longest the play goes on before the window opens, waiting for every table to finish a round."""
SETUP_CONCURRENCY = 32
"""Players reading their table and opening their sockets at once, once the tables are set up."""


# --- one run ------------------------------------------------------------------------------------------------


async def setup(run: Run, servers: list[Server], tables: int, players: int) -> list[Player]:
    """The tables, each on one of the servers in turn, and their players each seated from his own client
    (which has no cookies yet), one request after another (SQLite's writers only slow each other down); then
    every player reads the table and opens its socket, many at once."""
    seated = []
    for number in range(tables):
        base = servers[number % len(servers)].base
        async with (
            aiohttp.ClientSession(base_url=base, timeout=aiohttp.ClientTimeout(total=30.0)) as lobby,
            lobby.post("/api/tables", json={"ruleset": RULESET}) as made,
        ):
            made.raise_for_status()
            table = Table((await made.json())["id"], players, base)
        for index in range(1, players + 1):
            player = Player(run, table, f"P{index}", index)
            await player.sit()
            seated.append(player)
    gate = asyncio.Semaphore(SETUP_CONCURRENCY)

    async def follow(player: Player) -> None:
        async with gate:
            await player.reread()
            await player.connect()

    await asyncio.gather(*(follow(player) for player in seated))
    return seated


@dataclass
class Window:
    """The measured window: its bounds, and what the sockets and the CPUs had done by each end."""

    start: float
    end: float
    seen: dict[int, int] = field(default_factory=dict)
    """The entries each table's sockets had received by the end, less those by the start."""
    server_cpu: float = 0.0
    client_cpu: float = 0.0
    machine_cpu: dict[str, float] = field(default_factory=dict)
    lag: list[float] = field(default_factory=list)

    async def watch(self, servers: list[Server], tables: dict[int, Table]) -> None:
        """Take the figures at the window's start, wait for its end, and take them again."""
        lags = asyncio.create_task(_lag(self.end))
        seen = {game: table.seen for game, table in tables.items()}
        server_cpu = sum(server.cpu() for server in servers)
        client_cpu, machine = time.process_time(), machine_cpu()
        await asyncio.sleep(max(0.0, self.end - time.perf_counter()))
        self.server_cpu = sum(server.cpu() for server in servers) - server_cpu
        self.client_cpu = time.process_time() - client_cpu
        self.machine_cpu = {kind: spent - machine[kind] for kind, spent in machine_cpu().items()}
        self.seen = {game: table.seen - seen[game] for game, table in tables.items()}
        self.lag = await lags


async def measure(
    servers: list[Server],
    *,
    tables: int,
    players: int,
    think: float,
    warmup: float,
    seconds: float,
    opened: Callable[[], object] = lambda: None,
) -> dict[str, Any]:
    """Set up the tables, play for ``warmup`` then ``seconds``, and return the window's figures."""
    load = round(os.getloadavg()[0], 2)
    run = Run(think)
    began = time.perf_counter()
    seated = await setup(run, servers, tables, players)
    setup_seconds = time.perf_counter() - began
    # The clients' collector is off while they play (their garbage is refcounted, a run is short): its pauses
    # (a hundred milliseconds and more for a full collection) would be counted as the server's latency.
    gc.collect()
    gc.freeze()
    gc.disable()
    by_table = {player.table.game: player.table for player in seated}
    followers = [asyncio.create_task(player.follow()) for player in seated]
    try:
        start = time.perf_counter()
        playing = [asyncio.create_task(player.play()) for player in seated]
        # The window opens once every table has played a round (its first throw opens the game's first hand
        # of the fair dice, seven entries at once: a start that a long game does not have), at least after
        # --warmup seconds, at most after WARMUP_LIMIT.
        await asyncio.sleep(warmup)
        while time.perf_counter() < start + WARMUP_LIMIT and any(p.view.rounds < 1 for p in seated):
            await asyncio.sleep(0.1)
        window = Window(time.perf_counter(), time.perf_counter() + seconds)
        run.stop = window.end
        opened()
        await window.watch(servers, by_table)
        _, late = await asyncio.wait(playing, timeout=DRAIN + 35.0)  # an answer may take its whole timeout
        for task in late:
            task.cancel()
        drained = time.perf_counter() + DRAIN
        while time.perf_counter() < drained and not _all_delivered(run, by_table, window):
            await asyncio.sleep(0.05)
    finally:
        gc.enable()
        await asyncio.gather(*(player.close() for player in seated), return_exceptions=True)
        for task in followers:
            task.cancel()
        await asyncio.gather(*followers, return_exceptions=True)
    return {
        "tables": tables,
        "players": players,
        "think_s": think,
        "setup_s": round(setup_seconds, 2),
        "warmup_s": round(window.start - start, 2),
        "_window": (window.start, window.end),
        **_figures(run, by_table, window),
        "load_before": load,
    }


def _figures(run: Run, by_table: dict[int, Table], window: Window) -> dict[str, Any]:
    span = window.end - window.start
    answered = [a for a in run.actions if window.start <= a.answered < window.end]
    durable = [a for a in answered if 200 <= a.status < 300]
    sent = [a for a in run.actions if window.start <= a.sent < window.end and 200 <= a.status < 300]
    latencies, undelivered = [], 0
    for action in sent:
        everywhere = by_table[action.table].everywhere(action.seq)
        if everywhere is None:
            undelivered += 1
        else:
            latencies.append(max(0.0, everywhere - action.sent))
    refused = Counter(str(a.status) for a in answered if not 200 <= a.status < 300)
    return {
        "window_s": round(span, 3),
        "durable_actions": len(durable),
        "actions_per_s": round(len(durable) / span, 1),
        "entries_per_s": round(sum(window.seen.values()) / span, 1),
        "latency_ms": _percentiles(latencies),
        "answer_ms": _percentiles([a.answered - a.sent for a in sent]),
        "undelivered": undelivered,
        "refused": sum(refused.values()),
        "refused_by_status": dict(sorted(refused.items())),
        "refusal_messages_whole_run": dict(run.refusals.most_common(5)),
        "rereads": run.rereads,
        "reconnects": run.reconnects,
        "client_errors": dict(run.errors),
        "server_cpu_s": round(window.server_cpu, 2),
        "client_cpu_s": round(window.client_cpu, 2),
        "server_cpu_ms_per_action": round(1000 * window.server_cpu / max(1, len(durable)), 3),
        "machine_cpu_s": {kind: round(spent, 2) for kind, spent in window.machine_cpu.items()},
        "client_loop_lag_ms": _percentiles(window.lag),
        "client_gc": client_collections().between(window.start, window.end),
    }


async def _lag(end: float) -> list[float]:
    """How late this process's event loop wakes from 10 ms sleeps until ``end``: time the clients' figures
    could owe to the benchmark's own process rather than the server."""
    late = []
    while (now := time.perf_counter()) < end:
        await asyncio.sleep(0.01)
        late.append(time.perf_counter() - now - 0.01)
    return late


def _all_delivered(run: Run, by_table: dict[int, Table], window: Window) -> bool:
    return all(
        by_table[a.table].everywhere(a.seq) is not None
        for a in run.actions
        if window.start <= a.sent < window.end and 200 <= a.status < 300
    )


def _percentiles(values: list[float]) -> dict[str, float | None]:
    if not values:
        return {"p50": None, "p99": None, "max": None, "n": 0}
    ordered = sorted(values)
    cuts = statistics.quantiles(ordered, n=100, method="inclusive") if len(ordered) > 1 else ordered * 99
    return {
        "p50": round(1000 * cuts[49], 2),
        "p99": round(1000 * cuts[98], 2),
        "max": round(1000 * ordered[-1], 2),
        "n": len(ordered),
    }


async def database_runs(
    name: str, db: str, folder: Path, options: argparse.Namespace
) -> list[dict[str, Any]]:
    """One run per ``--think`` value, each on a fresh server over ``db``, between two timings of the baseline
    (the disk's commit rate drifts: the ratio is against their mean); and the baseline's writers at once."""
    many = await asyncio.to_thread(baseline, db, options.baseline_seconds, WORKERS)
    results = []
    for think in options.think:
        before = await asyncio.to_thread(baseline, db, options.baseline_seconds)
        with contextlib.ExitStack() as running:
            servers = [
                running.enter_context(Server(db, folder, options.switch_interval))
                for _ in range(options.servers)
            ]
            for server in servers:
                await server.ready()
            profilers: list[subprocess.Popen[bytes]] = []
            try:
                figures = await measure(
                    servers,
                    tables=options.tables,
                    players=options.players,
                    think=think,
                    warmup=options.warmup,
                    seconds=options.seconds,
                    opened=partial(_py_spy, profilers, options, servers[0], f"{name}-{think:g}"),
                )
            finally:
                for profiler in profilers:
                    with contextlib.suppress(subprocess.TimeoutExpired):
                        profiler.wait(timeout=30)
                    if profiler.poll() is None:
                        profiler.kill()
                        profiler.wait()
        window = figures.pop("_window")
        figures["server_gc"] = _merged([server.collected(*window) for server in servers])
        after = await asyncio.to_thread(baseline, db, options.baseline_seconds)
        rate = (before + after) / 2
        figures.update(
            database=name,
            servers=options.servers,
            switch_interval_s=options.switch_interval,
            baseline_appends_per_s=round(rate, 1),
            baseline_before_after=[round(before, 1), round(after, 1)],
            **{f"appends_per_s_{WORKERS}_writers": round(many, 1)},
            ratio=round(figures["actions_per_s"] / rate, 3),
        )
        print(_line(figures), file=sys.stderr)
        results.append(figures)
    return results


def _merged(collected: list[dict[str, Any] | None]) -> dict[str, Any] | None:
    """The garbage collections of every server together."""
    if any(one is None for one in collected):
        return None
    counts: Counter[str] = Counter()
    for one in collected:
        assert one is not None
        counts.update({str(gen): n for gen, n in one["count"].items()})
    return {
        "count": dict(sorted(counts.items())),
        "seconds": round(sum(one["seconds"] for one in collected if one is not None), 3),
        "longest_ms": max(one["longest_ms"] for one in collected if one is not None),
    }


def _py_spy(
    profilers: list[subprocess.Popen[bytes]], options: argparse.Namespace, server: Server, name: str
) -> None:
    """``py-spy record`` of the server over the window, when asked for: its stacks, collapsed, to a file."""
    if options.py_spy is None:
        return
    spy = shutil.which("py-spy") or str(Path(sys.executable).with_name("py-spy"))
    assert server.process is not None
    command = [spy, "record", "--pid", str(server.process.pid), "--duration", str(int(options.seconds))]
    command += ["--rate", "100", "--nonblocking", "--format", "raw"]
    # wall: every thread, waiting or not; gil: only the thread holding the GIL, i.e. where the CPU goes
    for view, flags in (("wall", ["--idle", "--threads"]), ("gil", ["--gil"])):
        out = ["--output", f"{options.py_spy}-{name}-{view}.txt"]
        profilers.append(
            subprocess.Popen([*command, *flags, *out], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        )


# --- the report ---------------------------------------------------------------------------------------------

_HEADER = (
    f"{'database':<10} {'think s':>7} {'actions/s':>10} {'entries/s':>10} {'p50 ms':>8} {'p99 ms':>8} "
    f"{'refused':>8} {'srv CPU ms/act':>14} {'baseline/s':>11} {'× baseline':>10}"
)


def _line(f: dict[str, Any]) -> str:
    lat = f["latency_ms"]
    shown = [("-" if lat[k] is None else f"{lat[k]:.1f}") for k in ("p50", "p99")]
    return (
        f"{f['database']:<10} {f['think_s']:>7g} {f['actions_per_s']:>10,.0f} {f['entries_per_s']:>10,.0f} "
        f"{shown[0]:>8} {shown[1]:>8} {f['refused']:>8} {f['server_cpu_ms_per_action']:>14.3f} "
        f"{f['baseline_appends_per_s']:>11,.0f} {f['ratio']:>10.3f}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--tables", type=int, default=200)
    parser.add_argument(
        "--servers",
        type=int,
        default=1,
        help="server processes on the one record, each serving its share of the tables (as behind a proxy "
        "that sends each table to one server)",
    )
    parser.add_argument("--players", type=int, default=5, help="players per table (2 to 12)")
    parser.add_argument("--seconds", type=float, default=20.0, help="the measured window")
    parser.add_argument(
        "--warmup",
        type=float,
        default=3.0,
        help="play before the window opens, at least (and a round a table)",
    )
    parser.add_argument("--think", type=float, nargs="+", default=[0.0], help="pause before each action, s")
    parser.add_argument("--baseline-seconds", type=float, default=3.0)
    parser.add_argument("--postgres", default=os.environ.get("HAZARD_TEST_DATABASE_URL"), metavar="URL")
    parser.add_argument("--no-sqlite", action="store_true", help="PostgreSQL only")
    parser.add_argument("--json", type=Path, metavar="PATH", help="write the figures here")
    parser.add_argument("--py-spy", metavar="PREFIX", help="py-spy the server over each window")
    parser.add_argument("--serve", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--db", help=argparse.SUPPRESS)
    parser.add_argument("--port", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--collections", type=Path, help=argparse.SUPPRESS)
    parser.add_argument(
        "--switch-interval",
        type=float,
        metavar="S",
        help="an experiment: the server's sys.setswitchinterval (Python's default: 0.005)",
    )
    options = parser.parse_args()
    if options.serve:
        serve(options.db, options.port, options.collections, options.switch_interval)
        return
    client_collections()
    if not 2 <= options.players <= 12:
        parser.error("--players: expected 2 to 12")
    if not 1 <= options.servers <= 8:
        parser.error("--servers: expected 1 to 8")
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)  # two sockets a player, on each side
    resource.setrlimit(
        resource.RLIMIT_NOFILE, (max(soft, min(hard, 4 * options.tables * options.players + 256)), hard)
    )
    runner: Any = asyncio.run if uvloop is None else uvloop.run
    revision = _revision()
    with tempfile.TemporaryDirectory(prefix="hazard-bench-web-") as folder:
        places = [] if options.no_sqlite else [("sqlite", str(Path(folder) / "games.db"))]
        if options.postgres:
            places.append(("postgresql", options.postgres))
        results = []
        print(_HEADER, file=sys.stderr)
        for name, db in places:
            results.extend(runner(database_runs(name, db, Path(folder), options)))
    report = {
        "machine": {
            "python": sys.version.split()[0],
            "cpus": os.cpu_count(),
            "platform": platform.platform(),
        },
        "command": " ".join([Path(sys.executable).name, *sys.argv]),
        "revision": revision,
        **({} if _revision() == revision else {"revision_at_end": _revision()}),
        "runs": results,
    }
    print(_HEADER)
    for figures in results:
        print(_line(figures))
    if options.json is not None:
        options.json.write_text(json.dumps(report, indent=2) + "\n")


def _revision() -> str | None:
    """The checkout's commit, with ``+`` where its tracked files differ (read only: no index refresh)."""
    git = ["git", "--no-optional-locks", "-C", str(Path(__file__).resolve().parent)]
    try:
        head = subprocess.run(
            [*git, "rev-parse", "--short", "HEAD"], capture_output=True, text=True, check=True
        )
        dirty = subprocess.run(
            [*git, "status", "--porcelain", "--untracked-files=no"],
            capture_output=True,
            text=True,
            check=True,
        )
    except (OSError, subprocess.CalledProcessError):
        return None
    return head.stdout.strip() + ("+" if dirty.stdout.strip() else "")


if __name__ == "__main__":
    main()
