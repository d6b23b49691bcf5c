"""Two rulesets compared rule by rule: every rule that differs, and what changing it alone does to the odds.

A ruleset's rules are the fields of its file: how the main is chosen (``main.method``), the mains
(``main.mains``), each main's opening table cell by cell (what each total does on the opening throw: nick,
out, chance or thrown again; the chance range is read through these cells, since each main's chances are
the range less its nicks and outs), when the dice pass (``dice_passing.after_losses`` and ``.losses``), the
stake arrangement and the paytable. Its name, source and notes are not rules.

For each rule that differs, the first ruleset is changed in that one rule to the second's value and
analysed exactly (:func:`hazard.analysis.analyse`): so a reader sees which rule moves the edge most. A
change the format's own checks refuse (a fixed main with five mains, a paytable without odds for a chance
the changed ruleset can set) is reported as refused, with the check's message, instead of a figure.

The figures are a ruleset's under the paytable it is given (the front ends give its own, else even money,
as a table settles): each main's chance for the caster and house edge, and over a round: for a thrown main
the analyser's overall row, for a called main a caster who calls each main equally often
(:func:`~hazard.analysis.analyse_random_main`), for a fixed main its one row.

>>> from hazard.core.rulesets import find_paytable, find_ruleset
>>> even = find_paytable("even")
>>> comparison = compare_rulesets(find_ruleset("ecws-1674"), find_ruleset("cotton-1674"), (even, even))
>>> [difference.rule for difference in comparison.differences]
['main 7, opening 11']
>>> difference = comparison.differences[0]
>>> difference.first, difference.second, difference.effect.edge
('thrown again', 'nick', Fraction(-251, 16830))
"""

from __future__ import annotations

import enum
from collections.abc import Callable
from dataclasses import dataclass, replace
from fractions import Fraction
from functools import lru_cache
from typing import Any

from hazard.analysis.odds import analyse, analyse_random_main, as_float
from hazard.core.dice import TOTALS
from hazard.core.errors import InvalidError
from hazard.core.numbers import fraction_text
from hazard.core.paytable import Paytable
from hazard.core.rules import DicePassing, MainRow, Opening, Ruleset, totals_text

__all__ = [
    "Comparison",
    "Difference",
    "Effect",
    "Figures",
    "MainFigures",
    "RuleKind",
    "compare_rulesets",
    "kept_change",
    "moved_from",
    "ruleset_figures",
]


class RuleKind(enum.Enum):
    """Which rule of a ruleset a difference is in: the field of the ruleset file that holds it."""

    METHOD = "main.method"
    MAINS = "main.mains"
    OPENING = "opening"
    """One cell of one main's opening table: what one total does on the opening throw."""
    AFTER_LOSSES = "dice_passing.after_losses"
    LOSSES = "dice_passing.losses"
    STAKES = "stakes"
    PAYTABLE = "paytable"


_OPENING_WORDS = {
    Opening.NICK: "nick",
    Opening.OUT: "out",
    Opening.CHANCE: "chance",
    Opening.AGAIN: "thrown again",
}


@dataclass(frozen=True, slots=True)
class MainFigures:
    """One main's exact figures: rounds played on it from its opening throw."""

    main: int
    p_win: Fraction
    """The caster's chance of winning the round."""
    edge: Fraction
    """The house (setter's) edge per unit of the caster's stake."""
    expected_throws: Fraction


