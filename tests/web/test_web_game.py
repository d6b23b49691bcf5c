"""A whole game in real browsers (issue 21, "What must be shown"): three players over several rounds at a
table of fair dice in the decimal money style, set up through the pages as people would.

Ann plays on a phone (390x844, a touch screen: she taps), Bob and Cy at desktops (1366x768); a spectator and
the big screen watch. The non-casters lay their stakes from the stake form, the caster calls a main and
throws from his turn line's buttons, and the dice pass until each of the three has cast. On the way, a source
side bet is offered in one tap and taken by another player, its value to him beside the Take button; Bob's
page is reloaded (the seat is kept); and the server is killed and started again on the same port over the
same record: every page reconnects and resyncs, and play goes on from the same entry.

After every action every page shows the table's last entry and the record's bankrolls (``Web.synced``), and
each viewer's turn line says what he can do or whom the table waits for; each settled round has its result
banner. At the end the money is all there and ``hazard verify`` passes on the record. The dice are the
server's: the test follows what the record says, never what it expects them to throw.
"""

from __future__ import annotations

import re
import subprocess
import sys
from collections.abc import Callable
from fractions import Fraction
from typing import Any

import pytest
from playwright.sync_api import Browser, Locator, ViewportSize, expect
from tests.web.browser_helpers import (
    PHONE,
    WAIT_MS,
    Client,
    Restartable,
    Server,
    Shots,
    Web,
    action_buttons,
    browser,
    chromium,
    restartable,
    shots,
    stake,
)

pytestmark = pytest.mark.slow  # real Chromium, five pages

__all__ = ["browser", "chromium", "restartable", "shots"]  # the fixtures, used by name

DESKTOP: ViewportSize = {"width": 1366, "height": 768}
ROUNDS = 3
"""The fewest rounds the game plays."""
MAX_ACTIONS = 120
"""The most actions the game may take (a round is a few stakes, a call, a throw or more, maybe a pass)."""
BANKROLL = "100"
MAINS = (7, 6, 8, 5, 9)
"""The main each round's caster calls, in turn."""
_LOOK = """() => {
  const turn = document.querySelector(".turnline .turn-text");
  const banner = document.querySelector(".card.result");
  return [turn ? turn.textContent.trim() : null, banner ? banner.innerText : null];
}"""
"""A page's turn line and its result banner (null where it has none)."""
FRACTION = re.compile(r"\b\d+/\d+\b")
"""Money written as a fraction, which a decimal table never shows."""


# --- a server to kill and start again -------------------------------------------------------------------


# --- the people ------------------------------------------------------------------------------------------


def person(web: Web, size: ViewportSize, *, phone: bool = False) -> Client:
    """A browser of one's own at ``size``; a phone's is a touch screen (and reports itself as mobile)."""
    context = web.browser.new_context(
        base_url=web.server.url, viewport=size, is_mobile=phone, has_touch=phone
    )
    context.set_default_timeout(WAIT_MS)
    context.set_default_navigation_timeout(WAIT_MS)
    client = Client(context, context.new_page())
    client.watch(client.page)
    web.clients.append(client)
    return client


def press(client: Client, button: Locator) -> Callable[[], None]:
    """What a person does to a button: a tap on a touch screen, a click elsewhere."""
    touch = bool(client.page.evaluate("() => navigator.maxTouchPoints > 0"))
    return button.tap if touch else button.click


def new_table(web: Web, client: Client) -> int:
    """Set a table of fair dice, in decimal money, up from the lobby's form; its number."""
    page = client.page
    page.goto("/")
    form = page.locator("#new-table")
    form.locator("select[name=ruleset]").select_option("wikipedia")
    form.locator("input[name=dice][value=fair]").check()
    form.locator("select[name=money]").select_option("decimal")
    form.get_by_label("Name of the table").fill("The Groom Porter's")
    form.get_by_role("button", name="Set up the table").click()
    page.wait_for_url(re.compile(r"/tables/\d+$"))
    match = re.search(r"/tables/(\d+)", page.url)
    assert match is not None, page.url
    return int(match.group(1))


# --- what every page must show ---------------------------------------------------------------------------


