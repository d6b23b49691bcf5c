"""Exact numbers as text: the one written form of a :class:`~fractions.Fraction` everywhere in hazard.

Odds, probabilities, expected values and sums of money in records and JSON are all written ``a/b`` in lowest
terms, whole numbers included (``1/1``), so that a reader never has to guess which form a figure is in.

>>> fraction_text(Fraction(3, 2)), fraction_text(Fraction(1)), fraction_text(Fraction(-7, 495))
('3/2', '1/1', '-7/495')
"""

from __future__ import annotations

from fractions import Fraction

__all__ = ["fraction_text"]


def fraction_text(value: Fraction) -> str:
    """``value`` written ``a/b`` in lowest terms (``1/1`` for one)."""
    return f"{value.numerator}/{value.denominator}"
