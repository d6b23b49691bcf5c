"""A table's invite: its link as a QR code (``GET /tables/{id}/invite.svg``), drawn by the server with
``segno`` as SVG, so that a phone at the table can scan the big screen or a host's page.

The link is the table's own address: the server's configured address
(:attr:`~hazard.web.app.WebConfig.base_url`) where it has one, else the origin the request reached it at,
normalised by :func:`~hazard.web.origin.own_origin` (a ``Host`` that is not a host name names nothing, and
is refused). A request that says it comes from another origin's page is refused too: the code is drawn for
the table's own pages, and no other site's page may have this server draw a link under a name it chose.
"""

from __future__ import annotations

import io
import re
from urllib.parse import urlsplit

import segno
from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, Response

from hazard.web.deps import GameNumber, ServicesDep
from hazard.web.origin import from_elsewhere, own_origin
from hazard.web.refusals import refusal_body

__all__ = ["invite_url", "qr_svg", "router"]

router = APIRouter(include_in_schema=False)

_HOST = re.compile(r"[a-z0-9.-]{1,253}|[0-9a-f:.]{2,45}")
"""A host name or an IP address as an origin writes it: what an invite link may name."""


def invite_url(base: str, game: int) -> str:
    """The link that invites a player to table ``game`` of the server at ``base``."""
    return f"{base.rstrip('/')}/tables/{game}"


def qr_svg(url: str) -> str:
    """``url`` as a QR code, an SVG document (dark modules on a light ground, a quiet zone of 4)."""
    out = io.BytesIO()
    segno.make_qr(url, error="m").save(out, kind="svg", scale=4, border=4, dark="#000", light="#fff")
    return out.getvalue().decode("utf-8")


@router.get("/tables/{game}/invite.svg")
async def invite_svg(game: GameNumber, request: Request, services: ServicesDep) -> Response:
    """Table ``game``'s invite link as a QR code, in SVG."""
    await services.hub.table(game)  # refuses (404) a number that names no web table
    elsewhere = from_elsewhere(request.scope)
    if elsewhere is not None:
        return JSONResponse(refusal_body(elsewhere), status_code=403)
    base: str | None = request.app.state.base_url
    if base is None:
        base = own_origin(request.scope)
        if not _HOST.fullmatch(urlsplit(base).hostname or ""):
            return JSONResponse(
                refusal_body("invalid Host header: the invite link is the table's address, which needs one"),
                status_code=400,
            )
    # Vary: each host name the server is reached by draws its own link; no shared cache mixes them
    headers = {"cache-control": "private, max-age=60", "vary": "Host"}
    return Response(qr_svg(invite_url(base, game)), media_type="image/svg+xml", headers=headers)
