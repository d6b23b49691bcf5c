"""The web table's pages through the test client: the controls each seat may use, escaping, the lobby,
the security headers, and a record unreachable for now."""

from __future__ import annotations

import re

import pytest
from fastapi.testclient import TestClient
from tests.web.helpers import Table, client, refused

__all__ = ["client"]  # the fixtures, used by name


# --- escaping -----------------------------------------------------------------------------------------------


def test_names_and_propositions_are_escaped_or_refused(client: TestClient) -> None:
    table = Table(client)
    joined = table.join("Ann<script>alert(1)</script>")
    table.join("Bob")
    refused(table.act("Bob", "offer 1 on <script>alert(1)</script>"), 422, "proposition")
    client.cookies.set(f"hazard_seat_{table.id}", joined["token"])
    for path in (f"/tables/{table.id}", f"/tables/{table.id}/view", f"/tables/{table.id}/screen", "/"):
        page = client.get(path).text
        assert "<script>alert" not in page
    assert "Ann&lt;script&gt;alert(1)&lt;/script&gt;" in client.get(f"/tables/{table.id}/view").text


# --- pages --------------------------------------------------------------------------------------------------


def test_the_pages_show_only_the_controls_a_seat_may_use_now(client: TestClient) -> None:
    table = Table(client)
    table.join("Ann")
    table.join("Bob")
    spectator = client.get(f"/tables/{table.id}/view").text
    assert 'id="join"' in spectator
    assert "data-action" not in spectator
    client.cookies.set(f"hazard_seat_{table.id}", table.tokens["Ann"])
    ann = client.get(f"/tables/{table.id}/view").text
    assert 'data-action="call 7"' in ann
    assert 'data-action="throw"' not in ann
    assert "Stake against the bank" not in ann  # no bot at the table keeps a bank
    client.cookies.set(f"hazard_seat_{table.id}", table.tokens["Bob"])
    bob = client.get(f"/tables/{table.id}/view").text
    assert 'data-action="call' not in bob
    assert "Stake against Ann" in bob
    table.ok("Ann", "call 7")
    client.cookies.set(f"hazard_seat_{table.id}", table.tokens["Ann"])
    assert 'data-action="throw"' in client.get(f"/tables/{table.id}/view").text
    refused(client.get(f"/tables/{table.id}/view?mode=nonesuch"), 422, "mode")


def test_the_lobby_referee_and_big_screen_pages(client: TestClient) -> None:
    lobby = client.get("/")
    assert lobby.status_code == 200
    assert 'value="britannica-1911"' in lobby.text
    assert "/static/hazard.js" in lobby.text
    table = Table(client, dice="typed")
    assert "Only the table's host referees" in client.get(f"/tables/{table.id}/referee").text
    client.cookies.set(f"hazard_host_{table.id}", table.host)
    referee = client.get(f"/tables/{table.id}/referee").text
    assert 'data-face="6"' in referee
    assert "Enter the throw" in referee
    client.cookies.clear()
    screen = client.get(f"/tables/{table.id}/screen").text
    assert "data-action" not in screen
    assert "<form" not in screen
    assert client.get("/static/hazard.js").headers["content-type"].startswith("text/javascript")


def test_the_bet_figures_shown_before_an_offer(client: TestClient) -> None:
    figures = client.get("/api/bet", params={"proposition": "4 or 10 before 7", "odds": "2/1", "amount": "3"})
    assert figures.json() == {
        "proposition": "4 or 10 before 7",
        "probability": "1/2",
        "probability_float": 0.5,
        "fair_odds": "1 to 1",
        "ev_even_money": "0/1",
        "odds": "2/1",
        "amount": "3/1",
        "backer_value": "3/2",
        "backer_value_float": 1.5,
        "layer_value": "-3/2",
        "layer_value_float": -1.5,
    }
    refused(client.get("/api/bet", params={"proposition": "next 13"}), 422, "13")
    refused(client.get("/api/bet", params={"proposition": "next 7", "odds": "0"}), 422, "odds")


def test_the_openapi_page_documents_the_api(client: TestClient) -> None:
    spec = client.get("/openapi.json").json()
    assert {"/api/tables", "/api/tables/{game}/seats", "/api/tables/{game}/actions"} <= set(spec["paths"])
    docs = client.get("/docs")
    assert docs.status_code == 200
    # Swagger UI's files are the server's own, and so is the icon: the page works with no network
    for url in re.findall(r'(?:src|href)="([^"]+)"', docs.text):
        assert url.startswith("/static/"), url
        assert client.get(url).status_code == 200, url
    assert client.get("/redoc").status_code == 404
    assert client.get("/favicon.ico").headers["content-type"] == "image/svg+xml"


