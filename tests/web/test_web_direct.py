"""The action route's direct path (``hazard.web.direct``) against the route itself: the same requests to two
servers, each on a record of its own with the same table, one answered directly and one by FastAPI's route
(a ``+json`` type, which the route reads as JSON and the direct path hands on), give the same answers byte
for byte, refusals, limits and headers included; and the route is the OpenAPI schema's, unchanged."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from httpx import Response
from tests.web.helpers import Table, bearer

from hazard.web import Limits, WebConfig, create_app
from hazard.web import direct as direct_module
from hazard.web.bodies import REFUSALS

DIRECT = "application/json"
ROUTE = "application/hazard+json"
"""JSON to the route (FastAPI reads any ``+json`` type so), which the direct path leaves to it."""
OPEN = Limits(seat_rate=1e6, seat_burst=1e6)


@pytest.fixture
def answered(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The tables of the actions the direct path has made (so that no test passes without it)."""
    made: list[int] = []
    real = direct_module.act_as

    async def counted(game: int, *args: Any) -> dict[str, Any]:
        made.append(game)
        return await real(game, *args)

    monkeypatch.setattr(direct_module, "act_as", counted)
    return made


class Pair:
    """Two servers with the same table (its number, its players): one for each path."""

    def __init__(self, folder: Path, limits: Limits = OPEN) -> None:
        self.clients = [
            TestClient(create_app(WebConfig(db=str(folder / f"{name}.db"), poll=0.05, limits=limits)))
            for name in ("direct", "route")
        ]
        self.tables: list[Table] = []
        for client in self.clients:
            client.__enter__()
            client.headers["origin"] = "http://testserver"
            table = Table(client)
            for name in ("Ann", "Bob", "Cat"):
                table.join(name)
            self.tables.append(table)
        assert self.tables[0].id == self.tables[1].id

    def close(self) -> None:
        for client in self.clients:
            client.__exit__(None, None, None)

    def send(self, who: str | None, body: Any) -> tuple[Response, Response]:
        """The same request to both servers: its body's JSON (bytes as they are), from ``who``."""
        answers = []
        for table, kind in zip(self.tables, (DIRECT, ROUTE), strict=True):
            token = None if who is None else table.host if who == "host" else table.tokens[who]
            headers = {"content-type": kind, **({} if token is None else bearer(token))}
            content = body if isinstance(body, bytes) else json.dumps(body).encode()
            answers.append(
                table.client.post(f"/api/tables/{table.id}/actions", content=content, headers=headers)
            )
        return answers[0], answers[1]


@pytest.fixture
def pair(tmp_path: Path) -> Iterator[Pair]:
    made = Pair(tmp_path)
    yield made
    made.close()


def same(direct: Response, route: Response) -> int:
    assert (direct.status_code, direct.content) == (route.status_code, route.content)
    assert dict(direct.headers) == dict(route.headers)
    return direct.status_code


REQUESTS: list[tuple[str | None, Any, int]] = [
    ("Bob", {"action": "stake 5"}, 200),
    ("Cat", {"action": "stake 2", "id": "c-1"}, 200),
    ("Cat", {"action": "stake 2", "id": "c-1"}, 200),  # the same id again: the first answer, nothing made
    ("Ann", {"action": "throw"}, 409),  # not allowed now: with the seat's next step
    (None, {"action": "stake 1"}, 403),  # a spectator
    ("Bob", {"action": "call 7"}, 403),  # for the caster
    ("Ann", {"action": "call 7", "based_on": 1}, 200),  # a view from before the stakes: the dice are the same
    ("Ann", {"action": "frobnicate"}, 422),  # the table's own refusal of what is malformed
    ("Ann", {"action": "call 7", "id": "bad id!"}, 422),
    ("Ann", {"action": "call 7", "extra": 1}, 422),  # the body's own: left to the route
    ("Ann", {"action": 7}, 422),
    ("Ann", b"{", 422),
    ("Ann", b"", 422),
    ("Ann", {"action": "call 7"}, 409),  # called already
    ("host", {"action": "close"}, 422),  # not an action's text (closing is a route of its own)
]


def test_the_direct_path_answers_as_the_route_does(pair: Pair, answered: list[int]) -> None:
    statuses = [same(*pair.send(who, body)) for who, body, _ in REQUESTS]
    assert statuses == [status for _, _, status in REQUESTS]
    well_formed = [
        body for _, body, _ in REQUESTS if isinstance(body, dict) and set(body) <= {"action", "id"}
    ]
    well_formed = [body for body in well_formed if isinstance(body["action"], str)]
    assert len(answered) == len(well_formed) + 1  # the based_on one too; the rest the route answered


def test_a_table_not_there_and_numbers_the_route_reads(pair: Pair, answered: list[int]) -> None:
    for path in ("/api/tables/999/actions", "/api/tables/0/actions", "/api/tables/01/actions"):
        answers = [
            client.post(path, content=b'{"action": "throw"}', headers={"content-type": kind})
            for client, kind in zip(pair.clients, (DIRECT, ROUTE), strict=True)
        ]
        same(*answers)
    assert answered == [999]  # the others are the route's own refusals of a number


def test_the_limits_apply_to_the_direct_path(tmp_path: Path, answered: list[int]) -> None:
    pair = Pair(tmp_path, Limits(seat_rate=0.001, seat_burst=1, body=64))
    try:
        assert same(*pair.send("Bob", {"action": "stake 5"})) == 200
        direct, route = pair.send("Bob", {"action": "stake 5"})
        assert same(direct, route) == 429
        assert direct.headers["retry-after"]
        assert same(*pair.send("Bob", {"action": "stake " + "5" * 80})) == 413  # by its Content-Length
        chunked = [
            table.client.post(
                f"/api/tables/{table.id}/actions",
                content=iter([b'{"action": "', b"5" * 80, b'"}']),  # no Content-Length: counted
                headers={"content-type": kind, **bearer(table.tokens["Cat"])},
            )
            for table, kind in zip(pair.tables, (DIRECT, ROUTE), strict=True)
        ]
        assert same(*chunked) == 413
    finally:
        pair.close()
    assert len(answered) == 2


def test_the_route_stays_in_the_schema_as_it_was(pair: Pair) -> None:
    operation = pair.clients[0].get("/openapi.json").json()["paths"]["/api/tables/{game}/actions"]["post"]
    body = operation["requestBody"]["content"]["application/json"]["schema"]
    assert body == {"$ref": "#/components/schemas/NewAction"}
    assert set(operation["responses"]) == {"200"} | {str(code) for code in REFUSALS}
    assert operation["responses"]["200"]["content"]["application/json"]["schema"] == {
        "additionalProperties": True,
        "type": "object",
        "title": "Response Act Api Tables  Game  Actions Post",
    }
