"""The grammar of a set of throws (``"4 or 10"``, ``"odd"``, ``"below 7"``), and the tokenizer under it.

Both :class:`~hazard.core.propositions.RollSet`, which checks a name it is given by reading it, and the
proposition parser read sets through this one grammar, so a name means the same wherever it is written.
Errors here are :class:`_Reason`; the public functions add the text they were given.
"""

from __future__ import annotations

import operator
import re
from collections.abc import Callable, Iterable, Sequence

from hazard.core.dice import ROLLS, TOTALS, Roll
from hazard.core.errors import InvalidError, quoted
from hazard.core.numbers import parse_whole

MAX_TEXT = 500
"""The most characters a proposition or a set of throws may be written in.

The longest bet in words is well under 200 characters ("the caster will throw two, three, four, five, six,
eight, nine, ten, eleven or twelve before throwing seven"); the limit keeps what a message quotes, and what
a table keeps for each bet laid, small.
"""


class _Reason(Exception):
    """Why some text is not a proposition or a set; the public functions add the text itself."""


def _words(text: str) -> tuple[str, ...]:
    return tuple(text.split())


def _rolls_of(totals: Iterable[int]) -> frozenset[Roll]:
    wanted = set(totals)
    return frozenset(roll for roll in ROLLS if roll.total in wanted)


def _join(words: Sequence[str], last: str = "or") -> str:
    """``["2", "3", "4"]`` -> ``"2, 3 or 4"``."""
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + f" {last} " + words[-1]


_NUMBER_WORDS = {
    word: value
    for value, word in enumerate(
        _words("zero one two three four five six seven eight nine ten eleven twelve thirteen")
    )
}
_NEGATIONS = frozenset({"not", "no"})
_SEPARATORS = frozenset({",", "or"})
_ODD = frozenset(_words("odd odds"))
_EVEN = frozenset(_words("even evens"))
_DOUBLETS = frozenset(_words("doublet doublets double doubles pair pairs"))
_BELOW = frozenset(_words("below under beneath"))
_ABOVE = frozenset(_words("above over"))
_LESS = frozenset(_words("less lower smaller fewer"))
_MORE = frozenset(_words("more greater higher bigger"))
_EXPECTED_SET = (
    "a total such as '7' or 'seven', a list such as '4 or 10', 'odd', 'even', 'below 7' or 'doublets'"
)

# The sets named by one word, with their normalised names.
_NAMED: dict[str, tuple[frozenset[Roll], str]] = {
    **dict.fromkeys(_ODD, (_rolls_of(t for t in TOTALS if t % 2), "odd")),
    **dict.fromkeys(_EVEN, (_rolls_of(t for t in TOTALS if not t % 2), "even")),
    **dict.fromkeys(_DOUBLETS, (frozenset(roll for roll in ROLLS if roll.is_doublet), "doublets")),
}

# A bound, by its normalised wording: which totals it keeps, compared with its own total.
_BOUNDS: dict[str, Callable[[int, int], bool]] = {
    "below": operator.lt,
    "above": operator.gt,
    "or more": operator.ge,
    "or less": operator.le,
}
# The words written before a bound's total ("below 7", "less than 7", "at least 7") and after it
# ("7 or more"), each with the bound it means.
_BOUND_BEFORE: dict[tuple[str, ...], str] = {
    **{(word,): "below" for word in _BELOW},
    **{(word,): "above" for word in _ABOVE},
    **{(word, "than"): "below" for word in _LESS},
    **{(word, "than"): "above" for word in _MORE},
    ("at", "least"): "or more",
    ("at", "most"): "or less",
}
_BOUND_AFTER: dict[tuple[str, ...], str] = {
    **{("or", word): "or more" for word in _MORE | _ABOVE},
    **{("or", word): "or less" for word in _LESS | _BELOW},
}


def _tokens(text: str) -> list[str]:
    """Lower-case words, numbers and commas; a few contractions are spelt out.

    Digits of any script make one token (``"٣"``), for :func:`_number` to refuse as not ASCII; a character
    that is neither a letter nor a digit is a token of its own.
    """
    if len(text) > MAX_TEXT:
        raise _Reason(f"expected at most {MAX_TEXT} characters")
    text = text.lower().replace("\u2019", "'").strip().rstrip(".!?").strip()
    text = re.sub(r"\bwon't\b", "will not", text)
    text = re.sub(r"\bcan't\b", "can not", text)
    text = re.sub(r"n't\b", " not", text)
    return re.findall(r"\d+|[a-z]+|,|\S", text)


