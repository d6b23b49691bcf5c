"""Every page in a real browser asks nothing of another origin, and passes an accessibility scan.

One ``hazard serve`` and one Chromium for the module (the fixtures and helpers of ``browser_helpers``): a
table of fair dice with Ann and Bob seated and a round under way, a table of real dice with its referee, and
a late arrival's claim link. Each page is opened as its viewer opens it (the host, a seat, a spectator, the
referee, the big screen, the lobby, the claim link, the API's documentation, the rulesets compared, the
ruleset designer, a table card), and

- every request it makes, the live socket included, goes to the server's own origin: a request elsewhere is
  recorded and aborted (issue 21: "no request leaves the machine");
- axe-core (``axe-playwright-python``'s ``axe.min.js``) finds no violation, at a phone's size (390×844) and a
  desktop's (1366×768), and a screenshot of each is saved where ``HAZARD_SCREENSHOTS`` names (``make shots``).

Each page is opened once at each size, and both checks read that visit (the ``scan`` fixture).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import Browser, BrowserContext, Page, Route, ViewportSize, expect
from tests.web.browser_helpers import (
    PHONE,
    Client,
    Server,
    Shots,
    Web,
    browser,
    chromium,
    command,
    seated,
    server,
    shots,
    stake,
)

pytestmark = pytest.mark.slow  # real Chromium, some twenty pages

__all__ = ["browser", "chromium", "server", "shots"]  # the fixtures, used by name

DESKTOP: ViewportSize = {"width": 1366, "height": 768}
SIZES = {"phone": PHONE, "desktop": DESKTOP}


@dataclass(frozen=True)
class Visit:
    """A page as one viewer opens it: the browser (its cookies) and the path."""

    name: str
    context: BrowserContext
    path: str
    ready: str = ".view, main"
    """What the page shows once it is drawn."""


@pytest.fixture(scope="module")
def visits(server: Server, browser: Browser, shots: Shots) -> Iterator[list[Visit]]:
    """The tables set up through the pages, and every page to open, each in its viewer's browser."""
    web = Web(server, browser, shots)
    try:
        game, host, ann, bob = seated(web)
        stake(web, bob, game, "5", [ann, bob])
        web.act(ann, ann.page.get_by_role("button", name="Call 7").click, game, [ann, bob])
        web.act(ann, ann.page.get_by_role("button", name="Throw the dice").click, game, [ann, bob])
        late = _seat_late_arrival(host.page, game, "Cat")
        referee = web.client()
        typed = web.new_table(referee, dice="typed")
        for text in ("sit Ann 100", "sit Bob 100", "call 7"):
            command(web, referee, typed, text, [referee])
        spectator = web.client()
        for client in web.clients:
            client.page.close()  # each visit opens a page of its own
        yield [
            Visit("lobby", spectator.context, "/"),
            Visit("table-seat", ann.context, f"/tables/{game}"),
            Visit("table-spectator", spectator.context, f"/tables/{game}"),
            Visit("table-host", host.context, f"/tables/{game}"),
            Visit("referee", referee.context, f"/tables/{typed}/referee"),
            Visit("screen", spectator.context, f"/tables/{game}/screen"),
            Visit("claim", spectator.context, late),
            Visit("docs", spectator.context, "/docs", ready="#swagger-ui .info"),
            Visit("proof", spectator.context, f"/tables/{game}/proof", ready=".verdict.done"),
            Visit("compare", spectator.context, "/compare?a=cotton-1674&b=craps"),
            Visit("card", spectator.context, "/rules/ecws-1674/card"),
            Visit("designer", spectator.context, "/designer?from=ecws-1674"),
            Visit("drill", spectator.context, "/drill"),
        ]
    finally:
        web.close()


def _seat_late_arrival(page: Page, game: int, name: str) -> str:
    """The host seats a late arrival from his page's browser; the claim link he is given for him."""
    answer: dict[str, Any] = page.evaluate(
        """async ([game, name]) => {
          const sent = await fetch(`/api/tables/${game}/seats`, {
            method: "POST",
            headers: {"content-type": "application/json", "x-hazard-role": "host"},
            body: JSON.stringify({name, bankroll: "50"}),
          });
          return {status: sent.status, body: await sent.json()};
        }""",
        [game, name],
    )
    assert answer["status"] == 201, json.dumps(answer)
    link: str = answer["body"]["claim_url"]
    return link


