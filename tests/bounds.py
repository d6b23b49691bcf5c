"""The bound on how long a parser, a loader or an analysis may take: no hang, however hostile the input.

The bound is on the CPU time of the calling thread, not the wall clock. A wall clock counts every other
process on the machine: with the suite on every core and other work beside it, a refusal that takes a
tenth of a second of CPU took more than two seconds to come back, and a test of "no hang" failed for the
load. A hang, or work that grows faster than the input, still spends CPU in this thread and is caught. A
wait that spends no CPU (a read from a pipe that never ends) is not: the tests of such reads keep the wall
clock.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager

__all__ = ["within_cpu"]


@contextmanager
def within_cpu(seconds: float, what: str = "the call") -> Iterator[None]:
    """Assert that the body, where it ends normally, spent less than ``seconds`` of this thread's CPU. An
    exception from the body is raised as it is, unchecked (a refusal awaited with ``pytest.raises`` inside
    the body ends it normally).

    >>> with within_cpu(1.0):
    ...     _ = sum(range(1000))
    >>> with within_cpu(0.0, "summing"):  # doctest: +ELLIPSIS
    ...     _ = sum(range(100_000))
    Traceback (most recent call last):
    AssertionError: summing took 0... s of CPU: more than 0.0 s
    """
    started = time.thread_time()
    yield
    spent = time.thread_time() - started
    if spent >= seconds:
        raise AssertionError(f"{what} took {spent:.2f} s of CPU: more than {seconds} s")
