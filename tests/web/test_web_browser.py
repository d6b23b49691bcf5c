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
import os
import re
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, BrowserContext, Dialog, Page, ViewportSize, expect, sync_playwright
from playwright.sync_api import TimeoutError as PlaywrightTimeout

pytestmark = pytest.mark.slow  # real Chromium, a page at a time

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
WAIT_MS = 10_000
"""The longest any one wait in a browser may take."""
START_S = 20.0
"""The longest the server may take to answer after it is started."""
PHONE: ViewportSize = {"width": 390, "height": 844}
MAX_CLICKS = 60
"""The most actions a played-out game may take."""

# Anything but 127.0.0.1 is never asked: no proxy, whatever the environment says.
_LOCAL = urllib.request.build_opener(urllib.request.ProxyHandler({}))


# --- the server ------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Server:
    """A running ``hazard serve``."""

    url: str

    def get(self, path: str) -> Any:
        with _LOCAL.open(self.url + path, timeout=5) as answer:
            return json.load(answer)

    def state(self, game: int) -> dict[str, Any]:
        state: dict[str, Any] = self.get(f"/api/tables/{game}")
        return state

    def head(self, game: int) -> int:
        return int(self.state(game)["seq"])


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


@pytest.fixture(scope="module")
def chromium() -> Path:
    """Debian's Chromium; the module is skipped without it, unless a browser is required."""
    if CHROMIUM.is_file() and os.access(CHROMIUM, os.X_OK):
        return CHROMIUM
    if os.environ.get("HAZARD_REQUIRE_BROWSER"):
        pytest.fail(f"HAZARD_REQUIRE_BROWSER is set but there is no {CHROMIUM} (apt-get install chromium)")
    pytest.skip(f"no {CHROMIUM}: apt-get install chromium to run the browser tests")


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """``python -m hazard serve`` on a free port of 127.0.0.1, over a fresh record; stopped at the end."""
    folder = tmp_path_factory.mktemp("web")
    port = _free_port()
    command = [sys.executable, "-m", "hazard", "serve", "--host", "127.0.0.1", "--port", str(port)]
    command += ["--db", str(folder / "games.db")]
    # The pages, the browsers' sockets and the test's own polls all come from 127.0.0.1 and act at machine
    # speed, far past a person's: the limits are raised out of the way here (they are attacked, at their
    # defaults, in test_web_app.py), so that a refusal for speed is never what a test of play meets.
    command += ["--rate", "1000", "--seat-rate", "1000", "--tables", "1000", "--per-address", "1000"]
    log_path = folder / "server.log"
    with log_path.open("wb") as log:
        process = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT, cwd=folder)
    try:
        url = f"http://127.0.0.1:{port}"
        deadline = time.monotonic() + START_S
        while True:
            if process.poll() is not None:
                pytest.fail(f"hazard serve stopped ({process.returncode}): {log_path.read_text()}")
            try:
                Server(url).get("/api/rulesets")
                break
            except (OSError, urllib.error.URLError):
                if time.monotonic() > deadline:
                    pytest.fail(f"hazard serve did not answer within {START_S:.0f} s: {log_path.read_text()}")
                time.sleep(0.1)
        yield Server(url)
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=10)


@pytest.fixture(scope="module")
def browser(chromium: Path) -> Iterator[Browser]:
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=str(chromium), args=CHROMIUM_ARGS)
        expect.set_options(timeout=WAIT_MS)
        try:
            yield launched
        finally:
            launched.close()


@pytest.fixture(scope="module")
def shots(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Where the screenshots go."""
    named = os.environ.get("HAZARD_SCREENSHOTS")
    if named:
        folder = Path(named)
        folder.mkdir(parents=True, exist_ok=True)
        return folder
    return tmp_path_factory.mktemp("screenshots")


# --- browsers at a table ---------------------------------------------------------------------------------


@dataclass
class Client:
    """One person's browser (its own cookies) with one page open, and what the page did that it must not."""

    context: BrowserContext
    page: Page
    dialogs: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)

    def watch(self, page: Page) -> Page:
        page.on("dialog", self._dialog)
        page.on("pageerror", lambda error: self.errors.append(str(error)))
        # The pages' Content-Security-Policy must not block anything they do themselves.
        page.on(
            "console",
            lambda message: (
                self.errors.append(message.text) if "Content Security Policy" in message.text else None
            ),
        )
        return page

    def _dialog(self, dialog: Dialog) -> None:
        self.dialogs.append(dialog.message)
        dialog.dismiss()


