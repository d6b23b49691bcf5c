"""What the ruleset designer's page shows: a control for each rule of a ruleset, and its figures.

The figures are written here as the page's script writes them after each change (``designer.js``): four
decimals, a typeset minus sign, each cell carrying its exact fraction in ``data-exact``.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from fractions import Fraction

from hazard.analysis import Design, MainChange, kept_change
from hazard.analysis.odds import as_float
from hazard.analysis.wording import METHOD_WORDS
from hazard.core.dice import TOTALS
from hazard.core.numbers import fraction_text
from hazard.core.rules import LossCount, MainMethod, MainRow, Opening, Ruleset, StakeArrangement
from hazard.core.rulesets import builtin_paytables
from hazard.web.views import Option

__all__ = ["Column", "DesignerView", "Figure", "FigureRow", "designer_view"]


@dataclass(frozen=True, slots=True)
class Figure:
    """One figure as the page writes it, with its exact fraction ('' where there is none)."""

    shown: str
    exact: str = ""


@dataclass(frozen=True, slots=True)
class FigureRow:
    """One row of the figures: a main's (``label`` its total), or over a round."""

    label: str
    p_win: Figure
    d_p_win: Figure
    edge: Figure
    d_edge: Figure
    throws: Figure
    d_throws: Figure


@dataclass(frozen=True, slots=True)
class Column:
    """One total as a main: whether it is one, and what each throw does on its opening (2 to 12, in
    order). A total that is no main yet holds a row to begin from if it is made one."""

    main: int
    shown: bool
    cells: tuple[tuple[int, tuple[Option, ...]], ...]


@dataclass(frozen=True, slots=True)
class DesignerView:
    """The page: where it starts from, each rule's control, and the starting figures."""

    start: str
    starts: tuple[Option, ...]
    ident: str
    name: str
    citation: str
    methods: tuple[Option, ...]
    columns: tuple[Column, ...]
    chance_range: tuple[tuple[int, bool], ...]
    after_losses: int
    losses: tuple[Option, ...]
    stakes: tuple[Option, ...]
    paytables: tuple[Option, ...]
    rows: tuple[FigureRow, ...]
    overall: FigureRow
    kept: Figure
    d_kept: Figure


def _short(value: Fraction | None, digits: int = 4) -> Figure:
    shown = as_float(value)
    if value is None or shown is None:
        return Figure("—")
    return Figure(f"{shown:.{digits}f}".replace("-", "−"), fraction_text(value))


def _signed(value: Fraction | None, digits: int = 4, *, none: str = "—") -> Figure:
    shown = as_float(value)
    if value is None or shown is None:
        return Figure(none)
    return Figure(f"{shown:+.{digits}f}".replace("-", "−"), fraction_text(value))


def _exact(value: Fraction | None) -> str:
    return "" if value is None else fraction_text(value)


def _starting_row(main: int) -> MainRow:
    """What a total made a main begins with: it nicks, 2, 3, 11 and 12 are out, 4 to 10 the chance."""
    outs = frozenset({2, 3, 11, 12}) - {main}
    return MainRow(main, frozenset({main}), outs, frozenset(range(4, 11)) - {main})


def _column(ruleset: Ruleset, main: int) -> Column:
    shown = main in ruleset.mains
    row = ruleset.row(main) if shown else _starting_row(main)
    cells = tuple(
        (total, tuple(Option(o.value, o.value, row.opening(total) is o) for o in Opening)) for total in TOTALS
    )
    return Column(main, shown, cells)


def _figure_rows(design: Design) -> tuple[FigureRow, ...]:
    moves = {change.main: change for change in design.mains}
    rows = []
    for row in design.figures.mains:
        moved = moves.get(row.main, MainChange(row.main, None, None, None))
        rows.append(
            FigureRow(
                str(row.main),
                _short(row.p_win),
                _signed(moved.p_win, none="new"),
                _signed(row.edge),
                _signed(moved.edge, none="new"),
                _short(row.expected_throws, 2),
                _signed(moved.expected_throws, 2, none="new"),
            )
        )
    return tuple(rows)


def designer_view(start: Ruleset, design: Design, rulesets: Iterable[Ruleset]) -> DesignerView:
    """The page starting from ``start``, whose figures (against themselves) are ``design``."""
    figures, effect = design.figures, design.effect
    own = start.paytable if isinstance(start.paytable, str) else ""
    paytables = (
        Option("", "none: even money", not own),
        *(Option(p.id, p.id, p.id == own) for p in builtin_paytables()),
    )
    overall = FigureRow(
        "over a round",
        _short(figures.p_win),
        _signed(effect.p_win),
        _signed(figures.edge),
        _signed(effect.edge),
        _short(figures.expected_throws, 2),
        _signed(effect.expected_throws, 2),
    )
    return DesignerView(
        start=start.id,
        starts=tuple(Option(r.id, r.id, r.id == start.id) for r in rulesets),
        ident=f"{start.id}-designed",
        name=f"{start.name}, as designed",
        citation=f"{start.source.citation}; changed in hazard's ruleset designer",
        methods=tuple(Option(m.value, METHOD_WORDS[m], m is start.method) for m in MainMethod),
        columns=tuple(_column(start, main) for main in TOTALS),
        chance_range=tuple((total, total in start.chances) for total in TOTALS),
        after_losses=start.passing.after_losses,
        losses=tuple(Option(k.value, k.value, k is start.passing.losses) for k in LossCount),
        stakes=tuple(Option(s.value, f"{s.value}: {s.text}", s is start.stakes) for s in StakeArrangement),
        paytables=paytables,
        rows=_figure_rows(design),
        overall=overall,
        kept=_short(figures.rounds_kept, 2),
        d_kept=Figure(kept_change(effect, design.base), _exact(effect.rounds_kept)),
    )
