"""Turning rulesets, odds and bets into what the terminal shows, and into JSON and CSV.

No game logic lives here: every figure comes from :mod:`hazard.analysis`, every rule from the ruleset.
"""

from __future__ import annotations

import io
from collections.abc import Iterable
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from rich import box
from rich.console import Group, RenderableType
from rich.padding import Padding
from rich.table import Table
from rich.text import Text

from hazard.analysis import MainOdds, OddsReport, as_float
from hazard.analysis.wording import METHOD_WORDS, SET_CHANCE
from hazard.core.dice import TOTALS
from hazard.core.numbers import fraction_text
from hazard.core.passing import passing_text
from hazard.core.paytable import Paytable
from hazard.core.rules import Ruleset

if TYPE_CHECKING:
    from hazard.analysis.bets import BetAnalysis  # a side bet's own parser: loaded by hazard bet alone

__all__ = [
    "bet_json",
    "bet_view",
    "odds_csv",
    "odds_json",
    "odds_view",
    "paytable_view",
    "ruleset_list_view",
    "ruleset_view",
]

_METHODS = METHOD_WORDS


def _totals(values: Iterable[int]) -> str:
    return ", ".join(str(v) for v in sorted(values)) or "—"


def ruleset_list_view(rulesets: Iterable[Ruleset]) -> Table:
    """The table printed by ``hazard rules``."""
    grid = Table(title="Built-in rulesets", title_justify="left")
    grid.add_column("id", style="bold")
    grid.add_column("main")
    grid.add_column("source")
    grid.add_column("aliases")
    for ruleset in rulesets:
        source = ruleset.source.file or ruleset.source.citation
        grid.add_row(
            ruleset.id, f"{ruleset.method.value} {_totals(ruleset.mains)}", source, _totals_text(ruleset)
        )
    return grid


def _totals_text(ruleset: Ruleset) -> str:
    return ", ".join(ruleset.aliases) or "—"


def ruleset_view(ruleset: Ruleset, paytable: Paytable | None) -> RenderableType:
    """One ruleset as the sources print it: a table by main, then the citation and the notes."""
    parts: list[RenderableType] = [Text(f"{ruleset.name}  ({ruleset.id})", style="bold")]
    cited = ruleset.source.citation
    if ruleset.source.file:
        cited += f"\nsource file: {ruleset.source.file}"
    parts.append(Text(cited))
    parts.append(Text(f"Main: {_METHODS[ruleset.method]} — {_totals(ruleset.mains)}"))
    grid = Table(title="The opening throw (the throw for a chance)", title_justify="left")
    for column in ("main", "nicks (caster wins)", "outs (caster loses)", "chances", "thrown again"):
        grid.add_column(column)
    for row in ruleset.rows:
        grid.add_row(
            str(row.main), _totals(row.nicks), _totals(row.outs), _totals(row.chances), _totals(row.again)
        )
    parts.append(grid)
    parts.append(Text(SET_CHANCE))
    parts.append(Text(f"Dice passing: {passing_text(ruleset)}."))
    if paytable is None:
        parts.append(Text("Paytable: the source gives none (choose one with --paytable)."))
    else:
        parts.append(paytable_view(paytable, ruleset))
    if ruleset.notes:
        notes = Text("Notes on reading the source:\n", style="bold")
        for number, note in enumerate(ruleset.notes, start=1):
            notes.append(f"{number}. {note}\n", style="")
        parts.append(notes)
    return Group(*(Padding(part, (0, 0, 1, 0)) for part in parts))


def paytable_view(paytable: Paytable, ruleset: Ruleset) -> RenderableType:
    """A paytable, with its odds grid by main and chance where the odds vary."""
    head = Text(
        f"Paytable {paytable.id} ({paytable.name}): a nick pays {fraction_text(paytable.nick)}; "
        f"a won chance pays {paytable.describe_chance()}; an out or a lost chance loses the stake."
    )
    if paytable.flat is not None:
        return head
    chances = sorted(ruleset.chances)
    grid = Table(title=f"Odds paid on a won chance ({paytable.id})", title_justify="left")
    grid.add_column("main \\ chance")
    for chance in chances:
        grid.add_column(str(chance), justify="right")
    for row in ruleset.rows:
        cells = [
            fraction_text(paytable.chance_odds(row.main, c)) if c in row.chances else "—" for c in chances
        ]
        grid.add_row(str(row.main), *cells)
    return Group(head, grid)


def _short(value: Fraction | None, digits: int = 4) -> str:
    if value is None:
        return "—"
    shown = as_float(value)
    return "> 1e308" if shown is None else f"{shown:.{digits}f}"


def _signed(value: Fraction | None) -> str:
    return "—" if value is None else f"{float(value):+.4f}"


