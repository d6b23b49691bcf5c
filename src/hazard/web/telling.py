"""Telling a table's followers at this server (the fan-out): each follower's queue, and what the table's
actor has written or read since they were last told, sent once to every one of them."""

from __future__ import annotations

import asyncio
import contextlib

from hazard.web.livetable import LiveTable, Update

__all__ = ["hang_up", "subscribe", "tell", "unsubscribe"]

_QUEUE = 256
"""Updates waiting for one slow client before it is sent the whole state instead."""


def subscribe(live: LiveTable) -> asyncio.Queue[Update | None]:
    """A new follower of ``live``: its queue, told every update from now on."""
    queue: asyncio.Queue[Update | None] = asyncio.Queue(maxsize=_QUEUE)
    live.listeners.add(queue)
    return queue


def unsubscribe(live: LiveTable, queue: asyncio.Queue[Update | None]) -> None:
    """The follower of ``queue`` follows ``live`` no more."""
    live.listeners.discard(queue)


def hang_up(queue: asyncio.Queue[Update | None]) -> None:
    """End a follower's wait: what it has not taken is dropped, and it is handed None, as at a stop."""
    _drain(queue)
    _offer(queue, None)


def tell(live: LiveTable) -> None:
    """Tell every follower of the table here what its actor has written or read since they were last
    told: each entry once, in order, whoever wrote it (:meth:`hazard.table.LiveGame.take_stream`)."""
    news = live.actor.take_stream()
    if news is None:
        return
    update = live.update(news)
    for queue in list(live.listeners):
        if not _offer(queue, update):
            # A client too slow to take its updates gets the whole state once it catches up.
            _drain(queue)
            _offer(queue, Update(live.seq, state=live.state()))


def _offer(queue: asyncio.Queue[Update | None], update: Update | None) -> bool:
    try:
        queue.put_nowait(update)
    except asyncio.QueueFull:
        return False
    return True


def _drain(queue: asyncio.Queue[Update | None]) -> None:
    with contextlib.suppress(asyncio.QueueEmpty):
        while True:
            queue.get_nowait()
