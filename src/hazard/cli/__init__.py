"""The ``hazard`` command: Typer for the arguments, Rich for the output, no game logic.

Every bad input ends the same way: one line on standard error starting ``error:``, exit status 2, and no
traceback.
"""

from __future__ import annotations

import codecs
import contextlib
import gc
import importlib
import io
import os
import sys
from collections.abc import Sequence
from typing import NoReturn

from hazard.cli.startup import defer_rarely_used, lighter_rich_help, listed_commands, named_command_alone

defer_rarely_used()  # before Typer and pathlib are first imported: here, or by hazard.cli.app

import typer  # noqa: E402

from hazard.cli.app import app, one_line  # noqa: E402
from hazard.core.errors import HazardError  # noqa: E402

__all__ = ["COMMANDS", "app", "load_commands", "main", "run"]

COMMANDS = {
    "rules": "exact",
    "odds": "exact",
    "bet": "exact",
    "compare": "compare",
    "card": "card",
    "drill": "drill",
    "play": "play",
    "referee": "play",
    "record": "record",
    "simulate": "simulate",
    "verify": "verify",
    "serve": "serve",
}
"""Each command of the program, and the module of :mod:`hazard.cli` that registers it on the app."""


def load_commands(args: Sequence[str] = ()) -> None:
    """Register on the app the commands that ``args`` may run: the named command's module alone, or all.

    A command's module brings its own imports (a session study brings NumPy, the table brings the game
    record), so a run imports only what its command needs. Help, or a name that is not a command, loads
    them all so that Typer can list or refuse them (:func:`main` lists them without their modules: see
    :mod:`hazard.cli.startup`).

    >>> load_commands(["bet", "7 before 6"])
    >>> "hazard.cli.exact" in sys.modules
    True
    """
    name = args[0] if args else None
    modules = [COMMANDS[name]] if name in COMMANDS else list(dict.fromkeys(COMMANDS.values()))
    if name == "--version":
        modules = []  # the program's own option: no command runs
    for module in modules:
        importlib.import_module(f"hazard.cli.{module}")


def _fail(message: str) -> NoReturn:
    print(f"error: {one_line(message)}", file=sys.stderr)  # one line, whatever the message held
    raise SystemExit(2)


def _tolerant_streams() -> None:
    """Read and write bytes that are not UTF-8 as Python holds them in ``sys.argv``: surrogate escapes.

    A file name from another system, or a stray byte typed at the prompt, then reaches a parser that refuses
    it by name (or a path that names the file exactly), where a strict decoder or encoder would stop the
    program with a traceback; Python does the same on its own in the POSIX locale. Standard output that
    cannot take a character (``PYTHONIOENCODING=ascii``, a Latin-1 locale: the em dash of a footnote) shows
    it as ``?`` (:func:`_escaped_or_replaced`). Standard error already escapes what it cannot write.
    """
    codecs.register_error(_TOLERANT, _escaped_or_replaced)
    if isinstance(sys.stdin, io.TextIOWrapper) and sys.stdin.errors == "strict":
        sys.stdin.reconfigure(errors="surrogateescape")
    if isinstance(sys.stdout, io.TextIOWrapper) and sys.stdout.errors in ("strict", "surrogateescape"):
        sys.stdout.reconfigure(errors=_TOLERANT)


_TOLERANT = "hazard.escaped-or-replaced"


def _escaped_or_replaced(error: UnicodeError) -> tuple[str | bytes, int]:
    """An encoding's error handler: a surrogate escape is written as the byte it stands for, as
    ``surrogateescape`` does, and any other character the encoding cannot take as ``?``."""
    if not isinstance(error, UnicodeEncodeError):
        raise error
    chunk = error.object[error.start : error.end]
    escaped = [0xDC80 <= ord(char) <= 0xDCFF for char in chunk]
    if any(escaped):  # as bytes, the escapes' own among question marks
        return bytes(
            ord(char) - 0xDC00 if is_escape else 0x3F for char, is_escape in zip(chunk, escaped, strict=True)
        ), error.end
    return "?" * len(chunk), error.end


def main(argv: list[str] | None = None, *, collector_paused: bool = False) -> None:
    """The ``hazard`` command line on ``argv`` (by default the process's arguments).

    ``collector_paused`` says that the caller paused the cyclic garbage collector for the start-up
    (:func:`hazard.__main__.program`): it is turned on again once the command's modules are loaded, with
    every object made so far frozen out of its collections. Otherwise the collector is left as it is.
    """
    _tolerant_streams()
    args = sys.argv[1:] if argv is None else argv
    if not args:
        args = ["--help"]  # a bare `hazard` shows what it can do
    named = any(arg in COMMANDS for arg in args)
    if named:
        load_commands(args)
    if collector_paused:
        gc.freeze()  # what the start-up made stays: no collection need look at it again
        gc.enable()
    lighter_rich_help()
    commands: contextlib.AbstractContextManager[None]
    if args[0] in COMMANDS:  # the command runs alone: Typer need build no other
        commands = named_command_alone(app, args[0])
    elif named:
        commands = contextlib.nullcontext()
    else:  # no command named (--help, a name that is not one): the list of commands needs only their names
        commands = listed_commands(app, COMMANDS)
    try:
        with commands:
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


def run(*, collector_paused: bool = False) -> NoReturn:
    """The ``hazard`` program: :func:`main` (``collector_paused`` passed on), then an immediate exit once all
    output is flushed.

    Every command has finished its work by then (records committed and closed, plots written, threads
    joined), so the interpreter's own teardown would only cost time: some 40 ms a run, which the
    simulator's benchmark counts. Tests call :func:`main`, which returns or raises as usual.
    """
    # hazard does no linear algebra: the BLAS threads NumPy's import starts (one a core) would only spin,
    # some 50 ms of CPU at every start of a session study; a BLAS the user set up keeps its setting
    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
    code = 0
    try:
        main(collector_paused=collector_paused)
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
