"""The table page as a table (issue 21 items 1-3), in a real browser: whose turn it is for each viewer, the
tab's title, focus kept on the main button so that a round is played with Enter alone, and at a phone's size
the dice, the turn line and the main button on the first screen.

One ``hazard serve`` and one Chromium for the module (the fixtures and helpers of ``browser_helpers``).
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, ViewportSize, expect
from tests.web.browser_helpers import (
    MAX_CLICKS,
    PHONE,
    Client,
    Web,
    browser,
    chromium,
    seated,
    server,
    shots,
    web,
)

pytestmark = pytest.mark.slow  # real Chromium

__all__ = ["browser", "chromium", "server", "shots", "web"]  # the fixtures, used by name

DESKTOP: ViewportSize = {"width": 1366, "height": 768}
SCREEN: ViewportSize = {"width": 1920, "height": 1080}


def _within(page: Page, selector: str, size: ViewportSize) -> None:
    """``selector``'s first element lies wholly inside the first screen, unscrolled."""
    box = page.locator(selector).first.bounding_box()
    assert box is not None, selector
    assert box["y"] >= 0, (selector, box)
    assert box["y"] + box["height"] <= size["height"], (selector, box)
    assert box["x"] >= 0, (selector, box)
    assert box["x"] + box["width"] <= size["width"], (selector, box)


def test_each_viewer_reads_whose_turn_it_is_and_plays_a_round_with_enter(web: Web) -> None:
    game, host, ann, bob = seated(web)
    both = [ann, bob]
    turn = ".turnline .turn-text"
    expect(ann.page.locator(turn)).to_have_text("Your turn: call a main")
    expect(bob.page.locator(turn)).to_have_text("Waiting for Ann to call a main")
    expect(bob.page.locator(".turnline .turn-also")).to_have_text("You may lay a stake now.")
    expect(host.page.locator(turn)).to_have_text("Waiting for Ann to call a main")
    expect(ann.page).to_have_title(re.compile(r"^Your turn · "))
    expect(bob.page).not_to_have_title(re.compile(r"^Your turn"))
    assert bob.page.locator(".turnline .moves button").count() == 0
    # The tone when it becomes his turn is his to turn on, and stays on through the updates.
    sound = bob.page.locator(".turnline button.sound")
    expect(sound).to_have_attribute("aria-pressed", "false")
    sound.click()
    expect(sound).to_have_attribute("aria-pressed", "true")
    assert host.page.locator(".turnline button.sound").count() == 0  # a spectator has no turn

    # Tab to the main button, then Enter alone: the main button has the focus after each update, and each
    # Enter plays it.
    expect(ann.page.locator(".turnline button.primary")).to_have_text("Call 7")
    for _ in range(80):  # the page may give it the focus already; else Tab round the page's controls to it
        if ann.page.evaluate("() => document.activeElement.dataset.action") == "call 7":
            break
        ann.page.keyboard.press("Tab")
    else:
        pytest.fail("Tab never reached the button that calls 7")
    for _ in range(MAX_CLICKS):
        state = web.server.state(game)["state"]
        if state["rounds_played"] >= 1:
            break
        assert state["caster"] == "Ann", state
        expect(ann.page.locator(".turnline button.primary")).to_be_focused()
        threw = state["turn"]["need"] == "throw"
        rolled = [client.page.evaluate("() => Number(document.body.dataset.thrown || 0)") for client in both]
        web.act(ann, lambda: ann.page.keyboard.press("Enter"), game, both)
        now = web.server.state(game)["state"]
        if now["caster"] == "Ann" and now["rounds_played"] == 0:
            expect(bob.page.locator(turn)).to_have_text("Waiting for Ann to throw")
            expect(ann.page.locator(turn)).to_have_text("Your turn: throw the dice")
        if threw:  # each page rolled the new throw onto its felt, once
            for client, before in zip(both, rolled, strict=True):
                count = client.page.evaluate("() => Number(document.body.dataset.thrown || 0)")
                assert count == before + 1, (before, count)
    else:
        pytest.fail("a round took more than MAX_CLICKS presses of Enter")
    caster = web.server.state(game)["state"]["caster"]
    holder, other = (ann, bob) if caster == "Ann" else (bob, ann)
    expect(holder.page.locator(turn)).to_have_text("Your turn: call a main")
    expect(other.page.locator(turn)).to_have_text(f"Waiting for {caster} to call a main")
    if holder is ann:
        expect(ann.page.locator(".turnline button.primary")).to_be_focused()
    expect(holder.page).to_have_title(re.compile(r"^Your turn · "))
    expect(other.page).not_to_have_title(re.compile(r"^Your turn"))
    expect(bob.page.locator(".turnline button.sound")).to_have_attribute("aria-pressed", "true")
    web.clean()


