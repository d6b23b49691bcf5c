"""The API's documentation page, ``/docs``: FastAPI's Swagger UI, its script and style served by this server
from the copies the ``fastapi-offline`` package ships, so that the page works with no network and asks no
other site for anything (issue 21). ReDoc is not served: one documentation page is enough, and ReDoc's
script injects styles and starts workers that a strict policy would have to allow.

Swagger UI is started by one inline script, the same on every answer: the page's policy allows that script
by its hash, not every inline script (:data:`DOCS_POLICY`).
"""

from __future__ import annotations

import base64
import functools
import hashlib
import re
from importlib import resources

from fastapi import APIRouter
from fastapi.openapi.docs import get_swagger_ui_html
from fastapi.responses import HTMLResponse, Response

from hazard.core.errors import quoted
from hazard.web.hub import NoSuchTable

__all__ = ["DOCS_PATHS", "DOCS_POLICY", "FAVICON", "router"]

FAVICON = "/static/favicon.svg"
"""The pages' icon (a die's five), the documentation page's too."""

_FILES = {"swagger-ui-bundle.js": "text/javascript", "swagger-ui.css": "text/css"}
"""Swagger UI's files, as ``fastapi-offline`` names them, and their types."""

_SWAGGER = get_swagger_ui_html(
    openapi_url="/openapi.json",
    title="hazard · the API",
    swagger_js_url="/static/docs/swagger-ui-bundle.js",
    swagger_css_url="/static/docs/swagger-ui.css",
    swagger_favicon_url=FAVICON,
    oauth2_redirect_url=None,  # no OAuth2 here: seats and hosts send bearer tokens
)
_PAGE = bytes(_SWAGGER.body).decode().replace("<html>", '<html lang="en">', 1)
"""The page, the same on every answer: its inline script's hash is the policy's."""


def _script_hash(page: str) -> str:
    """The policy's source for the page's one inline script (the one without ``src``)."""
    found = re.search(r"<script>(.*?)</script>", page, re.DOTALL)
    if found is None:  # pragma: no cover - FastAPI's page always starts Swagger UI inline
        raise RuntimeError("Swagger UI's page has no inline script")
    digest = hashlib.sha256(found.group(1).encode()).digest()
    return f"'sha256-{base64.b64encode(digest).decode()}'"


DOCS_POLICY = (
    f"default-src 'none'; script-src 'self' {_script_hash(_PAGE)}; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; base-uri 'none'; frame-ancestors 'none'"
)
"""``/docs`` only: everything from this server, and the one inline script that starts Swagger UI (by its
hash)."""

DOCS_PATHS = frozenset({"/docs"})
"""The paths that answer with :data:`DOCS_POLICY`."""

router = APIRouter(include_in_schema=False)


@router.get("/docs", response_class=HTMLResponse)
async def docs() -> HTMLResponse:
    """The API's OpenAPI page."""
    return HTMLResponse(_PAGE)


@functools.cache
def _read(name: str) -> bytes:
    return resources.files("fastapi_offline").joinpath("static", name).read_bytes()


@router.get("/static/docs/{name}")
async def docs_file(name: str) -> Response:
    """One of Swagger UI's files, from the package (it changes only with the package's version)."""
    if name not in _FILES:
        raise NoSuchTable(f"no such file {quoted(name)}")
    return Response(_read(name), media_type=_FILES[name], headers={"cache-control": "max-age=86400"})