def odds_view(report: OddsReport) -> RenderableType:
    """The tables printed by ``hazard odds``."""
    ruleset = report.ruleset
    parts: list[RenderableType] = []
    paytable = "none (no expected values)" if report.paytable is None else report.paytable.id
    parts.append(Text(f"Exact odds: {ruleset.name} ({ruleset.id}); paytable {paytable}", style="bold"))
    if ruleset.method.is_thrown and report.overall is None:
        (only,) = report.mains
        parts.append(
            Text(
                f"The main is thrown: every round here is played on {only.main} as if it had been thrown, "
                "from the opening throw (no throws for the main, and no chance that the dice pass before a "
                f"main is set); P(main) is the chance of {only.main} among rounds played."
            )
        )
    elif ruleset.method.is_thrown:
        note = (
            "The main is thrown: each main's row is over rounds played on that main as if it had been "
            "thrown, from the opening throw, with P(main) its chance among rounds played; the all row counts "
            f"from the throw for the main ({_short(report.throws_for_main, 2)} throws for it on average)."
        )
        if report.p_no_round:
            note += (
                f" A throw for the main passes the dice with probability {fraction_text(report.p_no_round)}"
                f" ({_short(report.p_no_round)}); figures are over rounds where a main was set."
            )
        parts.append(Text(note))
    thrown = ruleset.method.is_thrown
    grid = Table(title="Caster's chances per round", title_justify="left", box=box.SIMPLE_HEAD)
    columns = ["main", *(["P(main)"] if thrown else []), "P(win)", "exact", "nick", "out", "throws", "EV"]
    for column in [*columns, "kept"]:
        # Long exact fractions fold onto a second line rather than lose digits; the rest never wrap.
        grid.add_column(column, justify="right", no_wrap=column != "exact", overflow="fold")
    rows = list(report.mains) + ([report.overall] if report.overall is not None else [])
    for odds in rows:
        grid.add_row(
            "all" if odds.main is None else str(odds.main),
            *([_short(odds.p_main)] if thrown else []),
            _short(odds.p_win),
            fraction_text(odds.p_win),
            _short(odds.p_nick),
            _short(odds.p_out),
            _short(odds.expected_throws, 2),
            _signed(odds.ev),
            _short(odds.expected_rounds_kept, 2),
        )
    parts.append(grid)
    parts.append(_chances_view(rows))
    parts.append(
        Text(
            "nick, out: P(win or lose on the opening throw); throws: expected throws per round (in the all "
            "row, with the throws for the main); EV: the caster's expected net per unit staked, so the "
            "setter's edge is −EV; kept: expected rounds before the dice pass, were every round played as in "
            f"the row ({passing_text(ruleset)})."
        )
    )
    return Group(*(Padding(part, (0, 0, 1, 0)) for part in parts))


def _chances_view(rows: list[MainOdds]) -> Table:
    chances = sorted({c for odds in rows for c in odds.p_win_by_chance})
    grid = Table(title="P(win through each chance)", title_justify="left", box=box.SIMPLE_HEAD)
    grid.add_column("main", justify="right")
    for chance in chances:
        grid.add_column(str(chance), justify="right")
    for odds in rows:
        cells = [_short(odds.p_win_by_chance[c]) if c in odds.p_win_by_chance else "—" for c in chances]
        grid.add_row("all" if odds.main is None else str(odds.main), *cells)
    return grid


def odds_json(report: OddsReport) -> str:
    """The stable JSON form of ``hazard odds``."""
    import json  # noqa: PLC0415 - the table, the default, never needs it (3 ms of start-up)

    return json.dumps(report.to_json_dict(), indent=2)


_CSV_FIGURES = (
    "p_main",
    "p_win",
    "p_nick",
    "p_out",
    "p_lose",
    "p_chance_won",
    "expected_throws",
    "throws_variance",
    "ev",
    "edge",
    "variance",
    "expected_rounds_kept",
)


def odds_csv(report: OddsReport) -> str:
    """One CSV row per main (and ``all`` for the thrown main), each figure exact and as a float."""
    import csv  # noqa: PLC0415 - the table, the default, never needs it (5 ms of start-up)

    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    chances = [c for c in TOTALS if c in report.ruleset.chances]
    header = ["ruleset", "paytable", "main"]
    for name in _CSV_FIGURES:
        header += [name, f"{name}_float"]
    header += [f"p_win_by_chance_{c}" for c in chances]
    writer.writerow(header)
    rows = list(report.mains) + ([report.overall] if report.overall is not None else [])
    for odds in rows:
        data: dict[str, Any] = odds.to_json_dict()
        line = [report.ruleset.id, "" if report.paytable is None else report.paytable.id]
        line.append("all" if odds.main is None else str(odds.main))
        for name in _CSV_FIGURES:
            line += [
                "" if data[name] is None else data[name],
                "" if data[f"{name}_float"] is None else data[f"{name}_float"],
            ]
        line += [data["p_win_by_chance"].get(str(c), "") for c in chances]
        writer.writerow(line)
    return out.getvalue()


def bet_json(analysis: BetAnalysis) -> str:
    """The stable JSON form of ``hazard bet``."""
    import json  # noqa: PLC0415 - as in odds_json

    return json.dumps(analysis.to_json_dict(), indent=2)


def bet_view(analysis: BetAnalysis) -> RenderableType:
    """The table printed by ``hazard bet``: each figure exact with its decimal where it is short, else (a bet
    over hundreds of throws, whose exact fractions run to hundreds of digits) its decimal alone and its size,
    the exact figure being left to ``--format json``."""
    text = analysis.to_text_dict()
    approximate = any(value.startswith("≈") for value in text.values())
    grid = Table(
        title=f"Side bet: {text['proposition']}",
        title_justify="left",
        show_header=False,
        caption="≈: the exact fraction is too long to read; --format json writes it" if approximate else None,
        caption_justify="left",
    )
    grid.add_column("what", style="bold")
    grid.add_column("value")
    grid.add_row("probability", _with_decimal(text["probability"], f"{float(analysis.probability):.4f}"))
    grid.add_row("fair odds", f"{text['fair_odds']} against")
    ev = _with_decimal(text["ev_even_money"], f"{float(analysis.ev_even_money):+.4f}")
    grid.add_row("even money", f"backing it for 1 expects {ev}")
    return grid


def _with_decimal(exact: str, decimal: str) -> str:
    return exact if exact.startswith("≈") else f"{exact} = {decimal}"
