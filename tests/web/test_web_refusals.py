"""Every refusal the server answers is one JSON form: the table's own message (``error``), the same in a
person's words (``said``), and for a seat's action what that seat can do now (``next``), which is what the
page shows. Attacked from each side: the caster, another seat, a spectator, a forged request, a flood."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient
from tests.web.helpers import LAX, Table

from hazard.web import Limits, WebConfig, create_app


@pytest.fixture
def client(db_url: str) -> Iterator[TestClient]:
    with TestClient(create_app(WebConfig(db=db_url, poll=0.05, limits=LAX))) as test_client:
        test_client.headers["origin"] = "http://testserver"
        yield test_client


@pytest.fixture
def table(client: TestClient) -> Table:
    table = Table(client)
    table.join("Ann")
    table.join("Bob")
    assert table.state()["state"]["caster"] == "Ann"
    return table


# (who, action, status, said, next): each refused, at a table where Ann, the caster, has no main yet
REFUSED = [
    (
        "Bob",
        "throw",
        409,
        "Only the caster, Ann, throws the dice.",
        "Waiting for Ann to call a main. You may lay a stake now.",
    ),
    (
        "Bob",
        "call 7",
        403,
        "Only the caster, Ann, calls the main.",
        "Waiting for Ann to call a main. You may lay a stake now.",
    ),
    (
        "Ann",
        "throw",
        409,
        "Ann must call a main first (5, 6, 7, 8 or 9), e.g. call 7.",
        "Your turn: call a main.",
    ),
    ("Ann", "call 13", 422, "13 isn't a main: type a total from 2 to 12.", "Your turn: call a main."),
    ("Ann", "throw 9-9", 422, "'9-9' isn't a throw: each die shows 1 to 6; type two faces like 3-4.", None),
    ("Ann", "throw 3", 422, "'3' isn't a throw: type two faces from 1 to 6, like 3-4.", None),
    ("Bob", "stake abc", 422, "'abc' isn't a stake: type a sum such as 5, 2.50, 5/3, £1 10s or 7s 6d.", None),
    ("Bob", "stake -1", 422, "'-1' isn't a stake: type a sum more than 0, such as 5 or 2.50.", None),
    ("Bob", "withdraw", 409, "Bob has no stake laid to withdraw.", None),
    ("Bob", "take 5", 409, "There is no open side bet #5.", None),
    (
        "Ann",
        "frobnicate",
        422,
        "'frobnicate' isn't a command: type one of sit, stake,",
        "Your turn: call a main.",
    ),
]


@pytest.mark.parametrize("case", REFUSED, ids=[f"{who}: {action}" for who, action, *_ in REFUSED])
def test_a_refused_action_says_why_as_a_person_would_and_what_to_do_next(
    table: Table, case: tuple[str, str, int, str, str | None]
) -> None:
    who, action, status, said, then = case
    head = table.state()["seq"]
    answer = table.act(who, action)
    assert answer.status_code == status, answer.text
    body = answer.json()
    assert body["said"].startswith(said), body
    assert body["error"].startswith(("illegal", "invalid", "unknown")), body  # the table's own message
    expected = then or ("Your turn: call a main." if who == "Ann" else "Waiting for Ann to call a main.")
    assert body["next"].startswith(expected), body
    assert table.state()["seq"] == head  # nothing recorded


def test_a_spectator_is_told_to_sit_down_and_whom_the_table_waits_for(table: Table) -> None:
    body = table.act(None, "throw").json()
    assert body["said"] == "A spectator acts for nobody; join the table to play."
    assert body["next"] == "Waiting for Ann to call a main."  # no stake offered to one who has no seat


def test_the_next_step_follows_the_table(table: Table) -> None:
    table.ok("Ann", "call 7")
    assert table.act("Bob", "throw").json()["next"] == "Waiting for Ann to throw."
    assert table.act("Ann", "call 8").json()["next"] == "Your turn: throw the dice."


def test_every_other_refusal_has_its_persons_words_too(client: TestClient, table: Table) -> None:
    """Refusals made before any table is asked (a forged request, a malformed body, no such table)."""
    forged = client.post(
        f"/api/tables/{table.id}/actions",
        json={"action": "throw"},
        headers={"origin": "https://evil.example"},
    )
    malformed = client.post(f"/api/tables/{table.id}/actions", json={"act": "throw"})
    missing = client.get("/api/tables/999")
    for answer in (forged, malformed, missing):
        body = answer.json()
        assert set(body) == {"error", "said"}, body
        assert body["said"][:1].isupper(), body
        assert body["said"].endswith("."), body


def test_a_flood_is_told_to_slow_down(db_url: str) -> None:
    limits = Limits(seat_rate=1, seat_burst=1)
    with TestClient(create_app(WebConfig(db=db_url, poll=0.05, limits=limits))) as client:
        client.headers["origin"] = "http://testserver"
        table = Table(client)
        table.join("Ann")
        table.ok("Ann", "call 7")
        answer = table.act("Ann", "throw")
        assert answer.status_code == 429, answer.text
        assert answer.json()["said"] == "Slow down, then try again in a moment."
