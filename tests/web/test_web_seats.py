"""Attacks on seats and their credentials (issue 19, findings 1 to 3), through the API of one or two servers.

- A token belongs to one seating: Bob's token dies when Bob leaves (or the host removes him), and a new
  player of the name "Bob" holds a seating of his own, with his own action numbers, on every server.
- A late arrival's claim link is spent once, expires, and never gives the host a player's credential.
- A request that may change anything, carrying the table's cookie, must come from the table's own pages.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from hazard.table import Access, GameStore, load_game
from hazard.web import WebConfig, create_app


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def server(db_url: str, **config: Any) -> TestClient:
    return TestClient(create_app(WebConfig(db=db_url, poll=0.05, **config)))


@pytest.fixture
def client(db_url: str) -> Iterator[TestClient]:
    with server(db_url) as test_client:
        yield test_client


def new_table(client: TestClient) -> tuple[int, str]:
    made = client.post("/api/tables", json={"ruleset": "wikipedia"})
    assert made.status_code == 201, made.text
    client.cookies.clear()
    return int(made.json()["id"]), str(made.json()["host_token"])


def sit(client: TestClient, game: int, name: str) -> str:
    seated = client.post(f"/api/tables/{game}/seats", json={"name": name, "bankroll": "100"})
    client.cookies.clear()
    assert seated.status_code == 201, seated.text
    return str(seated.json()["token"])


def act(client: TestClient, game: int, token: str, action: str, client_id: str | None = None) -> Any:
    body: dict[str, Any] = {"action": action}
    if client_id is not None:
        body["id"] = client_id
    return client.post(f"/api/tables/{game}/actions", json=body, headers=bearer(token))


def stakes(client: TestClient, game: int) -> list[tuple[str, str]]:
    state = client.get(f"/api/tables/{game}").json()["state"]
    return [(s["player"], s["amount_float"]) for s in state["stakes"]]


def refused_403(answer: Any) -> str:
    assert answer.status_code == 403, answer.text
    return str(answer.json()["error"])


# --- 1. a token belongs to one seating ------------------------------------------------------------------


def old_bob_numbers_his_actions(client: TestClient, game: int, token: str) -> None:
    """Old Bob acts, numbering his actions 1 and 2 (a stake, then its withdrawal)."""
    assert act(client, game, token, "stake 1", "1").status_code == 200
    assert act(client, game, token, "withdraw", "2").status_code == 200


def new_bob_gets_his_own_answers(client: TestClient, game: int, old: str, new: str) -> None:
    """The old token stakes, withdraws and leaves for nobody; the new Bob's actions 1, 2, 3 are his own."""
    for action in ("stake 5", "withdraw", "leave"):
        message = refused_403(act(client, game, old, action, f"old-{action.split()[0]}"))
        assert "Bob" in message
    # nor does it set the new Bob's seed, as a page does for its seat each hand
    hand = client.get(f"/api/tables/{game}").json()["hand"]
    seeded = client.post(
        f"/api/tables/{game}/seed", json={"hand": hand, "seed": "old-bobs"}, headers=bearer(old)
    )
    refused_403(seeded)
    head = client.get(f"/api/tables/{game}").json()["seq"]
    first = act(client, game, new, "stake 2", "1")
    assert first.status_code == 200, first.text
    assert first.json()["seq"] == head + 1  # made, not old Bob's answer to his own "1"
    assert first.json()["events"] == ["Bob stakes 2.00 against Ann"]
    assert stakes(client, game) == [("Bob", 2)]
    second = act(client, game, new, "withdraw", "2")
    assert second.json()["seq"] == head + 2
    third = act(client, game, new, "stake 3", "3")
    assert third.json()["seq"] == head + 3
    assert stakes(client, game) == [("Bob", 3)]
    assert act(client, game, new, "stake 3", "3").json() == third.json()  # his own resend: made once


def test_a_token_dies_with_its_seat_when_the_player_leaves(client: TestClient) -> None:
    game, _ = new_table(client)
    sit(client, game, "Ann")
    old = sit(client, game, "Bob")
    old_bob_numbers_his_actions(client, game, old)
    assert act(client, game, old, "leave", "3").status_code == 200
    assert "not at the table" in refused_403(act(client, game, old, "stake 1"))
    new = sit(client, game, "Bob")
    new_bob_gets_his_own_answers(client, game, old, new)
    who = client.get(f"/api/tables/{game}/whoami", headers=bearer(old)).json()
    assert who == {"seat": None, "host": False}  # the old token shows a spectator's page
    assert client.get(f"/api/tables/{game}/whoami", headers=bearer(new)).json()["seat"] == "Bob"


