"""A study beside the exact odds: what ``hazard simulate`` reports, as an object a program or notebook keeps.

:func:`study_rounds` and :func:`study_sessions` run the simulator (:mod:`hazard.sim`) and the exact analyser
(:mod:`hazard.analysis`) on the same ruleset and return the two side by side. Each result has the same JSON
form as ``hazard simulate --format json`` (:meth:`RoundsStudy.to_json_dict`), the same CSV as ``--format
csv``, and renders as a table in Jupyter (``_repr_html_``).

>>> study = study_rounds("craps", 20_000, seed=1)
>>> study.to_json_dict()["rounds"], study.to_json_dict()["dice_passing"]
(20000, 'every round lost to the main after a chance passes the dice')
>>> [f.name for f in study.figures()][:3]
['win rate', 'nick rate', 'out rate']
>>> "<table" in study._repr_html_()
True
"""

from __future__ import annotations

import csv
import io
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from html import escape
from typing import Any

from hazard.core.paytable import Paytable
from hazard.core.rules import Ruleset
from hazard.core.rulesets import find_paytable, find_ruleset, paytable_for
from hazard.sim import (
    Estimate,
    Exact,
    GroupStats,
    Pool,
    RoundStats,
    SessionConfig,
    SessionStudy,
    compile_table,
    round_stats,
    simulate_rounds,
    simulate_sessions,
)
from hazard.sim.rounds import DEFAULT_CHUNK_ROUNDS
from hazard.study.exact import ExactFigures

__all__ = ["Figure", "RoundsStudy", "SessionsStudy", "main_text", "study_rounds", "study_sessions"]

Progress = Callable[[int], None]
"""Called with the rounds (or sessions) played so far."""


@dataclass(frozen=True, slots=True)
class Figure:
    """One line of a study: a simulated figure with its 95% interval, beside its exact value (if any)."""

    name: str
    simulated: Estimate
    exact: float | None = None
    z: float | None = None
    digits: int = 5
    """Decimals to show it with."""


def main_text(ruleset: Ruleset, main: int | None) -> str:
    """How the main of a study was chosen, in words."""
    if main is None:
        return "thrown" if ruleset.method.is_thrown else "called at random"
    return f"{main}, every round as if thrown" if ruleset.method.is_thrown else str(main)


def _ruleset(ruleset: Ruleset | str) -> Ruleset:
    return find_ruleset(ruleset) if isinstance(ruleset, str) else ruleset


def _paytable(ruleset: Ruleset, paytable: Paytable | str | None) -> Paytable | None:
    if isinstance(paytable, Paytable):
        paytable.check(ruleset)
        return paytable
    return paytable_for(ruleset, paytable)


def _exact_figures(ruleset: Ruleset, main: int | None, paytable: Paytable | None) -> ExactFigures:
    if main is not None:
        ruleset.row(main)  # an unknown main is refused before any work
    return ExactFigures(ruleset, main, paytable if paytable is not None else find_paytable("even"))


# --- rounds ----------------------------------------------------------------------------------------------


