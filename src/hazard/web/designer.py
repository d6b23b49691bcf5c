"""The ruleset designer: ``/designer?from=ID``, and the API its script asks on every change.

The page starts from a built-in ruleset and holds a control for each rule of the ruleset format. On every
change its script (``/static/designer.js``) writes the ruleset's TOML text and posts it to
``/api/designer/odds``, which reads it with the ruleset reader itself (:func:`ruleset_from_toml`, no path
ever opened), so a combination a ruleset file may not hold is refused with the same message as the file
would be, in the server's one refusal form. The figures are :func:`hazard.analysis.design_figures`'s,
solved off the event loop and kept by content. ``/api/designer/toml`` answers the ruleset as a file,
written by :func:`ruleset_to_toml`, which ``hazard odds -r FILE`` reads back unchanged.
"""

from __future__ import annotations

import asyncio
from functools import cache, lru_cache
from typing import Annotated, Any

from fastapi import APIRouter, Query
from fastapi.responses import HTMLResponse, Response
from jinja2 import Environment
from pydantic import BaseModel, ConfigDict, Field

from hazard.analysis import design_figures
from hazard.core.errors import InvalidError, sentence
from hazard.core.rules import Ruleset
from hazard.core.rulesets import builtin_rulesets, find_ruleset, ruleset_from_toml, ruleset_to_toml
from hazard.web.bodies import MAX_RULESET_TEXT, REFUSALS
from hazard.web.builtins import built_in_ruleset
from hazard.web.designview import designer_view
from hazard.web.pages import templates

__all__ = ["DesignedRuleset", "designed_odds", "router"]

START = "cotton-1674"
"""The ruleset the page starts from when none is named."""
ORIGIN = "from the designer"
"""How the reader's messages name a designed ruleset: ``invalid ruleset from the designer: ...``."""

router = APIRouter()


class DesignedRuleset(BaseModel):
    """A designed ruleset: the built-in one it started from, and its TOML text as a ruleset file holds it."""

    model_config = ConfigDict(extra="forbid")

    start: str = Field(max_length=64, description="the built-in ruleset it started from, e.g. cotton-1674")
    toml: str = Field(max_length=MAX_RULESET_TEXT, description="the ruleset's text, as a ruleset file")


def _built_in(name: str) -> Ruleset:
    return built_in_ruleset(name, asked="designer", named="start")


def _read(text: str) -> Ruleset:
    """``text`` read as a ruleset file is, its paytable a built-in one or held inline: never a path."""
    try:
        return ruleset_from_toml(text, ORIGIN, paths=False)
    except InvalidError as error:
        # The page shows the reader's own words, less the name of the file (there is none here).
        said = sentence(str(error).removeprefix(f"invalid ruleset {ORIGIN}: "))
        raise InvalidError(str(error), said=said) from None


def designed_odds(start: str, text: str) -> dict[str, Any]:
    """The figures of the ruleset ``text`` and their moves from built-in ``start``'s, with the ruleset's
    text as :func:`ruleset_to_toml` writes it; an :class:`InvalidError` as the ruleset reader words it."""
    return _designed(_built_in(start).id, text)


# A page's changes go back and forth: an answer once solved is kept by its text (at most 256 of 64 KiB).
@lru_cache(maxsize=256)
def _designed(start: str, text: str) -> dict[str, Any]:
    first = find_ruleset(start)
    ruleset = _read(text)
    answer = design_figures(first, ruleset).to_json_dict()
    answer["toml"] = ruleset_to_toml(ruleset)
    return answer


@router.post("/api/designer/odds", summary="A designed ruleset's exact odds", responses=REFUSALS)
async def odds(body: DesignedRuleset) -> dict[str, Any]:
    """Each main's chance for the caster, the house edge per main and over a round, the expected throws and
    rounds kept, and how far each moved from the built-in ruleset the design started from."""
    # Solving a ruleset exactly takes some 50 ms: off the event loop, which serves the tables.
    return await asyncio.to_thread(designed_odds, body.start, body.toml)


def _toml_file(ruleset: Ruleset) -> Response:
    return Response(
        ruleset_to_toml(ruleset),
        media_type="application/toml",
        headers={"content-disposition": f'attachment; filename="{ruleset.id}.toml"'},
    )


_FILE: dict[int | str, dict[str, Any]] = {200: {"content": {"application/toml": {}}}, **REFUSALS}


@router.post(
    "/api/designer/toml", summary="A designed ruleset as a file", response_class=Response, responses=_FILE
)
async def toml_file(body: DesignedRuleset) -> Response:
    """The ruleset as a ruleset file (``application/toml``), as the reader reads it back."""
    _built_in(body.start)
    return _toml_file(await asyncio.to_thread(_read, body.toml))


@router.get(
    "/api/designer/toml", summary="A built-in ruleset as a file", response_class=Response, responses=_FILE
)
async def builtin_file(start: Annotated[str, Query(max_length=64)] = START) -> Response:
    """A built-in ruleset as a file, to start a design of one's own from."""
    return _toml_file(_built_in(start))


@cache
def _templates() -> Environment:
    return templates()


def designer_page(start: str) -> str:
    """The designer starting from built-in ruleset ``start`` (an id or alias)."""
    return _page(_built_in(start).id)


@cache  # one page for each built-in ruleset, the same every time
def _page(start: str) -> str:
    first = find_ruleset(start)
    view = designer_view(first, design_figures(first, first), builtin_rulesets())
    return (
        _templates()
        .get_template("designer.html")
        .render(title=f"Ruleset designer, from {first.id} · Hazard", data={"page": "designer"}, view=view)
    )


@router.get("/designer", response_class=HTMLResponse, include_in_schema=False)
async def designer(
    start: Annotated[str, Query(alias="from", max_length=64)] = START,
) -> HTMLResponse:
    """The designer, starting from a built-in ruleset: a control for each rule, the odds live."""
    return HTMLResponse(await asyncio.to_thread(designer_page, start))