@dataclass(frozen=True, slots=True)
class Figures:
    """A ruleset's exact odds under one paytable: over a round (see the module's note), and per main."""

    p_win: Fraction
    edge: Fraction
    expected_throws: Fraction
    rounds_kept: Fraction | None
    """The expected rounds a caster keeps the dice; None where losing never passes them."""
    mains: tuple[MainFigures, ...]

    def main(self, main: int) -> MainFigures | None:
        """The figures of ``main``; None if it is not a main here."""
        return next((row for row in self.mains if row.main == main), None)

    def to_json_dict(self) -> dict[str, Any]:
        """Each figure as an exact string and a float, over a round and per main."""
        out: dict[str, Any] = {}
        for name in ("p_win", "edge", "expected_throws", "rounds_kept"):
            _pair(out, name, getattr(self, name))
        out["mains"] = []
        for row in self.mains:
            main: dict[str, Any] = {"main": row.main}
            for name in ("p_win", "edge", "expected_throws"):
                _pair(main, name, getattr(row, name))
            out["mains"].append(main)
        return out


def _pair(out: dict[str, Any], name: str, value: Fraction | None) -> None:
    out[name] = None if value is None else fraction_text(value)
    out[f"{name}_float"] = as_float(value)


@dataclass(frozen=True, slots=True)
class Effect:
    """What one change does to the figures: the changed ruleset's figures, and how far each moved."""

    figures: Figures
    edge: Fraction
    """The change in the edge over a round (positive: better for the house)."""
    p_win: Fraction
    expected_throws: Fraction
    rounds_kept: Fraction | None
    """None where either ruleset's dice never pass on losses."""

    def to_json_dict(self) -> dict[str, Any]:
        """How far each figure moved, then the changed ruleset's figures."""
        out: dict[str, Any] = {}
        for name in ("edge", "p_win", "expected_throws", "rounds_kept"):
            _pair(out, name, getattr(self, name))
        out["figures"] = self.figures.to_json_dict()
        return out


@dataclass(frozen=True, slots=True)
class Difference:
    """One rule in which the two rulesets differ, its two values in words, and the effect of the change."""

    kind: RuleKind
    rule: str
    """The rule in words: ``main.method``, ``main 7, opening 11`` ..."""
    first: str
    second: str
    effect: Effect | None
    """The first ruleset with this one rule changed to the second's; None where that is refused."""
    refused: str | None = None
    """Why the changed ruleset is refused: the check's own message."""
    main: int | None = None
    total: int | None = None
    """For an opening cell: its main and its total."""

    def to_json_dict(self) -> dict[str, Any]:
        """The difference as JSON: ``change`` holds the effect, null where the change is ``refused``."""
        return {
            "rule": self.rule,
            "kind": self.kind.value,
            "main": self.main,
            "total": self.total,
            "first": self.first,
            "second": self.second,
            "change": None if self.effect is None else self.effect.to_json_dict(),
            "refused": self.refused,
        }


@dataclass(frozen=True, slots=True)
class Comparison:
    """Two rulesets' figures, and every rule in which they differ."""

    first: Ruleset
    second: Ruleset
    paytables: tuple[Paytable, Paytable]
    figures: tuple[Figures, Figures]
    differences: tuple[Difference, ...]

    @property
    def largest(self) -> Difference | None:
        """The difference whose change alone moves the edge most (the first of equals); None where no change
        moves it (every one refused, or none differs in the odds)."""
        moved = [d for d in self.differences if d.effect is not None and d.effect.edge != 0]
        return max(moved, key=lambda d: abs(d.effect.edge) if d.effect else 0, default=None)

    def to_json_dict(self) -> dict[str, Any]:
        """The stable JSON form of ``hazard compare`` (see docs/analysis.md)."""
        largest = self.largest
        return {
            "first": _side(self.first, self.paytables[0], self.figures[0]),
            "second": _side(self.second, self.paytables[1], self.figures[1]),
            "differences": [difference.to_json_dict() for difference in self.differences],
            "largest": None if largest is None else largest.rule,
        }


def _side(ruleset: Ruleset, paytable: Paytable, figures: Figures) -> dict[str, Any]:
    return {"ruleset": ruleset.id, "name": ruleset.name, "paytable": paytable.id, **figures.to_json_dict()}


