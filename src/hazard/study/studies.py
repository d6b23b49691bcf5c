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
from typing import TYPE_CHECKING, Any, TextIO

from hazard.core.paytable import Paytable
from hazard.core.rules import Ruleset
from hazard.core.rulesets import find_ruleset, paytable_for, settling_paytable
from hazard.extras import require
from hazard.sim import (
    Estimate,
    Exact,
    GroupStats,
    Pool,
    RoundStats,
    SessionConfig,
    compile_rules,
    round_stats,
    simulate_rounds,
)
from hazard.sim.rounds import DEFAULT_CHUNK_ROUNDS
from hazard.study.exact import ExactFigures

if TYPE_CHECKING:
    from hazard.sim.session import SessionRows, SessionTally

__all__ = [
    "FIGURE_COLUMNS",
    "MAIN_COLUMNS",
    "Figure",
    "RoundsStudy",
    "SessionsStudy",
    "figure_cells",
    "interval_text",
    "main_text",
    "number_text",
    "study_rounds",
    "study_sessions",
    "z_text",
]

Progress = Callable[[int], None]
"""Called with the rounds (or sessions) played so far."""

FIGURE_COLUMNS = ("figure", "simulated", "95% interval", "exact", "z")
"""The columns of :func:`figure_cells`."""
MAIN_COLUMNS = ("main", "rounds", "share", "exact", "win rate", "exact", "z", "throws", "exact")
"""The columns of :meth:`RoundsStudy.main_rows`."""


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
    return find_ruleset(ruleset, paths=True) if isinstance(ruleset, str) else ruleset


def _paytable(ruleset: Ruleset, paytable: Paytable | str | None) -> Paytable | None:
    if isinstance(paytable, Paytable):
        paytable.check(ruleset)
        return paytable
    return paytable_for(ruleset, paytable, paths=True)


