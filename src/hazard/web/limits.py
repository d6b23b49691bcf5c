"""Limits on what one client may ask of the server: the size of a request's body, and how many per second.

A body over :attr:`Limits.body` bytes is refused with 413 before it is read in full (by its Content-Length,
or by counting where there is none). Requests are counted per connection and per client address, each in a
token bucket: a client over its rate gets 429 until its bucket refills. What costs the server memory or the
record entries is counted again, by what it is (:class:`Quotas`): the tables an address sets up an hour,
the seats it takes, and the actions of each seat (by whoever holds it, so a seat spamming its seed cannot
fill the record). Every such answer is the API's one JSON form, ``{"error": ...}``, with a ``Retry-After``
header saying in how many seconds to try again. Memory stays bounded: the buckets of the least recently seen
clients are dropped.
"""

from __future__ import annotations

import json
import math
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable, MutableMapping
from dataclasses import dataclass
from typing import Any

from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException

from hazard.core.errors import IllegalError
from hazard.web.refusals import refusal, refusal_body

__all__ = ["Limits", "LimitsMiddleware", "Quotas", "Throttled", "throttled_answer"]

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
    in bursts of ``burst``; and ``address_rate`` a second from one address, over all its connections.

    Then, by what is asked: ``tables_per_hour`` tables set up from one address an hour (all of them at once,
    at most); ``seats_per_minute`` seats taken from one address a minute (in bursts of
    ``seats_burst``); and ``seat_rate`` actions a second from one seat, in bursts of ``seat_burst``."""

    body: int = 262_144
    rate: float = 20.0
    burst: float = 40.0
    address_rate: float = 100.0
    address_burst: float = 200.0
    tables_per_hour: float = 30.0
    seats_per_minute: float = 30.0
    seats_burst: float = 30.0
    seat_rate: float = 2.0
    seat_burst: float = 20.0


class _Buckets:
    def __init__(self, rate: float, burst: float) -> None:
        self.rate = rate
        self.burst = burst
        self._levels: OrderedDict[object, tuple[float, float]] = OrderedDict()

    def take(self, key: object, now: float) -> bool:
        return self.wait(key, now) == 0

    def wait(self, key: object, now: float) -> float:
        """Take one from ``key``'s bucket: 0 if there was one, else the seconds until there is one."""
        level, then = self._levels.pop(key, (self.burst, now))
        level = min(self.burst, level + (now - then) * self.rate)
        allowed = level >= 1
        self._levels[key] = (level - 1 if allowed else level, now)
        while len(self._levels) > _CLIENTS:
            self._levels.popitem(last=False)
        return 0.0 if allowed else (1 - level) / self.rate


class Throttled(IllegalError):
    """Too many of something from one client for now: answered 429, with the seconds to wait."""

    def __init__(self, message: str, retry_after: float) -> None:
        super().__init__(message)
        self.retry_after = max(1, math.ceil(retry_after))


def throttled_answer(error: Throttled) -> JSONResponse:
    """The answer to a :class:`Throttled` request: 429, with the seconds to wait in ``Retry-After``."""
    answer = refusal(429, str(error), said=error.said)
    answer.headers["retry-after"] = str(error.retry_after)
    return answer


class Quotas:
    """The buckets of what costs the server: tables and seats by address, actions by seat."""

    def __init__(self, limits: Limits) -> None:
        self._tables = _Buckets(limits.tables_per_hour / 3600, limits.tables_per_hour)
        self._seats = _Buckets(limits.seats_per_minute / 60, limits.seats_burst)
        self._actions = _Buckets(limits.seat_rate, limits.seat_burst)

    def table(self, address: str) -> None:
        """Count a table set up from ``address``; :class:`Throttled` past its hourly number."""
        wait = self._tables.wait(address, time.monotonic())
        if wait:
            raise Throttled(
                f"too many tables set up from {address}: try again in {math.ceil(wait):,} s", wait
            )

    def seat(self, address: str) -> None:
        """Count a seat taken from ``address``."""
        wait = self._seats.wait(address, time.monotonic())
        if wait:
            raise Throttled(f"too many seats taken from {address}: try again in {math.ceil(wait):,} s", wait)

    def action(self, seat: object, who: str) -> None:
        """Count an action of the seat ``seat`` (see ``app._seat_key``), named ``who`` in the refusal."""
        wait = self._actions.wait(seat, time.monotonic())
        if wait:
            raise Throttled(f"too many actions from {who}: slow down, then try again in a moment", wait)


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
        wait = self._addresses.wait(client[0], now) or self._connections.wait(tuple(client), now)
        if wait:
            await self._refuse(
                scope, send, 429, "too many requests: slow down, then try again", retry_after=wait
            )
            return
        if scope["type"] == "websocket":
            await self.app(scope, receive, send)
            return
        declared = None
        for name, value in scope.get("headers") or ():
            if name == b"content-length":  # the last one, as a dict of them would keep
                declared = value
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

    async def _refuse(
        self, scope: Scope, send: Send, status: int, message: str, *, retry_after: float = 0
    ) -> None:
        if scope["type"] == "websocket":
            await send({"type": "websocket.close", "code": 1008, "reason": message[:120]})
            return
        body = json.dumps(refusal_body(message)).encode()
        headers = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]
        if retry_after:
            headers.append((b"retry-after", str(max(1, math.ceil(retry_after))).encode()))
        await send({"type": "http.response.start", "status": status, "headers": headers})
        await send({"type": "http.response.body", "body": body})


class _TooLarge(HTTPException):
    """A body that grew past the limit while it was read: the app's handlers answer it as a 413."""
