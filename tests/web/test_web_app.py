"""The web table's JSON API, socket and pages, through the framework's test client.

Every action type, every refusal (403, 404, 409, 413, 422, 429) as one ``{"error"}`` object naming the input,
an action resent with the same id made once, a client that reconnects getting what it missed (or the whole
state), and an attempt at script injection in a name and in a proposition.
"""

from __future__ import annotations

import hashlib
import json
import re
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.responses import JSONResponse
from fastapi.testclient import TestClient

from hazard.core.errors import InvalidError
from hazard.core.rulesets import find_ruleset, ruleset_to_toml
from hazard.table import Access, GameStore, TableSpec, game_json, load_game
from hazard.web import Limits, WebConfig, create_app
from hazard.web import hub as hub_module

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


# --- acting -------------------------------------------------------------------------------------------------


def test_every_action_type_through_the_api(client: TestClient) -> None:
    table = Table(client)
    table.join("Ann")
    table.join("Bob")
    table.join("Cat")
    assert table.ok("Bob", "stake 5")["events"] == ["Bob stakes 5.00 against Ann"]
    assert table.ok("Cat", "stake 2")["events"] == ["Cat stakes 2.00 against Ann"]
    assert table.ok("Cat", "withdraw")["events"] == ["Cat takes back the stakes against the caster"]
    offered = table.ok("Bob", "offer 2 on 4 or 10 before 7 at 2/1")["events"]
    assert offered == ["side bet offered: #1 Bob backs '4 or 10 before 7' for 2.00 at odds 2 to 1"]
    assert table.ok("Cat", "take 1")["events"] == ["Cat takes side bet #1 ('4 or 10 before 7')"]
    offered = table.ok("Bob", "offer 1 on next 7")["events"]
    assert offered == ["side bet offered: #2 Bob backs 'next 7' for 1.00 at even money"]
    assert table.ok("Bob", "cancel 2")["events"] == ["side bet #2 withdrawn"]
    assert table.ok("Cat", "seed lucky-cat")["events"] == []
    assert table.ok("Ann", "call 7")["events"] == ["the caster calls 7 as the main"]
    thrown = table.ok("Ann", "throw")
    assert thrown["events"][0].startswith("Ann throws ")
    record = game_json(load_game(GameStore.open(table_db(client), access=Access.READ), table.id))
    assert [e["text"] for e in record["entries"]][-1].startswith("throw ")
    assert any(e["text"] == "seed for Cat: lucky-cat" for e in record["entries"])
    assert table.state()["state"] == record["state"]  # the GET's state is the export's state


def table_db(client: TestClient) -> str:
    hub = client.app.state.hub  # type: ignore[attr-defined]
    return str(hub.store.url)


def test_pass_between_rounds(client: TestClient) -> None:
    table = Table(client)
    table.join("Ann")
    table.join("Bob")
    assert table.ok("Ann", "pass")["events"] == ["the dice pass from Ann to Bob: Ann gives up the dice"]
    assert table.state()["state"]["caster"] == "Bob"


def test_refusals_are_403_409_or_422_with_the_table_services_message(client: TestClient) -> None:
    table = Table(client)
    table.join("Ann")
    table.join("Bob")
    head = table.state()["seq"]
    refused(table.act("Bob", "call 7"), 403, "only the caster, Ann, calls the main")
    refused(table.act("Ann", "stake Bob 5"), 403, "a player stakes only for himself")
    refused(table.act(None, "throw"), 403, "a spectator acts for nobody")
    refused(
        client.post(f"/api/tables/{table.id}/actions", json={"action": "throw"}, headers=bearer("forged")),
        403,
        "spectator",
    )
    refused(table.act("Ann", "throw"), 409, "call")
    refused(table.act("Ann", "call 12"), 409, "illegal main 12")
    refused(table.act("Bob", "stake 1000"), 409, "cannot cover")
    refused(table.act("Bob", "take 9"), 409, "9")
    refused(table.act("Ann", "dance"), 422, "unknown command 'dance'")
    refused(table.act("Ann", "stake lots"), 422, "lots")
    refused(table.act("Ann", "x" * 501), 422, "at most 500 characters")
    refused(table.act("Ann", "call 7", id="no spaces allowed"), 422, "invalid action id")
    refused(table.act("Ann", "call 7", based_on=-1), 422, "based_on")
    refused(table.act("Ann", "call 7", based_on=10**6), 422, "based_on")
    refused(table.act("host", "call 7"), 403, "the host only seats players")
    assert table.state()["seq"] == head  # nothing refused was written


