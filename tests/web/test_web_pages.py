"""The pages' templates: every value escaped by the environment itself (a hostile table name and player names
shown as text on every page that shows them, never as markup), a value a template names but is not given an
error rather than an empty string, and every template in the package compiling."""

from __future__ import annotations

from collections.abc import Iterator
from html.parser import HTMLParser

import pytest
from fastapi.testclient import TestClient
from jinja2 import UndefinedError
from tests.web.helpers import LAX, Table

from hazard.web import WebConfig, create_app
from hazard.web.pages import templates

LABEL = "<script>alert(1)</script>\"'><img src=x onerror=alert(2)>"
SCRIPTED = "Ann<script>alert(3)</script>"
BROKEN_OUT = "Bo'><img src=x onerror=alert(4)>"
"""A name may not hold a double quote; a single one, and markup, it may."""


class _Tags(HTMLParser):
    """The elements a page is made of, and its text, as a browser parses it."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.tags: list[str] = []
        self.text: list[str] = []
        self.scripts: list[str | None] = []
        """Each script's src (None for one written inline)."""

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append(tag)
        if tag == "script":
            self.scripts.append(dict(attrs).get("src"))
        self.text.extend(value for name, value in attrs if name in {"aria-label", "value"} and value)

    def handle_data(self, data: str) -> None:
        self.text.append(data)


OWN_SCRIPTS = {"view": [], "lobby": ["/static/hazard.js", "/static/lobby.js"]}
"""The scripts a page loads, where they are not hazard.js alone (a view is swapped into its page)."""


def parsed(page: str) -> _Tags:
    tags = _Tags()
    tags.feed(page)
    tags.close()
    return tags


def section(page: str, opening: str) -> str:
    """The part of ``page`` from ``opening`` to the end of its section."""
    start = page.index(opening)
    return page[start : page.index("</section>", start)]


@pytest.fixture
def client(db_url: str) -> Iterator[TestClient]:
    with TestClient(create_app(WebConfig(db=db_url, poll=0.05, limits=LAX))) as test_client:
        test_client.headers["origin"] = "http://testserver"
        yield test_client


def test_a_hostile_table_name_and_player_names_are_text_on_every_page(client: TestClient) -> None:
    table = Table(client, label=LABEL)
    table.join(SCRIPTED)
    table.join(BROKEN_OUT)
    table.ok(BROKEN_OUT, "stake 2")
    late = client.post(
        f"/api/tables/{table.id}/seats",
        json={"name": "Cy<img src=x>", "bankroll": "5"},
        headers={"Authorization": f"Bearer {table.host}"},
    )
    assert late.status_code == 201, late.text
    client.cookies.clear()
    game = table.id
    seat, host = f"hazard_seat_{game}", f"hazard_host_{game}"
    pages = {
        "lobby": ("/", {}),
        "table, spectator": (f"/tables/{game}", {}),
        "table, seat": (f"/tables/{game}", {seat: table.tokens[SCRIPTED]}),
        "table, host": (f"/tables/{game}", {host: table.host}),
        "view": (f"/tables/{game}/view", {seat: table.tokens[BROKEN_OUT]}),
        "referee": (f"/tables/{game}/referee", {host: table.host}),
        "big screen": (f"/tables/{game}/screen", {}),
        "claim": (late.json()["claim_url"], {}),
    }
    for what, (path, cookies) in pages.items():
        client.cookies.clear()
        for name, value in cookies.items():
            client.cookies.set(name, value)
        page = client.get(path).text
        shape = parsed(page)
        assert "img" not in shape.tags, what
        own = OWN_SCRIPTS.get(what, ["/static/hazard.js"])
        assert sorted(shape.scripts, key=str) == own, what  # the page's own scripts, none written inline
        text = "".join(shape.text)
        if what == "claim":
            assert "Take the seat of Cy<img src=x>" in text
            continue
        assert LABEL in text, what  # shown as it was typed, as text
        if what != "lobby":
            assert SCRIPTED in text, what
            assert BROKEN_OUT in text, what
    client.cookies.clear()
    lobby = client.get("/").text
    assert "&lt;script&gt;alert(1)&lt;/script&gt;&#34;&#39;&gt;&lt;img src=x onerror=alert(2)&gt;" in lobby
    page = client.get(f"/tables/{game}").text
    assert "<title>&lt;script&gt;alert(1)&lt;/script&gt;" in page
    log = section(page, '<section class="card log">')
    assert "Ann&lt;script&gt;alert(3)&lt;/script&gt; sits down with 100.00" in log
    assert "Bo&#39;&gt;&lt;img src=x onerror=alert(4)&gt; stakes 2.00 against Ann&lt;script&gt;" in log
    screen = client.get(f"/tables/{game}/screen").text
    assert "Bo&#39;&gt;&lt;img src=x onerror=alert(4)&gt;" in section(screen, '<section class="card log">')
    assert "Ann&lt;script&gt;alert(3)&lt;/script&gt;" in section(screen, "<h2>Players</h2>")


def test_the_environment_escapes_every_value_and_refuses_one_it_is_not_given() -> None:
    environment = templates()
    assert environment.from_string("{{ x }}").render(x="<b>'&\"") == "&lt;b&gt;&#39;&amp;&#34;"
    with pytest.raises(UndefinedError, match="view"):
        environment.get_template("view.html").render()


def test_every_template_in_the_package_compiles() -> None:
    environment = templates()
    names = environment.list_templates()
    assert {"base.html", "lobby.html", "claim.html", "table.html", "view.html"} <= set(names)
    assert any(name.startswith("parts/") for name in names)
    for name in names:
        environment.get_template(name)
