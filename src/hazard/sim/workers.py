"""Running a study's blocks on a pool of threads, a few at a time, each folded in as soon as it can be.

The kernels release the GIL, so threads use every core. Blocks are made only when handed out, at most two
per thread ahead, and each result is folded into the study in block order as soon as the blocks before it
are in: the bookkeeping costs the same for every block and holds at most a few results, however many blocks
a study has (a million blocks are a thousand times the work of a thousand, and no more). A Ctrl-C cancels
what was handed out ahead and keeps the unbroken run of blocks from the first, so a study cut short is the
same as a shorter study.
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Callable
from concurrent.futures import FIRST_COMPLETED, Executor, Future, ThreadPoolExecutor, wait
from dataclasses import dataclass
from typing import TypeVar

from hazard.core.errors import HazardError, InvalidError

__all__ = ["PROGRESS_INTERVAL", "Pool", "PoolFailed", "run_blocks"]

T = TypeVar("T")

PROGRESS_INTERVAL = 0.1
"""Seconds between calls of ``progress``, at least (the last block is always reported)."""


class PoolFailed(InvalidError):
    """A block could not be played where a :class:`Pool` sent it (a worker lost, a broken installation)."""


@dataclass(frozen=True, slots=True)
class Pool:
    """Where a study's blocks run other than on this machine's threads: an executor (a cluster's, see
    ``hazard.sim.cluster``) and how many blocks it runs at once."""

    executor: Executor
    width: int


def run_blocks(
    blocks: int,
    play: Callable[[int], T],
    fold: Callable[[T], None],
    *,
    threads: int,
    progress: Callable[[], None] | None = None,
    name: str = "hazard-sim",
    pool: Pool | None = None,
) -> tuple[int, bool]:
    """Run ``play(0)`` ... ``play(blocks - 1)`` on ``threads`` threads, handing each result to ``fold`` in
    block order (from this thread); return how many blocks were folded, and whether a Ctrl-C cut it short.

    ``progress`` is called after blocks are folded, at most every :data:`PROGRESS_INTERVAL` seconds. An
    error in a block is raised here once the blocks under way have finished. With ``pool`` the blocks run
    on its executor, ``pool.width`` at a time, instead of on ``threads`` threads here; the results are the
    same, folded in the same order.

    >>> folded = []
    >>> run_blocks(4, lambda n: n * n, folded.append, threads=2)
    (4, False)
    >>> folded
    [0, 1, 4, 9]
    """
    if pool is None:
        pool = Pool(ThreadPoolExecutor(max_workers=max(threads, 1), thread_name_prefix=name), max(threads, 1))
        own = True
    else:
        own = False
    executor, width = pool.executor, max(pool.width, 1)
    running: deque[Future[T]] = deque()  # in block order: the first is the next to fold
    handed = folded = 0
    interrupted = False
    shown = time.monotonic()
    try:
        while folded < blocks:
            while handed < blocks and len(running) < 2 * width:
                running.append(executor.submit(play, handed))
                handed += 1
            wait([running[0]], return_when=FIRST_COMPLETED)  # the next in order; others finish meanwhile
            while running and running[0].done():
                fold(_result(running.popleft(), folded, own))
                folded += 1
            now = time.monotonic()
            if progress is not None and (now - shown >= PROGRESS_INTERVAL or folded == blocks):
                shown = now
                progress()
    except KeyboardInterrupt:
        interrupted = True
        for future in running:
            future.cancel()
        wait(running)
        # what finished in order after the interrupt is kept too: a study cut short is a prefix
        while running and running[0].done() and not running[0].cancelled():
            future = running.popleft()
            if future.exception() is not None:
                break
            fold(future.result())
            folded += 1
    finally:
        if own:
            executor.shutdown(wait=True, cancel_futures=True)
    return folded, interrupted


def _result(future: Future[T], block: int, own: bool) -> T:
    """A block's result; where a pool played it, its failure as one clear error (a bug here is raised as
    it is)."""
    if own:
        return future.result()
    try:
        return future.result()
    except HazardError:
        raise
    except Exception as error:  # the cluster's own failure: a worker lost, a worker that cannot import
        raise PoolFailed(
            f"block {block} of the study failed on the cluster: {type(error).__name__}: {error}"
        ) from None
