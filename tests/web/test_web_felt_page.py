"""The felt's money on the table page (issue 21 item 1, :mod:`hazard.web.felt`): the circle at the centre
with the sum laid against the caster, and each player's place around it with his bankroll, what is free and
his chips, every sum in the table's money style, every chip read aloud with whose it is.

Through the public page: tables set up and played through the API, the page rendered by the app.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient
from tests.web.helpers import LAX, Table
from tests.web.test_web_pages import parsed

from hazard.web import WebConfig, create_app


@pytest.fixture
def client(db_url: str) -> Iterator[TestClient]:
    with TestClient(create_app(WebConfig(db=db_url, poll=0.05, limits=LAX))) as test_client:
        test_client.headers["origin"] = "http://testserver"
        yield test_client


def _page(table: Table, seat: str | None = None, path: str = "") -> str:
    client = table.client
    client.cookies.clear()
    if seat is not None:
        client.cookies.set(f"hazard_seat_{table.id}", table.tokens[seat])
    page = client.get(f"/tables/{table.id}{path}")
    client.cookies.clear()
    assert page.status_code == 200, page.text
    return page.text


def _text(html: str) -> str:
    return re.sub(r"\s+", " ", "".join(parsed(html).text)).strip()


def circle(page: str) -> str:
    """What the felt's circle reads."""
    start = page.index('<p class="circle')
    return _text(page[start : page.index("</p>", start) + 4])


def places(page: str) -> dict[str, str]:
    """Each place around the table, by the player's name: what it reads aloud (each chip by its label, in
    brackets; a chip's word beside it is for the eye)."""
    start = page.index('<ul class="places"')
    items = re.findall(
        r"<li class=\"place[^\"]*\">(.*?)</li>", page[start : page.index("</ul>", start)], re.S
    )
    shown = {}
    for item in items:
        name = re.search(r'<span class="place-name">(.*?)</span>', item)
        assert name is not None, item
        heard = re.sub(r'<span class="chip-word" aria-hidden="true">.*?</span>', "", item)
        heard = re.sub(r'<span class="chip" role="img" aria-label="([^"]*)">.*?</span>', r"[\1]", heard)
        shown[parsed(name.group(1)).text[0]] = _text(heard)
    return shown


def chips(page: str) -> list[str]:
    """Every chip's accessible label on the felt, in order."""
    return re.findall(r'<span class="chip" role="img" aria-label="([^"]*)">', page)


def test_no_stakes_an_empty_circle_and_each_place_with_his_money(client: TestClient) -> None:
    table = Table(client, ruleset="cotton-1674")
    table.join("Ann")
    table.join("Bob", "50")
    page = _page(table, "Bob")
    assert circle(page) == "No stake against Ann yet"
    assert 'class="circle empty"' in page
    assert places(page) == {
        "Ann": "Ann caster bankroll 100.00 free 100.00",
        "Bob": "Bob you bankroll 50.00 free 50.00",
    }
    assert chips(page) == []
    bank = Table(client, ruleset="wikipedia")
    bank.join("Ann")
    bank.join("Bob")
    bank.ok("Ann", "call 7")  # the round has begun: no stake may be laid in it now
    assert circle(_page(bank)) == "No stake against Ann this round"


def test_a_table_with_nobody_has_no_circle(client: TestClient) -> None:
    table = Table(client, ruleset="cotton-1674")
    page = _page(table)
    assert '<p class="circle' not in page
    assert '<ul class="places"' not in page


def test_one_setter_his_sum_in_the_circle_under_his_name(client: TestClient) -> None:
    table = Table(client, ruleset="cotton-1674")  # setter-sum: one setter names the sum (seed 002)
    table.join("Ann")
    table.join("Bob")
    table.join("Cat")
    table.ok("Bob", "stake 5")
    for seat in ("Ann", "Bob", "Cat", None):  # every page, the spectator's too, shows the same felt
        page = _page(table, seat)
        assert circle(page) == "Bob sets 5.00", seat
        assert chips(page) == ["Ann covers 5.00 against Bob", "Bob stakes 5.00 against Ann"], seat
    shown = places(_page(table, "Ann"))
    assert shown["Ann"] == "Ann caster, you bankroll 100.00 free 95.00 [Ann covers 5.00 against Bob]"
    assert shown["Bob"].startswith("Bob bankroll 100.00 free ")
    assert shown["Cat"] == "Cat bankroll 100.00 free 100.00"
    # the chip's word is shown beside it, and its sum is text
    assert '<span class="chip-word" aria-hidden="true">stakes</span>' in _page(table, "Cat")


