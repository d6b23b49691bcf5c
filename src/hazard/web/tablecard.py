"""The table card as a print-ready page: ``/rules/{id}/card``, one A4 sheet in print, the same content as
``hazard card`` (:func:`hazard.analysis.card.table_card`).

Only built-in ids are taken, for the ruleset and for ``?paytable=`` (the loaders are called with
``paths=False``: a client's name never opens a file); any other name is the server's one refusal, naming the
ids there are.
"""

from __future__ import annotations

from functools import cache
from typing import Annotated

from fastapi import APIRouter, Path, Query
from fastapi.responses import HTMLResponse
from jinja2 import Environment

from hazard.analysis.card import BETS_SOURCE, table_card
from hazard.core.rulesets import (
    find_ruleset,
    paytable_for,
)
from hazard.web.builtins import built_in_paytable, built_in_ruleset
from hazard.web.pages import templates

__all__ = ["card_page", "router"]

router = APIRouter(include_in_schema=False)


@cache
def _templates() -> Environment:
    return templates()


def card_page(ident: str, paytable: str | None = None) -> str:
    """The card page of built-in ruleset ``ident`` (id or alias), under built-in ``paytable`` or its own."""
    ruleset = built_in_ruleset(ident, asked="table card")
    if paytable is None:
        return _page(ruleset.id, None)
    pays = built_in_paytable(paytable, asked="table card")
    pays.check(ruleset)  # a paytable that cannot pay this ruleset's chances is refused as a file's would be
    return _page(ruleset.id, pays.id)


@cache  # built-in ids alone: a few dozen pages in all, each exact and the same every time
def _page(ident: str, paytable: str | None) -> str:
    ruleset = find_ruleset(ident)
    pays = paytable_for(ruleset, paytable)
    card = table_card(ruleset, pays)
    command = f"hazard card -r {ident}" + (f" --paytable {paytable}" if paytable else "") + " -o card.pdf"
    return (
        _templates()
        .get_template("card.html")
        .render(
            title=f"Table card: {card.title} · Hazard",
            data={"page": "card"},
            card=card,
            command=command,
            bets_source=BETS_SOURCE,
        )
    )


@router.get("/rules/{ident}/card", response_class=HTMLResponse)
def card(
    ident: Annotated[str, Path(max_length=80)],
    paytable: Annotated[str | None, Query(max_length=80)] = None,
) -> HTMLResponse:
    """A built-in ruleset's table card, to print on one A4 page."""
    # A plain def: FastAPI runs it in its thread pool, off the event loop (a card not asked for before is
    # solved exactly, some tens of milliseconds).
    return HTMLResponse(card_page(ident, paytable))