class Game:
    """The table, its seats' browsers by name, and its watchers; every check after an action."""

    def __init__(self, web: Web, game: int, seats: dict[str, Client], watchers: list[Client]) -> None:
        self.web = web
        self.game = game
        self.seats = seats
        self.watchers = watchers
        self.everyone = [*seats.values(), *watchers]

    def state(self) -> dict[str, Any]:
        state: dict[str, Any] = self.web.server.state(self.game)
        return state

    def act(self, who: str, button: Locator) -> int:
        """``who`` presses ``button``, which sends one action; then every page is checked."""
        client = self.seats[who]
        if client.page.viewport_size == PHONE and button.evaluate("(b) => b.closest('.turnline') !== null"):
            expect(button, f"{who}'s {button} on a phone, unscrolled").to_be_in_viewport()
        head = self.web.act(client, press(client, button), self.game, self.everyone)
        message = client.page.locator("#message").inner_text()
        assert not FRACTION.search(message), f"{who}'s message bar at a decimal table: {message!r}"
        self.check()
        return head

    def check(self) -> None:
        """Every page at the table's last entry with the record's bankrolls; each viewer's turn line right;
        the last settled round's banner on every page."""
        head = self.web.synced(self.game, self.everyone)
        state = self.state()["state"]
        caster, need = state["caster"], state["turn"]["need"]
        verb = {"call": "call a main", "throw": "throw"}[need]
        mine = {"call": "Your turn: call a main", "throw": "Your turn: throw the dice"}[need]
        played = int(state["rounds_played"])
        names = [*self.seats, *(client.page.url for client in self.watchers)]
        for name, client in zip(names, self.everyone, strict=True):
            # The view stands still once synced: one look at each page.
            turn, banner = client.page.evaluate(_LOOK)
            text = mine if name == caster else f"Waiting for {caster} to {verb}"
            assert turn == text, f"{name}'s turn line at entry {head} reads {turn!r}, not {text!r}"
            if not played:
                assert banner is None, (
                    f"{name}'s page at entry {head} has a banner before any round: {banner}"
                )
                continue
            assert banner is not None, f"{name}'s page at entry {head} has no banner for round {played}"
            assert banner.startswith(f"Round {played}: "), f"{name}'s banner at entry {head}: {banner!r}"
            assert not FRACTION.search(banner), f"{name}'s banner at a decimal table: {banner!r}"

    def stake(self, who: str, amount: str) -> None:
        """``who`` lays a stake against the caster from his page's stake form."""
        client = self.seats[who]
        stake(self.web, client, self.game, amount, self.everyone)
        expect(client.page.locator("ul.stakes")).to_contain_text(f"{who} stakes {float(amount):.2f}")
        self.check()

    def call(self, caster: str, main: int, played: int) -> None:
        """The caster calls ``main`` (else 7) from his turn line."""
        buttons = self.buttons(caster)
        label = f"Call {main}" if f"Call {main}" in buttons else "Call 7"
        assert label in buttons, f"{caster}'s page at round {played + 1} offers {buttons}"
        self.act(caster, self.button(caster, label))

    def buttons(self, who: str) -> dict[str, str]:
        return action_buttons(self.seats[who].page)

    def button(self, who: str, label: str) -> Locator:
        return self.seats[who].page.get_by_role("button", name=label, exact=True)


def casters(record: dict[str, Any]) -> list[str]:
    """Who called each round's main, in order, from the record's entries."""
    called = [e for e in record["entries"] if e["entry"]["type"] == "call"]
    return [str(e["actor"].get("name")) for e in called]


def test_three_players_play_a_whole_game_through_a_reload_and_a_restart(
    browser: Browser, restartable: Restartable, shots: Shots
) -> None:
    web = Web(restartable.start(), browser, shots)
    try:
        _play(web, restartable)
    finally:
        web.close()


