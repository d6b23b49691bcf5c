"""The result banner (issue 21 item 4): when a round settles, who won what from whom, in the table's money
style, with the reason; after a referee's ``fix``, the corrected outcome and its settlement."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient
from tests.web.helpers import LAX, Table, bearer
from tests.web.test_web_pages import parsed, section

from hazard.web import WebConfig, create_app


@pytest.fixture
def client(db_url: str) -> Iterator[TestClient]:
    with TestClient(create_app(WebConfig(db=db_url, poll=0.05, limits=LAX))) as test_client:
        test_client.headers["origin"] = "http://testserver"
        yield test_client


def _typed_table(client: TestClient, money: str) -> Table:
    table = Table(client, dice="typed", money=money)
    for name in ("Ann", "Bob"):
        seated = client.post(
            f"/api/tables/{table.id}/seats", json={"name": name, "bankroll": "20"}, headers=bearer(table.host)
        )
        assert seated.status_code == 201, seated.text
    return table


def _banner(client: TestClient, table: Table) -> str:
    client.cookies.clear()
    page = client.get(f"/tables/{table.id}").text
    return "".join(parsed(section(page, '<section class="card result"')).text)


def test_no_banner_before_a_round_settles(client: TestClient) -> None:
    table = _typed_table(client, "decimal")
    table.ok("host", "stake Bob 2")
    assert '<section class="card result"' not in client.get(f"/tables/{table.id}").text


def test_a_settled_round_says_who_won_what_from_whom_and_why(client: TestClient) -> None:
    table = _typed_table(client, "decimal")
    table.ok("host", "stake Bob 5/2")
    table.ok("host", "call 7")
    table.ok("host", "5-2")  # a nick: the caster wins
    banner = _banner(client, table)
    assert "Round 1: Ann, the caster, wins 2.50" in banner
    assert "Bob pays Ann 2.50" in banner
    assert "nick on a main of 7: the caster wins" in banner
    assert "5/2" not in banner


def test_a_referees_fix_shows_the_corrected_outcome_and_its_settlement(client: TestClient) -> None:
    table = _typed_table(client, "decimal")
    table.ok("host", "stake Bob 2")
    table.ok("host", "call 7")
    thrown = table.ok("host", "5-2")
    table.ok("host", f"fix {thrown['seq']} 1-1")  # thrown out on a crab instead
    banner = _banner(client, table)
    assert "Round 1: Ann, the caster, loses 2.00" in banner
    assert "Ann pays Bob 2.00" in banner
    assert "thrown out on a main of 7: the caster loses" in banner
    client.cookies.clear()
    page = client.get(f"/tables/{table.id}").text
    card = section(page, '<section class="card round">')
    assert 'aria-label="1 and 1"' in card  # the round card shows the throw as fixed
    assert 'aria-label="5 and 2"' not in card
    log = "".join(parsed(section(page, '<section class="card log">')).text)
    assert "now: Ann throws 1-1" in log
    assert "the caster Ann loses 2.00 (Ann pays Bob 2.00)" in log
    assert "Ann pays Bob 2.00" in log


@pytest.mark.parametrize(("money", "won"), [("exact", "5/2"), ("lsd", "£2 10s")])
def test_the_banner_shows_money_in_the_tables_style(client: TestClient, money: str, won: str) -> None:
    table = _typed_table(client, money)
    table.ok("host", "stake Bob 5/2")
    table.ok("host", "call 7")
    table.ok("host", "5-2")
    banner = _banner(client, table)
    assert f"Round 1: Ann, the caster, wins {won}" in banner
    assert f"Bob pays Ann {won}" in banner
