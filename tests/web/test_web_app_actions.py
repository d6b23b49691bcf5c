"""The web table's JSON API and socket, acting: every action type, refusals with the table service's
message, an action resent made once, the live socket and its reconnects, and each seat's own seed."""

from __future__ import annotations

import hashlib
from typing import Any

import pytest
from fastapi.testclient import TestClient
from tests.web.helpers import LAX, Table, bearer, client, refused

from hazard.core.rulesets import find_ruleset
from hazard.table import Access, GameStore, TableSpec, game_json, load_game
from hazard.web import WebConfig, create_app
from hazard.web import hub as hub_module

__all__ = ["client"]  # the fixtures, used by name


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
