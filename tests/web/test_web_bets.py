"""Side bets on a table's pages (issue 21 item 5): the sources' bets in one tap, each open offer's figures,
who may take it, and its value to the viewer beside its Take button, in the table's money style, from the
exact analyser; and ``/api/bet``'s values written in a money style for the offer form's preview."""

from __future__ import annotations

import html
import re
from fractions import Fraction

import pytest
from fastapi.testclient import TestClient
from tests.web.helpers import Table, bearer, client, refused

from hazard.analysis.bets import analyse_bet
from hazard.core.propositions import SOURCE_BETS
from hazard.table import MoneyStyle, odds_text
from hazard.web.bets import worth

__all__ = ["client"]  # the fixture, used by name


def view(table: Table, who: str | None) -> str:
    headers = {} if who is None else bearer(table.tokens[who])
    answer = table.client.get(f"/tables/{table.id}/view", params={"mode": "table"}, headers=headers)
    assert answer.status_code == 200, answer.text
    return html.unescape(answer.text)


def bet_item(page: str, number: int) -> str:
    found = re.search(rf'<li data-bet="{number}">(.*?)</li>', page, re.S)
    assert found is not None, page
    return " ".join(found.group(1).split())


def test_a_value_is_signed_as_a_gain_or_a_loss_in_the_money_style() -> None:
    assert worth(Fraction(-21, 50), MoneyStyle.DECIMAL) == "\N{MINUS SIGN}0.42"
    assert worth(Fraction(3, 2), MoneyStyle.DECIMAL) == "+1.50"
    assert worth(Fraction(0), MoneyStyle.DECIMAL) == "0.00"
    assert worth(Fraction(-1, 1000), MoneyStyle.DECIMAL) == "0.00"
    assert worth(Fraction(-5, 2), MoneyStyle.EXACT) == "\N{MINUS SIGN}5/2"
    assert worth(Fraction(3, 2), MoneyStyle.LSD) == "+£1 10s"
    assert (odds_text(Fraction(1)), odds_text(Fraction(2)), odds_text(Fraction(5, 2))) == (
        "evens",
        "2 to 1",
        "5 to 2",
    )


def test_the_sources_bets_are_fair_at_evens_so_their_one_tap_value_holds_at_any_stake() -> None:
    for text in SOURCE_BETS:
        assert analyse_bet(text).value(Fraction(1)) == 0, text


def test_the_bet_figures_in_a_money_style(client: TestClient) -> None:
    asked = {"proposition": "next odd", "odds": "2/1", "amount": "3", "money": "decimal"}
    figures = client.get("/api/bet", params=asked).json()
    # next odd: 1/2 a throw; at 2 to 1 the backer gains 3 * (1/2 * 2 - 1/2) = 3/2.
    assert figures["backer_value"] == "3/2"
    assert (figures["odds_text"], figures["backer_value_text"], figures["layer_value_text"]) == (
        "2 to 1",
        "+1.50",
        "\N{MINUS SIGN}1.50",
    )
    evens = client.get("/api/bet", params={"proposition": "next 7", "money": "lsd"}).json()
    assert (evens["odds_text"], evens["backer_value_text"]) == ("evens", "\N{MINUS SIGN}13s 4d")
    assert "backer_value_text" not in client.get("/api/bet", params={"proposition": "next 7"}).json()
    refused(client.get("/api/bet", params={"proposition": "next 7", "money": "groats"}), 422)


def test_a_seat_offers_the_sources_bets_in_one_tap_with_their_figures(client: TestClient) -> None:
    table = Table(client)
    table.join("Ann")
    table.join("Bob")
    page = view(table, "Bob")
    for text in SOURCE_BETS:
        assert f'data-proposition="{text}"' in page, text
    assert "fair odds 1 to 1; worth 0.00 to you at evens" in page
    assert 'data-money="decimal"' in page
    # A spectator offers nothing.
    assert "data-proposition" not in view(table, None)


def test_an_open_offer_says_who_may_take_it_and_its_value_beside_take(client: TestClient) -> None:
    table = Table(client)
    for name in ("Ann", "Bob", "Cat"):
        table.join(name)
    table.ok("Bob", "offer 2 on next 7")  # next 7 at evens: worth 2 * (1/6 - 5/6) = -4/3 to Bob
    bob, cat, spectator = view(table, "Bob"), view(table, "Cat"), view(table, None)
    assert "Ann or Cat may take it" in bet_item(spectator, 1)
    assert "fair odds 5 to 1" in bet_item(spectator, 1)
    assert "Take bet #1" not in spectator
    assert "worth \N{MINUS SIGN}1.33 to you at evens" in bet_item(bob, 1)
    assert 'data-action="cancel 1"' in bob
    assert 'data-action="take 1"' not in bob
    assert 'data-action="take 1"' in cat
    assert 'Take bet #1</button> <span class="worth" id="worth-1">worth +1.33 to you at evens' in cat
    table.ok("Cat", "take 1")
    taken = bet_item(view(table, "Cat"), 1)
    assert "laid by Cat" in taken
    assert "may take it" not in taken
    assert "Take bet" not in taken


def test_an_exact_table_shows_the_values_exactly(client: TestClient) -> None:
    table = Table(client, money="exact")
    table.join("Ann")
    table.join("Bob")
    table.ok("Bob", "offer 2 on next 7")
    assert "worth +4/3 to you at evens" in view(table, "Ann")
    assert 'data-money="exact"' in view(table, "Ann")


@pytest.mark.parametrize("mode", ["screen", "referee"])
def test_no_take_button_off_the_table_page(client: TestClient, mode: str) -> None:
    table = Table(client)
    table.join("Ann")
    table.join("Bob")
    table.ok("Bob", "offer 1 on next 7")
    page = client.get(
        f"/tables/{table.id}/view", params={"mode": mode}, headers=bearer(table.tokens["Ann"])
    ).text
    assert 'data-action="take 1"' not in page
