"""The ruleset designer's API and page (``/api/designer/*``, ``/designer``): a designed ruleset's figures
are the analyser's, an invalid one is refused with the ruleset reader's own message, sizes are bounded, no
path is opened, and the TOML it gives reads back through ``hazard odds -r FILE`` with the same figures."""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from tests.commandline import run
from tests.web.helpers import LAX

from hazard.analysis import design_figures
from hazard.analysis.compare import ruleset_figures
from hazard.core.errors import InvalidError
from hazard.core.numbers import fraction_text
from hazard.core.rules import DicePassing, LossCount, MainRow, Ruleset
from hazard.core.rulesets import (
    builtin_rulesets,
    find_paytable,
    find_ruleset,
    paytable_for,
    ruleset_from_toml,
    ruleset_to_toml,
    settling_paytable,
)
from hazard.web import WebConfig, create_app

ORIGIN = "from the designer"


@pytest.fixture
def client(db_url: str) -> Iterator[TestClient]:
    with TestClient(create_app(WebConfig(db=db_url, poll=0.05, limits=LAX))) as test_client:
        test_client.headers["origin"] = "http://testserver"
        yield test_client


def changed_cotton() -> Ruleset:
    """Cotton's rules with 11 thrown again on a main of 7 (ECWS's reading) and the dice passing after three
    losses counted after a chance: built here from the dataclasses, not by the page's or server's code."""
    cotton = find_ruleset("cotton-1674")
    seven = cotton.row(7)
    row = MainRow(7, nicks=seven.nicks - {11}, outs=seven.outs, chances=seven.chances)
    rows = tuple(row if r.main == 7 else r for r in cotton.rows)
    return replace(cotton, id="mine", rows=rows, passing=DicePassing(3, LossCount.AFTER_CHANCE))


def odds(client: TestClient, text: str, start: str = "cotton-1674") -> dict[str, object]:
    answer = client.post("/api/designer/odds", json={"start": start, "toml": text})
    assert answer.status_code == 200, answer.text
    shown: dict[str, object] = answer.json()
    return shown


def test_a_changed_rulesets_figures_and_their_moves_are_the_analysers(client: TestClient) -> None:
    mine, cotton = changed_cotton(), find_ruleset("cotton-1674")
    shown = odds(client, ruleset_to_toml(mine))
    even = find_paytable("even")
    expected, base = ruleset_figures(mine, even), ruleset_figures(cotton, even)
    assert shown["figures"] == expected.to_json_dict()
    assert shown["base"] == base.to_json_dict()
    change = shown["change"]
    assert isinstance(change, dict)
    assert change["edge"] == fraction_text(expected.edge - base.edge)
    assert change["p_win"] == fraction_text(expected.p_win - base.p_win)
    assert change["rounds_kept"] is None  # Cotton's dice never pass on losses: nothing to move from
    seven = next(row for row in change["mains"] if row["main"] == 7)
    seven_now, seven_was = expected.main(7), base.main(7)
    assert seven_now is not None
    assert seven_was is not None
    assert seven["p_win"] == fraction_text(seven_now.p_win - seven_was.p_win)
    assert seven["edge"] == fraction_text(seven_now.edge - seven_was.edge)
    assert shown["paytable"] == "even"
    assert shown["start"] == "cotton-1674"
    assert shown["ruleset"] == "mine"
    assert ruleset_from_toml(str(shown["toml"]), "x") == mine


def test_a_new_main_has_no_move_and_a_ruleset_without_paytable_is_figured_at_even_money(
    client: TestClient,
) -> None:
    britannica = find_ruleset("britannica-1911")
    row = MainRow(10, frozenset({10}), frozenset({2, 3, 12}), frozenset({4, 5, 6, 8, 9}))
    mine = replace(britannica, rows=(*britannica.rows, row))
    shown = odds(client, ruleset_to_toml(mine), start="britannica-1911")
    assert shown["paytable"] == "even"
    assert shown == {**shown, **design_figures(britannica, mine).to_json_dict()}
    change = shown["change"]
    assert isinstance(change, dict)
    ten = change["mains"][-1]
    assert ten["main"] == 10
    assert ten["p_win"] is None
    assert ten["edge"] is None


