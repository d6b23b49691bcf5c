"""Exact odds of a round of Hazard under any ruleset, per main and overall, and under a paytable.

>>> from hazard.core.rulesets import find_ruleset
>>> report = analyse(find_ruleset("craps"))
>>> report.mains[0].p_win
Fraction(244, 495)
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from functools import partial
from typing import Any

from hazard.analysis.markov import RoundChain, total
from hazard.analysis.passing import expected_rounds_kept
from hazard.core.engine import Call, apply, new_round
from hazard.core.numbers import fraction_text
from hazard.core.paytable import Paytable
from hazard.core.rules import MainMethod, Ruleset
from hazard.core.state import Outcome, Termination

__all__ = ["DISTRIBUTION_THROWS", "MainOdds", "OddsReport", "analyse"]

DISTRIBUTION_THROWS = 12
"""How many terms of the distribution of throws a report carries; the rest is reported as the tail."""

_ZERO = Fraction(0)


@dataclass(frozen=True)
class MainOdds:
    """Exact figures for rounds played on one main, or over every main (``main`` is None).

    Where the main is thrown, every figure is conditioned on a main having been set, and throws include
    the throws for the main.
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
    """Expected rounds a caster keeps the dice (calling this main every time); None if they never pass."""

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
    out[f"{name}_float"] = None if value is None else float(value)


@dataclass(frozen=True)
class OddsReport:
    """The exact odds of one ruleset: a row per main and, where the main is thrown, the figures over all."""

    ruleset: Ruleset
    paytable: Paytable | None
    mains: tuple[MainOdds, ...]
    overall: MainOdds | None
    """Over the thrown main, given that a main was set; None where the caster calls the main."""
    p_no_round: Fraction
    """The probability that a throw for the main passes the dice with no round played."""

    def to_json_dict(self) -> dict[str, Any]:
        """The stable JSON form, documented in docs/analysis.md."""
        return {
            "ruleset": self.ruleset.id,
            "paytable": None if self.paytable is None else self.paytable.id,
            "main_method": self.ruleset.method.value,
            "dice_passing": self.ruleset.passing.describe(),
            "p_no_round": fraction_text(self.p_no_round),
            "p_no_round_float": float(self.p_no_round),
            "mains": [odds.to_json_dict() for odds in self.mains],
            "overall": None if self.overall is None else self.overall.to_json_dict(),
        }


def analyse(
    ruleset: Ruleset,
    paytable: Paytable | None = None,
    *,
    main: int | None = None,
    distribution_throws: int = DISTRIBUTION_THROWS,
) -> OddsReport:
    """Solve ``ruleset`` exactly: every main (or only ``main``), and the overall figures for a thrown main.

    A paytable adds expected values; it is checked against the ruleset first.
    """
    if paytable is not None:
        paytable.check(ruleset)
    wanted = ruleset.mains if main is None else (ruleset.row(main).main,)
    net = None if paytable is None else paytable.caster_net
    figures = partial(_figures, ruleset=ruleset, net=net, distribution_throws=distribution_throws)
    if not ruleset.method.is_thrown:
        rows = tuple(
            figures(chain=_called_chain(ruleset, m), within=_played, main=m, p_no_round=_ZERO) for m in wanted
        )
        return OddsReport(ruleset, paytable, rows, None, _ZERO)
    # One chain from the throw for the main holds every main; each main's row conditions on that main.
    chain = RoundChain.build(new_round(ruleset))
    p_no_round = 1 - chain.probability(_played)
    rows = tuple(figures(chain=chain, within=_on_main(m), main=m, p_no_round=p_no_round) for m in wanted)
    overall = None
    if main is None:
        overall = figures(chain=chain, within=_played, main=None, p_no_round=p_no_round)
    return OddsReport(ruleset, paytable, rows, overall, p_no_round)


def _on_main(main: int) -> Callable[[Outcome], bool]:
    return lambda outcome: outcome.main == main


def _caster_wins(outcome: Outcome) -> bool:
    return outcome.caster_wins


def _played(outcome: Outcome) -> bool:
    return outcome.termination is not Termination.NO_MAIN


def _called_chain(ruleset: Ruleset, main: int) -> RoundChain:
    start = new_round(ruleset)
    if ruleset.method is MainMethod.CALLED:
        start, _ = apply(start, Call(main))
    return RoundChain.build(start)


def _chance_is(chance: int, *, won: bool = False) -> Callable[[Outcome], bool]:
    return lambda outcome: outcome.chance == chance and (outcome.caster_wins or not won)


def _figures(
    *,
    ruleset: Ruleset,
    chain: RoundChain,
    within: Callable[[Outcome], bool],
    main: int | None,
    net: Callable[[Outcome], Fraction] | None,
    distribution_throws: int,
    p_no_round: Fraction,
) -> MainOdds:
    """Figures for the rounds that end in an outcome ``within`` accepts, conditioned on those rounds."""
    probabilities = {o: p for o, p in chain.outcome_probabilities().items() if within(o)}
    mass = total(probabilities.values())  # P(A): the conditioning event
    played = total(p for o, p in probabilities.items() if _played(o))
    conditional = {o: p / mass for o, p in probabilities.items()}

    def p(accept: Callable[[Outcome], bool]) -> Fraction:
        return total(q for o, q in conditional.items() if accept(o))

    chances = sorted({o.chance for o in conditional if o.chance is not None})
    first, second = chain.throw_moments(within)
    expected = first / mass
    ev = variance = None
    if net is not None:
        ev = total(q * net(o) for o, q in conditional.items())
        variance = total(q * net(o) ** 2 for o, q in conditional.items()) - ev**2
    p_win = p(_caster_wins)
    # Where the main is thrown the caster keeps the dice over a mix of mains, so only the overall row says.
    kept = None
    if main is None or not ruleset.method.is_thrown:
        kept = expected_rounds_kept(ruleset.passing, conditional, p_no_round)
    return MainOdds(
        main=main,
        p_main=played / (1 - p_no_round) if ruleset.method.is_thrown else Fraction(1),
        p_win=p_win,
        p_nick=p(lambda o: o.termination is Termination.NICK),
        p_out=p(lambda o: o.termination is Termination.OUT),
        p_chance_set={c: p(_chance_is(c)) for c in chances},
        p_win_by_chance={c: p(_chance_is(c, won=True)) for c in chances},
        expected_throws=expected,
        throws_variance=second / mass - expected**2,
        throws_distribution=tuple(
            q / mass for q in chain.throw_distribution(within, up_to=distribution_throws)
        ),
        ev=ev,
        variance=variance,
        expected_rounds_kept=kept,
    )
