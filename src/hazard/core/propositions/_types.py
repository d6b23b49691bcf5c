"""The value types of side bets: a set of throws, the three kinds of bet and their negation.

Each validates itself and refuses whatever is not a bet: sides that overlap, no throws, a bet that can never
lose (and so its negation, which can never win).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from fractions import Fraction

from hazard.core.dice import ROLLS, TOTALS, Roll
from hazard.core.errors import InvalidError, quoted
from hazard.core.propositions._grammar import _NAMED, _bounded, _join, _parse_set, _Reason, _rolls_of, _tokens

MAX_THROWS = 1000
"""The most throws a bet ``A within N throws`` may run for.

Its exact probability, ``1 - (1 - p)**N``, has a denominator of up to ``36**N``: about 1.56 digits a throw.
At 1,000 throws that is some 1,560 digits, computed in well under a millisecond and still written out
(Python writes integers of at most 4,300 digits, which 2,770 throws would pass; a billion throws would take
hours and gigabytes). No table bet runs so long: even a single 12 (one throw in 36) comes within 1,000
throws but once in more than a trillion.
"""

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
                raise InvalidError(f"invalid set of throws: {quoted(roll)} is not a throw of two dice")
        if not held:
            raise InvalidError("invalid set of throws: it is empty, so it can never be thrown")
        if name is None:
            name = _canonical_name(held)
        elif not isinstance(name, str):
            raise InvalidError(f"invalid set of throws named {quoted(name)}: expected a name as text")
        else:
            try:
                named, normal = _parse_set(_tokens(name), "in the name")
            except _Reason as reason:
                raise InvalidError(f"invalid set of throws named {quoted(name)}: {reason}") from None
            if normal != name:
                raise InvalidError(
                    f"invalid set of throws named {quoted(name)}: its normalised name is {normal!r}"
                )
            if named != held:
                raise InvalidError(
                    f"invalid set of throws named {quoted(name)}: the name means {_describe(named)}, "
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
        return cls(*_NAMED["odd"])

    @classmethod
    def even(cls) -> RollSet:
        """Every even total."""
        return cls(*_NAMED["even"])

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
        return cls(*_NAMED["doublets"])

    @classmethod
    def _bound(cls, total: int, kind: str) -> RollSet:
        _check_total(total, "invalid set of throws")
        try:
            rolls, name = _bounded(total, kind)
        except _Reason as reason:
            raise InvalidError(f"invalid set of throws: {reason}") from None
        return cls(rolls, name)


def _check_total(total: int, what: str) -> None:
    if not isinstance(total, int) or isinstance(total, bool) or total not in TOTALS:
        raise InvalidError(f"{what}: {quoted(total)} is not a total of two dice (expected 2 to 12)")


def _full_totals(rolls: frozenset[Roll]) -> list[int]:
    return [t for t in TOTALS if all(roll in rolls for roll in ROLLS if roll.total == t)]


def _canonical_name(rolls: frozenset[Roll]) -> str:
    totals = _full_totals(rolls)
    if rolls == _rolls_of(totals):
        return _join([str(t) for t in totals])
    if rolls == _NAMED["doublets"][0]:
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

# Why a proposition is no bet, or None if it is one. The parser asks the same questions before it builds a
# value, so that its message names the text it was given.


def _overlap_reason(first: RollSet, second: RollSet) -> str | None:
    both = first.rolls & second.rolls
    if not both:
        return None
    verb = "is" if len(_parts(both)) == 1 else "are"
    return f"{_describe(both)} {verb} on both sides, so one throw would both win and lose"


def _throws_reason(throws: int) -> str | None:
    if not isinstance(throws, int) or isinstance(throws, bool):
        return f"{quoted(throws)} is not a number of throws (expected 1 to {MAX_THROWS:,})"
    if throws < 1:
        return f"within {quoted(throws)} throws can never be decided (expected 1 throw or more)"
    if throws > MAX_THROWS:
        return (
            f"within {quoted(throws)} throws is too long a bet: expected at most {MAX_THROWS:,} throws "
            "(beyond that its exact odds run to thousands of digits)"
        )
    return None


def _certainty_reason(target: RollSet, *, negated: bool) -> str | None:
    """Why betting that ``target`` comes (next, or within some throws), or with ``negated`` that it does not,
    is no bet: ``target`` holds every throw, so the first throw settles it the same way every time.

    Only a set of all 36 throws does this. ``A before B`` never does: both sides are non-empty and disjoint,
    so a throw in ``A`` wins it and a throw in ``B`` loses it.
    """
    if target.ways < len(ROLLS):
        return None
    return f"every throw is {target}, so the bet can never {'win' if negated else 'lose'}"


def _refuse(text: str, reason: str | None) -> None:
    if reason is not None:
        raise InvalidError(f"invalid proposition {text!r}: {reason}")


@dataclass(frozen=True, slots=True)
class Before:
    """``first`` is thrown before ``second``: throws in neither set are ignored until one comes.

    >>> str(Before(RollSet.odd(), RollSet.even()))
    'odd before even'
    """

    first: RollSet
    second: RollSet

    def __post_init__(self) -> None:
        _refuse(str(self), _overlap_reason(self.first, self.second))

    def __str__(self) -> str:
        return f"{self.first} before {self.second}"

    def __invert__(self) -> Not:
        return Not(self)


@dataclass(frozen=True, slots=True)
class Within:
    """``target`` is thrown within the next ``throws`` throws (1 to :data:`MAX_THROWS`); ``target`` is not
    every throw.

    >>> str(Within(RollSet.of_totals(2, 3, 11, 12), 3))
    '2, 3, 11 or 12 within 3 throws'
    """

    target: RollSet
    throws: int

    def __post_init__(self) -> None:
        reason = _throws_reason(self.throws)
        if reason is not None:  # checked first: str(self) needs a number of throws
            raise InvalidError(
                f"invalid proposition '{self.target} within {quoted(self.throws)} throws': {reason}"
            )
        _refuse(str(self), _certainty_reason(self.target, negated=False))

    def __str__(self) -> str:
        return f"{self.target} within {self.throws} throw{'' if self.throws == 1 else 's'}"

    def __invert__(self) -> Not:
        return Not(self)


@dataclass(frozen=True, slots=True)
class Next:
    """The next throw falls in ``target``, which is not every throw.

    >>> str(Next(RollSet.odd()))
    'next odd'
    """

    target: RollSet

    def __post_init__(self) -> None:
        _refuse(str(self), _certainty_reason(self.target, negated=False))

    def __str__(self) -> str:
        return f"next {self.target}"

    def __invert__(self) -> Not:
        return Not(self)


@dataclass(frozen=True, slots=True)
class Not:
    """The negation of a proposition that is not itself a negation (``~Not(p)`` is ``p``).

    A bet that cannot lose cannot be built, so neither can its negation, which could never win.

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
            raise InvalidError(
                f"invalid proposition {quoted(self.proposition)}: expected Before, Within or Next"
            )

    def __str__(self) -> str:
        return f"not {self.proposition}"

    def __invert__(self) -> Proposition:
        return self.proposition


Proposition = Before | Within | Next | Not
"""Any side bet: a set before another, a set within so many throws, the next throw, or a negation."""


def negate(proposition: Proposition) -> Proposition:
    """The opposite bet, with double negation removed: ``negate(negate(p)) == p``."""
    return ~proposition


# --- the source's bets ----------------------------------------------------------------------------------

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
