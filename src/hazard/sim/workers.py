"""Running a study's blocks on a pool of threads, a few at a time, so that Ctrl-C loses little.

The kernels release the GIL, so threads use every core. Blocks are handed out at most two per thread
ahead, so an interrupted run has only those to cancel; what finished is kept and returned.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait
from typing import TypeVar

__all__ = ["run_blocks"]

T = TypeVar("T")


def run_blocks(
    work: Sequence[Callable[[], T]],
    *,
    threads: int,
    progress: Callable[[Mapping[int, T]], None] | None = None,
    name: str = "hazard-sim",
) -> tuple[dict[int, T], bool]:
    """Run every block of ``work`` on ``threads`` threads; the results by block, and whether interrupted.

    ``progress`` is called with the results so far after each block finishes. A Ctrl-C cancels the blocks
    not yet begun, waits for those under way, and returns every finished block's result.

    >>> results, interrupted = run_blocks([lambda: 1, lambda: 2], threads=2)
    >>> results == {0: 1, 1: 2}, interrupted
    (True, False)
    """
    executor = ThreadPoolExecutor(max_workers=max(threads, 1), thread_name_prefix=name)
    futures: list[Future[T]] = []
    results: dict[int, T] = {}
    interrupted = False

    def collect() -> None:
        for index, future in enumerate(futures):
            if index not in results and future.done() and not future.cancelled():
                results[index] = future.result()

    try:
        queue = list(work)
        while queue or len(results) < len(futures):
            while queue and len(futures) - len(results) < 2 * threads:
                futures.append(executor.submit(queue.pop(0)))
            wait([f for i, f in enumerate(futures) if i not in results], return_when=FIRST_COMPLETED)
            collect()
            if progress is not None:
                progress(results)
    except KeyboardInterrupt:
        interrupted = True
        for future in futures:
            future.cancel()
    finally:
        executor.shutdown(wait=True, cancel_futures=True)
    collect()
    return results, interrupted
