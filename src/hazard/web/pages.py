"""The pages: server-rendered HTML from Jinja2 templates that escape every value they show, with one small
script served from the package.

The templates (``hazard/web/templates``) hold all the HTML: a base layout, one template per page and a part
per card of a table's view. This module gathers what each needs (:mod:`hazard.web.views`: plain values in
small frozen dataclasses) and renders it through one environment that escapes by default, so no shown text
depends on a call to an escaping helper being remembered.

A table's page is its view (:meth:`Pages.view`) inside a frame; the script follows the table's live socket
and, on each update, fetches the view again and swaps it in, so what a page shows is always rendered here,
from the session, in the table's money style.
"""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime

from jinja2 import Environment, PackageLoader, StrictUndefined, select_autoescape

from hazard.core.errors import sentence
from hazard.table import ClaimState
from hazard.web.hub import Hub
from hazard.web.rulescard import rules_card
from hazard.web.seatlinks import SeatLink, seat_links
from hazard.web.views import RefereeKind, Viewer, claim_view, lobby_view, table_view, turn_of

__all__ = ["Pages", "Viewer", "templates"]

_FACES = "⚀⚁⚂⚃⚄⚅"


def templates() -> Environment:
    """The pages' templates, read from the package: every value escaped (whatever a template is named), and
    a name a template uses but is not given an error rather than an empty string."""
    environment = Environment(
        loader=PackageLoader("hazard.web", "templates"),
        autoescape=select_autoescape(default=True, default_for_string=True),
        undefined=StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
        auto_reload=False,  # the package's files: not looked at again on each page
    )
    environment.globals.update(FACES=_FACES, RefereeKind=RefereeKind)
    return environment


class Pages:
    """Renders the lobby and the tables of one hub."""

    def __init__(self, hub: Hub) -> None:
        self.hub = hub
        self._templates = templates()

    def _render(self, name: str, **values: object) -> str:
        return self._templates.get_template(name).render(**values)

    async def lobby(self) -> str:
        """The lobby: the open tables, and the form that sets one up."""
        tables = await asyncio.to_thread(self.hub.open_tables)
        return self._render(
            "lobby.html", title="Hazard: the lobby", data={"page": "lobby"}, lobby=lobby_view(tables)
        )

    def claim(self, game: int, code: str, state: ClaimState | None, refusal: str | None) -> str:
        """The page a claim link opens: whose seat it holds and a button that takes it (a POST: the GET that
        showed this spent nothing), or why it holds none."""
        return self._render(
            "claim.html",
            title="Hazard: a claim link",
            data={"page": "claim"},
            claim=claim_view(game, code, state, refusal),
        )

    async def _seat_links(self, game: int, viewer: Viewer, mode: str) -> tuple[SeatLink, ...]:
        """The host's list of his late arrivals' claim links (none for anyone else)."""
        if not viewer.host or mode != "table":
            return ()
        return seat_links(await self.hub.given_claims(game), datetime.now(UTC))

    async def table(self, game: int, viewer: Viewer, *, mode: str) -> str:
        """Table ``game``'s page in ``mode`` (table, referee or screen), for ``viewer``."""
        links = await self._seat_links(game, viewer, mode)
        async with self.hub.current(game) as live:
            view = table_view(live, viewer, mode, self._claim_minutes())
            return self._render(
                "table.html",
                # the tab says when it is the viewer's turn (hazard.js keeps it so on each update)
                title=("Your turn · " if view.turn.mine else "") + f"{live.session.info.label} · Hazard",
                data={"page": "table", "game": game, "mode": mode, "seq": view.seq},
                game=game,
                mode=mode,
                host=viewer.host,
                view=view,
                rules=rules_card(live.session.info.ruleset, live.session.info.paytable),
                seat_links=links,
            )

    async def view(self, game: int, viewer: Viewer, *, mode: str) -> str:
        """Table ``game``'s view alone, as the page swaps it in on each update."""
        links = await self._seat_links(game, viewer, mode)
        async with self.hub.current(game) as live:
            view = table_view(live, viewer, mode, self._claim_minutes())
            return self._render("view.html", view=view, seat_links=links)

    async def next_step(self, game: int, seat: str | None) -> str:
        """What the player at ``seat`` can do now at table ``game``, or whom it waits for, in a sentence or
        two: a refused action's next step."""
        async with self.hub.current(game) as live:
            turn = turn_of(live, seat)
        return " ".join(sentence(text) for text in (turn.text, turn.also) if text)

    def _claim_minutes(self) -> str:
        minutes = max(1, round(self.hub.claim_ttl / 60))
        return f"{minutes} minute{'' if minutes == 1 else 's'}"
