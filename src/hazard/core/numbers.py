"""Exact numbers as text: the one written form of a :class:`~fractions.Fraction` everywhere in hazard, and
the one reader of a number that a person typed or a file holds.

Odds, probabilities, expected values and sums of money in records and JSON are all written ``a/b`` in lowest
terms, whole numbers included (``1/1``), so that a reader never has to guess which form a figure is in.

>>> fraction_text(Fraction(3, 2)), fraction_text(Fraction(1)), fraction_text(Fraction(-7, 495))
('3/2', '1/1', '-7/495')

:func:`parse_fraction` reads a whole number, a decimal or ``a/b``, and nothing else: Python's own readers take
far more (``Fraction("1e1000000000")`` computes a billion-digit integer, ``int("٣")`` is 3), so every number
read from text in hazard goes through this one, whose cost is bounded by the length of the text it accepts.

>>> parse_fraction("3/2", what="odds"), parse_fraction("2.5", what="odds"), parse_fraction("7", what="odds")
(Fraction(3, 2), Fraction(5, 2), Fraction(7, 1))
>>> parse_fraction("1e400", what="odds")
Traceback (most recent call last):
...
hazard.core.errors.InvalidError: invalid odds '1e400': expected a number such as "3/2", "2.5" or "2", without an exponent
"""  # noqa: E501

from __future__ import annotations

import re
from decimal import Context, Decimal
from fractions import Fraction

from hazard.core.errors import InvalidError, quoted

__all__ = [
    "MAX_DENOMINATOR",
    "MAX_NUMBER_TEXT",
    "MAX_NUMERATOR",
    "bounded_fraction",
    "check_whole",
    "fraction_text",
    "parse_fraction",
    "parse_whole",
    "readable_fraction",
]

MAX_NUMBER_TEXT = 64
"""The most characters a number may be written in, spaces included."""

MAX_NUMERATOR = 10**12
"""The largest size of a number read (the numerator in lowest terms, whatever its sign).

A trillion: more than any odds a paytable prints, any stake or bankroll a table holds (in units of its
smallest coin), or any count a game keeps; yet products and sums of a few such numbers stay small
integers, so every figure computed from them stays cheap to compute and short to write.
"""

MAX_DENOMINATOR = 10**9
"""The largest denominator of a number read, in lowest terms: nine decimal places, or odds such as
``"999999999/1000"``."""

EXPECTED_NUMBER = 'a number such as "3/2", "2.5" or "2"'
"""What :func:`parse_fraction` says it expected, unless the caller says better."""

# A whole number, a decimal or a fraction, in ASCII digits only (re.ASCII keeps \d and \s to ASCII): no
# exponent, no underscores, no "inf", no leading "." or trailing "."; spaces are allowed around the text
# and around "/".
_NUMBER = re.compile(r"\s*(-?)(\d+)(?:\.(\d+)|\s*/\s*(\d+))?\s*", re.ASCII)
_WHOLE = re.compile(r"\s*(\d+)\s*", re.ASCII)
_EXPONENT = re.compile(r"\d[eE][-+]?\d", re.ASCII)


def fraction_text(value: Fraction) -> str:
    """``value`` written ``a/b`` in lowest terms (``1/1`` for one)."""
    return f"{value.numerator}/{value.denominator}"


def _why(text: str) -> str:
    """Why ``text``, which is not a number as this module writes one, is not: a few words after ``expected
    ...``, or nothing where the expected form says it all."""
    if len(text) > MAX_NUMBER_TEXT:
        return f", at most {MAX_NUMBER_TEXT} characters"
    if any(char.isnumeric() and not char.isascii() for char in text):
        return " in ASCII digits (0-9)"
    if _EXPONENT.search(text):
        return ", without an exponent"
    return ""


_BOUNDS = (
    f"at most 10^{len(str(MAX_NUMERATOR)) - 1} in size, with a denominator of at most "
    f"10^{len(str(MAX_DENOMINATOR)) - 1}"
)


