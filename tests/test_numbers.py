"""The one text form of an exact number."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from hazard.core.numbers import fraction_text


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
