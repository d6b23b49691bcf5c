"""The action route answered directly: ``POST /api/tables/{id}/actions``, the request a table's players send
most, without FastAPI's generic request path (its exception and exit-stack layers, routing over every
router, dependency solving, body parsing, response validation), where about a quarter of the server's
samples under load went (docs/benchmarks.md, "Server CPU per durable action").

It is an ASGI layer inside the server's limits, origin check and headers (:func:`hazard.web.app.create_app`),
so those apply to it as to every request. It answers only a request that the route would read the ordinary
way: the table's number as plain digits in range, a JSON body (``Content-Type: application/json``) that is
a valid :class:`~hazard.web.bodies.NewAction`. Anything else (a malformed body, a number out of range,
another content type, a mounted root path) is handed on with its body to the route itself
(``hazard.web.routes_api.act``), which refuses it as it always has. So the route is the one the OpenAPI
schema shows, and both answer through the same code: the caller looked up by :func:`hazard.web.deps.acting`,
the action made by :func:`hazard.web.routes_api.act_as`, refused by :mod:`hazard.web.refusals`, the answer's
JSON encoded as FastAPI encodes the route's (:data:`ANSWER`).
"""

from __future__ import annotations

import re
from typing import Any

from fastapi import Request
from pydantic import TypeAdapter, ValidationError
from starlette.exceptions import HTTPException

from hazard.core.errors import HazardError
from hazard.table import MAX_GAME
from hazard.web.bodies import NewAction
from hazard.web.deps import acting, services_of
from hazard.web.limits import App, Message, Receive, Scope, Send, Throttled, throttled_answer
from hazard.web.refusals import RefusedAction, http_answer, refusal_answer
from hazard.web.routes_api import ACTIONS, act_as, router

__all__ = ["ANSWER", "DirectActions"]

_PATH = re.compile(re.escape(router.prefix + ACTIONS).replace(re.escape("{game}"), "([1-9][0-9]{0,17})"))
"""The route's path with a table number as plain digits (no sign, no leading zero: the route reads those)."""
_JSON = re.compile(rb"application/json[ \t]*(;.*)?", re.IGNORECASE | re.DOTALL)
ANSWER: TypeAdapter[dict[str, Any]] = TypeAdapter(dict[str, Any])
"""The route's answer as FastAPI encodes it (its response model, ``dict[str, Any]``, dumped to JSON)."""


class DirectActions:
    """The ASGI layer that answers the action route's ordinary requests itself, and hands on the rest."""

    def __init__(self, app: App) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        game = _game(scope)
        if game is None:
            await self.app(scope, receive, send)
            return
        try:
            body = await _body(receive)
        except HTTPException as error:  # a body past the limit, as the route's handler answers it
            await http_answer(error)(scope, receive, send)
            return
        if body is None:  # the client has gone
            return
        try:
            action = NewAction.model_validate_json(body)
        except ValidationError:  # the route refuses it, in its own words
            await self.app(scope, _replay(body, receive), send)
            return
        request = Request(scope, receive)
        services = services_of(request)
        try:
            done = await act_as(game, action, await acting(services.hub, request, game), services)
        except Throttled as error:
            await throttled_answer(error)(scope, receive, send)
        except (HazardError, RefusedAction) as error:
            await refusal_answer(error)(scope, receive, send)
        else:
            # As a Response would send it, less the making of one: these are its headers.
            answer = ANSWER.dump_json(done)
            headers = [(b"content-length", str(len(answer)).encode()), (b"content-type", b"application/json")]
            await send({"type": "http.response.start", "status": 200, "headers": headers})
            await send({"type": "http.response.body", "body": answer})


def _game(scope: Scope) -> int | None:
    """The table a request of the action route's ordinary form names, or None for any other request."""
    if scope["type"] != "http" or scope["method"] != "POST" or scope.get("root_path"):
        return None
    found = _PATH.fullmatch(scope["path"])
    if found is None or int(found[1]) > MAX_GAME:
        return None
    for name, value in scope["headers"]:
        if name == b"content-type":  # the first, as the route reads it
            return int(found[1]) if _JSON.fullmatch(value) else None
    return None


async def _body(receive: Receive) -> bytes | None:
    """The request's whole body (None: the client went away first)."""
    chunks = []
    while True:
        message = await receive()
        if message["type"] != "http.request":
            return None
        chunks.append(message.get("body", b""))
        if not message.get("more_body", False):
            return b"".join(chunks)


def _replay(body: bytes, receive: Receive) -> Receive:
    """``receive`` with the body already read handed out first, for the route that reads it again."""
    given = False

    async def replayed() -> Message:
        nonlocal given
        if given:
            return await receive()
        given = True
        return {"type": "http.request", "body": body, "more_body": False}

    return replayed
