"""A designed ruleset's exact figures, and how far each moved from the built-in ruleset it started from.

The figures are :func:`~hazard.analysis.ruleset_figures`'s (as ``/compare`` and ``hazard compare`` show
them): each main's chance for the caster, house edge and expected throws, and over a round the same with the
expected rounds kept; each ruleset under its own paytable, else even money, as a table settles.

>>> from hazard.core.rulesets import find_ruleset
>>> design = design_figures(find_ruleset("cotton-1674"), find_ruleset("ecws-1674"))
>>> design.effect.edge, design.mains[2].p_win
(Fraction(251, 16830), Fraction(-251, 8415))
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from hazard.analysis.compare import Effect, Figures, MainFigures, _pair, moved_from, ruleset_figures
from hazard.core.paytable import Paytable
from hazard.core.rules import Ruleset
from hazard.core.rulesets import paytable_for, settling_paytable

__all__ = ["Design", "MainChange", "design_figures"]


@dataclass(frozen=True, slots=True)
class MainChange:
    """How far one main's figures moved from the starting ruleset's; None where it was no main there."""

    main: int
    p_win: Fraction | None
    edge: Fraction | None
    expected_throws: Fraction | None


@dataclass(frozen=True, slots=True)
class Design:
    """A designed ruleset, the built-in one it started from, both figured, and each figure's move."""

    start: Ruleset
    ruleset: Ruleset
    paytable: Paytable
    base: Figures
    effect: Effect
    mains: tuple[MainChange, ...]

    @property
    def figures(self) -> Figures:
        """The designed ruleset's own figures."""
        return self.effect.figures

    def to_json_dict(self) -> dict[str, Any]:
        """The designed ruleset's figures, the starting ruleset's, and how far each moved (``change``;
        ``mains`` holds each main's, null where it was no main in the starting ruleset)."""
        change = self.effect.to_json_dict()
        del change["figures"]
        change["mains"] = []
        for row in self.mains:
            moved: dict[str, Any] = {"main": row.main}
            for name in ("p_win", "edge", "expected_throws"):
                _pair(moved, name, getattr(row, name))
            change["mains"].append(moved)
        return {
            "start": self.start.id,
            "ruleset": self.ruleset.id,
            "name": self.ruleset.name,
            "paytable": self.paytable.id,
            "figures": self.figures.to_json_dict(),
            "base": self.base.to_json_dict(),
            "change": change,
        }


def _own_figures(ruleset: Ruleset) -> tuple[Paytable, Figures]:
    paytable = settling_paytable(paytable_for(ruleset))
    return paytable, ruleset_figures(ruleset, paytable)


def _main_change(row: MainFigures, was: MainFigures | None) -> MainChange:
    if was is None:
        return MainChange(row.main, None, None, None)
    return MainChange(
        row.main, row.p_win - was.p_win, row.edge - was.edge, row.expected_throws - was.expected_throws
    )


def design_figures(start: Ruleset, ruleset: Ruleset) -> Design:
    """``ruleset``'s figures and their moves from ``start``'s, each under its own paytable (else even
    money); an :class:`~hazard.core.errors.InvalidError` where a paytable misses a chance it can set."""
    _, base = _own_figures(start)
    paytable, figures = _own_figures(ruleset)
    mains = tuple(_main_change(row, base.main(row.main)) for row in figures.mains)
    return Design(start, ruleset, paytable, base, moved_from(base, figures), mains)
