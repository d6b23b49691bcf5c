"""The JSON API's routes: each parses its request, hands it to the hub and renders the answer.

Who a request comes from is looked up once, by the dependencies of :mod:`hazard.web.deps`; a route says only
what that caller may not do.
"""

from __future__ import annotations

import asyncio
from typing import Annotated, Any
from urllib.parse import quote

from fastapi import APIRouter, Query, Request, Response
from fastapi.responses import StreamingResponse

from hazard.analysis.bets import analyse_bet
from hazard.core.errors import HazardError
from hazard.core.numbers import fraction_text
from hazard.core.rules import StakeArrangement
from hazard.core.rulesets import builtin_paytables, builtin_rulesets
from hazard.core.staking import StakingPlan
from hazard.table import (
    MAX_GAME,
    ActorError,
    BotBrains,
    DiceKind,
    GameKind,
    MoneyStyle,
    TableSpec,
    key_json,
    odds_text,
    parse_money,
    parse_odds,
)
from hazard.web.bets import worth
from hazard.web.bodies import REFUSALS, ClaimCode, NewAction, NewBot, NewSeat, NewSeed, NewTable
from hazard.web.deps import (
    ActingDep,
    Caller,
    GameNumber,
    HostDep,
    HubDep,
    SeatDep,
    SeaterDep,
    Services,
    ServicesDep,
    ViewerDep,
    address,
    set_cookie,
)
from hazard.web.hub import token_digest
from hazard.web.records import PAGE
from hazard.web.refusals import RefusedAction
from hazard.web.rules import table_rules

__all__ = ["ACTIONS", "act_as", "router"]

router = APIRouter(prefix="/api")


@router.get("/rulesets", summary="The built-in rulesets and paytables")
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


@router.get("/key", summary="The server's public key, which signs every reveal of its fair dice")
async def public_key(services: ServicesDep) -> dict[str, str]:
    """Compare its fingerprint with an export's (``hazard verify FILE --key PUBLIC_KEY``)."""
    return key_json(services.signer.public_key)


@router.get("/tables", summary="The open tables, newest first")
async def tables(hub: HubDep) -> dict[str, Any]:
    return {"tables": await asyncio.to_thread(hub.open_tables)}


@router.post("/tables", status_code=201, summary="Set up a table", responses=REFUSALS)
async def create_table(
    body: NewTable, request: Request, response: Response, services: ServicesDep
) -> dict[str, Any]:
    spec = _spec(body)
    services.quotas.table(address(request))
    live, token = await services.hub.create(spec, body.money)
    set_cookie(response, live.game, "host", token)
    return {"id": live.game, "host_token": token, "seq": live.seq, "url": f"/tables/{live.game}"}


@router.get("/tables/{game}", summary="A table's state", responses=REFUSALS)
async def table_state(game: GameNumber, hub: HubDep) -> dict[str, Any]:
    async with hub.current(game) as live:  # as the record has it now, whichever server wrote it
        return live.state()


@router.get(
    "/tables/{game}/record",
    summary="The table's whole record, as hazard record export writes",
    response_class=StreamingResponse,
    responses={200: {"content": {"application/json": {}}}, **REFUSALS},
)
async def table_record(game: GameNumber, services: ServicesDep) -> StreamingResponse:
    await services.hub.table(game)
    pieces = await services.exports.stream(game)
    return StreamingResponse(pieces, media_type="application/json")


@router.get("/tables/{game}/entries", summary="The table's record, page by page", responses=REFUSALS)
async def table_entries(
    game: GameNumber,
    services: ServicesDep,
    after: Annotated[int, Query(ge=0, le=MAX_GAME, description="the last entry already read")] = 0,
    limit: Annotated[int, Query(ge=1, le=PAGE, description="how many entries to give")] = PAGE,
) -> dict[str, Any]:
    await services.hub.table(game)
    return await services.exports.page(game, after, limit)


@router.post("/tables/{game}/seats", status_code=201, summary="Sit down", responses=REFUSALS)
async def sit(
    game: GameNumber,
    body: NewSeat,
    *,
    request: Request,
    response: Response,
    seater: SeaterDep,
    services: ServicesDep,
) -> dict[str, Any]:
    if seater.as_host and not (seater.caller is not None and seater.caller.is_host):
        raise ActorError(f"illegal sit at table {game}: only the table's host seats others")
    by = None if seater.caller is None else seater.caller.key
    hub = services.hub
    await hub.table(game)  # no such table: 404, counted as nothing
    services.quotas.seat(address(request))
    name, key, seq, events = await hub.join(game, body.name, body.bankroll, by=by)
    if by is None and key is not None:
        set_cookie(response, game, "seat", key)
        return {"seat": name, "token": key, "claim": None, "claim_url": None, "seq": seq, "events": events}
    # A late arrival seated by the host: the host is given a claim code for him, never his token.
    link = None if key is None else f"/tables/{game}/claim?code={quote(key)}"
    return {"seat": name, "token": None, "claim": key, "claim_url": link, "seq": seq, "events": events}