def _broken(text: str, old: str, new: str) -> str:
    assert old in text
    return text.replace(old, new, 1)


COTTON = ruleset_to_toml(find_ruleset("cotton-1674"))


@pytest.mark.parametrize(
    "text",
    [
        _broken(COTTON, 'method = "thrown"', 'method = "fixed"'),  # five mains, one fixed
        _broken(COTTON, "nicks = [7, 11]", "nicks = [11]"),  # 7 left a chance on 7: the main its own chance
        _broken(COTTON, "nicks = [7, 11]", "nicks = [7, 11]\nouts = [11]"),  # 11 both nick and out
        _broken(COTTON, "mains = [5, 6, 7, 8, 9]", "mains = []"),
        _broken(COTTON, "after_losses = 0", "after_losses = 101"),
        _broken(COTTON, "after_losses = 0", 'after_losses = "3"'),
        _broken(COTTON, 'paytable = "even"', 'paytable = "wikipedia"\nx = 1'),
        _broken(COTTON, 'stakes = "setter-sum"', 'stakes = "everyone"'),
        _broken(COTTON, "[main]", "[main"),
    ],
)
def test_an_invalid_combination_is_refused_with_the_ruleset_readers_message(
    client: TestClient, text: str
) -> None:
    with pytest.raises(InvalidError) as read:
        ruleset_from_toml(text, ORIGIN, paths=False)
    answer = client.post("/api/designer/odds", json={"start": "cotton-1674", "toml": text})
    assert answer.status_code == 422
    body = answer.json()
    assert body["error"] == str(read.value)
    assert body["said"]
    assert not body["said"].startswith("invalid ruleset")
    assert client.post("/api/designer/toml", json={"start": "cotton-1674", "toml": text}).json() == body


def test_a_paytable_missing_a_chance_is_refused_as_a_file_is(client: TestClient) -> None:
    text = _broken(COTTON, 'paytable = "even"', 'paytable = "wikipedia"')
    text = _broken(text, "mains = [5, 6, 7, 8, 9]", "mains = [5, 6, 7, 8, 9, 10]")
    text = _broken(text, "[dice_passing]", "[opening.10]\nnicks = [10]\n\n[dice_passing]")  # no odds for 10
    answer = client.post("/api/designer/odds", json={"start": "cotton-1674", "toml": text})
    assert answer.status_code == 422
    assert "wikipedia" in answer.json()["error"]


@pytest.mark.parametrize(
    ("body", "status"),
    [
        ({"start": "cotton-1674", "toml": "#" * 65_537}, 422),  # past 64 KiB of text
        ({"start": "x" * 65, "toml": COTTON}, 422),
        ({"start": "../data/cotton-1674.toml", "toml": COTTON}, 422),  # a path is never a start
        ({"start": "cotton-1674", "toml": COTTON, "path": "/etc/passwd"}, 422),
        ({"start": "cotton-1674"}, 422),
        ({"start": "cotton-1674", "toml": 7}, 422),
    ],
)
def test_hostile_bodies_are_refused_in_the_one_refusal_form(
    client: TestClient, body: dict[str, object], status: int
) -> None:
    for path in ("/api/designer/odds", "/api/designer/toml"):
        answer = client.post(path, json=body)
        assert answer.status_code == status, answer.text
        refusal = answer.json()
        assert set(refusal) == {"error", "said"}
        assert refusal["said"]


def test_a_body_past_the_servers_limit_is_refused_before_it_is_read(client: TestClient) -> None:
    answer = client.post(
        "/api/designer/odds",
        content=json.dumps({"start": "cotton-1674", "toml": "#" * 300_000}),
        headers={"content-type": "application/json"},
    )
    assert answer.status_code == 413
    assert answer.json()["said"]


