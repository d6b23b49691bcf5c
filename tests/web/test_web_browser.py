"""The web table in a real browser: ``hazard serve`` as a subprocess, Debian's Chromium driven by Playwright.

Each test sets its tables up through the pages as a person would (the lobby's form, the join form, the
buttons and forms a view offers) and checks what every browser at the table shows after each action: the same
entry number (the live socket swaps the view in; ``.view[data-seq=K]`` is the view of entry K) and the same
bankrolls, which are the record's. No test talks to anything but 127.0.0.1.

Chromium is ``/usr/bin/chromium`` (Debian's package). Without it the module is skipped, unless
``HAZARD_REQUIRE_BROWSER`` is set (``.ci/run`` sets it), when its absence fails. Screenshots of the pages go
to the folder ``HAZARD_SCREENSHOTS`` names, else to a temporary folder.
"""

from __future__ import annotations

import json
import re
import time
import urllib.error
import urllib.request
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, Route, expect
from tests.web.browser_helpers import (
    _LOCAL,
    _PLAYERS_JS,
    _SHOWS_AT_LEAST,
    MAX_CLICKS,
    PHONE,
    PLAYWRIGHT_VIEWPORT,
    POLL_MS,
    Client,
    Server,
    Shots,
    Web,
    action_buttons,
    browser,
    chromium,
    command,
    seated,
    server,
    shots,
    stake,
    web,
)

__all__ = ["browser", "chromium", "server", "shots", "web"]  # the fixtures, used by name


pytestmark = pytest.mark.slow  # real Chromium, a page at a time


def players(page: Page) -> list[list[str]]:
    shown: list[list[str]] = page.evaluate(_PLAYERS_JS)
    return shown


def point(page: Page, what: str) -> str:
    """What the round's panel shows for ``what``: caster, main, chance or round."""
    return page.locator(".point div").filter(has=page.locator("dt", has_text=what)).locator("dd").inner_text()


def play(web: Web, game: int, ann: Client, bob: Client, *, rounds: int) -> list[str]:
    """Whoever holds the dice calls 7 and throws, with the buttons the page shows, until ``rounds`` rounds are
    over; Bob stakes 5 on each round Ann casts, before the main is called. The first time a round has its
    chance, Ann's page (and the same at a phone's width) is photographed. Returns what the page of each
    action said of it."""
    both = [ann, bob]
    said: list[str] = []
    staked = {0}  # the first round's stake is laid already
    shot = False
    for _ in range(MAX_CLICKS):
        state = web.server.state(game)["state"]
        if state["rounds_played"] >= rounds:
            return said
        caster = ann if state["caster"] == "Ann" else bob
        buttons = action_buttons(caster.page)
        if "Call 7" in buttons and state["rounds_played"] not in staked and caster is ann:
            staked.add(state["rounds_played"])
            stake(web, bob, game, "5", both)
            continue
        label = "Throw the dice" if "Throw the dice" in buttons else "Call 7"
        assert label in buttons, (state["caster"], buttons)
        web.act(caster, caster.page.get_by_role("button", name=label, exact=True).click, game, both)
        said.append(caster.page.locator("#message").inner_text())
        if not shot and point(ann.page, "chance") != "—":
            shot = True
            expect(ann.page.locator(".throws .dice").first).to_be_visible()
            web.shot(ann.page, "table-seated")
            web.phone_shot(ann, f"/tables/{game}", "table-seated-phone")
    pytest.fail(f"{rounds} rounds took more than {MAX_CLICKS} actions")


# --- the tests -------------------------------------------------------------------------------------------


