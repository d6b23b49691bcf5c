"""Round statistics from simulated counts: rates and means with 95% confidence intervals, beside exact values.

A rate is reported with its Wilson score interval; a mean with the normal interval from the sample's own
variance. Against an exact value ``p`` the deviation is counted in standard errors of the exact
distribution, ``z = (estimate - p) / sqrt(p (1 - p) / n)`` for a rate and ``(mean - mu) / sqrt(var / n)``
for a mean, so that ``|z| > 4`` would happen by chance less than once in 15,000 comparisons.

>>> rate(48, 100).value, [round(x, 3) for x in rate(48, 100).interval]
(0.48, [0.385, 0.577])
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from hazard.core.state import Outcome, Termination
from hazard.sim.rounds import RoundCounts

__all__ = [
    "CONFIDENCE_Z",
    "Estimate",
    "Exact",
    "GroupStats",
    "RoundStats",
    "mean",
    "rate",
    "round_stats",
]

CONFIDENCE_Z = 1.959963984540054
"""The normal quantile of a two-sided 95% interval."""


@dataclass(frozen=True, slots=True)
class Estimate:
    """A simulated figure: its value, a 95% interval, how many observations, and its standard error."""

    value: float
    low: float
    high: float
    n: int
    se: float

    @property
    def interval(self) -> tuple[float, float]:
        """The 95% confidence interval ``(low, high)``."""
        return self.low, self.high

    def z(self, exact: float, variance: float) -> float | None:
        """Deviation from ``exact`` in standard errors, given the variance of one observation exactly.

        None without observations; 0 where the figure cannot vary and agrees.
        """
        if self.n == 0:
            return None
        se = math.sqrt(max(variance, 0.0) / self.n)
        if se == 0:
            if math.isclose(self.value, exact, abs_tol=1e-12):
                return 0.0
            return math.copysign(math.inf, self.value - exact)
        return (self.value - exact) / se

    def z_rate(self, exact: float) -> float | None:
        """Deviation of a rate from the exact probability ``exact``, in standard errors."""
        return self.z(exact, exact * (1 - exact))


def rate(successes: int, n: int) -> Estimate:
    """A proportion with its Wilson score interval (0 of 0 is reported as 0 in [0, 1])."""
    if n == 0:
        return Estimate(0.0, 0.0, 1.0, 0, math.nan)
    p = successes / n
    z2 = CONFIDENCE_Z**2
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = CONFIDENCE_Z * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / (1 + z2 / n)
    return Estimate(p, max(0.0, centre - half), min(1.0, centre + half), n, math.sqrt(p * (1 - p) / n))


def mean(total: float, squares: float, n: int) -> Estimate:
    """A mean from the sum and the sum of squares of ``n`` observations, with its normal 95% interval."""
    if n == 0:
        return Estimate(math.nan, math.nan, math.nan, 0, math.nan)
    value = total / n
    variance = max(squares / n - value * value, 0.0) * n / max(n - 1, 1)
    se = math.sqrt(variance / n)
    return Estimate(value, value - CONFIDENCE_Z * se, value + CONFIDENCE_Z * se, n, se)


@dataclass(frozen=True)
class Exact:
    """Exact figures to set beside a simulation's (from :mod:`hazard.analysis`, which this package may not
    import): probabilities over rounds played, and the mean and variance of throws per round."""

    p_win: float
    p_nick: float
    p_out: float
    expected_throws: float
    throws_variance: float
    p_chance_set: Mapping[int, float] = field(default_factory=dict)
    p_win_by_chance: Mapping[int, float] = field(default_factory=dict)
    p_main: float = 1.0
    expected_rounds_kept: float | None = None
    throws_distribution: tuple[float, ...] = ()
    """P(a round takes exactly t throws) for t = 1, 2, ...: as many terms as are known."""


@dataclass(frozen=True)
class GroupStats:
    """The statistics of a group of rounds played: all of them, or those on one main."""

    main: int | None
    rounds: int
    """Rounds played in the group (a throw for the main that passed the dice is no round)."""
    share: Estimate
    """The group's share of all rounds played (1 for all of them)."""
    wins: int
    win: Estimate
    nick: Estimate
    out: Estimate
    chance_set: dict[int, Estimate]
    win_by_chance: dict[int, Estimate]
    throws: Estimate
    """Throws per round, counting the throws for a thrown main."""
    throw_counts: tuple[int, ...]
    """Rounds by number of throws: index t for t throws (the last entry: that many or more)."""
    part: bool = False
    """Whether the group is the rounds on one main among several (then its share is compared too)."""

    def comparisons(self, exact: Exact) -> dict[str, tuple[Estimate, float, float | None]]:
        """Each figure beside its exact value: name -> (estimate, exact, z)."""
        out: dict[str, tuple[Estimate, float, float | None]] = {
            "win_rate": (self.win, exact.p_win, self.win.z_rate(exact.p_win)),
            "nick_rate": (self.nick, exact.p_nick, self.nick.z_rate(exact.p_nick)),
            "out_rate": (self.out, exact.p_out, self.out.z_rate(exact.p_out)),
            "throws_per_round": (
                self.throws,
                exact.expected_throws,
                self.throws.z(exact.expected_throws, exact.throws_variance),
            ),
        }
        if self.part:
            out["p_main"] = (self.share, exact.p_main, self.share.z_rate(exact.p_main))
        for chance, estimate in self.chance_set.items():
            p = exact.p_chance_set.get(chance, 0.0)
            out[f"chance_set_{chance}"] = (estimate, p, estimate.z_rate(p))
        for chance, estimate in self.win_by_chance.items():
            p = exact.p_win_by_chance.get(chance, 0.0)
            out[f"win_by_chance_{chance}"] = (estimate, p, estimate.z_rate(p))
        return out


