"""The web table's server: the JSON API, the live socket and the pages, over one :class:`~hazard.web.hub.Hub`.

Nothing here decides anything about the game: requests are parsed, handed to the hub (which hands them to
:mod:`hazard.table`), and the answer rendered. Every refusal is one JSON object (:mod:`hazard.web.refusals`),
``{"error": MESSAGE, "said": ...}``, with the table service's own message: 422 for what is malformed,
409 for what is not allowed now, 403 for acting for someone else (or as a spectator), 404 for a table that
is not there, 413 for a body too large and 429 for too many requests.
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator
from dataclasses import dataclass, field

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.routing import BaseRoute, Match

from hazard.core.errors import HazardError
from hazard.table import GameStore, game_number_refusal
from hazard.web import (
    comparison,
    designer,
    docs,
    drilling,
    invite,
    routes_api,
    routes_pages,
    routes_socket,
    tablecard,
)
from hazard.web.bodies import REFUSALS
from hazard.web.deps import Services
from hazard.web.direct import DirectActions
from hazard.web.headers import HeadersMiddleware
from hazard.web.hub import IDLE, Hub
from hazard.web.limits import Limits, LimitsMiddleware, Quotas, Throttled, throttled_answer
from hazard.web.origin import SameOriginMiddleware
from hazard.web.pages import Pages
from hazard.web.records import Exports
from hazard.web.refusals import RefusedAction, http_answer, refusal, refusal_answer

__all__ = ["WebConfig", "create_app"]


@dataclass(frozen=True, slots=True)
class WebConfig:
    """How a server runs: its record, and its limits."""

    db: str | None = None
    limits: Limits = field(default_factory=Limits)
    poll: float = 0.5
    idle: float = IDLE
    """Seconds after which a table nobody follows or asks for is let go from memory (read again if asked)."""
    claim_minutes: float = 30.0
    """How long a late arrival's claim link works, unused (it works once)."""
    base_url: str | None = None
    """The address players reach this server at (``https://hazard.example``), for the invite link and its
    QR code; None: the address each request reached it at."""


_ROUTERS = (
    routes_api.router,
    routes_socket.router,
    routes_pages.router,
    invite.router,
    docs.router,
    comparison.router,
    tablecard.router,
    designer.router,
    drilling.router,
)
"""The server's routers, in the order they are tried."""


def _methods(app: FastAPI, request: Request) -> list[str]:
    """The methods of every route at the request's path (read off the routers themselves: an included
    router is one route of the application, not its routes)."""
    methods: set[str] = set()
    routes = [*app.router.routes, *(route for router in _ROUTERS for route in router.routes)]
    for route in routes:
        if isinstance(route, BaseRoute) and route.matches(request.scope)[0] is not Match.NONE:
            methods.update(getattr(route, "methods", None) or ())
    return sorted(methods)


def create_app(config: WebConfig | None = None) -> FastAPI:
    """The server's application, on the record ``config.db`` names (the user's data folder by default)."""
    config = config or WebConfig()
    store = GameStore.open(config.db)
    # Both keys are read (or made) now: a server given a wrong or unreadable key refuses to start, saying so.
    signer = store.keys.signer()
    store.keys.sealer()
    hub = Hub(store, poll=config.poll, idle=config.idle, claim_ttl=config.claim_minutes * 60)

    @contextlib.asynccontextmanager
    async def lifespan(_: FastAPI) -> AsyncIterator[None]:
        await hub.start()
        try:
            yield
        finally:
            await hub.stop()
            store.close()

    app = FastAPI(
        title="hazard",
        summary="A table of the dice game Hazard, played from any browser",
        description=(
            "Tables with the server's provably fair dice or a referee's real dice. Actions are the terminal "
            "game's text (call 7, throw, stake 5, offer 2 on 4 or 10 before 7, take 3, cancel 3, withdraw, "
            "pass). Seat and host tokens go in `Authorization: Bearer TOKEN`."
        ),
        lifespan=lifespan,
        # /docs is ours (hazard.web.docs): Swagger UI from this server, not a CDN; no ReDoc
        docs_url=None,
        redoc_url=None,
        responses=REFUSALS,  # every operation may be refused (429 by the limits, at least)
    )
    app.state.hub = hub
    app.state.base_url = config.base_url
    app.state.services = Services(hub, Pages(hub), Exports(store), Quotas(config.limits), signer)
    # The innermost: the action route's ordinary requests answered past FastAPI's generic path, inside the
    # limits, the origin check and the headers (hazard.web.direct).
    app.add_middleware(DirectActions)
    app.add_middleware(LimitsMiddleware, limits=config.limits)
    app.add_middleware(SameOriginMiddleware)
    app.add_middleware(HeadersMiddleware)  # the outermost: refusals of the limits carry the headers too

    @app.exception_handler(HazardError)
    async def _hazard(_: Request, error: HazardError) -> JSONResponse:
        return refusal_answer(error)

    @app.exception_handler(RefusedAction)
    async def _refused(_: Request, refused: RefusedAction) -> JSONResponse:
        return refusal_answer(refused)

    @app.exception_handler(Throttled)
    async def _throttled(_: Request, error: Throttled) -> JSONResponse:
        return throttled_answer(error)

    @app.exception_handler(RequestValidationError)
    async def _malformed(_: Request, error: RequestValidationError) -> JSONResponse:
        problems = []
        for problem in error.errors()[:3]:
            if tuple(problem.get("loc", ())) == ("path", "game"):  # one refusal of a game number everywhere
                return refusal(422, str(game_number_refusal(problem.get("input"))))
            where = ".".join(str(part) for part in problem.get("loc", ()) if part != "body") or "body"
            problems.append(f"{where}: {problem.get('msg', 'invalid')}")
        return refusal(422, "invalid request: " + "; ".join(problems))

    @app.exception_handler(StarletteHTTPException)
    async def _http(request: Request, error: StarletteHTTPException) -> JSONResponse:
        answer = http_answer(error)
        if error.status_code == 405:  # Allow: every method the path takes (Starlette names one route's)
            answer.headers["allow"] = ", ".join(_methods(app, request))
        return answer

    @app.exception_handler(Exception)
    async def _unexpected(_: Request, error: Exception) -> JSONResponse:  # pragma: no cover - a bug
        return refusal(500, f"internal error ({type(error).__name__}); the record is unchanged")

    for router in _ROUTERS:
        app.include_router(router)
    return app
