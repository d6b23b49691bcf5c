"""``hazard card``: a ruleset's table card, one printable PDF page (the card extra: fpdf2)."""

from __future__ import annotations

import contextlib
import os
import tempfile
from pathlib import Path
from typing import Annotated

import typer

from hazard.analysis.card import table_card
from hazard.cli.app import PaytableOption, RulesetOption, app, check_output_file
from hazard.core.errors import InvalidError, quoted
from hazard.core.rulesets import DEFAULT_RULESET, find_ruleset, paytable_for
from hazard.extras import require

__all__ = ["card", "write_atomically"]


@app.command()
def card(
    output: Annotated[
        Path, typer.Option("--output", "-o", help="The PDF file to write.", show_default=False)
    ],
    ruleset: RulesetOption = DEFAULT_RULESET,
    paytable: PaytableOption = None,
    paper: Annotated[str, typer.Option("--paper", help="a4 or letter.")] = "a4",
) -> None:
    """A printable table card: the rules, the opening throw's table, exact odds, paytable and side bets.

    One A4 or Letter page; every figure is the exact analyser's, as hazard odds and hazard bet give them.
    """
    from hazard.cli.cardpdf import Paper, card_pdf  # noqa: PLC0415 - draws with the card extra's fpdf2

    sheet = {p.value: p for p in Paper}.get(paper.strip().lower())
    if sheet is None:
        raise InvalidError(f"invalid --paper {quoted(paper)}: expected a4 or letter")
    found = find_ruleset(ruleset, paths=True)
    pays = paytable_for(found, paytable, paths=True)
    check_output_file(output, what="-o", suffix=".pdf")
    require("fpdf", what="hazard card", extra="card")
    write_atomically(output, card_pdf(table_card(found, pays), sheet))
    print(f"wrote {output}")


def write_atomically(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` whole or not at all: into a file beside it, renamed over it once written,
    so that a failure leaves no half file (and an old card stays as it was)."""
    handle, temporary = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".part", dir=path.parent)
    try:
        with os.fdopen(handle, "wb") as file:
            file.write(data)
            file.flush()
            os.fsync(file.fileno())
        os.chmod(temporary, 0o666 & ~_umask())
        os.replace(temporary, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask
