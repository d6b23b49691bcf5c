"""Driving the ``hazard`` command as a person at a terminal would: a real process, its real input and output.

:func:`run_hazard` types a whole script and reads everything back; :class:`Terminal` types one line at a time
and waits for what the game prints, for the tests that stop a game halfway.
"""

from __future__ import annotations

import os
import selectors
import signal
import subprocess
import sys
import time
from collections.abc import Sequence
from pathlib import Path

__all__ = ["AT_A_KEYBOARD", "Terminal", "exchanges", "hazard_env", "run_hazard"]

HAZARD = (sys.executable, "-m", "hazard")
AT_A_KEYBOARD = (
    sys.executable,
    "-c",
    "import runpy, signal; signal.signal(signal.SIGINT, signal.default_int_handler); "
    "runpy.run_module('hazard', run_name='__main__', alter_sys=True)",
)
"""``python -m hazard`` with Ctrl-C raising KeyboardInterrupt, as at a person's terminal, whatever the tests'
own process does with SIGINT: a disposition of "ignore" is inherited through exec, and Python then installs
no handler of its own. A test run started in the background of a shell without job control ignores SIGINT
(POSIX), and so would every game it started: a Ctrl-C that never arrives."""
WAIT = 60.0
"""Seconds to wait for a process: generous, since only a hung game should ever reach it."""


def hazard_env(tmp_path: Path) -> dict[str, str]:
    """The environment of a game under test: unbuffered, no colours, and a data folder of its own."""
    env = {
        k: v for k, v in os.environ.items() if k not in ("FORCE_COLOR", "TTY_COMPATIBLE", "TTY_INTERACTIVE")
    }
    env.update(XDG_DATA_HOME=str(tmp_path / "data"), PYTHONUNBUFFERED="1", NO_COLOR="1")
    return env


def run_hazard(tmp_path: Path, *args: str, lines: Sequence[str] = ()) -> subprocess.CompletedProcess[str]:
    """Run ``hazard ARGS`` with ``lines`` typed in, then the end of input."""
    return subprocess.run(
        [*HAZARD, *args],
        input="".join(f"{line}\n" for line in lines),
        capture_output=True,
        text=True,
        env=hazard_env(tmp_path),
        timeout=WAIT,
        check=False,
    )


def exchanges(output: str, prompt: str) -> list[tuple[str, list[str]]]:
    """A transcript cut at each prompt: what was typed there (echoed) and the lines the game answered."""
    turns = []
    for chunk in output.split(prompt)[1:]:
        typed, _, answer = chunk.partition("\n")
        turns.append((typed, answer.splitlines()))
    return turns


class Terminal:
    """A ``hazard`` process typed at line by line."""

    def __init__(self, tmp_path: Path, *args: str) -> None:
        self.process = subprocess.Popen(
            [*AT_A_KEYBOARD, *args],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            # A game that hangs is sent SIGABRT (_close): the fault handler prints where each thread stood.
            env={**hazard_env(tmp_path), "PYTHONFAULTHANDLER": "1"},
        )
        assert self.process.stdout is not None
        self._out = self.process.stdout
        self._selector = selectors.DefaultSelector()
        self._selector.register(self._out, selectors.EVENT_READ)
        self.output = ""
        self._seen = 0

    def expect(self, text: str, timeout: float = WAIT) -> str:
        """Wait until ``text`` appears after what was last expected; everything printed up to it."""
        deadline = time.monotonic() + timeout
        while text not in self.output[self._seen :]:
            left = deadline - time.monotonic()
            if left <= 0 or not self._selector.select(left):
                raise AssertionError(f"timed out waiting for {text!r}; the game printed:\n{self.output}")
            chunk = os.read(self._out.fileno(), 65536)
            if not chunk:
                raise AssertionError(f"the game ended before printing {text!r}:\n{self.output}")
            self.output += chunk.decode()
        end = self.output.index(text, self._seen) + len(text)
        seen, self._seen = self._seen, end
        return self.output[seen:end]

    def send(self, line: str) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write(f"{line}\n".encode())
        self.process.stdin.flush()

    def kill(self) -> int:
        """Kill the game outright (``kill -9``): no chance to tidy up."""
        self.process.send_signal(signal.SIGKILL)
        return self._close()

    def interrupt(self) -> int:
        """Press Ctrl-C while the game waits for a line.

        A signal that lands between the prompt and the read that follows it is only noticed once that read
        returns (CPython checks for signals when a read is interrupted), so first wait for the game to be
        blocked in the read, as it is whenever a person presses the keys.
        """
        self._wait_reading()
        self.process.send_signal(signal.SIGINT)
        return self._close()

    def _wait_reading(self, timeout: float = WAIT) -> None:
        where = Path(f"/proc/{self.process.pid}/wchan")  # Linux: the kernel function the process sleeps in
        if not where.exists():  # pragma: no cover - elsewhere, the prompt has to do
            return
        deadline = time.monotonic() + timeout
        while "read" not in where.read_text():
            if time.monotonic() > deadline:
                raise AssertionError(f"the game never waited for input; it printed:\n{self.output}")
            time.sleep(0.01)

    def _close(self) -> int:
        try:
            code = self.process.wait(timeout=WAIT)
        except subprocess.TimeoutExpired:
            # Hung: SIGABRT makes the faulthandler print every thread's stack, and the failure shows it.
            self.process.send_signal(signal.SIGABRT)
            self.process.wait(timeout=WAIT)
            self.output += self._out.read().decode(errors="replace")
            hung = f"the game did not end within {WAIT:.0f} s; it printed:\n{self.output}"
            raise AssertionError(hung) from None
        self.output += self._out.read().decode()
        self._selector.close()
        self._out.close()
        if self.process.stdin is not None:
            self.process.stdin.close()
        return code
