"""bench_web_latency's server: ``python -m hazard serve`` as a child process over a fresh record (started,
waited for, stopped, its API asked over one keep-alive connection), and the CPU time of it, of the browsers
it serves and of the machine."""

from __future__ import annotations

import http.client
import json
import math
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

CHROMIUM = Path("/usr/bin/chromium")
# As tests/web/browser_helpers.py launches it: tests/test_bench_web_latency.py holds the two equal.
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]

LIMITS = ["--rate", "1000", "--seat-rate", "1000", "--tables", "1000", "--per-address", "1000"]
START_S = 30.0
"""The longest the server may take to answer after it is started."""
HTTP_TIMEOUT = 10.0
IDLE_S = 2.0
"""A keep-alive connection idle longer than this is closed before the next request (the server's own
timeout is 5 s, and it may close one just as a request is sent on it)."""


# --- the server --------------------------------------------------------------------------------------------


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _ticks(pid: int) -> float:
    """The CPU seconds (user and system) process ``pid`` has used so far, from /proc (NaN: it is gone)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return float("nan")
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _threads(pid: int) -> int:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("Threads:"):
                return int(line.split()[1])
    except OSError:
        pass
    return 0


def _descendants(root: int, leave_out: int) -> list[int]:
    """The processes below ``root`` (from /proc), but not ``leave_out`` nor anything below it."""
    parents: dict[int, int] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                parents[int(entry.name)] = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
            except OSError:
                continue
    below: list[int] = []
    frontier = [root]
    while frontier:
        parent = frontier.pop()
        for pid, ppid in parents.items():
            if ppid == parent and pid != leave_out:
                below.append(pid)
                frontier.append(pid)
    return below


def _browser_ticks(server: int) -> dict[int, float]:
    """The CPU seconds so far of each of this process's other descendants (Playwright's driver, Chromium's
    processes): everything below it but the server."""
    found = {pid: _ticks(pid) for pid in _descendants(os.getpid(), leave_out=server)}
    return {pid: ticks for pid, ticks in found.items() if not math.isnan(ticks)}  # gone meanwhile


def machine_cpu() -> float:
    """The machine's busy CPU seconds so far, all cores together (/proc/stat: all but idle and iowait)."""
    ticks = [int(n) for n in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:9]]
    return (sum(ticks) - ticks[3] - ticks[4]) / os.sysconf("SC_CLK_TCK")


class Server:
    """``python -m hazard serve`` as a child process over a fresh record: started, waited for, stopped."""

    def __init__(self, folder: Path) -> None:
        self.port = _free_port()
        self.folder = folder
        self.log = folder / "server.log"
        self.process: subprocess.Popen[bytes] | None = None
        self.connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=HTTP_TIMEOUT)
        self.used = 0.0

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def pid(self) -> int:
        assert self.process is not None
        return self.process.pid

    def __enter__(self) -> Server:
        command = [sys.executable, "-m", "hazard", "serve", "--host", "127.0.0.1", "--port", str(self.port)]
        command += ["--db", str(self.folder / "games.db"), *LIMITS]
        with self.log.open("wb") as log:
            self.process = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT, cwd=self.folder)
        deadline = time.monotonic() + START_S
        while True:
            if self.process.poll() is not None:
                raise RuntimeError(f"hazard serve stopped ({self.process.returncode}):\n{self.tail()}")
            try:
                self.call("GET", "/api/rulesets")
                return self
            except OSError as error:
                if time.monotonic() > deadline:
                    late = f"hazard serve did not answer within {START_S:.0f} s:\n{self.tail()}"
                    raise RuntimeError(late) from error
                self.connection.close()
                time.sleep(0.1)

    def __exit__(self, *_: object) -> None:
        self.connection.close()
        process = self.process
        if process is None or process.poll() is not None:
            return
        process.send_signal(signal.SIGINT)  # uvicorn's graceful stop
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=10)

    def tail(self) -> str:
        try:
            return self.log.read_text(errors="replace")[-3000:]
        except OSError:
            return ""

    def call(self, method: str, path: str, body: Any = None, token: str | None = None) -> tuple[int, Any]:
        """One request on the benchmark's keep-alive connection: its status and its JSON body."""
        headers = {"content-type": "application/json"}
        if token is not None:
            headers["authorization"] = f"Bearer {token}"
        data = None if body is None else json.dumps(body).encode()
        if time.monotonic() - self.used > IDLE_S:  # the server may be closing it: never send on it then
            self.connection.close()
        self.used = time.monotonic()
        try:
            self.connection.request(method, path, body=data, headers=headers)
            answer = self.connection.getresponse()
            return answer.status, json.loads(answer.read() or b"null")
        except (OSError, http.client.HTTPException):
            self.connection.close()  # the next request opens a new connection
            raise
