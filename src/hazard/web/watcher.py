"""Watching the record for what other servers write: the heads of the tables followed here looked at each
poll, and at once where PostgreSQL's LISTEN/NOTIFY says an entry was committed; a table behind its record is
caught up and its news told. Each tick first lets go of the tables idle here (the hub's own rule).

The record stays the truth: a notification only says "look".
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable

from hazard.core.errors import InvalidError
from hazard.table import GameStore
from hazard.web.livetable import LiveTable
from hazard.web.telling import tell

__all__ = ["Watcher"]


class Watcher:
    """The loop that keeps the tables held here (``tables``, the hub's own mapping, read, never changed)
    up with the record ``store``, every ``poll`` seconds, calling ``let_go`` first at each tick."""

    def __init__(
        self, store: GameStore, tables: dict[int, LiveTable], *, poll: float, let_go: Callable[[], object]
    ) -> None:
        self.store = store
        self.tables = tables
        self.poll = poll
        self.let_go = let_go
        self._wake = asyncio.Event()
        self._dirty: set[int] = set()
        """Tables a notification says are behind: looked at at once, the others at the next poll."""
        self._task: asyncio.Task[None] | None = None
        self._stop_listening: Callable[[], None] | None = None
        self._loop: asyncio.AbstractEventLoop | None = None

    def start(self) -> None:
        """Start the loop, and listening for the record's notifications (on the running event loop)."""
        self._loop = asyncio.get_running_loop()
        self._task = asyncio.create_task(self._watch())
        self._stop_listening = self.store.listen(self._woken)

    async def stop(self) -> None:
        """Stop listening and end the loop."""
        self._loop = None  # the listener's thread may still wake once: it finds nobody to tell
        if self._stop_listening is not None:
            self._stop_listening()
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task

    def _woken(self, game: int, seq: int) -> None:
        loop = self._loop
        if loop is not None:
            with contextlib.suppress(RuntimeError):  # the hub has stopped and its loop closed meanwhile
                loop.call_soon_threadsafe(self._notified, game, seq)

    def _notified(self, game: int, seq: int) -> None:
        """An entry was committed: look at its table only if it is open here and behind (this server's own
        entries, which it has already told, wake nothing)."""
        live = self.tables.get(game)
        if live is not None and live.listeners and seq > live.seq:
            self._dirty.add(game)
            self._wake.set()

    async def _watch(self) -> None:
        """Look at the heads of the open tables; where another server has written, catch up and tell."""
        while True:
            woken = False
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), timeout=self.poll)
                woken = True
            self._wake.clear()
            self.let_go()
            dirty, self._dirty = self._dirty, set()
            followed = [game for game, live in self.tables.items() if live.listeners]
            games = [game for game in followed if game in dirty] if woken else followed
            if not games:
                continue
            try:
                heads = await asyncio.to_thread(self.store.heads, games)
            except InvalidError:
                continue  # the record is unreachable for now: look again at the next tick
            for game, head in heads.items():
                live = self.tables.get(game)
                if live is not None and head > live.seq and not live.lock.locked():
                    async with live.lock:
                        if self.tables.get(game) is not live:  # let go meanwhile
                            continue
                        try:
                            await asyncio.to_thread(live.actor.catch_up)
                        except InvalidError:
                            continue
                        tell(live)
