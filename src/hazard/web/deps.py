"""What the routes are given (FastAPI dependencies, as the full-stack FastAPI template's ``deps.py``): the
server's services, the table number, and who a request comes from, looked up once here from its token.

A token is an ``Authorization: Bearer TOKEN`` header, else the page's cookie for the table (the host's or
the seat's). Looking up whose a token is never refuses anything: a route says what its caller may not do,
after the request has been read and checked (a malformed request is refused as such first, as before the
routes had dependencies).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated

from fastapi import Depends, Path, Request, WebSocket
from fastapi.responses import Response

from hazard.core.errors import InvalidError, quoted
from hazard.table import MAX_GAME, RevealSigner, SeatKey
from hazard.web.hub import Hub
from hazard.web.limits import Quotas
from hazard.web.pages import Pages, Viewer
from hazard.web.records import Exports

__all__ = [
    "GAME",
    "ActingDep",
    "Caller",
    "GameNumber",
    "HostDep",
    "HubDep",
    "ModeDep",
    "SeatDep",
    "Seater",
    "SeaterDep",
    "Services",
    "ServicesDep",
    "ViewerDep",
    "address",
    "bearer",
    "services_of",
    "set_cookie",
    "token",
]

GAME = Path(ge=1, le=MAX_GAME, description="the table's number")
GameNumber = Annotated[int, GAME]


@dataclass(frozen=True, slots=True)
class Services:
    """What every route works with, made once by :func:`~hazard.web.app.create_app`."""

    hub: Hub
    pages: Pages
    exports: Exports
    quotas: Quotas
    signer: RevealSigner


def services_of(request: Request) -> Services:
    """The server's services, as :func:`~hazard.web.app.create_app` made them."""
    return request.app.state.services  # type: ignore[no-any-return]  # set by create_app


# The dependencies are coroutines, though they never wait: FastAPI runs a plain function's dependency in its
# thread pool, and the hop there and back (twice for an action: the hub, the services) cost a fifth of the
# server's CPU per action under load (docs/benchmarks.md).
async def services(request: Request) -> Services:
    return services_of(request)


async def hub(request: Request) -> Hub:
    return services_of(request).hub


ServicesDep = Annotated[Services, Depends(services)]
HubDep = Annotated[Hub, Depends(hub)]


def bearer(request: Request | WebSocket) -> str | None:
    """The token of an ``Authorization: Bearer TOKEN`` header ("" for an empty one), or None."""
    header = request.headers.get("authorization", "")
    return header[7:].strip() if header[:7].lower() == "bearer " else None


def token(request: Request | WebSocket, game: int, role: str | None = None) -> str | None:
    """The token a request carries: ``Authorization: Bearer``, else the page's cookie for the table (the
    host's or the seat's: ``role``, else as the page's ``X-Hazard-Role`` header says)."""
    given = bearer(request)
    if given is not None:
        return given or None
    if role is None:
        role = request.headers.get("x-hazard-role", "seat")
    name = f"hazard_host_{game}" if role == "host" else f"hazard_seat_{game}"
    return request.cookies.get(name)


def set_cookie(response: Response, game: int, role: str, token: str) -> None:
    """The seat's (or host's) cookie. SameSite=Lax: a link followed from chat or mail (a top-level GET, which
    only reads) carries it, so the player lands in his seat; a cross-site POST does not, and every request
    that changes anything is refused unless it comes from the table's own pages (:mod:`hazard.web.origin`)."""
    response.set_cookie(
        f"hazard_{role}_{game}", token, httponly=True, samesite="lax", max_age=60 * 60 * 24 * 60, path="/"
    )


def address(request: Request) -> str:
    """The address a request came from, by which tables and seats are counted."""
    return request.client.host if request.client is not None else "?"


@dataclass(frozen=True, slots=True)
class Caller:
    """Who a request comes from at a table: the token it carries and the seat key it is (None: nobody's, a
    spectator's)."""

    token: str | None
    key: SeatKey | None

    @property
    def is_host(self) -> bool:
        return self.key is not None and self.key.is_host


async def _caller(hub: Hub, request: Request, game: int, role: str | None) -> Caller:
    given = token(request, game, role)
    return Caller(given, await hub.holder(game, given))


async def acting(hub: HubDep, request: Request, game: GameNumber) -> Caller:
    """The caller as an action's sender: the host or a seat, as the page's role header says."""
    return await _caller(hub, request, game, None)


async def seat(hub: HubDep, request: Request, game: GameNumber) -> Caller:
    """The caller by the seat's token."""
    return await _caller(hub, request, game, "seat")


async def host(hub: HubDep, request: Request, game: GameNumber) -> Caller:
    """The caller by the host's token."""
    return await _caller(hub, request, game, "host")


@dataclass(frozen=True, slots=True)
class Seater:
    """Who seats the player a request names: a Bearer token's holder (the host seats anyone; a seat's holder
    nobody, as the hub says), the host's cookie where the page says it acts as host (``as_host``), else
    nobody (``caller`` None): the player sits himself down."""

    caller: Caller | None
    as_host: bool = False


async def seater(hub: HubDep, request: Request, game: GameNumber) -> Seater:
    if bearer(request) is not None:
        return Seater(await _caller(hub, request, game, None))
    if request.headers.get("x-hazard-role") == "host":
        return Seater(await _caller(hub, request, game, "host"), as_host=True)
    return Seater(None)


async def view_mode(game: GameNumber, mode: str = "table") -> str:
    """A view's mode, checked once the table's number is (and before anything about the table is looked
    up)."""
    if mode not in ("table", "referee", "screen"):
        raise InvalidError(f"invalid mode {quoted(mode)}: expected table, referee or screen")
    return mode


async def viewer(hub: HubDep, request: Request, game: GameNumber) -> Viewer:
    """Who a page is for: the seat its cookie (or token) holds, and whether it holds the host's keys."""
    async with hub.current(game):  # a table that another server has moved on is caught up first
        pass
    by_seat = await _caller(hub, request, game, "seat")
    by_host = await _caller(hub, request, game, "host")
    return Viewer(seat=await hub.seated(game, by_seat.key), host=by_host.is_host or by_seat.is_host)


ActingDep = Annotated[Caller, Depends(acting)]
SeatDep = Annotated[Caller, Depends(seat)]
HostDep = Annotated[Caller, Depends(host)]
SeaterDep = Annotated[Seater, Depends(seater)]
ModeDep = Annotated[str, Depends(view_mode)]
ViewerDep = Annotated[Viewer, Depends(viewer)]