_PLAYERS_JS = """() => Array.from(document.querySelectorAll("table.players tbody tr")).map((row) => {
  const name = row.querySelector("th");
  const cells = Array.from(row.querySelectorAll("td"), (cell) => cell.textContent.trim());
  return [name && name.firstChild ? name.firstChild.textContent.trim() : "", ...cells];
})"""


_SHOWN = (
    """() => { const view = document.querySelector(".view"); return view ? Number(view.dataset.seq) : -1; }"""
)
_SETTLED = """() => {
  const view = document.querySelector(".view");
  if (view === null) return -1;
  return document.querySelector("[data-seed-hand]") === null ? Number(view.dataset.seq) : -2;
}"""
"""The entry the page shows, if it has no seed of its own still to send for it (-2 if it has)."""
_SHOWS_AT_LEAST = """(head) => {
  const view = document.querySelector(".view");
  return view !== null && Number(view.dataset.seq) >= head;
}"""


class Web:
    """The server, the browser, and the people a test opens pages for."""

    def __init__(self, server: Server, browser: Browser, shots: Path) -> None:
        self.server = server
        self.browser = browser
        self.shots = shots
        self.clients: list[Client] = []

    def client(self, path: str | None = None) -> Client:
        context = self.browser.new_context(base_url=self.server.url)
        context.set_default_timeout(WAIT_MS)
        context.set_default_navigation_timeout(WAIT_MS)
        client = Client(context, context.new_page())
        client.watch(client.page)
        self.clients.append(client)
        if path is not None:
            client.page.goto(path)
        return client

    def close(self) -> None:
        for client in self.clients:
            client.context.close()

    def clean(self) -> None:
        """No page opened a dialog or threw."""
        for client in self.clients:
            assert client.dialogs == [], client.dialogs
            assert client.errors == [], client.errors

    def shot(self, page: Page, name: str) -> None:
        page.screenshot(path=str(self.shots / f"{name}.png"), full_page=True)

    def phone_shot(self, client: Client, path: str, name: str) -> None:
        """A screenshot of ``path`` at a phone's width, in the client's browser."""
        page = client.watch(client.context.new_page())
        try:
            page.set_viewport_size(PHONE)
            page.goto(path)
            page.wait_for_selector(".view, main.lobby", state="attached")
            self.shot(page, name)
            width = page.evaluate("() => document.documentElement.scrollWidth")
            assert width <= PHONE["width"], f"{path} is {width} px wide at a phone's {PHONE['width']} px"
        finally:
            page.close()

    # --- through the pages ---

    def new_table(
        self, client: Client, *, dice: str = "fair", label: str = "", shot: str | None = None
    ) -> int:
        """Set a table up from the lobby's form; its number. The creator lands on its page (a table of real
        dice: its referee page)."""
        page = client.page
        page.goto("/")
        form = page.locator("#new-table")
        form.locator("select[name=ruleset]").select_option("wikipedia")
        form.locator(f"input[name=dice][value={dice}]").check()
        if label:
            form.get_by_label("Name of the table").fill(label)
        if shot is not None:
            self.shot(page, shot)
        form.get_by_role("button", name="Set up the table").click()
        tail = "/referee" if dice == "typed" else ""
        page.wait_for_url(re.compile(rf"/tables/\d+{tail}$"))
        match = re.search(r"/tables/(\d+)", page.url)
        assert match is not None, page.url
        game = int(match.group(1))
        self.synced(game, [client])
        return game

    def join(self, client: Client, game: int, name: str, bankroll: str = "100") -> None:
        """Sit down at the table from its join form (the page reloads, seated)."""
        page = client.page
        if not page.url.endswith(f"/tables/{game}"):
            page.goto(f"/tables/{game}")
        join = page.locator("#join")
        join.get_by_label("Name").fill(name)
        join.get_by_label("Bankroll").fill(bankroll)
        with page.expect_navigation():
            join.get_by_role("button", name="Sit down").click()
        # At a table of fair dice the page sets its seat's own seed for the hand committed (or says it was
        # too late for it): wait for that, so that what follows starts from a table that stands still.
        if page.locator(".fair").count():
            page.wait_for_selector(".own-seed:not([data-seed-hand])", state="attached")

    def act(self, client: Client, do: Callable[[], None], game: int, watchers: list[Client]) -> int:
        """Do what sends one action (a click, a form sent) on the client's page; it must be taken. Every
        watcher's page then shows the same entry, the table's last; returns its number."""

        def is_action(response: Any) -> bool:
            return bool(response.request.method == "POST" and response.url.endswith(f"/{game}/actions"))

        with client.page.expect_response(is_action) as answer:
            do()
        response = answer.value
        body = response.json()
        assert response.ok, f"refused ({response.status}): {body}"
        head = self.synced(game, watchers)
        assert head >= body["seq"]
        return head

    def refused(self, client: Client, do: Callable[[], None], game: int) -> str:
        """Do what sends one action, which must be refused: the page's message reads as the refusal's
        ``said`` (a person's words) then its ``next`` (what the seat can do now). The refusal's ``error``,
        the table's own message naming the input and the state."""

        def is_action(response: Any) -> bool:
            return bool(response.request.method == "POST" and response.url.endswith(f"/{game}/actions"))

        with client.page.expect_response(is_action) as answer:
            do()
        assert not answer.value.ok
        body = answer.value.json()
        assert body["said"], body
        assert body["next"], body
        message = client.page.locator("#message")
        expect(message).to_have_class(re.compile(r"\berror\b"))
        expect(message).to_have_text(f"{body['said']} {body['next']}")
        return str(body["error"])

    def behind(self, clients: list[Client]) -> str:
        """What each page shows: its entry, its message and whether it is reconnecting (for a failure)."""
        return "; ".join(
            f"{client.page.url} shows entry {client.page.evaluate(_SHOWN)}, "
            f"message {client.page.locator('#message').text_content()!r}, "
            f"reconnecting {client.page.locator('.reconnecting').count() > 0}"
            for client in clients
        )

    def synced(self, game: int, clients: list[Client]) -> int:
        """Wait until every client's page shows the table's last entry; check they all show the same
        players with the record's bankrolls. The entry's number.

        A page of a seat sets its own seed for each hand of fair dice as soon as it sees the hand's
        commitment, so the table may gain an entry while the pages catch up: wait until the table and every
        page stand at the same entry."""
        for _ in range(20):
            state = self.server.state(game)
            head = int(state["seq"])
            for client in clients:
                # Longer than a step's wait: on a loaded machine (two workers, two browsers) three pages,
                # each setting its seed as it sees a commitment, have been seen to need more than 10 s.
                try:
                    client.page.wait_for_function(_SHOWS_AT_LEAST, arg=head, timeout=3 * WAIT_MS)
                except PlaywrightTimeout:
                    pytest.fail(f"table {game} stands at entry {head}, but {self.behind(clients)}")
            # Settled: every page shows the table's last entry and none has a seed still to send for it
            # (a page that shows the last entry sends its seed at once, so once none has one to send, the
            # table stands still until the next action).
            if self.server.head(game) == head and all(
                client.page.evaluate(_SETTLED) == head for client in clients
            ):
                break
        else:
            pytest.fail(f"table {game} did not stand still for its pages to catch up: {self.behind(clients)}")
        record = [
            [p["name"], f"{p['bankroll_float']:.2f}", f"{p['free_float']:.2f}"]
            for p in state["state"]["players"]
        ]
        for client in clients:
            page = client.page
            page.wait_for_selector(f'.view[data-seq="{head}"]', state="attached")
            expect(page.locator(".view .round")).to_contain_text(f"table {game}, entry {head}")
            shown = page.evaluate(_PLAYERS_JS)
            assert shown == (record or [["", "Nobody is seated yet."]]), (page.url, shown, record)
        return head


