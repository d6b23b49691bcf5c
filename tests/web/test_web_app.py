"""The web table's JSON API, socket and pages, through the framework's test client: here, setting up a table
(no file a client names is ever opened) and taking its seats.

Every action type, every refusal (403, 404, 409, 413, 422, 429) as one ``{"error"}`` object naming the input,
an action resent with the same id made once, a client that reconnects getting what it missed (or the whole
state), and an attempt at script injection in a name and in a proposition are in the ``test_web_app_*``
files beside: actions, pages, limits and record.
"""

from __future__ import annotations

import re
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from tests.web.helpers import Table, bearer, client, refused

from hazard.core.errors import InvalidError
from hazard.core.rulesets import find_ruleset, ruleset_to_toml
from hazard.table import Access, GameStore, load_game
from hazard.web import WebConfig, create_app

__all__ = ["client"]  # the fixtures, used by name


# --- setting up -------------------------------------------------------------------------------------------


def test_a_table_is_set_up_from_a_built_in_ruleset_and_listed_open(client: TestClient) -> None:
    made = client.post("/api/tables", json={"ruleset": "craps", "label": "  Friday   night  "})
    assert made.status_code == 201
    body = made.json()
    assert set(body) == {"id", "host_token", "seq", "url"}
    assert len(body["host_token"]) >= 32
    assert made.cookies.get(f"hazard_host_{body['id']}") == body["host_token"]
    listed = client.get("/api/tables").json()["tables"]
    assert [(t["id"], t["label"], t["ruleset"]) for t in listed] == [(body["id"], "Friday night", "craps")]
    state = client.get(f"/api/tables/{body['id']}").json()
    assert state["dice"] == "fair"
    assert state["ruleset"] == "craps"
    assert state["commitment"] is not None
    assert re.fullmatch(r"[0-9a-f]{64}", state["commitment"])


def test_a_table_is_set_up_from_an_uploaded_ruleset_file(client: TestClient) -> None:
    text = ruleset_to_toml(find_ruleset("britannica-1911"))
    made = client.post("/api/tables", json={"ruleset_toml": text, "dice": "typed", "money": "exact"})
    assert made.status_code == 201, made.text
    state = client.get(f"/api/tables/{made.json()['id']}").json()
    assert (state["ruleset"], state["dice"], state["money"]) == ("britannica-1911", "typed", "exact")


def test_the_host_sets_what_the_bots_stake_and_how_kept_with_the_table(db_url: str) -> None:
    setup = {"ruleset": "wikipedia", "bot_unit": "2", "bot_staking": "martingale"}
    with TestClient(create_app(WebConfig(db=db_url, poll=0.05))) as client:
        made = client.post("/api/tables", json=setup)
        assert made.status_code == 201, made.text
    store = GameStore.open(db_url, access=Access.READ)
    assert load_game(store, made.json()["id"]).info.settings == {
        "money": "decimal",
        "bot_unit": "2/1",
        "bot_staking": "martingale",
    }
    store.close()


@pytest.mark.parametrize(
    ("setup", "fragments"),
    [
        ({"ruleset": "nonesuch"}, ["nonesuch"]),
        ({}, ["give either ruleset"]),
        ({"ruleset": "craps", "ruleset_toml": "x"}, ["give either ruleset"]),
        ({"ruleset_toml": "id = 'broken'\n[[[\n"}, ["uploaded ruleset"]),
        ({"ruleset_toml": "id = 'x'\nname = 'x'\n"}, ["uploaded ruleset"]),
        ({"ruleset": "craps", "paytable": "nonesuch"}, ["nonesuch"]),
        ({"ruleset": "craps", "dice": "secure"}, ["dice"]),
        ({"ruleset": "craps", "dice": "loaded"}, ["dice"]),
        ({"ruleset": "craps", "money": "groats"}, ["money"]),
        ({"ruleset": "craps", "bot_unit": "-1"}, ["bot stake unit"]),
        ({"ruleset": "craps", "bot_staking": "doubling"}, ["bot_staking"]),
        ({"ruleset": "craps", "surprise": 1}, ["surprise"]),
        ({"ruleset": "craps", "label": "x" * 81}, ["label"]),
    ],
    ids=repr,
)
def test_a_bad_setup_is_refused_with_one_message_and_makes_no_table(
    client: TestClient, setup: dict[str, Any], fragments: list[str]
) -> None:
    refused(client.post("/api/tables", json=setup), 422, *fragments)
    assert client.get("/api/tables").json()["tables"] == []


