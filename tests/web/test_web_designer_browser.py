"""The ruleset designer in Chromium: a nick cell and a dice-passing rule changed on the page show the
analyser's figures for the ruleset so changed, an invalid change is explained beside its control and the
last figures stay marked as not current, and the TOML it downloads reads back through ``hazard odds``."""

from __future__ import annotations

import json
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect
from tests.web.browser_helpers import PHONE, Server, Shots, browser, chromium, server, shots

from hazard.analysis import Design, design_figures
from hazard.core.numbers import fraction_text
from hazard.core.rules import DicePassing, MainRow, Ruleset
from hazard.core.rulesets import find_ruleset

__all__ = ["browser", "chromium", "server", "shots"]

pytestmark = pytest.mark.slow  # real Chromium and a real server


def _updated(page: Page, times: int) -> None:
    """Wait for the page's ``times``-th answer to have been shown."""
    expect(page.locator("#figures-state")).to_have_attribute("data-updates", str(times))


def _shows(page: Page, design: Design) -> None:
    """The page's figures are ``design``'s, exactly: over a round, and each main's."""
    overall = page.locator("#figure-overall td")
    figures, effect = design.figures, design.effect
    for at, value in ((0, figures.p_win), (1, effect.p_win), (2, figures.edge), (3, effect.edge)):
        expect(overall.nth(at)).to_have_attribute("data-exact", fraction_text(value))
    expect(overall.nth(4)).to_have_attribute("data-exact", fraction_text(figures.expected_throws))
    for row in figures.mains:
        cells = page.locator(f'#figure-mains tr[data-main="{row.main}"] td')
        expect(cells.nth(0)).to_have_attribute("data-exact", fraction_text(row.p_win))
        expect(cells.nth(2)).to_have_attribute("data-exact", fraction_text(row.edge))
        expect(cells.nth(0)).to_have_text(f"{float(row.p_win):.4f}")
    kept = page.locator("#figure-kept")
    if figures.rounds_kept is None:
        expect(kept).to_have_text("—")
    else:
        expect(kept).to_have_attribute("data-exact", fraction_text(figures.rounds_kept))


def _nick_on_seven_again(ruleset: Ruleset) -> Ruleset:
    seven = ruleset.row(7)
    row = MainRow(7, nicks=seven.nicks - {11}, outs=seven.outs, chances=seven.chances)
    return replace(ruleset, rows=tuple(row if r.main == 7 else r for r in ruleset.rows))


def _reads_back(page: Page, path: Path, design: Design) -> None:
    """The page's "Download TOML" gives a file that ``hazard odds -r FILE`` figures as ``design``."""
    with page.expect_download() as download:
        page.get_by_role("button", name="Download TOML").click()
    download.value.save_as(path)
    assert download.value.suggested_filename == "cotton-1674-designed.toml"
    printed = subprocess.run(
        [sys.executable, "-m", "hazard", "odds", "-r", str(path), "-f", "json"],
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    )
    overall = json.loads(printed.stdout)["overall"]
    figures = design.figures
    assert overall["edge"] == fraction_text(figures.edge)
    assert overall["p_win"] == fraction_text(figures.p_win)
    assert overall["expected_rounds_kept"] == fraction_text(figures.rounds_kept or 0)


