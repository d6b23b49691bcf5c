"""Money at the table: exact amounts (odds such as 4/5 make fractions of a unit), read and written for people.

>>> parse_money("2.50"), parse_money("£10"), parse_money("25/3")
(Fraction(5, 2), Fraction(10, 1), Fraction(25, 3))
>>> format_money(Fraction(5, 2)), format_money(Fraction(10)), format_money(Fraction(25, 3))
('2.50', '10', '25/3')
"""

from __future__ import annotations

import re
from fractions import Fraction

from hazard.core.errors import InvalidError

__all__ = ["format_money", "parse_money"]

_AMOUNT = re.compile(r"^\s*[£$€]?\s*([0-9]+(?:\.[0-9]+)?|[0-9]+\s*/\s*[0-9]+)\s*$")


def parse_money(text: str, *, what: str = "amount", allow_zero: bool = False) -> Fraction:
    """Read an amount written ``10``, ``2.50``, ``£10`` or ``25/3``; it must be above 0 (or 0 if allowed)."""
    match = _AMOUNT.match(text)
    if match is None:
        raise InvalidError(f"invalid {what} {text!r}: expected a sum such as 10, 2.50 or 25/3")
    try:
        amount = Fraction(match.group(1).replace(" ", ""))
    except ZeroDivisionError:
        raise InvalidError(f"invalid {what} {text!r}: a fraction cannot divide by 0") from None
    if amount < 0 or (amount == 0 and not allow_zero):
        raise InvalidError(f"invalid {what} {text!r}: expected more than 0")
    return amount


def format_money(amount: Fraction) -> str:
    """Whole sums as ``10``, sums in hundredths as ``2.50``, anything else as an exact fraction ``25/3``."""
    if amount.denominator == 1:
        return str(amount.numerator)
    cents = amount * 100
    if cents.denominator == 1:
        sign = "-" if amount < 0 else ""
        whole, part = divmod(abs(cents.numerator), 100)
        return f"{sign}{whole}.{part:02d}"
    return f"{amount.numerator}/{amount.denominator}"
