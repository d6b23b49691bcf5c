"""Cross-site request forgery: what a browser sends with the table's cookie must come from the table's pages.

The seat and host cookies are ``SameSite=Lax``, so that a player who follows the table's link from chat or
mail arrives in his seat (a top-level GET, which only reads). Lax keeps them off cross-site POSTs, but not
off requests from another origin of the same site (another port of the same host, or a sibling subdomain),
and not in every browser. So every request that may change something (any method but GET, HEAD and
OPTIONS) is checked here, before any route:

- one that carries ``Authorization: Bearer``: passed (an API client; a page of another origin cannot send
  a token it does not know);
- else one whose ``Origin`` (or, without one, ``Sec-Fetch-Site``) says it comes from another origin: refused
  (403), cookie or none;
- else one that carries a cookie of hazard's but says nothing of where it comes from: refused (403): every
  browser this serves sends ``Origin`` with a POST;
- and a cookie-carrying one to the JSON API must say its body is JSON (``Content-Type: application/json``),
  which no HTML form can send (415 otherwise).

A request with no credential at all (an API client setting up a table, or sitting down) needs neither.
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any
from urllib.parse import urlsplit

from hazard.web.refusals import refusal_body

__all__ = ["SameOriginMiddleware", "cross_site", "from_elsewhere", "own_origin"]

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
App = Callable[[Scope, Receive, Send], Awaitable[None]]

_SAFE = frozenset({"GET", "HEAD", "OPTIONS"})
_COOKIE_PREFIX = "hazard_"


def cross_site(scope: Scope) -> tuple[int, str] | None:
    """Why the request ``scope`` is refused as a possible forgery (its status and message), or None."""
    if scope["type"] != "http" or scope["method"] in _SAFE or _bearer(scope):
        return None
    headers = _headers(scope)
    cookied = any(part.strip().startswith(_COOKIE_PREFIX) for part in headers.get("cookie", "").split(";"))
    where = _elsewhere(headers, _own_origin(scope, headers), cookied=cookied)
    if where is not None:
        return 403, where
    kind = headers.get("content-type", "").split(";")[0].strip().lower()
    if cookied and scope["path"].startswith("/api/") and kind != "application/json":
        return 415, (
            f"invalid request body type {kind[:60]!r}: a request to the API with the table's cookie sends "
            "JSON (Content-Type: application/json)"
        )
    return None


def _bearer(scope: Scope) -> bool:
    """Whether the request carries ``Authorization: Bearer`` (its first such header, as :func:`_headers`
    keeps it), found without reading the rest: most requests that change anything are an API client's."""
    for name, value in scope.get("headers", []):
        if name.lower() == b"authorization":
            return bool(value[:7].lower() == b"bearer ")
    return False


_OWN_PAGES = "must come from the table's own pages (or carry a token in Authorization: Bearer)"


def _elsewhere(headers: dict[str, str], own: str, *, cookied: bool) -> str | None:
    """Why a request seems to come from a page of another origin (or may, carrying a cookie), or None."""
    origin = headers.get("origin")
    fetch_site = headers.get("sec-fetch-site")
    if origin is not None and origin != "null":
        if _normal(origin) != own:
            return f"illegal request from {origin[:100]!r}: a request that may change anything {_OWN_PAGES}"
    elif fetch_site is not None:
        if fetch_site.lower() not in ("same-origin", "none"):
            return (
                f"illegal request from a {fetch_site[:20]!r} page: a request that may change anything "
                f"{_OWN_PAGES}"
            )
    elif cookied or origin == "null":
        return (
            "illegal request: it carries the table's cookie but says nothing of the page it comes from (no "
            f"Origin header); a request that may change anything {_OWN_PAGES}"
        )
    return None


class SameOriginMiddleware:
    """Refuse, before any route, a request that may change something and may be forged
    (:func:`cross_site`)."""

    def __init__(self, app: App) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        refused = cross_site(scope)
        if refused is None:
            await self.app(scope, receive, send)
            return
        status, message = refused
        body = json.dumps(refusal_body(message)).encode()
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


def own_origin(scope: Scope) -> str:
    """This server's origin as request ``scope`` reached it (scheme, host, port), normalised; a ``Host``
    that is not a host name gives ``scheme://`` alone, which names nothing."""
    return _own_origin(scope, _headers(scope))


def from_elsewhere(scope: Scope) -> str | None:
    """Why a GET for something only the table's own pages show seems to come from a page of another
    origin (its ``Origin`` or ``Sec-Fetch-Site`` says so), or None."""
    headers = _headers(scope)
    return _elsewhere(headers, _own_origin(scope, headers), cookied=False)


def _headers(scope: Scope) -> dict[str, str]:
    found: dict[str, str] = {}
    for name, value in scope.get("headers", []):
        key = name.decode("latin-1").lower()
        text = value.decode("latin-1")
        found[key] = f"{found[key]}; {text}" if key == "cookie" and key in found else found.get(key, text)
    return found


def _own_origin(scope: Scope, headers: dict[str, str]) -> str:
    """This server's origin as the request reached it: its scheme and the host it was asked for."""
    scheme = "https" if scope.get("scheme") in ("https", "wss") else "http"
    host = headers.get("host", "")
    if not host:
        server = scope.get("server") or ("", None)
        host = f"{server[0]}:{server[1]}" if server[1] else str(server[0])
    return _normal(f"{scheme}://{host}") or f"{scheme}://"


def _normal(url: str) -> str | None:
    """An origin as scheme, host and port (the scheme's default port left out); None for what is not one."""
    try:
        parts = urlsplit(url.strip())
        port = parts.port
    except ValueError:
        return None
    scheme = parts.scheme.lower()
    if scheme not in ("http", "https") or not parts.hostname:
        return None
    shown = "" if port in (None, {"http": 80, "https": 443}[scheme]) else f":{port}"
    return f"{scheme}://{parts.hostname.lower()}{shown}"
