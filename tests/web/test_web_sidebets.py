"""Side bets and a lost socket in a real browser (issue 21 items 5 and 9), with the fixtures and helpers of
``browser_helpers``.

- Bob offers one of the sources' even-money bets in one tap and a bet of his own written out, seeing each
  one's value to him in the table's money before he sends it; Cat sees each open offer's value to her beside
  its Take button and takes it in one tap; the side-bet card passes axe-core at a phone's and a desktop's
  size.
- The server stopped under a seated page: its controls are disabled and say "reconnecting"; the server
  started again over the same record, the page resyncs, its controls come back, and the message it showed
  before the drop, stale now, is gone.
"""

from __future__ import annotations

import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import Browser, ViewportSize, expect
from tests.web.browser_helpers import (
    PHONE,
    Client,
    Restartable,
    Shots,
    Web,
    browser,
    chromium,
    restartable,
    seated,
    server,
    shots,
    stake,
    web,
)

pytestmark = pytest.mark.slow  # real Chromium

__all__ = ["browser", "chromium", "restartable", "server", "shots", "web"]  # the fixtures, used by name

DESKTOP: ViewportSize = {"width": 1366, "height": 768}
MINUS = "\N{MINUS SIGN}"


def test_a_source_bet_is_offered_in_one_tap_and_taken_with_its_value_beside_take(web: Web) -> None:
    game, host, ann, bob = seated(web)
    cat = web.client()
    web.join(cat, game, "Cat")
    people = [host, ann, bob, cat]
    web.synced(game, people)
    offer = bob.page.locator("form.offer")

    # The sources' bets, each with its exact fair odds and its value to Bob, before he offers it.
    one_tap = offer.locator("fieldset.source-bets")
    source = one_tap.get_by_role("button", name="4 or 10 before 7", exact=True)
    expect(source).to_have_accessible_description("fair odds 1 to 1; worth 0.00 to you at evens")
    offer.get_by_label("Amount", exact=True).fill("3")
    web.act(bob, source.click, game, people)
    expect(bob.page.locator("#message")).to_contain_text("side bet offered: #1 Bob backs '4 or 10 before 7'")
    for client in people:
        shown = client.page.locator('li[data-bet="1"]')
        expect(shown).to_contain_text("for 3.00 at even money — open: nobody has taken it")
        expect(shown).to_contain_text("fair odds 1 to 1")
        expect(shown).to_contain_text("Ann or Cat may take it")
    expect(bob.page.locator('li[data-bet="1"]')).to_contain_text("worth 0.00 to you at evens")
    expect(offer.get_by_label("Amount", exact=True)).to_have_value("3")  # kept for the next tap

    # A bet of his own, written out: its figures in money, as the table writes money.
    offer.get_by_label("Bet", exact=True).fill("next 7")
    offer.get_by_label("Amount", exact=True).fill("2")
    preview = offer.locator(".preview")
    expect(preview).to_have_text(
        f"wins with probability 1/6 (0.1667); fair odds 5 to 1; worth {MINUS}1.33 to you at evens, "
        "+1.33 to whoever takes it"
    )
    web.act(bob, offer.get_by_role("button", name="Offer", exact=True).click, game, people)

    # Cat sees each offer's value to her beside its Take button; one tap takes it.
    take = cat.page.get_by_role("button", name="Take bet #2")
    expect(take).to_be_visible()
    expect(cat.page.locator('li[data-bet="2"] .worth')).to_have_text("worth +1.33 to you at evens")
    expect(cat.page.locator('li[data-bet="1"] .worth')).to_have_text("worth 0.00 to you at evens")
    expect(bob.page.get_by_role("button", name="Take bet #2")).to_have_count(0)
    expect(bob.page.get_by_role("button", name="Cancel bet #2")).to_be_visible()
    _look(web, cat, "sidebets-offers")
    web.act(cat, take.click, game, people)
    for client in people:
        shown = client.page.locator('li[data-bet="2"]')
        expect(shown).to_contain_text("laid by Cat")
        expect(shown).not_to_contain_text("may take it")
    expect(cat.page.get_by_role("button", name="Take bet #2")).to_have_count(0)
    expect(ann.page.get_by_role("button", name="Take bet #1")).to_be_visible()
    web.clean()


def _look(web: Web, client: Client, name: str) -> None:
    """Screenshots of the client's table at a phone's and a desktop's size, each scanned by axe-core."""
    axe = Axe()
    page = client.watch(client.context.new_page())  # one tab, loaded afresh at each size
    try:
        for size, viewport in (("phone", PHONE), ("desktop", DESKTOP)):
            page.set_viewport_size(viewport)
            page.goto(client.page.url)
            page.wait_for_selector(".view .side-bets", state="attached")
            web.shot(page, f"{name}-{size}")
            results = axe.run(page)
            assert results.violations_count == 0, results.generate_report()
    finally:
        page.close()


# --- a lost socket ---------------------------------------------------------------------------------------


def test_a_lost_socket_disables_the_controls_until_the_page_resyncs(
    browser: Browser, restartable: Restartable, shots: Shots
) -> None:
    opened = Web(restartable.start(), browser, shots)
    try:
        game, host, ann, bob = seated(opened)
        page = bob.page
        controls = page.locator(".controls")
        stake_button = controls.get_by_role("button", name="Stake", exact=True)
        # A refusal in the message bar, which the drop makes stale.
        typed = controls.locator('form[data-template="{command}"]')
        typed.get_by_role("textbox", name="Command").fill("call 7")
        assert "call" in opened.refused(bob, typed.get_by_role("button", name="Send").click, game)

        restartable.stop()
        notice = controls.locator(".reconnecting")
        expect(notice).to_have_text(
            "Reconnecting to the table… the controls come back once this page has caught up."
        )
        expect(stake_button).to_be_disabled()
        expect(controls.locator("input[name=amount]").first).to_be_disabled()
        expect(page.locator("form.offer button.source-bet").first).to_be_disabled()
        opened.shot(page, "sidebets-reconnecting")

        restartable.start()
        expect(notice).to_have_count(0, timeout=20_000)
        expect(stake_button).to_be_enabled()
        expect(page.locator("#message")).to_have_text("")
        expect(page.locator("body")).not_to_have_class("offline")
        stake(opened, bob, game, "5", [host, ann, bob])
        expect(ann.page.locator("ul.stakes")).to_have_text("Bob stakes 5.00 against the caster")
        opened.clean()
    finally:
        opened.close()