def test_a_token_dies_with_its_seat_when_the_host_removes_the_player(client: TestClient) -> None:
    game, host = new_table(client)
    sit(client, game, "Ann")
    old = sit(client, game, "Bob")
    old_bob_numbers_his_actions(client, game, old)
    assert act(client, game, host, "leave Bob").status_code == 200
    new = sit(client, game, "Bob")
    new_bob_gets_his_own_answers(client, game, old, new)


def test_the_key_rows_of_a_seating_go_with_the_entry_that_ends_it(client: TestClient, db_url: str) -> None:
    game, _ = new_table(client)
    sit(client, game, "Ann")
    sit(client, game, "Bob")
    with sqlite3.connect(db_url) as connection:
        assert connection.execute("SELECT count(*) FROM hazard_seats WHERE player = 'Bob'").fetchone() == (1,)
    act(client, game, sit(client, game, "Cat"), "leave")
    with sqlite3.connect(db_url) as connection:
        rows = connection.execute("SELECT player, seating FROM hazard_seats ORDER BY seating").fetchall()
    assert rows == [(None, None), ("Ann", 2), ("Bob", 3)]  # Cat's key went with his leave (entry 1: the dice)


def test_a_second_server_never_honours_a_dead_token_from_its_cache(database: str) -> None:
    url = database
    with server(url) as one, server(url) as two:
        game, host = new_table(one)
        sit(one, game, "Ann")
        old = sit(one, game, "Bob")
        # the second server learns old Bob's key (and caches it) by acting with it
        old_bob_numbers_his_actions(two, game, old)
        assert act(one, game, old, "leave", "3").status_code == 200
        new = sit(one, game, "Bob")
        new_bob_gets_his_own_answers(two, game, old, new)
        # and the same with a removal by the host, the second server holding the key to the removed seat
        assert act(two, game, new, "withdraw", "4").status_code == 200
        assert act(one, game, host, "leave Bob").status_code == 200
        for action in ("stake 5", "withdraw", "leave"):
            refused_403(act(two, game, new, action))
        third = sit(two, game, "Bob")
        assert act(one, game, third, "stake 1", "1").status_code == 200


def test_a_record_of_keys_without_seatings_is_upgraded_to_the_seatings_held(tmp_path: Path) -> None:
    """A record written before seatings: each seat row opens the seating its player holds at the upgrade,
    or nothing where he has left."""
    db_url = str(tmp_path / "games.db")
    with server(db_url) as client:
        game, _ = new_table(client)
        sit(client, game, "Ann")
        bob = sit(client, game, "Bob")
        cat = sit(client, game, "Cat")
        act(client, game, cat, "leave")
    with sqlite3.connect(db_url) as connection:  # the layout of the release before seatings
        rows = connection.execute("SELECT game, digest, player FROM hazard_seats").fetchall()
        connection.execute("DROP TABLE hazard_seats")
        connection.execute(
            "CREATE TABLE hazard_seats (game INTEGER NOT NULL, digest VARCHAR(64) NOT NULL, "
            "player VARCHAR(200), PRIMARY KEY (game, digest))"
        )
        connection.executemany("INSERT INTO hazard_seats VALUES (?, ?, ?)", rows)
        connection.execute("DROP TABLE hazard_claims")
    reader = GameStore.open(
        db_url, access=Access.READ
    )  # reading never writes: the old layout is read as it is
    assert load_game(reader, game).table.seated("Bob")
    reader.close()
    from hazard.web.hub import token_digest

    with sqlite3.connect(db_url) as connection:
        connection.execute(  # a key to Cat's seat, as the old release kept it even after he left
            "INSERT INTO hazard_seats VALUES (?, ?, 'Cat')", (game, token_digest(cat))
        )
    with server(db_url) as client:
        assert act(client, game, bob, "stake 1").status_code == 200
        refused_403(act(client, game, cat, "stake 1"))
        new_cat = sit(client, game, "Cat")
        refused_403(act(client, game, cat, "stake 1"))
        assert act(client, game, new_cat, "stake 1").status_code == 200
    with sqlite3.connect(db_url) as connection:
        seatings = dict(connection.execute("SELECT player, seating FROM hazard_seats").fetchall())
    assert seatings["Bob"] == 3
    assert seatings["Cat"] in (0, 7)  # the old key opens nothing; Cat's new key his new seating


