"""The exact analyser's figures for what a study simulates, as the simulator's :class:`hazard.sim.Exact`."""

from __future__ import annotations

from dataclasses import replace

from hazard.analysis import MainOdds, analyse, analyse_random_main, as_float
from hazard.core.passing import passing_text
from hazard.core.paytable import Paytable
from hazard.core.rules import MainMethod, Ruleset
from hazard.sim import Exact

__all__ = ["ExactFigures"]


def _exact(odds: MainOdds) -> Exact:
    return Exact(
        p_win=float(odds.p_win),
        p_nick=float(odds.p_nick),
        p_out=float(odds.p_out),
        expected_throws=float(odds.expected_throws),
        throws_variance=float(odds.throws_variance),
        p_chance_set={c: float(p) for c, p in odds.p_chance_set.items()},
        p_win_by_chance={c: float(p) for c, p in odds.p_win_by_chance.items()},
        p_main=float(odds.p_main),
        expected_rounds_kept=as_float(odds.expected_rounds_kept),
        throws_distribution=tuple(float(p) for p in odds.throws_distribution),
    )


class ExactFigures:
    """The analyser's figures for what is simulated: overall, per main, the edge and rounds kept.

    With ``main``, every round is played on it (called, or as if thrown): the analyser's row for that main.
    Without, a thrown main's overall figures count from the throw for the main, and so do the simulator's
    groups by main, so each main's exact figures beside them are the analyser's row with the throws for the
    main added (:meth:`~hazard.analysis.OddsReport.from_throw_for_main`). A main called at random is
    :func:`~hazard.analysis.analyse_random_main`, each main's share 1 / the number of mains.
    """

    def __init__(self, ruleset: Ruleset, main: int | None, paytable: Paytable) -> None:
        report = analyse(ruleset, paytable, main=main)
        self.mains: dict[int, Exact] = {}
        self.p_no_round = float(report.p_no_round)
        self.dice_passing = passing_text(ruleset)
        if main is not None or ruleset.method is MainMethod.FIXED:
            overall = report.mains[0]
        elif report.overall is not None:  # a thrown main
            overall = report.overall
            self.mains = {row.main or 0: _exact(report.from_throw_for_main(row)) for row in report.mains}
        else:  # a called main, called at random
            overall = analyse_random_main(ruleset, paytable)
            share = 1 / len(report.mains)
            self.mains = {row.main or 0: replace(_exact(row), p_main=share) for row in report.mains}
        self.overall = _exact(overall)
        self.edge = as_float(overall.edge)
