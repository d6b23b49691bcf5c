"""The web table's record, streamed and paged as the export is, the methods a path takes, and the
server's public key that signs every reveal."""

from __future__ import annotations

import json
from typing import Any

import pytest
from fastapi.responses import JSONResponse
from fastapi.testclient import TestClient
from tests.web.helpers import LAX, Table, bearer, client, refused

from hazard.table import Access, GameStore, game_json, load_game
from hazard.web import WebConfig, create_app

__all__ = ["client"]  # the fixtures, used by name


# --- the record, streamed and paged -----------------------------------------------------------------------


def exported(db_url: str, game: int) -> bytes:
    """What ``/record`` answered before it was streamed: the export of the game read whole, as the API
    encodes it."""
    return JSONResponse(game_json(load_game(GameStore.open(db_url, access=Access.READ), game))).body


def test_the_streamed_record_is_the_export_and_follows_the_game_without_replaying_it(
    client: TestClient, db_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The same bytes as the export of the game read whole, after every kind of change (new entries, a
    correction, which changes an earlier entry's standing); and once a game has been fetched, a fetch reads
    only the new entries from the record: the game is not read and replayed whole again."""
    table = Table(client, dice="typed")
    for name in ("Ann", "Bob"):
        seat = client.post(
            f"/api/tables/{table.id}/seats", json={"name": name, "bankroll": "20"}, headers=bearer(table.host)
        )
        assert seat.status_code == 201
    loads: list[int] = []
    whole = GameStore.load

    def counted(store: GameStore, game: int) -> Any:
        loads.append(game)
        return whole(store, game)

    monkeypatch.setattr(GameStore, "load", counted)

    def fetched() -> bytes:
        answer = client.get(f"/api/tables/{table.id}/record")
        assert answer.status_code == 200
        assert answer.headers["content-type"].startswith("application/json")
        return answer.content

    assert fetched() == exported(db_url, table.id)
    table.ok("host", "stake Bob 2")
    table.ok("host", "call 7")
    loads.clear()
    assert fetched() == exported(db_url, table.id)
    assert fetched() == exported(db_url, table.id)
    thrown = table.ok("host", "3-3")
    assert fetched() == exported(db_url, table.id)
    assert loads.count(table.id) == 3, "a fetch read the game whole"  # only exported()'s own reads
    table.ok("host", "undo")
    assert json_entry(fetched(), thrown["seq"])["standing"] == "void"
    assert fetched() == exported(db_url, table.id)
    table.ok("host", "5-2")
    assert fetched() == exported(db_url, table.id)


def json_entry(text: bytes, seq: int) -> dict[str, Any]:
    entry: dict[str, Any] = json.loads(text)["entries"][seq - 1]
    assert entry["seq"] == seq
    return entry


def test_the_record_page_by_page_is_the_exports_entries(client: TestClient) -> None:
    table = Table(client)
    for name in ("Ann", "Bob", "Cat"):
        table.join(name)
    table.ok("Ann", "seed one")
    whole = client.get(f"/api/tables/{table.id}/record").json()["entries"]
    pages: list[dict[str, Any]] = []
    after: int | None = 0
    for _ in range(len(whole) + 1):  # bounded: a page gives at least one entry
        if after is None:
            break
        page = client.get(f"/api/tables/{table.id}/entries", params={"after": after, "limit": 2}).json()
        assert page["head"] == len(whole)
        assert len(page["entries"]) <= 2
        pages.extend(page["entries"])
        after = page["next"]
    assert pages == whole
    beyond = client.get(f"/api/tables/{table.id}/entries", params={"after": 10_000}).json()
    assert (beyond["entries"], beyond["next"]) == ([], None)
    refused(client.get(f"/api/tables/{table.id}/entries", params={"limit": 0}), 422, "limit")
    refused(client.get(f"/api/tables/{table.id}/entries", params={"limit": 501}), 422, "limit")
    refused(client.get("/api/tables/999/entries"), 404, "999")


def test_a_method_a_path_does_not_take_is_405_naming_every_method_it_does(client: TestClient) -> None:
    answer = client.request("DELETE", "/api/tables")
    refused(answer, 405, "Method Not Allowed")
    assert answer.headers["allow"] == "GET, POST"
    assert client.request("PUT", "/api/tables/1/record").headers["allow"] == "GET"


def test_the_servers_public_key_is_published_and_signs_every_reveal_of_its_tables(db_url: str) -> None:
    """Issue 19, finding 11: GET /api/key, and the table's record verifies against that key."""
    from hazard.table.fair.signing import fingerprint
    from hazard.table.record.provenance import check_provenance

    limits = LAX
    with TestClient(create_app(WebConfig(db=db_url, poll=0.05, limits=limits))) as client:
        key = client.get("/api/key").json()
        assert set(key) == {"algorithm", "public_key", "public_key_base64", "fingerprint"}
        assert key["algorithm"] == "Ed25519"
        public = bytes.fromhex(key["public_key"])
        assert key["fingerprint"] == fingerprint(public)
        table = Table(client)
        table.join("Ann")
        table.join("Bob")
        first = table.state()["state"]["turn"]["caster"]
        for _ in range(2000):  # until the dice pass: the hand ends and its seed is revealed
            turn = table.state()["state"]["turn"]
            if turn["caster"] != first:
                break
            table.ok(turn["caster"], "throw" if turn["need"] == "throw" else "call 7")
        record = client.get(f"/api/tables/{table.id}/record").json()
    assert record["signing"]["public_key"] == key["public_key"]
    found = check_provenance(record, public)
    assert found.ok, found.problem
    assert found.signed
