"""The static facts of a Hazard variant: how the main is chosen, what each opening throw does, dice passing.

A :class:`Ruleset` holds no state and rolls no dice; the engine reads it. Rulesets are built by the loader in
:mod:`hazard.core.rulesets` from TOML files, the built-in ones and a user's own alike.
"""

from __future__ import annotations

import enum
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from hazard.core.dice import TOTALS
from hazard.core.errors import IllegalError, InvalidError, quoted

if TYPE_CHECKING:  # a paytable is checked against a ruleset, so its module imports this one
    from hazard.core.paytable import Paytable

__all__ = [
    "MAX_AFTER_LOSSES",
    "DicePassing",
    "LossCount",
    "MainMethod",
    "MainRow",
    "Opening",
    "Ruleset",
    "Source",
    "StakeArrangement",
    "totals_text",
]


class MainMethod(enum.Enum):
    """How a round's main is chosen."""

    CALLED = "called"
    """The caster names one of the ruleset's mains before the opening throw."""
    THROWN = "thrown"
    """The caster throws for the main; a total that is not a main is thrown again."""
    THROWN_OR_PASS = "thrown-or-pass"
    """The caster throws for the main; a total that is not a main passes the dice and no round is played."""
    FIXED = "fixed"
    """The main is always the ruleset's single main (craps: 7)."""

    @property
    def is_thrown(self) -> bool:
        return self in (MainMethod.THROWN, MainMethod.THROWN_OR_PASS)


class StakeArrangement(enum.Enum):
    """Who stakes against the caster, and who names the sum. Every wager then pays by the paytable."""

    BANK = "bank"
    """The caster names his stake against a setter or bank, who covers what the paytable can pay."""
    SETTER_SUM = "setter-sum"
    """A setter puts down a sum and the caster accepts it by throwing."""
    ALL_AGAINST_CASTER = "all-against-caster"
    """Every other player may bet against the caster, who must cover them all; once the chance is set,
    further bets need the caster's consent."""

    @property
    def text(self) -> str:
        """How stakes are laid, in a few words: the one description the terminal and the pages show."""
        return _STAKES_TEXT[self]


_STAKES_TEXT = {
    StakeArrangement.BANK: "each setter against the caster",
    StakeArrangement.SETTER_SUM: "one setter's sum, accepted by the caster",
    StakeArrangement.ALL_AGAINST_CASTER: "everyone against the caster",
}


class Opening(enum.Enum):
    """What an opening throw (the throw for a chance) does, for one main and one total."""

    NICK = "nick"
    """The caster wins at once ("throws in")."""
    OUT = "out"
    """The caster loses at once ("throws out", a crab)."""
    CHANCE = "chance"
    """The total becomes the caster's chance."""
    AGAIN = "again"
    """Nothing is decided and no chance is set: the caster throws again."""


class LossCount(enum.Enum):
    """Which lost rounds count towards passing the dice."""

    ANY = "any"
    """Every lost round: thrown out on the opening throw, or the main thrown before the chance."""
    AFTER_CHANCE = "after-chance"
    """Only a round lost by throwing the main after a chance was set (craps's "seven out")."""


MAX_AFTER_LOSSES = 100
"""The most counted losses in a row a dice-passing rule may wait for.

The exact expected number of rounds a caster keeps the dice grows like ``(1/r)^n`` for ``n`` losses in a row,
``r`` being the chance that a round which does something to the count adds to it (see
:mod:`hazard.analysis.passing`), and its fraction has about ``n`` times as many digits as ``r``. At 100,
every ruleset tried (random ones with up to eleven mains included) stays below 1e170 and 1,600 digits; at
200 random rulesets already pass the largest float (1.8e308), and soon after the 4,300 digits Python prints
an integer with by default, so neither form of the figure could be written. (2^31 would be billions of
digits.) No table waits for 100 losses in a row: at even chances the dice would pass once in 2^100 rounds.
"""


@dataclass(frozen=True, slots=True)
class DicePassing:
    """When the caster must hand the dice to the player on the left.

    ``after_losses`` counted losses in a row pass the dice (0: losses never do; at most
    ``MAX_AFTER_LOSSES``). A thrown main outside the ruleset's mains passes them too where the main
    method is :attr:`MainMethod.THROWN_OR_PASS`: :func:`hazard.core.passing.passing_text` says the whole rule,
    and :func:`hazard.core.passing.after_round` applies it.
    """

    after_losses: int = 0
    losses: LossCount = LossCount.ANY

    def __post_init__(self) -> None:
        if not 0 <= self.after_losses <= MAX_AFTER_LOSSES:
            raise InvalidError(
                f"invalid dice passing after {self.after_losses} losses: expected 0 to {MAX_AFTER_LOSSES} "
                "(0 for never)"
            )

    @property
    def by_losses(self) -> bool:
        """Whether losing rounds can ever pass the dice."""
        return self.after_losses > 0

    def describe(self) -> str:
        """A sentence for people, e.g. ``"the dice pass after 3 lost rounds in a row"``."""
        if not self.by_losses:
            return "losing never passes the dice; the caster keeps them until giving them up"
        what = "lost rounds" if self.losses is LossCount.ANY else "rounds lost to the main after a chance"
        if self.after_losses == 1:
            one = "lost round" if self.losses is LossCount.ANY else "round lost to the main after a chance"
            return f"every {one} passes the dice"
        return f"the dice pass after {self.after_losses} {what} in a row"


