"""The web table's server: the JSON API, the live socket and the pages, over one :class:`~hazard.web.hub.Hub`.

Nothing here decides anything about the game: requests are parsed, handed to the hub (which hands them to
:mod:`hazard.table`), and the answer rendered. Every refusal is one JSON object ``{"error": MESSAGE}`` with
the table service's own message: 422 for what is malformed, 409 for what is not allowed now, 403 for acting
for someone else (or as a spectator), 404 for a table that is not there, 413 for a body too large and 429
for too many requests.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from importlib import resources
from typing import Annotated, Any
from urllib.parse import quote

from fastapi import FastAPI, Path, Query, Request, WebSocket, WebSocketDisconnect
from fastapi.exceptions import RequestValidationError
from fastapi.responses import HTMLResponse, JSONResponse, Response, StreamingResponse
from pydantic import BaseModel, ConfigDict, Field
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.routing import BaseRoute, Match

from hazard.analysis.bets import analyse_bet
from hazard.core.errors import HazardError, IllegalError, InvalidError, quoted
from hazard.core.numbers import fraction_text
from hazard.core.rules import StakeArrangement
from hazard.core.rulesets import builtin_paytables, builtin_rulesets
from hazard.core.staking import Staking, StakingPlan
from hazard.table import (
    MAX_GAME,
    ActorError,
    BotBrains,
    BotPolicy,
    ClaimError,
    DiceKind,
    GameKind,
    GameStore,
    Holder,
    MoneyStyle,
    RecordUnavailable,
    StaleError,
    TableSpec,
    game_number_refusal,
    parse_money,
    parse_odds,
)
from hazard.table.signing import key_json
from hazard.web.headers import HeadersMiddleware
from hazard.web.hub import IDLE, Hub, NoSuchTable, token_digest
from hazard.web.limits import Limits, LimitsMiddleware, Quotas, Throttled
from hazard.web.origin import SameOriginMiddleware
from hazard.web.pages import Pages, Viewer
from hazard.web.records import PAGE, Exports
from hazard.web.rules import table_rules

__all__ = ["WebConfig", "create_app"]

MAX_RULESET_TEXT = 65_536
"""The longest ruleset file the lobby takes (the built-in ones are a few kilobytes)."""


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


# --- request bodies (their schema is the OpenAPI page's) ---------------------------------------------------


class _Body(BaseModel):
    model_config = ConfigDict(extra="forbid")


class NewTable(_Body):
    """A table to set up: a built-in ruleset by id, or a ruleset file's text (never a path: the server opens
    no file a client names); the same for its paytable."""

    ruleset: str | None = Field(None, max_length=64, description="a built-in ruleset's id, e.g. wikipedia")
    ruleset_toml: str | None = Field(None, max_length=MAX_RULESET_TEXT, description="a ruleset file's text")
    paytable: str | None = Field(None, max_length=64, description="a built-in paytable's id")
    paytable_toml: str | None = Field(None, max_length=MAX_RULESET_TEXT, description="a paytable file's text")
    stakes: StakeArrangement | None = None
    dice: DiceKind = Field(DiceKind.FAIR, description="fair: the server's fair dice; typed: a referee's")
    money: MoneyStyle = MoneyStyle.DECIMAL
    label: str = Field("", max_length=80)
    bot_unit: str = Field("1", max_length=64, description="what the bots stake")
    bot_staking: Staking = Field(
        Staking.FLAT, description="how a setter bot stakes from its unit: flat, martingale or paroli"
    )


class NewSeat(_Body):
    name: str = Field(max_length=200)
    bankroll: str = Field(max_length=64)


class NewBot(_Body):
    name: str = Field(max_length=200)
    bankroll: str = Field(max_length=64)
    policy: BotPolicy = BotPolicy.SETTER


class NewAction(_Body):
    action: str = Field(max_length=2000, description="the action in the terminal's text form, e.g. call 7")
    id: str | None = Field(None, max_length=200, description="the client's own number for the action")
    based_on: int | None = Field(
        None, ge=0, le=MAX_GAME, description="the last entry the sender saw: refused if the dice moved since"
    )


class ClaimCode(_Body):
    code: str = Field(max_length=200, description="the code of a late arrival's claim link")


class NewSeed(_Body):
    hand: int = Field(ge=1, le=MAX_GAME, description="the hand whose commitment the page saw")
    seed: str = Field(
        max_length=200, description="the seat's own seed for that hand: 1 to 64 printable characters"
    )


class Refusal(BaseModel):
    error: str


_REFUSALS: dict[int | str, dict[str, Any]] = {
    code: {"model": Refusal, "description": what}
    for code, what in (
        (400, "the body is not JSON"),
        (403, "acting for another seat, or as a spectator"),
        (404, "no such table"),
        (409, "not allowed now"),
        (413, "the body is too large"),
        (422, "malformed"),
        (429, "too many requests"),
        (503, "the game record is unreachable or busy for now; nothing was written: try again"),
    )
}
_REFUSALS[429]["headers"] = {
    "Retry-After": {"description": "seconds to wait before trying again", "schema": {"type": "integer"}}
}


def _refusal(status: int, message: str) -> JSONResponse:
    return JSONResponse({"error": message}, status_code=status)


def _status(error: HazardError) -> int:
    if isinstance(error, NoSuchTable):
        return 404
    if isinstance(error, RecordUnavailable):
        return 503
    if isinstance(error, ActorError):
        return 403
    if isinstance(error, IllegalError | StaleError):
        return 409
    return 422


def _bearer(request: Request | WebSocket) -> str | None:
    """The token of an ``Authorization: Bearer TOKEN`` header ("" for an empty one), or None."""
    header = request.headers.get("authorization", "")
    return header[7:].strip() if header[:7].lower() == "bearer " else None


def _methods(app: FastAPI, request: Request) -> list[str]:
    """The methods of every route at the request's path."""
    methods: set[str] = set()
    for route in app.router.routes:
        if isinstance(route, BaseRoute) and route.matches(request.scope)[0] is not Match.NONE:
            methods.update(getattr(route, "methods", None) or ())
    return sorted(methods)


