"""The ``hazard`` command: Typer for the arguments, Rich for the output, no game logic.

Every bad input ends the same way: one line on standard error starting ``error:``, exit status 2, and no
traceback.
"""

from __future__ import annotations

import contextlib
import os
import sys
from typing import NoReturn

import typer

from hazard.cli import exact, play, record, simulate  # each registers its commands on the app
from hazard.cli.app import app
from hazard.core.errors import HazardError

__all__ = ["app", "exact", "main", "play", "record", "run", "simulate"]


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


def run() -> NoReturn:
    """The ``hazard`` program: :func:`main`, then an immediate exit once all output is flushed.

    Every command has finished its work by then (records committed and closed, plots written, threads
    joined), so the interpreter's own teardown would only cost time: some 40 ms a run, which the
    simulator's benchmark counts. Tests call :func:`main`, which returns or raises as usual.
    """
    code = 0
    try:
        main()
    except SystemExit as exit_:
        if exit_.code is None or isinstance(exit_.code, int):
            code = exit_.code or 0
        else:
            print(exit_.code, file=sys.stderr)
            code = 1
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(OSError, ValueError):  # closed, or the reader went away
            stream.flush()
    os._exit(code)
