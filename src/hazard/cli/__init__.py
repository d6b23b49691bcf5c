"""The ``hazard`` command: Typer for the arguments, Rich for the output, no game logic.

Every bad input ends the same way: one line on standard error starting ``error:``, exit status 2, and no
traceback.
"""

from __future__ import annotations

import enum
import sys
from typing import Annotated, NoReturn

import typer
from rich.console import Console

from hazard.analysis import analyse
from hazard.analysis.bets import analyse_bet
from hazard.cli import render
from hazard.core.errors import HazardError
from hazard.core.rulesets import DEFAULT_RULESET, builtin_rulesets, find_ruleset, paytable_for

__all__ = ["app", "main"]

app = typer.Typer(
    name="hazard",
    help="Hazard, the historical dice game: its rules as each source gives them, and their exact odds.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)


class TextFormat(enum.Enum):
    TABLE = "table"
    JSON = "json"
    CSV = "csv"


class BetFormat(enum.Enum):
    TABLE = "table"
    JSON = "json"


RulesetOption = Annotated[
    str,
    typer.Option(
        "--ruleset",
        "-r",
        help="A built-in ruleset id or alias (see 'hazard rules'), or the path of your own .toml file.",
    ),
]
PaytableOption = Annotated[
    str | None,
    typer.Option(
        "--paytable",
        "-p",
        help="even, true-odds, wikipedia, or the path of a paytable .toml file; default: the ruleset's own.",
    ),
]


def _console() -> Console:
    console = Console(highlight=False)
    if not console.is_terminal:
        # Piped or captured output has no width to measure; Rich's 80 would fold the wider tables.
        console = Console(highlight=False, width=120)
    return console


@app.command()
def rules(
    ruleset: Annotated[str | None, typer.Argument(help="A ruleset id, alias or .toml path to show.")] = None,
    paytable: PaytableOption = None,
) -> None:
    """List the built-in rulesets, or show one as its source prints it: the table by main, citation, notes."""
    console = _console()
    if ruleset is None:
        console.print(render.ruleset_list_view(builtin_rulesets()))
        console.print("Show one with: hazard rules ID")
        return
    found = find_ruleset(ruleset)
    console.print(render.ruleset_view(found, paytable_for(found, paytable)))


@app.command()
def odds(
    ruleset: RulesetOption = DEFAULT_RULESET,
    main: Annotated[int | None, typer.Option("--main", "-m", help="Only this main.")] = None,
    paytable: PaytableOption = None,
    output: Annotated[
        TextFormat, typer.Option("--format", "-f", help="table, json or csv.")
    ] = TextFormat.TABLE,
) -> None:
    """Exact odds of a round: per main and overall, with expected values under a paytable."""
    found = find_ruleset(ruleset)
    report = analyse(found, paytable_for(found, paytable), main=main)
    if output is TextFormat.JSON:
        print(render.odds_json(report))
    elif output is TextFormat.CSV:
        print(render.odds_csv(report), end="")
    else:
        _console().print(render.odds_view(report))


@app.command()
def bet(
    proposition: Annotated[str, typer.Argument(help='A side bet, e.g. "4 or 10 before 7" or "next odd".')],
    output: Annotated[BetFormat, typer.Option("--format", "-f", help="table or json.")] = BetFormat.TABLE,
) -> None:
    """Exact probability, fair odds and even-money value of a bystander's side bet."""
    analysis = analyse_bet(proposition)
    if output is BetFormat.JSON:
        print(render.bet_json(analysis))
    else:
        _console().print(render.bet_view(analysis))


def _fail(message: str) -> NoReturn:
    first = " ".join(message.split())  # one line, whatever the message held
    print(f"error: {first}", file=sys.stderr)
    raise SystemExit(2)


def main(argv: list[str] | None = None) -> None:
    """Entry point of the ``hazard`` console script."""
    args = sys.argv[1:] if argv is None else argv
    if not args:
        args = ["--help"]  # a bare `hazard` shows what it can do
    try:
        app(args=args, prog_name="hazard", standalone_mode=False)
    except HazardError as error:
        _fail(str(error))
    except typer.TyperException as error:  # Typer's own usage errors: an unknown option, a bad number
        _fail(error.format_message())
    except (typer.Abort, KeyboardInterrupt):
        _fail("interrupted")
    except BrokenPipeError:
        sys.stderr.close()  # the reader went away (hazard odds | head): nothing left to say
        raise SystemExit(0) from None
