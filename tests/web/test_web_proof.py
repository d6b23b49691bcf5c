"""The dice's proof checked in the browser (issue 21 item 8): ``/tables/{id}/proof`` recomputes, with Web
Crypto, every revealed hand's commitment and throws from the table's record, marks each ✔, and says what was
proved; a doctored record (a throw changed, or the server seed) is marked ✘ with what did not match; a hand
with no seed set after its commitment carries a plain warning; and the page's derivation gives the faces
Python's :func:`hazard.table.fair_throw` gives.

One ``hazard serve`` and one Chromium for the module (the fixtures of ``browser_helpers``); the table is
played through the API, so that which hands have a fresh seed is the test's choice.
"""

from __future__ import annotations

import json
import time
import urllib.error
import urllib.request
from typing import Any

import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import Page, Route, expect
from tests.web.browser_helpers import PHONE, Server, Web, browser, chromium, server, shots, web

from hazard.table import commitment, fair_throw

pytestmark = pytest.mark.slow  # real Chromium

__all__ = ["browser", "chromium", "server", "shots", "web"]  # the fixtures, used by name

_LOCAL = urllib.request.build_opener(urllib.request.ProxyHandler({}))


def _post(server: Server, path: str, body: dict[str, Any], token: str | None = None) -> tuple[int, Any]:
    headers = {"content-type": "application/json", "origin": server.url}
    if token is not None:
        headers["authorization"] = f"Bearer {token}"
    request = urllib.request.Request(server.url + path, json.dumps(body).encode(), headers, method="POST")
    try:
        with _LOCAL.open(request, timeout=5) as answer:
            return answer.status, json.load(answer)
    except urllib.error.HTTPError as error:
        return error.code, json.load(error)


def _play_hand(server: Server, game: int, tokens: dict[str, str]) -> None:
    """Play the hand in play until the dice pass: the caster calls 7 and throws until the round ends, then
    passes the dice. Each post is the one action the table waits for, so none is refused but for a write
    that came between (a page's seed): that one is looked at again after a moment, within a bound; the
    answers refused are in the failure."""
    begun = server.state(game)
    hand, rounds = begun["hand"], begun["state"]["rounds_played"]
    refused: list[tuple[str, int, object]] = []
    for _ in range(200):
        table = server.state(game)
        if table["hand"] != hand:
            return
        state = table["state"]
        if state["rounds_played"] > rounds:  # a round played: the caster passes the dice
            action = "pass"
        else:
            action = "call 7" if state["turn"]["need"] == "call" else "throw"
        status, said = _post(
            server, f"/api/tables/{game}/actions", {"action": action}, tokens[state["caster"]]
        )
        if status != 200:
            refused = [*refused[-5:], (action, status, said)]
            time.sleep(0.1)
    pytest.fail(f"hand {hand} did not end: the answers refused {refused}")


@pytest.fixture(scope="module")
def table(server: Server) -> int:
    """A table of fair dice with two hands played and revealed, and a third committed: in hand 1 Ann set a
    seed of her own after its commitment; in hand 2 nobody did (her seed was set before it)."""
    status, made = _post(server, "/api/tables", {"ruleset": "wikipedia"})
    assert status == 201, made
    game = int(made["id"])
    tokens = {}
    for name in ("Ann", "Bob"):
        status, seat = _post(server, f"/api/tables/{game}/seats", {"name": name, "bankroll": "100"})
        assert status == 201, seat
        tokens[name] = seat["token"]
    status, said = _post(
        server, f"/api/tables/{game}/actions", {"action": "seed ann-own-seed"}, tokens["Ann"]
    )
    assert status == 200, said
    _play_hand(server, game, tokens)
    _play_hand(server, game, tokens)
    return game


def _open(web: Web, path: str) -> Page:
    client = web.client()
    client.page.goto(path)
    return client.page


def test_the_page_checks_every_revealed_hand_in_the_browser(web: Web, table: int, server: Server) -> None:
    page = _open(web, f"/tables/{table}/proof")
    verdict = page.locator("#proof-verdict")
    expect(verdict).to_contain_text("✔ Checked in your browser")
    record = server.get(f"/api/tables/{table}/record")
    revealed = [hand for hand in record["hands"] if hand["server_seed"] is not None]
    throws = sum(len(hand["throws"]) for hand in revealed)
    assert len(revealed) == 2
    expect(verdict).to_contain_text(f"{throws} throw{'' if throws == 1 else 's'} of 2 hands")
    expect(verdict).to_contain_text("the hand in play is checked when the dice pass")
    checks = page.locator("section.hand td.check")
    assert checks.count() == throws + len(record["hands"][2]["throws"])
    for hand in revealed:
        section = page.locator(f'section.hand[data-hand="{hand["hand"]}"]')
        expect(section.locator(".hand-verdict")).to_contain_text("✔ Proved here: SHA-256 of the server seed")
        for t in hand["throws"]:
            expect(section.locator(f'tr[data-nonce="{t["nonce"]}"] td.check')).to_have_text(f"✔ {t['roll']}")
    first, second = (page.locator(f'section.hand[data-hand="{n}"]') for n in (1, 2))
    expect(first).to_contain_text("Ann at entry")
    assert first.locator(".warning").count() == 0
    expect(second.locator(".warning")).to_contain_text(
        "No player set a seed after the server's commitment: the server could have chosen these throws."
    )
    web.shot(page, "proof-desktop")
    page.set_viewport_size(PHONE)
    web.shot(page, "proof-phone")
    assert page.evaluate("() => document.documentElement.scrollWidth") <= PHONE["width"]
    for size in (PHONE, {"width": 1366, "height": 768}):
        page.set_viewport_size(size)
        results = Axe().run(page)
        assert results.violations_count == 0, results.generate_report()
    web.clean()


