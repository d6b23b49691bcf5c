"""Exact odds of a round of Hazard under any ruleset, per main and overall, and under a paytable.

Each main's row is over rounds played on that main from its opening throw: the caster called it, or (for a
thrown main) it was thrown. Where the main is thrown, the overall row counts from the throw for the main, so
it includes the throws for the main, which :attr:`OddsReport.throws_for_main` gives on their own.

>>> from hazard.core.rulesets import find_ruleset
>>> report = analyse(find_ruleset("craps"))
>>> report.mains[0].p_win
Fraction(244, 495)
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import Any

from hazard.analysis.markov import RoundChain, total
from hazard.analysis.passing import expected_rounds_kept
from hazard.core.dice import ROLLS
from hazard.core.engine import Call, apply, new_round
from hazard.core.errors import IllegalError
from hazard.core.numbers import fraction_text
from hazard.core.passing import passing_text
from hazard.core.paytable import Paytable
from hazard.core.rules import MainMethod, Ruleset
from hazard.core.state import Outcome, Round, Termination

__all__ = ["DISTRIBUTION_THROWS", "MainOdds", "OddsReport", "analyse", "analyse_random_main", "as_float"]

DISTRIBUTION_THROWS = 12
"""How many terms of the distribution of throws a report carries; the rest is reported as the tail."""

_ZERO = Fraction(0)
_ONE = Fraction(1)


def as_float(value: Fraction | None) -> float | None:
    """``value`` as a float; None for None, or for a figure beyond the largest float.

    Only an expected number of rounds kept can be that large (a long run of counted losses that is rare).

    >>> as_float(Fraction(1, 4)), as_float(Fraction(10**400)), as_float(None)
    (0.25, None, None)
    """
    if value is None:
        return None
    try:
        return float(value)
    except OverflowError:
        return None


@dataclass(frozen=True)
class MainOdds:
    """Exact figures for rounds played on one main, or over every main (``main`` is None).

    A main's figures count from the opening throw on that main; the overall figures of a thrown main are
    conditioned on a main having been set, and count the throws for the main.
    """

    main: int | None
    p_main: Fraction
    """The probability of this main among rounds played: 1 for a called main."""
    p_win: Fraction
    p_nick: Fraction
    p_out: Fraction
    p_chance_set: dict[int, Fraction]
    """The probability that each total becomes the chance."""
    p_win_by_chance: dict[int, Fraction]
    """The probability of winning through each chance (setting it, then throwing it before the main)."""
    expected_throws: Fraction
    throws_variance: Fraction
    throws_distribution: tuple[Fraction, ...]
    """P(the round takes exactly t throws) for t = 1, 2, ...; the rest is :attr:`throws_tail`."""
    ev: Fraction | None
    """The caster's expected net per unit stake under the paytable; None without one."""
    variance: Fraction | None
    """The variance of the caster's net per unit stake; None without a paytable."""
    expected_rounds_kept: Fraction | None
    """Expected rounds a caster keeps the dice, every round played as this row's are (on this main, or as
    the overall row's); None if they never pass."""
    outcomes: Mapping[Outcome, Fraction] = field(default_factory=dict, repr=False)
    """The probability of each way a round ends, over the rounds this row is about."""

    @property
    def p_lose(self) -> Fraction:
        return 1 - self.p_win

    @property
    def p_chance_won(self) -> Fraction:
        return total(self.p_win_by_chance.values())

    @property
    def edge(self) -> Fraction | None:
        """The setter's edge: what the setter expects to gain per unit of the caster's stake (-ev)."""
        return None if self.ev is None else -self.ev

    @property
    def throws_tail(self) -> Fraction:
        """P(the round takes more throws than the distribution lists)."""
        return 1 - total(self.throws_distribution)

    def to_json_dict(self) -> dict[str, Any]:
        """The stable JSON form (see docs/analysis.md): each figure as an exact string and a float."""
        out: dict[str, Any] = {"main": self.main}
        for name in ("p_main", "p_win", "p_nick", "p_out", "p_lose", "p_chance_won"):
            _pair(out, name, getattr(self, name))
        _pair(out, "expected_throws", self.expected_throws)
        _pair(out, "throws_variance", self.throws_variance)
        for name in ("ev", "edge", "variance", "expected_rounds_kept"):
            _pair(out, name, getattr(self, name))
        out["p_chance_set"] = {str(c): fraction_text(p) for c, p in sorted(self.p_chance_set.items())}
        out["p_win_by_chance"] = {str(c): fraction_text(p) for c, p in sorted(self.p_win_by_chance.items())}
        out["throws_distribution"] = [fraction_text(p) for p in self.throws_distribution]
        out["throws_tail"] = fraction_text(self.throws_tail)
        return out


def _pair(out: dict[str, Any], name: str, value: Fraction | None) -> None:
    out[name] = None if value is None else fraction_text(value)
    out[f"{name}_float"] = as_float(value)


