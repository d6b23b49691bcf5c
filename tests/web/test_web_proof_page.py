"""The dice's proof page as the server renders it (the browser's check is in ``test_web_proof``): each hand
of a table of fair dice with its commitment and throws, its script the page's own; a table of other dice
says it carries no proof."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient
from tests.web.helpers import LAX, Table, bearer
from tests.web.test_web_pages import parsed

from hazard.web import WebConfig, create_app


@pytest.fixture
def client(db_url: str) -> Iterator[TestClient]:
    with TestClient(create_app(WebConfig(db=db_url, poll=0.05, limits=LAX))) as test_client:
        test_client.headers["origin"] = "http://testserver"
        yield test_client


def test_a_fair_tables_proof_lists_its_hands_and_loads_the_checking_script(client: TestClient) -> None:
    table = Table(client)
    table.join("Ann")
    table.ok("Ann", "call 7")
    table.ok("Ann", "throw")
    page = client.get(f"/tables/{table.id}/proof")
    assert page.status_code == 200
    hand = table.state()["hand"]
    record = client.get(f"/api/tables/{table.id}/record").json()
    for number, shown in enumerate(record["hands"], start=1):
        assert f'data-hand="{number}" data-commitment="{shown["commitment"]}"' in page.text
    assert hand == len(record["hands"])
    shape = parsed(page.text)
    assert shape.tags.count("script") == 2  # the pages' script, and the proof's own
    assert '<script src="/static/proof.js" defer></script>' in page.text
    script = client.get("/static/proof.js")
    assert script.status_code == 200
    assert script.headers["content-type"].startswith("text/javascript")
    assert "crypto.subtle" in script.text


def test_a_table_of_real_dice_carries_no_proof(client: TestClient) -> None:
    table = Table(client, dice="typed")
    seated = client.post(
        f"/api/tables/{table.id}/seats", json={"name": "Ann", "bankroll": "20"}, headers=bearer(table.host)
    )
    assert seated.status_code == 201
    page = client.get(f"/tables/{table.id}/proof").text
    assert "they carry no proof to check" in "".join(parsed(page).text)
    assert 'class="card hand"' not in page


def test_no_such_tables_proof(client: TestClient) -> None:
    assert client.get("/tables/999/proof").status_code == 404