# --- 2. late arrivals' claim links ----------------------------------------------------------------------


def seat_late(client: TestClient, game: int, host: str, name: str = "Bob") -> dict[str, Any]:
    late = client.post(
        f"/api/tables/{game}/seats", json={"name": name, "bankroll": "50"}, headers=bearer(host)
    )
    assert late.status_code == 201, late.text
    return dict(late.json())


def test_a_claim_link_is_spent_once_and_the_host_holds_no_working_credential(client: TestClient) -> None:
    game, host = new_table(client)
    sit(client, game, "Ann")
    late = seat_late(client, game, host)
    code = late["claim"]
    assert late["token"] is None
    assert "token=" not in late["claim_url"]
    given = [host, code, late["claim_url"]]  # everything the host holds
    for credential in given:  # the host names the late arrival: as the host, or with what he was given
        assert act(client, game, credential, "stake Bob 1").status_code == 403
    # a preview (a chat app fetching the link) spends nothing
    for _ in range(3):
        assert client.get(late["claim_url"]).status_code == 200
    taken = client.post(late["claim_url"], follow_redirects=False, headers={"origin": "http://testserver"})
    assert taken.status_code == 303
    cookie = taken.cookies.get(f"hazard_seat_{game}")
    assert cookie
    assert cookie != code
    assert "samesite=lax" in taken.headers["set-cookie"].lower()
    assert act(client, game, cookie, "stake 1").json()["events"] == ["Bob stakes 1.00 against Ann"]
    client.cookies.clear()
    # the link is dead: a second browser, or the host, gets a clear refusal
    again = client.post(late["claim_url"], follow_redirects=False)
    assert again.status_code == 403
    assert "has been used already" in again.text
    assert "has been used already" in client.get(late["claim_url"]).text
    api = client.post(f"/api/tables/{game}/claim", json={"code": code}, headers=bearer(host))
    assert "has been used already" in refused_403(api)
    for credential in given:
        assert act(client, game, credential, "stake Bob 2").status_code == 403
    assert stakes(client, game) == [("Bob", 1)]


def test_a_claim_link_is_exchanged_for_a_bearer_token_through_the_api(client: TestClient) -> None:
    game, host = new_table(client)
    sit(client, game, "Ann")
    code = seat_late(client, game, host)["claim"]
    taken = client.post(f"/api/tables/{game}/claim", json={"code": code})
    assert taken.status_code == 200, taken.text
    assert taken.json()["seat"] == "Bob"
    assert act(client, game, taken.json()["token"], "stake 2").status_code == 200
    assert "used already" in refused_403(client.post(f"/api/tables/{game}/claim", json={"code": code}))
    assert "holds no seat" in refused_403(client.post(f"/api/tables/{game}/claim", json={"code": "forged"}))
    other, other_host = new_table(client)
    elsewhere = client.post(
        f"/api/tables/{other}/claim", json={"code": seat_late(client, game, host, "Cat")["claim"]}
    )
    assert "holds no seat" in refused_403(elsewhere)  # a code opens its own table only
    assert other_host != host


def test_a_claim_link_expires_and_dies_with_its_seat(db_url: str) -> None:
    with server(db_url, claim_minutes=0) as client:  # every link is past its time at once
        game, host = new_table(client)
        sit(client, game, "Ann")
        code = seat_late(client, game, host)["claim"]
        assert "expired" in refused_403(client.post(f"/api/tables/{game}/claim", json={"code": code}))
    with server(db_url) as client:
        code = seat_late(client, game, host, "Cat")["claim"]
        assert act(client, game, host, "leave Cat").status_code == 200
        assert "holds no seat" in refused_403(client.post(f"/api/tables/{game}/claim", json={"code": code}))