@dataclass(frozen=True)
class OddsReport:
    """The exact odds of one ruleset: a row per main and, where the main is thrown, the figures over all."""

    ruleset: Ruleset
    paytable: Paytable | None
    mains: tuple[MainOdds, ...]
    """One row per main (or only the main asked for): rounds played on it, from its opening throw."""
    overall: MainOdds | None
    """Over the thrown main, given that a main was set, from the throw for the main; None where the caster
    calls the main, or where only one main was asked for."""
    p_no_round: Fraction
    """The probability that a throw for the main passes the dice with no round played (0 with one main
    asked for: its rounds start at the opening throw)."""
    throws_for_main: Fraction = _ZERO
    """The expected throws for the main in a round played: in the overall row's throws, not in a main's row
    (0 where the main is called or fixed, or only one main was asked for)."""

    def from_throw_for_main(self, odds: MainOdds) -> MainOdds:
        """A main's row with the throws for the main added: its rounds as a study of the thrown main sees
        them, counted from the throw for the main.

        The throws for the main are a geometric count, the same whichever main they set, and independent of
        the round that follows: their mean and variance add, and their distribution convolves.

        >>> from hazard.core.rulesets import find_ruleset
        >>> report = analyse(find_ruleset("ecws-1674"))
        >>> report.throws_for_main, report.from_throw_for_main(report.mains[1]).expected_throws
        (Fraction(3, 2), Fraction(2053, 396))
        """
        g = self.throws_for_main
        if g == 0:
            return odds
        again = 1 - 1 / g  # a throw for the main thrown again, given that a main is set in the end
        terms = odds.throws_distribution
        first = [(1 - again) * again**k for k in range(len(terms))]  # P(g + 1 throws for the main)
        convolved = tuple(total(first[k] * terms[t - 1 - k] for k in range(t)) for t in range(len(terms)))
        return replace(
            odds,
            expected_throws=odds.expected_throws + g,
            throws_variance=odds.throws_variance + again / (1 - again) ** 2,
            throws_distribution=convolved,
        )

    def to_json_dict(self) -> dict[str, Any]:
        """The stable JSON form, documented in docs/analysis.md."""
        out: dict[str, Any] = {
            "ruleset": self.ruleset.id,
            "paytable": None if self.paytable is None else self.paytable.id,
            "main_method": self.ruleset.method.value,
            "dice_passing": passing_text(self.ruleset),
        }
        _pair(out, "p_no_round", self.p_no_round)
        _pair(out, "throws_for_main", self.throws_for_main)
        out["mains"] = [odds.to_json_dict() for odds in self.mains]
        out["overall"] = None if self.overall is None else self.overall.to_json_dict()
        return out


def analyse(
    ruleset: Ruleset,
    paytable: Paytable | None = None,
    *,
    main: int | None = None,
    distribution_throws: int = DISTRIBUTION_THROWS,
) -> OddsReport:
    """Solve ``ruleset`` exactly: every main (or only ``main``), and the overall figures for a thrown main.

    Every main's row is over rounds played on it from its opening throw: called, or as if thrown. Where the
    main is thrown its row still gives P(main), the chance of that main among rounds played. A paytable adds
    expected values; it is checked against the ruleset first.
    """
    if paytable is not None:
        paytable.check(ruleset)
    wanted = ruleset.mains if main is None else (ruleset.row(main).main,)
    net = None if paytable is None else paytable.caster_net
    p_main: dict[int, Fraction] = dict.fromkeys(wanted, _ONE)
    thrown = None
    p_no_round = throws_for_main = _ZERO
    if ruleset.method.is_thrown:
        # One chain from the throw for the main holds every main: P(main), the overall row, and the throws
        # for the main (its first state is the throw for the main, which is thrown again or not).
        thrown = RoundChain.build(new_round(ruleset))
        played = thrown.probability(_played)
        p_main = {m: thrown.probability(_on_main(m)) / played for m in wanted}
        if main is None:
            p_no_round = 1 - played
            throws_for_main = 1 / (1 - thrown.q[0].get(0, _ZERO))
    rows = []
    for m in wanted:
        throws, outcomes = _conditioned(RoundChain.build(_start(ruleset, m)), _played, distribution_throws)
        rows.append(_figures(ruleset, net, throws, outcomes, main=m, p_main=p_main[m]))
    overall = None
    if thrown is not None and main is None:
        throws, outcomes = _conditioned(thrown, _played, distribution_throws)
        overall = _figures(ruleset, net, throws, outcomes, main=None, p_main=_ONE, p_no_round=p_no_round)
    return OddsReport(ruleset, paytable, tuple(rows), overall, p_no_round, throws_for_main)