def _play(web: Web, restartable: Restartable) -> None:
    table = _sit_down(web)
    _rounds(table, restartable)
    game = table.game
    record = web.server.get(f"/api/tables/{game}/record")
    who = casters(record)
    assert {"Ann", "Bob", "Cy"} <= set(who), f"the dice never reached each player: the casters were {who}"
    final = table.state()["state"]
    assert int(final["rounds_played"]) >= ROUNDS
    total = sum(Fraction(str(p["bankroll"])) for p in final["players"])
    assert total == 3 * Fraction(BANKROLL), f"the money is not all there: {final['players']}"
    for client in table.everyone:  # nothing on any page is money written as a fraction
        shown = client.page.locator("main").inner_text()
        assert not FRACTION.search(shown), f"{client.page.url} at a decimal table: {FRACTION.findall(shown)}"
    _verify(restartable, game)
    _shoot(table)
    web.clean()


def _sit_down(web: Web) -> Game:
    """Bob sets the table up from the lobby; the three sit down from its join form; the spectator and the
    big screen open its pages."""
    bob = person(web, DESKTOP)
    game = new_table(web, bob)
    ann = person(web, PHONE, phone=True)
    cy = person(web, DESKTOP)
    web.join(bob, game, "Bob", BANKROLL)
    web.join(ann, game, "Ann", BANKROLL)
    web.join(cy, game, "Cy", BANKROLL)
    spectator = person(web, DESKTOP)
    spectator.page.goto(f"/tables/{game}")
    screen = person(web, DESKTOP)
    screen.page.goto(f"/tables/{game}/screen")
    table = Game(web, game, {"Ann": ann, "Bob": bob, "Cy": cy}, [spectator, screen])
    table.check()
    for name, client in table.seats.items():
        expect(client.page.locator(".controls h2")).to_have_text(f"Your seat, {name}")
    expect(spectator.page.locator(".controls h2")).to_have_text("Join the table")
    seated = [p["name"] for p in table.state()["state"]["players"]]
    assert sorted(seated) == ["Ann", "Bob", "Cy"], seated
    return table


def _rounds(table: Game, restartable: Restartable) -> None:
    """At least ``ROUNDS`` rounds, each caster keeping the dice for one round until all three have cast; a
    side bet and its taking before the first, a reload after it, the restart in the third."""
    staked: set[tuple[int, str]] = set()
    cast: dict[str, int] = {}  # rounds each caster has finished
    bet = reloaded = restarted = False
    for _ in range(MAX_ACTIONS):
        state = table.state()["state"]
        played = int(state["rounds_played"])
        caster, need = state["caster"], state["turn"]["need"]
        others = [name for name in table.seats if name != caster]
        if played >= ROUNDS and len(cast) == 3 and bet and reloaded and restarted:
            return
        between = need == "call" and not state["stakes"]
        if between and played >= 1 and not reloaded:
            reloaded = True
            _reload(table, "Bob")
        elif (
            between
            and cast.get(caster, 0) >= 1
            and len(cast) < 3
            and "Pass the dice" in table.buttons(caster)
        ):
            table.act(caster, table.button(caster, "Pass the dice"))
        elif need == "call" and not bet:
            bet = True  # Ann, on her phone, takes it where she can
            taker = "Ann" if "Ann" in others else others[0]
            _side_bet(table, offerer=next(o for o in others if o != taker), taker=taker)
        elif need == "call":
            staker = next((o for o in others if (played, o) not in staked), None)
            if staker is not None:
                staked.add((played, staker))
                table.stake(staker, "2.5")  # a sum a fraction would write 5/2
            else:
                table.call(caster, MAINS[played % len(MAINS)], played)
        elif played >= 2 and not restarted:
            restarted = True
            _restart(table, restartable)
        else:
            assert need == "throw", state["turn"]
            table.act(caster, table.button(caster, "Throw the dice"))
            if int(table.state()["state"]["rounds_played"]) > played:
                cast[caster] = cast.get(caster, 0) + 1
    pytest.fail(
        f"the game took more than {MAX_ACTIONS} actions: {cast} cast, side bet {bet}, reload {reloaded}, "
        f"restart {restarted}, at {table.state()['state']}"
    )


def _reload(table: Game, who: str) -> None:
    """A reload of ``who``'s page mid-game: the seat is kept, and the page is the table's."""
    page = table.seats[who].page
    page.reload()
    expect(page.locator(".controls h2")).to_have_text(f"Your seat, {who}")
    expect(page.locator("table.players tbody tr").filter(has_text=who)).to_contain_text("you")
    table.check()


