"""``hazard verify GAME|FILE``: check a game of fair dice, from the record or from an exported JSON file.

The game and its dice (``game 3: provably fair dice``), each hand's line (its commitment, whether its server
seed is revealed, its client seed and the seeds in it set after the commitment, its throws), with a warning
after a hand whose seeds were all known to the server when it committed; the record's seal (its hash chain
recomputed from the export, each reveal's signature checked: against the export's own key, or the server's
key given with ``--key``); then the verdict: ``all N throws of M hands verified`` and exit status 0, or the
first hand, throw or entry that does not match and exit status 1. Input that cannot be verified at all (no
such game or file, a file that is not an export, a game whose dice are not fair) is one ``error:`` line and
exit status 2, as everywhere.
"""

from __future__ import annotations

import json
from typing import Annotated, Any

import typer

from hazard.cli.app import app, refuse_with
from hazard.cli.record import DbOption, game_number, open_to_read
from hazard.core.errors import InvalidError, quoted
from hazard.core.files import read_text_file
from hazard.table import check_provenance, game_json, load_game, public_key_from_text, verify_game

__all__ = ["MAX_EXPORT_BYTES", "pinned_key", "read_export", "verify"]

MAX_KEY_FILE = 4096
"""The largest file ``--key`` reads (a PEM public key is about 113 bytes)."""

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


def pinned_key(text: str) -> bytes:
    """The server's public key as ``--key`` gives it: 64 hex digits, base64, or a file holding either or a
    PEM public key (a URL is not fetched: give the key itself, as the server shows it at ``/api/key``)."""
    try:
        return public_key_from_text(text, "--key")
    except InvalidError:
        if text.strip().startswith("-----BEGIN") or len(text.strip()) in (43, 44, 64):
            raise
    return public_key_from_text(
        read_text_file(text, "public key", limit=MAX_KEY_FILE), f"the file {quoted(text)}"
    )


def _game(number: int, db: str | None) -> dict[str, Any]:
    store = open_to_read(db)
    try:
        replayed = load_game(store, number)
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
    key: Annotated[
        str | None,
        typer.Option(
            "--key",
            metavar="PUBLIC_KEY",
            help="The server's public key (hex or base64, as GET /api/key shows it, or a file holding it): "
            "every reveal must be signed by it. Without it the signatures are checked against the export's "
            "own key, which shows only that the export is consistent.",
        ),
    ] = None,
) -> None:
    """Check a game of fair dice: each hand's seed against its commitment, each throw recomputed, the
    record's hash chain recomputed and each reveal's signature checked.

    Exit status 0: all verified; 1: something does not match (the last line says what); 2: nothing to check.
    """
    pinned = None if key is None else pinned_key(key)
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
    seal = check_provenance(data, pinned)
    print(result.heading())
    for hand in result.checked:
        print(hand.line())
        warning = hand.warning()
        if warning is not None:
            print(f"warning: {warning}")
    for line in seal.lines():
        print(line)
    problem = seal.problem or result.problem  # a record that is not the server's, first: nothing else counts
    if problem is not None:
        print(f"not verified: {problem}")
        raise SystemExit(1)
    print(result.text())