@dataclass(frozen=True, eq=False)
class RoundsStudy:
    """Rounds simulated throw by throw, beside the exact analyser's figures for the same rounds."""

    stats: RoundStats
    exact: ExactFigures

    @property
    def interrupted(self) -> bool:
        return self.stats.counts.interrupted

    def figures(self) -> list[Figure]:
        """Every figure over all rounds beside its exact value, as ``hazard simulate`` shows them."""
        stats, exact = self.stats, self.exact
        out = [
            Figure(name.replace("_", " "), estimate, value, z)
            for name, (estimate, value, z) in stats.overall.comparisons(exact.overall).items()
        ]
        if stats.no_round.n and exact.p_no_round:
            no_round = stats.no_round
            out.append(
                Figure("no round (dice pass)", no_round, exact.p_no_round, no_round.z_rate(exact.p_no_round))
            )
        if stats.rounds_kept is not None:
            out.append(Figure("rounds kept", stats.rounds_kept, exact.overall.expected_rounds_kept, None, 3))
        return out

    def to_json_dict(self) -> dict[str, Any]:
        """The JSON form of ``hazard simulate --format json`` (docs/simulation.md)."""
        data = self.stats.to_json_dict(self.exact.overall, self.exact.mains)
        return {
            "ruleset": data["ruleset"],
            "main": data["main"],
            "dice_passing": self.exact.dice_passing,
            **data,
        }

    def to_csv(self) -> str:
        """The CSV form of ``hazard simulate --format csv``: one line a figure, all rounds then each main."""
        stats, exact = self.stats, self.exact
        out = io.StringIO()
        writer = csv.writer(out, lineterminator="\n")
        writer.writerow(
            ["ruleset", "main", "seed", "group", "figure", "value", "ci_low", "ci_high", "exact", "z"]
        )
        groups: list[tuple[str, GroupStats, Exact | None]] = [("all", stats.overall, exact.overall)]
        groups += [(str(g.main), g, exact.mains.get(g.main or 0)) for g in stats.mains]
        for label, group, figures in groups:
            if figures is None:
                continue
            for name, (estimate, value, z) in group.comparisons(figures).items():
                writer.writerow(
                    [
                        stats.ruleset_id,
                        "" if stats.main is None else stats.main,
                        stats.counts.seed,
                        label,
                        name,
                        estimate.value,
                        estimate.low,
                        estimate.high,
                        value,
                        "" if z is None else z,
                    ]
                )
        return out.getvalue()

    def heading(self) -> str:
        counts = self.stats.counts
        return (
            f"Simulated {counts.rounds:,} rounds of {self.stats.ruleset_id} "
            f"(main {main_text(counts.table.ruleset, self.stats.main)}), seed {counts.seed}: "
            f"{counts.throws:,} throws in {counts.seconds:.2f} s on {counts.workers} worker(s)"
        )

    def _repr_html_(self) -> str:
        rows = [
            (
                f.name,
                _number(f.simulated.value, f.digits),
                _interval(f.simulated, f.digits),
                _number(f.exact, f.digits),
                _z(f.z),
            )
            for f in self.figures()
        ]
        parts = [_table(self.heading(), ("figure", "simulated", "95% interval", "exact", "z"), rows)]
        if self.stats.mains:
            by_main = []
            for group in self.stats.mains:
                e = self.exact.mains.get(group.main or 0)
                by_main.append(
                    (
                        str(group.main),
                        f"{group.rounds:,}",
                        _number(group.share.value, 4),
                        _number(None if e is None else e.p_main, 4),
                        _number(group.win.value),
                        _number(None if e is None else e.p_win),
                        _z(None if e is None else group.win.z_rate(e.p_win)),
                    )
                )
            columns = ("main", "rounds", "share", "exact", "win rate", "exact", "z")
            parts.append(_table("By main", columns, by_main))
        parts.append(f"<p>Dice passing: {escape(self.exact.dice_passing)}.</p>")
        if self.interrupted:
            counts = self.stats.counts
            played = f"{counts.rounds:,} of {counts.requested:,} rounds played"
            parts.append(f"<p><strong>Interrupted: {played}.</strong></p>")
        return "<div>" + "".join(parts) + "</div>"


def study_rounds(
    ruleset: Ruleset | str,
    rounds: int = 1_000_000,
    seed: int = 0,
    *,
    main: int | None = None,
    chunk_rounds: int = DEFAULT_CHUNK_ROUNDS,
    workers: int | None = None,
    progress: Progress | None = None,
    pool: Pool | None = None,
) -> RoundsStudy:
    """Simulate ``rounds`` rounds of ``ruleset`` (a built-in id, or a :class:`Ruleset`) from ``seed``, beside
    the exact odds. ``main``: every round on that main (called, or as if thrown). ``pool``: run the blocks
    on a cluster (:func:`hazard.sim.cluster.connect`), with the same results. As ``hazard simulate``."""
    found = _ruleset(ruleset)
    exact = _exact_figures(found, main, paytable_for(found))
    table = compile_table(found, main)
    counts = simulate_rounds(
        table, rounds, seed, chunk_rounds=chunk_rounds, workers=workers, progress=progress, pool=pool
    )
    return RoundsStudy(round_stats(counts), exact)


# --- sessions --------------------------------------------------------------------------------------------


