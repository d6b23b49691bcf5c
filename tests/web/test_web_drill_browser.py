"""The side-bet drill in Chromium: one proposition taken, one refused, one let run out on the page's clock,
each judged on the page by its exact value, the score kept under the player's name, and still shown after the
server is stopped and started again."""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser, expect
from tests.web.browser_helpers import PHONE, Restartable, Shots, browser, chromium, restartable, shots

from hazard.analysis.drill import Answer, Drill
from hazard.core.numbers import fraction_text

__all__ = ["browser", "chromium", "restartable", "shots"]

pytestmark = pytest.mark.slow  # real Chromium and a real server

SEED = 17


def test_a_drill_played_in_chromium_scores_the_exact_values_and_its_best_survives_a_restart(
    browser: Browser, restartable: Restartable, shots: Shots
) -> None:
    served = restartable.start()
    context = browser.new_context(viewport=PHONE)
    try:
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.goto(f"{served.url}/drill?seed={SEED}")
        page.get_by_label("Your name").fill("Zoë")
        page.get_by_label("Propositions").fill("3")
        page.get_by_label("Seconds each").fill("3")
        page.get_by_role("button", name="Start the drill").click()
        expected = Drill(SEED, 3, 3)
        for given in (Answer.TAKE, Answer.REFUSE, None):  # the last is let run out
            offer = expected.offer()
            expect(page.locator("#offer-round")).to_have_text(str(offer.round))
            expect(page.locator("#offer-proposition")).to_have_text(offer.proposition)
            expect(page.locator("#offer-stated")).to_have_text(offer.stated)
            if offer.round == 1:
                shots.take(page, "drill-offer-phone")
                page.set_viewport_size({"width": 1366, "height": 768})
                shots.take(page, "drill-offer-desktop")
                page.set_viewport_size(PHONE)
            if given is not None:
                page.get_by_role("button", name="Take" if given is Answer.TAKE else "Refuse").click()
            expected, judged = expected.answer(given or Answer.REFUSE, timed_out=given is None)
            expect(page.locator("#drill-judged")).to_have_attribute("data-round", str(offer.round))
            expect(page.locator("#judged-value")).to_have_attribute("data-exact", fraction_text(offer.value))
            expect(page.locator("#judged-points")).to_have_attribute(
                "data-exact", fraction_text(judged.points)
            )
            expect(page.locator("#drill-score")).to_have_attribute(
                "data-exact", fraction_text(expected.score)
            )
            expect(page.locator("#judged-fair")).to_have_text(offer.fair_odds)
        expect(page.locator("#judged-verdict")).to_contain_text("Time ran out: refused")
        expect(page.locator("#drill-over")).to_be_visible()
        expect(page.locator("#over-kept li").first).to_have_attribute(
            "data-exact", fraction_text(expected.score)
        )
        expect(page.locator("#drill-best-scores li span").first).to_have_attribute(
            "data-exact", fraction_text(expected.score)
        )
        shots.take(page, "drill-over-phone")
        assert errors == []
        score = fraction_text(expected.score)
        restartable.stop()
        served = restartable.start()
        page.goto(f"{served.url}/drill")
        kept = page.locator("#drill-best-scores li").first
        expect(kept).to_contain_text("Zoë")
        expect(kept.locator("span").first).to_have_attribute("data-exact", score)
    finally:
        context.close()
