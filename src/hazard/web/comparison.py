"""The page that compares two built-in rulesets rule by rule: ``/compare?a=ID&b=ID``.

The figures are :func:`hazard.analysis.compare_rulesets`'s, as ``hazard compare`` prints them. Only built-in
ids are taken (a client's name never opens a file: the loader is called with ``paths=False``), and any other
name is refused in the server's one refusal form, naming the ids there are.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from typing import Annotated

from fastapi import APIRouter, Query
from fastapi.responses import HTMLResponse
from jinja2 import Environment

from hazard.analysis import Comparison, Difference, Figures, compare_rulesets, kept_change
from hazard.analysis.odds import as_float
from hazard.core.numbers import readable_fraction
from hazard.core.rulesets import builtin_rulesets, find_ruleset, paytable_for, settling_paytable
from hazard.web.builtins import built_in_ruleset
from hazard.web.pages import templates
from hazard.web.views import Option

__all__ = ["CompareView", "Row", "compare_page", "compare_view", "router"]

FIRST, SECOND = "cotton-1674", "craps"
"""The rulesets the page compares when none are named: the 1674 game and its modern descendant."""

router = APIRouter(include_in_schema=False)


@dataclass(frozen=True, slots=True)
class Row:
    """One rule that differs, as the page shows it: its values, and the change's effect (or refusal)."""

    rule: str
    first: str
    second: str
    edge_then: str
    edge: str
    exact: str
    """The change in the edge as an exact fraction."""
    p_win: str
    throws: str
    kept: str
    refused: str
    largest: bool


@dataclass(frozen=True, slots=True)
class Side:
    """One ruleset's figures over a round."""

    id: str
    name: str
    paytable: str
    p_win: str
    edge: str
    exact: str
    throws: str
    kept: str


@dataclass(frozen=True, slots=True)
class CompareView:
    """The page: the choices of its two selects, both rulesets' figures, and each rule that differs."""

    firsts: tuple[Option, ...]
    seconds: tuple[Option, ...]
    first: str
    second: str
    sides: tuple[Side, Side]
    rows: tuple[Row, ...]
    headline: str


def _short(value: Fraction | None, digits: int = 4) -> str:
    shown = as_float(value)
    return "—" if shown is None else f"{shown:.{digits}f}"


def _signed(value: Fraction | None, digits: int = 4) -> str:
    shown = as_float(value)
    return "—" if shown is None else _minus(f"{shown:+.{digits}f}")


def _minus(text: str) -> str:
    """A figure with a typeset minus sign, as the page prints every negative number."""
    return text.replace("-", "−")


def _row(difference: Difference, largest: Difference | None, base: Figures) -> Row:
    effect = difference.effect
    if effect is None:
        refused = difference.refused or ""
        return Row(
            difference.rule, difference.first, difference.second, "", "", "", "", "", "", refused, False
        )
    return Row(
        difference.rule,
        difference.first,
        difference.second,
        _signed(effect.figures.edge),
        _signed(effect.edge),
        _minus(readable_fraction(effect.edge)) if effect.edge else "",
        _signed(effect.p_win),
        _signed(effect.expected_throws, 2),
        kept_change(effect, base),
        "",
        difference is largest,
    )


def compare_view(comparison: Comparison) -> CompareView:
    """What the page shows of ``comparison``."""
    ids = [ruleset.id for ruleset in builtin_rulesets()]
    first, second = comparison.first.id, comparison.second.id
    sides = tuple(
        Side(
            ruleset.id,
            ruleset.name,
            paytable.id,
            _short(figures.p_win),
            _signed(figures.edge),
            _minus(readable_fraction(figures.edge)),
            _short(figures.expected_throws, 2),
            _short(figures.rounds_kept, 2),
        )
        for ruleset, paytable, figures in zip(
            (comparison.first, comparison.second), comparison.paytables, comparison.figures, strict=True
        )
    )
    largest = comparison.largest
    headline = "No rule differs." if not comparison.differences else "No rule changed alone moves the edge."
    if largest is not None and largest.effect is not None:
        headline = (
            f"The rule that moves the edge most: {largest.rule} ({largest.first} → {largest.second}), "
            f"{_signed(largest.effect.edge)} per unit staked."
        )
    return CompareView(
        firsts=tuple(Option(i, i, i == first) for i in ids),
        seconds=tuple(Option(i, i, i == second) for i in ids),
        first=first,
        second=second,
        sides=(sides[0], sides[1]),
        rows=tuple(_row(d, largest, comparison.figures[0]) for d in comparison.differences),
        headline=headline,
    )


@cache
def _templates() -> Environment:
    return templates()


def compare_page(first: str, second: str) -> str:
    """The page comparing built-in rulesets ``first`` and ``second`` (ids or aliases)."""
    return _page(
        built_in_ruleset(first, asked="comparison", named="a").id,
        built_in_ruleset(second, asked="comparison", named="b").id,
    )


@cache  # two built-in ids: 36 pages in all, each exact and the same every time
def _page(first: str, second: str) -> str:
    rulesets = (find_ruleset(first), find_ruleset(second))
    pays = (settling_paytable(paytable_for(rulesets[0])), settling_paytable(paytable_for(rulesets[1])))
    view = compare_view(compare_rulesets(*rulesets, pays))
    return (
        _templates()
        .get_template("compare.html")
        .render(
            title=f"{view.first} compared with {view.second} · Hazard",
            data={"page": "compare"},
            compare=view,
        )
    )


@router.get("/compare", response_class=HTMLResponse)
async def compare(
    a: Annotated[str, Query(max_length=80)] = FIRST, b: Annotated[str, Query(max_length=80)] = SECOND
) -> HTMLResponse:
    """Two built-in rulesets rule by rule, with what changing each rule alone does to the odds."""
    # A pair not asked for before is solved exactly (some 0.3 s): off the event loop, which serves the tables.
    return HTMLResponse(await asyncio.to_thread(compare_page, a, b))
