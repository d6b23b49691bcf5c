"""bench_web's server: the web table in a child process (started, waited for, always stopped), the
garbage collections of a process, the machine's CPU time, and the baseline: the record's own commit rate."""

from __future__ import annotations

import asyncio
import contextlib
import gc
import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from collections import Counter
from fractions import Fraction
from functools import cache
from pathlib import Path
from typing import Any

import aiohttp

from hazard.core.rulesets import find_ruleset
from hazard.table import Actor, DiceKind, GameKind, GameStore, Session, Sit, Stake, TableSpec, table_paytable
from hazard.web import Connections, Limits, WebConfig, create_app, run_server

RULESET = "wikipedia"
BANKROLL = "1000000"
STAKE = "1"
START = 30.0
"""The longest the server may take to start answering."""


# --- the server, in the child process -----------------------------------------------------------------------


class Collections:
    """Every garbage collection in this process: when it began (``time.monotonic``, one clock for all the
    machine's processes), its generation and how long it took."""

    def __init__(self) -> None:
        self.done: list[tuple[float, int, float]] = []
        self._began = 0.0
        gc.callbacks.append(self._seen)

    def _seen(self, phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            self._began = time.monotonic()
        else:
            self.done.append((self._began, info["generation"], time.monotonic() - self._began))

    def between(self, start: float, end: float) -> dict[str, Any]:
        """The collections that began in [start, end): how many of each generation, and their time."""
        found = [(gen, took) for began, gen, took in self.done if start <= began < end]
        return {
            "count": dict(sorted(Counter(gen for gen, _ in found).items())),
            "seconds": round(sum(took for _, took in found), 3),
            "longest_ms": round(1000 * max((took for _, took in found), default=0.0), 2),
        }


@cache
def client_collections() -> Collections:
    """The garbage collections of the benchmark's own process (the clients'), from the first call on."""
    return Collections()


def serve(db: str, port: int, collections: Path | None, switch: float | None = None) -> None:
    """Run the web table on 127.0.0.1:``port`` over the record ``db`` as ``hazard serve`` runs it
    (:func:`hazard.web.run_server`), but with limits no benchmark reaches; once it stops, write its garbage
    collections to ``collections``. ``switch``: the interpreter's switch interval (``sys.setswitchinterval``;
    None leaves Python's 5 ms), for an experiment only."""
    if switch is not None:
        sys.setswitchinterval(switch)

    timed = Collections()
    limits = Limits(
        rate=1e9,
        burst=1e9,
        address_rate=1e9,
        address_burst=1e9,
        tables_per_hour=1e9,
        seats_per_minute=1e9,
        seats_burst=1e9,
        seat_rate=1e9,
        seat_burst=1e9,
    )
    app = create_app(WebConfig(db=db, limits=limits))
    try:  # every client is on 127.0.0.1: one address may hold them all
        run_server(app, host="127.0.0.1", port=port, connections=Connections(per_address=1_000_000))
    finally:  # uvicorn stops on SIGINT, then raises it again: KeyboardInterrupt
        if collections is not None:
            collections.write_text(json.dumps(timed.done))


class Server:
    """The server as a child process: started, waited for, and always stopped (``with Server(...)``)."""

    def __init__(self, db: str, folder: Path, switch: float | None = None) -> None:
        self.db = db
        self.switch = switch
        self.port = _free_port()
        self.log = folder / f"server-{self.port}.log"
        self.collections = folder / f"server-{self.port}-gc.json"
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def __enter__(self) -> Server:
        script = str(Path(__file__).with_name("bench_web.py"))  # its --serve runs serve() in the child
        command = [sys.executable, script, "--serve", "--db", self.db, "--port", str(self.port)]
        command += ["--collections", str(self.collections)]
        if self.switch is not None:
            command += ["--switch-interval", str(self.switch)]
        with self.log.open("wb") as log:
            self.process = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT)
        return self

    def __exit__(self, *_: object) -> None:
        process = self.process
        if process is None or process.poll() is not None:
            return
        process.send_signal(signal.SIGINT)  # uvicorn's graceful stop; then the child writes its collections
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=10)

    async def ready(self) -> None:
        deadline = time.monotonic() + START
        timeout = aiohttp.ClientTimeout(total=2.0)
        async with aiohttp.ClientSession(base_url=self.base, timeout=timeout) as client:
            while time.monotonic() < deadline:
                assert self.process is not None
                if self.process.poll() is not None:
                    raise RuntimeError(f"the server exited ({self.process.returncode}):\n{self.tail()}")
                with contextlib.suppress(aiohttp.ClientError, TimeoutError):
                    async with client.get("/api/rulesets") as answer:
                        if answer.status == 200:
                            return
                await asyncio.sleep(0.1)
        raise RuntimeError(f"the server did not answer within {START:.0f} s:\n{self.tail()}")

    def collected(self, start: float, end: float) -> dict[str, Any] | None:
        """The server's garbage collections between ``start`` and ``end`` (once it has stopped)."""
        timed = Collections.__new__(Collections)
        try:
            timed.done = [tuple(done) for done in json.loads(self.collections.read_text())]
        except (OSError, ValueError):
            return None
        return timed.between(start, end)

    def tail(self) -> str:
        try:
            return self.log.read_text(errors="replace")[-3000:]
        except OSError:
            return ""

    def cpu(self) -> float:
        """The CPU seconds (user and system) the server process has used so far, from /proc."""
        assert self.process is not None
        try:
            fields = Path(f"/proc/{self.process.pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            return float("nan")
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


_STAT = ("user", "nice", "system", "idle", "iowait", "irq", "softirq", "steal")


def machine_cpu() -> dict[str, float]:
    """The machine's CPU seconds so far, all cores together, by kind (from /proc/stat)."""
    try:
        ticks = [int(n) for n in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:9]]
    except OSError:
        return {}
    hertz = os.sysconf("SC_CLK_TCK")
    return {kind: tick / hertz for kind, tick in zip(_STAT, ticks, strict=True)}


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


# --- the baseline: the record's own commit rate -------------------------------------------------------------


WORKERS = min(32, (os.cpu_count() or 1) + 4)
"""Writers at once for the reference figure: as many as asyncio's default executor has threads."""


def baseline(db: str, seconds: float, writers: int = 1) -> float:
    """Entries appended and committed per second through ``GameStore.append`` in this process, by ``writers``
    threads at once (each to a game of its own), each entry one committed transaction."""
    store = GameStore.open(db)
    try:
        rules = find_ruleset(RULESET)
        setter, stake = Actor.player("P2"), Stake("P2", Fraction(STAKE))
        games = []
        for _ in range(writers):
            session = Session.start(
                store,
                TableSpec(rules, table_paytable(rules)[0], dice=DiceKind.FAIR, kind=GameKind.WEB),
                seats=[Sit(f"P{n}", Fraction(BANKROLL)) for n in range(1, 6)],
            )
            games.append([session.game, len(session.entries)])
        for game in games:  # warm: the connection pool, the statements' compiled forms
            for _ in range(5):
                game[1] += 1
                store.append(game[0], setter, stake, seq=game[1], request=f"warm-{game[1]}")
        done = [0] * writers
        began = time.perf_counter()
        deadline = began + seconds

        def write(index: int) -> None:
            game = games[index]
            while time.perf_counter() < deadline:
                game[1] += 1
                store.append(game[0], setter, stake, seq=game[1], request=f"base-{game[1]}")
                done[index] += 1

        threads = [threading.Thread(target=write, args=(index,)) for index in range(writers)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        return sum(done) / (time.perf_counter() - began)
    finally:
        store.close()