def ruleset_figures(ruleset: Ruleset, paytable: Paytable) -> Figures:
    """The exact figures of ``ruleset`` under ``paytable`` (an :class:`InvalidError` if it does not cover a
    chance the ruleset can set)."""
    return _figures(ruleset, paytable)


@lru_cache(maxsize=256)  # a pair's changes repeat across pairs (the same method or cell on the same ruleset)
def _figures(ruleset: Ruleset, paytable: Paytable) -> Figures:
    report = analyse(ruleset, paytable, distribution_throws=0)
    mains = tuple(
        MainFigures(row.main or 0, row.p_win, _edge(row.edge), row.expected_throws) for row in report.mains
    )
    overall = report.overall
    if overall is None:
        overall = analyse_random_main(ruleset, paytable, distribution_throws=0, report=report)
    return Figures(
        overall.p_win, _edge(overall.edge), overall.expected_throws, overall.expected_rounds_kept, mains
    )


def _edge(edge: Fraction | None) -> Fraction:
    assert edge is not None  # analysed under a paytable
    return edge


def compare_rulesets(first: Ruleset, second: Ruleset, paytables: tuple[Paytable, Paytable]) -> Comparison:
    """Every rule in which ``second`` differs from ``first``, with the effect of changing it alone in
    ``first``; each ruleset figured under its paytable of ``paytables``."""
    base = _figures(first, paytables[0])
    figures = (base, _figures(second, paytables[1]))
    differences = []
    for kind, rule, one, other, changed, pays, where in _changes(first, second, paytables):
        effect, refused = _effect(base, changed, pays)
        main, total = where
        differences.append(Difference(kind, rule, one, other, effect, refused, main, total))
    return Comparison(first, second, paytables, figures, tuple(differences))


_Change = tuple[RuleKind, str, str, str, "Ruleset | InvalidError", Paytable, tuple[int | None, int | None]]


def _changes(first: Ruleset, second: Ruleset, paytables: tuple[Paytable, Paytable]) -> list[_Change]:
    """Each rule that differs: its kind and words, both values, and ``first`` with it changed (or why that
    is refused), with the paytable to figure it under."""
    own = paytables[0]
    out: list[_Change] = []
    nowhere: tuple[int | None, int | None] = (None, None)
    if first.method is not second.method:
        changed = _build(replace, first, method=second.method)
        out.append(
            (RuleKind.METHOD, "main.method", first.method.value, second.method.value, changed, own, nowhere)
        )
    if first.mains != second.mains:
        rows = tuple(
            first.row(m) if m in first.mains else second.row(m) for m in second.mains
        )  # a main both have keeps the first's row; a new one brings the second's
        changed = _build(replace, first, rows=rows)
        words = (totals_text(first.mains), totals_text(second.mains))
        out.append((RuleKind.MAINS, "main.mains", *words, changed, own, nowhere))
    for main in first.mains:
        if main not in second.mains:
            continue
        mine, theirs = first.row(main), second.row(main)
        for total in TOTALS:
            was, now = mine.opening(total), theirs.opening(total)
            if was is now:
                continue
            changed = _build(_with_cell, first, mine, total, now)
            rule = f"main {main}, opening {total}"
            cell = (
                RuleKind.OPENING,
                rule,
                _OPENING_WORDS[was],
                _OPENING_WORDS[now],
                changed,
                own,
                (main, total),
            )
            out.append(cell)
    after, losses = first.passing, second.passing
    if after.after_losses != losses.after_losses:
        passing = DicePassing(losses.after_losses, after.losses)
        changed = _build(replace, first, passing=passing)
        words = (_after(after.after_losses), _after(losses.after_losses))
        out.append((RuleKind.AFTER_LOSSES, "dice_passing.after_losses", *words, changed, own, nowhere))
    if after.losses is not losses.losses:
        passing = DicePassing(after.after_losses, losses.losses)
        changed = _build(replace, first, passing=passing)
        words = (after.losses.value, losses.losses.value)
        out.append((RuleKind.LOSSES, "dice_passing.losses", *words, changed, own, nowhere))
    if first.stakes is not second.stakes:
        changed = replace(first, stakes=second.stakes)
        out.append(
            (RuleKind.STAKES, "stakes", first.stakes.value, second.stakes.value, changed, own, nowhere)
        )
    if paytables[0] != paytables[1]:
        words = (paytables[0].id, paytables[1].id)
        out.append((RuleKind.PAYTABLE, "paytable", *words, first, paytables[1], nowhere))
    return out