def _address(request: Request) -> str:
    """The address a request came from, by which tables and seats are counted."""
    return request.client.host if request.client is not None else "?"


def _seat_key(game: int, token: str) -> tuple[int, str]:
    """What one seat's actions are counted by: the digest of the token that holds it (a token belongs to
    one seating: a new player sitting in the same name starts with a bucket of his own)."""
    return game, token_digest(token)


def _token(request: Request | WebSocket, game: int, role: str | None = None) -> str | None:
    """The token a request carries: ``Authorization: Bearer``, else the page's cookie for the table."""
    bearer = _bearer(request)
    if bearer is not None:
        return bearer or None
    if role is None:
        role = request.headers.get("x-hazard-role", "seat")
    name = f"hazard_host_{game}" if role == "host" else f"hazard_seat_{game}"
    return request.cookies.get(name)


def _cookie(response: Response, game: int, role: str, token: str) -> None:
    """The seat's (or host's) cookie. SameSite=Lax: a link followed from chat or mail (a top-level GET, which
    only reads) carries it, so the player lands in his seat; a cross-site POST does not, and every request
    that changes anything is refused unless it comes from the table's own pages (:mod:`hazard.web.origin`)."""
    response.set_cookie(
        f"hazard_{role}_{game}", token, httponly=True, samesite="lax", max_age=60 * 60 * 24 * 60, path="/"
    )


