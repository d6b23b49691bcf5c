"""The Typer application and what its commands share: options, formats, the console, and the one reader of
the values typed on the command line.

Every value a command takes is read before any work starts, and a bad one is refused with one
:class:`~hazard.core.errors.InvalidError` that names the option, quotes the value (its start and length when
long) and says what was expected. Numbers are read here rather than by Typer, whose ``int`` and ``float``
take what they should not (``nan``, ``inf``, ``1e999``, a minus sign, digits of other scripts) and quote a
refused value whole: whole numbers are ASCII digits counted before ``int()`` sees them (it refuses more than
4,300 digits, and a database or native code overflows long before that), decimals are plain ASCII decimals,
and a file to be written is one that can be written where it is named. Whether a value is allowed by the
game (a main, a number of players) stays with the layer that owns the rule; a file to be read is the core's
(:mod:`hazard.core.files`).
"""

from __future__ import annotations

import enum
import errno
import math
import os
import re
import stat
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import IO, TYPE_CHECKING, Annotated, cast

import typer

from hazard import __version__
from hazard.core.errors import InvalidError, quoted
from hazard.core.numbers import parse_fraction, parse_whole

if TYPE_CHECKING:
    from rich.console import Console

__all__ = [
    "MAX_WHOLE",
    "PaytableOption",
    "RulesetOption",
    "TextFormat",
    "app",
    "check_output_file",
    "console",
    "decimal_number",
    "one_line",
    "refuse_with",
    "refuse_without",
    "whole_number",
]

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


# --- reading what is typed --------------------------------------------------------------------------------

MAX_WHOLE = 2**63 - 1
"""The largest whole number any option takes: the most a database's integer column or native code holds."""
_WORD = 160
_DECIMALS = "a number such as 100 or 2.5 (digits, and at most one point)"
_DECIMAL = re.compile(r"[0-9]{1,15}(?:\.[0-9]{1,15})?|\.[0-9]{1,15}")


def one_line(message: str) -> str:
    """An error message as one line of reasonable length, whatever it quotes.

    Line breaks and runs of spaces become one space, and a word longer than 160 characters (a value quoted
    whole, as Typer's own errors do) keeps its start and end and says how long it was.

    >>> one_line("no  such game"), len(one_line("9" * 5000))
    ('no such game', 100)
    """
    return " ".join(
        f"{word[:60]}…{word[-20:]} ({len(word):,} characters)" if len(word) > _WORD else word
        for word in message.split()
    )


def whole_number(text: str, *, what: str, low: int = 0, high: int = MAX_WHOLE, expected: str = "") -> int:
    """``text`` read as a whole number from ``low`` to ``high``: ASCII digits only, no sign.

    ``what`` names the input in the error (``--rounds``, ``game``); ``expected`` says what was expected,
    by default "a whole number from LOW to HIGH". The digits are counted before they are converted, so
    no length of text reaches ``int()``.

    >>> whole_number(" 12 ", what="--rounds")
    12
    >>> whole_number("-1", what="--seed", high=99)
    Traceback (most recent call last):
    ...
    hazard.core.errors.InvalidError: invalid --seed '-1': expected a whole number from 0 to 99
    """
    expected = expected or f"a whole number from {low} to {high}"
    return parse_whole(text, what=what, low=low, maximum=high, expected=expected, says_bounds=True)


def decimal_number(text: str, *, what: str) -> float:
    """``text`` read as a plain decimal number (``100``, ``2.5``): ASCII, no sign, no exponent, so finite.

    >>> decimal_number("2.5", what="--stake")
    2.5
    """
    body = text.strip()
    if not (body.isascii() and _DECIMAL.fullmatch(body)):  # its own form: no sign, no fraction
        raise InvalidError(f"invalid {what} {quoted(text)}: expected {_DECIMALS}")
    # Its own digits bound it (15 either side of the point), not the bounds of a sum or of odds.
    number = parse_fraction(f"0{body}" if body[:1] == "." else body, what=what, most=None, finest=None)
    value = float(number)
    assert math.isfinite(value)  # at most 15 digits either side of the point
    return value


