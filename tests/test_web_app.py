"""The web table's JSON API, socket and pages, through the framework's test client.

Every action type, every refusal (403, 404, 409, 413, 422, 429) as one ``{"error"}`` object naming the input,
an action resent with the same id made once, a client that reconnects getting what it missed (or the whole
state), and an attempt at script injection in a name and in a proposition.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from hazard.core.rulesets import find_ruleset, ruleset_to_toml
from hazard.table import Access, GameStore, game_json
from hazard.web import Limits, WebConfig, create_app
from hazard.web import hub as hub_module


@pytest.fixture
def db(tmp_path: Path) -> str:
    return str(tmp_path / "games.db")


@pytest.fixture
def client(db: str) -> Iterator[TestClient]:
    with TestClient(create_app(WebConfig(db=db, poll=0.05))) as test_client:
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
    assert set(body) == {"error"}, body
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


def test_the_host_sets_what_the_bots_stake_and_how_kept_with_the_table(db: str) -> None:
    setup = {"ruleset": "wikipedia", "bot_unit": "2", "bot_staking": "martingale"}
    with TestClient(create_app(WebConfig(db=db, poll=0.05))) as client:
        made = client.post("/api/tables", json=setup)
        assert made.status_code == 201, made.text
    store = GameStore.open(db, access=Access.READ)
    assert store.load(made.json()["id"]).info.settings == {
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
    assert body["events"] == ["Ann sits down with 21/2", "Ann takes the dice"]
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
    assert late.json()["token"]
    assert f"hazard_seat_{table.id}" not in late.cookies
    table.tokens["Bob"] = late.json()["token"]
    assert table.ok("Bob", "stake 1")["events"] == ["Bob stakes 1 against Ann"]
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
    assert table.ok("Bob", "stake 5")["events"] == ["Bob stakes 5 against Ann"]
    assert table.ok("Cat", "stake 2")["events"] == ["Cat stakes 2 against Ann"]
    assert table.ok("Cat", "withdraw")["events"] == ["Cat takes back the stakes against the caster"]
    offered = table.ok("Bob", "offer 2 on 4 or 10 before 7 at 2/1")["events"]
    assert offered == ["side bet offered: #1 Bob backs '4 or 10 before 7' for 2 at odds 2 to 1"]
    assert table.ok("Cat", "take 1")["events"] == ["Cat takes side bet #1 ('4 or 10 before 7')"]
    offered = table.ok("Bob", "offer 1 on next 7")["events"]
    assert offered == ["side bet offered: #2 Bob backs 'next 7' for 1 at even money"]
    assert table.ok("Bob", "cancel 2")["events"] == ["side bet #2 withdrawn"]
    assert table.ok("Cat", "seed lucky-cat")["events"] == []
    assert table.ok("Ann", "call 7")["events"] == ["the caster calls 7 as the main"]
    thrown = table.ok("Ann", "throw")
    assert thrown["events"][0].startswith("Ann throws ")
    record = game_json(GameStore.open(table_db(client), access=Access.READ).load(table.id))
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
    refused(client.post(f"/api/tables/{table.id}/close", headers=bearer(table.tokens["Ann"])), 403, "host")
    assert client.post(f"/api/tables/{table.id}/close", headers=bearer(table.host)).json() == {
        "closed": table.id
    }
    refused(table.act("Ann", "call 7"), 409, "closed")
    assert client.get("/api/tables").json()["tables"] == []
    assert table.state()["closed"] is True


def test_unknown_tables_and_bad_numbers(client: TestClient, db: str) -> None:
    refused(client.get("/api/tables/99"), 404, "there is no table 99")
    refused(client.get("/api/tables/0"), 422, "game")
    refused(client.get("/api/tables/abc"), 422, "game")
    refused(client.get(f"/api/tables/{2**40}"), 422, "game")
    refused(client.post("/api/tables/99/actions", json={"action": "throw"}), 404, "99")
    refused(client.get("/static/secrets.txt"), 404, "no such file")
    # a game of the terminal in the same record is not a web table
    from hazard.table import DiceKind, GameKind, Session, table_paytable

    rules = find_ruleset("craps")
    store = GameStore.open(db)
    played = Session.start(
        store,
        ruleset=rules,
        paytable=table_paytable(rules)[0],
        dice=DiceKind.SEEDED,
        seed=1,
        kind=GameKind.PLAY,
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
    record = game_json(GameStore.open(table_db(client), access=Access.READ).load(table.id))
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


def test_a_body_too_large_is_413_and_too_many_requests_429(db: str) -> None:
    limits = Limits(body=2048, rate=5, burst=5, address_rate=1000, address_burst=1000)
    with TestClient(create_app(WebConfig(db=db, limits=limits))) as client:
        refused(client.post("/api/tables", content=b"x" * 5000), 413, "at most 2,048 bytes")
        answers = [client.get("/api/rulesets").status_code for _ in range(8)]
    assert 429 in answers
    assert answers[0] == 200


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
    assert client.get("/docs").status_code == 200


def test_the_creators_browser_joins_as_a_player_and_keeps_the_hosts_keys(client: TestClient) -> None:
    made = client.post("/api/tables", json={"ruleset": "wikipedia"})
    game = made.json()["id"]
    assert client.cookies.get(f"hazard_host_{game}")  # the creator's browser holds the host's keys
    joined = client.post(f"/api/tables/{game}/seats", json={"name": "Ann", "bankroll": "100"})
    assert joined.status_code == 201
    assert joined.cookies.get(f"hazard_seat_{game}") == joined.json()["token"]  # he sat himself down
    assert client.get(f"/api/tables/{game}/whoami").json() == {"seat": "Ann", "host": True}
    page = client.get(f"/tables/{game}").text
    assert "Your move, Ann" in page
    assert '<section class="card host">' in page
    assert f'href="/tables/{game}/referee"' in page
    # the host's page seats a late arrival and is given the link that hands him his seat
    late = client.post(
        f"/api/tables/{game}/seats", json={"name": "Bob", "bankroll": "50"}, headers={"x-hazard-role": "host"}
    )
    assert late.status_code == 201
    assert client.cookies.get(f"hazard_seat_{game}") == joined.json()["token"]  # still Ann's
    client.cookies.clear()
    claimed = client.get(
        f"/tables/{game}/claim", params={"token": late.json()["token"]}, follow_redirects=False
    )
    assert claimed.status_code == 303
    assert claimed.headers["location"] == f"/tables/{game}"
    assert client.get(f"/api/tables/{game}/whoami").json() == {"seat": "Bob", "host": False}
    refused(client.get(f"/tables/{game}/claim", params={"token": "forged"}), 403, "holds no seat")
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
        "Bob leaves the table with 100",
    ]
    refused(table.act("Bob", "stake 1"), 403, "Bob is not at the table")
    assert table.ok("host", "leave Cat")["events"] == ["Cat leaves the table with 100"]
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