# --- files a client names: none is opened, and every refusal is the same -----------------------------------

SECRET = "SECRET-7f3a"
PAYTABLE_IDS = "even, true-odds, wikipedia"
RULESET_IDS = "britannica-1911, wikipedia, ecws-1674, cotton-1674, sca-isenfir, craps"


@pytest.fixture
def short_tmp() -> Iterator[Path]:
    """A folder of a short name (an id field takes at most 64 characters; pytest's are longer)."""
    with tempfile.TemporaryDirectory(prefix="hz") as folder:
        yield Path(folder)


def _hostile_names(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """What a client might give as a ruleset or paytable to make the server open a file: an absolute path
    and a relative one to a file with a secret line, one through ``../``, /etc/shadow, a missing file and a
    folder. The server's working folder is one below the secret file."""
    secret = tmp_path / "secret.toml"
    secret.write_text(f"nick = '{SECRET}'\nid = '{SECRET}'\n", encoding="utf-8")
    below = tmp_path / "below"
    below.mkdir()
    (below / "here.toml").write_text(f"nick = '{SECRET}'\n", encoding="utf-8")
    monkeypatch.chdir(below)
    return [
        str(secret),
        "here.toml",
        "../secret.toml",
        "/etc/shadow",
        str(tmp_path / "absent.toml"),
        str(tmp_path),
    ]


def test_a_paytable_named_by_a_path_is_refused_alike_and_no_file_is_read(
    client: TestClient, short_tmp: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    for name in _hostile_names(short_tmp, monkeypatch):
        answer = client.post("/api/tables", json={"ruleset": "craps", "paytable": name})
        message = refused(answer, 422)
        assert SECRET not in message
        shown = repr(name)
        assert message == (
            f"invalid table: paytable {shown}: expected a built-in paytable id: {PAYTABLE_IDS}, or "
            "paytable_toml (a paytable file's text)"
        )
    assert client.get("/api/tables").json()["tables"] == []


def test_a_ruleset_named_by_a_path_is_refused_alike_and_no_file_is_read(
    client: TestClient, short_tmp: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    for name in _hostile_names(short_tmp, monkeypatch):
        message = refused(client.post("/api/tables", json={"ruleset": name}), 422)
        assert SECRET not in message
        assert message == (
            f"invalid table: ruleset {name!r}: expected a built-in ruleset id: {RULESET_IDS}, or "
            "ruleset_toml (a ruleset file's text)"
        )
    assert client.get("/api/tables").json()["tables"] == []


def test_an_uploaded_ruleset_naming_a_paytable_file_is_refused_alike(
    client: TestClient, short_tmp: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    text = ruleset_to_toml(find_ruleset("craps"))
    assert 'paytable = "even"' in text
    messages = set()
    for name in _hostile_names(short_tmp, monkeypatch):
        upload = text.replace('paytable = "even"', f"paytable = {name!r}")
        message = refused(client.post("/api/tables", json={"ruleset_toml": upload}), 422)
        assert SECRET not in message
        assert f"paytable = {name!r}: unknown paytable {name!r}: expected a built-in paytable id" in message
        messages.add(message.replace(repr(name), "NAME"))
    assert len(messages) == 1, messages  # nothing tells one of them from another but its own name
    assert client.get("/api/tables").json()["tables"] == []


def test_a_paytable_is_uploaded_as_text(client: TestClient) -> None:
    text = "id = 'mine'\nname = 'My odds'\nnick = '2/1'\nchance = 'true-odds'\n"
    made = client.post("/api/tables", json={"ruleset": "craps", "paytable_toml": text})
    assert made.status_code == 201, made.text
    assert client.get(f"/api/tables/{made.json()['id']}").json()["paytable"] == "mine"
    refused(
        client.post("/api/tables", json={"ruleset": "craps", "paytable_toml": "nick = 'x'\n"}),
        422,
        "the uploaded paytable",
    )
    refused(
        client.post("/api/tables", json={"ruleset": "craps", "paytable": "even", "paytable_toml": text}),
        422,
        "at most one of paytable",
    )


def test_a_game_number_is_refused_as_the_record_and_the_command_line_refuse_it(client: TestClient) -> None:
    from hazard.table import check_game_number

    for game in ("0", "2147483648", str(2**63), "x"):
        message = refused(client.get(f"/api/tables/{game}"), 422)
        assert message == f"invalid game '{game}': expected a game number from 1 to 2147483647"
    with pytest.raises(InvalidError) as caught:
        check_game_number(2147483648)
    assert str(caught.value) == "invalid game '2147483648': expected a game number from 1 to 2147483647"


def test_a_body_that_is_not_json_is_one_error(client: TestClient) -> None:
    answer = client.post("/api/tables", content=b"{not json", headers={"content-type": "application/json"})
    refused(answer, 422, "invalid request")


# --- seats --------------------------------------------------------------------------------------------------


def test_joining_gives_a_seat_token_in_the_answer_and_in_a_cookie(client: TestClient) -> None:
    table = Table(client)
    answer = client.post(f"/api/tables/{table.id}/seats", json={"name": " Ａｎｎ ", "bankroll": "£10 10s"})
    assert answer.status_code == 201
    body = answer.json()
    assert body["seat"] == "Ann"  # the name as the table writes it
    assert answer.cookies.get(f"hazard_seat_{table.id}") == body["token"]
    assert body["events"] == ["Ann sits down with 10.50", "Ann takes the dice"]
    assert client.get(f"/api/tables/{table.id}/whoami").json() == {"seat": "Ann", "host": False}
    client.cookies.clear()
    assert client.get(f"/api/tables/{table.id}/whoami").json() == {"seat": None, "host": False}


@pytest.mark.parametrize(
    ("seat", "status", "fragment"),
    [
        ({"name": "", "bankroll": "10"}, 422, "invalid player name"),
        ({"name": "<img src=x onerror=alert(1)>", "bankroll": "10"}, 422, "invalid player name"),
        ({"name": "Ann\u200b", "bankroll": "10"}, 422, "invalid player name"),
        ({"name": "Cat", "bankroll": "ten"}, 422, "bankroll"),
        ({"name": "Cat", "bankroll": "1e9999"}, 422, "bankroll"),
        ({"name": "Cat", "bankroll": "10000000000000"}, 422, "bankroll"),
        ({"name": "ann", "bankroll": "10"}, 409, "already at the table"),
        ({"name": "Cat"}, 422, "bankroll"),
        ({"name": "Cat", "bankroll": 10}, 422, "bankroll"),
    ],
    ids=repr,
)
def test_a_bad_seat_is_refused(client: TestClient, seat: dict[str, Any], status: int, fragment: str) -> None:
    table = Table(client)
    table.join("Ann")
    refused(client.post(f"/api/tables/{table.id}/seats", json=seat), status, fragment)
    assert [p["name"] for p in table.state()["state"]["players"]] == ["Ann"]


def test_the_host_seats_a_late_arrival_and_a_bot_and_a_player_seats_nobody_else(client: TestClient) -> None:
    table = Table(client)
    table.join("Ann")
    late = client.post(
        f"/api/tables/{table.id}/seats", json={"name": "Bob", "bankroll": "50"}, headers=bearer(table.host)
    )
    assert late.status_code == 201
    assert late.json()["token"] is None  # the host is given a claim code for him, never his seat's token
    assert f"hazard_seat_{table.id}" not in late.cookies
    claimed = client.post(f"/api/tables/{table.id}/claim", json={"code": late.json()["claim"]})
    assert claimed.status_code == 200, claimed.text
    assert claimed.json()["seat"] == "Bob"
    table.tokens["Bob"] = claimed.json()["token"]
    assert table.ok("Bob", "stake 1")["events"] == ["Bob stakes 1.00 against Ann"]
    refused(
        client.post(
            f"/api/tables/{table.id}/seats",
            json={"name": "Cat", "bankroll": "5"},
            headers=bearer(table.tokens["Ann"]),
        ),
        403,
        "only the host seats others",
    )
    bot = client.post(
        f"/api/tables/{table.id}/bots",
        json={"name": "Dan", "bankroll": "100", "policy": "setter"},
        headers=bearer(table.host),
    )
    assert bot.status_code == 201, bot.text
    assert bot.json()["seat"] == "Dan"
    refused(
        client.post(
            f"/api/tables/{table.id}/bots",
            json={"name": "Eve", "bankroll": "100"},
            headers=bearer(table.tokens["Ann"]),
        ),
        403,
        "only the table's host seats a bot",
    )
    players = {p["name"]: p["bot"] for p in table.state()["state"]["players"]}
    assert players == {"Ann": None, "Bob": None, "Dan": "setter"}
