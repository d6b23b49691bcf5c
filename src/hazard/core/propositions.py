"""Side bets ("propositions") on a run of throws of two dice, as bystanders laid them at the Hazard table.

A proposition is about the dice alone, whatever the round is doing: *4 or 10 before 7*, *2, 3, 11 or 12
within 3 throws*, *next odd*, and the negation of any of these. Each is a small frozen value with a
normalised text form that parses back to an equal value, and a :class:`Tracker` settles one against the
throws as they come.

>>> bet = parse_proposition("the caster will throw 4 or 10 before throwing 7")
>>> bet
Before(first=RollSet('4 or 10'), second=RollSet('7'))
>>> str(bet), str(~bet)
('4 or 10 before 7', 'not 4 or 10 before 7')
>>> tracker = start(bet).advance(Roll(2, 3)).advance(Roll(6, 4))
>>> tracker.decided, tracker.throws
(True, 2)

Grammar (case-insensitive; filler such as "the caster will throw", "any", "number", "a" is ignored)::

    proposition := ("not" | "no")* body
    body        := set "before" ["throwing"] set
                 | set ("within" | "in") ["the next"] N ["throws" | "rolls" | "casts"]
                 | "next" ["throw" | "roll"] ["is"] set  |  set "on the next throw"
    set         := total ("," | "or" | ", or") total ...     e.g. "7", "4 or 10", "2, 3, 11 or 12"
                 | "odd" | "even" | "doublets" | "a pair"
                 | ("below" | "under" | "less than") total | ("above" | "over" | "more than") total
                 | total "or more" | "at least" total | total "or less" | "at most" total
    total       := 2 ... 12, in digits or words ("seven")
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import assert_never

from hazard.core.dice import ROLLS, TOTALS, Roll
from hazard.core.errors import InvalidError

__all__ = [
    "SOURCE_BETS",
    "SOURCE_EXAMPLES",
    "Before",
    "Next",
    "Not",
    "Proposition",
    "RollSet",
    "Tracker",
    "Within",
    "negate",
    "parse_proposition",
    "parse_roll_set",
    "settle",
    "start",
]


# --- sets of throws -------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True, init=False, eq=False, repr=False)
class RollSet:
    """A non-empty set of the 36 ordered throws, with its normalised name (``"4 or 10"``, ``"odd"``).

    Two sets are equal when they hold the same throws, whatever they are called: ``odd`` equals
    ``3, 5, 7, 9 or 11``. Build one from text with :func:`parse_roll_set` or with a named constructor.

    >>> RollSet.of_totals(10, 4), RollSet.below(7), RollSet.doublets()
    (RollSet('4 or 10'), RollSet('below 7'), RollSet('doublets'))
    >>> RollSet.odd() == RollSet.of_totals(3, 5, 7, 9, 11)
    True
    >>> RollSet.of_totals(4, 10).probability
    Fraction(1, 6)
    """

    rolls: frozenset[Roll]
    name: str

    def __init__(self, rolls: Iterable[Roll], name: str | None = None) -> None:
        """Hold ``rolls``, called ``name`` (checked against them), or a name made from them if None.

        Without a name the set must be whole totals or the doublets, the sets the grammar can name.
        """
        held = frozenset(rolls)
        for roll in held:
            if not isinstance(roll, Roll):
                raise InvalidError(f"invalid set of throws: {roll!r} is not a throw of two dice")
        if not held:
            raise InvalidError("invalid set of throws: it is empty, so it can never be thrown")
        if name is None:
            name = _canonical_name(held)
        else:
            try:
                named, normal = _parse_set(_tokens(name), "in the name")
            except _Reason as reason:
                raise InvalidError(f"invalid set of throws named {name!r}: {reason}") from None
            if normal != name:
                raise InvalidError(f"invalid set of throws named {name!r}: its normalised name is {normal!r}")
            if named != held:
                raise InvalidError(
                    f"invalid set of throws named {name!r}: the name means {_describe(named)}, "
                    f"not {_describe(held)}"
                )
        object.__setattr__(self, "rolls", held)
        object.__setattr__(self, "name", name)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, RollSet):
            return NotImplemented
        return self.rolls == other.rolls

    def __hash__(self) -> int:
        return hash(self.rolls)

    def __repr__(self) -> str:
        return f"RollSet({self.name!r})"

    def __str__(self) -> str:
        return self.name

    def __contains__(self, roll: object) -> bool:
        return roll in self.rolls

    @property
    def ways(self) -> int:
        """How many of the 36 ordered throws are in the set."""
        return len(self.rolls)

    @property
    def probability(self) -> Fraction:
        """The exact probability that one throw falls in the set."""
        return Fraction(len(self.rolls), len(ROLLS))

    @classmethod
    def of_totals(cls, *totals: int) -> RollSet:
        """The throws showing any of ``totals`` (``RollSet.of_totals(4, 10)`` is ``4 or 10``)."""
        for total in totals:
            _check_total(total, "invalid set of throws")
        return cls(_rolls_of(totals))

    @classmethod
    def odd(cls) -> RollSet:
        """Every odd total."""
        return cls(_rolls_of(t for t in TOTALS if t % 2), "odd")

    @classmethod
    def even(cls) -> RollSet:
        """Every even total."""
        return cls(_rolls_of(t for t in TOTALS if not t % 2), "even")

    @classmethod
    def below(cls, total: int) -> RollSet:
        """Every total under ``total`` (3 to 12)."""
        return cls._bound(total, "below")

    @classmethod
    def above(cls, total: int) -> RollSet:
        """Every total over ``total`` (2 to 11)."""
        return cls._bound(total, "above")

    @classmethod
    def at_least(cls, total: int) -> RollSet:
        """``total`` or more."""
        return cls._bound(total, "or more")

    @classmethod
    def at_most(cls, total: int) -> RollSet:
        """``total`` or less."""
        return cls._bound(total, "or less")

    @classmethod
    def doublets(cls) -> RollSet:
        """Both dice showing the same face."""
        return cls((roll for roll in ROLLS if roll.is_doublet), "doublets")

    @classmethod
    def _bound(cls, total: int, kind: str) -> RollSet:
        _check_total(total, "invalid set of throws")
        try:
            rolls, name = _bounded(total, kind)
        except _Reason as reason:
            raise InvalidError(f"invalid set of throws: {reason}") from None
        return cls(rolls, name)


def _rolls_of(totals: Iterable[int]) -> frozenset[Roll]:
    wanted = set(totals)
    return frozenset(roll for roll in ROLLS if roll.total in wanted)


def _check_total(total: int, what: str) -> None:
    if not isinstance(total, int) or isinstance(total, bool) or total not in TOTALS:
        raise InvalidError(f"{what}: {total!r} is not a total of two dice (expected 2 to 12)")


def _join(words: Sequence[str], last: str = "or") -> str:
    """``["2", "3", "4"]`` -> ``"2, 3 or 4"``."""
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + f" {last} " + words[-1]


def _full_totals(rolls: frozenset[Roll]) -> list[int]:
    return [t for t in TOTALS if all(roll in rolls for roll in ROLLS if roll.total == t)]


def _canonical_name(rolls: frozenset[Roll]) -> str:
    totals = _full_totals(rolls)
    if rolls == _rolls_of(totals):
        return _join([str(t) for t in totals])
    if rolls == frozenset(roll for roll in ROLLS if roll.is_doublet):
        return "doublets"
    raise InvalidError(
        f"invalid set of throws {_describe(rolls)}: cannot be named (expected whole totals or the doublets)"
    )


def _parts(rolls: frozenset[Roll]) -> list[str]:
    """Whole totals by number, then other throws as ``a-b``: ``["7", "2-2"]``."""
    totals = _full_totals(rolls)
    rest = sorted(rolls - _rolls_of(totals))
    return [str(t) for t in totals] + [str(roll) for roll in rest]


def _describe(rolls: frozenset[Roll]) -> str:
    """``"7 and 2-2"``."""
    return _join(_parts(rolls), "and")


# --- propositions ---------------------------------------------------------------------------------------


def _overlap_reason(first: RollSet, second: RollSet) -> str | None:
    both = first.rolls & second.rolls
    if not both:
        return None
    verb = "is" if len(_parts(both)) == 1 else "are"
    return f"{_describe(both)} {verb} on both sides, so one throw would both win and lose"


def _throws_reason(throws: int) -> str | None:
    if not isinstance(throws, int) or isinstance(throws, bool):
        return f"{throws!r} is not a number of throws (expected 1 or more)"
    if throws < 1:
        return f"within {throws} throws can never be decided (expected 1 throw or more)"
    return None


@dataclass(frozen=True, slots=True)
class Before:
    """``first`` is thrown before ``second``: throws in neither set are ignored until one comes.

    >>> str(Before(RollSet.odd(), RollSet.even()))
    'odd before even'
    """

    first: RollSet
    second: RollSet

    def __post_init__(self) -> None:
        reason = _overlap_reason(self.first, self.second)
        if reason is not None:
            raise InvalidError(f"invalid proposition {str(self)!r}: {reason}")

    def __str__(self) -> str:
        return f"{self.first} before {self.second}"

    def __invert__(self) -> Not:
        return Not(self)


@dataclass(frozen=True, slots=True)
class Within:
    """``target`` is thrown within the next ``throws`` throws (1 or more).

    >>> str(Within(RollSet.of_totals(2, 3, 11, 12), 3))
    '2, 3, 11 or 12 within 3 throws'
    """

    target: RollSet
    throws: int

    def __post_init__(self) -> None:
        reason = _throws_reason(self.throws)
        if reason is not None:
            raise InvalidError(f"invalid proposition '{self.target} within {self.throws!r} throws': {reason}")

    def __str__(self) -> str:
        return f"{self.target} within {self.throws} throw{'' if self.throws == 1 else 's'}"

    def __invert__(self) -> Not:
        return Not(self)


@dataclass(frozen=True, slots=True)
class Next:
    """The next throw falls in ``target``.

    >>> str(Next(RollSet.odd()))
    'next odd'
    """

    target: RollSet

    def __str__(self) -> str:
        return f"next {self.target}"

    def __invert__(self) -> Not:
        return Not(self)


@dataclass(frozen=True, slots=True)
class Not:
    """The negation of a proposition that is not itself a negation (``~Not(p)`` is ``p``).

    >>> bet = Not(Next(RollSet.of_totals(7)))
    >>> str(bet), ~bet
    ('not next 7', Next(target=RollSet('7')))
    """

    proposition: Proposition

    def __post_init__(self) -> None:
        if isinstance(self.proposition, Not):
            raise InvalidError(
                f"invalid proposition 'not {self.proposition}': a double negation is written as the "
                f"proposition itself (use ~ or negate())"
            )
        if not isinstance(self.proposition, Before | Within | Next):
            raise InvalidError(f"invalid proposition {self.proposition!r}: expected Before, Within or Next")

    def __str__(self) -> str:
        return f"not {self.proposition}"

    def __invert__(self) -> Proposition:
        return self.proposition


Proposition = Before | Within | Next | Not
"""Any side bet: a set before another, a set within so many throws, the next throw, or a negation."""


def negate(proposition: Proposition) -> Proposition:
    """The opposite bet, with double negation removed: ``negate(negate(p)) == p``."""
    return ~proposition


# --- settling -------------------------------------------------------------------------------------------


def _decide(proposition: Proposition, thrown: int, roll: Roll) -> bool | None:
    """What ``roll`` decides, after ``thrown`` earlier throws that decided nothing."""
    if isinstance(proposition, Before):
        if roll in proposition.first:
            return True
        return False if roll in proposition.second else None
    if isinstance(proposition, Within):
        if roll in proposition.target:
            return True
        return False if thrown + 1 >= proposition.throws else None
    if isinstance(proposition, Next):
        return roll in proposition.target
    if isinstance(proposition, Not):
        decided = _decide(proposition.proposition, thrown, roll)
        return None if decided is None else not decided
    assert_never(proposition)


@dataclass(frozen=True, slots=True)
class Tracker:
    """Where a side bet stands after some throws: ``decided`` is True (won), False (lost) or None.

    ``throws`` counts the throws taken into account; once the bet is decided further throws are ignored,
    so one throw can be fed to every open bet at a table.

    >>> tracker = start("2, 3, 11 or 12 within 2 throws")
    >>> tracker.advance(Roll(3, 4)).decided is None
    True
    >>> tracker.advance(Roll(3, 4)).advance(Roll(4, 4)).decided
    False
    """

    proposition: Proposition
    throws: int = 0
    decided: bool | None = None

    def advance(self, roll: Roll) -> Tracker:
        """The tracker after one more throw (itself, unchanged, if the bet is already decided)."""
        if self.decided is not None:
            return self
        if not isinstance(roll, Roll):
            raise InvalidError(f"invalid throw {roll!r}: expected a Roll")
        return Tracker(self.proposition, self.throws + 1, _decide(self.proposition, self.throws, roll))

    @property
    def is_decided(self) -> bool:
        """Whether the bet is settled, won or lost."""
        return self.decided is not None


def start(proposition: Proposition | str) -> Tracker:
    """A tracker for a bet just laid, before any throw (text is parsed with :func:`parse_proposition`)."""
    if isinstance(proposition, str):
        proposition = parse_proposition(proposition)
    return Tracker(proposition)


def settle(proposition: Proposition | str, rolls: Iterable[Roll]) -> bool | None:
    """Whether ``rolls``, in order, win the bet (True), lose it (False) or leave it open (None).

    >>> settle("odd before even", [Roll(1, 1), Roll(2, 5)])
    False
    """
    tracker = start(proposition)
    for roll in rolls:
        tracker = tracker.advance(roll)
        if tracker.is_decided:
            break
    return tracker.decided


# --- parsing --------------------------------------------------------------------------------------------


class _Reason(Exception):
    """Why some text is not a proposition; the public functions add the text itself."""


def _words(text: str) -> tuple[str, ...]:
    return tuple(text.split())


_NUMBER_WORDS = {
    word: value
    for value, word in enumerate(
        _words("zero one two three four five six seven eight nine ten eleven twelve thirteen")
    )
}
_FILLER = frozenset(
    _words(
        "the a an any will would shall caster shooter he she they is be shows show comes come up "
        "number numbers total totals that of does do on"
    )
)
_VERBS = frozenset(_words("throw throws throwing thrown roll rolls rolling rolled cast casts casting"))
_UNITS = frozenset(_words("throw throws roll rolls cast casts"))
_NEGATIONS = frozenset({"not", "no"})
_SEPARATORS = frozenset({",", "or"})
_ODD = frozenset({"odd", "odds"})
_EVEN = frozenset({"even", "evens"})
_DOUBLETS = frozenset({"doublet", "doublets", "double", "doubles", "pair", "pairs"})
_BELOW = frozenset({"below", "under", "beneath"})
_ABOVE = frozenset({"above", "over"})
_LESS = frozenset({"less", "lower", "smaller", "fewer"})
_MORE = frozenset({"more", "greater", "higher", "bigger"})
_WITHIN = frozenset({"within", "in"})
_EXPECTED_SET = (
    "a total such as '7' or 'seven', a list such as '4 or 10', 'odd', 'even', 'below 7' or 'doublets'"
)
_EXPECTED_FORM = "expected 'A before B', 'A within N throws' or 'next A'"


def _tokens(text: str) -> list[str]:
    """Lower-case words, numbers and commas; a few contractions are spelt out."""
    text = text.lower().replace("\u2019", "'").strip().rstrip(".!?").strip()
    text = re.sub(r"\bwon't\b", "will not", text)
    text = re.sub(r"\bcan't\b", "can not", text)
    text = re.sub(r"n't\b", " not", text)
    return re.findall(r"\d+|[a-z]+|,|\S", text)


def _number(token: str) -> int | None:
    if token.isdigit():
        return int(token)
    return _NUMBER_WORDS.get(token)


def _total(token: str, where: str) -> int:
    value = _number(token)
    if value is None:
        if token in _NEGATIONS:
            raise _Reason(f"{token!r} can only begin a proposition (found {token!r} {where})")
        if token in _SEPARATORS:
            raise _Reason(f"expected a total {where}, found {token!r}")
        if token in _ODD | _EVEN | _DOUBLETS | _BELOW | _ABOVE | _LESS | _MORE:
            raise _Reason(
                f"{token!r} cannot be combined with other words {where} (expected a list of totals such as "
                f"'4 or 10', or one of 'odd', 'even', 'doublets', 'below N', 'above N' alone)"
            )
        if not token.isalnum():
            raise _Reason(f"unexpected {token!r} {where} (expected {_EXPECTED_SET})")
        raise _Reason(f"unknown word {token!r} {where} (expected {_EXPECTED_SET})")
    if value not in TOTALS:
        raise _Reason(f"{value} is not a total of two dice (expected 2 to 12)")
    return value


def _bounded(total: int, kind: str) -> tuple[frozenset[Roll], str]:
    if kind == "below":
        totals = [t for t in TOTALS if t < total]
        name = f"below {total}"
    elif kind == "above":
        totals = [t for t in TOTALS if t > total]
        name = f"above {total}"
    elif kind == "or more":
        totals = [t for t in TOTALS if t >= total]
        name = f"{total} or more"
    else:
        totals = [t for t in TOTALS if t <= total]
        name = f"{total} or less"
    if not totals:
        raise _Reason(f"no total of two dice is {kind} {total}")
    return _rolls_of(totals), name


def _parse_set(tokens: list[str], where: str) -> tuple[frozenset[Roll], str]:
    """A set of throws and its normalised name; ``where`` places it in the proposition for messages."""
    if not tokens:
        raise _Reason(f"nothing {where} (expected {_EXPECTED_SET})")
    if len(tokens) == 1 and tokens[0] in _ODD:
        return _rolls_of(t for t in TOTALS if t % 2), "odd"
    if len(tokens) == 1 and tokens[0] in _EVEN:
        return _rolls_of(t for t in TOTALS if not t % 2), "even"
    if len(tokens) == 1 and tokens[0] in _DOUBLETS:
        return frozenset(roll for roll in ROLLS if roll.is_doublet), "doublets"
    if len(tokens) == 2 and tokens[0] in _BELOW:
        return _bounded(_total(tokens[1], where), "below")
    if len(tokens) == 2 and tokens[0] in _ABOVE:
        return _bounded(_total(tokens[1], where), "above")
    if len(tokens) == 3 and tokens[1] == "than" and tokens[0] in _LESS:
        return _bounded(_total(tokens[2], where), "below")
    if len(tokens) == 3 and tokens[1] == "than" and tokens[0] in _MORE:
        return _bounded(_total(tokens[2], where), "above")
    if len(tokens) == 3 and tokens[:2] == ["at", "least"]:
        return _bounded(_total(tokens[2], where), "or more")
    if len(tokens) == 3 and tokens[:2] == ["at", "most"]:
        return _bounded(_total(tokens[2], where), "or less")
    if len(tokens) == 3 and tokens[1] == "or" and tokens[2] in _MORE | _ABOVE:
        return _bounded(_total(tokens[0], where), "or more")
    if len(tokens) == 3 and tokens[1] == "or" and tokens[2] in _LESS | _BELOW:
        return _bounded(_total(tokens[0], where), "or less")
    bounds = _BELOW | _ABOVE | _LESS | _MORE
    if tokens[0] in bounds or tokens[0] == "at" or (len(tokens) > 1 and tokens[-1] in bounds):
        raise _Reason(
            f"expected 'below N', 'above N', 'less than N', 'more than N', 'at least N', 'at most N', "
            f"'N or more' or 'N or less' {where}, found {' '.join(tokens)!r}"
        )
    # A list: totals separated by ",", "or" or ", or".
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


def _strip_verbs(tokens: list[str]) -> list[str]:
    while tokens and tokens[0] in _VERBS:
        tokens = tokens[1:]
    return tokens


def _roll_set(tokens: list[str], where: str) -> RollSet:
    rolls, name = _parse_set(_strip_verbs(tokens), where)
    return RollSet(rolls, name)


def _parse(tokens: list[str]) -> Proposition:
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
    proposition: Proposition
    if forms == ["before"]:
        if tokens.count("before") > 1:
            raise _Reason(f"'before' appears {tokens.count('before')} times: {_EXPECTED_FORM}")
        at = tokens.index("before")
        first = _roll_set(tokens[:at], "before 'before'")
        second = _roll_set(tokens[at + 1 :], "after 'before'")
        reason = _overlap_reason(first, second)
        if reason is not None:
            raise _Reason(reason)
        proposition = Before(first, second)
    elif forms == ["within"]:
        places = [index for index, token in enumerate(tokens) if token in _WITHIN]
        if len(places) > 1:
            raise _Reason(f"'within' or 'in' appears {len(places)} times: {_EXPECTED_FORM}")
        at = places[0]
        word = tokens[at]
        target = _roll_set(tokens[:at], f"before {word!r}")
        count = tokens[at + 1 :]
        if count and count[-1] in _UNITS:
            count = count[:-1]
        throws = _number(count[0]) if len(count) == 1 else None
        if throws is None:
            found = f"found {' '.join(tokens[at + 1 :])!r}" if tokens[at + 1 :] else "found nothing"
            raise _Reason(f"expected a number of throws after {word!r}, such as '3 throws', {found}")
        reason = _throws_reason(throws)
        if reason is not None:
            raise _Reason(reason)
        proposition = Within(target, throws)
    else:
        at = tokens.index("next")
        if tokens.count("next") > 1:
            raise _Reason(f"'next' appears {tokens.count('next')} times: {_EXPECTED_FORM}")
        if at == 0:
            target = _roll_set(tokens[1:], "after 'next'")
        else:
            rest = tokens[at + 1 :]
            if any(token not in _VERBS for token in rest):
                raise _Reason(f"unexpected {' '.join(rest)!r} after 'next': {_EXPECTED_FORM}")
            target = _roll_set(tokens[:at], "before 'next'")
        proposition = Next(target)
    return proposition if negations % 2 == 0 else Not(proposition)


def parse_proposition(text: str) -> Proposition:
    """Read a side bet in words; an :class:`InvalidError` names the text and what was expected.

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
    """  # noqa: E501
    if not isinstance(text, str):
        raise InvalidError(f"invalid proposition {text!r}: expected text")
    try:
        return _parse(_tokens(text))
    except _Reason as reason:
        raise InvalidError(f"invalid proposition {text!r}: {reason}") from None


def parse_roll_set(text: str) -> RollSet:
    """Read a set of throws alone: ``"4 or 10"``, ``"any odd number"``, ``"below 7"``, ``"doublets"``.

    >>> parse_roll_set("two, three or twelve")
    RollSet('2, 3 or 12')
    """
    try:
        tokens = [token for token in _tokens(text) if token not in _FILLER]
        return _roll_set(tokens, "in the set")
    except _Reason as reason:
        raise InvalidError(f"invalid set of throws {text!r}: {reason}") from None


SOURCE_BETS: tuple[str, ...] = (
    "4 or 10 before 7",
    "3 or 9 before 7",
    "3 or 5 before 7",
    "2 or 8 before 7",
    "2 or 6 before 7",
    "5 or 11 before 7",
    "6 or 12 before 7",
    "8 or 12 before 7",
    "9 or 11 before 7",
    "4 before 10",
    "5 before 9",
    "6 before 8",
    "2, 3 or 4 before 7",
    "10, 11 or 12 before 7",
    "odd before even",
    "below 7 before above 7",
)
"""The 16 "good even money bets" of ``002_e25665f301869517.txt`` (ECWS), in normalised text, in its order."""

SOURCE_EXAMPLES: tuple[str, ...] = ("2, 3, 11 or 12 within 3 throws", "next odd")
"""The two side bets the same source gives as examples of what bystanders proposed."""