def players(page: Page) -> list[list[str]]:
    shown: list[list[str]] = page.evaluate(_PLAYERS_JS)
    return shown


def point(page: Page, what: str) -> str:
    """What the round's panel shows for ``what``: caster, main, chance or round."""
    return page.locator(".point div").filter(has=page.locator("dt", has_text=what)).locator("dd").inner_text()


def action_buttons(page: Page) -> dict[str, str]:
    """The action each button of the page's controls and its turn line sends, by its label."""
    buttons = page.locator(".turnline .moves button[data-action], .controls .buttons button[data-action]")
    return {b.inner_text(): str(b.get_attribute("data-action")) for b in buttons.all()}


@pytest.fixture
def web(browser: Browser, server: Server, shots: Path) -> Iterator[Web]:
    """A test's people at the server's tables (the browser first: without one, no server is started)."""
    opened = Web(server, browser, shots)
    try:
        yield opened
    finally:
        opened.close()


def seated(web: Web, label: str = "") -> tuple[int, Client, Client, Client]:
    """A table of fair dice set up from the lobby by a host, Ann and Bob (each in a browser of their own)
    seated with 100 each."""
    host = web.client()
    game = web.new_table(host, label=label)
    ann = web.client()
    web.join(ann, game, "Ann")
    bob = web.client()
    web.join(bob, game, "Bob")
    web.synced(game, [host, ann, bob])
    expect(ann.page.locator(".controls h2")).to_have_text("Your seat, Ann")
    expect(bob.page.locator(".controls h2")).to_have_text("Your seat, Bob")
    return game, host, ann, bob