def check_output_file(path: Path, *, what: str, suffix: str) -> Path:
    """Refuse, before any work, a file that could not be written at the end of it.

    The name must end in ``suffix``; its folder must exist and be a folder; the file, if there, must be a
    regular file; and it must be possible to open it for writing where it is named: a file created to find
    out is removed at once, and one already there is opened without being truncated, so nothing is left
    behind or changed.
    """
    text = str(path)
    if "\0" in text:
        raise InvalidError(f"invalid {what} {quoted(text)}: expected a file name without a NUL")
    if path.suffix.lower() != suffix:
        raise InvalidError(f"invalid {what} {quoted(text)}: expected a file name ending in {suffix}")
    folder = path.parent
    try:
        there = os.stat(path)
    except FileNotFoundError:
        there = None
    except OSError as error:
        raise InvalidError(_cannot_write(what, text, folder, error)) from None
    if there is not None and stat.S_ISDIR(there.st_mode):
        raise InvalidError(f"cannot write {what} {quoted(text)}: it is a folder")
    if there is not None and not stat.S_ISREG(there.st_mode):
        raise InvalidError(
            f"cannot write {what} {quoted(text)}: it is not a regular file (a device or a pipe)"
        )
    try:
        if there is None:
            handle = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
            os.close(handle)
            os.unlink(path)
        else:
            handle = os.open(path, os.O_WRONLY | os.O_APPEND)
            os.close(handle)
    except OSError as error:
        raise InvalidError(_cannot_write(what, text, folder, error)) from None
    return path


def _cannot_write(what: str, text: str, folder: Path, error: OSError) -> str:
    head = f"cannot write {what} {quoted(text)}"
    if error.errno == errno.ENAMETOOLONG:
        longest = max(len(part) for part in Path(text).parts)
        return f"{head}: the name is too long ({longest} characters in one name, {len(text)} in all)"
    if error.errno == errno.ENOENT and not folder.is_dir():
        return f"{head}: no folder {quoted(str(folder))}"
    if error.errno == errno.ENOTDIR:
        return f"{head}: {quoted(str(folder))} is not a folder"
    if error.errno in (errno.EACCES, errno.EPERM, errno.EROFS):
        return f"{head}: the folder {quoted(str(folder))} is not writable ({error.strerror})"
    return f"{head}: {error.strerror or error}"


def refuse_with(option: str, given: Mapping[str, object], why: str) -> None:
    """Refuse any option of ``given`` (option → value, None or [] where not given) beside ``option``."""
    named = [name for name, value in given.items() if value not in (None, [])]
    if named:
        raise InvalidError(f"invalid option {named[0]} with {option}: {why}")


def refuse_without(option: str, given: Mapping[str, object], why: str) -> None:
    """Refuse any option of ``given`` that means something only with ``option``, which was not given."""
    named = [name for name, value in given.items() if value not in (None, [])]
    if named:
        raise InvalidError(f"invalid option {named[0]} without {option}: {why}")


# --- options more than one command takes ------------------------------------------------------------------

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
    """Rich's console for standard output (imported here, when something is drawn: a command whose output is
    JSON or CSV does not load Rich at all)."""
    from rich.console import Console  # noqa: PLC0415

    console = Console(highlight=False, emoji=False)
    if not console.is_terminal:
        # Piped or captured output has no width to measure; Rich's 80 would fold the wider tables. Rich pads
        # every line to that width, which a file or a pipe would keep as trailing spaces: each whole line is
        # written without them.
        console = Console(highlight=False, emoji=False, width=120, file=cast("IO[str]", _Trimmed()))
    return console


class _Trimmed:
    """Standard output (as it is at each write, so that a capture in place of it gets the text), each whole
    line written without its trailing spaces; a partial line is written as it is when flushed. What Rich
    asks of a file: ``write``, ``flush``, ``isatty`` and ``encoding`` (by which it draws its boxes in ASCII
    where standard output cannot take more)."""

    def __init__(self) -> None:
        self._partial = ""

    @property
    def encoding(self) -> str:
        return getattr(sys.stdout, "encoding", None) or "utf-8"

    def isatty(self) -> bool:
        return False

    def write(self, text: str) -> int:
        lines = (self._partial + text).split("\n")
        self._partial = lines.pop()
        if lines:
            sys.stdout.write("".join(line.rstrip(" ") + "\n" for line in lines))
        return len(text)

    def flush(self) -> None:
        if self._partial:
            sys.stdout.write(self._partial)
            self._partial = ""
        sys.stdout.flush()


def _version(shown: bool) -> None:
    if shown:
        print(f"hazard {__version__}")
        raise typer.Exit


@app.callback()
def _program(
    version: Annotated[
        bool,
        typer.Option("--version", callback=_version, is_eager=True, help="Show hazard's version and exit."),
    ] = False,
) -> None:
    # The program stays a group of commands when only one command's module is loaded (hazard.cli's
    # load_commands): Typer would otherwise run a lone command as the program itself.
    pass