def analyse_random_main(
    ruleset: Ruleset,
    paytable: Paytable | None = None,
    *,
    distribution_throws: int = DISTRIBUTION_THROWS,
    report: OddsReport | None = None,
) -> MainOdds:
    """The figures of a caster who calls one of the mains uniformly at random each round (``main`` None).

    Each round's outcome is then the equal mix of the mains' outcomes, so every figure is the mean of the
    mains' (the variances through their second moments), and the rounds kept come from the mixed outcomes
    through the same closed form. A fixed main gives its one row; a thrown main is an :class:`IllegalError`.
    ``report``, where given, is :func:`analyse`'s of the same ruleset, paytable and distribution, not solved
    again.

    >>> from hazard.core.rulesets import find_ruleset
    >>> round(float(analyse_random_main(find_ruleset("wikipedia")).expected_rounds_kept), 3)
    13.399
    """
    if ruleset.method.is_thrown:
        raise IllegalError(f"illegal random main in ruleset {ruleset.id!r}: the main is thrown, not called")
    if report is None:
        report = analyse(ruleset, paytable, distribution_throws=distribution_throws)
    rows = report.mains
    weight = Fraction(1, len(rows))
    outcomes: dict[Outcome, Fraction] = {}
    for row in rows:
        for outcome, p in row.outcomes.items():
            outcomes[outcome] = outcomes.get(outcome, _ZERO) + weight * p
    expected = weight * total(row.expected_throws for row in rows)
    second = weight * total(row.throws_variance + row.expected_throws**2 for row in rows)
    distribution = tuple(
        weight * total(row.throws_distribution[t] for row in rows) for t in range(distribution_throws)
    )
    throws = _Throws(expected, second - expected**2, distribution)
    net = None if paytable is None else paytable.caster_net
    return _figures(ruleset, net, throws, outcomes, main=None, p_main=_ONE)


@dataclass(frozen=True)
class _Throws:
    """The number of throws a round takes: mean, variance and the first terms of its distribution."""

    expected: Fraction
    variance: Fraction
    distribution: tuple[Fraction, ...]


def _conditioned(
    chain: RoundChain, within: Callable[[Outcome], bool], up_to: int
) -> tuple[_Throws, dict[Outcome, Fraction]]:
    """The throws and the outcomes of the rounds of ``chain`` that end as ``within`` accepts, given that."""
    probabilities = {o: p for o, p in chain.outcome_probabilities().items() if within(o)}
    mass = total(probabilities.values())  # P(A): the conditioning event
    first, second = chain.throw_moments(within)
    expected = first / mass  # E[T | A] = E[T 1_A] / P(A)
    distribution = tuple(q / mass for q in chain.throw_distribution(within, up_to=up_to))
    throws = _Throws(expected, second / mass - expected**2, distribution)
    return throws, {o: p / mass for o, p in probabilities.items()}


def _figures(
    ruleset: Ruleset,
    net: Callable[[Outcome], Fraction] | None,
    throws: _Throws,
    outcomes: dict[Outcome, Fraction],
    *,
    main: int | None,
    p_main: Fraction,
    p_no_round: Fraction = _ZERO,
) -> MainOdds:
    """A row from the distribution of its rounds' outcomes and of their throws."""

    def p(accept: Callable[[Outcome], bool]) -> Fraction:
        return total(q for o, q in outcomes.items() if accept(o))

    chances = sorted({o.chance for o in outcomes if o.chance is not None})
    ev = variance = None
    if net is not None:
        ev = total(q * net(o) for o, q in outcomes.items())
        variance = total(q * net(o) ** 2 for o, q in outcomes.items()) - ev**2
    return MainOdds(
        main=main,
        p_main=p_main,
        p_win=p(_caster_wins),
        p_nick=p(lambda o: o.termination is Termination.NICK),
        p_out=p(lambda o: o.termination is Termination.OUT),
        p_chance_set={c: p(_chance_is(c)) for c in chances},
        p_win_by_chance={c: p(_chance_is(c, won=True)) for c in chances},
        expected_throws=throws.expected,
        throws_variance=throws.variance,
        throws_distribution=throws.distribution,
        ev=ev,
        variance=variance,
        expected_rounds_kept=expected_rounds_kept(ruleset.passing, outcomes, p_no_round),
        outcomes=outcomes,
    )


def _start(ruleset: Ruleset, main: int) -> Round:
    """The state a round on ``main`` starts in: the main called, or thrown (any roll of that total)."""
    start = new_round(ruleset)
    if ruleset.method is MainMethod.CALLED:
        return apply(start, Call(main))[0]
    if ruleset.method.is_thrown:
        return apply(start, next(roll for roll in ROLLS if roll.total == main))[0]
    return start


def _on_main(main: int) -> Callable[[Outcome], bool]:
    return lambda outcome: outcome.main == main


def _caster_wins(outcome: Outcome) -> bool:
    return outcome.caster_wins


def _played(outcome: Outcome) -> bool:
    return outcome.termination is not Termination.NO_MAIN


def _chance_is(chance: int, *, won: bool = False) -> Callable[[Outcome], bool]:
    return lambda outcome: outcome.chance == chance and (outcome.caster_wins or not won)