def test_two_players_play_rounds_with_a_stake_and_a_side_bet(web: Web) -> None:
    host = web.client()
    game = web.new_table(host, shot="lobby")
    web.phone_shot(host, "/", "lobby-phone")
    # The creator is the host, not a player: the page offers a seat.
    expect(host.page.locator("#join")).to_be_visible()
    ann = web.client()
    web.join(ann, game, "Ann")
    bob = web.client(f"/tables/{game}")
    web.join(bob, game, "Bob")
    both = [ann, bob]
    web.synced(game, [host, *both])
    expect(ann.page.locator("table.players")).to_contain_text("caster, you")

    stake(web, bob, game, "5", both)
    for client in both:
        expect(client.page.locator("ul.stakes")).to_have_text("Bob stakes 5.00 against the caster")
        expect(client.page.locator("ol.log")).to_contain_text("Bob stakes 5.00 against Ann")

    offer = bob.page.locator("form.offer")
    offer.get_by_label("Bet", exact=True).fill("4 or 10 before 7")
    offer.get_by_label("Amount", exact=True).fill("2")
    # The figures come before the bet is sent.
    expect(offer.locator(".preview")).to_contain_text("wins with probability 1/2 (0.5000); fair odds 1 to 1")
    web.act(bob, offer.get_by_role("button", name="Offer").click, game, both)
    expect(bob.page.locator("#message")).to_contain_text("side bet offered: #1 Bob backs '4 or 10 before 7'")
    for client in both:
        expect(client.page.locator('li[data-bet="1"]')).to_contain_text("open: nobody has taken it")

    web.act(ann, ann.page.get_by_role("button", name="Take bet #1").click, game, both)
    for client in both:
        expect(client.page.locator('li[data-bet="1"]')).to_contain_text("laid by Ann")
    assert "Cancel bet #1" not in action_buttons(bob.page)

    said = play(web, game, ann, bob, rounds=3)
    assert any(re.search(r"the caster Ann (wins|loses) \d", text) for text in said), said
    # The side bet is settled by the first 4, 10 or 7, which three rounds have all but surely thrown.
    if not web.server.state(game)["state"]["side_bets"]:
        assert any("side bet #1 '4 or 10 before 7' " in text for text in said), said
    # The money is all still there, and both pages agree on where.
    for client in both:
        total = sum(float(row[1]) for row in players(client.page))
        assert total == 200.0, players(client.page)
    assert players(ann.page) == players(bob.page)
    web.clean()


def test_a_spectator_and_the_big_screen_follow_the_table(web: Web) -> None:
    game, _, ann, bob = seated(web)
    both = [ann, bob]
    stake(web, bob, game, "5", both)
    web.act(ann, ann.page.get_by_role("button", name="Call 7").click, game, both)

    watcher = web.client(f"/tables/{game}")
    screen = web.client(f"/tables/{game}/screen")
    everyone = [ann, bob, watcher, screen]
    web.synced(game, everyone)
    web.act(ann, ann.page.get_by_role("button", name="Throw the dice").click, game, everyone)
    assert players(watcher.page) == players(ann.page) == players(screen.page)
    page = watcher.page
    expect(page.locator(".players")).not_to_contain_text("you")
    # A spectator may sit down, and do nothing else.
    expect(page.locator(".controls h2")).to_have_text("Join the table")
    assert page.locator("#table form").count() == 1
    expect(page.locator("#table form")).to_have_id("join")
    assert page.locator("button[data-action], form.act, #bot, #close, #enter-roll, .host").count() == 0
    assert page.locator("#table button").all_inner_texts() == ["Sit down"]
    web.shot(page, "spectator")
    # The big screen: no controls at all, no links, the dice large.
    page = screen.page
    assert page.locator("form, button, nav").count() == 0
    expect(page.locator(".throws .dice.big").first).to_be_visible()
    web.shot(page, "screen")
    web.clean()


def test_a_reload_keeps_the_seat(web: Web) -> None:
    game, _, ann, bob = seated(web)
    ann.page.reload()
    expect(ann.page.locator(".controls h2")).to_have_text("Your seat, Ann")
    ann_row = ann.page.locator("table.players tbody tr").filter(has_text="Ann")
    expect(ann_row.locator(".tag")).to_have_text("caster, you")
    expect(ann.page.locator("table.players tbody tr").filter(has_text="Bob")).not_to_contain_text("you")
    # A new page in the same browser is Ann's too, and she acts from it.
    again = ann.watch(ann.context.new_page())
    again.goto(f"/tables/{game}")
    expect(again.locator(".controls h2")).to_have_text("Your seat, Ann")
    again.close()
    web.act(ann, ann.page.get_by_role("button", name="Call 7").click, game, [ann, bob])
    expect(ann.page.locator(".turn")).to_have_text("Ann to throw")
    web.clean()