def bounded_fraction(value: int | Fraction, *, what: str, expected: str = EXPECTED_NUMBER) -> Fraction:
    """``value`` as a :class:`Fraction`, if its numerator is at most :data:`MAX_NUMERATOR` in size and its
    denominator at most :data:`MAX_DENOMINATOR` (in lowest terms); else an :class:`InvalidError` naming
    ``what``. For numbers that come as numbers (a TOML or JSON integer) rather than as text.

    >>> bounded_fraction(2, what="nick")
    Fraction(2, 1)
    >>> bounded_fraction(10**13, what="nick")
    Traceback (most recent call last):
    ...
    hazard.core.errors.InvalidError: invalid nick 10000000000000: expected a number such as "3/2", "2.5" or "2", at most 10^12 in size, with a denominator of at most 10^9
    """  # noqa: E501
    if isinstance(value, bool) or not isinstance(value, int | Fraction):
        raise InvalidError(f"invalid {what} {quoted(value)}: expected {expected}")
    number = Fraction(value)
    if abs(number.numerator) > MAX_NUMERATOR or number.denominator > MAX_DENOMINATOR:
        raise InvalidError(f"invalid {what} {quoted(value)}: expected {expected}, {_BOUNDS}")
    return number


def parse_fraction(
    text: str,
    *,
    what: str,
    expected: str = EXPECTED_NUMBER,
    most: int | None = MAX_NUMERATOR,
    finest: int | None = MAX_DENOMINATOR,
) -> Fraction:
    """Read a number written as a whole number (``"2"``, ``"-3"``), a decimal (``"2.5"``) or a fraction
    (``"3/2"``, ``"3 / 2"``), in ASCII digits, in at most :data:`MAX_NUMBER_TEXT` characters, and within
    :func:`bounded_fraction`'s bounds.

    Anything else is one :class:`InvalidError` that names ``what``, quotes the text (cut short if long) and
    says ``expected`` and why the text is not it: other scripts' digits (``"٣"``, ``"²"``), an exponent
    (``"1e400"``), a zero denominator, too many characters, too large a number. The work done is bounded by
    the length limit, whatever the text. The bounds are the caller's: ``most`` (the largest numerator in
    size) and ``finest`` (the largest denominator), each None where the caller checks its own (a sum of
    money, in its own unit, after its own forms).

    >>> parse_fraction(" 10 / 4 ", what="odds"), parse_fraction("-0.125", what="stake")
    (Fraction(5, 2), Fraction(-1, 8))
    >>> parse_fraction("٣", what="total")
    Traceback (most recent call last):
    ...
    hazard.core.errors.InvalidError: invalid total '٣': expected a number such as "3/2", "2.5" or "2" in ASCII digits (0-9)
    """  # noqa: E501
    if not isinstance(text, str):
        raise InvalidError(f"invalid {what} {quoted(text)}: expected {expected} as text")
    match = _NUMBER.fullmatch(text) if len(text) <= MAX_NUMBER_TEXT else None
    if match is None:
        raise InvalidError(f"invalid {what} {quoted(text)}: expected {expected}{_why(text)}")
    sign, whole, decimals, denominator = match.groups()
    if denominator is not None:
        if int(denominator) == 0:
            raise InvalidError(
                f"invalid {what} {quoted(text)}: expected {expected}, with a denominator of 1 or more"
            )
        number = Fraction(int(whole), int(denominator))
    elif decimals is not None:
        number = Fraction(int(whole + decimals), 10 ** len(decimals))
    else:
        number = Fraction(int(whole))
    if sign:
        number = -number
    if (most is not None and abs(number.numerator) > most) or (
        finest is not None and number.denominator > finest
    ):
        bounds = _BOUNDS if (most, finest) == (MAX_NUMERATOR, MAX_DENOMINATOR) else _bounds(most, finest)
        raise InvalidError(f"invalid {what} {quoted(text)}: expected {expected}, {bounds}")
    return number


def _bounds(most: int | None, finest: int | None) -> str:
    parts = [] if most is None else [f"at most {most:,} in size"]
    return ", ".join([*parts, *([] if finest is None else [f"with a denominator of at most {finest:,}"])])


