"""The web table in a real browser, attacked: markup in names, bets and labels is text, the pages'
policy blocks injected script and framing, and a link followed from another site keeps the seat while its
posts are refused."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect
from tests.web.browser_helpers import Web, browser, chromium, seated, server, shots, web

__all__ = ["browser", "chromium", "server", "shots", "web"]  # the fixtures, used by name


pytestmark = pytest.mark.slow  # real Chromium, a page at a time


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
