"""The felt's money in a real browser (issue 21 item 1, :mod:`hazard.web.felt`): a stake laid through the page
is a chip with its sum at the staker's place and at the caster's, and the circle holds it, on both players'
pages and on a spectator's, each chip read aloud with whose it is; at a phone's size, without scrolling
sideways.

One ``hazard serve`` and one Chromium for the module (the fixtures and helpers of ``browser_helpers``).
"""

from __future__ import annotations

import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import expect
from tests.web.browser_helpers import PHONE, Web, browser, chromium, seated, server, shots, stake, web
from tests.web.test_web_tableview import DESKTOP

pytestmark = pytest.mark.slow  # real Chromium

__all__ = ["browser", "chromium", "server", "shots", "web"]  # the fixtures, used by name


def test_a_stake_laid_through_the_page_is_a_chip_on_every_page(web: Web) -> None:
    game, host, ann, bob = seated(web)  # the lobby's own ruleset: each setter against the caster, Ann casts
    watcher = web.client(f"/tables/{game}")
    everyone = [ann, bob, watcher, host]
    web.synced(game, everyone)
    for client in everyone:
        expect(client.page.locator(".felt .circle")).to_have_text("No stake against Ann yet")
        expect(client.page.locator(".felt .chip[role=img]")).to_have_count(0)
    stake(web, bob, game, "5", everyone)
    for client in everyone:
        page = client.page
        expect(page.locator(".felt .circle")).to_have_text("Bob sets 5.00")
        bob_place = page.locator(".places .place").filter(has_text="Bob")
        expect(bob_place.get_by_role("img", name="Bob stakes 5.00 against Ann")).to_have_text("5.00")
        ann_place = page.locator(".places .place").filter(has_text="Ann")
        expect(ann_place.get_by_role("img", name="Ann covers 5.00 against Bob")).to_have_text("5.00")
        expect(ann_place.locator(".place-free")).to_have_text("free 95.00")
    expect(bob.page.locator(".places .place.own")).to_contain_text("Bob")
    expect(ann.page.locator(".places .place.own.casting")).to_contain_text("Ann")
    expect(watcher.page.locator(".places .place.own")).to_have_count(0)
    # Readable on a phone without scrolling sideways, and no violation axe-core finds, chips and all.
    axe = Axe()
    for who, client in (("caster", ann), ("spectator", watcher)):
        page = client.watch(client.context.new_page())  # one tab each, loaded afresh at each size
        try:
            for size_name, size in (("phone", PHONE), ("desktop", DESKTOP)):
                page.set_viewport_size(size)
                page.goto(f"/tables/{game}")
                page.wait_for_selector(".felt .circle", state="attached")
                expect(page.locator(".felt .circle")).to_have_text("Bob sets 5.00")
                assert page.evaluate("() => document.documentElement.scrollWidth") <= size["width"]
                web.shots.take(page, f"felt-{who}-{size_name}")
                results = axe.run(page)
                assert results.violations_count == 0, results.generate_report()
        finally:
            page.close()
    web.clean()