def test_a_bad_action_shows_its_message(web: Web) -> None:
    game, _, ann, bob = seated(web)
    before = web.server.head(game)
    form = ann.page.locator('form[data-template="{command}"]')
    form.get_by_role("textbox", name="Command").fill("stake lots")
    error = web.refused(ann, form.get_by_role("button", name="Send").click, game)
    assert "stake 'lots'" in error
    assert web.synced(game, [ann, bob]) == before
    box = ann.page.locator('form[data-template="{command}"]').get_by_role("textbox", name="Command")
    expect(box).to_have_value("stake lots")  # kept, to be put right
    # The page is still usable: the same box, then a button.
    command(web, ann, game, "call 6", [ann, bob])
    expect(ann.page.locator("#message")).to_have_class(re.compile(r"\bok\b"))
    expect(ann.page.locator("#message")).to_have_text("the caster calls 6 as the main")
    expect(box).to_have_value("")
    expect(bob.page.locator(".turn")).to_have_text("Ann to throw")
    web.act(ann, ann.page.get_by_role("button", name="Throw the dice").click, game, [ann, bob])
    expect(ann.page.locator("#message")).to_contain_text("Ann throws ")
    web.clean()


def test_a_command_typed_while_the_view_is_fetched_is_kept_and_sent(web: Web) -> None:
    """A command box is emptied once its action is taken, not after the view that follows is fetched: what
    is typed into it meanwhile (the next command, to a page whose socket has already brought the entry) is
    kept, and sent as typed. Emptied after the fetch, it was lost, and the box sent empty: a throw."""
    referee = web.client()
    game = web.new_table(referee, dice="typed")
    page = referee.page
    command(web, referee, game, "sit Ann 100", [referee])
    held: list[Route] = []
    holding = [True]

    def hold(route: Route) -> None:  # every fetch of the view waits until let go
        if holding[0]:
            held.append(route)
        else:
            route.continue_()

    page.route(re.compile(r"/view\?"), hold)
    box = page.locator('form[data-template="{command}"]').get_by_role("textbox", name="Command")
    box.fill("sit Bob 100")
    with page.expect_response(lambda response: response.url.endswith(f"/{game}/actions")) as answer:
        page.locator('form[data-template="{command}"]').get_by_role("button").click()
    assert answer.value.ok, answer.value.json()
    expect(page.locator("#message")).to_contain_text("Bob sits down with 100")  # the answer is handled
    box.fill("sit Cat 100")  # the next command, typed while the view is on its way
    assert held, "the page fetched no view after its action"
    holding[0] = False
    for route in held:
        route.continue_()
    web.synced(game, [referee])
    page.wait_for_timeout(300)  # whatever the page does once its fetches are answered, it has done
    assert box.input_value() == "sit Cat 100"
    command(web, referee, game, "sit Cat 100", [referee])
    expect(page.locator("#message")).to_contain_text("Cat sits down with 100")
    assert [p["name"] for p in web.server.state(game)["state"]["players"]] == ["Ann", "Bob", "Cat"]
    web.clean()


