"""``hazard record list|show|export``: the games in a record, each rebuilt by replaying its entries.

A record that does not replay (a foreign or corrupt database, a game whose entries break the rules) is refused
with one ``error:`` line; nothing is shown half-loaded.
"""

from __future__ import annotations

import enum
import json
import sys
from typing import Annotated

import typer
from rich import box
from rich.table import Table as RichTable

from hazard.cli.app import app, console, whole_number
from hazard.cli.tableview import entries_view, game_csv, info_text, table_view
from hazard.core.errors import InvalidError
from hazard.table import MAX_GAME, Access, GameStore, MoneyStyle, game_json, game_number_refusal, load_game

__all__ = ["DbOption", "MoneyOption", "export", "game_number", "list_games", "open_to_read", "record", "show"]

DbOption = Annotated[
    str | None,
    typer.Option(
        "--db",
        help="The game record: an SQLite file or any SQLAlchemy URL (postgresql+psycopg://user@host/db); "
        "default: games.db in your user data folder.",
    ),
]
MoneyOption = Annotated[
    MoneyStyle,
    typer.Option(
        "--money",
        help="How sums are shown: decimal (101.67), exact (305/3) or lsd, pounds, shillings and pence "
        "(£101 13s 4d).",
    ),
]
GameNumber = Annotated[
    str, typer.Argument(metavar="GAME", help="The game's number (see 'hazard record list').")
]


def game_number(text: str) -> int:
    """A game's number as typed, read and bounded before the record is asked: the record's bound, and its
    one refusal (:func:`~hazard.table.game_number_refusal`)."""
    try:
        return whole_number(text, what="game", low=1, high=MAX_GAME)
    except InvalidError:
        raise game_number_refusal(text) from None


record_app = typer.Typer(name="record")
app.add_typer(record_app)


@record_app.callback(invoke_without_command=True)
def record(context: typer.Context) -> None:
    """The game records: list the games, show one, export one as JSON or CSV."""
    if context.invoked_subcommand is None:  # a bare `hazard record` shows what it can do
        typer.echo(context.get_help())


class ExportFormat(enum.Enum):
    JSON = "json"
    CSV = "csv"


def open_to_read(db: str | None) -> GameStore:
    """The record at ``db``, opened to read; where a killed writer's journal had to be rolled back first,
    a ``note:`` line on standard error says so (standard output stays the listing or export)."""
    store = GameStore.open(db, access=Access.READ)
    if store.recovery is not None:
        print(f"note: {store.recovery.note}", file=sys.stderr)
    return store


@record_app.command("list")
def list_games(db: DbOption = None) -> None:
    """Every game in the record, newest first."""
    store = open_to_read(db)
    try:
        games = store.games()
    finally:
        store.close()
    out = console()
    if not games:
        out.print(f"No games in the record at {store.url}", soft_wrap=True)
        return
    grid = RichTable(title=f"Games in {store.url}", title_justify="left", box=box.SIMPLE_HEAD)
    for column in ("game", "started", "kind", "label", "ruleset", "entries"):
        grid.add_column(column, justify="right" if column in ("game", "entries") else "left")
    for game in games:
        kind = "?" if game.kind is None else game.kind.value
        grid.add_row(str(game.id), game.created, kind, game.label, game.ruleset, str(game.entries))
    out.print(grid)


@record_app.command()
def show(game: GameNumber, db: DbOption = None, money: MoneyOption = MoneyStyle.DECIMAL) -> None:
    """A game's setup, every entry with who entered it and what it did, and the table it leads to."""
    number = game_number(game)
    store = open_to_read(db)
    try:
        replayed = load_game(store, number)
    finally:
        store.close()
    out = console()
    out.print(info_text(replayed.info, money), soft_wrap=True)
    out.print(entries_view(replayed, money), soft_wrap=True)  # lines as they are: the terminal folds them
    out.print(table_view(replayed.table, money=money))


@record_app.command()
def export(
    game: GameNumber,
    db: DbOption = None,
    output: Annotated[ExportFormat, typer.Option("--format", "-f", help="json or csv.")] = ExportFormat.JSON,
) -> None:
    """A game's entries, each with its actor, standing and events, as JSON (with the state) or CSV.

    Sums are exact (``305/3``), with a float beside each in JSON.
    """
    number = game_number(game)
    store = open_to_read(db)
    try:
        replayed = load_game(store, number)
    finally:
        store.close()
    if output is ExportFormat.JSON:
        print(json.dumps(game_json(replayed), indent=2))
    else:
        print(game_csv(replayed), end="")