def _fits(web: Web, game: int, moment: str, seats: dict[str, Client]) -> None:
    """At a phone's size and a desktop's, each seat's first screen shows the felt's throws, the turn line and
    (for the seat whose turn it is) its main button, unscrolled, and nothing is wider than the screen."""
    for who, client in seats.items():
        page = client.watch(client.context.new_page())  # one tab a seat, loaded afresh at each size
        try:
            for name, size in (("phone", PHONE), ("desktop", DESKTOP)):
                page.set_viewport_size(size)
                page.goto(f"/tables/{game}")
                page.wait_for_selector(".view", state="attached")
                assert page.evaluate("() => window.scrollY") == 0
                _within(page, ".felt .throws", size)
                _within(page, ".turnline .turn-text", size)
                if who == "caster":
                    _within(page, ".turnline button.primary", size)
                width = page.evaluate("() => document.documentElement.scrollWidth")
                assert width <= size["width"], (name, width)
                web.shots.take(page, f"tableview-{moment}-{who}-{name}", full_page=False)
                web.shots.take(page, f"tableview-{moment}-{who}-{name}-full")
        finally:
            page.close()


def _the_big_screen(web: Web, game: int, host: Client, ann: Client, bob: Client) -> None:
    """The big screen at 1920×1080: the felt and whose turn it is on the first screen, before a round has
    settled and after, when its result banner shows too."""
    page = host.watch(host.context.new_page())
    try:
        page.set_viewport_size(SCREEN)
        page.goto(f"/tables/{game}/screen")
        page.wait_for_selector(".view", state="attached")
        box = page.locator("main.screen").bounding_box()
        assert box is not None
        assert box["width"] >= SCREEN["width"] * 0.9, box
        _within(page, ".felt .throws", SCREEN)
        _within(page, ".turnline .turn-text", SCREEN)
        web.shots.take(page, "tableview-screen", full_page=False)
        # Once a round has settled its result banner shows too, and whose turn it is still fits the screen.
        for _ in range(MAX_CLICKS):
            if web.server.state(game)["state"]["rounds_played"]:
                break
            web.act(ann, ann.page.get_by_role("button", name="Throw the dice").click, game, [ann, bob])
        else:
            pytest.fail(f"the round at table {game} did not settle in {MAX_CLICKS} throws")
        page.wait_for_selector(".view .card.result", state="attached")
        _within(page, ".turnline .turn-text", SCREEN)
        web.shots.take(page, "tableview-screen-result", full_page=False)
    finally:
        page.close()


def test_the_table_fits_a_phone_and_the_big_screen(web: Web) -> None:
    game, host, ann, bob = seated(web)
    _fits(web, game, "calling", {"caster": ann, "waiting": bob})
    web.act(ann, ann.page.get_by_role("button", name="Call 7").click, game, [ann, bob])
    web.act(ann, ann.page.get_by_role("button", name="Throw the dice").click, game, [ann, bob])
    _fits(web, game, "throwing", {"caster": ann, "waiting": bob})
    # On a phone the message bar stands just above the turn strip, not over it.
    phone = web.client()
    phone.context.add_cookies(bob.context.cookies())
    phone.page.set_viewport_size(PHONE)
    phone.page.goto(f"/tables/{game}")
    phone.page.wait_for_selector(".view", state="attached")
    box = phone.page.locator('form[data-template="{command}"]')
    box.get_by_role("textbox", name="Command").fill("throw")
    web.refused(phone, box.get_by_role("button").click, game)
    web.shots.take(phone.page, "tableview-refused-phone", full_page=False)
    message = phone.page.locator("#message").bounding_box()
    strip = phone.page.locator(".turnline").bounding_box()
    assert message is not None
    assert strip is not None
    assert message["y"] + message["height"] <= strip["y"] + 1, (message, strip)
    # A new throw tumbles onto the felt, unless the reader asks for less motion.
    animation = """() => {
      document.querySelector(".throws").classList.add("thrown");
      return getComputedStyle(document.querySelector(".throws .last .face")).animationName;
    }"""
    for motion, expected in (("no-preference", "hazard-throw"), ("reduce", "none")):
        page = bob.watch(bob.context.new_page())
        try:
            page.emulate_media(reduced_motion=motion)
            page.goto(f"/tables/{game}")
            page.wait_for_selector(".view", state="attached")
            assert page.evaluate(animation) == expected, motion
        finally:
            page.close()
    _the_big_screen(web, game, host, ann, bob)
    web.clean()
