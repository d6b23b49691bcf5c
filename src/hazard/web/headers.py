"""The headers every answer carries, so that a browser confines what the pages may do.

The pages have no inline script, style or event handler (everything is in ``/static/hazard.js`` and
``/static/hazard.css``), so the policy allows script and style from the server itself only. Nothing may
frame a page (a click on "Leave the table" inside someone else's page), no answer is sniffed as another
type than it says, and no address of a table (which a claim link carries) leaks to another site.

The API's documentation page (FastAPI's ``/docs``, Swagger UI, its files served by this server too) starts
with one inline script: it alone has a policy of its own, :data:`~hazard.web.docs.DOCS_POLICY`, which allows
that script by its hash.
"""

from __future__ import annotations

from hazard.web.docs import DOCS_PATHS, DOCS_POLICY
from hazard.web.limits import App, Message, Receive, Scope, Send

__all__ = ["DOCS_POLICY", "POLICY", "HeadersMiddleware"]

POLICY = (
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; "
    "form-action 'self'; base-uri 'none'; frame-ancestors 'none'"
)
"""The pages' policy: their script, style and sockets from this server only; nothing inline; no framing."""


_COMMON = (
    (b"x-content-type-options", b"nosniff"),
    (b"x-frame-options", b"DENY"),
    (b"referrer-policy", b"same-origin"),
)


class HeadersMiddleware:
    """The ASGI layer that adds the security headers to every HTTP answer, refusals included."""

    def __init__(self, app: App) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        policy = _DOCS_POLICY if scope.get("path") in DOCS_PATHS else _POLICY

        async def with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = [
                    (name, value) for name, value in message.get("headers", ()) if name.lower() not in _NAMES
                ]
                headers.extend(_COMMON)
                headers.append((b"content-security-policy", policy))
                message["headers"] = headers
            await send(message)

        await self.app(scope, receive, with_headers)


_POLICY = POLICY.encode()
_DOCS_POLICY = DOCS_POLICY.encode()
_NAMES = frozenset({name for name, _ in _COMMON} | {b"content-security-policy"})