def _range_and_a_new_main(page: Page, cotton: Ruleset, passing: Ruleset, updates: int) -> int:
    """The chance range without 4 (thrown again on every main instead), then 10 made a sixth main with the
    page's starting row for it: each shows the analyser's figures. Both undone after; the updates seen."""
    page.get_by_label("4", exact=True).and_(page.locator("input[name=chance]")).uncheck()
    updates += 1
    _updated(page, updates)
    expect(page.get_by_label("main 5, throw 4")).to_have_value("again")
    rows = tuple(replace(row, chances=row.chances - {4}) for row in passing.rows)
    _shows(page, design_figures(cotton, replace(passing, rows=rows)))
    page.get_by_label("4", exact=True).and_(page.locator("input[name=chance]")).check()
    page.get_by_label("10", exact=True).and_(page.locator("input[name=main]")).check()
    updates += 2
    _updated(page, updates)
    expect(page.get_by_label("main 10, throw 2")).to_be_visible()
    ten = MainRow(10, frozenset({10}), frozenset({2, 3, 11, 12}), frozenset({4, 5, 6, 7, 8, 9}))
    _shows(page, design_figures(cotton, replace(passing, rows=(*passing.rows, ten))))
    expect(page.locator('#figure-mains tr[data-main="10"] td').nth(1)).to_have_text("new")
    page.get_by_label("10", exact=True).and_(page.locator("input[name=main]")).uncheck()
    updates += 1
    _updated(page, updates)
    expect(page.get_by_label("main 10, throw 2")).to_be_hidden()
    _shows(page, design_figures(cotton, passing))
    return updates


def test_the_designer_shows_the_analysers_odds_live_and_explains_a_refusal(
    server: Server, browser: Browser, shots: Shots, tmp_path: Path
) -> None:
    context = browser.new_context(accept_downloads=True)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(server.url + "/designer?from=cotton-1674")
    cotton = find_ruleset("cotton-1674")
    _shows(page, design_figures(cotton, cotton))

    # A nick cell: 11 on a main of 7 thrown again rather than a nick (the ECWS reading of Cotton).
    page.get_by_label("main 7, throw 11").select_option("again")
    _updated(page, 1)
    changed = _nick_on_seven_again(cotton)
    _shows(page, design_figures(cotton, changed))
    expect(page.locator("#figures-state")).to_have_attribute("data-state", "current")

    # A dice-passing rule: the dice pass after two lost rounds in a row.
    page.get_by_label("After lost rounds in a row (0: never)").fill("2")
    _updated(page, 2)
    passing = replace(changed, passing=DicePassing(2))
    _shows(page, design_figures(cotton, passing))
    shots.take(page, "designer-live-desktop")

    # An invalid change: a fixed main with five mains. Explained beside the method, not accepted.
    page.get_by_label("The main is").select_option("fixed")
    _updated(page, 3)
    state = page.locator("#figures-state")
    expect(state).to_have_attribute("data-state", "stale")
    expect(state).to_contain_text("Not current")
    said = page.locator('fieldset[data-rule="method"] .said')
    expect(said).to_contain_text("a fixed main needs exactly one main, not 5")
    expect(page.get_by_label("The main is")).to_have_attribute("aria-invalid", "true")
    _shows(page, design_figures(cotton, passing))  # the last valid figures stay
    shots.take(page, "designer-refused")

    # The main its own chance, from the grid: explained beside the grid.
    page.get_by_label("The main is").select_option("thrown")
    _updated(page, 4)
    page.get_by_label("main 6, throw 6").select_option("chance")
    _updated(page, 5)
    expect(page.locator('fieldset[data-rule="opening"] .said')).to_contain_text(
        "the main cannot become its own chance"
    )
    expect(said).to_be_empty()
    page.get_by_label("main 6, throw 6").select_option("nick")
    _updated(page, 6)
    expect(state).to_have_attribute("data-state", "current")
    _shows(page, design_figures(cotton, passing))

    _range_and_a_new_main(page, cotton, passing, 6)

    # The file it downloads reads back through hazard odds with the page's figures.
    _reads_back(page, tmp_path / "designed.toml", design_figures(cotton, passing))

    page.set_viewport_size(PHONE)
    shots.take(page, "designer-live-phone")

    # A table with these rules.
    page.get_by_role("button", name="Start a table with these rules").click()
    page.wait_for_url("**/tables/*")
    table = server.state(int(page.url.rsplit("/", 1)[1]))
    assert "cotton-1674-designed" in json.dumps(table)
    assert errors == []
    context.close()