def kept_change(effect: Effect, base: Figures) -> str:
    """How the expected rounds kept move, for display: ``+1.25``, or ``never → 2.53`` where the dice never
    passed on losses before the change (``2.53 → never`` the other way), ``—`` where they never do.

    >>> from hazard.core.rulesets import find_paytable, find_ruleset
    >>> even = find_paytable("even")
    >>> comparison = compare_rulesets(find_ruleset("cotton"), find_ruleset("sca"), (even, even))
    >>> passing = next(d for d in comparison.differences if d.kind is RuleKind.AFTER_LOSSES)
    >>> passing.effect is not None and kept_change(passing.effect, comparison.figures[0])
    'never → 1.96'
    """
    before, after = base.rounds_kept, effect.figures.rounds_kept
    if effect.rounds_kept is not None:
        shown = as_float(effect.rounds_kept)
        return "—" if shown is None else f"{shown:+.2f}"
    if before is None and after is None:
        return "—"
    return f"{_kept(before)} → {_kept(after)}"


def _kept(value: Fraction | None) -> str:
    shown = as_float(value)
    return "never" if value is None else "> 1e308" if shown is None else f"{shown:.2f}"


def _after(losses: int) -> str:
    return "never" if losses == 0 else str(losses)


def _with_cell(ruleset: Ruleset, row: MainRow, total: int, now: Opening) -> Ruleset:
    """``ruleset`` with what ``total`` does on ``row``'s main's opening throw set to ``now``."""
    cells = {kind: set(getattr(row, name)) - {total} for kind, name in _CELLS.items()}
    if now in cells:
        cells[now].add(total)
    changed = MainRow(
        row.main,
        nicks=frozenset(cells[Opening.NICK]),
        outs=frozenset(cells[Opening.OUT]),
        chances=frozenset(cells[Opening.CHANCE]),
    )
    return replace(ruleset, rows=tuple(changed if r.main == row.main else r for r in ruleset.rows))


_CELLS = {Opening.NICK: "nicks", Opening.OUT: "outs", Opening.CHANCE: "chances"}


def _build(make: Callable[..., Ruleset], *args: object, **changes: object) -> Ruleset | InvalidError:
    """``make(*args, **changes)``: the changed ruleset, or the format's refusal of it (the constructors of a
    ruleset and its rows hold the file's checks)."""
    try:
        return make(*args, **changes)
    except InvalidError as error:
        return error


def _effect(
    base: Figures, changed: Ruleset | InvalidError, paytable: Paytable
) -> tuple[Effect | None, str | None]:
    if isinstance(changed, InvalidError):
        return None, str(changed)
    try:
        figures = _figures(changed, paytable)  # analyse() checks the paytable covers every chance
    except InvalidError as error:
        return None, str(error)
    return moved_from(base, figures), None


def moved_from(base: Figures, figures: Figures) -> Effect:
    """How far each of ``figures`` moved from ``base``'s: the effect of a change from one to the other."""
    kept = None
    if figures.rounds_kept is not None and base.rounds_kept is not None:
        kept = figures.rounds_kept - base.rounds_kept
    return Effect(
        figures,
        edge=figures.edge - base.edge,
        p_win=figures.p_win - base.p_win,
        expected_throws=figures.expected_throws - base.expected_throws,
        rounds_kept=kept,
    )