def test_an_action_resent_with_the_same_id_is_made_once(client: TestClient) -> None:
    table = Table(client)
    table.join("Ann")
    table.join("Bob")
    first = table.ok("Bob", "stake 5", id="bob-1")
    again = table.ok("Bob", "stake 5", id="bob-1")
    assert again == first
    assert table.state()["state"]["stakes"] == [{"player": "Bob", "amount": "5/1", "amount_float": 5.0}]
    table.ok("Bob", "stake 5", id="bob-2")
    assert len(table.state()["state"]["stakes"]) == 2
    # a throw resent: the dice are thrown once
    table.ok("Ann", "call 7", id="ann-1")
    thrown = table.ok("Ann", "throw", id="ann-2")
    assert table.ok("Ann", "throw", id="ann-2") == thrown
    assert table.state()["state"]["throws"] == 1


def test_an_action_from_a_view_the_dice_have_changed_is_refused(client: TestClient) -> None:
    table = Table(client)
    table.join("Ann")
    table.join("Bob")
    seen = table.state()["seq"]
    table.ok("Bob", "stake 1")  # a stake does not change what a call means
    table.ok("Ann", "call 7", based_on=seen)
    before_throw = table.state()["seq"]
    table.ok("Ann", "throw")
    message = refused(table.act("Ann", "throw", based_on=before_throw), 409, "the table has moved on")
    assert "throw" in message
    now = table.state()
    action = "throw" if now["state"]["turn"]["need"] == "throw" else "call 7"
    table.ok("Ann", action, based_on=now["seq"])  # from the view as it is now


def test_the_host_closes_the_table(client: TestClient) -> None:
    table = Table(client)
    table.join("Ann")
    table.ok("Ann", "call 7")  # mid-hand: the hand's server seed is still secret
    refused(client.post(f"/api/tables/{table.id}/close", headers=bearer(table.tokens["Ann"])), 403, "host")
    assert table.state()["closed"] is False
    closed = client.post(f"/api/tables/{table.id}/close", headers=bearer(table.host))
    assert closed.json() == {"closed": table.id, "seq": table.state()["seq"]}
    refused(table.act("Ann", "throw"), 409, "closed")
    refused(
        client.post(f"/api/tables/{table.id}/seats", json={"name": "Bob", "bankroll": "9"}), 409, "closed"
    )
    assert client.get("/api/tables").json()["tables"] == []
    assert table.state()["closed"] is True
    # the close is the record's last entry, the hand's reveal just before it; closing again writes nothing
    again = client.post(f"/api/tables/{table.id}/close", headers=bearer(table.host))
    assert again.json() == closed.json()
    record = client.get(f"/api/tables/{table.id}/record").json()
    assert record["closed"] is True
    assert [e["entry"]["type"] for e in record["entries"][-2:]] == ["reveal", "close"]
    assert record["entries"][-1]["actor"] == {"kind": "referee"}
    (hand,) = record["hands"]
    seed = bytes.fromhex(hand["server_seed"])
    assert hashlib.sha256(seed).hexdigest() == hand["commitment"]


