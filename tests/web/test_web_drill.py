"""The side-bet drill's API and page (``/api/drill/*``, ``/drill``): each answer is judged by its exact value,
the server's clock refuses a late answer, the inputs are bounded, and a named drill's score is kept in the
record and read back after the server is made again over it (a restart)."""

from __future__ import annotations

from collections.abc import Iterator
from fractions import Fraction
from typing import Any

import pytest
from fastapi.testclient import TestClient
from tests.web.helpers import LAX

from hazard.analysis.drill import Answer, Drill
from hazard.core.numbers import fraction_text
from hazard.web import WebConfig, create_app, drilling


def _client(db_url: str) -> TestClient:
    client = TestClient(create_app(WebConfig(db=db_url, poll=0.05, limits=LAX)))
    client.headers["origin"] = "http://testserver"
    return client


@pytest.fixture
def client(db_url: str) -> Iterator[TestClient]:
    with _client(db_url) as test_client:
        yield test_client


def _post(client: TestClient, path: str, body: dict[str, Any], status: int = 200) -> dict[str, Any]:
    answer = client.post(path, json=body)
    assert answer.status_code == status, answer.text
    result: dict[str, Any] = answer.json()
    return result


def test_each_answer_is_judged_by_its_exact_value_and_the_score_kept_survives_a_restart(db_url: str) -> None:
    answers = ["take", "refuse", "none", "take"]
    expected = Drill(21, 4, 10)
    with _client(db_url) as client:
        state = _post(client, "/api/drill/start", {"rounds": 4, "seconds": 10, "seed": 21, "name": "Zoë"})
        assert (state["seed"], state["name"]) == (21, "Zoë")
        ident = state["drill"]
        for given in answers:
            offer = expected.offer()
            assert state["offer"]["proposition"] == offer.proposition
            assert state["offer"]["stated"] == offer.stated
            assert "value" not in state["offer"]  # what it is worth comes with the answer
            answer = Answer.TAKE if given == "take" else Answer.REFUSE
            expected, judged = expected.answer(answer, timed_out=given == "none")
            state = _post(
                client, "/api/drill/answer", {"drill": ident, "round": offer.round, "answer": given}
            )
            shown = state["judged"]
            assert shown["value"]["exact"] == fraction_text(offer.value)
            assert shown["points"]["exact"] == fraction_text(judged.points)
            assert shown["missed"]["exact"] == fraction_text(judged.missed)
            assert shown["fair_odds"] == offer.fair_odds
            assert shown["timed_out"] is (given == "none")
            assert state["score"]["exact"] == fraction_text(expected.score)
        assert state["offer"] is None
        assert [s["score"]["exact"] for s in state["kept"]] == [fraction_text(expected.score)]
    with _client(db_url) as client:  # the server made again over the same record
        best = client.get("/api/drill/best", params={"name": "zoË"}).json()
        assert [(s["name"], s["score"]["exact"]) for s in best["best"]] == [
            ("Zoë", fraction_text(expected.score))
        ]
        page = client.get("/drill")
        assert page.status_code == 200
        assert f'data-exact="{fraction_text(expected.score)}"' in page.text
        assert "Zoë" in page.text


def test_an_answer_after_the_time_is_a_refusal(client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    state = _post(client, "/api/drill/start", {"rounds": 2, "seconds": 1, "seed": 3})
    clock = [drilling.time.monotonic() + 100]
    monkeypatch.setattr(drilling.time, "monotonic", lambda: clock[0])
    state = _post(client, "/api/drill/answer", {"drill": state["drill"], "round": 1, "answer": "take"})
    assert state["judged"]["timed_out"] is True
    assert state["judged"]["answer"] == "refuse"
    assert state["judged"]["points"]["exact"] == "0/1"


def test_answers_out_of_turn_unknown_drills_and_bad_bodies_are_refused(client: TestClient) -> None:
    state = _post(client, "/api/drill/start", {"rounds": 2, "seed": 5})
    ident = state["drill"]
    refused = _post(client, "/api/drill/answer", {"drill": ident, "round": 2, "answer": "take"}, status=409)
    assert refused["error"] == "illegal answer to round 2: the drill is at round 1"
    assert _post(client, "/api/drill/answer", {"drill": "x" * 20, "round": 1, "answer": "take"}, 404)["said"]
    for body in (
        {"rounds": 0},
        {"rounds": 101},
        {"seconds": 0.5},
        {"seed": -1},
        {"name": "x" * 161},
        {"rounds": 2, "path": "/etc/passwd"},
    ):
        assert _post(client, "/api/drill/start", body, 422)["error"].startswith("invalid request")
    assert "invalid player name" in _post(client, "/api/drill/start", {"name": "7up"}, 422)["error"]
    bad = {"drill": ident, "round": 1, "answer": "maybe"}
    assert _post(client, "/api/drill/answer", bad, 422)["error"].startswith("invalid request")
    assert client.get("/api/drill/best", params={"name": "x" * 161}).status_code == 422


def test_the_server_holds_a_bounded_number_of_drills(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(drilling, "MAX_DRILLS", 3)
    drills = drilling.Drills()
    idents = [drills.start(Drill(n, 2), None) for n in range(5)]
    assert list(drills._held) == idents[2:]
    held, judged = drills.answer(idents[4], 1, "refuse")
    assert judged.points == Fraction(0)
    assert held.drill.round == 2
