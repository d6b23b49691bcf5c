"""One true table for every process and page (issue 19, findings 5 to 7).

Two servers over one record, an SQLite file and (where the suite is given one, HAZARD_TEST_DATABASE_URL)
PostgreSQL: what one of them writes (a close, a sit, a leave, a removal) is obeyed by the other at its very
next request, not after a poll; every read answers from the record's head; and a follower of a table gets
every entry the record gains, once each and in order, whichever server wrote it. The servers here are two
applications in one process, each with its own hub, its own connections to the record and its own event
loop (the test client's), as two processes would have; their watchers poll once a minute, so whatever a
request sees, it learned from the record when it came. The live stream is followed over real sockets of two
``hazard serve`` processes (``tests.servers``), where every wait is bounded.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient
from tests.servers import Server
from websockets.sync.client import ClientConnection, connect

from hazard.table import Access, GameStore, load_game
from hazard.web import Limits, WebConfig, create_app

SLOW = 60.0
"""The watchers' poll, in seconds: longer than any test here, so no server learns anything by polling."""
LAX = Limits(
    rate=10_000.0,
    burst=10_000.0,
    address_rate=10_000.0,
    address_burst=10_000.0,
    seat_rate=10_000.0,
    seat_burst=10_000.0,
)
"""No rate limit to speak of: these tests play many hands quickly from one address."""


def config(url: str) -> WebConfig:
    return WebConfig(db=url, poll=SLOW, limits=LAX)


@pytest.fixture
def url(database: str) -> str:
    """A record two servers share: SQLite, then PostgreSQL where the suite has one (tests/conftest.py)."""
    return database


@pytest.fixture
def pair(url: str) -> Iterator[tuple[TestClient, TestClient]]:
    """Servers A and B on one record."""
    with (
        TestClient(create_app(config(url))) as a,
        TestClient(create_app(config(url))) as b,
    ):
        yield a, b


class Table:
    """A table of fair dice, set up on one server and played on either, with its host's and seats' tokens."""

    def __init__(self, server: TestClient) -> None:
        made = server.post("/api/tables", json={"ruleset": "wikipedia"})
        assert made.status_code == 201, made.text
        self.id: int = made.json()["id"]
        self.host: str = made.json()["host_token"]
        self.tokens: dict[str, str] = {}
        server.cookies.clear()

    def sit(self, server: TestClient, name: str) -> httpx.Response:
        answer = server.post(f"/api/tables/{self.id}/seats", json={"name": name, "bankroll": "1000"})
        server.cookies.clear()
        if answer.status_code == 201:
            self.tokens[name] = answer.json()["token"]
        return answer

    def act(self, server: TestClient, who: str, action: str) -> httpx.Response:
        token = self.host if who == "host" else self.tokens[who]
        return server.post(
            f"/api/tables/{self.id}/actions",
            json={"action": action},
            headers={"Authorization": f"Bearer {token}"},
        )

    def state(self, server: TestClient) -> dict[str, Any]:
        answer = server.get(f"/api/tables/{self.id}")
        assert answer.status_code == 200, answer.text
        return dict(answer.json())


def refused(answer: httpx.Response, *fragments: str) -> str:
    assert answer.status_code in (403, 409), answer.text
    error = str(answer.json()["error"])
    for fragment in fragments:
        assert fragment in error, error
    return error


def head_of(url: str, game: int) -> int:
    store = GameStore.open(url, access=Access.READ)
    try:
        return store.heads([game])[game]
    finally:
        store.close()


# --- finding 5: a close (and a sit, a leave, a removal) on one server is obeyed by the other at once -------


