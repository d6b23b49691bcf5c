"""The invite, the lobby's live list, the rules card and Leave, in a real browser (the fixtures and helpers
of ``browser_helpers``): the copy button puts the table's whole link on the clipboard and in its field; the
QR code beside it is an SVG from the server's own origin, segno's own drawing of that link; the lobby shows a
new table and its players without a reload; Leave asks first, and a "no" keeps the seat. Screenshots of the
table with its invite and rules card, and of the lobby, at a phone's size and a desktop's."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from urllib.parse import urlsplit

import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import Dialog, ViewportSize, expect
from tests.web.browser_helpers import PHONE, WAIT_MS, Web, browser, chromium, seated, server, shots, web
from tests.web.test_web_invite import SVG, segno_svg

pytestmark = pytest.mark.slow  # real Chromium

__all__ = ["browser", "chromium", "server", "shots", "web"]  # the fixtures, used by name

DESKTOP: ViewportSize = {"width": 1366, "height": 768}


def test_copy_invite_gives_the_tables_link_and_its_qr_code_is_segnos_drawing_of_it(web: Web) -> None:
    host = web.client()
    game = web.new_table(host)
    link = f"{web.server.url}/tables/{game}"
    host.context.grant_permissions(["clipboard-read", "clipboard-write"], origin=web.server.url)
    page = host.page
    expect(page.locator("#invite-link")).to_have_value(link)
    page.get_by_role("button", name="Copy invite link").click()
    expect(page.locator("#invite-said")).to_contain_text("Copied")
    assert page.evaluate("() => navigator.clipboard.readText()") == link
    drawing = page.locator("svg.qr")
    expect(drawing).to_be_visible()
    assert drawing.bounding_box()["width"] > 100
    source = page.locator(".invite").evaluate("() => new URL('invite.svg', location.href + '/').href")
    assert urlsplit(source)[:3] == (*urlsplit(web.server.url)[:2], f"/tables/{game}/invite.svg")
    answer = page.request.get(source)  # what the page fetched: from its own origin
    assert answer.ok
    assert answer.headers["content-type"] == "image/svg+xml"
    served = ET.fromstring(answer.body())
    assert served.tag == SVG
    assert answer.body() == segno_svg(link)  # segno's own drawing of the table's link
    drawn = drawing.evaluate("(svg) => Array.from(svg.querySelectorAll('path'), (p) => p.getAttribute('d'))")
    assert drawn == [path.get("d") for path in served.iter("{http://www.w3.org/2000/svg}path")]
    assert page.locator("img").count() == 0
    late = page.locator("#late")  # a late arrival, for the host's list of links
    late.get_by_label("Late arrival").fill("Cy")
    late.get_by_role("button", name="Seat").click()
    expect(page.locator("ul.seat-links")).to_contain_text("Cy")
    page.locator("details.rules summary").click()  # the rules card, opened
    expect(page.locator("details.rules table.rules-table")).to_be_visible()
    for size, shown in (("phone", PHONE), ("desktop", DESKTOP)):
        page.set_viewport_size(shown)
        web.shot(page, f"invite-table-{size}")
        results = Axe().run(page)
        assert results.violations_count == 0, results.generate_report()
        width = page.evaluate("() => document.documentElement.scrollWidth")
        assert width <= shown["width"], f"the page is {width} px wide at {shown['width']} px"
    web.clean()


def test_the_lobby_shows_a_new_table_and_its_players_without_a_reload(web: Web) -> None:
    watcher = web.client("/")
    lobby = watcher.page
    expect(lobby.locator("main.lobby")).to_be_visible()
    loads = []
    lobby.on("load", lambda _: loads.append(1))
    game, _host, _ann, _bob = seated(web, label="The Groom Porter's")
    entry = lobby.locator(f'ul.tables li[data-table="{game}"]')
    expect(entry).to_contain_text("The Groom Porter's", timeout=3 * WAIT_MS)
    expect(entry.locator(".seated")).to_have_text("players: Ann, Bob", timeout=3 * WAIT_MS)
    expect(entry.locator(".state")).to_contain_text(re.compile(r"^round 1: Ann"))
    assert loads == []  # the same page, its list redrawn
    for size, shown in (("phone", PHONE), ("desktop", DESKTOP)):
        lobby.set_viewport_size(shown)
        web.shot(lobby, f"invite-lobby-{size}")
    web.clean()


def test_leave_asks_first_and_a_no_keeps_the_seat(web: Web) -> None:
    game, _host, _ann, bob = seated(web)
    page = bob.context.new_page()  # not the helper's page, which refuses every dialog and counts it
    page.goto(f"/tables/{game}")
    leave = page.get_by_role("button", name="Leave the table")
    asked: list[str] = []

    def answer(accept: bool) -> None:
        def handle(dialog: Dialog) -> None:
            asked.append(dialog.message)
            if accept:
                dialog.accept()
            else:
                dialog.dismiss()

        page.once("dialog", handle)

    answer(False)
    leave.click()
    assert len(asked) == 1
    assert "Leave the table?" in asked[0]
    expect(page.locator(".controls h2")).to_have_text("Your seat, Bob")
    assert [p["name"] for p in web.server.state(game)["state"]["players"]] == ["Ann", "Bob"]
    answer(True)
    with page.expect_response(lambda r: r.request.method == "POST" and r.url.endswith(f"/{game}/actions")):
        leave.click()
    assert len(asked) == 2
    expect(page.locator("#join")).to_be_visible()
    assert [p["name"] for p in web.server.state(game)["state"]["players"]] == ["Ann"]
    page.close()