def test_several_stakers_the_circle_holds_their_sum_and_each_chip_lies_at_his_place(
    client: TestClient,
) -> None:
    table = Table(client, ruleset="sca-isenfir")  # all against the caster (seed 003: "the rest are betters")
    for name in ("Ann", "Bob", "Cat", "Dan"):
        table.join(name)
    table.ok("Bob", "stake 2")
    table.ok("Cat", "stake 3")
    table.ok("Bob", "stake 1/2")
    page = _page(table)
    assert circle(page) == "2 stake 5.50 against Ann"
    assert chips(page) == [
        "Ann covers 5.50 against 2 setters",
        "Bob stakes 2.50 against Ann",
        "Cat stakes 3.00 against Ann",
    ]
    assert places(page)["Dan"] == "Dan bankroll 100.00 free 100.00"


def test_one_staker_of_everyone_against_the_caster_and_the_bank_s_setters(client: TestClient) -> None:
    table = Table(client, ruleset="sca-isenfir")
    table.join("Ann")
    table.join("Bob")
    table.ok("Bob", "stake 2")
    assert circle(_page(table)) == "Bob stakes 2.00 against Ann"
    bank = Table(client, ruleset="wikipedia")  # the bank: each setter against the caster (seeds 000, 001)
    for name in ("Ann", "Bob", "Cat"):
        bank.join(name)
    bank.ok("Cat", "stake 4")
    assert circle(_page(bank)) == "Cat sets 4.00"
    bank.ok("Bob", "stake 1")
    assert circle(_page(bank)) == "2 stake 5.00 against Ann"


def test_a_pounds_shillings_and_pence_table_reads_its_sums_so(client: TestClient) -> None:
    table = Table(client, ruleset="cotton-1674", money="lsd")
    table.join("Ann")
    table.join("Bob")
    table.ok("Bob", "stake 5/2")
    page = _page(table, "Bob")
    assert circle(page) == "Bob sets £2 10s"
    assert chips(page) == ["Ann covers £2 10s against Bob", "Bob stakes £2 10s against Ann"]
    assert places(page)["Ann"] == "Ann caster bankroll £100 free £97 10s [Ann covers £2 10s against Bob]"
    assert "5/2" not in page.split('<div class="felt">')[1].split("</section>")[0]


def test_an_exact_table_reads_its_sums_as_fractions(client: TestClient) -> None:
    table = Table(client, ruleset="cotton-1674", money="exact")
    table.join("Ann")
    table.join("Bob")
    table.ok("Bob", "stake 5/2")
    page = _page(table)
    assert circle(page) == "Bob sets 5/2"
    assert chips(page) == ["Ann covers 5/2 against Bob", "Bob stakes 5/2 against Ann"]
    assert places(page)["Ann"] == "Ann caster bankroll 100 free 195/2 [Ann covers 5/2 against Bob]"


def test_a_player_who_left_has_no_place_and_his_stake_leaves_the_circle(client: TestClient) -> None:
    table = Table(client, ruleset="wikipedia")
    for name in ("Ann", "Bob", "Cat"):
        table.join(name)
    table.ok("Bob", "stake 2")
    table.ok("Cat", "stake 3")
    assert circle(_page(table)) == "2 stake 5.00 against Ann"
    table.ok("Cat", "leave")
    page = _page(table, "Bob")
    assert list(places(page)) == ["Ann", "Bob"]
    assert circle(page) == "Bob sets 2.00"
    assert chips(page) == ["Ann covers 2.00 against Bob", "Bob stakes 2.00 against Ann"]
    table.ok("Bob", "leave")
    page = _page(table)
    assert list(places(page)) == ["Ann"]
    assert circle(page) == "No stake against Ann yet"


def test_side_bets_at_risk_are_a_chip_at_the_backer_s_and_the_layer_s_place(client: TestClient) -> None:
    table = Table(client, ruleset="wikipedia")
    for name in ("Ann", "Bob", "Cat"):
        table.join(name)
    table.ok("Bob", "offer 2 on 4 or 10 before 7 at 2/1")
    assert chips(_page(table)) == ["Bob has 2.00 at risk on side bets"]
    table.ok("Cat", "take 1")
    assert chips(_page(table)) == ["Bob has 2.00 at risk on side bets", "Cat has 4.00 at risk on side bets"]


def test_the_big_screen_shows_the_felt_too(client: TestClient) -> None:
    table = Table(client, ruleset="cotton-1674")
    table.join("Ann")
    table.join("Bob")
    table.ok("Bob", "stake 5")
    page = _page(table, path="/screen")
    assert circle(page) == "Bob sets 5.00"
    assert list(places(page)) == ["Ann", "Bob"]