def stake(web: Web, client: Client, game: int, amount: str, watchers: list[Client]) -> int:
    form = client.page.locator('form[data-template="stake {amount}"]')
    form.get_by_label(re.compile("^Stake against")).fill(amount)
    return web.act(client, form.get_by_role("button", name="Stake").click, game, watchers)


def command(web: Web, client: Client, game: int, text: str, watchers: list[Client]) -> int:
    form = client.page.locator('form[data-template="{command}"]')
    form.get_by_role("textbox", name="Command").fill(text)
    return web.act(client, form.get_by_role("button").click, game, watchers)


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


def test_markup_in_names_bets_and_labels_is_text(web: Web) -> None:
    label = "<script>alert(1)</script><img src=x onerror=alert(2)>"
    game, host, ann, _ = seated(web, label=label)
    eve = web.client(f"/tables/{game}")
    page = eve.page
    # A name that is all markup is refused by the name rules, its text shown as text.
    join = page.locator("#join")
    join.get_by_label("Name").fill("<img src=x onerror=alert(1)>")
    join.get_by_role("button", name="Sit down").click()
    message = page.locator("#message")
    expect(message).to_contain_text("'<img src=x onerror=alert(1)>' isn't a player name")
    expect(message).to_have_class(re.compile(r"\berror\b"))
    # One the rules take is shown as text wherever it appears.
    web.join(eve, game, "Eve<img src=x onerror=alert(3)>")
    expect(page.locator(".controls h2")).to_have_text("Your seat, Eve<img src=x onerror=alert(3)>")
    web.synced(game, [host, ann, eve])
    expect(ann.page.locator("table.players")).to_contain_text("Eve<img src=x onerror=alert(3)>")
    # A side bet on markup: the preview says why not, as text, and so does the refusal.
    offer = page.locator("form.offer")
    offer.get_by_label("Bet", exact=True).fill("<script>alert(4)</script>")
    expect(offer.locator(".preview")).to_contain_text("'<script>alert(4)</script>' isn't a proposition")
    error = web.refused(eve, offer.get_by_role("button", name="Offer").click, game)
    assert "invalid proposition '<script>alert(4)</script>'" in error
    for client in (host, ann, eve):
        expect(client.page.locator(".round h1")).to_have_text(label)
        # the title starts "Your turn · " on the page of the seat whose turn it is (Ann's)
        title = client.page.title()
        assert title == ("Your turn · " if client is ann else "") + f"{label} · Hazard", title
        assert client.page.locator("img").count() == 0
        assert client.page.locator("script").count() == 1  # the page's own, /static/hazard.js
    lobby = web.client("/")
    expect(lobby.page.locator("ul.tables")).to_contain_text(label)
    assert lobby.page.locator("img").count() == 0
    scripts = lobby.page.eval_on_selector_all("script", "found => found.map((s) => s.getAttribute('src'))")
    assert sorted(scripts) == ["/static/hazard.js", "/static/lobby.js"]  # the page's own, none inline
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


