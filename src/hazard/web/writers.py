"""The hub's writer: one thread that runs the record's writes in batches, each batch one transaction.

An action's write is mostly the commit (on SQLite a sync to disk, on PostgreSQL a round trip), so a server
with many tables commits the writes that are waiting together, once (group commit: :meth:`GameStore.batch`).
Each write is still refused or made on its own; what none of them may do is tell anyone before the batch has
committed, so each job's answer is handed back only then. When the commit fails, every job of the batch is
answered with :class:`Uncommitted`: the sessions those jobs moved on are ahead of the record, and the hub
drops them (a table is loaded again from the record when next needed).
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import queue
import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar

from hazard.table import GameStore, RecordUnavailable

__all__ = ["MAX_BATCH", "Uncommitted", "Writer"]

_T = TypeVar("_T")

MAX_BATCH = 64
"""The most writes one transaction takes: a bound on what a failed commit costs, and on one batch's wait."""


class Uncommitted(RecordUnavailable):
    """A write made inside a batch whose commit failed: nothing of it is in the record."""


@dataclass(frozen=True, slots=True)
class _Job:
    work: Callable[[], Any]
    loop: asyncio.AbstractEventLoop
    future: asyncio.Future[Any]


class Writer:
    """One thread writing to ``store``, taking every job waiting (up to :data:`MAX_BATCH`) into one batch.

    One thread serves SQLite and PostgreSQL alike: SQLite's writers hold one lock in turn anyway, and on
    PostgreSQL the batches grow while one commits, which measured faster than several writers taking turns
    on the interpreter (docs/benchmarks.md, "The web table under load").
    """

    def __init__(self, store: GameStore) -> None:
        self.store = store
        self._jobs: queue.SimpleQueue[_Job | None] = queue.SimpleQueue()
        self._thread = threading.Thread(target=self._serve, name="hazard-write", daemon=True)
        self._thread.start()

    async def run(self, work: Callable[..., _T], *args: object) -> _T:
        """Run ``work(*args)`` on the writer, in a batch; its result once the batch has committed."""
        loop = asyncio.get_running_loop()
        future: asyncio.Future[_T] = loop.create_future()
        self._jobs.put(_Job(functools.partial(work, *args), loop, future))
        return await future

    def stop(self) -> None:
        """Finish the jobs already given, then end the thread."""
        self._jobs.put(None)
        self._thread.join()

    def _serve(self) -> None:
        while (first := self._jobs.get()) is not None:
            jobs = [first]
            stopping = False
            while len(jobs) < MAX_BATCH:
                try:
                    job = self._jobs.get_nowait()
                except queue.Empty:
                    break
                if job is None:  # a stop: this batch first, then end
                    stopping = True
                    break
                jobs.append(job)
            self._write(jobs)
            if stopping:
                return

    def _write(self, jobs: list[_Job]) -> None:
        done: list[tuple[bool, Any]] = []
        try:
            with self.store.batch():
                for job in jobs:
                    try:
                        done.append((True, job.work()))
                    except RecordUnavailable:
                        raise  # the database failed under the batch: none of it is written
                    except Exception as error:  # the job's own refusal (or a bug): its answer
                        done.append((False, error))
        except Exception as error:  # the commit failed: every job is answered so
            lost = Uncommitted(f"{error} (nothing of this action was written: send it again)")
            for job in jobs:
                _settle(job, False, lost)
            return
        for job, (made, value) in zip(jobs, done, strict=True):
            _settle(job, made, value)


def _settle(job: _Job, made: bool, value: Any) -> None:
    def settle() -> None:
        if job.future.done():  # its sender has gone (cancelled)
            return
        if made:
            job.future.set_result(value)
        else:
            job.future.set_exception(value)

    with contextlib.suppress(RuntimeError):  # the loop has closed: nobody is waiting
        job.loop.call_soon_threadsafe(settle)
