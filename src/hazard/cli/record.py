"""``hazard record list|show|export``: the games in a record, each rebuilt by replaying its entries.

A record that does not replay (a foreign or corrupt database, a game whose entries break the rules) is refused
with one ``error:`` line; nothing is shown half-loaded.
"""

from __future__ import annotations

import enum
from pathlib import Path
from typing import Annotated

import typer
from rich import box
from rich.table import Table as RichTable

from hazard.cli.app import app, console
from hazard.cli.tableview import entries_view, game_csv, game_json, info_text, table_view
from hazard.core.errors import InvalidError
from hazard.table.record import GameStore

__all__ = ["DbOption", "export", "list_games", "open_store", "record", "show"]

DbOption = Annotated[
    str | None,
    typer.Option(
        "--db",
        help="The game record: an SQLite file or any SQLAlchemy URL (postgresql+psycopg://user@host/db); "
        "default: games.db in your user data folder.",
    ),
]
GameNumber = Annotated[int, typer.Argument(help="The game's number (see 'hazard record list').")]

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


def open_store(db: str | None, *, create: bool) -> GameStore:
    """The record at ``db`` (default: the user's data folder).

    For reading, a file that is not there is refused rather than created empty.
    """
    if not create and db is not None and "://" not in db and not Path(db).expanduser().is_file():
        raise InvalidError(f"cannot open the game record {db!r}: no such file")
    return GameStore.open(db)


@record_app.command("list")
def list_games(db: DbOption = None) -> None:
    """Every game in the record, newest first."""
    store = open_store(db, create=False)
    try:
        games = store.games()
    finally:
        store.close()
    out = console()
    if not games:
        out.print(f"No games in the record at {store.url}", soft_wrap=True)
        return
    grid = RichTable(title=f"Games in {store.url}", title_justify="left", box=box.SIMPLE_HEAD)
    for column in ("game", "started", "label", "ruleset", "entries"):
        grid.add_column(column, justify="right" if column in ("game", "entries") else "left")
    for game, created, label, ruleset, count in games:
        grid.add_row(str(game), created, label, ruleset, str(count))
    out.print(grid)


@record_app.command()
def show(game: GameNumber, db: DbOption = None) -> None:
    """A game's setup, every entry with what it did, and the table it leads to."""
    store = open_store(db, create=False)
    try:
        replayed = store.load(game)
    finally:
        store.close()
    out = console()
    out.print(info_text(replayed.info), soft_wrap=True)
    out.print(entries_view(replayed))
    out.print(table_view(replayed.table))


@record_app.command()
def export(
    game: GameNumber,
    db: DbOption = None,
    output: Annotated[ExportFormat, typer.Option("--format", "-f", help="json or csv.")] = ExportFormat.JSON,
) -> None:
    """A game's entries, each with its standing and the events it caused, as JSON (with the state) or CSV."""
    store = open_store(db, create=False)
    try:
        replayed = store.load(game)
    finally:
        store.close()
    if output is ExportFormat.JSON:
        print(game_json(replayed))
    else:
        print(game_csv(replayed), end="")