@router.post("/tables/{game}/claim", summary="Exchange a claim code for a seat token", responses=REFUSALS)
async def claim_token(game: GameNumber, body: ClaimCode, hub: HubDep) -> dict[str, Any]:
    key, token = await hub.claim(game, body.code)
    return {"seat": key.player, "token": token}


@router.post("/tables/{game}/bots", status_code=201, summary="Seat a bot (the host)", responses=REFUSALS)
async def bot(
    game: GameNumber, body: NewBot, request: Request, host: HostDep, services: ServicesDep
) -> dict[str, Any]:
    if not host.is_host:
        raise ActorError(f"illegal sit of a bot at table {game}: only the table's host seats a bot")
    services.quotas.seat(address(request))
    name, _, seq, events = await services.hub.join(
        game, body.name, body.bankroll, by=host.key, bot=body.policy
    )
    return {"seat": name, "seq": seq, "events": events}


ACTIONS = "/tables/{game}/actions"
"""The action route's path under the router's prefix (:data:`router`), which :mod:`hazard.web.direct` reads
too."""


@router.post(ACTIONS, summary="Act", responses=REFUSALS)
async def act(game: GameNumber, body: NewAction, by: ActingDep, services: ServicesDep) -> dict[str, Any]:
    # The players' requests of this route are most often answered by hazard.web.direct, with the same code.
    return await act_as(game, body, by, services)


async def act_as(game: int, body: NewAction, by: Caller, services: Services) -> dict[str, Any]:
    """Make the action ``body`` at table ``game`` for the caller ``by``: the answer of ``POST
    /api/tables/{game}/actions``, however the request reached it (this route, or
    :mod:`hazard.web.direct`); a refusal is raised (:class:`~hazard.web.refusals.RefusedAction`)."""
    if by.key is not None and by.token is not None:
        # One seat's actions are counted by the digest of the token that holds it (a token belongs to one
        # seating: a new player sitting in the same name starts with a bucket of his own).
        whose = f"the seat of {by.key.player}" if by.key.player else "the host"
        services.quotas.action((game, token_digest(by.token)), whose)
    try:
        seq, events = await services.hub.act(
            game, body.action, by=by.key, client=body.id, based_on=body.based_on
        )
    except HazardError as refused:
        seat = by.key.player if by.key is not None else None
        raise RefusedAction(refused, await services.pages.next_step(game, seat)) from refused
    return {"seq": seq, "events": events}


@router.post("/tables/{game}/seed", summary="Set the seat's own seed for a hand", responses=REFUSALS)
async def seed(game: GameNumber, body: NewSeed, by: SeatDep, hub: HubDep) -> dict[str, Any]:
    seq, events = await hub.seed(game, body.hand, body.seed, by=by.key)
    return {"seq": seq, "events": events}


@router.post("/tables/{game}/close", summary="Close the table (the host)", responses=REFUSALS)
async def close(game: GameNumber, by: HostDep, hub: HubDep) -> dict[str, Any]:
    seq = await hub.close(game, by=by.key)
    return {"closed": game, "seq": seq}


@router.get("/tables/{game}/whoami", summary="Who a token is at the table")
async def whoami(viewer: ViewerDep) -> dict[str, Any]:
    return {"seat": viewer.seat, "host": viewer.host}


@router.get("/bet", summary="A side bet's exact chance, fair odds and value to each side")
async def bet(
    proposition: Annotated[str, Query(max_length=500)],
    odds: Annotated[str, Query(max_length=64)] = "1",
    amount: Annotated[str, Query(max_length=64)] = "1",
    money: Annotated[
        MoneyStyle | None, Query(description="also write the values in this money style")
    ] = None,
) -> dict[str, Any]:
    """The figures shown before a side bet is offered: exact, and for the stake given; with ``money``, the
    values to each side also as a page shows them (``+1.50``, ``−1.50``) and the odds in words."""
    analysis = analyse_bet(proposition)
    exact_odds = parse_odds(odds)
    stake = parse_money(amount, what="amount")
    backer = analysis.value(exact_odds) * stake
    shown = (
        {}
        if money is None
        else {
            "odds_text": odds_text(exact_odds),
            "backer_value_text": worth(backer, money),
            "layer_value_text": worth(-backer, money),
        }
    )
    return {
        **shown,
        **analysis.to_json_dict(),
        "odds": fraction_text(exact_odds),
        "amount": fraction_text(stake),
        "backer_value": fraction_text(backer),
        "backer_value_float": float(backer),
        "layer_value": fraction_text(-backer),
        "layer_value_float": float(-backer),
    }


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