@dataclass(frozen=True)
class RoundStats:
    """Everything a round study measured."""

    counts: RoundCounts
    overall: GroupStats
    mains: tuple[GroupStats, ...]
    """One group per main where more than one main is played (a thrown main, or a main called at random)."""
    no_round: Estimate
    """Throws for the main that passed the dice, as a share of all rounds attempted."""
    rounds_kept: Estimate | None
    """Rounds a caster kept the dice, over the hands that ended by the passing rule; None if none did."""

    @property
    def ruleset_id(self) -> str:
        return self.counts.table.ruleset.id

    @property
    def main(self) -> int | None:
        return self.counts.table.main

    def to_json_dict(
        self, exact: Exact | None = None, exact_mains: Mapping[int, Exact] | None = None
    ) -> dict[str, Any]:
        """The stable JSON form (documented in docs/simulation.md)."""
        counts = self.counts
        overall = self.overall
        out: dict[str, Any] = {
            "ruleset": self.ruleset_id,
            "main": self.main,
            "rounds": counts.rounds,
            "requested_rounds": counts.requested,
            "interrupted": counts.interrupted,
            "seed": counts.seed,
            "throws": counts.throws,
            "rounds_played": overall.rounds,
            "no_round": _count(self.no_round),
            "wins": overall.wins,
            "win_rate": overall.win.value,
            "win_rate_ci": list(overall.win.interval),
            "exact_p_win": None if exact is None else exact.p_win,
            "z": None if exact is None else overall.win.z_rate(exact.p_win),
        }
        out.update(_group_json(overall, exact))
        kept = self.rounds_kept
        out["rounds_kept"] = None if kept is None else _estimate_json(kept)
        if kept is not None and exact is not None and exact.expected_rounds_kept is not None:
            out["rounds_kept"]["exact"] = exact.expected_rounds_kept
        out["mains"] = [
            {"main": group.main, **_group_json(group, (exact_mains or {}).get(group.main or 0))}
            for group in self.mains
        ]
        out["seconds"] = counts.seconds
        return out


def _count(estimate: Estimate) -> dict[str, Any]:
    return {"count": round(estimate.value * estimate.n), **_estimate_json(estimate)}


def _estimate_json(estimate: Estimate) -> dict[str, Any]:
    return {"value": _finite(estimate.value), "ci": [_finite(estimate.low), _finite(estimate.high)]}


def _finite(value: float) -> float | None:
    return value if math.isfinite(value) else None


