"""What the web table's browser tests share: ``hazard serve`` as a subprocess and Debian's Chromium driven by
Playwright (the module-scoped fixtures ``chromium``, ``server``, ``browser`` and ``shots``, and ``web``), and
the browsers at a table (:class:`Web`, :class:`Client`, :func:`seated`, :func:`stake`, ...).

A test module imports the fixtures it uses by name (and lists them in ``__all__``), so that each module gets a
server and a browser of its own. The people a test seats (:meth:`Web.client`) are kept for the module's
next test, each browser wiped (:func:`_wiped`), so that their pages' renderers need not start again.

Chromium is ``/usr/bin/chromium`` (Debian's package). Without it the modules are skipped, unless
``HAZARD_REQUIRE_BROWSER`` is set (``.ci/run`` sets it), when its absence fails. Screenshots of the pages
are taken into the folder ``HAZARD_SCREENSHOTS`` names (``make shots``), and only then: a picture nobody
looks at costs Chromium 0.2-0.45 CPU-second to draw and encode.
"""

from __future__ import annotations

import json
import os
import re
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import (
    Browser,
    BrowserContext,
    ConsoleMessage,
    Dialog,
    Page,
    ViewportSize,
    expect,
    sync_playwright,
)
from playwright.sync_api import Error as PlaywrightError

from hazard.table import MoneyStyle, format_money

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
POLL_MS = 25
"""How often a wait for the page's state asks it again: a fixed period, not each animation frame (Playwright's
default), which keeps the renderer drawing frames for as long as a page is waited on."""
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


class Restartable:
    """A ``hazard serve`` on one free port of 127.0.0.1 over one record: started, stopped, or killed
    (``kill -9``) and started again on the same port, as a crash and a restart would."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.db = folder / "games.db"
        self.port = _free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.log = folder / "server.log"
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> Server:
        command = [sys.executable, "-m", "hazard", "serve", "--host", "127.0.0.1", "--port", str(self.port)]
        command += ["--db", str(self.db)]
        # The pages, the browsers' sockets and the test's own polls all come from 127.0.0.1 and act at
        # machine speed, far past a person's: the limits are raised out of the way here (they are attacked,
        # at their defaults, in test_web_app_limits.py), so a refusal for speed is never what a test meets.
        command += ["--rate", "1000", "--seat-rate", "1000", "--tables", "1000", "--per-address", "1000"]
        with self.log.open("ab") as log:
            self.process = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT, cwd=self.folder)
        deadline = time.monotonic() + START_S
        while True:
            if self.process.poll() is not None:
                pytest.fail(f"hazard serve stopped ({self.process.returncode}): {self.log.read_text()}")
            try:
                Server(self.url).get("/api/rulesets")
                return Server(self.url)
            except (OSError, urllib.error.URLError):
                if time.monotonic() > deadline:
                    pytest.fail(f"hazard serve did not answer within {START_S:.0f} s: {self.log.read_text()}")
                time.sleep(0.1)

    def kill(self) -> None:
        """``kill -9``: no shutdown of any kind, the record as the last action left it."""
        assert self.process is not None
        os.kill(self.process.pid, signal.SIGKILL)
        self.process.wait(timeout=10)
        self.process = None

    def stop(self) -> None:
        if self.process is None:
            return
        self.process.terminate()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait(timeout=10)
        self.process = None


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """``python -m hazard serve`` on a free port of 127.0.0.1, over a fresh record; stopped at the end."""
    served = Restartable(tmp_path_factory.mktemp("web"))
    try:
        yield served.start()
    finally:
        served.stop()


@pytest.fixture
def restartable(tmp_path: Path) -> Iterator[Restartable]:
    """A server of the test's own, to kill or stop and start again; stopped at the end."""
    served = Restartable(tmp_path)
    try:
        yield served
    finally:
        served.stop()


@pytest.fixture(scope="module")
def browser(chromium: Path) -> Iterator[Browser]:
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=str(chromium), args=CHROMIUM_ARGS)
        expect.set_options(timeout=WAIT_MS)
        try:
            yield launched
        finally:
            for key in [key for key in _SPARES if key[0] == id(launched)]:
                del _SPARES[key]
            launched.close()


@dataclass(frozen=True)
class Shots:
    """Where the screenshots of the pages go, to be looked at: the folder ``HAZARD_SCREENSHOTS`` names, or
    none, when no screenshot is taken (nobody would look at it, and drawing a whole page to a PNG costs
    Chromium 0.2-0.25 CPU-second alone, measured on the lobby, a card and a table, and about 0.45 within the
    offline scan)."""

    folder: Path | None

    def take(self, page: Page, name: str, *, full_page: bool = True) -> None:
        """Save ``page`` as ``name``.png, the whole page or (``full_page=False``) the viewport alone."""
        if self.folder is not None:
            shot = self.folder / f"{name}.png"
            page.screenshot(path=str(shot), full_page=full_page)
            print(f"screenshot: {shot}")


