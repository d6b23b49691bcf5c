"""The pages' routes: the lobby, a table's page in each of its modes, a late arrival's claim link, and the
static files. Each is rendered by :class:`~hazard.web.pages.Pages` for the viewer the dependencies found."""

from __future__ import annotations

import json
from importlib import resources
from typing import Annotated

from fastapi import APIRouter, Query
from fastapi.responses import HTMLResponse, Response

from hazard.core.errors import quoted
from hazard.table import ClaimError
from hazard.web.deps import GameNumber, ModeDep, ServicesDep, ViewerDep, set_cookie
from hazard.web.hub import NoSuchTable
from hazard.web.pages import Viewer
from hazard.web.proof import proof_page

__all__ = ["router"]

router = APIRouter(include_in_schema=False)


@router.get("/", response_class=HTMLResponse)
async def lobby(services: ServicesDep) -> HTMLResponse:
    return HTMLResponse(await services.pages.lobby())


@router.get("/tables/{game}", response_class=HTMLResponse)
async def table_page(game: GameNumber, viewer: ViewerDep, services: ServicesDep) -> HTMLResponse:
    return HTMLResponse(await services.pages.table(game, viewer, mode="table"))


@router.get("/tables/{game}/view", response_class=HTMLResponse)
async def table_view(
    game: GameNumber, mode: ModeDep, viewer: ViewerDep, services: ServicesDep
) -> HTMLResponse:
    return HTMLResponse(await services.pages.view(game, viewer, mode=mode))


@router.get("/tables/{game}/referee", response_class=HTMLResponse)
async def referee_page(game: GameNumber, viewer: ViewerDep, services: ServicesDep) -> HTMLResponse:
    return HTMLResponse(await services.pages.table(game, viewer, mode="referee"))


@router.get("/tables/{game}/screen", response_class=HTMLResponse)
async def screen_page(game: GameNumber, services: ServicesDep) -> HTMLResponse:
    return HTMLResponse(await services.pages.table(game, Viewer(), mode="screen"))


@router.get("/tables/{game}/proof", response_class=HTMLResponse)
async def dice_proof_page(game: GameNumber, services: ServicesDep) -> HTMLResponse:
    """Every hand's commitment, seeds and throws, which the page's script checks in the browser."""
    await services.hub.table(game)
    export = json.loads(b"".join(await services.exports.stream(game)))
    return HTMLResponse(proof_page(game, export))


@router.get("/tables/{game}/claim", response_class=HTMLResponse)
async def claim_page(
    game: GameNumber, code: Annotated[str, Query(max_length=200)], services: ServicesDep
) -> Response:
    """The page of a late arrival's claim link: it says whose seat the link holds, and its button takes
    it. A GET spends nothing (chat apps fetch links to preview them)."""
    try:
        state = await services.hub.claim_state(game, code)
    except ClaimError as error:
        return HTMLResponse(services.pages.claim(game, code, None, str(error)), status_code=403)
    return HTMLResponse(services.pages.claim(game, code, state, None))


@router.post("/tables/{game}/claim")
async def claim(
    game: GameNumber, code: Annotated[str, Query(max_length=200)], services: ServicesDep
) -> Response:
    """Take the seat a claim link holds: its code is spent, once, for a fresh seat token in a cookie."""
    try:
        _, token = await services.hub.claim(game, code)
    except ClaimError as error:
        return HTMLResponse(services.pages.claim(game, code, None, str(error)), status_code=403)
    response = Response(status_code=303, headers={"location": f"/tables/{game}"})
    set_cookie(response, game, "seat", token)
    return response


@router.get("/static/{name}")
async def static(name: str) -> Response:
    kinds = {
        "hazard.js": "text/javascript",
        "proof.js": "text/javascript",
        "lobby.js": "text/javascript",
        "designer.js": "text/javascript",
        "drill.js": "text/javascript",
        "hazard.css": "text/css",
        "favicon.svg": "image/svg+xml",
    }
    if name not in kinds:
        raise NoSuchTable(f"no such file {quoted(name)}")
    text = resources.files("hazard.web").joinpath("static", name).read_text(encoding="utf-8")
    return Response(text, media_type=kinds[name], headers={"cache-control": "max-age=300"})


@router.get("/favicon.ico")
async def favicon() -> Response:
    """The pages' icon, where a browser asks for it by habit (the pages link ``/static/favicon.svg``)."""
    return await static("favicon.svg")