def _doctored(page: Page, table: int, change: Any) -> None:
    def serve(route: Route) -> None:
        record = route.fetch().json()
        change(record)
        route.fulfill(json=record)

    page.route(f"**/api/tables/{table}/record", serve)


def test_a_record_with_a_throw_changed_fails_and_says_which(web: Web, table: int) -> None:
    client = web.client()
    page = client.page
    changed: dict[str, str] = {}

    def change(record: dict[str, Any]) -> None:
        thrown = record["hands"][0]["throws"][0]
        changed["was"] = thrown["roll"]
        thrown["roll"] = "6-6" if thrown["roll"] != "6-6" else "1-1"
        changed["now"] = thrown["roll"]

    _doctored(page, table, change)
    page.goto(f"/tables/{table}/proof")
    verdict = page.locator("#proof-verdict")
    expect(verdict).to_contain_text("✘ The dice do not check: hand 1, throw 1")
    cell = page.locator('section.hand[data-hand="1"] tr[data-nonce="0"] td.check')
    expect(cell).to_have_text(
        f"✘ the seeds give {changed['was']}, the record says {changed['now']} and this page {changed['was']}"
    )
    expect(page.locator('section.hand[data-hand="1"] .hand-verdict')).to_contain_text(
        "✘ Hand 1 does not check"
    )
    expect(page.locator('section.hand[data-hand="2"] .hand-verdict')).to_contain_text("✔")
    web.shot(page, "proof-tampered-throw")


def test_a_record_with_another_server_seed_fails_its_commitment(web: Web, table: int) -> None:
    page = web.client().page

    def change(record: dict[str, Any]) -> None:
        seed = record["hands"][1]["server_seed"]
        record["hands"][1]["server_seed"] = seed[:-1] + ("0" if seed[-1] != "0" else "1")

    _doctored(page, table, change)
    page.goto(f"/tables/{table}/proof")
    expect(page.locator("#proof-verdict")).to_contain_text(
        "✘ The dice do not check: hand 2: SHA-256 of the server seed revealed is not the commitment"
    )
    expect(page.locator('section.hand[data-hand="2"] td.check').first).to_have_text(
        "✘ the server seed does not match its commitment"
    )
    expect(page.locator('section.hand[data-hand="1"] .hand-verdict')).to_contain_text("✔")


def test_the_pages_derivation_gives_the_faces_python_gives(web: Web, table: int) -> None:
    page = _open(web, f"/tables/{table}/proof")
    expect(page.locator("#proof-verdict")).to_contain_text("✔")
    cases = [
        (bytes(range(32)), "ann-seed,bob-seed", 0),
        (bytes(range(32)), "ann-seed,bob-seed", 7),
        (bytes([255] * 32), "x", 3),
        (bytes.fromhex("ab" * 32), "Ünïcode,seed ☂", 12),
        *((bytes([n] * 32), f"seed-{n}", n) for n in range(1, 40)),
    ]
    for seed, client_seed, nonce in cases:
        given = page.evaluate(
            "([s, c, n]) => window.hazardProof.fairThrow(s, c, n)", [seed.hex(), client_seed, nonce]
        )
        assert given == str(fair_throw(seed, client_seed, nonce)), (seed.hex(), client_seed, nonce)
        assert page.evaluate("(s) => window.hazardProof.sha256Hex(s)", seed.hex()) == commitment(seed)


def test_the_table_page_links_to_the_check(web: Web, table: int) -> None:
    page = _open(web, f"/tables/{table}")
    page.get_by_role("link", name="Check the dice in your browser").click()
    expect(page).to_have_url(f"{web.server.url}/tables/{table}/proof")
    expect(page.locator("#proof-verdict")).to_contain_text("✔")


def test_a_table_with_no_hand_ended_has_nothing_to_check_yet(web: Web, server: Server) -> None:
    status, made = _post(server, "/api/tables", {"ruleset": "wikipedia"})
    assert status == 201, made
    page = _open(web, f"/tables/{made['id']}/proof")
    expect(page.locator("#proof-verdict")).to_have_class("verdict done pending")
    expect(page.locator("#proof-verdict")).to_contain_text("Nothing to check yet: no hand has ended")
    web.clean()
