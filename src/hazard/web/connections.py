"""Limits on the sockets themselves, below HTTP: how many one address may hold open, and how long a client may
take to send its request's headers, so that slow clients (a "slowloris") cannot starve the others.

uvicorn's HTTP protocols have neither: a client that opens a socket and sends half a request line holds a
file descriptor for as long as it likes, and one address may open as many as the process may. Here its
protocol class is wrapped (:func:`guarded`): each new socket is counted by its peer's address when it is
accepted, and one past :attr:`Connections.per_address` (or past what the process's file limit leaves, less a
reserve) is closed at once, before a byte of it is read; a socket whose request line and headers are not all
in within :attr:`Connections.headers` seconds is closed. Between requests, uvicorn's own keep-alive deadline
(:attr:`Connections.keep_alive`) closes an idle socket. A WebSocket keeps its count until it closes.
"""

from __future__ import annotations

import asyncio
import contextlib
import resource
from collections import Counter
from dataclasses import dataclass
from typing import Any

__all__ = ["Connections", "Guard", "guarded", "raise_file_limit"]


@dataclass(frozen=True, slots=True)
class Connections:
    """What one address may hold: ``per_address`` sockets open at once; ``headers`` seconds to send a
    request's line and headers once it has begun (or once the socket opened); ``keep_alive`` seconds idle
    between requests; and ``reserve`` file descriptors kept back from the process's limit, so that the record,
    logs and the listening socket always have one."""

    per_address: int = 64
    headers: float = 5.0
    keep_alive: int = 5
    reserve: int = 64


def raise_file_limit() -> int:
    """Raise this process's soft limit of open files to its hard limit; the soft limit now in force."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard != soft:
        with contextlib.suppress(ValueError, OSError):
            resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    soft, _ = resource.getrlimit(resource.RLIMIT_NOFILE)
    return soft if soft != resource.RLIM_INFINITY else 1 << 20


class Guard:
    """The open sockets of one server, by peer address."""

    def __init__(self, connections: Connections, files: int) -> None:
        self.connections = connections
        self.most = max(1, files - connections.reserve)
        """Sockets open at once over every address: the process's file limit less the reserve."""
        self.open: dict[object, str] = {}
        self.by_address: Counter[str] = Counter()

    def admit(self, transport: asyncio.BaseTransport) -> bool:
        """Count a socket just accepted; False (and not counted) for one over a limit."""
        peer = transport.get_extra_info("peername")
        address = str(peer[0]) if isinstance(peer, tuple) and peer else "?"
        if len(self.open) >= self.most or self.by_address[address] >= self.connections.per_address:
            return False
        self.open[transport] = address
        self.by_address[address] += 1
        return True

    def release(self, transport: object) -> None:
        """A socket closed (whichever protocol held it last); a second call for it does nothing."""
        address = self.open.pop(transport, None)
        if address is not None:
            self.by_address[address] -= 1
            if self.by_address[address] <= 0:
                del self.by_address[address]


def guarded(http: type[Any], websocket: type[Any] | None, guard: Guard) -> tuple[type[Any], type[Any] | None]:
    """uvicorn's protocol classes ``http`` and ``websocket`` with the guard's count and deadlines."""
    deadline = guard.connections.headers

    class Released(websocket or object):  # type: ignore[misc]
        """The WebSocket a guarded socket was upgraded to: its count ends when it closes."""

        def connection_made(self, transport: asyncio.BaseTransport) -> None:
            self._guarded = transport
            super().connection_made(transport)

        def connection_lost(self, exc: Exception | None) -> None:
            guard.release(getattr(self, "_guarded", None))
            super().connection_lost(exc)

    class Guarded(http):  # type: ignore[misc]
        """uvicorn's HTTP protocol, counted by address and given a deadline for each request's headers."""

        _refused = False
        _timer: asyncio.TimerHandle | None = None
        _waiting: object = None

        def connection_made(self, transport: asyncio.BaseTransport) -> None:
            if not guard.admit(transport):
                # Refused before anything is read: the socket is gone at once.
                self._refused = True
                transport.abort()  # type: ignore[attr-defined]
                return
            self._guarded = transport
            super().connection_made(transport)
            self._arm()

        def connection_lost(self, exc: Exception | None) -> None:
            if self._refused:
                return
            self._disarm()
            guard.release(self._guarded)
            super().connection_lost(exc)

        def data_received(self, data: bytes) -> None:
            cycle = self.cycle
            if (cycle is None or cycle.response_complete) and (
                self._timer is None or self._waiting is not cycle
            ):
                self._disarm()
                self._arm()  # a next request begins: its headers have the same deadline
            super().data_received(data)

        def handle_websocket_upgrade(self, *args: Any) -> None:
            self._disarm()  # the socket is the WebSocket's now, counted until it closes
            super().handle_websocket_upgrade(*args)

        def _arm(self) -> None:
            self._waiting = self.cycle
            self._timer = self.loop.call_later(deadline, self._late, self._waiting)

        def _disarm(self) -> None:
            if self._timer is not None:
                self._timer.cancel()
                self._timer = None

        def _late(self, waiting: object) -> None:
            """The deadline: close the socket if no request's headers have come in since it was armed."""
            self._timer = None
            if self.cycle is waiting and not self.transport.is_closing():
                self.transport.close()

    return Guarded, (Released if websocket is not None else None)