def _number(token: str) -> int | None:
    """The number ``token`` names, in ASCII digits (``"7"``) or in words (``"seven"``); None for a token that
    is no number at all; a :class:`_Reason` for a number written otherwise (``"٣"``, ``"²"``, ``"⑦"``) or
    too large to be anything a bet can mean."""
    if token in _NUMBER_WORDS:
        return _NUMBER_WORDS[token]
    if not any(char.isnumeric() for char in token):
        return None
    try:
        return parse_whole(token, what="number", expected="a number such as '7' or 'seven'")
    except InvalidError as error:
        raise _Reason(str(error).removeprefix("invalid ")) from None


def _total(token: str, where: str) -> int:
    value = _number(token)
    if value is None:
        if token in _NEGATIONS:
            raise _Reason(f"{token!r} can only begin a proposition (found {token!r} {where})")
        if token in _SEPARATORS:
            raise _Reason(f"expected a total {where}, found {token!r}")
        shown = quoted(token)
        if token in _ODD | _EVEN | _DOUBLETS | _BELOW | _ABOVE | _LESS | _MORE:
            raise _Reason(
                f"{shown} cannot be combined with other words {where} (expected a list of totals such as "
                f"'4 or 10', or one of 'odd', 'even', 'doublets', 'below N', 'above N' alone)"
            )
        if not token.isalnum():
            raise _Reason(f"unexpected {shown} {where} (expected {_EXPECTED_SET})")
        raise _Reason(f"unknown word {shown} {where} (expected {_EXPECTED_SET})")
    if value not in TOTALS:
        raise _Reason(f"{value} is not a total of two dice (expected 2 to 12)")
    return value


def _bounded(total: int, kind: str) -> tuple[frozenset[Roll], str]:
    """The totals ``kind`` (a key of ``_BOUNDS``) ``total``, and their name: ``below 7``, ``7 or more``."""
    keeps = _BOUNDS[kind]
    totals = [t for t in TOTALS if keeps(t, total)]
    if not totals:
        raise _Reason(f"no total of two dice is {kind} {total}")
    name = f"{total} {kind}" if kind.startswith("or ") else f"{kind} {total}"
    return _rolls_of(totals), name


def _parse_set(tokens: list[str], where: str) -> tuple[frozenset[Roll], str]:
    """A set of throws and its normalised name; ``where`` places it in the proposition for messages."""
    if not tokens:
        raise _Reason(f"nothing {where} (expected {_EXPECTED_SET})")
    if len(tokens) == 1 and tokens[0] in _NAMED:
        return _NAMED[tokens[0]]
    kind = _BOUND_BEFORE.get(tuple(tokens[:-1]))
    if kind is not None:
        return _bounded(_total(tokens[-1], where), kind)
    kind = _BOUND_AFTER.get(tuple(tokens[1:]))
    if kind is not None:
        return _bounded(_total(tokens[0], where), kind)
    bounds = _BELOW | _ABOVE | _LESS | _MORE
    if tokens[0] in bounds or tokens[0] == "at" or (len(tokens) > 1 and tokens[-1] in bounds):
        raise _Reason(
            f"expected 'below N', 'above N', 'less than N', 'more than N', 'at least N', 'at most N', "
            f"'N or more' or 'N or less' {where}, found {' '.join(tokens)!r}"
        )
    return _list_of_totals(tokens, where)


def _list_of_totals(tokens: list[str], where: str) -> tuple[frozenset[Roll], str]:
    """Totals separated by ``,``, ``or`` or ``, or``: ``2, 3, 11 or 12``."""
    totals: set[int] = set()
    item: list[str] = []
    for index, token in enumerate([*tokens, ","]):
        if token not in _SEPARATORS:
            item.append(token)
            continue
        if token == "or" and index > 0 and tokens[index - 1] == "," and not item:
            continue
        if not item:
            missing = "at the start of" if index == 0 else "after a separator in"
            raise _Reason(f"a total is missing {missing} the list {' '.join(tokens)!r} {where}")
        if len(item) > 1:
            for word in item:
                _total(word, where)
            raise _Reason(f"expected ',' or 'or' between totals, found {' '.join(item)!r} {where}")
        totals.add(_total(item[0], where))
        item = []
    return _rolls_of(totals), _join([str(t) for t in sorted(totals)])
