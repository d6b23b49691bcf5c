"""Real ``hazard serve`` processes: one killed with ``kill -9`` and started again; two on one PostgreSQL.

Every server here listens on 127.0.0.1 on a free port, and is killed at the end of its test; every wait is
bounded.
"""

from __future__ import annotations

import contextlib
import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from tests.servers import Server
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

from hazard.table import Access, GameStore, load_game

pytestmark = pytest.mark.slow  # real hazard serve processes, killed and restarted


@pytest.fixture
def servers(tmp_path: Path) -> Iterator[list[Server]]:
    started: list[Server] = []
    yield started
    for server in started:
        server.stop()


def post(server: Server, path: str, body: dict[str, Any], token: str | None = None) -> httpx.Response:
    headers = {} if token is None else {"Authorization": f"Bearer {token}"}
    return httpx.post(f"{server.url}{path}", json=body, headers=headers, timeout=10)


def setup_table(server: Server, *names: str) -> tuple[int, dict[str, str]]:
    made = post(server, "/api/tables", {"ruleset": "wikipedia"})
    assert made.status_code == 201, made.text
    game = made.json()["id"]
    tokens = {}
    for name in names:
        seat = post(server, f"/api/tables/{game}/seats", {"name": name, "bankroll": "1000"})
        assert seat.status_code == 201, seat.text
        tokens[name] = seat.json()["token"]
    return game, tokens


def drain(follower: ClientConnection) -> None:
    """Read updates until the connection drops (bounded: a live server sends nothing for 10 s here)."""
    for _ in range(1000):
        follower.recv(timeout=10)


def next_action(state: dict[str, Any], name: str) -> str | None:
    """What ``name`` does next in a plain game: the caster calls 7 and throws; a setter stakes 1 if he may."""
    table = state["state"]
    turn = table["turn"]
    if turn["caster"] == name:
        return "call 7" if turn["need"] == "call" else "throw"
    if turn["stakes_open"] and not any(s["player"] == name for s in table["stakes"]):
        return "stake 1"
    return None


def test_a_server_killed_between_actions_comes_back_with_every_table_as_it_was(
    tmp_path: Path, servers: list[Server]
) -> None:
    server = Server(str(tmp_path / "games.db"), tmp_path)
    servers.append(server)
    game, tokens = setup_table(server, "Ann", "Bob")
    acknowledged = []
    sent: list[tuple[str, str]] = []
    socket_url = f"ws://127.0.0.1:{server.port}/api/tables/{game}/live?since=0"
    with connect(socket_url, open_timeout=10) as follower:
        first = json.loads(follower.recv(timeout=10))
        assert first["type"] == "entries"
        for step in range(30):
            state = httpx.get(f"{server.url}/api/tables/{game}", timeout=10).json()
            name = "Ann" if next_action(state, "Ann") else "Bob"
            action = next_action(state, name)
            assert action is not None
            answer = post(
                server, f"/api/tables/{game}/actions", {"action": action, "id": f"a{step}"}, tokens[name]
            )
            assert answer.status_code == 200, answer.text
            acknowledged.append(answer.json()["seq"])
            sent.append((name, action))
        before = httpx.get(f"{server.url}/api/tables/{game}", timeout=10).json()
        server.kill()
        with pytest.raises(ConnectionClosed):
            drain(follower)
    server.start()
    after = httpx.get(f"{server.url}/api/tables/{game}", timeout=10).json()
    assert after == before  # every table as it was
    record = load_game(GameStore.open(str(tmp_path / "games.db"), access=Access.READ), game)
    assert set(acknowledged) <= {entry.seq for entry in record.entries}  # nothing acknowledged lost
    # the page's reconnect: with the last entry it saw, it gets nothing twice and nothing missed
    with connect(f"ws://127.0.0.1:{server.port}/api/tables/{game}/live?since={before['seq']}") as again:
        assert json.loads(again.recv(timeout=10)) == {"type": "entries", "seq": before["seq"], "entries": []}
    # an action sent again after the restart, with the id it had, is made once
    # (by the player who sent it: a client's number is its own)
    name, action = sent[-1]
    resent = post(server, f"/api/tables/{game}/actions", {"action": action, "id": "a29"}, tokens[name])
    assert resent.status_code == 200
    assert resent.json()["seq"] == acknowledged[-1]


def test_two_servers_on_one_postgresql_keep_one_order_and_show_the_same_table(
    postgres_url: str, tmp_path: Path, servers: list[Server]
) -> None:
    one, two = Server(postgres_url, tmp_path), Server(postgres_url, tmp_path)
    servers.extend([one, two])
    game, tokens = setup_table(one, "Ann", "Bob", "Cat")
    home = {"Ann": one, "Bob": two, "Cat": two}
    seen: dict[int, list[int]] = {one.port: [], two.port: []}
    with contextlib.ExitStack() as stack:
        sockets = [
            stack.enter_context(
                connect(f"ws://127.0.0.1:{server.port}/api/tables/{game}/live?since=-1", open_timeout=10)
            )
            for server in (one, two)
        ]
        for socket_ in sockets:
            socket_.recv(timeout=10)
        for step in range(24):
            state = httpx.get(f"{one.url}/api/tables/{game}", timeout=10).json()
            for name in ("Ann", "Bob", "Cat"):
                action = next_action(state, name)
                if action is None:
                    continue
                answer = post(
                    home[name],
                    f"/api/tables/{game}/actions",
                    {"action": action, "id": f"{name}{step}"},
                    tokens[name],
                )
                assert answer.status_code in (200, 409), answer.text
                break
        final = httpx.get(f"{one.url}/api/tables/{game}", timeout=10).json()["seq"]
        for server, socket_ in zip((one, two), sockets, strict=True):
            deadline = time.monotonic() + 10
            while not seen[server.port] or seen[server.port][-1] < final:
                assert time.monotonic() < deadline, f"server {server.port} did not tell its client"
                update = json.loads(socket_.recv(timeout=10))
                seen[server.port].extend(e["seq"] for e in update.get("entries", []))
                if update["type"] == "state":
                    seen[server.port].append(update["seq"])
    a = httpx.get(f"{one.url}/api/tables/{game}", timeout=10).json()
    b = httpx.get(f"{two.url}/api/tables/{game}", timeout=10).json()
    assert a == b
    record_one = httpx.get(f"{one.url}/api/tables/{game}/record", timeout=10).json()
    record_two = httpx.get(f"{two.url}/api/tables/{game}/record", timeout=10).json()
    assert record_one["entries"] == record_two["entries"]
    assert [e["seq"] for e in record_one["entries"]] == list(range(1, final + 1))