def _side_bet(table: Game, *, offerer: str, taker: str) -> None:
    """``offerer`` offers a source bet in one tap; ``taker`` sees its value to him beside Take and takes
    it."""
    page = table.seats[offerer].page
    offer = page.locator("form.offer")
    offer.get_by_label("Amount", exact=True).fill("1.5")
    source = offer.locator("fieldset.source-bets").get_by_role("button", name="4 or 10 before 7", exact=True)
    expect(source).to_have_accessible_description(
        re.compile(r"^fair odds 1 to 1; worth [^/]+ to you at evens$")
    )
    table.act(offerer, source)
    number = max(int(b["number"]) for b in table.state()["state"]["side_bets"])
    expect(page.locator("#message")).to_contain_text(
        f"side bet offered: #{number} {offerer} backs '4 or 10 before 7'"
    )
    shown = table.seats[taker].page.locator(f'li[data-bet="{number}"]')
    take = shown.get_by_role("button", name=f"Take bet #{number}")
    expect(take).to_be_visible()
    worth = shown.locator(f"#worth-{number}")
    expect(worth).to_have_text(re.compile(r"^worth [+\N{MINUS SIGN}]?\d+\.\d\d to you at evens$"))
    # Beside the button: on the same line, just after it.
    took, said = take.bounding_box(), worth.bounding_box()
    assert took is not None
    assert said is not None
    assert said["x"] >= took["x"] + took["width"] - 1, (took, said)
    assert abs(said["y"] - took["y"]) < took["height"], (took, said)
    take.scroll_into_view_if_needed()
    table.web.shots.take(table.seats[taker].page, f"game-take-{taker.lower()}", full_page=False)
    expect(table.seats[offerer].page.get_by_role("button", name=f"Take bet #{number}")).to_have_count(0)
    table.act(taker, take)
    for client in table.everyone:
        expect(client.page.locator(f'li[data-bet="{number}"]')).to_contain_text(f"laid by {taker}")


def _restart(table: Game, restartable: Restartable) -> None:
    """The server killed mid-round and started again on its port over its record: every page reconnects,
    resyncs at the same entry, and its controls come back."""
    before = table.web.server.head(table.game)
    restartable.kill()
    for name, client in table.seats.items():
        notice = client.page.locator(".controls .reconnecting")
        expect(notice, f"{name}'s page with the server down").to_be_visible()
    restartable.start()
    assert table.web.server.head(table.game) == before, "the table did not start again from its last entry"
    for client in table.everyone:
        expect(client.page.locator(".reconnecting"), client.page.url).to_have_count(0, timeout=3 * WAIT_MS)
        expect(client.page.locator("body")).not_to_have_class(re.compile(r"\boffline\b"))
    table.check()
    assert table.web.server.head(table.game) == before


def _verify(restartable: Restartable, game: int) -> None:
    """``hazard verify`` on the record, the server's own key pinned."""
    key = Server(restartable.url).get("/api/key")
    pinned = str(key["public_key"])
    command = [
        sys.executable,
        "-m",
        "hazard",
        "verify",
        str(game),
        "--db",
        str(restartable.db),
        "--key",
        pinned,
    ]
    done = subprocess.run(command, capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "not verified" not in done.stdout


def _shoot(table: Game) -> None:
    """Each page at the end, at its own size and at the other (a phone's or a desktop's)."""
    names = [*table.seats, "spectator", "screen"]
    for name, client in zip(names, table.everyone, strict=True):
        size = client.page.viewport_size
        own = "phone" if size == PHONE else "desktop"
        table.web.shot(client.page, f"game-{name.lower()}-{own}")
        other = DESKTOP if own == "phone" else PHONE
        page = client.watch(client.context.new_page())
        try:
            page.set_viewport_size(other)
            page.goto(client.page.url)
            page.wait_for_selector(".view", state="attached")
            table.web.shot(page, f"game-{name.lower()}-{'desktop' if own == 'phone' else 'phone'}")
            width = page.evaluate("() => document.documentElement.scrollWidth")
            assert width <= other["width"], f"{name}'s page is {width} px wide at {other['width']} px"
        finally:
            page.close()