def _exact_figures(ruleset: Ruleset, main: int | None, paytable: Paytable | None) -> ExactFigures:
    if main is not None:
        ruleset.row(main)  # an unknown main is refused before any work
    return ExactFigures(ruleset, main, settling_paytable(paytable))


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

    def main_rows(self) -> list[tuple[str, ...]]:
        """Each main's figures beside its exact ones, as text (:data:`MAIN_COLUMNS`): empty where the
        rounds are not grouped by main."""
        rows: list[tuple[str, ...]] = []
        for group in self.stats.mains:
            e = self.exact.mains.get(group.main or 0)
            rows.append(
                (
                    str(group.main),
                    f"{group.rounds:,}",
                    number_text(group.share.value, 4),
                    number_text(None if e is None else e.p_main, 4),
                    number_text(group.win.value),
                    number_text(None if e is None else e.p_win),
                    z_text(None if e is None else group.win.z_rate(e.p_win)),
                    number_text(group.throws.value, 3),
                    number_text(None if e is None else e.expected_throws, 3),
                )
            )
        return rows

    def __repr__(self) -> str:
        # One line: its counts hold every throw's tally (some 110 KB as a dataclass's repr); the figures are
        # for _repr_html_, to_json_dict and hazard simulate.
        counts = self.stats.counts
        shown = [f for f in self.figures() if f.name in _HEADLINE_ROUNDS]
        return (
            f"<RoundsStudy {counts.rounds:,} rounds of {self.stats.ruleset_id} "
            f"(main {main_text(counts.table.ruleset, self.stats.main)}), seed {counts.seed}: "
            f"{_headline(shown)}{_interrupted_text(self.interrupted)}>"
        )

    def _repr_html_(self) -> str:
        rows = [figure_cells(f) for f in self.figures()]
        parts = [_table(self.heading(), FIGURE_COLUMNS, rows)]
        if self.stats.mains:
            parts.append(_table("By main", MAIN_COLUMNS, self.main_rows()))
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
    on a cluster (``hazard.sim.cluster.connect``), with the same results. As ``hazard simulate``."""
    found = _ruleset(ruleset)
    exact = _exact_figures(found, main, paytable_for(found))
    table = compile_rules(found, main)
    counts = simulate_rounds(
        table, rounds, seed, chunk_rounds=chunk_rounds, workers=workers, progress=progress, pool=pool
    )
    return RoundsStudy(round_stats(counts), exact)


# --- sessions --------------------------------------------------------------------------------------------


@dataclass(frozen=True, eq=False)
class SessionsStudy:
    """Whole sessions at a table, with bankrolls and stakes, beside the exact edge and rounds kept."""

    tally: SessionTally
    exact: ExactFigures

    @property
    def interrupted(self) -> bool:
        return self.tally.interrupted

    def to_json_dict(self) -> dict[str, Any]:
        """The JSON form of ``hazard simulate --sessions N --format json`` (docs/simulation.md)."""
        study = self.tally
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
        study = self.tally
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
        """The CSV form of ``hazard simulate --sessions N --format csv``: one line a session (see
        :meth:`write_csv` for a study too big to hold as text)."""
        out = io.StringIO()
        self.write_csv(out)
        return out.getvalue()

    def write_csv(self, out: TextIO, progress: Progress | None = None) -> None:
        """Write :meth:`to_csv` to ``out`` as the sessions are played again (:meth:`SessionTally.replay`):
        a line a session, however many, in memory that does not grow with them. ``progress`` gets the
        sessions written so far."""
        study = self.tally
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

        def write(rows: SessionRows) -> None:
            bankrolls, ruined = rows.bankrolls.tolist(), rows.ruined_in.tolist()
            played, hands = rows.played.tolist(), rows.hands.tolist()
            take, staked = rows.setters_take.tolist(), rows.staked.tolist()
            writer.writerows(
                [
                    rows.first + s,
                    *(round(x, 6) for x in bankrolls[s]),
                    *ruined[s],
                    played[s],
                    hands[s],
                    round(take[s], 6),
                    round(staked[s], 6),
                ]
                for s in range(rows.sessions)
            )

        study.replay(write, progress=progress)

    def heading(self) -> str:
        study, config = self.tally, self.tally.config
        return (
            f"{study.sessions:,} sessions of {study.table.ruleset.id} "
            f"(main {main_text(study.table.ruleset, study.table.main)}), {config.rounds} rounds each: "
            f"{config.players} players with {config.bankroll:g} units, {config.staking.value} stakes of "
            f"{config.stake:g} ({study.table.ruleset.stakes.text}), "
            f"paytable {study.paytable_id or 'even money'}, seed {study.seed}"
        )

    def __repr__(self) -> str:
        # One line, as RoundsStudy's: the tally holds every session's bankrolls (some 84 KB and more).
        study, config = self.tally, self.tally.config
        shown = [f for f in self.figures() if f.name in _HEADLINE_SESSIONS]
        return (
            f"<SessionsStudy {study.sessions:,} sessions of {study.table.ruleset.id} "
            f"(main {main_text(study.table.ruleset, study.table.main)}), {config.rounds} rounds each, "
            f"{config.players} players, seed {study.seed}: "
            f"{_headline(shown)}{_interrupted_text(self.interrupted)}>"
        )

    def _repr_html_(self) -> str:
        rows = [figure_cells(f, z=False) for f in self.figures()]
        parts = [_table(self.heading(), FIGURE_COLUMNS[:-1], rows)]
        parts.append(f"<p>Dice passing: {escape(self.exact.dice_passing)}.</p>")
        if self.interrupted:
            study = self.tally
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
    table = compile_rules(found, main)
    require("numpy", what="a session study", extra="sessions")
    from hazard.sim.session import simulate_sessions  # noqa: PLC0415 - NumPy, for sessions only

    study = simulate_sessions(
        table, config or SessionConfig(), seed, paytable=chosen, workers=workers, progress=progress, pool=pool
    )
    return SessionsStudy(study, exact)


# --- the HTML table --------------------------------------------------------------------------------------


def number_text(value: float | None, digits: int = 5) -> str:
    """A figure as a study shows it: ``digits`` decimals, or a dash where there is none."""
    return "—" if value is None or not math.isfinite(value) else f"{value:.{digits}f}"


def interval_text(estimate: Estimate, digits: int = 5) -> str:
    """A 95% interval as a study shows it: ``[low, high]``."""
    return f"[{number_text(estimate.low, digits)}, {number_text(estimate.high, digits)}]"


def z_text(value: float | None) -> str:
    """A z-score as a study shows it: signed, two decimals."""
    return "—" if value is None or not math.isfinite(value) else f"{value:+.2f}"


_HEADLINE_ROUNDS = ("win rate", "throws per round")
_HEADLINE_SESSIONS = ("risk of ruin (first player)", "setters' take per unit staked")


def _headline(figures: Sequence[Figure]) -> str:
    """A study's headline figures in a line: each with its exact value where there is one."""
    parts = []
    for figure in figures:
        text = f"{figure.name} {number_text(figure.simulated.value, figure.digits)}"
        if figure.exact is not None:
            text += f" (exact {number_text(figure.exact, figure.digits)}"
            text += ")" if figure.z is None else f", z {z_text(figure.z)})"
        parts.append(text)
    return ", ".join(parts)


def _interrupted_text(interrupted: bool) -> str:
    return ", interrupted" if interrupted else ""


def figure_cells(figure: Figure, *, z: bool = True) -> tuple[str, ...]:
    """A figure's line as text: name, simulated, interval, exact (and z)."""
    cells = (
        figure.name,
        number_text(figure.simulated.value, figure.digits),
        interval_text(figure.simulated, figure.digits),
        number_text(figure.exact, figure.digits),
    )
    return (*cells, z_text(figure.z)) if z else cells


def _table(caption: str, columns: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    head = "".join(f"<th>{escape(c)}</th>" for c in columns)
    body = "".join("<tr>" + "".join(f"<td>{escape(cell)}</td>" for cell in row) + "</tr>" for row in rows)
    return (
        f"<table><caption>{escape(caption)}</caption><thead><tr>{head}</tr></thead>"
        f"<tbody>{body}</tbody></table>"
    )