def test_a_claim_link_is_spent_once_across_servers(database: str) -> None:
    url = database
    with server(url) as one, server(url) as two:
        game, host = new_table(one)
        sit(one, game, "Ann")
        code = seat_late(one, game, host)["claim"]
        assert two.get(f"/tables/{game}/claim", params={"code": code}).status_code == 200
        first = two.post(f"/api/tables/{game}/claim", json={"code": code})
        assert first.status_code == 200
        refused_403(one.post(f"/api/tables/{game}/claim", json={"code": code}))
        refused_403(two.post(f"/api/tables/{game}/claim", json={"code": code}))
        assert act(one, game, first.json()["token"], "stake 1").status_code == 200


def test_the_claim_page_is_escaped_and_spends_nothing(client: TestClient) -> None:
    game, host = new_table(client)
    sit(client, game, "Ann")
    late = seat_late(client, game, host, "O'Neil")
    page = client.get(late["claim_url"]).text
    assert "Take the seat of O&#39;Neil" in page  # escaped (Jinja2 writes a quote as &#39;)
    assert "<script>" not in page
    hostile = client.get(f"/tables/{game}/claim", params={"code": '"><script>alert(1)</script>'})
    assert hostile.status_code == 403
    assert "<script>alert" not in hostile.text


# --- 3. cookies and cross-site requests ---------------------------------------------------------------------


def test_a_cross_site_post_with_the_seat_cookie_is_refused(client: TestClient) -> None:
    game, host = new_table(client)
    sit(client, game, "Ann")
    joined = client.post(f"/api/tables/{game}/seats", json={"name": "Bob", "bankroll": "100"})
    assert "samesite=lax" in joined.headers["set-cookie"].lower()
    assert client.cookies.get(f"hazard_seat_{game}")  # the browser holds Bob's cookie
    url = f"/api/tables/{game}/actions"
    for headers in (
        {"origin": "http://127.0.0.2:8000"},  # another site
        {"origin": "http://testserver:8080"},  # the same site, another origin (another port)
        {"origin": "https://testserver"},  # another scheme
        {"sec-fetch-site": "same-site"},
        {"sec-fetch-site": "cross-site"},
        {},  # a cookie, and nothing said of where it comes from
        {"origin": "null"},
    ):
        answer = client.post(url, json={"action": "stake 1"}, headers=headers)
        assert answer.status_code == 403, (headers, answer.text)
        assert "own pages" in answer.json()["error"]
    # a form's body (no preflight) from the table's own origin is not JSON: refused as well
    form = client.post(
        url,
        content=b'{"action": "stake 1"}',
        headers={"origin": "http://testserver", "content-type": "text/plain"},
    )
    assert form.status_code == 415
    closing = client.post(
        f"/api/tables/{game}/close", headers={"origin": "http://127.0.0.2:8000", "x-hazard-role": "host"}
    )
    assert closing.status_code == 403
    assert stakes(client, game) == []
    # from the table's own page, the same request is made
    own = client.post(url, json={"action": "stake 1"}, headers={"origin": "http://testserver"})
    assert own.status_code == 200, own.text
    same = client.post(url, json={"action": "withdraw"}, headers={"sec-fetch-site": "same-origin"})
    assert same.status_code == 200, same.text
    # Bearer API calls are unaffected, whatever they say of origins
    client.cookies.clear()
    api = act(client, game, host, "leave Bob")
    assert api.status_code == 200


def test_a_request_without_any_credential_needs_no_origin(client: TestClient) -> None:
    made = client.post("/api/tables", json={"ruleset": "wikipedia"})  # an API client with no cookie yet
    assert made.status_code == 201
    client.cookies.clear()
    forged = client.post("/api/tables", json={"ruleset": "wikipedia"}, headers={"origin": "http://evil.test"})
    assert forged.status_code == 403


# --- 4. look-alike names, over the web ---------------------------------------------------------------------


def test_a_look_alike_name_is_refused_at_the_web_table_naming_whom_it_resembles(client: TestClient) -> None:
    game, host = new_table(client)
    sit(client, game, "Ann")
    for name, said in (("\u0410nn", "more than one script"), ("\u00c1nn", "looks like 'Ann'")):
        for headers in ({}, bearer(host)):
            answer = client.post(
                f"/api/tables/{game}/seats", json={"name": name, "bankroll": "10"}, headers=headers
            )
            assert answer.status_code == 409, answer.text
            assert said in answer.json()["error"]
    players = client.get(f"/api/tables/{game}").json()["state"]["players"]
    assert [p["name"] for p in players] == ["Ann"]