def create_app(config: WebConfig | None = None) -> FastAPI:
    """The server's application, on the record ``config.db`` names (the user's data folder by default)."""
    config = config or WebConfig()
    store = GameStore.open(config.db)
    # Both keys are read (or made) now: a server given a wrong or unreadable key refuses to start, saying so.
    signer = store.keys.signer()
    store.keys.sealer()
    hub = Hub(store, poll=config.poll, idle=config.idle, claim_ttl=config.claim_minutes * 60)
    pages = Pages(hub)
    exports = Exports(store)

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
        responses=_REFUSALS,  # every operation may be refused (429 by the limits, at least)
    )
    app.state.hub = hub
    app.add_middleware(LimitsMiddleware, limits=config.limits)
    app.add_middleware(SameOriginMiddleware)
    app.add_middleware(HeadersMiddleware)  # the outermost: refusals of the limits carry the headers too

    quotas = Quotas(config.limits)

    @app.exception_handler(HazardError)
    async def _hazard(_: Request, error: HazardError) -> JSONResponse:
        return _refusal(_status(error), str(error))

    @app.exception_handler(Throttled)
    async def _throttled(_: Request, error: Throttled) -> JSONResponse:
        answer = _refusal(429, str(error))
        answer.headers["retry-after"] = str(error.retry_after)
        return answer

    @app.exception_handler(RequestValidationError)
    async def _malformed(_: Request, error: RequestValidationError) -> JSONResponse:
        problems = []
        for problem in error.errors()[:3]:
            if tuple(problem.get("loc", ())) == ("path", "game"):  # one refusal of a game number everywhere
                return _refusal(422, str(game_number_refusal(problem.get("input"))))
            where = ".".join(str(part) for part in problem.get("loc", ()) if part != "body") or "body"
            problems.append(f"{where}: {problem.get('msg', 'invalid')}")
        return _refusal(422, "invalid request: " + "; ".join(problems))

    @app.exception_handler(StarletteHTTPException)
    async def _http(request: Request, error: StarletteHTTPException) -> JSONResponse:
        answer = _refusal(error.status_code, str(error.detail))
        answer.headers.update(error.headers or {})
        if error.status_code == 405:  # Allow: every method the path takes (Starlette names one route's)
            answer.headers["allow"] = ", ".join(_methods(app, request))
        return answer

    @app.exception_handler(Exception)
    async def _unexpected(_: Request, error: Exception) -> JSONResponse:  # pragma: no cover - a bug
        return _refusal(500, f"internal error ({type(error).__name__}); the record is unchanged")

    # --- the JSON API ---------------------------------------------------------------------------------

    @app.get("/api/rulesets", summary="The built-in rulesets and paytables")
    async def rulesets() -> dict[str, Any]:
        return {
            "rulesets": [
                {"id": r.id, "name": r.name, "paytable": _paytable_id(r.paytable), "stakes": r.stakes.value}
                for r in builtin_rulesets()
            ],
            "paytables": [{"id": p.id, "name": p.name} for p in builtin_paytables()],
            "stakes": [s.value for s in StakeArrangement],
            "dice": [DiceKind.FAIR.value, DiceKind.TYPED.value],
            "money": [m.value for m in MoneyStyle],
        }

    @app.get("/api/key", summary="The server's public key, which signs every reveal of its fair dice")
    async def public_key() -> dict[str, str]:
        """Compare its fingerprint with an export's (``hazard verify FILE --key PUBLIC_KEY``)."""
        return key_json(signer.public_key)

    @app.get("/api/tables", summary="The open tables, newest first")
    async def tables() -> dict[str, Any]:
        return {"tables": await asyncio.to_thread(hub.open_tables)}

    @app.post("/api/tables", status_code=201, summary="Set up a table", responses=_REFUSALS)
    async def create_table(body: NewTable, request: Request, response: Response) -> dict[str, Any]:
        spec = _spec(body)
        quotas.table(_address(request))
        live, token = await hub.create(spec, body.money)
        _cookie(response, live.game, "host", token)
        return {"id": live.game, "host_token": token, "seq": live.seq, "url": f"/tables/{live.game}"}

    @app.get("/api/tables/{game}", summary="A table's state", responses=_REFUSALS)
    async def table_state(game: Annotated[int, _GAME]) -> dict[str, Any]:
        async with hub.current(game) as live:  # as the record has it now, whichever server wrote it
            return live.state()

    @app.get(
        "/api/tables/{game}/record",
        summary="The table's whole record, as hazard record export writes",
        response_class=StreamingResponse,
        responses={200: {"content": {"application/json": {}}}, **_REFUSALS},
    )
    async def table_record(game: Annotated[int, _GAME]) -> StreamingResponse:
        await hub.table(game)
        pieces = await exports.stream(game)
        return StreamingResponse(pieces, media_type="application/json")

    @app.get("/api/tables/{game}/entries", summary="The table's record, page by page", responses=_REFUSALS)
    async def table_entries(
        game: Annotated[int, _GAME],
        after: Annotated[int, Query(ge=0, le=MAX_GAME, description="the last entry already read")] = 0,
        limit: Annotated[int, Query(ge=1, le=PAGE, description="how many entries to give")] = PAGE,
    ) -> dict[str, Any]:
        await hub.table(game)
        return await exports.page(game, after, limit)

    @app.post("/api/tables/{game}/seats", status_code=201, summary="Sit down", responses=_REFUSALS)
    async def sit(
        game: Annotated[int, _GAME], body: NewSeat, request: Request, response: Response
    ) -> dict[str, Any]:
        by = await _seater(hub, request, game)
        await hub.table(game)  # no such table: 404, counted as nothing
        quotas.seat(_address(request))
        name, key, seq, events = await hub.join(game, body.name, body.bankroll, by=by)
        if by is None and key is not None:
            _cookie(response, game, "seat", key)
            return {
                "seat": name,
                "token": key,
                "claim": None,
                "claim_url": None,
                "seq": seq,
                "events": events,
            }
        # A late arrival seated by the host: the host is given a claim code for him, never his token.
        link = None if key is None else f"/tables/{game}/claim?code={quote(key)}"
        return {"seat": name, "token": None, "claim": key, "claim_url": link, "seq": seq, "events": events}

    @app.post(
        "/api/tables/{game}/claim", summary="Exchange a claim code for a seat token", responses=_REFUSALS
    )
    async def claim_token(game: Annotated[int, _GAME], body: ClaimCode) -> dict[str, Any]:
        holder, token = await hub.claim(game, body.code)
        return {"seat": holder.player, "token": token}

    @app.post(
        "/api/tables/{game}/bots", status_code=201, summary="Seat a bot (the host)", responses=_REFUSALS
    )
    async def bot(game: Annotated[int, _GAME], body: NewBot, request: Request) -> dict[str, Any]:
        by = await hub.holder(game, _token(request, game, "host"))
        if by is None or not by.is_host:
            raise ActorError(f"illegal sit of a bot at table {game}: only the table's host seats a bot")
        quotas.seat(_address(request))
        name, _, seq, events = await hub.join(game, body.name, body.bankroll, by=by, bot=body.policy)
        return {"seat": name, "seq": seq, "events": events}

    @app.post("/api/tables/{game}/actions", summary="Act", responses=_REFUSALS)
    async def act(game: Annotated[int, _GAME], body: NewAction, request: Request) -> dict[str, Any]:
        token = _token(request, game)
        by = await hub.holder(game, token)
        if by is not None and token is not None:
            quotas.action(_seat_key(game, token), f"the seat of {by.player}" if by.player else "the host")
        seq, events = await hub.act(game, body.action, by=by, client=body.id, based_on=body.based_on)
        return {"seq": seq, "events": events}

    @app.post("/api/tables/{game}/seed", summary="Set the seat's own seed for a hand", responses=_REFUSALS)
    async def seed(game: Annotated[int, _GAME], body: NewSeed, request: Request) -> dict[str, Any]:
        by = await hub.holder(game, _token(request, game, "seat"))
        seq, events = await hub.seed(game, body.hand, body.seed, by=by)
        return {"seq": seq, "events": events}

    @app.post("/api/tables/{game}/close", summary="Close the table (the host)", responses=_REFUSALS)
    async def close(game: Annotated[int, _GAME], request: Request) -> dict[str, Any]:
        by = await hub.holder(game, _token(request, game, "host"))
        seq = await hub.close(game, by=by)
        return {"closed": game, "seq": seq}

    @app.get("/api/tables/{game}/whoami", summary="Who a token is at the table")
    async def whoami(game: Annotated[int, _GAME], request: Request) -> dict[str, Any]:
        viewer = await _viewer(hub, request, game)
        return {"seat": viewer.seat, "host": viewer.host}

    @app.get("/api/bet", summary="A side bet's exact chance, fair odds and value to each side")
    async def bet(
        proposition: Annotated[str, Query(max_length=500)],
        odds: Annotated[str, Query(max_length=64)] = "1",
        amount: Annotated[str, Query(max_length=64)] = "1",
    ) -> dict[str, Any]:
        return _bet(proposition, odds, amount)

    @app.websocket("/api/tables/{game}/live")
    async def live(websocket: WebSocket, game: int, since: int = -1) -> None:
        await _follow(hub, websocket, game, since)

    # --- pages ----------------------------------------------------------------------------------------

    @app.get("/", response_class=HTMLResponse, include_in_schema=False)
    async def lobby() -> HTMLResponse:
        return HTMLResponse(await pages.lobby())

    @app.get("/tables/{game}", response_class=HTMLResponse, include_in_schema=False)
    async def table_page(game: Annotated[int, _GAME], request: Request) -> HTMLResponse:
        return HTMLResponse(await pages.table(game, await _viewer(hub, request, game), mode="table"))

    @app.get("/tables/{game}/view", response_class=HTMLResponse, include_in_schema=False)
    async def table_view(game: Annotated[int, _GAME], request: Request, mode: str = "table") -> HTMLResponse:
        if mode not in ("table", "referee", "screen"):
            raise InvalidError(f"invalid mode {quoted(mode)}: expected table, referee or screen")
        return HTMLResponse(await pages.view(game, await _viewer(hub, request, game), mode=mode))

    @app.get("/tables/{game}/referee", response_class=HTMLResponse, include_in_schema=False)
    async def referee_page(game: Annotated[int, _GAME], request: Request) -> HTMLResponse:
        return HTMLResponse(await pages.table(game, await _viewer(hub, request, game), mode="referee"))

    @app.get("/tables/{game}/screen", response_class=HTMLResponse, include_in_schema=False)
    async def screen_page(game: Annotated[int, _GAME]) -> HTMLResponse:
        return HTMLResponse(await pages.table(game, Viewer(), mode="screen"))

    @app.get("/tables/{game}/claim", response_class=HTMLResponse, include_in_schema=False)
    async def claim_page(
        game: Annotated[int, _GAME], code: Annotated[str, Query(max_length=200)]
    ) -> Response:
        """The page of a late arrival's claim link: it says whose seat the link holds, and its button takes
        it. A GET spends nothing (chat apps fetch links to preview them)."""
        try:
            state = await hub.claim_state(game, code)
        except ClaimError as error:
            return HTMLResponse(pages.claim(game, code, None, str(error)), status_code=403)
        return HTMLResponse(pages.claim(game, code, state, None))

    @app.post("/tables/{game}/claim", include_in_schema=False)
    async def claim(game: Annotated[int, _GAME], code: Annotated[str, Query(max_length=200)]) -> Response:
        """Take the seat a claim link holds: its code is spent, once, for a fresh seat token in a cookie."""
        try:
            _, token = await hub.claim(game, code)
        except ClaimError as error:
            return HTMLResponse(pages.claim(game, code, None, str(error)), status_code=403)
        response = Response(status_code=303, headers={"location": f"/tables/{game}"})
        _cookie(response, game, "seat", token)
        return response

    @app.get("/static/{name}", include_in_schema=False)
    async def static(name: str) -> Response:
        kinds = {"hazard.js": "text/javascript", "hazard.css": "text/css"}
        if name not in kinds:
            raise NoSuchTable(f"no such file {quoted(name)}")
        text = resources.files("hazard.web").joinpath("static", name).read_text(encoding="utf-8")
        return Response(text, media_type=kinds[name], headers={"cache-control": "max-age=300"})

    return app


