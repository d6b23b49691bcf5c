"""The one text form of an exact number, the one reader of a number written as text, and readable forms."""

from __future__ import annotations

import re
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from tests.bounds import within_cpu

from hazard.core.errors import InvalidError, quoted
from hazard.core.numbers import (
    EXPECTED_NUMBER,
    MAX_DENOMINATOR,
    MAX_NUMBER_TEXT,
    MAX_NUMERATOR,
    bounded_fraction,
    fraction_text,
    parse_fraction,
    parse_whole,
    readable_fraction,
)


@pytest.mark.parametrize(
    ("value", "text"),
    [
        (Fraction(3, 2), "3/2"),
        (Fraction(1), "1/1"),
        (Fraction(5, 6), "5/6"),
        (Fraction(2), "2/1"),
        (Fraction(8, 6), "4/3"),
        (Fraction(-7, 495), "-7/495"),
        (Fraction(0), "0/1"),
    ],
)
def test_fraction_text(value: Fraction, text: str) -> None:
    assert fraction_text(value) == text


@given(st.fractions())
def test_fraction_text_reads_back_exactly(value: Fraction) -> None:
    assert Fraction(fraction_text(value)) == value


# --- the one reader of a number written as text ---------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("2", Fraction(2)),
        ("0", Fraction(0)),
        ("-3", Fraction(-3)),
        ("2.5", Fraction(5, 2)),
        ("0.125", Fraction(1, 8)),
        ("3/2", Fraction(3, 2)),
        ("6/4", Fraction(3, 2)),
        (" 3 / 2 ", Fraction(3, 2)),
        ("-1/2", Fraction(-1, 2)),
        ("1000000000000", Fraction(MAX_NUMERATOR)),
        ("1/1000000000", Fraction(1, MAX_DENOMINATOR)),
        ("2.500000000000", Fraction(5, 2)),  # twelve places, but 5/2 in lowest terms
        ("0" * 60 + "7", Fraction(7)),
    ],
)
def test_parse_fraction_reads(text: str, value: Fraction) -> None:
    assert parse_fraction(text, what="odds") == value


@pytest.mark.parametrize(
    ("text", "why"),
    [
        ("1e400", ", without an exponent"),
        ("1e1000000000", ", without an exponent"),  # Fraction() would compute a billion-digit integer
        ("1E5", ", without an exponent"),
        ("2.5e-3", ", without an exponent"),
        ("²", " in ASCII digits (0-9)"),
        ("٣", " in ASCII digits (0-9)"),
        ("⑦", " in ASCII digits (0-9)"),
        ("½", " in ASCII digits (0-9)"),
        ("3/٢", " in ASCII digits (0-9)"),
        ("1" * 65, f", at most {MAX_NUMBER_TEXT} characters"),
        ("1000000000001", ", at most 10^12 in size, with a denominator of at most 10^9"),
        ("-1000000000001", ", at most 10^12 in size, with a denominator of at most 10^9"),
        ("1/1000000001", ", at most 10^12 in size, with a denominator of at most 10^9"),
        ("0.0000000001", ", at most 10^12 in size, with a denominator of at most 10^9"),
        ("1/0", ", with a denominator of 1 or more"),
        ("", ""),
        (" ", ""),
        ("x", ""),
        ("inf", ""),
        ("nan", ""),
        ("1_000", ""),
        (".5", ""),
        ("5.", ""),
        ("+1", ""),
        ("--1", ""),
        ("2.5/3", ""),
        ("3/2/1", ""),
        ("0x10", ""),
        ("1 2", ""),
    ],
)
def test_parse_fraction_refuses(text: str, why: str) -> None:
    with within_cpu(0.1, "the refusal"), pytest.raises(InvalidError) as info:
        parse_fraction(text, what="nick")
    assert str(info.value) == f"invalid nick {quoted(text)}: expected {EXPECTED_NUMBER}{why}"


def test_parse_fraction_says_what_the_caller_expected() -> None:
    with pytest.raises(InvalidError, match=r"^invalid stake 'lots': expected a sum such as 5 or 2\.50$"):
        parse_fraction("lots", what="stake", expected="a sum such as 5 or 2.50")


def test_parse_fraction_quotes_a_long_text_short() -> None:
    with pytest.raises(InvalidError) as info:
        parse_fraction("9" * 100_000, what="odds")
    assert "(100,000 characters)" in str(info.value)
    assert len(str(info.value)) < 250


def test_parse_fraction_refuses_what_is_not_text() -> None:
    with pytest.raises(InvalidError, match=r"expected .* as text"):
        parse_fraction(3, what="odds")  # type: ignore[arg-type]


@given(
    st.fractions(min_value=-MAX_NUMERATOR, max_value=MAX_NUMERATOR, max_denominator=MAX_DENOMINATOR).filter(
        lambda value: abs(value.numerator) <= MAX_NUMERATOR
    )
)
def test_parse_fraction_reads_fraction_text_back(value: Fraction) -> None:
    assert parse_fraction(fraction_text(value), what="odds") == value