def test_a_close_on_one_server_is_obeyed_by_the_other_at_its_next_request(
    pair: tuple[TestClient, TestClient], url: str
) -> None:
    a, b = pair
    table = Table(a)
    for name in ("Ann", "Bob"):
        assert table.sit(a, name).status_code == 201
    assert table.act(a, "Ann", "call 7").status_code == 200  # mid-hand: its seed still secret
    assert table.state(b)["closed"] is False  # B holds the table in memory, open
    closed = a.post(f"/api/tables/{table.id}/close", headers={"Authorization": f"Bearer {table.host}"})
    assert closed.status_code == 200, closed.text
    # B's very next requests: no sit, no stake, no throw, no seed, and the host seats nobody either
    refused(table.sit(b, "Cat"), "closed")
    refused(table.act(b, "Bob", "stake 1"), "closed")
    refused(table.act(b, "Ann", "throw"), "closed")
    refused(table.act(b, "Bob", "seed lucky"), "closed")
    refused(table.act(b, "host", "sit Dan 10"), "closed")
    state = table.state(b)
    assert state["closed"] is True
    assert state["seq"] == head_of(url, table.id) == closed.json()["seq"]
    assert table.id not in [t["id"] for t in b.get("/api/tables").json()["tables"]]
    assert "This table is closed" in b.get(f"/tables/{table.id}").text
    # the record is the one truth: the close, with the hand's reveal before it, exported alike by both
    record = b.get(f"/api/tables/{table.id}/record").json()
    assert record == a.get(f"/api/tables/{table.id}/record").json()
    assert record["closed"] is True
    assert [e["entry"]["type"] for e in record["entries"][-2:]] == ["reveal", "close"]
    assert record["hands"][-1]["server_seed"] is not None


def test_a_sit_a_leave_and_a_removal_on_one_server_are_obeyed_by_the_other_at_once(
    pair: tuple[TestClient, TestClient],
) -> None:
    a, b = pair
    table = Table(a)
    for name in ("Ann", "Bob", "Cat"):
        assert table.sit(a, name).status_code == 201
    assert table.state(b)["seq"] == table.state(a)["seq"]  # B holds the table in memory
    assert table.sit(a, "Dan").status_code == 201
    assert table.act(b, "Dan", "stake 1").status_code == 200  # seated on A, staking on B at once
    assert table.act(a, "Bob", "leave").status_code == 200  # Bob leaves on A ...
    refused(table.act(b, "Bob", "stake 1"))  # ... and B refuses his stake
    assert table.act(a, "host", "leave Cat").status_code == 200  # the host removes Cat on A ...
    refused(table.act(b, "Cat", "stake 1"))  # ... and B refuses hers
    names = [p["name"] for p in table.state(b)["state"]["players"]]
    assert names == ["Ann", "Dan"]


# --- finding 6: a read answers from the record's head ------------------------------------------------------


def test_a_read_on_a_server_nobody_follows_the_table_on_answers_from_the_record_head(
    pair: tuple[TestClient, TestClient], url: str
) -> None:
    a, b = pair
    table = Table(a)
    assert table.sit(a, "Ann").status_code == 201
    assert table.state(b)["seq"] == 2  # B has read the table once, and no one follows it on B
    assert table.sit(a, "Bob").status_code == 201
    assert table.act(a, "Bob", "stake 2").status_code == 200
    assert table.act(a, "Ann", "call 7").status_code == 200
    seen = table.state(b)
    assert seen["seq"] == head_of(url, table.id) == table.state(a)["seq"] == 5
    assert seen == table.state(a)
    assert 'data-seq="5"' in b.get(f"/tables/{table.id}/view").text  # the pages too


# --- finding 7: every entry reaches every follower once, in order -------------------------------------------


@pytest.fixture
def servers() -> Iterator[list[Server]]:
    started: list[Server] = []
    yield started
    for server in started:
        server.stop()


def _post(server: Server, path: str, body: dict[str, Any], token: str | None = None) -> httpx.Response:
    headers = {} if token is None else {"Authorization": f"Bearer {token}"}
    return httpx.post(f"{server.url}{path}", json=body, headers=headers, timeout=10)


def _move(turn: dict[str, Any], played: bool) -> tuple[str, bool]:
    """The caster's next move: call 7 and throw until the round ends, then pass the dice (a hand's end, with
    its reveal and the next commitment); and whether the caster has played a round of this hand."""
    if turn["need"] != "call":
        return "throw", played
    return ("pass", False) if played else ("call 7", True)


def _received(follower: ClientConnection, head: int, seqs: list[int]) -> None:
    """Read updates until one says the table is at ``head`` (bounded: 10 s a message, 200 messages)."""
    for _ in range(200):
        if seqs and seqs[-1] >= head:
            return
        update = json.loads(follower.recv(timeout=10))
        assert update["type"] == "entries", update  # never the whole state: nothing was missed
        seqs.extend(entry["seq"] for entry in update["entries"])
        if update["seq"] >= head and (not seqs or seqs[-1] < head):
            return  # the update's head jumped past the entries it carried: a gap
    raise AssertionError(f"no update reached entry {head}: got {seqs[-5:]}")