@dataclass(frozen=True, eq=False)
class SessionsStudy:
    """Whole sessions at a table, with bankrolls and stakes, beside the exact edge and rounds kept."""

    sessions: SessionStudy
    exact: ExactFigures

    @property
    def interrupted(self) -> bool:
        return self.sessions.interrupted

    def to_json_dict(self) -> dict[str, Any]:
        """The JSON form of ``hazard simulate --sessions N --format json`` (docs/simulation.md)."""
        study = self.sessions
        data: dict[str, Any] = {
            "ruleset": study.table.ruleset.id,
            "main": study.table.main,
            "mode": "sessions",
        }
        data["dice_passing"] = self.exact.dice_passing
        data.update(study.to_json_dict(self.exact.edge, self.exact.overall.expected_rounds_kept))
        return data

    def figures(self) -> list[Figure]:
        """The study's main figures, with their 95% intervals (and the exact value where there is one)."""
        study = self.sessions
        out = [Figure("risk of ruin (first player)", study.ruin, digits=4)]
        out.append(Figure("some player ruined", study.any_ruin, digits=4))
        kept = study.rounds_kept
        if kept is not None:
            out.append(
                Figure(
                    "rounds a caster kept the dice", kept, self.exact.overall.expected_rounds_kept, digits=3
                )
            )
        take = study.take_per_unit
        out.append(
            Figure(
                "setters' take per unit staked",
                Estimate(take, math.nan, math.nan, 0, math.nan),
                self.exact.edge,
            )
        )
        return out

    def to_csv(self) -> str:
        """The CSV form of ``hazard simulate --sessions N --format csv``: one line a session."""
        study = self.sessions
        out = io.StringIO()
        writer = csv.writer(out, lineterminator="\n")
        players = study.config.players
        writer.writerow(
            [
                "session",
                *(f"bankroll_{p}" for p in range(players)),
                *(f"ruined_in_{p}" for p in range(players)),
                "rounds_played",
                "hands_passed",
                "setters_take",
                "staked",
            ]
        )
        for s in range(study.sessions):
            writer.writerow(
                [
                    s,
                    *(round(float(x), 6) for x in study.bankrolls[s]),
                    *(int(x) for x in study.ruined_in[s]),
                    int(study.played[s]),
                    int(study.hands[s]),
                    round(float(study.setters_take[s]), 6),
                    round(float(study.staked[s]), 6),
                ]
            )
        return out.getvalue()

    def heading(self) -> str:
        study, config = self.sessions, self.sessions.config
        return (
            f"{study.sessions:,} sessions of {study.table.ruleset.id} "
            f"(main {main_text(study.table.ruleset, study.table.main)}), {config.rounds} rounds each: "
            f"{config.players} players with {config.bankroll:g} units, {config.staking.value} stakes of "
            f"{config.stake:g}, paytable {study.paytable_id or 'even money'}, seed {study.seed}"
        )

    def _repr_html_(self) -> str:
        rows = [
            (
                f.name,
                _number(f.simulated.value, f.digits),
                _interval(f.simulated, f.digits),
                _number(f.exact, f.digits),
            )
            for f in self.figures()
        ]
        parts = [_table(self.heading(), ("figure", "simulated", "95% interval", "exact"), rows)]
        parts.append(f"<p>Dice passing: {escape(self.exact.dice_passing)}.</p>")
        if self.interrupted:
            study = self.sessions
            played = f"{study.sessions:,} of {study.config.sessions:,} sessions played"
            parts.append(f"<p><strong>Interrupted: {played}.</strong></p>")
        return "<div>" + "".join(parts) + "</div>"


def study_sessions(
    ruleset: Ruleset | str,
    config: SessionConfig | None = None,
    seed: int = 0,
    *,
    main: int | None = None,
    paytable: Paytable | str | None = None,
    workers: int | None = None,
    progress: Progress | None = None,
    pool: Pool | None = None,
) -> SessionsStudy:
    """Play the sessions ``config`` describes (its defaults without one) at a table of ``ruleset`` from
    ``seed``, settled under ``paytable`` (the ruleset's own by default), beside the exact edge. As
    ``hazard simulate --sessions``."""
    found = _ruleset(ruleset)
    chosen = _paytable(found, paytable)
    exact = _exact_figures(found, main, chosen)
    table = compile_table(found, main)
    study = simulate_sessions(
        table, config or SessionConfig(), seed, paytable=chosen, workers=workers, progress=progress, pool=pool
    )
    return SessionsStudy(study, exact)


# --- the HTML table --------------------------------------------------------------------------------------


def _number(value: float | None, digits: int = 5) -> str:
    return "—" if value is None or not math.isfinite(value) else f"{value:.{digits}f}"


def _interval(estimate: Estimate, digits: int = 5) -> str:
    if not (math.isfinite(estimate.low) and math.isfinite(estimate.high)):
        return "—"
    return f"{estimate.low:.{digits}f} – {estimate.high:.{digits}f}"


def _z(value: float | None) -> str:
    return "—" if value is None or not math.isfinite(value) else f"{value:+.2f}"


def _table(caption: str, columns: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    head = "".join(f"<th>{escape(c)}</th>" for c in columns)
    body = "".join("<tr>" + "".join(f"<td>{escape(cell)}</td>" for cell in row) + "</tr>" for row in rows)
    return (
        f"<table><caption>{escape(caption)}</caption><thead><tr>{head}</tr></thead>"
        f"<tbody>{body}</tbody></table>"
    )
