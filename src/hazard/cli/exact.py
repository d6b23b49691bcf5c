"""``hazard rules``, ``hazard odds`` and ``hazard bet``: the rulesets and their exact odds."""

from __future__ import annotations

import enum
from typing import Annotated

import typer

from hazard.analysis import analyse
from hazard.cli import render
from hazard.cli.app import (
    PaytableOption,
    RulesetOption,
    TextFormat,
    app,
    console,
    refuse_with,
    refuse_without,
    whole_number,
)
from hazard.core.errors import InvalidError
from hazard.core.rulesets import (
    DEFAULT_RULESET,
    builtin_rulesets,
    find_ruleset,
    paytable_for,
    ruleset_to_toml,
)

__all__ = ["bet", "odds", "rules"]


class BetFormat(enum.Enum):
    TABLE = "table"
    JSON = "json"


@app.command()
def rules(
    ruleset: Annotated[str | None, typer.Argument(help="A ruleset id, alias or .toml path to show.")] = None,
    paytable: PaytableOption = None,
    toml: Annotated[
        bool, typer.Option("--toml", help="Print the ruleset as a TOML file, to copy and change.")
    ] = False,
) -> None:
    """List the built-in rulesets, or show one as its source prints it: the table by main, citation, notes."""
    out = console()
    refuse_with("--toml", {"--paytable": paytable} if toml else {}, "the TOML file is the ruleset alone")
    if ruleset is None:
        refuse_without("a ruleset", {"--paytable": paytable}, "name the ruleset to show with it")
    if toml:
        if ruleset is None:
            raise InvalidError(
                "invalid use of --toml: name the ruleset to print, e.g. hazard rules craps --toml"
            )
        print(ruleset_to_toml(find_ruleset(ruleset, paths=True)), end="")
        return
    if ruleset is None:
        out.print(render.ruleset_list_view(builtin_rulesets()))
        out.print("Show one with: hazard rules ID")
        return
    found = find_ruleset(ruleset, paths=True)
    out.print(render.ruleset_view(found, paytable_for(found, paytable, paths=True)))


@app.command()
def odds(
    ruleset: RulesetOption = DEFAULT_RULESET,
    main: Annotated[
        str | None,
        typer.Option(
            "--main",
            "-m",
            help="Only this main, every round played on it: called as it, or for a thrown main as if it had "
            "been thrown (from the opening throw, as in that main's row without --main).",
        ),
    ] = None,
    paytable: PaytableOption = None,
    output: Annotated[
        TextFormat, typer.Option("--format", "-f", help="table, json or csv.")
    ] = TextFormat.TABLE,
) -> None:
    """Exact odds of a round: per main and overall, with expected values under a paytable."""
    found = find_ruleset(ruleset, paths=True)
    chosen = (
        None
        if main is None
        else whole_number(main, what="--main", low=2, high=12, expected="a main from 2 to 12")
    )
    report = analyse(found, paytable_for(found, paytable, paths=True), main=chosen)
    if output is TextFormat.JSON:
        print(render.odds_json(report))
    elif output is TextFormat.CSV:
        print(render.odds_csv(report), end="")
    else:
        console().print(render.odds_view(report))


@app.command()
def bet(
    proposition: Annotated[str, typer.Argument(help='A side bet, e.g. "4 or 10 before 7" or "next odd".')],
    output: Annotated[BetFormat, typer.Option("--format", "-f", help="table or json.")] = BetFormat.TABLE,
) -> None:
    """Exact probability, fair odds and even-money value of a bystander's side bet."""
    # Here, not at the top: the side bets' parser would add a tenth to the start-up of rules and odds.
    from hazard.analysis.bets import analyse_bet  # noqa: PLC0415

    analysis = analyse_bet(proposition)
    if output is BetFormat.JSON:
        print(render.bet_json(analysis))
    else:
        console().print(render.bet_view(analysis))
