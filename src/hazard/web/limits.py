"""Limits on what one client may ask of the server: the size of a request's body, and how many per second.

A body over :attr:`Limits.body` bytes is refused with 413 before it is read in full (by its Content-Length,
or by counting where there is none). Requests are counted per connection and per client address, each in a
token bucket: a client over its rate gets 429 until its bucket refills. Both answers are the API's one JSON
form, ``{"error": ...}``. Memory stays bounded: the buckets of the least recently seen clients are dropped.
"""

from __future__ import annotations

import json
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable, MutableMapping
from dataclasses import dataclass
from typing import Any

from starlette.exceptions import HTTPException

__all__ = ["Limits", "LimitsMiddleware"]

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
App = Callable[[Scope, Receive, Send], Awaitable[None]]

_CLIENTS = 10_000
"""Buckets kept at once; the least recently seen are dropped first."""


@dataclass(frozen=True, slots=True)
class Limits:
    """What one client may send: ``body`` bytes a request; ``rate`` requests a second on one connection,
    in bursts of ``burst``; and ``address_rate`` a second from one address, over all its connections."""

    body: int = 262_144
    rate: float = 20.0
    burst: float = 40.0
    address_rate: float = 100.0
    address_burst: float = 200.0


class _Buckets:
    def __init__(self, rate: float, burst: float) -> None:
        self.rate = rate
        self.burst = burst
        self._levels: OrderedDict[object, tuple[float, float]] = OrderedDict()

    def take(self, key: object, now: float) -> bool:
        level, then = self._levels.pop(key, (self.burst, now))
        level = min(self.burst, level + (now - then) * self.rate)
        allowed = level >= 1
        self._levels[key] = (level - 1 if allowed else level, now)
        while len(self._levels) > _CLIENTS:
            self._levels.popitem(last=False)
        return allowed


class LimitsMiddleware:
    """The ASGI layer that applies :class:`Limits` to every HTTP request (and to each socket's opening)."""

    def __init__(self, app: App, limits: Limits) -> None:
        self.app = app
        self.limits = limits
        self._connections = _Buckets(limits.rate, limits.burst)
        self._addresses = _Buckets(limits.address_rate, limits.address_burst)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        client = scope.get("client") or ("?", 0)
        now = time.monotonic()
        if not (self._addresses.take(client[0], now) and self._connections.take(tuple(client), now)):
            await self._refuse(scope, send, 429, "too many requests: slow down, then try again")
            return
        if scope["type"] == "websocket":
            await self.app(scope, receive, send)
            return
        declared = dict(scope.get("headers") or ()).get(b"content-length")
        if declared is not None:
            try:
                size = int(declared)
            except ValueError:
                size = -1
            if size < 0 or size > self.limits.body:
                await self._refuse(scope, send, 413, self._too_large(declared.decode("latin-1")[:20]))
                return
        started = False

        async def tracked(message: Message) -> None:
            nonlocal started
            started = started or message["type"] == "http.response.start"
            await send(message)

        try:
            await self.app(scope, self._counted(receive), tracked)
        except _TooLarge:
            if not started:
                await self._refuse(scope, send, 413, self._too_large(f"more than {self.limits.body:,}"))

    def _too_large(self, size: str) -> str:
        return f"invalid request body of {size} bytes: expected at most {self.limits.body:,} bytes"

    def _counted(self, receive: Receive) -> Receive:
        """``receive``, failing a body that grows past the limit (one sent without a Content-Length)."""
        seen = 0
        limit = self.limits.body

        async def counted() -> Message:
            nonlocal seen
            message = await receive()
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > limit:
                    raise _TooLarge(
                        413, f"invalid request body of more than {limit:,} bytes: expected at most {limit:,}"
                    )
            return message

        return counted

    async def _refuse(self, scope: Scope, send: Send, status: int, message: str) -> None:
        if scope["type"] == "websocket":
            await send({"type": "websocket.close", "code": 1008, "reason": message[:120]})
            return
        body = json.dumps({"error": message}).encode()
        await send(
            {
                "type": "http.response.start",
                "status": status,
                "headers": [
                    (b"content-type", b"application/json"),
                    (b"content-length", str(len(body)).encode()),
                ],
            }
        )
        await send({"type": "http.response.body", "body": body})


class _TooLarge(HTTPException):
    """A body that grew past the limit while it was read: the app's handlers answer it as a 413."""
