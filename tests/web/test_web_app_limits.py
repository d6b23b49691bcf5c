"""What one client may cost the web table: a body too large, too many requests, tables, seats and seeds."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient
from tests.web.helpers import Table, client, refused

from hazard.web import Limits, WebConfig, create_app

__all__ = ["client"]  # the fixtures, used by name


# --- limits -------------------------------------------------------------------------------------------------


def test_a_body_too_large_is_413_and_too_many_requests_429(db_url: str) -> None:
    limits = Limits(body=2048, rate=5, burst=5, address_rate=1000, address_burst=1000)
    with TestClient(create_app(WebConfig(db=db_url, limits=limits))) as client:
        refused(client.post("/api/tables", content=b"x" * 5000), 413, "at most 2,048 bytes")
        answers = [client.get("/api/rulesets") for _ in range(8)]
    codes = [answer.status_code for answer in answers]
    assert 429 in codes
    assert codes[0] == 200
    throttled(next(answer for answer in answers if answer.status_code == 429))  # with Retry-After


# --- what one client may cost the server ------------------------------------------------------------------


def throttled(answer: Any) -> int:
    """A 429 in the API's one form, with the seconds to wait; those seconds."""
    refused(answer, 429, "too many")
    wait = int(answer.headers["retry-after"])
    assert wait >= 1
    return wait


def test_one_address_sets_up_only_so_many_tables_an_hour(db_url: str) -> None:
    with TestClient(create_app(WebConfig(db=db_url, limits=Limits(tables_per_hour=3)))) as client:
        for _ in range(3):
            Table(client)
        wait = throttled(client.post("/api/tables", json={"ruleset": "wikipedia"}))
        assert 60 <= wait <= 3600  # one table's worth of the hour
        assert len(client.get("/api/tables").json()["tables"]) == 3


def test_one_address_takes_only_so_many_seats_a_minute(db_url: str) -> None:
    limits = Limits(seats_per_minute=2, seats_burst=2)
    with TestClient(create_app(WebConfig(db=db_url, limits=limits))) as client:
        table = Table(client)
        table.join("Ann")
        table.join("Bob")
        throttled(client.post(f"/api/tables/{table.id}/seats", json={"name": "Cat", "bankroll": "9"}))
        assert [p["name"] for p in table.state()["state"]["players"]] == ["Ann", "Bob"]


def test_a_seat_spamming_its_seed_is_slowed_and_the_others_are_not(db_url: str) -> None:
    """A seat sending ``seed x`` as fast as it can gets its burst, then 429s: the record grows by one seed
    (one a hand) and no more, and another seat at the table acts as usual."""
    limits = Limits(seat_rate=0.5, seat_burst=5)
    with TestClient(create_app(WebConfig(db=db_url, limits=limits))) as client:
        table = Table(client)
        table.join("Ann")
        table.join("Bob")
        head = table.state()["seq"]
        answers = [table.act("Ann", f"seed spam{n}") for n in range(30)]
        statuses = [answer.status_code for answer in answers]
        # One seed a hand is the table's own rule (the rest of the burst is refused, 409, writing nothing);
        # past its burst the seat is slowed (429), whatever it sends.
        assert statuses.count(200) <= 1, statuses
        assert set(statuses) <= {200, 409, 429}, statuses
        assert sum(status != 429 for status in statuses) <= 6, statuses
        throttled(answers[-1])
        assert table.state()["seq"] - head <= 1
        table.ok("Bob", "seed bobs-own")
