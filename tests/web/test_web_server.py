"""How the web table's process runs: the settings ``hazard serve`` and the load benchmark share."""

from __future__ import annotations

import contextlib
import gc
import resource
import selectors
import socket
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import uvicorn
from tests.servers import Server

from hazard.web import WebConfig, create_app, run_server
from hazard.web.connections import Connections, Guard, raise_file_limit
from hazard.web.server import COLLECTOR_THRESHOLDS


@pytest.fixture
def collector() -> Iterator[None]:
    """Python's own collector settings again after the test, whatever it set."""
    thresholds = gc.get_threshold()
    yield
    gc.set_threshold(*thresholds)
    gc.unfreeze()


def test_the_server_runs_uvicorn_with_its_settings_and_a_tuned_collector(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, collector: None
) -> None:
    called: dict[str, Any] = {}

    def fake_run(server: uvicorn.Server, *_: object) -> None:
        called.update(config=server.config, thresholds=gc.get_threshold())

    monkeypatch.setattr(uvicorn.Server, "run", fake_run)
    application = create_app(WebConfig(db=str(tmp_path / "games.db")))
    run_server(application, host="127.0.0.1", port=8123)
    config = called["config"]
    assert config.app is application
    assert (config.host, config.port) == ("127.0.0.1", 8123)
    assert config.ws_per_message_deflate is False  # updates are small: deflate costs more than it saves
    assert config.ws_max_size == 65_536
    assert config.timeout_keep_alive == 5
    assert config.http_protocol_class.__name__ == "Guarded"  # counted by address, with a header deadline
    assert called["thresholds"] == COLLECTOR_THRESHOLDS
    assert gc.get_freeze_count() > 0  # what was alive at the start is out of the collector's way


# --- slow clients ------------------------------------------------------------------------------------------

SLOW = 2_000
"""Slow sockets opened at once: each sends half a request line, then nothing."""
ADDRESSES = 125
"""The loopback addresses they come from (127.0.0.2 and up), 16 from each: under the cap of 20."""
CAP = 20
DEADLINE = 2


def _raised_file_limit(wanted: int) -> None:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard != resource.RLIM_INFINITY and hard < wanted:
        pytest.skip(f"the hard limit of open files is {hard}: this test needs {wanted}")
    if soft != resource.RLIM_INFINITY and soft < wanted:
        resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))


def _slow(url_port: int, source: str, request: bytes = b"GET /api/rulesets HT") -> socket.socket:
    sock = socket.socket()
    sock.bind((source, 0))
    sock.settimeout(5)
    sock.connect(("127.0.0.1", url_port))
    sock.sendall(request)
    return sock


def _closed_within(sockets: list[socket.socket], seconds: float) -> list[socket.socket]:
    """The sockets the server has not closed (no end of file, no reset) within ``seconds``."""
    waiting = {sock.fileno(): sock for sock in sockets}
    deadline = time.monotonic() + seconds
    with selectors.DefaultSelector() as selector:
        for sock in sockets:
            selector.register(sock, selectors.EVENT_READ)
        while waiting and time.monotonic() < deadline:
            for key, _ in selector.select(timeout=max(0.0, deadline - time.monotonic())):
                sock = waiting.pop(key.fd)
                selector.unregister(sock)
                with contextlib.suppress(OSError):
                    sock.recv(65_536, socket.MSG_DONTWAIT)  # an end of file or a reset: closed either way
    return list(waiting.values())


@pytest.mark.slow
def test_slow_clients_starve_nobody_and_are_dropped_at_the_header_deadline(tmp_path: Path) -> None:
    """A slowloris: 2,000 sockets from 125 addresses each send half a request line and then nothing. A
    normal client is still served at once; from one address, sockets past the cap are closed at once, unread;
    and every slow socket (a first request's or a next one's on a kept-alive socket) is closed at the
    header deadline."""
    _raised_file_limit(SLOW + 500)
    options = ("--per-address", str(CAP), "--header-timeout", str(DEADLINE))
    server = Server(str(tmp_path / "games.db"), tmp_path, options=options)
    opened: list[socket.socket] = []
    try:
        started = time.monotonic()
        for number in range(SLOW):
            opened.append(_slow(server.port, f"127.0.0.{2 + number % ADDRESSES}"))
        took = time.monotonic() - started
        assert took < DEADLINE, f"opening the slow sockets took {took:.1f} s: longer than the deadline"
        before = time.monotonic()
        answer = httpx.get(f"{server.url}/api/rulesets", timeout=5)
        assert answer.status_code == 200
        assert time.monotonic() - before < 1.0
        # From one address: CAP slow sockets held, and the next ones closed at once, unread.
        time.sleep(0.2)  # the client's socket closed
        mine = [_slow(server.port, "127.0.0.1") for _ in range(CAP)]
        time.sleep(0.2)
        extra = []
        for _ in range(5):
            sock = socket.socket()
            sock.settimeout(5)
            sock.connect(("127.0.0.1", server.port))
            extra.append(sock)
        assert _closed_within(extra, 1.0) == [], "sockets past the cap were not closed at once"
        assert len(_closed_within(mine, 0.1)) == CAP, "sockets under the cap were closed"
        # A kept-alive socket whose next request comes slowly is closed at the deadline too.
        kept = _slow(server.port, "127.0.1.1", b"GET /api/rulesets HTTP/1.1\r\nHost: x\r\n\r\n")
        assert kept.recv(65_536).startswith(b"HTTP/1.1 200")
        kept.sendall(b"GET /api/rulesets HT")
        opened += [*mine, *extra, kept]
        left = _closed_within([*opened[:SLOW], *mine, kept], DEADLINE + 3)
        assert left == [], f"{len(left)} slow sockets were not closed at the header deadline"
        assert httpx.get(f"{server.url}/api/rulesets", timeout=5).status_code == 200
    finally:
        for sock in opened:
            sock.close()
        server.stop()


def test_the_server_raises_its_file_limit_to_the_hard_limit() -> None:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard == soft:
        lower = min(1024, hard)
        if lower == hard:
            pytest.skip("the hard limit of open files is too low to lower the soft one under it")
        resource.setrlimit(resource.RLIMIT_NOFILE, (lower, hard))
    try:
        assert raise_file_limit() == hard
        assert resource.getrlimit(resource.RLIMIT_NOFILE) == (hard, hard)
    finally:
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))


class _Transport:
    def __init__(self, address: str) -> None:
        self.address = address

    def get_extra_info(self, name: str) -> object:
        return (self.address, 1234) if name == "peername" else None


def test_the_guard_keeps_files_back_and_counts_each_socket_once() -> None:
    """Past the file limit less the reserve, every address is refused (so the process always has files to
    accept with, and to reach the record); a socket's count ends once, whichever protocol ends it."""
    guard = Guard(Connections(per_address=2, reserve=64), files=68)  # room for 4 sockets
    first = [_Transport("10.0.0.1") for _ in range(3)]
    assert [guard.admit(t) for t in first] == [True, True, False]  # the cap of one address
    others = [_Transport(f"10.0.1.{n}") for n in range(3)]
    assert [guard.admit(t) for t in others] == [True, True, False]  # the file limit, less the reserve
    guard.release(first[0])
    guard.release(first[0])  # the WebSocket's end after the HTTP protocol's: counted once
    assert guard.admit(_Transport("10.0.2.1"))
    assert not guard.admit(_Transport("10.0.0.1"))  # full again
    assert dict(guard.by_address) == {"10.0.0.1": 1, "10.0.1.0": 1, "10.0.1.1": 1, "10.0.2.1": 1}
