"""``hazard compare``: two rulesets rule by rule, with what each difference does to the odds."""

from __future__ import annotations

import enum
import json
from fractions import Fraction
from typing import TYPE_CHECKING, Annotated

import typer

from hazard.analysis import Comparison, compare_rulesets, kept_change
from hazard.analysis.odds import as_float
from hazard.cli.app import app, console
from hazard.core.rulesets import find_ruleset, paytable_for, settling_paytable

if TYPE_CHECKING:
    from rich.console import RenderableType

__all__ = ["compare", "comparison_json", "comparison_view"]


class CompareFormat(enum.Enum):
    TABLE = "table"
    JSON = "json"


_RULESET = "A built-in ruleset id or alias (see 'hazard rules'), or the path of your own .toml file."


@app.command()
def compare(
    first: Annotated[str, typer.Argument(help=_RULESET, show_default=False)],
    second: Annotated[str, typer.Argument(help=_RULESET, show_default=False)],
    output: Annotated[
        CompareFormat, typer.Option("--format", "-f", help="table or json.")
    ] = CompareFormat.TABLE,
) -> None:
    """Two rulesets rule by rule: each rule that differs, and the odds of the first with that rule changed.

    Each ruleset is figured under its own paytable, or even money where it names none (as a table settles).
    """
    rulesets = (find_ruleset(first, paths=True), find_ruleset(second, paths=True))
    a, b = (settling_paytable(paytable_for(ruleset)) for ruleset in rulesets)
    comparison = compare_rulesets(*rulesets, (a, b))
    if output is CompareFormat.JSON:
        print(comparison_json(comparison))
    else:
        console().print(comparison_view(comparison))


def comparison_json(comparison: Comparison) -> str:
    """The stable JSON form of ``hazard compare``."""
    return json.dumps(comparison.to_json_dict(), indent=2)


def _short(value: Fraction | None, digits: int = 4) -> str:
    shown = as_float(value)
    return "—" if shown is None else f"{shown:.{digits}f}"


def _signed(value: Fraction | None, digits: int = 4) -> str:
    shown = as_float(value)
    return "—" if shown is None else f"{shown:+.{digits}f}"


def comparison_view(comparison: Comparison) -> RenderableType:
    """The tables printed by ``hazard compare``."""
    from rich import box  # noqa: PLC0415 - Rich only where a table is drawn
    from rich.console import Group  # noqa: PLC0415
    from rich.padding import Padding  # noqa: PLC0415
    from rich.table import Table  # noqa: PLC0415
    from rich.text import Text  # noqa: PLC0415

    first, second = comparison.first, comparison.second
    parts: list[RenderableType] = [Text(f"{first.id} compared with {second.id}", style="bold")]
    both = Table(title="Each ruleset over a round", title_justify="left", box=box.SIMPLE_HEAD)
    for column in ("ruleset", "paytable", "P(win)", "edge", "throws", "kept"):
        both.add_column(column, justify="left" if column in ("ruleset", "paytable") else "right")
    for ruleset, paytable, figures in zip(
        (first, second), comparison.paytables, comparison.figures, strict=True
    ):
        both.add_row(
            ruleset.id,
            paytable.id,
            _short(figures.p_win),
            _signed(figures.edge),
            _short(figures.expected_throws, 2),
            _short(figures.rounds_kept, 2),
        )
    parts.append(both)
    if not comparison.differences:
        parts.append(Text("No rule differs."))
        return Group(*(Padding(part, (0, 0, 1, 0)) for part in parts))
    grid = Table(
        title=f"Each rule that differs, changed alone in {first.id}",
        title_justify="left",
        box=box.SIMPLE_HEAD,
    )
    for column in ("rule", first.id, second.id, "edge then", "Δ edge", "Δ P(win)", "Δ throws", "Δ kept"):
        words = column in ("rule", first.id, second.id)
        wraps = column in (first.id, second.id)  # a rule's name and its figures stay on one line
        grid.add_column(column, justify="left" if words else "right", no_wrap=not wraps, overflow="fold")
    refusals: list[str] = []
    for difference in comparison.differences:
        effect = difference.effect
        if effect is None:
            refusals.append(f"[{len(refusals) + 1}] {difference.rule}: {difference.refused}")
            refused = f"refused [{len(refusals)}]"
            grid.add_row(difference.rule, difference.first, difference.second, refused, "", "", "", "")
            continue
        grid.add_row(
            difference.rule,
            difference.first,
            difference.second,
            _signed(effect.figures.edge),
            _signed(effect.edge),
            _signed(effect.p_win),
            _signed(effect.expected_throws, 2),
            kept_change(effect, comparison.figures[0]),
        )
    parts.append(grid)
    if refusals:
        parts.append(Text("Refused as a ruleset file would be:\n" + "\n".join(refusals)))
    largest = comparison.largest
    if largest is not None and largest.effect is not None:
        parts.append(
            Text(
                f"The rule that moves the edge most: {largest.rule} ({largest.first} → {largest.second}), "
                f"{_signed(largest.effect.edge)} per unit staked."
            )
        )
    else:
        parts.append(Text("No rule changed alone moves the edge."))
    parts.append(
        Text(
            "edge: the house's edge per unit of the caster's stake over a round (a called main: each main "
            "called equally often); edge then: the first ruleset's with that one rule changed; throws: "
            "expected throws per round; kept: expected rounds before the dice pass (— where they never pass "
            "on losses)."
        )
    )
    return Group(*(Padding(part, (0, 0, 1, 0)) for part in parts))
