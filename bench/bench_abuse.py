"""The web table against the abuse of issue 19's "Abuse and load": slow sockets, a flood of tables, a seat
spamming its seed, and fetchers of a long record, each against a real ``hazard serve`` with its default
limits on 127.0.0.1, while a normal client's requests are timed.

Run ``.venv/bin/python bench/bench_abuse.py`` (``--slow 10000`` sockets by default, from 500 loopback
addresses; the process's open-file limit must allow them).
"""

from __future__ import annotations

import argparse
import contextlib
import importlib.util
import resource
import socket
import statistics
import tempfile
import time
from pathlib import Path

import httpx

# The tests' own way of starting a server (tests/ is not a package that can be imported from here).
_SPEC = importlib.util.spec_from_file_location(
    "servers", Path(__file__).parent.parent / "tests" / "servers.py"
)
assert _SPEC is not None
assert _SPEC.loader is not None
_SERVERS = importlib.util.module_from_spec(_SPEC)
_SPEC.loader.exec_module(_SERVERS)
Server = _SERVERS.Server


DEADLINE = 30
"""The header deadline of this run, seconds: longer than opening every slow socket takes."""


def timed(port: int, count: int = 20) -> float:
    """The median seconds of ``count`` GETs of the lobby's API, each on a new connection from 127.0.0.1."""
    took = []
    for _ in range(count):
        started = time.perf_counter()
        with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
            sock.sendall(b"GET /api/rulesets HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
            answer = b""
            while chunk := sock.recv(65_536):
                answer += chunk
        if not answer.startswith(b"HTTP/1.1 200"):
            raise AssertionError(answer[:200])
        took.append(time.perf_counter() - started)
    return statistics.median(took)


def slow_sockets(server: Server, count: int, addresses: int) -> None:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    before = timed(server.port)
    opened, refused = [], 0
    started = time.monotonic()
    for number in range(count):
        sock = socket.socket()
        sock.bind((f"127.0.{1 + number % addresses // 250}.{2 + number % addresses % 250}", 0))
        sock.settimeout(5)
        try:
            sock.connect(("127.0.0.1", server.port))
            sock.sendall(b"GET / HT")
            opened.append(sock)
        except OSError:
            refused += 1
            sock.close()
    during = timed(server.port)
    one = []
    for _ in range(200):  # one address past its cap
        sock = socket.create_connection(("127.0.0.1", server.port), timeout=5)
        one.append(sock)
    time.sleep(0.5)
    closed = 0
    for sock in one:
        sock.setblocking(False)
        with contextlib.suppress(BlockingIOError):
            with contextlib.suppress(ConnectionResetError):
                sock.recv(1)
            closed += 1
        sock.close()
    time.sleep(DEADLINE + 1)
    dropped = 0
    for sock in opened:
        sock.setblocking(False)
        with contextlib.suppress(BlockingIOError):
            with contextlib.suppress(ConnectionResetError):
                sock.recv(1)
            dropped += 1
        sock.close()
    took = time.monotonic() - started
    print(
        f"slow sockets: {len(opened):,} opened from {addresses} addresses in {took:.1f} s "
        f"({refused} failed to connect); a normal GET's median {before * 1e3:.1f} ms before, "
        f"{during * 1e3:.1f} ms during; 200 from one address: {closed} closed at once; "
        f"{dropped:,} of {len(opened):,} slow ones dropped at the header deadline"
    )
    resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))


def table_flood(server: Server) -> None:
    answers = [httpx.post(f"{server.url}/api/tables", json={"ruleset": "wikipedia"}) for _ in range(100)]
    made = sum(a.status_code == 201 for a in answers)
    waits = {a.headers.get("retry-after") for a in answers if a.status_code == 429}
    print(f"table flood: 100 tables asked from one address, {made} made, {100 - made} refused 429 ({waits})")


def seed_spam(server: Server, seconds: float = 10.0) -> None:
    made = httpx.post(f"{server.url}/api/tables", json={"ruleset": "wikipedia"}).json()
    game = made["id"]
    token = httpx.post(f"{server.url}/api/tables/{game}/seats", json={"name": "Spam", "bankroll": "9"}).json()
    headers = {"Authorization": f"Bearer {token['token']}"}
    head = httpx.get(f"{server.url}/api/tables/{game}").json()["seq"]
    sent = ok = 0
    with httpx.Client(headers=headers) as client:
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            answer = client.post(f"{server.url}/api/tables/{game}/actions", json={"action": f"seed s{sent}"})
            sent += 1
            ok += answer.status_code == 200
    grown = httpx.get(f"{server.url}/api/tables/{game}").json()["seq"] - head
    print(
        f"seed spam: {sent:,} seeds sent in {seconds:.0f} s by one seat ({sent / seconds:.0f}/s), {ok} made, "
        f"the record grew {grown} entries ({grown / seconds:.1f}/s)"
    )


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--slow", type=int, default=10_000)
    parser.add_argument("--addresses", type=int, default=500)
    options = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        # The defaults of hazard serve (Server raises the limits for tests: put them back).
        # The header deadline is raised from 5 s so that every slow socket is open at once.
        defaults = ("--tables", "30", "--seat-rate", "2", "--per-address", "64", "--rate", "20")
        defaults += ("--header-timeout", str(DEADLINE))
        server = Server(str(Path(folder) / "games.db"), Path(folder), options=defaults)
        try:
            slow_sockets(server, options.slow, options.addresses)
            seed_spam(server)
            table_flood(server)
        finally:
            server.stop()


if __name__ == "__main__":
    main()
