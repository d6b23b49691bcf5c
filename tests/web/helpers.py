"""What the web table's test-client tests share: a client of the app on a fresh record, a table set up
through the API with its tokens, a bearer header, a refusal read, and limits too lax to be met."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from hazard.web import Limits, WebConfig, create_app

LAX = Limits(rate=1e6, burst=1e6, address_rate=1e6, address_burst=1e6, seat_rate=1e6, seat_burst=1e6)
"""No rate limit to speak of: for the tests that play many hands quickly from one address."""


@pytest.fixture
def client(db_url: str) -> Iterator[TestClient]:
    # A seat's own rate limit left out (it is attacked where it is tested): tests play rounds quickly.
    limits = Limits(seat_rate=1e6, seat_burst=1e6)
    with TestClient(create_app(WebConfig(db=db_url, poll=0.05, limits=limits))) as test_client:
        # As the table's own pages do: a browser's POST names the page it comes from (cross-site requests
        # are attacked in test_web_seats.py).
        test_client.headers["origin"] = "http://testserver"
        yield test_client


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


class Table:
    """A table set up through the API, with its host's token and its players' tokens."""

    def __init__(self, client: TestClient, **setup: Any) -> None:
        self.client = client
        made = client.post("/api/tables", json={"ruleset": "wikipedia", **setup})
        assert made.status_code == 201, made.text
        self.id: int = made.json()["id"]
        self.host: str = made.json()["host_token"]
        self.tokens: dict[str, str] = {}
        client.cookies.clear()

    def join(self, name: str, bankroll: str = "100") -> dict[str, Any]:
        answer = self.client.post(f"/api/tables/{self.id}/seats", json={"name": name, "bankroll": bankroll})
        self.client.cookies.clear()
        assert answer.status_code == 201, answer.text
        self.tokens[answer.json()["seat"]] = answer.json()["token"]
        return dict(answer.json())

    def act(self, who: str | None, action: str, **extra: Any) -> Any:
        token = None if who is None else self.host if who == "host" else self.tokens[who]
        headers = {} if token is None else bearer(token)
        return self.client.post(
            f"/api/tables/{self.id}/actions", json={"action": action, **extra}, headers=headers
        )

    def ok(self, who: str, action: str, **extra: Any) -> dict[str, Any]:
        answer = self.act(who, action, **extra)
        assert answer.status_code == 200, answer.text
        return dict(answer.json())

    def state(self) -> dict[str, Any]:
        answer = self.client.get(f"/api/tables/{self.id}")
        assert answer.status_code == 200
        return dict(answer.json())


def refused(answer: Any, status: int, *fragments: str) -> str:
    assert answer.status_code == status, answer.text
    body = answer.json()
    assert set(body) in ({"error", "said"}, {"error", "said", "next"}), body  # hazard.web.refusals' one form
    for fragment in fragments:
        assert fragment in body["error"], body["error"]
    assert "Traceback" not in body["error"]
    return str(body["error"])
