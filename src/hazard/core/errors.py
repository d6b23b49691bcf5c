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

__all__ = [
    "QUOTE_LIMIT",
    "HazardError",
    "IllegalError",
    "InvalidError",
    "plain",
    "quoted",
    "reason",
    "sentence",
]


class HazardError(ValueError):
    """Base class of every error this package raises on bad input.

    Its message names the input and the state, for a log or a terminal; :attr:`said` is the same refusal as
    a person at the table would say it, for a page.

    >>> error = IllegalError("illegal throw by Bob at the table, round: no main: only Ann throws the dice")
    >>> error.said
    'Only Ann throws the dice.'
    >>> IllegalError("illegal call 7 by Bob", said="Only Ann calls the main.").said
    'Only Ann calls the main.'
    >>> InvalidError("invalid stake 'abc': expected a sum such as 5 or 2.50").said
    "'abc' isn't a stake: type a sum such as 5 or 2.50."
    """

    def __init__(self, message: str, *, said: str | None = None) -> None:
        super().__init__(message)
        self._said = said

    @property
    def said(self) -> str:
        """The refusal in a person's words: the sentence given where the error was raised, else the reason
        its message ends with (what follows the input and the state), as a sentence."""
        return self._said if self._said is not None else plain(str(self))


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


def plain(message: str) -> str:
    """A refusal's ``message`` as a person would say it: its reason as a sentence, and for malformed input
    the input, what it is not and what to type instead.

    >>> plain("too many actions from the seat of Bob: slow down, then try again in a moment")
    'Slow down, then try again in a moment.'
    >>> plain("unknown command 'jump': expected one of sit, stake or throw")
    "'jump' isn't a command: type one of sit, stake or throw."
    >>> plain("invalid main 13: expected a total from 2 to 12")
    "13 isn't a main: type a total from 2 to 12."
    """
    why = reason(message)
    what, given = _malformed(message[: len(message) - len(why)])
    if what and why.startswith("expected "):  # "invalid stake 'x': expected a sum" -> what to type
        article = "an" if what[0] in "aeiou" else "a"
        subject = given if given and len(given) <= QUOTE_LIMIT else "that"
        return sentence(f"{subject} isn't {article} {what}: type {why.removeprefix('expected ')}")
    return sentence(why)


def reason(message: str) -> str:
    """The reason a refusal's ``message`` ends with: what follows its last ``": "`` outside brackets and
    quotes (the input and the state come before it), or the whole message if it has none.

    >>> reason("illegal pass of the dice in round (no main yet: Ann): finish the round first")
    'finish the round first'
    >>> reason("invalid stake 'a: b': expected a sum such as 5")
    'expected a sum such as 5'
    >>> reason("the record is closed")
    'the record is closed'
    """
    depth, quote, cut = 0, "", -1
    for at, char in enumerate(message):
        if quote:
            quote = "" if char == quote else quote
        elif char in "'\"" and (at == 0 or not message[at - 1].isalnum()):  # not the s of "Ann's"
            quote = char
        elif char in "([{":
            depth += 1
        elif char in ")]}":
            depth = max(0, depth - 1)
        elif char == ":" and depth == 0 and message[at + 1 : at + 2] == " ":
            cut = at + 2
    return message[cut:] if cut >= 0 else message


def _malformed(head: str) -> tuple[str, str]:
    """What a message's head says is malformed and the input as it quotes it ("invalid stake 'x': " ->
    ("stake", "'x'")), or empty texts."""
    words = head.removesuffix(": ").split(" ")
    if len(words) < 2 or words[0] not in ("invalid", "unknown"):
        return "", ""
    named = []
    for word in words[1:]:
        if not word.isalpha():
            break
        named.append(word)
    return " ".join(named), " ".join(words[1 + len(named) :])


def sentence(text: str) -> str:
    """``text`` as a sentence: its first letter a capital, a full stop at its end if it has none.

    >>> sentence("only the caster, Ann, throws the dice")
    'Only the caster, Ann, throws the dice.'
    """
    text = text.strip()
    if not text:
        return text
    return text[0].upper() + text[1:] + ("" if text[-1] in ".!?" else ".")