def test_unknown_tables_and_bad_numbers(client: TestClient, db_url: str) -> None:
    refused(client.get("/api/tables/99"), 404, "there is no table 99")
    refused(client.get("/api/tables/0"), 422, "game")
    refused(client.get("/api/tables/abc"), 422, "game")
    refused(client.get(f"/api/tables/{2**40}"), 422, "game")
    refused(client.post("/api/tables/99/actions", json={"action": "throw"}), 404, "99")
    refused(client.get("/static/secrets.txt"), 404, "no such file")
    # a game of the terminal in the same record is not a web table
    from hazard.table import DiceKind, GameKind, Session, table_paytable

    rules = find_ruleset("craps")
    store = GameStore.open(db_url)
    played = Session.start(
        store, TableSpec(rules, table_paytable(rules)[0], dice=DiceKind.SEEDED, seed=1, kind=GameKind.PLAY)
    )
    refused(client.get(f"/api/tables/{played.game}"), 404, "not a web table")


def test_a_referee_enters_real_dice_and_corrects(client: TestClient) -> None:
    table = Table(client, dice="typed")
    for name in ("Ann", "Bob"):
        host_seat = client.post(
            f"/api/tables/{table.id}/seats", json={"name": name, "bankroll": "20"}, headers=bearer(table.host)
        )
        assert host_seat.status_code == 201
    table.ok("host", "stake Bob 2")
    table.ok("host", "call 7")
    thrown = table.ok("host", "3-3")
    assert thrown["events"][0] == "Ann throws 3-3"
    assert table.ok("host", "undo")["seq"] == thrown["seq"] + 1
    assert table.state()["state"]["throws"] == 0
    table.ok("host", "5-2")  # a nick: the caster wins
    assert table.state()["state"]["rounds_played"] == 1
    refused(table.act("host", "throw"), 409, "real dice")
    refused(table.act("host", "void 999"), 409, "999")
    refused(table.act("host", "fix x 3-4"), 422, "entry number")


def test_bots_act_after_each_action_and_a_bot_caster_throws_when_asked(client: TestClient) -> None:
    table = Table(client)
    assert (
        client.post(
            f"/api/tables/{table.id}/bots",
            json={"name": "Dan", "bankroll": "100", "policy": "setter"},
            headers=bearer(table.host),
        ).status_code
        == 201
    )
    table.join("Ann")
    assert table.state()["state"]["caster"] == "Dan"
    table.ok("Ann", "stake 1")
    done = table.ok("Ann", "throw")  # for the bot caster: it calls first
    record = game_json(load_game(GameStore.open(table_db(client), access=Access.READ), table.id))
    texts = [e["text"] for e in record["entries"]]
    assert any(text.startswith("call ") for text in texts)
    assert done["events"][0] == "the caster calls 7 as the main"
    assert done["events"][1].startswith("Dan throws ")


# --- the live socket ----------------------------------------------------------------------------------------


def test_every_client_sees_each_action_and_a_reconnect_gets_what_it_missed(client: TestClient) -> None:
    table = Table(client)
    table.join("Ann")
    table.join("Bob")
    head = table.state()["seq"]
    with (
        client.websocket_connect(f"/api/tables/{table.id}/live?since={head}") as ann,
        client.websocket_connect(f"/api/tables/{table.id}/live?since={head}") as bob,
    ):
        assert ann.receive_json() == {"type": "entries", "seq": head, "entries": []}
        assert bob.receive_json()["seq"] == head
        done = table.ok("Bob", "stake 5")
        for socket in (ann, bob):
            update = socket.receive_json()
            assert update["seq"] == done["seq"]
            assert [e["text"] for e in update["entries"]] == ["stake Bob 5"]
            assert update["entries"][0]["events"] == ["Bob stakes 5 against Ann"]
    table.ok("Ann", "call 7")
    table.ok("Ann", "throw")
    with client.websocket_connect(f"/api/tables/{table.id}/live?since={head}") as late:
        missed = late.receive_json()
        assert missed["type"] == "entries"
        assert [e["seq"] for e in missed["entries"]] == list(range(head + 1, missed["seq"] + 1))
        assert missed["seq"] == table.state()["seq"]


