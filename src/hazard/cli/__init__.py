"""The ``hazard`` command: Typer for the arguments, Rich for the output, no game logic.

Every bad input ends the same way: one line on standard error starting ``error:``, exit status 2, and no
traceback.
"""

from __future__ import annotations

import sys
from typing import NoReturn

import typer

from hazard.cli import exact, play, record, simulate  # each registers its commands on the app
from hazard.cli.app import app
from hazard.core.errors import HazardError

__all__ = ["app", "exact", "main", "play", "record", "simulate"]


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
