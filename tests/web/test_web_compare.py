"""The page comparing two built-in rulesets (``/compare``): the comparison's figures, its selects, the
lobby's link to it, and the one refusal for anything but a built-in id (a path is never opened)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient
from tests.web.helpers import LAX
from tests.web.test_web_pages import parsed, section

from hazard.analysis import compare_rulesets
from hazard.core.rulesets import builtin_rulesets, find_ruleset, paytable_for, settling_paytable
from hazard.web import WebConfig, create_app


@pytest.fixture
def client(db_url: str) -> Iterator[TestClient]:
    with TestClient(create_app(WebConfig(db=db_url, poll=0.05, limits=LAX))) as test_client:
        test_client.headers["origin"] = "http://testserver"
        yield test_client


def test_the_page_shows_each_rule_that_differs_with_the_analysers_change_in_the_edge(
    client: TestClient,
) -> None:
    page = client.get("/compare", params={"a": "cotton-1674", "b": "sca-isenfir"})
    assert page.status_code == 200
    assert page.headers["content-type"].startswith("text/html")
    a, b = find_ruleset("cotton-1674"), find_ruleset("sca-isenfir")
    comparison = compare_rulesets(
        a, b, (settling_paytable(paytable_for(a)), settling_paytable(paytable_for(b)))
    )
    rules = section(page.text, "<h2>Each rule that differs")
    for difference in comparison.differences:
        assert f'<th scope="row">{difference.rule}</th>' in rules
        effect = difference.effect
        assert effect is not None
        if effect.edge:
            exact = f"{effect.edge.numerator}/{effect.edge.denominator}".replace("-", "−")
            assert exact in rules  # the exact change beside its decimal
    assert '<tr class="largest"><th scope="row">main 7, opening 11</th>' in rules
    assert (
        "The rule that moves the edge most: main 7, opening 11 (nick → out), +0.0278 per unit staked."
        in rules
    )
    shape = parsed(page.text)
    assert shape.scripts == ["/static/hazard.js"]  # nothing else, and nothing from elsewhere
    ids = [ruleset.id for ruleset in builtin_rulesets()]
    assert '<option value="cotton-1674" selected>' in page.text
    assert '<option value="sca-isenfir" selected>' in page.text
    assert all(f'<option value="{i}"' in page.text for i in ids)


def test_a_refused_change_is_explained(client: TestClient) -> None:
    page = client.get("/compare", params={"a": "craps", "b": "ecws"}).text
    assert "refused, as a ruleset file would be: invalid ruleset &#39;craps&#39;: a fixed main needs" in page


def test_the_lobby_links_the_page_and_it_has_a_default_pair(client: TestClient) -> None:
    assert '<a href="/compare">The sources compared</a>' in client.get("/").text
    page = client.get("/compare")
    assert page.status_code == 200
    assert "cotton-1674 compared with craps" in page.text
    assert "No rule differs." in client.get("/compare?a=craps&b=pass-line").text


@pytest.mark.parametrize(
    "name", ["nope", "../../etc/passwd", "src/hazard/core/rulesets/data/craps.toml", "<b>x"]
)
def test_anything_but_a_built_in_id_is_the_one_refusal(client: TestClient, name: str) -> None:
    for query in ({"a": name, "b": "craps"}, {"a": "craps", "b": name}):
        answer = client.get("/compare", params=query)
        assert answer.status_code == 422
        body = answer.json()
        assert set(body) == {"error", "said"}
        which = "a" if query["a"] == name else "b"
        assert body["error"].startswith(f"invalid comparison: {which} ")
        assert "expected a built-in ruleset id: britannica-1911, wikipedia" in body["error"]
        assert body["said"].endswith(
            "isn't a built-in ruleset: choose one of " + ", ".join(r.id for r in builtin_rulesets()) + "."
        )
    too_long = client.get("/compare", params={"a": "x" * 81})
    assert too_long.status_code == 422
    assert set(too_long.json()) == {"error", "said"}