@dataclass(frozen=True, slots=True)
class Source:
    """Where a ruleset comes from: a file among the project's sources, or a printed work, and what it is."""

    citation: str
    file: str | None = None
    url: str | None = None


@dataclass(frozen=True, slots=True)
class MainRow:
    """What each opening total does on one main: the row of a source's table for that main.

    ``chances`` holds the totals that become the chance on this main; nicks and outs are listed apart, and a
    total in none of the three is thrown again.

    >>> row = MainRow(7, nicks=frozenset({7, 11}), outs=frozenset({2, 3, 12}), chances=frozenset({4, 5, 6}))
    >>> row.opening(11), row.opening(12), row.opening(5), row.opening(8)
    (<Opening.NICK: 'nick'>, <Opening.OUT: 'out'>, <Opening.CHANCE: 'chance'>, <Opening.AGAIN: 'again'>)
    """

    main: int
    nicks: frozenset[int]
    outs: frozenset[int]
    chances: frozenset[int]

    def __post_init__(self) -> None:
        where = f"main {self.main}"
        if self.main not in TOTALS:
            raise InvalidError(f"invalid main {quoted(self.main)}: expected a total from 2 to 12")
        for name, totals in (("nick", self.nicks), ("out", self.outs), ("chance", self.chances)):
            for total in sorted(totals):
                if total not in TOTALS:
                    raise InvalidError(
                        f"invalid {name} {quoted(total)} on {where}: expected a total from 2 to 12"
                    )
        for first, second, a, b in (
            ("a nick", "an out", self.nicks, self.outs),
            ("a nick", "a chance", self.nicks, self.chances),
            ("an out", "a chance", self.outs, self.chances),
        ):
            both = sorted(a & b)
            if both:
                verb = "is" if len(both) == 1 else "are each"
                raise InvalidError(f"invalid {where}: {totals_text(both)} {verb} both {first} and {second}")
        if self.main in self.chances:
            raise InvalidError(f"invalid {where}: the main cannot become its own chance")
        if not (self.nicks or self.outs or self.chances):
            raise InvalidError(f"invalid {where}: no opening throw decides anything, so the round never ends")

    def opening(self, total: int) -> Opening:
        """What an opening throw of ``total`` does on this main."""
        if total in self.nicks:
            return Opening.NICK
        if total in self.outs:
            return Opening.OUT
        if total in self.chances:
            return Opening.CHANCE
        return Opening.AGAIN

    @property
    def again(self) -> frozenset[int]:
        """The totals that decide nothing on the opening throw."""
        return frozenset(TOTALS) - self.nicks - self.outs - self.chances


def totals_text(totals: Iterable[int]) -> str:
    """Totals as words for people.

    >>> totals_text([2, 3, 12]), totals_text([7])
    ('2, 3 and 12', '7')
    """
    words = [str(t) for t in totals]
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


@dataclass(frozen=True, slots=True)
class Ruleset:
    """One variant of Hazard, as one source describes it.

    Build one with :func:`hazard.core.rulesets.find_ruleset` or :func:`~hazard.core.rulesets.load_ruleset`.
    """

    id: str
    name: str
    source: Source
    method: MainMethod
    rows: tuple[MainRow, ...]
    passing: DicePassing = DicePassing()
    paytable: str | Paytable | None = None
    """The default paytable, None where the source gives none: a built-in paytable's id, or the paytable
    itself where the ruleset's file named a paytable file or held a ``[paytable]`` table.

    A paytable file is read once, when the ruleset is loaded, and carried by value from then on: the ruleset
    is self-contained, and ``ruleset_to_toml`` writes it inline, so a game's record
    reads back the same ruleset anywhere, whatever became of the file. Look it up with
    :func:`~hazard.core.rulesets.paytable_for`, which takes either form.
    """
    stakes: StakeArrangement = StakeArrangement.SETTER_SUM
    """How stakes are laid at a table playing this ruleset."""
    notes: tuple[str, ...] = ()
    aliases: tuple[str, ...] = field(default=(), compare=False)

    def __post_init__(self) -> None:
        mains = [row.main for row in self.rows]
        if not mains:
            raise InvalidError(f"invalid ruleset {self.id!r}: it has no main")
        if len(set(mains)) != len(mains):
            raise InvalidError(f"invalid ruleset {self.id!r}: a main has two rows")
        if mains != sorted(mains):
            object.__setattr__(self, "rows", tuple(sorted(self.rows, key=lambda row: row.main)))
        if self.method is MainMethod.FIXED and len(mains) != 1:
            raise InvalidError(
                f"invalid ruleset {self.id!r}: a fixed main needs exactly one main, not {len(mains)}"
            )

    @property
    def mains(self) -> tuple[int, ...]:
        """The totals that can be the main, in order."""
        return tuple(row.main for row in self.rows)

    def row(self, main: int) -> MainRow:
        """The opening table for ``main``; an :class:`IllegalError` if it cannot be a main here."""
        for row in self.rows:
            if row.main == main:
                return row
        if main not in TOTALS:
            raise InvalidError(f"invalid main {quoted(main)}: expected a total from 2 to 12")
        raise IllegalError(
            f"illegal main {quoted(main)} in ruleset {self.id!r}: the mains are {totals_text(self.mains)}"
        )

    @property
    def chances(self) -> frozenset[int]:
        """Every total that can become the chance on some main."""
        return frozenset().union(*(row.chances for row in self.rows))