def test_the_pages_policy_blocks_injected_script_and_framing(web: Web) -> None:
    """Markup that got into a page (were escaping ever to fail) runs no script, and no site frames a page;
    the pages' own script and style, which the other tests use, are not blocked (``Web.clean``)."""
    host = web.client()
    game = web.new_table(host)
    page = host.page
    ran = page.evaluate(
        """() => new Promise((resolve) => {
            document.addEventListener(
                "securitypolicyviolation", () => resolve(window.injected === 1 ? "ran" : "blocked"));
            const box = document.createElement("div");
            box.innerHTML = '<img src="data:," onerror="window.injected = 1">';
            document.body.append(box);
            setTimeout(() => resolve(window.injected === 1 ? "ran" : "silent"), 2000);
        })"""
    )
    assert ran == "blocked"
    host.errors.clear()  # the violation just provoked, reported on the console
    framed = web.client()
    framed.page.set_content(f'<iframe src="{web.server.url}/tables/{game}"></iframe>')
    frame = framed.page.frames[-1]
    framed.page.wait_for_timeout(500)
    assert (
        frame.url in ("", "about:blank", "chrome-error://chromewebdata/")
        or not frame.locator(".view").count()
    )
    framed.errors.clear()


class _Elsewhere:
    """A page of another origin (an address and port of its own on the loopback), as a chat app's or a mail's
    link is: it links to the table, and whatever it posts to the table is the other origin's."""

    def __init__(self, host: str, target: str) -> None:
        import http.server
        import threading

        page = f'<!doctype html><title>chat</title><a id="go" href="{target}">the table</a>'.encode()

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_GET(self) -> None:
                self.send_response(200)
                self.send_header("content-type", "text/html; charset=utf-8")
                self.send_header("content-length", str(len(page)))
                self.end_headers()
                self.wfile.write(page)

            def log_message(self, *_: object) -> None:
                pass

        self.httpd = http.server.ThreadingHTTPServer((host, 0), Handler)
        self.url = f"http://{host}:{self.httpd.server_address[1]}/"
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)
        self.thread.start()

    def close(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


def test_a_link_followed_from_another_site_keeps_the_seat_and_its_posts_are_refused(web: Web) -> None:
    """SameSite=Lax: a player who follows the table's link from another site (127.0.0.2 is another site
    than 127.0.0.1) lands in his seat, which a Strict cookie would not let him; a page of another origin of
    the same site (another port of 127.0.0.1), to which the browser sends the cookies, still cannot act: the
    host's browser posting a close from there closes nothing."""
    game, host, ann, _ = seated(web)
    target = f"{web.server.url}/tables/{game}"
    for address in ("127.0.0.2", "127.0.0.1"):  # another site; the same site at another port
        elsewhere = _Elsewhere(address, target)
        try:
            page = ann.page
            page.goto(elsewhere.url)
            with page.expect_navigation():
                page.locator("#go").click()
            assert page.url == target
            expect(page.locator(".controls h2")).to_have_text("Your seat, Ann")
            forger = host.watch(host.context.new_page())
            forger.goto(elsewhere.url)
            kind = forger.evaluate(
                """async (url) => {
                  try {
                    const sent = {method: "POST", credentials: "include", mode: "no-cors"};
                    const answer = await fetch(url, sent);
                    return answer.type;
                  } catch (error) { return "failed"; }
                }""",
                f"{web.server.url}/api/tables/{game}/close",
            )
            forger.close()
            assert kind in ("opaque", "failed")
            assert web.server.state(game)["closed"] is False  # the host's cookie closed nothing
        finally:
            elsewhere.close()


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
    watcher.page.wait_for_function(_SHOWS_AT_LEAST, arg=head + 2)
    assert held == [head + 1]
    web.synced(game, [host, watcher])
    expect(watcher.page.locator(".players")).to_contain_text("Dan")
    web.clean()