@pytest.fixture(scope="module")
def shots() -> Shots:
    """Where the screenshots go, if anywhere (:class:`Shots`)."""
    named = os.environ.get("HAZARD_SCREENSHOTS")
    if not named:
        return Shots(None)
    folder = Path(named)
    folder.mkdir(parents=True, exist_ok=True)
    return Shots(folder)


# --- browsers at a table ---------------------------------------------------------------------------------


@dataclass
class Client:
    """One person's browser (its own cookies) with one page open, and what the page did that it must not."""

    context: BrowserContext
    page: Page
    dialogs: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    spare: bool = False
    """Whether the browser may go back to the spares (:meth:`Web.client`) when the test is done with it."""
    watching: list[tuple[Page, str, Callable[[Any], None]]] = field(default_factory=list)
    """What :meth:`watch` listens with, on which page, so that :meth:`unwatch` can stop it."""

    def watch(self, page: Page) -> Page:
        def csp(message: ConsoleMessage) -> None:
            # The pages' Content-Security-Policy must not block anything they do themselves.
            if "Content Security Policy" in message.text:
                self.errors.append(message.text)

        def thrown(error: PlaywrightError) -> None:
            self.errors.append(str(error))

        page.on("dialog", self._dialog)
        page.on("pageerror", thrown)
        page.on("console", csp)
        self.watching += [(page, "dialog", self._dialog), (page, "pageerror", thrown), (page, "console", csp)]
        return page

    def unwatch(self) -> None:
        """Stop watching every page :meth:`watch` was given."""
        for page, event, handler in self.watching:
            page.remove_listener(event, handler)
        self.watching.clear()

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
_READ = (
    """async ([head, timeout, poll]) => {
  const deadline = Date.now() + timeout;
  for (;;) {
    const view = document.querySelector(".view");
    if (view !== null && Number(view.dataset.seq) >= head) {
      const round = view.querySelector(".round");
      return {
        seq: Number(view.dataset.seq),
        seeding: document.querySelector("[data-seed-hand]") !== null,
        round: round ? round.textContent.replace(/\\s+/g, " ") : "",
        players: ("""
    + _PLAYERS_JS
    + """)(),
      };
    }
    if (Date.now() > deadline) return null;
    await new Promise((done) => setTimeout(done, poll));
  }
}"""
)
"""What the page shows, once it shows entry ``head`` or a later one (null if it does not within ``timeout``
ms): its entry, whether it has a seed of its own still to send for it, the round's line and the players'
table. One call to the page where a wait, a read and three checks were five (each a round trip through
Chromium's DevTools: about a fifth of its renderers' time at a table, measured)."""
_SHOWS_AT_LEAST = """(head) => {
  const view = document.querySelector(".view");
  return view !== null && Number(view.dataset.seq) >= head;
}"""