def test_bounded_fraction() -> None:
    assert bounded_fraction(7, what="nick") == 7
    assert bounded_fraction(Fraction(3, 2), what="nick") == Fraction(3, 2)
    for value in (MAX_NUMERATOR + 1, -(MAX_NUMERATOR + 1), 10**5000, Fraction(1, MAX_DENOMINATOR + 1)):
        with pytest.raises(InvalidError, match="at most 10\\^12 in size"):
            bounded_fraction(value, what="nick")
    for value in (True, 1.5, "3"):
        with pytest.raises(InvalidError, match=f"^invalid nick {re.escape(quoted(value))}: expected"):
            bounded_fraction(value, what="nick")  # type: ignore[arg-type]


def test_a_huge_integer_is_sized_not_written() -> None:
    with pytest.raises(InvalidError) as info:
        bounded_fraction(10**5000, what="nick")  # Python will not write it: over 4,300 digits
    assert "<an integer of about 5,001 digits>" in str(info.value)


@pytest.mark.parametrize(
    ("text", "value"), [("0", 0), ("7", 7), (" 12 ", 12), ("1000000000000", MAX_NUMERATOR)]
)
def test_parse_whole_reads(text: str, value: int) -> None:
    assert parse_whole(text, what="count") == value


@pytest.mark.parametrize(
    ("text", "why"),
    [
        ("3/2", ", not a fraction"),
        ("2.5", ", not a fraction"),
        ("-1", ", 0 or more"),
        ("4/2", ", 0 or more"),  # 2 as a number, but not written as a whole number
        ("1000000000001", ", at most 1,000,000,000,000"),
        ("٣", " in ASCII digits (0-9)"),
        ("1e9", ", without an exponent"),
        ("seven", ""),
    ],
)
def test_parse_whole_refuses(text: str, why: str) -> None:
    with pytest.raises(InvalidError) as info:
        parse_whole(text, what="count")
    assert str(info.value) == f'invalid count {quoted(text)}: expected a whole number such as "7"{why}'


def test_parse_whole_takes_a_smaller_maximum() -> None:
    assert parse_whole("100", what="count", maximum=100) == 100
    with pytest.raises(InvalidError, match=r"at most 100$"):
        parse_whole("101", what="count", maximum=100)


# Texts near numbers: digits of several scripts, the signs and marks Python's readers accept, and numbers
# too long or too large, mixed with anything else.
_NEAR_NUMBERS = st.one_of(
    st.text(alphabet="0123456789/. -+eE_²٣⑦½", max_size=30),
    st.text(max_size=30),
    st.builds(
        lambda digits, mark, more: digits + mark + more,
        st.text(alphabet="0123456789", min_size=1, max_size=80),
        st.sampled_from(["", "/", ".", "e", " / ", "e1000000000", "/0"]),
        st.text(alphabet="0123456789", max_size=80),
    ),
)


def _number_or_message(text: str) -> Fraction | str:
    try:
        return parse_fraction(text, what="odds")
    except InvalidError as error:
        return str(error)


def check_number_text(text: str) -> None:
    """What the fuzz tests assert of any text: a bounded number, or one InvalidError; at once either way."""
    with within_cpu(2.0, "reading the number"):
        value = _number_or_message(text)
        if isinstance(value, str):
            assert "\n" not in value
            assert len(value) < 300
        else:
            assert abs(value.numerator) <= MAX_NUMERATOR
            assert value.denominator <= MAX_DENOMINATOR
            assert parse_fraction(fraction_text(value), what="odds") == value
        try:
            whole = parse_whole(text, what="count")
        except InvalidError:
            pass
        else:
            assert 0 <= whole <= MAX_NUMERATOR


@settings(derandomize=True, database=None, max_examples=300, deadline=None)
@given(_NEAR_NUMBERS)
def test_fuzz_any_text_is_a_bounded_number_or_one_invalid_error(text: str) -> None:
    check_number_text(text)


# --- readable forms ------------------------------------------------------------------------------------


def test_readable_fraction_is_exact_when_short() -> None:
    assert readable_fraction(Fraction(91, 216)) == "91/216"
    assert readable_fraction(Fraction(-17, 108)) == "-17/108"
    assert readable_fraction(Fraction(10**18, 10**18 + 1)) == "1000000000000000000/1000000000000000001"


def test_readable_fraction_is_a_decimal_when_long() -> None:
    value = 1 - Fraction(35, 36) ** 1000  # 1,557 digits over 1,557
    text = readable_fraction(value)
    assert text == "≈ 0.999999999999 (exact: 1,557 digits over 1,557)"
    assert (
        readable_fraction(-(Fraction(1, 36) ** 1000)) == "≈ -4.98309575584e-1557 (exact: 1 digit over 1,557)"
    )
    assert readable_fraction(Fraction(2, 3), limit=2) == "≈ 0.666666666667 (exact: 1 digit over 1)"


def test_readable_fraction_writes_what_python_will_not() -> None:
    huge = Fraction(10**5000 + 1, 3)  # more than 4,300 digits: fraction_text would raise
    assert readable_fraction(huge) == "≈ 3.33333333333e+4999 (exact: 5,001 digits over 1)"