def _group_json(group: GroupStats, exact: Exact | None) -> dict[str, Any]:
    compared = group.comparisons(exact) if exact is not None else {}
    figures: dict[str, Any] = {}
    named = {
        "share": group.share,
        "win_rate": group.win,
        "nick_rate": group.nick,
        "out_rate": group.out,
        "throws_per_round": group.throws,
    }
    for name, estimate in named.items():
        figures[name] = _with_exact(estimate, compared.get("p_main" if name == "share" else name))
    figures["chance_set"] = {
        str(c): _with_exact(e, compared.get(f"chance_set_{c}")) for c, e in group.chance_set.items()
    }
    figures["win_by_chance"] = {
        str(c): _with_exact(e, compared.get(f"win_by_chance_{c}")) for c, e in group.win_by_chance.items()
    }
    figures["throw_counts"] = list(group.throw_counts)
    return {"rounds_in_group": group.rounds, "figures": figures}


def _with_exact(estimate: Estimate, compared: tuple[Estimate, float, float | None] | None) -> dict[str, Any]:
    out = _estimate_json(estimate)
    out["exact"] = None if compared is None else compared[1]
    out["z"] = None if compared is None or compared[2] is None else _finite(compared[2])
    return out


def _group(
    counts: RoundCounts,
    accept: Callable[[Outcome], bool],
    main: int | None,
    all_played: int,
    *,
    part: bool = False,
) -> GroupStats:
    outcomes = counts.table.outcomes
    codes = [code for code, outcome in enumerate(outcomes, start=1) if accept(outcome)]

    def total(keep: Callable[[Outcome], bool]) -> int:
        return sum(sum(counts.by_code[code]) for code in codes if keep(outcomes[code - 1]))

    played = total(lambda o: True)
    by_throws = [sum(column) for column in zip(*(counts.by_code[code] for code in codes), strict=True)]
    by_throws = by_throws or [0] * len(counts.by_code[0])
    wins = total(lambda o: o.caster_wins)
    chances = sorted({o.chance for o in (outcomes[c - 1] for c in codes) if o.chance is not None})
    return GroupStats(
        main=main,
        rounds=played,
        share=rate(played, all_played),
        wins=wins,
        win=rate(wins, played),
        nick=rate(total(lambda o: o.termination is Termination.NICK), played),
        out=rate(total(lambda o: o.termination is Termination.OUT), played),
        chance_set={c: rate(total(_chance_is(c)), played) for c in chances},
        win_by_chance={c: rate(total(_chance_is(c, won=True)), played) for c in chances},
        throws=mean(
            float(sum(int(counts.throw_sums[c]) for c in codes)),
            float(sum(int(counts.throw_squares[c]) for c in codes)),
            played,
        ),
        throw_counts=tuple(int(x) for x in by_throws),
        part=part,
    )


def _played(outcome: Outcome) -> bool:
    return outcome.termination is not Termination.NO_MAIN


def _on_main(main: int) -> Callable[[Outcome], bool]:
    return lambda outcome: _played(outcome) and outcome.main == main


def _chance_is(chance: int, *, won: bool = False) -> Callable[[Outcome], bool]:
    return lambda outcome: outcome.chance == chance and (outcome.caster_wins or not won)


def round_stats(counts: RoundCounts) -> RoundStats:
    """The statistics of a simulation's counts: overall, per main where mains vary, and dice passing."""
    table = counts.table
    no_main_codes = [c for c, o in enumerate(table.outcomes, start=1) if not _played(o)]
    no_round = sum(sum(counts.by_code[c]) for c in no_main_codes)
    played = counts.rounds - no_round
    overall = _group(counts, _played, table.main, played)
    mains: tuple[GroupStats, ...] = ()
    if table.main is None:
        mains = tuple(_group(counts, _on_main(m), m, played, part=True) for m in table.ruleset.mains)
    hands = sum(counts.hands)
    kept = None if hands == 0 else mean(float(counts.hand_sums[0]), float(counts.hand_sums[1]), hands)
    return RoundStats(counts, overall, mains, rate(no_round, counts.rounds), kept)
