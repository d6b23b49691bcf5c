"""Paytables: what a caster's stake of one unit wins or loses on each way a round can end.

A nick pays ``nick`` to one; a won chance pays the paytable's odds for that main and chance (flat, the true
odds against the chance, or a printed table); an out or a main thrown before the chance loses the stake.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from fractions import Fraction

from hazard.core.dice import ways
from hazard.core.errors import InvalidError
from hazard.core.numbers import fraction_text
from hazard.core.rules import Ruleset, Source
from hazard.core.state import Outcome, Termination

__all__ = ["ChanceOdds", "Paytable"]


class ChanceOdds:
    """Names of the ways a won chance can be paid, as written in paytable files."""

    TRUE = "true-odds"
    TABLE = "table"


@dataclass(frozen=True, slots=True)
class Paytable:
    """How a round settles between the caster and the setter, per unit of the caster's stake.

    Exactly one of ``flat`` (the same odds on every chance), ``true_odds`` or ``table`` (odds by main and
    chance) says how a won chance pays.
    """

    id: str
    name: str
    nick: Fraction = Fraction(1)
    flat: Fraction | None = None
    """Odds on every won chance; left None with ``true_odds`` or a ``table``, and 1 when neither is given."""
    true_odds: bool = False
    table: Mapping[tuple[int, int], Fraction] = field(default_factory=dict, hash=False)
    source: Source | None = None
    notes: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if self.flat is None and not self.true_odds and not self.table:
            object.__setattr__(self, "flat", Fraction(1))  # nothing said: even money
        kinds = (self.flat is not None) + self.true_odds + bool(self.table)
        if kinds != 1:
            raise InvalidError(
                f"invalid paytable {self.id!r}: a won chance must be paid one way "
                "(flat odds, true odds or a table)"
            )
        for what, odds in [("nick", self.nick), ("chance", self.flat), *self._cells()]:
            if odds is not None and odds <= 0:
                raise InvalidError(f"invalid paytable {self.id!r}: {what} odds {odds} must be above 0")

    def _cells(self) -> list[tuple[str, Fraction | None]]:
        return [(f"main {m} chance {c}", odds) for (m, c), odds in sorted(self.table.items())]

    def chance_odds(self, main: int, chance: int) -> Fraction:
        """The odds paid to the caster who throws ``chance`` before ``main``."""
        if self.flat is not None:
            return self.flat
        if self.true_odds:
            return Fraction(ways(main), ways(chance))
        try:
            return self.table[(main, chance)]
        except KeyError:
            raise InvalidError(
                f"paytable {self.id!r} has no odds for a chance of {chance} on a main of {main}"
            ) from None

    def caster_net(self, outcome: Outcome) -> Fraction:
        """What the caster's stake of 1 nets on ``outcome``: the odds won, -1 lost, 0 for no round."""
        termination = outcome.termination
        if termination is Termination.NICK:
            return self.nick
        if termination is Termination.CHANCE:
            assert outcome.main is not None
            assert outcome.chance is not None
            return self.chance_odds(outcome.main, outcome.chance)
        if termination is Termination.NO_MAIN:
            return Fraction(0)
        return Fraction(-1)

    def most_won(self, ruleset: Ruleset) -> Fraction:
        """The most a stake of one unit can win the caster on a round of ``ruleset`` under this paytable.

        The largest of the nick odds (where some main of the ruleset has a nick) and the odds of every chance
        the ruleset can set; 0 where the caster can win nothing. It is what a setter must be able to cover for
        each unit the caster stakes. An :class:`InvalidError` if a chance has no odds here.

        >>> from hazard.core.rulesets import find_paytable, find_ruleset
        >>> find_paytable("true-odds").most_won(find_ruleset("craps"))  # a 4 or a 10 before 7 pays 2 to 1
        Fraction(2, 1)
        >>> find_paytable("even").most_won(find_ruleset("craps"))
        Fraction(1, 1)
        """
        best = self.nick if any(row.nicks for row in ruleset.rows) else Fraction(0)
        for row in ruleset.rows:
            for chance in sorted(row.chances):
                best = max(best, self.chance_odds(row.main, chance))
        return best

    def check(self, ruleset: Ruleset) -> None:
        """Raise :class:`InvalidError` unless every chance the ruleset can set has odds here."""
        for row in ruleset.rows:
            for chance in sorted(row.chances):
                try:
                    self.chance_odds(row.main, chance)
                except InvalidError as error:
                    raise InvalidError(f"{error}, which ruleset {ruleset.id!r} can set") from None

    def describe_chance(self) -> str:
        """How a won chance pays, in words."""
        if self.flat is not None:
            return "even money" if self.flat == 1 else f"{fraction_text(self.flat)} on every chance"
        if self.true_odds:
            return "the true odds against the chance (main's ways to chance's ways)"
        return "odds by main and chance, from a table"