class Web:
    """The server, the browser, and the people a test opens pages for."""

    def __init__(self, server: Server, browser: Browser, shots: Shots) -> None:
        self.server = server
        self.browser = browser
        self.shots = shots
        self.clients: list[Client] = []

    def client(self, path: str | None = None) -> Client:
        """A person with a browser of his own: a spare one, wiped, where an earlier test of the module left
        one (:func:`_wiped`), else a new one."""
        spares = self._spares()
        if spares:
            kept = spares.pop()
            client = Client(kept.context, kept.page, spare=True)
        else:
            # A reader who asks for less motion: the dice thrown are not rolled across the felt (hazard.css).
            # The same page and the same script, without the half second of frames each throw draws on every
            # page at the table (about a sixth of Chromium's CPU for a round played: 0.37-0.40 CPU-second an
            # entry with three pages open, where 0.45-0.46).
            context = self.browser.new_context(base_url=self.server.url, reduced_motion="reduce")
            context.set_default_timeout(WAIT_MS)
            context.set_default_navigation_timeout(WAIT_MS)
            client = Client(context, context.new_page(), spare=True)
        client.watch(client.page)
        self.clients.append(client)
        if path is not None:
            client.page.goto(path)
        return client

    def close(self) -> None:
        """Each person's browser wiped and kept as a spare for the module's next test, or closed."""
        for client in self.clients:
            if client.spare and _wiped(client, self.server.url):
                self._spares().append(client)
            else:
                client.context.close()

    def _spares(self) -> list[Client]:
        """The people's browsers kept in this browser for this server (:data:`_SPARES`)."""
        return _SPARES.setdefault((id(self.browser), self.server.url), [])

    def clean(self) -> None:
        """No page opened a dialog or threw."""
        for client in self.clients:
            assert client.dialogs == [], client.dialogs
            assert client.errors == [], client.errors

    def shot(self, page: Page, name: str) -> None:
        self.shots.take(page, name)

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
            # Longer than a step's wait: on a loaded machine (two workers, two browsers) three pages, each
            # setting its seed as it sees a commitment, have been seen to need more than 10 s.
            shown = [_read(client.page, head) for client in clients]
            if None in shown:
                pytest.fail(f"table {game} stands at entry {head}, but {self.behind(clients)}")
            # Settled: every page shows the table's last entry and none has a seed still to send for it
            # (a page that shows the last entry sends its seed at once, so once none has one to send, the
            # table stands still until the next action).
            if self.server.head(game) == head and all(
                page["seq"] == head and not page["seeding"] for page in shown
            ):
                break
        else:
            pytest.fail(f"table {game} did not stand still for its pages to catch up: {self.behind(clients)}")
        # The record's exact sums, in two decimals by the table's own rule (half a cent away from zero), as
        # the pages show them: a float's format would round 98.125 to 98.12 where the page says 98.13.
        record = [
            [p["name"], _decimal(p["bankroll"]), _decimal(p["free"])] for p in state["state"]["players"]
        ]
        for client, page in zip(clients, shown, strict=True):
            assert f"table {game}, entry {head}" in page["round"], (client.page.url, page["round"])
            players = record or [["", "Nobody is seated yet."]]
            assert page["players"] == players, (client.page.url, page, record)
        return head


_SPARES: dict[tuple[int, str], list[Client]] = {}
"""The browsers a module's tests have finished with, by the browser (its ``id``) and the server's address
(their base URL): each a context and its one page, wiped (:func:`_wiped`). A page's renderer is a process of
Chromium's that costs about 0.3 CPU-second to start, more than the wiping; kept, the next person's page loads
in it. The ``browser`` fixture forgets them when it closes the browser."""

PLAYWRIGHT_VIEWPORT: ViewportSize = {"width": 1280, "height": 720}
"""The viewport of a new context (Playwright's default)."""


def _wiped(client: Client, origin: str) -> bool:
    """Make ``client``'s browser as a new one would be, keeping its page's renderer: its other pages closed,
    nothing of the test's listening or routing, its page on ``about:blank`` at the default viewport, and no
    cookie, permission, stored data of ``origin`` (and of the page's last origin) or cached answer. False
    where it cannot be (its page closed, or Chromium refused): then it is to be closed."""
    page, context = client.page, client.context
    if page.is_closed():
        return False
    try:
        for other in context.pages:
            if other != page:
                other.close()
        client.unwatch()
        page.unroute_all(behavior="ignoreErrors")
        context.unroute_all(behavior="ignoreErrors")
        last = urllib.parse.urlsplit(page.url)
        page.goto("about:blank")
        context.clear_cookies()
        context.clear_permissions()
        session = context.new_cdp_session(page)
        try:
            for stored in {origin, f"{last.scheme}://{last.netloc}"}:
                if stored.startswith("http"):
                    session.send("Storage.clearDataForOrigin", {"origin": stored, "storageTypes": "all"})
            session.send("Network.clearBrowserCache")
        finally:
            session.detach()
        page.set_viewport_size(PLAYWRIGHT_VIEWPORT)
    except PlaywrightError:
        return False
    return True


def _decimal(exact: str) -> str:
    """An exact sum of the table's state (``"785/8"``) in two decimals, as a decimal table's page shows it."""
    return format_money(Fraction(exact), MoneyStyle.DECIMAL)


def _read(page: Page, head: int) -> Any:
    """What ``page`` shows once it shows entry ``head`` or a later one (``_READ``), or None if it does not in
    time. A page that reloads itself meanwhile (a seat it took, a table it joined) is asked again, up to
    three times."""
    for _ in range(3):
        try:
            return page.evaluate(_READ, [head, 3 * WAIT_MS, POLL_MS])
        except PlaywrightError as error:
            if "context was destroyed" not in str(error):
                raise
            page.wait_for_load_state()
    return None


def action_buttons(page: Page) -> dict[str, str]:
    """The action each button of the page's controls and its turn line sends, by its label."""
    buttons = page.locator(".turnline .moves button[data-action], .controls .buttons button[data-action]")
    return {b.inner_text(): str(b.get_attribute("data-action")) for b in buttons.all()}


@pytest.fixture
def web(browser: Browser, server: Server, shots: Shots) -> Iterator[Web]:
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