def test_the_creators_browser_joins_as_a_player_and_keeps_the_hosts_keys(client: TestClient) -> None:
    made = client.post("/api/tables", json={"ruleset": "wikipedia"})
    game = made.json()["id"]
    assert client.cookies.get(f"hazard_host_{game}")  # the creator's browser holds the host's keys
    joined = client.post(f"/api/tables/{game}/seats", json={"name": "Ann", "bankroll": "100"})
    assert joined.status_code == 201
    assert joined.cookies.get(f"hazard_seat_{game}") == joined.json()["token"]  # he sat himself down
    assert client.get(f"/api/tables/{game}/whoami").json() == {"seat": "Ann", "host": True}
    page = client.get(f"/tables/{game}").text
    assert "Your seat, Ann" in page
    assert '<section class="card host">' in page
    assert f'href="/tables/{game}/referee"' in page
    # the host's page seats a late arrival and is given the link that hands him his seat
    late = client.post(
        f"/api/tables/{game}/seats", json={"name": "Bob", "bankroll": "50"}, headers={"x-hazard-role": "host"}
    )
    assert late.status_code == 201
    assert client.cookies.get(f"hazard_seat_{game}") == joined.json()["token"]  # still Ann's
    link = late.json()["claim_url"]
    assert link == f"/tables/{game}/claim?code={late.json()['claim']}"
    client.cookies.clear()
    page = client.get(link)  # what a chat app's preview fetches: it spends nothing
    assert page.status_code == 200
    assert "Take the seat of Bob" in page.text
    assert f'action="/tables/{game}/claim?code=' in page.text
    claimed = client.post(link, follow_redirects=False)  # the page's button
    assert claimed.status_code == 303
    assert claimed.headers["location"] == f"/tables/{game}"
    assert client.get(f"/api/tables/{game}/whoami").json() == {"seat": "Bob", "host": False}
    forged = client.get(f"/tables/{game}/claim", params={"code": "forged"})
    assert forged.status_code == 403
    assert "holds no seat" in forged.text
    refused(
        client.post(
            f"/api/tables/{game}/seats",
            json={"name": "Cat", "bankroll": "5"},
            headers={"x-hazard-role": "host"},
        ),
        403,
        "only the table's host seats others",
    )


def test_a_player_leaves_and_the_host_removes_one(client: TestClient) -> None:
    table = Table(client)
    for name in ("Ann", "Bob", "Cat"):
        table.join(name)
    table.ok("Bob", "stake 2")
    assert table.ok("Bob", "leave")["events"] == [
        "Bob takes back the stakes against the caster",
        "Bob leaves the table with 100.00",
    ]
    refused(table.act("Bob", "stake 1"), 403, "Bob is not at the table")
    assert table.ok("host", "leave Cat")["events"] == ["Cat leaves the table with 100.00"]
    refused(table.act("Ann", "leave Ann at once"), 422, "invalid command")
    assert [p["name"] for p in table.state()["state"]["players"]] == ["Ann"]
    client.cookies.set(f"hazard_seat_{table.id}", table.tokens["Bob"])
    assert 'id="join"' in client.get(f"/tables/{table.id}/view").text  # gone: he may sit down again


def test_a_socket_whose_client_goes_stops_following_at_once(client: TestClient) -> None:
    table = Table(client)
    live = client.app.state.hub._tables[table.id]  # type: ignore[attr-defined]
    with client.websocket_connect(f"/api/tables/{table.id}/live?since=0") as socket:
        socket.receive_json()
        assert len(live.listeners) == 1
    for _ in range(100):
        if not live.listeners:
            break
        import time

        time.sleep(0.01)
    assert not live.listeners


def test_a_record_that_is_unreachable_for_now_is_503_and_nothing_is_made(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    from hazard.table import RecordUnavailable

    table = Table(client)
    table.join("Ann")
    table.join("Bob")
    head = table.state()["seq"]
    store = client.app.state.hub.store  # type: ignore[attr-defined]

    def busy(*_: object, **__: object) -> None:
        raise RecordUnavailable("cannot write to the game record 'x': database is locked")

    monkeypatch.setattr(store, "append", busy)
    refused(table.act("Bob", "stake 5", id="b-1"), 503, "database is locked")
    monkeypatch.undo()
    assert table.state()["seq"] == head
    assert table.ok("Bob", "stake 5", id="b-1")["seq"] == head + 1  # the same id, tried again, is made


def test_two_players_numbering_their_actions_alike_never_answer_for_each_other(client: TestClient) -> None:
    table = Table(client)
    for name in ("Ann", "Bob", "Cat"):
        table.join(name)
    bob = table.ok("Bob", "stake 2", id="1")
    cat = table.ok("Cat", "stake 3", id="1")
    assert cat["seq"] == bob["seq"] + 1
    assert [s["player"] for s in table.state()["state"]["stakes"]] == ["Bob", "Cat"]
    assert table.ok("Cat", "stake 3", id="1") == cat  # his own resend is still made once


def test_every_answer_carries_the_security_headers(client: TestClient) -> None:
    """Pages, the API and refusals alike: a strict policy (no inline script or style, no framing), no
    sniffing, no referrer to other sites; the API's documentation page alone has a looser one of its own."""
    answers = [client.get("/"), client.get("/api/rulesets"), client.get("/api/tables/999"), client.get("/x")]
    for answer in answers:
        policy = answer.headers["content-security-policy"]
        assert "script-src 'self';" in policy
        assert "unsafe-inline" not in policy
        assert "frame-ancestors 'none'" in policy
        assert answer.headers["x-content-type-options"] == "nosniff"
        assert answer.headers["x-frame-options"] == "DENY"
        assert answer.headers["referrer-policy"] == "same-origin"
    docs = client.get("/docs")
    policy = docs.headers["content-security-policy"]
    # Swagger UI from this server alone (issue 21): its one inline script allowed by its hash, no other site
    assert re.search(r"script-src 'self' 'sha256-[A-Za-z0-9+/]{43}=';", policy), policy
    assert "unsafe-inline" not in policy
    assert "http" not in policy
    assert "frame-ancestors 'none'" in policy