def test_the_referee_enters_a_round_of_real_dice(web: Web) -> None:
    referee = web.client()
    game = web.new_table(referee, dice="typed")
    page = referee.page
    assert page.url.endswith(f"/tables/{game}/referee")
    watcher = web.client(f"/tables/{game}")
    everyone = [referee, watcher]
    for text in ("sit Ann 100", "sit Bob 100", "stake Bob 5", "call 7"):
        command(web, referee, game, text, everyone)
    expect(watcher.page.locator(".turn")).to_have_text("Ann to throw")

    def throw(a: int, b: int) -> None:
        enter = page.get_by_role("button", name="Enter the throw")
        expect(enter).to_be_disabled()
        page.locator(f'.die[data-die="a"] button[data-face="{a}"]').click()
        expect(enter).to_be_disabled()
        page.locator(f'.die[data-die="b"] button[data-face="{b}"]').click()
        expect(page.locator("#roll-shown")).to_have_text(f"{a}-{b}")
        web.act(referee, enter.click, game, everyone)

    # 6 is the chance; 3 is neither; 6 again wins it for the caster.
    throws = iter([(3, 3), (1, 2), (5, 4), (2, 4), (3, 3)])
    thrown = []
    while web.server.state(game)["state"]["rounds_played"] < 1:
        roll = next(throws, None)
        assert roll is not None, "the round did not end"
        throw(*roll)
        thrown.append(roll)
        if len(thrown) == 1:
            web.shot(page, "referee")
    assert thrown == [(3, 3), (1, 2), (5, 4), (2, 4)]
    log = page.locator("ol.log")
    for a, b in thrown:
        expect(log).to_contain_text(f"the referee: throw {a}-{b}")
    expect(log).to_contain_text("6 is the chance, thrown before the main 7: the caster wins")
    expect(watcher.page.locator("ol.log")).to_contain_text("the caster Ann wins")
    bankrolls = {row[0]: row[1] for row in players(page)}
    assert bankrolls["Ann"] != "100.00"

    # Undo: the last throw is void, the round in play again, the money back.
    head = web.act(referee, page.get_by_role("button", name="Undo the last action").click, game, everyone)
    expect(log).to_contain_text(f"[{head}] the referee: correction: entry {head - 1} is void")
    state = web.server.state(game)["state"]
    assert state["rounds_played"] == 0
    assert (state["main"], state["chance"]) == (7, 6)
    assert {row[0]: row[1] for row in players(page)} == {"Ann": "100.00", "Bob": "100.00"}
    expect(watcher.page.locator(".turn")).to_have_text("Ann to throw")
    throw(6, 1)
    expect(log).to_contain_text("7 is the main, thrown before the chance 6: the caster loses")
    assert web.server.state(game)["state"]["rounds_played"] == 1
    web.clean()


def test_the_creator_takes_a_seat_at_his_own_table(web: Web) -> None:
    host = web.client()
    game = web.new_table(host)
    web.join(host, game, "Ann")
    web.synced(game, [host])
    assert host.page.locator(".controls h2").inner_text() == "Your seat, Ann"


def test_the_host_has_the_host_tools_on_the_table_page(web: Web) -> None:
    host = web.client()
    game = web.new_table(host)
    page = host.page
    assert page.locator("#bot").count() == 1
    assert page.locator(f'nav a[href="/tables/{game}/referee"]').count() == 1


def test_a_browser_kept_for_the_next_test_forgets_the_person_before(server: Server, browser: Browser) -> None:
    """The browsers a test leaves are wiped and kept for the module's next (``Web.close``, ``Web.client``):
    the next person gets the same page (its renderer kept), but nothing of the last one's: no seat or host
    cookie, stored data, permission, route, other tab, viewport or listener."""
    before = Web(server, browser, Shots(None))
    try:
        host = before.client()
        game = before.new_table(host)
        before.join(host, game, "Ann")
        expect(host.page.locator(".controls h2")).to_have_text("Your seat, Ann")
        host.page.evaluate("() => localStorage.setItem('hazard-sound', 'on')")
        host.context.grant_permissions(["clipboard-read"], origin=server.url)
        host.page.route("**/*", lambda route: route.abort())
        host.page.set_viewport_size(PHONE)
        tab = host.context.new_page()
    finally:
        before.close()
    after = Web(server, browser, Shots(None))
    try:
        next_one = after.client(f"/tables/{game}")
        assert (next_one.context, next_one.page) == (host.context, host.page), "not the browser kept"
        assert tab.is_closed()
        assert next_one.context.cookies() == []
        page = next_one.page
        expect(page.locator(".controls h2")).to_have_text("Join the table")  # neither Ann nor the host
        assert page.locator("#bot").count() == 0
        assert page.evaluate("() => localStorage.length") == 0
        clipboard = "() => navigator.permissions.query({name: 'clipboard-read'}).then((p) => p.state)"
        assert page.evaluate(clipboard) != "granted"
        assert page.viewport_size == PLAYWRIGHT_VIEWPORT
        page.evaluate("() => alert('only mine')")
        assert (host.dialogs, next_one.dialogs) == ([], ["only mine"])
        next_one.dialogs.clear()
        after.clean()
    finally:
        after.close()
    # A browser whose page the test closed is not kept: the next person's is a new one.
    closing = Web(server, browser, Shots(None))
    try:
        closing.client().page.close()
    finally:
        closing.close()
    fresh = Web(server, browser, Shots(None))
    try:
        assert fresh.client().context not in (host.context, next_one.context)
    finally:
        fresh.close()