def test_a_client_that_missed_too_much_gets_the_whole_state(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(hub_module, "KEPT", 3)
    table = Table(client)
    table.join("Ann")
    table.join("Bob")
    for amount in range(1, 6):
        table.ok("Bob", f"stake {amount}")
    with client.websocket_connect(f"/api/tables/{table.id}/live?since=1") as socket:
        update = socket.receive_json()
    assert update["type"] == "state"
    assert update["state"]["state"] == table.state()["state"]
    with client.websocket_connect(f"/api/tables/{table.id}/live?since=99") as socket:
        assert socket.receive_json()["type"] == "state"  # a number from the future: the whole state


def test_a_socket_for_a_table_that_is_not_there_is_closed_with_the_reason(client: TestClient) -> None:
    from starlette.websockets import WebSocketDisconnect

    with pytest.raises(WebSocketDisconnect) as closed, client.websocket_connect("/api/tables/99/live"):
        pass
    assert closed.value.code == 4404


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


# --- escaping -----------------------------------------------------------------------------------------------


def test_names_and_propositions_are_escaped_or_refused(client: TestClient) -> None:
    table = Table(client)
    joined = table.join("Ann<script>alert(1)</script>")
    table.join("Bob")
    refused(table.act("Bob", "offer 1 on <script>alert(1)</script>"), 422, "proposition")
    client.cookies.set(f"hazard_seat_{table.id}", joined["token"])
    for path in (f"/tables/{table.id}", f"/tables/{table.id}/view", f"/tables/{table.id}/screen", "/"):
        page = client.get(path).text
        assert "<script>alert" not in page
    assert "Ann&lt;script&gt;alert(1)&lt;/script&gt;" in client.get(f"/tables/{table.id}/view").text


# --- pages --------------------------------------------------------------------------------------------------


def test_the_pages_show_only_the_controls_a_seat_may_use_now(client: TestClient) -> None:
    table = Table(client)
    table.join("Ann")
    table.join("Bob")
    spectator = client.get(f"/tables/{table.id}/view").text
    assert 'id="join"' in spectator
    assert "data-action" not in spectator
    client.cookies.set(f"hazard_seat_{table.id}", table.tokens["Ann"])
    ann = client.get(f"/tables/{table.id}/view").text
    assert 'data-action="call 7"' in ann
    assert 'data-action="throw"' not in ann
    assert "Stake against the bank" not in ann  # no bot at the table keeps a bank
    client.cookies.set(f"hazard_seat_{table.id}", table.tokens["Bob"])
    bob = client.get(f"/tables/{table.id}/view").text
    assert 'data-action="call' not in bob
    assert "Stake against Ann" in bob
    table.ok("Ann", "call 7")
    client.cookies.set(f"hazard_seat_{table.id}", table.tokens["Ann"])
    assert 'data-action="throw"' in client.get(f"/tables/{table.id}/view").text
    refused(client.get(f"/tables/{table.id}/view?mode=nonesuch"), 422, "mode")


def test_the_lobby_referee_and_big_screen_pages(client: TestClient) -> None:
    lobby = client.get("/")
    assert lobby.status_code == 200
    assert 'value="britannica-1911"' in lobby.text
    assert "/static/hazard.js" in lobby.text
    table = Table(client, dice="typed")
    assert "Only the table's host referees" in client.get(f"/tables/{table.id}/referee").text
    client.cookies.set(f"hazard_host_{table.id}", table.host)
    referee = client.get(f"/tables/{table.id}/referee").text
    assert 'data-face="6"' in referee
    assert "Enter the throw" in referee
    client.cookies.clear()
    screen = client.get(f"/tables/{table.id}/screen").text
    assert "data-action" not in screen
    assert "<form" not in screen
    assert client.get("/static/hazard.js").headers["content-type"].startswith("text/javascript")


def test_the_bet_figures_shown_before_an_offer(client: TestClient) -> None:
    figures = client.get("/api/bet", params={"proposition": "4 or 10 before 7", "odds": "2/1", "amount": "3"})
    assert figures.json() == {
        "proposition": "4 or 10 before 7",
        "probability": "1/2",
        "probability_float": 0.5,
        "fair_odds": "1 to 1",
        "ev_even_money": "0/1",
        "odds": "2/1",
        "amount": "3/1",
        "backer_value": "3/2",
        "backer_value_float": 1.5,
        "layer_value": "-3/2",
        "layer_value_float": -1.5,
    }
    refused(client.get("/api/bet", params={"proposition": "next 13"}), 422, "13")
    refused(client.get("/api/bet", params={"proposition": "next 7", "odds": "0"}), 422, "odds")


def test_the_openapi_page_documents_the_api(client: TestClient) -> None:
    spec = client.get("/openapi.json").json()
    assert {"/api/tables", "/api/tables/{game}/seats", "/api/tables/{game}/actions"} <= set(spec["paths"])
    docs = client.get("/docs")
    assert docs.status_code == 200
    # Swagger UI's files are the server's own, and so is the icon: the page works with no network
    for url in re.findall(r'(?:src|href)="([^"]+)"', docs.text):
        assert url.startswith("/static/"), url
        assert client.get(url).status_code == 200, url
    assert client.get("/redoc").status_code == 404
    assert client.get("/favicon.ico").headers["content-type"] == "image/svg+xml"


def test_the_creators_browser_joins_as_a_player_and_keeps_the_hosts_keys(client: TestClient) -> None:
    made = client.post("/api/tables", json={"ruleset": "wikipedia"})
    game = made.json()["id"]
    assert client.cookies.get(f"hazard_host_{game}")  # the creator's browser holds the host's keys
    joined = client.post(f"/api/tables/{game}/seats", json={"name": "Ann", "bankroll": "100"})
    assert joined.status_code == 201
    assert joined.cookies.get(f"hazard_seat_{game}") == joined.json()["token"]  # he sat himself down
    assert client.get(f"/api/tables/{game}/whoami").json() == {"seat": "Ann", "host": True}
    page = client.get(f"/tables/{game}").text
    assert "Your seat, Ann" in page
    assert '<section class="card host">' in page
    assert f'href="/tables/{game}/referee"' in page
    # the host's page seats a late arrival and is given the link that hands him his seat
    late = client.post(
        f"/api/tables/{game}/seats", json={"name": "Bob", "bankroll": "50"}, headers={"x-hazard-role": "host"}
    )
    assert late.status_code == 201
    assert client.cookies.get(f"hazard_seat_{game}") == joined.json()["token"]  # still Ann's
    link = late.json()["claim_url"]
    assert link == f"/tables/{game}/claim?code={late.json()['claim']}"
    client.cookies.clear()
    page = client.get(link)  # what a chat app's preview fetches: it spends nothing
    assert page.status_code == 200
    assert "Take the seat of Bob" in page.text
    assert f'action="/tables/{game}/claim?code=' in page.text
    claimed = client.post(link, follow_redirects=False)  # the page's button
    assert claimed.status_code == 303
    assert claimed.headers["location"] == f"/tables/{game}"
    assert client.get(f"/api/tables/{game}/whoami").json() == {"seat": "Bob", "host": False}
    forged = client.get(f"/tables/{game}/claim", params={"code": "forged"})
    assert forged.status_code == 403
    assert "holds no seat" in forged.text
    refused(
        client.post(
            f"/api/tables/{game}/seats",
            json={"name": "Cat", "bankroll": "5"},
            headers={"x-hazard-role": "host"},
        ),
        403,
        "only the table's host seats others",
    )


def test_a_player_leaves_and_the_host_removes_one(client: TestClient) -> None:
    table = Table(client)
    for name in ("Ann", "Bob", "Cat"):
        table.join(name)
    table.ok("Bob", "stake 2")
    assert table.ok("Bob", "leave")["events"] == [
        "Bob takes back the stakes against the caster",
        "Bob leaves the table with 100.00",
    ]
    refused(table.act("Bob", "stake 1"), 403, "Bob is not at the table")
    assert table.ok("host", "leave Cat")["events"] == ["Cat leaves the table with 100.00"]
    refused(table.act("Ann", "leave Ann at once"), 422, "invalid command")
    assert [p["name"] for p in table.state()["state"]["players"]] == ["Ann"]
    client.cookies.set(f"hazard_seat_{table.id}", table.tokens["Bob"])
    assert 'id="join"' in client.get(f"/tables/{table.id}/view").text  # gone: he may sit down again


def test_a_socket_whose_client_goes_stops_following_at_once(client: TestClient) -> None:
    table = Table(client)
    live = client.app.state.hub._tables[table.id]  # type: ignore[attr-defined]
    with client.websocket_connect(f"/api/tables/{table.id}/live?since=0") as socket:
        socket.receive_json()
        assert len(live.listeners) == 1
    for _ in range(100):
        if not live.listeners:
            break
        import time

        time.sleep(0.01)
    assert not live.listeners


def test_a_record_that_is_unreachable_for_now_is_503_and_nothing_is_made(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    from hazard.table import RecordUnavailable

    table = Table(client)
    table.join("Ann")
    table.join("Bob")
    head = table.state()["seq"]
    store = client.app.state.hub.store  # type: ignore[attr-defined]

    def busy(*_: object, **__: object) -> None:
        raise RecordUnavailable("cannot write to the game record 'x': database is locked")

    monkeypatch.setattr(store, "append", busy)
    refused(table.act("Bob", "stake 5", id="b-1"), 503, "database is locked")
    monkeypatch.undo()
    assert table.state()["seq"] == head
    assert table.ok("Bob", "stake 5", id="b-1")["seq"] == head + 1  # the same id, tried again, is made


def test_two_players_numbering_their_actions_alike_never_answer_for_each_other(client: TestClient) -> None:
    table = Table(client)
    for name in ("Ann", "Bob", "Cat"):
        table.join(name)
    bob = table.ok("Bob", "stake 2", id="1")
    cat = table.ok("Cat", "stake 3", id="1")
    assert cat["seq"] == bob["seq"] + 1
    assert [s["player"] for s in table.state()["state"]["stakes"]] == ["Bob", "Cat"]
    assert table.ok("Cat", "stake 3", id="1") == cat  # his own resend is still made once


def test_every_answer_carries_the_security_headers(client: TestClient) -> None:
    """Pages, the API and refusals alike: a strict policy (no inline script or style, no framing), no
    sniffing, no referrer to other sites; the API's documentation page alone has a looser one of its own."""
    answers = [client.get("/"), client.get("/api/rulesets"), client.get("/api/tables/999"), client.get("/x")]
    for answer in answers:
        policy = answer.headers["content-security-policy"]
        assert "script-src 'self';" in policy
        assert "unsafe-inline" not in policy
        assert "frame-ancestors 'none'" in policy
        assert answer.headers["x-content-type-options"] == "nosniff"
        assert answer.headers["x-frame-options"] == "DENY"
        assert answer.headers["referrer-policy"] == "same-origin"
    docs = client.get("/docs")
    policy = docs.headers["content-security-policy"]
    # Swagger UI from this server alone (issue 21): its one inline script allowed by its hash, no other site
    assert re.search(r"script-src 'self' 'sha256-[A-Za-z0-9+/]{43}=';", policy), policy
    assert "unsafe-inline" not in policy
    assert "http" not in policy
    assert "frame-ancestors 'none'" in policy


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


# --- each seat's own seed for each hand (issue 19, finding 8) ---------------------------------------------


def test_a_seat_sets_its_own_seed_once_a_hand_and_its_page_asks_for_it(client: TestClient) -> None:
    """The page of a seat shows ``data-seed-hand`` while the hand committed has no seed of the seat's (its
    script then sends one to ``/seed``); the table takes one a seat a hand, before the first throw, and
    refuses a second, one for another hand, one after the first throw, and any from a spectator or the host,
    each with what it is and writing nothing."""
    table = Table(client)
    table.join("Ann")
    table.join("Bob")
    hand = table.state()["hand"]
    assert hand == 1

    def seed(who: str | None, number: int, text: str) -> Any:
        token = None if who is None else table.host if who == "host" else table.tokens[who]
        headers = {} if token is None else bearer(token)
        return client.post(
            f"/api/tables/{table.id}/seed", json={"hand": number, "seed": text}, headers=headers
        )

    def view(who: str) -> str:
        client.cookies.set(f"hazard_seat_{table.id}", table.tokens[who])
        try:
            return client.get(f"/tables/{table.id}/view").text
        finally:
            client.cookies.clear()

    assert 'data-seed-hand="1"' in view("Ann")
    taken = seed("Ann", 1, "a" * 32)
    assert taken.status_code == 200, taken.text
    assert 'data-seed-hand="1"' not in view("Ann")
    assert f"Your seed for hand 1 is set (entry {taken.json()['seq']})" in view("Ann")
    assert 'data-seed-hand="1"' in view("Bob")  # each seat its own
    head = table.state()["seq"]
    refused(seed("Ann", 1, "b" * 32), 409, "illegal seed for Ann in hand 1", "set already")
    refused(seed("Bob", 2, "b" * 32), 409, "for hand 2: that hand is not committed yet")
    refused(seed("Bob", 1, "b,c"), 422, "printable characters other than ','")
    refused(seed(None, 1, "c" * 32), 403, "only a seated player sets a seed")
    refused(seed("host", 1, "c" * 32), 403, "only a seated player sets a seed")
    refused(seed("Bob", 0, "c" * 32), 422)
    assert table.state()["seq"] == head
    table.ok("Ann", "call 7")
    table.ok("Ann", "throw")
    refused(seed("Bob", 1, "b" * 32), 409, "its dice have been thrown")
    assert "data-seed-hand" not in view("Bob")  # too late for this hand: the page waits for the next
    record = client.get(f"/api/tables/{table.id}/record").json()
    seeds = [e for e in record["entries"] if e["entry"]["type"] == "client-seed"]
    assert [(e["actor"], e["entry"]["seed"]) for e in seeds] == [
        ({"kind": "player", "name": "Ann"}, "a" * 32)
    ]
    assert record["hands"][0]["client_seed"] == "a" * 32  # Bob, seated with no seed yet, has no part


def test_a_resent_action_that_ends_a_hand_is_answered_with_its_own_entry(db_url: str) -> None:
    """The action that ends a hand of fair dice is followed by the dice's notes (the reveal, the seeds drawn
    for the next hand, its commitment): its answer, and the answer to its resend, is its own entry, the one
    the record keeps the client's number with."""
    limits = LAX
    with TestClient(create_app(WebConfig(db=db_url, poll=0.05, limits=limits))) as client:
        _resend_at_a_hands_end(client)


def _resend_at_a_hands_end(client: TestClient) -> None:
    table = Table(client)
    table.join("Ann")
    table.join("Bob")
    for step in range(500):
        turn = table.state()["state"]["turn"]
        name = turn["caster"]
        answer = table.ok(name, "throw" if turn["need"] == "throw" else "call 7", id=f"a{step}")
        head = table.state()["seq"]
        if head == answer["seq"]:
            continue  # the hand goes on: nothing was written after the action
        entries = client.get(f"/api/tables/{table.id}/record").json()["entries"]
        own = entries[answer["seq"] - 1]
        assert own["actor"]["kind"] != "dice", own
        assert [e["actor"]["kind"] for e in entries[answer["seq"] :]] == ["dice"] * (head - answer["seq"])
        resent = table.ok(name, "throw", id=f"a{step}")
        assert resent["seq"] == answer["seq"]
        assert table.state()["seq"] == head  # made once
        return
    pytest.fail("no hand ended in 500 actions")