@pytest.mark.slow
def test_a_follower_gets_every_entry_once_in_order_across_hand_ends_and_another_servers_writes(
    database: str, tmp_path: Path, servers: list[Server]
) -> None:
    db = database
    one, two = Server(db, tmp_path), Server(db, tmp_path)
    servers.extend([one, two])
    made = _post(one, "/api/tables", {"ruleset": "wikipedia"})
    game = made.json()["id"]
    tokens = {}
    for name in ("Ann", "Bob"):
        tokens[name] = _post(one, f"/api/tables/{game}/seats", {"name": name, "bankroll": "1000"}).json()[
            "token"
        ]
    seqs: list[int] = []
    with connect(f"ws://127.0.0.1:{one.port}/api/tables/{game}/live?since=0", open_timeout=10) as follower:
        passes, played = 0, False
        for step in range(200):  # each caster plays a round, then passes; Bob plays on server two
            if passes >= 3:
                break
            turn = httpx.get(f"{one.url}/api/tables/{game}", timeout=10).json()["state"]["turn"]
            caster = turn["caster"]
            action, played = _move(turn, played)
            body = {"action": action, "id": f"s{step}"}
            answer = _post(
                two if caster == "Bob" else one, f"/api/tables/{game}/actions", body, tokens[caster]
            )
            assert answer.status_code == 200, answer.text
            passes += action == "pass"
        assert passes >= 3
        head = httpx.get(f"{one.url}/api/tables/{game}", timeout=10).json()["seq"]
        _received(follower, head, seqs)
    assert seqs == list(range(1, head + 1))  # contiguous from 1 to the head, no repeats
    record = load_game(GameStore.open(db, access=Access.READ), game)
    assert len(record.entries) == head
    reveals = [e.seq for e in record.entries if type(e.item).__name__ == "Revealed"]
    assert len(reveals) >= 3  # the hand ends' reveals (and the next commitments) were among them
    for since in (
        0,
        reveals[0] - 1,
        reveals[0],
        head - 3,
        head,
    ):  # a reconnect replays exactly since+1 .. head
        for server in (one, two):
            with connect(f"ws://127.0.0.1:{server.port}/api/tables/{game}/live?since={since}") as again:
                update = json.loads(again.recv(timeout=10))
            assert update["type"] == "entries"
            assert update["seq"] == head
            assert [e["seq"] for e in update["entries"]] == list(range(since + 1, head + 1))


def test_reconnects_and_followers_see_no_gap_when_a_hand_ends_on_one_server(
    tmp_path: Path,
) -> None:
    """The same guarantee through the test client alone (one server): every update's entries follow on from
    the last one's, and the head an update names is the last entry it carries."""
    with TestClient(create_app(config(str(tmp_path / "games.db")))) as client:
        table = Table(client)
        for name in ("Ann", "Bob"):
            assert table.sit(client, name).status_code == 201
        with client.websocket_connect(f"/api/tables/{table.id}/live?since=0") as follower:
            first = follower.receive_json()
            seqs = [e["seq"] for e in first["entries"]]
            assert first["seq"] == seqs[-1]
            passes, played = 0, False
            for _ in range(200):
                if passes >= 3:
                    break
                turn = table.state(client)["state"]["turn"]
                action, played = _move(turn, played)
                assert table.act(client, turn["caster"], action).status_code == 200
                update = follower.receive_json()  # one update an action, sent before the answer
                assert update["type"] == "entries", update
                carried = [e["seq"] for e in update["entries"]]
                assert carried == list(range(seqs[-1] + 1, update["seq"] + 1)), (seqs[-3:], update["seq"])
                seqs.extend(carried)
                passes += action == "pass"
        assert seqs == list(range(1, table.state(client)["seq"] + 1))
        kinds = [e["entry"]["type"] for e in client.get(f"/api/tables/{table.id}/record").json()["entries"]]
        assert kinds.count("reveal") >= 3
        assert kinds.count("commit") >= 4