@dataclass(frozen=True)
class Seen:
    """What one visit of a page at one size showed: every request it made, the live socket included (and
    those that went elsewhere), what it threw or had blocked, and axe's report (empty: no violation;
    None: not scanned)."""

    asked: list[str]
    strangers: list[str]
    errors: list[str]
    report: str | None


@dataclass(frozen=True)
class Scan:
    """Every visit, by page and size, and every request the guard aborted, from any page of the viewers'
    browsers."""

    seen: dict[tuple[str, str], Seen]
    elsewhere: list[str]


@pytest.fixture(scope="module")
def scan(visits: list[Visit], server: Server, shots: Shots) -> Scan:
    """Every page opened once at each size, by its viewer, with every request to another origin recorded
    and aborted: a screenshot saved (:class:`Shots`) and axe run on each (both checks read the one visit,
    which halves the pages a browser draws)."""
    origin = urlsplit(server.url)

    def own(url: str) -> bool:
        parts = urlsplit(url)
        return parts.scheme == "data" or (parts.hostname, parts.port) == (origin.hostname, origin.port)

    def guard(route: Route) -> None:
        if own(route.request.url):
            route.continue_()
        else:
            elsewhere.append(route.request.url)
            route.abort()

    elsewhere: list[str] = []
    axe = Axe()
    found: dict[tuple[str, str], Seen] = {}
    contexts = {id(visit.context): visit.context for visit in visits}.values()
    # One tab per viewer's browser, led from page to page: a tab opened for each visit started a renderer
    # each time (about 0.4 CPU-second of Chromium's), where a navigation within the site keeps its own.
    tabs = {id(context): _Tab.open(context) for context in contexts}
    for context in contexts:
        context.route("**/*", guard)
    try:
        for size, viewport in SIZES.items():
            for tab in tabs.values():
                tab.page.set_viewport_size(viewport)
            for visit in visits:
                found[visit.name, size] = tabs[id(visit.context)].visit(
                    visit, size=size, own=own, axe=axe, shots=shots
                )
    finally:
        for context in contexts:
            context.unroute("**/*", guard)
        for tab in tabs.values():
            tab.page.close()
    return Scan(found, elsewhere)


@dataclass
class _Tab:
    """A viewer's one tab, and what the visit it shows asked for (every request, the live socket included)
    and threw."""

    page: Page
    client: Client
    asked: list[str]

    @classmethod
    def open(cls, context: BrowserContext) -> _Tab:
        page = context.new_page()
        tab = cls(page, Client(context, page), [])
        page.on("request", lambda request: tab.asked.append(request.url))
        page.on("websocket", lambda socket: tab.asked.append(socket.url))
        tab.client.watch(page)
        return tab

    def visit(self, visit: Visit, *, size: str, own: Callable[[str], bool], axe: Axe, shots: Shots) -> Seen:
        self.asked.clear()
        self.client.errors.clear()
        page = self.page
        page.goto(visit.path)
        page.wait_for_selector(visit.ready, state="attached")
        expect(page.locator("body")).to_be_visible()
        shots.take(page, f"{visit.name}-{size}")
        report: str | None = None
        if visit.name != "docs":  # Swagger UI's own page, not ours to mend: shown to work offline only
            results = axe.run(page)
            report = (
                results.generate_snapshot() + "\n" + results.generate_report()
                if results.violations_count
                else ""
            )
        page.wait_for_load_state("networkidle")  # whatever the page asks for late is asked by now
        asked = list(self.asked)
        return Seen(asked, [url for url in asked if not own(url)], list(self.client.errors), report)


def test_no_page_asks_anything_of_another_origin(scan: Scan) -> None:
    for (name, size), visit in scan.seen.items():
        assert visit.asked, (name, size)
        assert visit.strangers == [], (name, size, visit.strangers)
        assert visit.errors == [], (name, size, visit.errors)  # the policy blocked nothing of ours
    assert scan.elsewhere == []


@pytest.mark.parametrize("size", SIZES)
def test_every_page_passes_the_accessibility_scan(scan: Scan, visits: list[Visit], size: str) -> None:
    scanned = {name: scan.seen[name, size] for name in (visit.name for visit in visits)}
    assert [name for name, visit in scanned.items() if visit.report is None] == ["docs"]
    found = {name: visit.report for name, visit in scanned.items() if visit.report}
    assert found == {}, "\n".join(f"{name} ({size}): {report}" for name, report in found.items())
    for name, visit in scanned.items():
        assert visit.errors == [], (name, visit.errors)
