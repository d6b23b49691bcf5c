"""Money at the table: reading sums people type and writing exact amounts back."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from hazard.core.errors import InvalidError
from hazard.table.money import format_money, parse_money


@pytest.mark.parametrize(
    ("text", "amount"),
    [
        ("10", Fraction(10)),
        ("2.50", Fraction(5, 2)),
        ("2.5", Fraction(5, 2)),
        ("0.05", Fraction(1, 20)),
        ("£10", Fraction(10)),
        ("$ 3", Fraction(3)),
        ("€1.25", Fraction(5, 4)),
        ("25/3", Fraction(25, 3)),
        (" 25 / 3 ", Fraction(25, 3)),
        ("4/2", Fraction(2)),
        ("007", Fraction(7)),
    ],
)
def test_parse_money_reads_sums(text: str, amount: Fraction) -> None:
    assert parse_money(text) == amount


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ("", "expected a sum such as 10"),
        ("ten", "expected a sum such as 10"),
        ("-5", "expected a sum such as 10"),
        ("1e3", "expected a sum such as 10"),
        ("1.", "expected a sum such as 10"),
        (".5", "expected a sum such as 10"),
        ("10 pounds", "expected a sum such as 10"),
        ("£-1", "expected a sum such as 10"),
        ("1/0", "cannot divide by 0"),
        ("0", "expected more than 0"),
        ("0.00", "expected more than 0"),
        ("0/7", "expected more than 0"),
    ],
)
def test_parse_money_refuses(text: str, fragment: str) -> None:
    with pytest.raises(InvalidError, match="invalid amount") as caught:
        parse_money(text)
    assert repr(text) in str(caught.value)
    assert fragment in str(caught.value)


def test_parse_money_names_what_is_read_and_can_allow_zero() -> None:
    with pytest.raises(InvalidError, match=r"invalid bankroll 'x'"):
        parse_money("x", what="bankroll")
    assert parse_money("0", allow_zero=True) == 0
    assert parse_money("0.00", allow_zero=True) == 0


@pytest.mark.parametrize(
    ("amount", "text"),
    [
        (Fraction(10), "10"),
        (Fraction(0), "0"),
        (Fraction(-10), "-10"),
        (Fraction(5, 2), "2.50"),
        (Fraction(1, 20), "0.05"),
        (Fraction(-1, 2), "-0.50"),
        (Fraction(-201, 100), "-2.01"),
        (Fraction(25, 3), "25/3"),
        (Fraction(-25, 3), "-25/3"),
        (Fraction(1, 1000), "1/1000"),
    ],
)
def test_format_money(amount: Fraction, text: str) -> None:
    assert format_money(amount) == text


@given(
    st.fractions(min_value=Fraction(1, 10**4), max_value=Fraction(10**9), max_denominator=10**4),
)
def test_format_then_parse_is_exact(amount: Fraction) -> None:
    assert parse_money(format_money(amount)) == amount