def parse_whole(
    text: str,
    *,
    what: str,
    expected: str | None = None,
    low: int = 0,
    maximum: int = MAX_NUMERATOR,
    says_bounds: bool = False,
) -> int:
    """Read a whole number from ``low`` to ``maximum`` (the caller's bounds) in ASCII digits, bounded in
    length as :func:`parse_fraction` is; anything else (a sign, a fraction, a decimal, another script's
    digits, a number out of bounds) is one :class:`InvalidError` naming ``what`` and saying ``expected`` and
    why: which bound, or that it is no fraction, unless ``says_bounds`` (the caller's ``expected`` states
    the bounds itself, as ``a whole number from 1 to 65535`` does).

    >>> parse_whole("12", what="number of throws")
    12
    >>> parse_whole("⑦", what="total")
    Traceback (most recent call last):
    ...
    hazard.core.errors.InvalidError: invalid total '⑦': expected a whole number such as "7" in ASCII digits (0-9)
    >>> parse_whole("0", what="--port", low=1, maximum=65535, expected="a port from 1 to 65535", says_bounds=True)
    Traceback (most recent call last):
    ...
    hazard.core.errors.InvalidError: invalid --port '0': expected a port from 1 to 65535
    """  # noqa: E501
    said = says_bounds
    expected = expected if expected is not None else 'a whole number such as "7"'
    match = _WHOLE.fullmatch(text) if isinstance(text, str) and len(text) <= MAX_NUMBER_TEXT else None
    if match is None:
        number = parse_fraction(
            text, what=what, expected=expected, most=None, finest=None
        )  # raises, saying why
        why = "" if said else ", not a fraction" if number.denominator != 1 else f", {low} or more"
        raise InvalidError(f"invalid {what} {quoted(text)}: expected {expected}{why}")
    digits = match.group(1).lstrip("0") or "0"
    # The digits are counted before int(), so no length of text reaches it.
    value = int(digits) if len(digits) <= len(str(maximum)) else maximum + 1
    if value > maximum or value < low:
        why = "" if said else f", at most {maximum:,}" if value > maximum else f", {low} or more"
        raise InvalidError(f"invalid {what} {quoted(text)}: expected {expected}{why}")
    return value


def check_whole(value: int, *, what: str, low: int, high: int, expected: str) -> int:
    """``value``, a whole number that came as a number (a path's, a caller's), if it is from ``low`` to
    ``high``; else the refusal :func:`parse_whole` gives the same number typed: ``invalid WHAT 'N': expected
    EXPECTED``.

    >>> check_whole(0, what="game", low=1, high=9, expected="a game number from 1 to 9")
    Traceback (most recent call last):
    ...
    hazard.core.errors.InvalidError: invalid game '0': expected a game number from 1 to 9
    """
    if not low <= value <= high:
        big = value.bit_length() > 256  # str() of 4,300 digits is refused
        raise InvalidError(
            f"invalid {what} {'too large' if big else quoted(str(value))}: expected {expected}"
        )
    return value


def _digits(number: int) -> int:
    """How many decimal digits ``number`` has, without writing it."""
    return Decimal(abs(number)).adjusted() + 1 if number else 1


# Twelve significant digits: enough to tell apart any two probabilities a person would compare.
_READABLE = Context(prec=12)


def readable_fraction(value: Fraction, *, limit: int = 40) -> str:
    """``value`` as :func:`fraction_text` writes it where that takes at most ``limit`` characters; else as a
    decimal of twelve significant digits and the size of the exact fraction, which is then too long to read
    (hundreds of digits) and is left to the machine forms (JSON, records).

    >>> readable_fraction(Fraction(91, 216))
    '91/216'
    >>> readable_fraction(1 - Fraction(35, 36) ** 100)
    '≈ 0.940220213686 (exact: 156 digits over 156)'
    >>> readable_fraction(Fraction(1, 36) ** 100)
    '≈ 2.34287934314e-156 (exact: 1 digit over 156)'
    """
    # Sized before written: Python refuses to write an integer of more than 4,300 digits.
    top, bottom = _digits(value.numerator), _digits(value.denominator)
    if top + bottom + (value < 0) + 1 <= limit:
        return fraction_text(value)
    decimal = _READABLE.divide(Decimal(value.numerator), Decimal(value.denominator))
    return f"≈ {decimal:g} (exact: {top:,} digit{'' if top == 1 else 's'} over {bottom:,})"