_GAME = Path(ge=1, le=MAX_GAME, description="the table's number")


def _paytable_id(paytable: object) -> str | None:
    if paytable is None:
        return None
    return paytable if isinstance(paytable, str) else str(getattr(paytable, "id", ""))


def _spec(body: NewTable) -> TableSpec:
    ruleset, paytable = table_rules(body.ruleset, body.ruleset_toml, body.paytable, body.paytable_toml)
    bots = BotBrains(parse_money(body.bot_unit, what="bot stake unit"), StakingPlan(body.bot_staking))
    return TableSpec(
        ruleset,
        paytable,
        body.stakes,
        body.dice,
        kind=GameKind.WEB,
        label=" ".join(body.label.split()) or None,
        bots=bots,
    )


def _bet(proposition: str, odds_text: str, amount_text: str) -> dict[str, Any]:
    """The figures shown before a side bet is offered: exact, and for the stake given."""
    analysis = analyse_bet(proposition)
    odds = parse_odds(odds_text)
    amount = parse_money(amount_text, what="amount")
    backer = analysis.value(odds) * amount
    return {
        **analysis.to_json_dict(),
        "odds": fraction_text(odds),
        "amount": fraction_text(amount),
        "backer_value": fraction_text(backer),
        "backer_value_float": float(backer),
        "layer_value": fraction_text(-backer),
        "layer_value_float": float(-backer),
    }


