"""The Typer application and what its commands share: options, formats, the console."""

from __future__ import annotations

import enum
from typing import Annotated

import typer
from rich.console import Console

__all__ = ["PaytableOption", "RulesetOption", "TextFormat", "app", "console"]

app = typer.Typer(
    name="hazard",
    help=(
        "Hazard, the historical dice game: its rules as each source gives them, their exact odds, "
        "simulation, and a table to play at, against bots or as a referee for real dice."
    ),
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)


class TextFormat(enum.Enum):
    TABLE = "table"
    JSON = "json"
    CSV = "csv"


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


def console() -> Console:
    console = Console(highlight=False)
    if not console.is_terminal:
        # Piped or captured output has no width to measure; Rich's 80 would fold the wider tables.
        console = Console(highlight=False, width=120)
    return console


@app.callback()
def _program() -> None:
    # The program stays a group of commands when only one command's module is loaded (hazard.cli's
    # load_commands): Typer would otherwise run a lone command as the program itself.
    pass
