"""A table's invite (its link as a QR code, drawn by the server), the lobby's list of who sits where, the
rules card, and the Leave button's place, through the framework's test client (the browser's side is
``test_web_invite_browser.py``)."""

from __future__ import annotations

import io
import re
import xml.etree.ElementTree as ET

import pytest
import segno
from fastapi.testclient import TestClient
from tests.web.helpers import Table, client

from hazard.web import WebConfig, create_app

__all__ = ["client"]  # the fixture, used by name

SVG = "{http://www.w3.org/2000/svg}svg"


def segno_svg(url: str) -> bytes:
    """``url`` as segno itself draws it, at the settings the server draws with."""
    out = io.BytesIO()
    segno.make_qr(url, error="m").save(out, kind="svg", scale=4, border=4, dark="#000", light="#fff")
    return out.getvalue()


def test_the_qr_code_is_an_svg_of_the_tables_own_link(client: TestClient) -> None:
    table = Table(client)
    answer = client.get(f"/tables/{table.id}/invite.svg")
    assert answer.status_code == 200
    assert answer.headers["content-type"] == "image/svg+xml"
    assert "img-src 'self'" in answer.headers["content-security-policy"]
    assert ET.fromstring(answer.content).tag == SVG
    assert answer.content == segno_svg(f"http://testserver/tables/{table.id}")
    assert segno_svg(f"http://testserver/tables/{table.id + 1}") != answer.content


def test_the_qr_code_follows_the_host_the_server_was_reached_by(client: TestClient) -> None:
    table = Table(client)
    client.headers.pop("origin")  # as an <img> asks, with no Origin
    answer = client.get(f"/tables/{table.id}/invite.svg", headers={"host": "Hazard.Example:8080"})
    assert answer.content == segno_svg(f"http://hazard.example:8080/tables/{table.id}")
    assert "Host" in answer.headers["vary"]


def test_a_configured_address_wins_over_the_host_header(db_url: str) -> None:
    config = WebConfig(db=db_url, base_url="https://hazard.example/")
    with TestClient(create_app(config)) as configured:
        configured.headers["origin"] = "http://testserver"
        table = Table(configured)
        configured.headers.pop("origin")
        answer = configured.get(f"/tables/{table.id}/invite.svg", headers={"host": "evil.test"})
        assert answer.content == segno_svg(f"https://hazard.example/tables/{table.id}")


@pytest.mark.parametrize(
    ("path", "status"), [("999", 404), ("0", 422), ("x", 422), ("1e3", 422), ("-1", 422)]
)
def test_a_bad_table_number_draws_nothing(client: TestClient, path: str, status: int) -> None:
    Table(client)
    answer = client.get(f"/tables/{path}/invite.svg")
    assert answer.status_code == status
    assert "error" in answer.json()


@pytest.mark.parametrize("host", ["bad host", "a<b>", "x_y.test"])
def test_a_host_header_that_is_no_host_name_draws_nothing(client: TestClient, host: str) -> None:
    table = Table(client)
    client.headers.pop("origin")
    answer = client.get(f"/tables/{table.id}/invite.svg", headers={"host": host})
    assert answer.status_code == 400
    assert "Host" in answer.json()["error"]


@pytest.mark.parametrize(
    "headers",
    [{"sec-fetch-site": "cross-site"}, {"sec-fetch-site": "same-site"}, {"origin": "http://evil.test"}],
)
def test_another_sites_page_may_not_have_the_code_drawn(client: TestClient, headers: dict[str, str]) -> None:
    table = Table(client)
    client.headers.pop("origin", None)
    answer = client.get(f"/tables/{table.id}/invite.svg", headers=headers)
    assert answer.status_code == 403
    assert "illegal request" in answer.json()["error"]


def test_the_table_page_offers_the_invite_and_the_rules_card(client: TestClient) -> None:
    table = Table(client)
    page = client.get(f"/tables/{table.id}").text
    assert 'id="copy-invite"' in page
    assert f'href="/tables/{table.id}/invite.svg"' in page  # drawn in place as an image by the script
    assert f'value="/tables/{table.id}"' in page  # the fallback field, filled in full by the script
    # the opening throw's table as hazard rules prints it: main 7 nicks 7 and 11, outs 2, 3 and 12
    assert '<th scope="row">7</th><td>7, 11</td><td>2, 3, 12</td><td>4, 5, 6, 8, 9, 10</td><td>—</td>' in page
    assert "Dice passing: the dice pass after 3 lost rounds in a row." in page
    assert "“Free” is what a player may still stake" in page
    assert "<td>3/2</td>" in page  # the Wikipedia paytable's odds on a chance of 5 against a main of 7


def test_leave_is_last_in_its_row_and_asks_first(client: TestClient) -> None:
    table = Table(client)
    table.join("Ann")
    table.join("Bob")
    client.cookies.clear()
    page = client.get(f"/tables/{table.id}", headers={"authorization": f"Bearer {table.tokens['Ann']}"}).text
    row = re.search(r'<div class="buttons">(.*?)</div>', page, re.S)
    assert row is not None, page
    buttons = re.findall(r"<button[^>]*>[^<]*</button>", row.group(1))
    assert len(buttons) > 1
    assert "Leave the table" in buttons[-1]
    assert "data-confirm=" in buttons[-1]


def test_the_lobby_lists_who_sits_at_each_table_and_what_it_waits_for(client: TestClient) -> None:
    table = Table(client)
    assert client.get("/api/tables").json()["tables"][0]["players"] == []
    table.join("Ann")
    table.join("Bob")
    listed = client.get("/api/tables").json()["tables"]
    assert [(t["id"], t["players"]) for t in listed] == [(table.id, ["Ann", "Bob"])]
    assert listed[0]["state"].startswith("round 1: Ann")
    lobby = client.get("/").text
    assert "players: Ann, Bob" in lobby
    assert "round 1: Ann" in lobby


def test_the_host_panel_lists_late_arrivals_links_until_their_seats_go_never_the_code(
    client: TestClient,
) -> None:
    table = Table(client)
    table.join("Ann")
    late = client.post(
        f"/api/tables/{table.id}/seats",
        json={"name": "Cy", "bankroll": "5"},
        headers={"Authorization": f"Bearer {table.host}"},
    )
    assert late.status_code == 201, late.text
    code = late.json()["claim_url"].split("code=")[1]
    client.cookies.clear()
    client.cookies.set(f"hazard_host_{table.id}", table.host)
    listed = re.findall(r'<ul class="seat-links">(.*?)</ul>', client.get(f"/tables/{table.id}").text, re.S)
    assert len(listed) == 1
    assert re.fullmatch(
        r'<li class="pending"><strong>Cy</strong> · until \d\d:\d\d UTC · waiting for its player</li>',
        listed[0],
    )
    assert code not in client.get(f"/tables/{table.id}").text
    assert code not in client.get(f"/tables/{table.id}/view").text
    client.cookies.clear()
    assert client.get(f"/tables/{table.id}").text.count("seat-links") == 0  # a spectator sees no list
    assert client.post(f"/tables/{table.id}/claim?code={code}", follow_redirects=False).status_code == 303
    client.cookies.clear()
    client.cookies.set(f"hazard_host_{table.id}", table.host)
    view = client.get(f"/tables/{table.id}/view").text
    assert "<strong>Cy</strong>" in view
    assert "· used</li>" in view
    assert table.ok("host", "leave Cy")
    assert "seat-links" not in client.get(f"/tables/{table.id}/view").text  # his seat gone, its link too
