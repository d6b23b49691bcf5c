"""Tests of hazard.sim.workers: every block once, folded in block order; bounded bookkeeping; Ctrl-C."""

from __future__ import annotations

import threading
import time

import pytest

from hazard.sim import workers
from hazard.sim.workers import run_blocks


def test_every_block_runs_once_and_is_folded_in_block_order() -> None:
    calls: list[int] = []
    lock = threading.Lock()

    def block(n: int) -> int:
        time.sleep(0.002 * (n % 3))  # finish out of order
        with lock:
            calls.append(n)
        return n * n

    folded: list[int] = []
    assert run_blocks(30, block, folded.append, threads=3) == (30, False)
    assert folded == [n * n for n in range(30)]
    assert sorted(calls) == list(range(30))


def test_at_most_two_blocks_a_thread_are_out_at_once() -> None:
    """The bookkeeping holds a few blocks whatever the study's size: blocks are made when handed out."""
    lock = threading.Lock()
    out = 0
    most = 0
    made: list[int] = []

    def block(n: int) -> int:
        nonlocal out, most
        with lock:
            out += 1
            most = max(most, out)
            made.append(n)
        time.sleep(0.001)
        with lock:
            out -= 1
        return n

    pending: list[int] = []

    def fold(n: int) -> None:
        pending.append(n)
        # when block n is folded, no block beyond n + 2 * threads has been made
        assert max(made) <= n + 2 * 2

    assert run_blocks(200, block, fold, threads=2) == (200, False)
    assert most <= 2
    assert pending == list(range(200))


def test_progress_is_called_after_folds_and_at_most_so_often(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(workers, "PROGRESS_INTERVAL", 3600.0)
    folded: list[int] = []
    seen: list[int] = []
    run_blocks(50, lambda n: n, folded.append, threads=2, progress=lambda: seen.append(len(folded)))
    assert seen == [50]  # the interval never passed: only the last block is reported
    monkeypatch.setattr(workers, "PROGRESS_INTERVAL", 0.0)
    folded.clear()
    seen.clear()
    run_blocks(5, lambda n: n, folded.append, threads=1, progress=lambda: seen.append(len(folded)))
    assert seen == sorted(seen)
    assert seen[-1] == 5


def test_an_interrupt_keeps_an_unbroken_run_from_the_first_and_runs_nothing_more(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(workers, "PROGRESS_INTERVAL", 0.0)
    started: list[int] = []

    def block(n: int) -> int:
        started.append(n)
        return n

    folded: list[int] = []

    def stop() -> None:
        raise KeyboardInterrupt  # Ctrl-C as the first blocks are folded

    count, interrupted = run_blocks(50, block, folded.append, threads=1, progress=stop)
    assert interrupted
    assert folded == list(range(count))  # a prefix ...
    assert count >= 1
    assert len(started) <= 3  # ... and only the few handed out ahead were ever begun


def test_an_error_in_a_block_is_raised() -> None:
    def broken(n: int) -> int:
        raise ValueError("boom")

    with pytest.raises(ValueError, match="boom"):
        run_blocks(1, broken, lambda _: None, threads=1)