async def _seater(hub: Hub, request: Request, game: int) -> Holder | None:
    """Who seats the player a request names: the holder of a Bearer token (the host seats anyone; a seat's
    holder nobody, as the hub says), the host's cookie where the page says it acts as host, else nobody:
    the player sits himself down."""
    if _bearer(request) is not None:
        return await hub.holder(game, _token(request, game))
    if request.headers.get("x-hazard-role") == "host":
        holder = await hub.holder(game, _token(request, game, "host"))
        if holder is None or not holder.is_host:
            raise ActorError(f"illegal sit at table {game}: only the table's host seats others")
        return holder
    return None


async def _viewer(hub: Hub, request: Request, game: int) -> Viewer:
    """Who a page is for: the seat its cookie (or token) holds, and whether it holds the host's keys."""
    async with hub.current(game):  # a table that another server has moved on is caught up first
        pass
    seat = await hub.holder(game, _token(request, game, "seat"))
    host = await hub.holder(game, _token(request, game, "host"))
    return Viewer(
        seat=await hub.seated(game, seat),
        host=(host is not None and host.is_host) or (seat is not None and seat.is_host),
    )


async def _follow(hub: Hub, websocket: WebSocket, game: int, since: int) -> None:
    """Send a client what it missed since entry ``since`` (everything, at -1), then every update as it comes.

    The client says nothing; a client that drops reconnects with the last entry number it saw.
    """
    try:
        live, queue, missed = await hub.follow(game, since)
        first = missed.text
    except HazardError as error:
        await websocket.close(code=4404 if isinstance(error, NoSuchTable) else 4422, reason=str(error)[:120])
        return
    try:
        await websocket.accept()
    except BaseException:
        hub.unsubscribe(live, queue)
        raise
    # The client sends nothing, but its going away must end this at once, not at the table's next update:
    # its reader then hands the queue the same None as a server that stops (one wait per update, no task).
    gone = asyncio.create_task(_closed(websocket))
    gone.add_done_callback(lambda _: hub.hang_up(queue))
    try:
        await websocket.send_text(first)
        while (update := await queue.get()) is not None:
            await websocket.send_text(update.text)
    except (WebSocketDisconnect, RuntimeError):
        pass
    finally:
        gone.cancel()
        hub.unsubscribe(live, queue)
        with contextlib.suppress(RuntimeError, WebSocketDisconnect):
            await websocket.close()


async def _closed(websocket: WebSocket) -> None:
    """Wait until the client goes (whatever it sends meanwhile is read and dropped)."""
    with contextlib.suppress(WebSocketDisconnect, RuntimeError):
        while (await websocket.receive())["type"] != "websocket.disconnect":
            pass
