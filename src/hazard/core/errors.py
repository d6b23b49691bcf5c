"""Errors raised by the rules engine, and how a message quotes the input it refuses.

Every error is a :class:`ValueError`, split by cause as in python-chess: an :class:`InvalidError` is input
that is malformed whatever the state (a roll ``7-1``, a ruleset with a main of 13), an :class:`IllegalError`
is well-formed input that the current state does not allow (calling a main once the chance is set). Each
message names the input and, for illegal input, the state it was refused in.

The input named is quoted with :func:`quoted`, so that a message stays one readable line whatever it
quotes: a megabyte of text, a list nested a thousand deep, an integer of ten thousand digits.
"""

from __future__ import annotations

import reprlib
from fractions import Fraction
from typing import Any

__all__ = ["QUOTE_LIMIT", "HazardError", "IllegalError", "InvalidError", "quoted"]


class HazardError(ValueError):
    """Base class of every error this package raises on bad input."""


class InvalidError(HazardError):
    """Malformed input: a roll, main, ruleset file, paytable or proposition that can never be valid."""


class IllegalError(HazardError):
    """Well-formed input that is not allowed in the current state of the round."""


QUOTE_LIMIT = 80
"""About the most characters :func:`quoted` writes of a text before it cuts it short."""

# Bits per decimal digit, to size an integer without writing it: Python refuses to write one of more than
# 4,300 digits, and writing one of a million digits would take seconds.
_BITS_PER_DIGIT = 3.321928094887362


class _Repr(reprlib.Repr):
    """``reprlib`` with limits for messages, and integers sized rather than written when they are long."""

    def __init__(self) -> None:
        super().__init__()
        self.maxlevel = 3
        self.maxlist = self.maxtuple = self.maxset = self.maxfrozenset = self.maxdeque = 6
        self.maxdict = 4
        self.maxstring = QUOTE_LIMIT
        self.maxlong = 40
        self.maxother = QUOTE_LIMIT

    def repr_int(self, x: int, level: int) -> str:
        if x.bit_length() > self.maxlong * _BITS_PER_DIGIT:
            return f"<an integer of about {int(x.bit_length() / _BITS_PER_DIGIT) + 1:,} digits>"
        return repr(x)

    def repr_Fraction(self, x: Fraction, level: int) -> str:
        bits = max(x.numerator.bit_length(), x.denominator.bit_length())
        if bits > self.maxlong * _BITS_PER_DIGIT:
            return f"<a fraction of about {int(bits / _BITS_PER_DIGIT) + 1:,} digits>"
        return str(x.numerator) if x.denominator == 1 else f"{x.numerator}/{x.denominator}"

    def repr_str(self, x: str, level: int) -> str:
        return quoted(x, limit=self.maxstring)


_REPR = _Repr()


def quoted(value: Any, *, limit: int = QUOTE_LIMIT) -> str:
    """``repr(value)`` for a message, cut short where it is long: a text after ``limit`` characters, with its
    length; a list, table or number after a few items, levels or digits.

    >>> quoted("4 or 10 before 7")
    "'4 or 10 before 7'"
    >>> quoted("9" * 1000, limit=10)
    "'9999999999'... (1,000 characters)"
    >>> quoted(10**5000), quoted([[[[[1]]]]]), quoted(True), quoted(Fraction(5, 3))
    ('<an integer of about 5,001 digits>', '[[[[...]]]]', 'True', '5/3')
    """
    if isinstance(value, str):
        if len(value) <= limit:
            return repr(value)
        return f"{value[:limit]!r}... ({len(value):,} characters)"
    return _REPR.repr(value)
