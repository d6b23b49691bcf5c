"""``hazard verify GAME|FILE``: check a game of fair dice, from the record or from an exported JSON file.

The game and its dice (``game 3: provably fair dice``), each hand's line (its commitment, whether its server
seed is revealed, its client seed and the seeds in it set after the commitment, its throws), with a warning
after a hand whose seeds were all known to the server when it committed, then the verdict: ``all N throws of
M hands verified`` and exit status 0, or the first hand or throw that does not match and exit status 1.
Input that cannot be verified at all (no such game or file, a file that is not an export, a game whose dice
are not fair) is one ``error:`` line and exit status 2, as everywhere.
"""

from __future__ import annotations

import json
from typing import Annotated, Any

import typer

from hazard.cli.app import app, refuse_with
from hazard.cli.record import DbOption, game_number
from hazard.core.errors import InvalidError, quoted
from hazard.core.files import read_text_file
from hazard.table import Access, GameStore, game_json, verify_game

__all__ = ["MAX_EXPORT_BYTES", "read_export", "verify"]

MAX_EXPORT_BYTES = 64 << 20
"""The largest export file read: 64 MiB, a game of some hundred thousand entries (each about 400 bytes)."""


def read_export(path: str) -> Any:
    """The JSON value of the export file at ``path``; one :class:`InvalidError` naming it if it is not one."""
    text = read_text_file(path, "export", limit=MAX_EXPORT_BYTES)
    try:
        return json.loads(text)
    except json.JSONDecodeError as error:
        raise InvalidError(
            f"invalid export file {quoted(path)}: not JSON ({error.msg} at line {error.lineno} column "
            f"{error.colno})"
        ) from None
    except (ValueError, RecursionError):  # an integer of more than 4,300 digits; lists nested too deep
        raise InvalidError(
            f"invalid export file {quoted(path)}: not JSON that can be read (a number too long or values "
            "nested too deep)"
        ) from None


def _game(number: int, db: str | None) -> dict[str, Any]:
    store = GameStore.open(db, access=Access.READ)
    try:
        replayed = store.load(number)
    finally:
        store.close()
    return game_json(replayed)


@app.command()
def verify(
    game: Annotated[
        str,
        typer.Argument(
            metavar="GAME|FILE",
            help="A game's number in the record (see 'hazard record list'), or a file written by "
            "'hazard record export GAME --format json'.",
        ),
    ],
    db: DbOption = None,
) -> None:
    """Check a game of fair dice: each hand's seed against its commitment, each throw recomputed.

    Exit status 0: all verified; 1: something does not match (the last line says what); 2: nothing to check.
    """
    # Digits name a game, anything else a file: a file named only by digits is given as ./123.
    if game.isascii() and game.strip().isdigit():
        data: Any = _game(game_number(game), db)
    else:
        refuse_with("a file", {"--db": db}, "a file holds its game; --db names a record to read a game from")
        data = read_export(game)
    if not isinstance(data, dict):
        raise InvalidError(
            f"invalid export file {quoted(game)}: expected a JSON object, not {type(data).__name__}"
        )
    result = verify_game(data)
    print(result.heading())
    for hand in result.checked:
        print(hand.line())
        warning = hand.warning()
        if warning is not None:
            print(f"warning: {warning}")
    if result.problem is not None:
        print(f"not verified: {result.problem}")
        raise SystemExit(1)
    print(result.text())