def test_each_seated_page_sets_a_seed_of_its_own_for_each_hand(web: Web) -> None:
    """Issue 19, finding 8: every seated page draws a fresh seed (Web Crypto) for each hand as soon as it sees
    the hand's commitment, and sends it with no typing; so each hand's record holds, after its commitment and
    before its first throw, a seed entry made by each seat, and the server, committed already, knew none."""
    game, _, ann, bob = seated(web)
    both = [ann, bob]
    hands = 3
    thrown: set[int] = set()
    for _ in range(MAX_CLICKS):
        state = web.server.state(game)
        hand = int(state["hand"])
        if hand > hands:
            break
        for client in both:  # each page has set its seed for this hand, shown as set
            expect(client.page.locator(f'[data-seed-set="{hand}"]')).to_be_attached()
        caster = ann if state["state"]["caster"] == "Ann" else bob
        buttons = action_buttons(caster.page)
        if hand in thrown and "Pass the dice" in buttons:  # each hand is thrown once, then the dice pass
            label = "Pass the dice"
        else:
            label = next(b for b in ("Call 7", "Throw the dice") if b in buttons)
            thrown |= {hand} if label == "Throw the dice" else set()
        web.act(caster, caster.page.get_by_role("button", name=label, exact=True).click, game, both)
    else:
        pytest.fail(f"{hands} hands took more than {MAX_CLICKS} actions")
    record = web.server.get(f"/api/tables/{game}/record")
    entries = record["entries"]
    at = {(e["entry"]["type"], e["entry"].get("hand")): e["seq"] for e in entries}
    for number in range(1, hands + 1):
        begun, opened = at[("commit", number)], at.get(("hand-opened", number))
        assert opened is not None, f"hand {number} was not thrown"
        made = {
            e["actor"].get("name"): e["entry"]["seed"]
            for e in entries
            if e["entry"]["type"] == "client-seed" and begun < e["seq"] < opened
        }
        assert sorted(made) == ["Ann", "Bob"], (number, made)
        assert all(re.fullmatch(r"[0-9a-f]{32}", seed) for seed in made.values())
        hand = record["hands"][number - 1]
        assert hand["client_seed"] == ",".join(made[p["name"]] for p in record["state"]["players"])
    assert len({e["entry"]["seed"] for e in entries if e["entry"]["type"] == "client-seed"}) >= 2 * hands
    expect(ann.page.locator("#message")).not_to_have_class(re.compile(r"\berror\b"))
    web.clean()


def test_an_entry_written_while_the_page_fetches_its_view_is_shown(web: Web) -> None:
    """Every entry reaches every page: one written while the page's fetch of the view is on its way (and
    answered before it) still brings the page to it. The page used to keep the answer on its way and stand
    at the entry before until the table moved again."""
    host = web.client()
    game = web.new_table(host)
    watcher = web.client(f"/tables/{game}")
    head = web.synced(game, [host, watcher])
    held: list[int] = []

    def sit(name: str) -> None:
        request = urllib.request.Request(
            f"{web.server.url}/api/tables/{game}/seats",
            data=json.dumps({"name": name, "bankroll": "100"}).encode(),
            headers={"content-type": "application/json"},
            method="POST",
        )
        with _LOCAL.open(request, timeout=5) as answer:
            assert answer.status == 201

    def hold_the_first(route: Any) -> None:
        if held:
            route.continue_()
            return
        answer = route.fetch()  # the view of the entry that asked for it
        held.append(web.server.head(game))
        sit("Dan")  # the next entry, written while the page waits for that answer
        time.sleep(1.0)  # its update reaches the page before the answer does
        route.fulfill(response=answer)

    watcher.page.route(re.compile(r"/view\?"), hold_the_first)
    sit("Cat")
    watcher.page.wait_for_function(_SHOWS_AT_LEAST, arg=head + 2, polling=POLL_MS)
    assert held == [head + 1]
    web.synced(game, [host, watcher])
    expect(watcher.page.locator(".players")).to_contain_text("Dan")
    web.clean()
