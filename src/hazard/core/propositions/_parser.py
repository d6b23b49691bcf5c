"""Reading side bets in words: the proposition grammar of :mod:`hazard.core.propositions`, over the set
grammar of ``_grammar``.

Each form is checked as the value types check it (sets that overlap, no throws, a bet that cannot lose)
before the value is built, so that a message names the text as it was written.
"""

from __future__ import annotations

from hazard.core.errors import InvalidError, quoted
from hazard.core.propositions._grammar import _NEGATIONS, _join, _number, _parse_set, _Reason, _tokens, _words
from hazard.core.propositions._types import (
    Before,
    Next,
    Not,
    Proposition,
    RollSet,
    Within,
    _certainty_reason,
    _overlap_reason,
    _throws_reason,
)

_FILLER = frozenset(
    _words(
        "the a an any will would shall caster shooter he she they is be shows show comes come up "
        "number numbers total totals that of does do on"
    )
)
_VERBS = frozenset(_words("throw throws throwing thrown roll rolls rolling rolled cast casts casting"))
_UNITS = frozenset(_words("throw throws roll rolls cast casts"))
_WITHIN = frozenset(_words("within in"))
_EXPECTED_FORM = "expected 'A before B', 'A within N throws' or 'next A'"


def _check(reason: str | None) -> None:
    if reason is not None:
        raise _Reason(reason)


def _strip_verbs(tokens: list[str]) -> list[str]:
    while tokens and tokens[0] in _VERBS:
        tokens = tokens[1:]
    return tokens


def _roll_set(tokens: list[str], where: str) -> RollSet:
    rolls, name = _parse_set(_strip_verbs(tokens), where)
    return RollSet(rolls, name)


def _body(tokens: list[str]) -> tuple[list[str], int]:
    """The words that matter, without filler and leading verbs, and how many negations came first."""
    if tokens[:2] == ["even", "money"]:
        tokens = tokens[2:]
    tokens = [token for token in tokens if token not in _FILLER]
    negations = 0
    while tokens and tokens[0] in _NEGATIONS:
        negations += 1
        tokens = tokens[1:]
    tokens = _strip_verbs(tokens)
    if not tokens:
        raise _Reason(f"nothing to bet on ({_EXPECTED_FORM})")
    # "within the next 3 throws": that "next" belongs to "within".
    for index in range(len(tokens) - 1):
        if tokens[index] in _WITHIN and tokens[index + 1] == "next":
            tokens = tokens[: index + 1] + tokens[index + 2 :]
            break
    return tokens, negations


def _form(tokens: list[str]) -> str:
    """Which of the three forms the words take: ``before``, ``within`` or ``next``."""
    forms = [
        word
        for word, present in (
            ("before", "before" in tokens),
            ("within", any(token in _WITHIN for token in tokens)),
            ("next", "next" in tokens),
        )
        if present
    ]
    if not forms:
        raise _Reason(_EXPECTED_FORM)
    if len(forms) > 1:
        raise _Reason(f"combines {_join([repr(f) for f in forms], 'and')}: {_EXPECTED_FORM}")
    return forms[0]


def _before(tokens: list[str]) -> Before:
    if tokens.count("before") > 1:
        raise _Reason(f"'before' appears {tokens.count('before')} times: {_EXPECTED_FORM}")
    at = tokens.index("before")
    first = _roll_set(tokens[:at], "before 'before'")
    second = _roll_set(tokens[at + 1 :], "after 'before'")
    _check(_overlap_reason(first, second))
    return Before(first, second)


def _within(tokens: list[str], *, negated: bool) -> Within:
    places = [index for index, token in enumerate(tokens) if token in _WITHIN]
    if len(places) > 1:
        raise _Reason(f"'within' or 'in' appears {len(places)} times: {_EXPECTED_FORM}")
    at = places[0]
    word = tokens[at]
    target = _roll_set(tokens[:at], f"before {quoted(word)}")
    count = tokens[at + 1 :]
    if count and count[-1] in _UNITS:
        count = count[:-1]
    throws = _number(count[0]) if len(count) == 1 else None
    if throws is None:
        found = f"found {quoted(' '.join(tokens[at + 1 :]))}" if tokens[at + 1 :] else "found nothing"
        raise _Reason(f"expected a number of throws after {quoted(word)}, such as '3 throws', {found}")
    _check(_throws_reason(throws))
    _check(_certainty_reason(target, negated=negated))
    return Within(target, throws)


def _next(tokens: list[str], *, negated: bool) -> Next:
    at = tokens.index("next")
    if tokens.count("next") > 1:
        raise _Reason(f"'next' appears {tokens.count('next')} times: {_EXPECTED_FORM}")
    if at == 0:
        target = _roll_set(tokens[1:], "after 'next'")
    else:
        rest = tokens[at + 1 :]
        if any(token not in _VERBS for token in rest):
            raise _Reason(f"unexpected {quoted(' '.join(rest))} after 'next': {_EXPECTED_FORM}")
        target = _roll_set(tokens[:at], "before 'next'")
    _check(_certainty_reason(target, negated=negated))
    return Next(target)


def _parse(tokens: list[str]) -> Proposition:
    tokens, negations = _body(tokens)
    negated = negations % 2 == 1
    form = _form(tokens)
    proposition: Proposition
    if form == "before":
        proposition = _before(tokens)
    elif form == "within":
        proposition = _within(tokens, negated=negated)
    else:
        proposition = _next(tokens, negated=negated)
    return Not(proposition) if negated else proposition


def parse_proposition(text: str) -> Proposition:
    """Read a side bet in words; an :class:`InvalidError` names the text and what was expected.

    A bet that cannot lose, or cannot win, is refused: it is no bet.

    >>> str(parse_proposition("Any number below 7 before throwing any number above 7"))
    'below 7 before above 7'
    >>> str(parse_proposition("Even money the Caster will throw 2, 3 ,11 or 12 in three rolls"))
    '2, 3, 11 or 12 within 3 throws'
    >>> str(parse_proposition("not not next throw is seven"))
    'next 7'
    >>> parse_proposition("4 or 13 before 7")
    Traceback (most recent call last):
    ...
    hazard.core.errors.InvalidError: invalid proposition '4 or 13 before 7': 13 is not a total of two dice (expected 2 to 12)
    >>> parse_proposition("not next 2 or more")
    Traceback (most recent call last):
    ...
    hazard.core.errors.InvalidError: invalid proposition 'not next 2 or more': every throw is 2 or more, so the bet can never win
    """  # noqa: E501
    if not isinstance(text, str):
        raise InvalidError(f"invalid proposition {quoted(text)}: expected text")
    try:
        return _parse(_tokens(text))
    except _Reason as reason:
        raise InvalidError(f"invalid proposition {quoted(text)}: {reason}") from None


def parse_roll_set(text: str) -> RollSet:
    """Read a set of throws alone: ``"4 or 10"``, ``"any odd number"``, ``"below 7"``, ``"doublets"``.

    >>> parse_roll_set("two, three or twelve")
    RollSet('2, 3 or 12')
    """
    if not isinstance(text, str):
        raise InvalidError(f"invalid set of throws {quoted(text)}: expected text")
    try:
        tokens = [token for token in _tokens(text) if token not in _FILLER]
        return _roll_set(tokens, "in the set")
    except _Reason as reason:
        raise InvalidError(f"invalid set of throws {quoted(text)}: {reason}") from None
