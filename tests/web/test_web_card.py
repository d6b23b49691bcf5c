"""The table card as a page (``/rules/{id}/card``): the same figures as ``hazard card``'s PDF, linked from the
lobby and from a table's rules card, the one refusal for anything but a built-in id, and, in Chromium, one
A4 sheet when printed (its own print to PDF, read back with pypdf)."""

from __future__ import annotations

import io
import unicodedata
from collections.abc import Iterator
from dataclasses import replace

import pytest
from fastapi.testclient import TestClient
from playwright.sync_api import Browser
from tests.web.browser_helpers import Server, Shots, browser, chromium, server, shots
from tests.web.helpers import LAX, Table
from tests.web.test_web_pages import parsed

from hazard.analysis.card import table_card
from hazard.core.rulesets import builtin_rulesets, find_ruleset, paytable_for
from hazard.web import WebConfig, create_app
from hazard.web.rulescard import card_link

__all__ = ["browser", "chromium", "server", "shots"]  # the browser test's fixtures

IDS = [ruleset.id for ruleset in builtin_rulesets()]


@pytest.fixture
def client(db_url: str) -> Iterator[TestClient]:
    with TestClient(create_app(WebConfig(db=db_url, poll=0.05, limits=LAX))) as test_client:
        test_client.headers["origin"] = "http://testserver"
        yield test_client


def _escaped(text: str) -> str:
    return text.replace("&", "&amp;").replace("'", "&#39;").replace('"', "&#34;").replace("<", "&lt;")


@pytest.mark.parametrize("ident", IDS)
def test_each_card_page_carries_the_pdf_s_figures(client: TestClient, ident: str) -> None:
    page = client.get(f"/rules/{ident}/card")
    assert page.status_code == 200
    assert page.headers["content-type"].startswith("text/html")
    ruleset = find_ruleset(ident)
    card = table_card(ruleset, paytable_for(ruleset))
    for text in (card.title, card.citation, card.main, card.passing, card.paytable, *card.notes):
        assert _escaped(text) in page.text
    for odds in card.odds:
        assert f"<td>{odds.p_win}</td><td>{odds.edge}</td>" in page.text
    for bet in card.bets:
        assert f"<span>{bet.proposition}</span> <strong>{bet.fair_odds}</strong>" in page.text
    for total, cells in card.grid:
        row = "".join(f'<td class="{cell}">{cell}</td>' for cell in cells)
        assert f'<th scope="row">{total}</th>{row}' in page.text
    assert f"<code>hazard card -r {ident} -o card.pdf</code>" in page.text
    assert parsed(page.text).scripts == ["/static/hazard.js"]


def test_a_built_in_paytable_may_be_named(client: TestClient) -> None:
    page = client.get("/rules/britannica/card", params={"paytable": "wikipedia"})
    assert page.status_code == 200
    assert "<td>+0.0556 (1/18)</td>" in page.text  # main 5 under the Wikipedia odds
    assert '<th scope="col">main \\ chance</th>' in page.text


def test_the_lobby_and_a_table_s_rules_card_link_the_card(client: TestClient) -> None:
    lobby = client.get("/").text
    assert all(f'<a href="/rules/{ident}/card">{ident}</a>' in lobby for ident in IDS)
    wikipedia = find_ruleset("wikipedia")
    assert card_link(wikipedia, paytable_for(wikipedia)) == "/rules/wikipedia/card"
    britannica = find_ruleset("britannica-1911")
    assert card_link(britannica, paytable_for(wikipedia)) == "/rules/britannica-1911/card?paytable=wikipedia"
    assert card_link(britannica, None) == "/rules/britannica-1911/card"

    assert card_link(replace(britannica, name="my own"), None) == ""  # a file of one's own: no card page


def test_a_table_s_rules_card_links_its_card(client: TestClient) -> None:
    table = Table(client, ruleset="britannica-1911", paytable="wikipedia")
    page = client.get(f"/tables/{table.id}").text
    assert '<a href="/rules/britannica-1911/card?paytable=wikipedia">The table card</a>' in page
    assert client.get("/rules/britannica-1911/card?paytable=wikipedia").status_code == 200


@pytest.mark.parametrize(
    ("path", "params", "what"),
    [
        ("/rules/nope/card", {}, "ruleset"),
        ("/rules/craps.toml/card", {}, "ruleset"),
        ("/rules/%3Cb%3Ex/card", {}, "ruleset"),
        ("/rules/craps/card", {"paytable": "src/hazard/core/rulesets/paytables/even.toml"}, "paytable"),
        ("/rules/craps/card", {"paytable": "nope"}, "paytable"),
    ],
)
def test_anything_but_a_built_in_id_is_the_one_refusal(
    client: TestClient, path: str, params: dict[str, str], what: str
) -> None:
    answer = client.get(path, params=params)
    assert answer.status_code == 422
    body = answer.json()
    assert set(body) == {"error", "said"}
    assert body["error"].startswith(f"invalid table card: {what} ")
    too_long = client.get("/rules/" + "x" * 81 + "/card")
    assert too_long.status_code == 422
    assert set(too_long.json()) == {"error", "said"}


@pytest.mark.slow  # real Chromium: each ruleset's page printed
def test_each_card_prints_on_one_a4_sheet_in_chromium(server: Server, browser: Browser, shots: Shots) -> None:
    pypdf = pytest.importorskip("pypdf")
    context = browser.new_context(viewport={"width": 1366, "height": 768})
    try:
        page = context.new_page()
        for ident in IDS:
            page.goto(f"{server.url}/rules/{ident}/card")
            shots.take(page, f"card-{ident}-desktop")
            printed = pypdf.PdfReader(io.BytesIO(page.pdf(prefer_css_page_size=True, print_background=True)))
            assert len(printed.pages) == 1, f"{ident}: {len(printed.pages)} pages"
            box = printed.pages[0].mediabox
            assert (float(box.width), float(box.height)) == pytest.approx((595.28, 841.89), abs=1.5)
            text = " ".join(unicodedata.normalize("NFKC", printed.pages[0].extract_text()).split())
            assert find_ruleset(ident).source.citation in text  # the fonts' ligatures (fi) read as letters
        page.set_viewport_size({"width": 390, "height": 844})
        page.goto(f"{server.url}/rules/ecws-1674/card")
        shots.take(page, "card-ecws-1674-phone")
        assert page.evaluate("document.documentElement.scrollWidth") <= 390  # the page never scrolls sideways
    finally:
        context.close()