def test_a_paytable_file_named_by_a_client_is_never_opened(client: TestClient, tmp_path: Path) -> None:
    secret = tmp_path / "pays.toml"
    secret.write_text('id = "p"\nname = "p"\nnick = "1"\nchance = "1"\n', encoding="utf-8")
    text = _broken(COTTON, 'paytable = "even"', f"paytable = {json.dumps(str(secret))}")
    answer = client.post("/api/designer/odds", json={"start": "cotton-1674", "toml": text})
    assert answer.status_code == 422
    assert "expected a built-in paytable id" in answer.json()["error"]


def test_the_downloaded_toml_reads_back_through_hazard_odds_with_the_same_figures(
    client: TestClient, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    mine = changed_cotton()
    shown = odds(client, ruleset_to_toml(mine))
    answer = client.post("/api/designer/toml", json={"start": "cotton-1674", "toml": ruleset_to_toml(mine)})
    assert answer.status_code == 200
    assert answer.headers["content-type"].startswith("application/toml")
    assert answer.headers["content-disposition"] == 'attachment; filename="mine.toml"'
    assert answer.text == shown["toml"] == ruleset_to_toml(mine)
    path = tmp_path / "mine.toml"
    path.write_bytes(answer.content)
    code, out, err = run(capsys, "odds", "-r", str(path), "-f", "json")
    assert code == 0, err
    printed = json.loads(out)
    figures = shown["figures"]
    assert isinstance(figures, dict)
    for row, main in zip(printed["mains"], figures["mains"], strict=True):
        assert (row["main"], row["p_win"], row["edge"], row["expected_throws"]) == (
            main["main"],
            main["p_win"],
            main["edge"],
            main["expected_throws"],
        )
    overall = printed["overall"]
    assert (overall["p_win"], overall["edge"], overall["expected_throws"]) == (
        figures["p_win"],
        figures["edge"],
        figures["expected_throws"],
    )
    assert overall["expected_rounds_kept"] == figures["rounds_kept"]
    assert find_ruleset(str(path), paths=True) == mine  # the file is the designed ruleset, unchanged


def test_a_built_in_ruleset_downloads_as_its_file(client: TestClient) -> None:
    answer = client.get("/api/designer/toml", params={"start": "ECWS"})
    assert answer.status_code == 200
    assert answer.text == ruleset_to_toml(find_ruleset("ecws-1674"))
    assert client.get("/api/designer/toml", params={"start": "/etc/passwd"}).status_code == 422


def test_the_page_starts_from_each_built_in_ruleset_with_its_figures(client: TestClient) -> None:
    assert 'href="/designer"' in client.get("/").text
    for ruleset in builtin_rulesets():
        page = client.get("/designer", params={"from": ruleset.id})
        assert page.status_code == 200
        figures = ruleset_figures(ruleset, settling_paytable(paytable_for(ruleset)))
        assert f'data-exact="{fraction_text(figures.edge)}"' in page.text
        for main in ruleset.mains:
            assert f'name="cell-{main}-2"' in page.text
        assert '<script src="/static/designer.js" defer></script>' in page.text
    refused = client.get("/designer", params={"from": "/etc/passwd"})
    assert refused.status_code == 422
    assert refused.json()["said"]
    script = client.get("/static/designer.js")
    assert script.status_code == 200
    assert script.headers["content-type"].startswith("text/javascript")


def test_a_table_is_set_up_with_a_designed_ruleset(client: TestClient) -> None:
    text = ruleset_to_toml(changed_cotton())
    made = client.post("/api/tables", json={"ruleset_toml": text})
    assert made.status_code == 201, made.text
    state = client.get(f"/api/tables/{made.json()['id']}").json()
    assert "mine" in json.dumps(state)
