"""Whose turn it is, for each viewer (issue 21 item 2): the turn line is worked out on the server from the
seat's choices and the table's turn, so only the seat the table waits on reads "Your turn", with the buttons
beside it; everybody else reads whom it waits for, and the tab's title says when it is your turn."""

from __future__ import annotations

import re

from fastapi.testclient import TestClient
from tests.web.helpers import Table, client

__all__ = ["client"]  # the fixture, used by name


def _turn(page: str) -> str:
    match = re.search(r'<p class="turn-text" id="turn-text">([^<]*)</p>', page)
    assert match is not None, page
    return match.group(1)


def _moves(page: str) -> list[str]:
    start = page.index('<section class="turnline')
    return re.findall(r'data-action="([^"]+)"', page[start : page.index("</section>", start)])


def _as(client: TestClient, table: Table, who: str | None, path: str = "/view") -> str:
    client.cookies.clear()
    if who is not None:
        client.cookies.set(f"hazard_seat_{table.id}", table.tokens[who])
    return client.get(f"/tables/{table.id}{path}").text


def test_only_the_seat_the_table_waits_on_reads_your_turn(client: TestClient) -> None:
    table = Table(client)
    assert _turn(_as(client, table, None)) == "Waiting for players to sit down"
    table.join("Ann")
    table.join("Bob")
    ann = _as(client, table, "Ann")
    assert _turn(ann) == "Your turn: call a main"
    assert _moves(ann) == [f"call {main}" for main in (5, 6, 7, 8, 9)]
    assert 'class="primary" data-action="call 7"' in ann  # the button a keyboard player's Enter plays
    bob = _as(client, table, "Bob")
    assert _turn(bob) == "Waiting for Ann to call a main"
    assert "You may lay a stake now." in bob
    assert 'data-action="call' not in bob
    assert _turn(_as(client, table, None)) == "Waiting for Ann to call a main"
    # the tab's title says it to the seat whose turn it is, and only to it
    assert "<title>Your turn · " in _as(client, table, "Ann", "")
    assert "<title>Your turn" not in _as(client, table, "Bob", "")
    table.ok("Ann", "call 7")
    ann = _as(client, table, "Ann")
    assert _turn(ann) == "Your turn: throw the dice"
    assert _moves(ann) == ["throw"]
    assert _turn(_as(client, table, "Bob")) == "Waiting for Ann to throw"
    screen = _as(client, table, None, "/view?mode=screen")
    assert _turn(screen) == "Waiting for Ann to throw"
    assert "data-action" not in screen


def test_a_closed_table_says_so_on_its_turn_line(client: TestClient) -> None:
    table = Table(client)
    table.join("Ann")
    client.cookies.clear()
    closed = client.post(
        f"/api/tables/{table.id}/close", json={}, headers={"Authorization": f"Bearer {table.host}"}
    )
    assert closed.status_code == 200, closed.text
    assert _turn(_as(client, table, "Ann")) == "This table is closed."
