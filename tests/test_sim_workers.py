"""Tests of hazard.sim.workers: every block's result, progress as blocks finish, and Ctrl-C."""

from __future__ import annotations

import threading
from collections.abc import Mapping

import pytest

from hazard.sim.workers import run_blocks


def test_every_block_runs_once_and_its_result_is_kept_by_index() -> None:
    calls: list[int] = []
    lock = threading.Lock()

    def block(n: int) -> int:
        with lock:
            calls.append(n)
        return n * n

    results, interrupted = run_blocks([lambda n=n: block(n) for n in range(9)], threads=2)
    assert results == {n: n * n for n in range(9)}
    assert sorted(calls) == list(range(9))
    assert not interrupted


def test_progress_sees_the_results_grow() -> None:
    seen: list[int] = []
    run_blocks([lambda: 1] * 5, threads=1, progress=lambda done: seen.append(len(done)))
    assert seen == sorted(seen)
    assert seen[-1] == 5


def test_an_interrupt_keeps_what_finished_and_runs_nothing_more() -> None:
    started: list[int] = []

    def block(n: int) -> int:
        started.append(n)
        return n

    def stop(done: Mapping[int, int]) -> None:
        raise KeyboardInterrupt  # Ctrl-C as the first block finishes

    results, interrupted = run_blocks([lambda n=n: block(n) for n in range(50)], threads=1, progress=stop)
    assert interrupted
    assert results  # the finished block is kept ...
    assert set(results) <= set(started)
    assert len(started) <= 3  # ... and only the few handed out ahead were ever begun


def test_an_error_in_a_block_is_raised() -> None:
    def broken() -> int:
        raise ValueError("boom")

    with pytest.raises(ValueError, match="boom"):
        run_blocks([broken], threads=1)
