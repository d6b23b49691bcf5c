"""A real ``hazard serve`` process for tests: on a free port of 127.0.0.1, started and killed by the test."""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx

__all__ = ["Server", "free_port"]


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


class Server:
    """One ``hazard serve`` process on a free port of 127.0.0.1."""

    def __init__(
        self, db: str, tmp_path: Path, *, rate: int = 100_000, options: tuple[str, ...] = ()
    ) -> None:
        self.db = db
        self.port = free_port()
        self.rate = rate
        self.options = options
        """More options of ``hazard serve`` (after the test's own raised limits, so these win)."""
        self.log = tmp_path / f"server-{self.port}.log"
        self.process: subprocess.Popen[bytes] | None = None
        self.start()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> None:
        command = [
            sys.executable,
            "-m",
            "hazard",
            "serve",
            "--port",
            str(self.port),
            "--db",
            self.db,
            "--rate",
            str(self.rate),
            # A test's clients all come from 127.0.0.1: its limits are raised with --rate's.
            "--tables",
            str(self.rate),
            "--seat-rate",
            str(self.rate),
            "--per-address",
            "10000",
            *self.options,
        ]
        with self.log.open("ab") as log:
            self.process = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            assert self.process.poll() is None, self.log.read_text()
            with contextlib.suppress(httpx.HTTPError):
                if httpx.get(f"{self.url}/api/rulesets", timeout=1).status_code == 200:
                    return
            time.sleep(0.1)
        raise AssertionError(f"the server did not start: {self.log.read_text()}")

    def kill(self) -> None:
        """``kill -9``: no shutdown of any kind."""
        assert self.process is not None
        os.kill(self.process.pid, signal.SIGKILL)
        self.process.wait(timeout=10)

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.kill()
            self.process.wait(timeout=10)
