"""The one reader of a user's text file: bounded in size, regular files only, UTF-8, errors as data.

A path a person types can name anything: ``/dev/zero`` (endless), ``/dev/urandom`` (endless and not text), a
named pipe (which blocks until someone writes to it), a folder, a name too long for the system. Whatever it
names, :func:`read_text_file` either returns the text of a regular file of at most ``limit`` bytes or raises
one :class:`~hazard.core.errors.InvalidError` that names the path and what was expected; it never reads
more than ``limit + 1`` bytes and never waits on a device or a pipe.
"""

from __future__ import annotations

import os
import stat

from hazard.core.errors import InvalidError, quoted

__all__ = ["MAX_FILE_BYTES", "read_text_file"]

MAX_FILE_BYTES = 1 << 20
"""The largest file :func:`read_text_file` reads by default: 1 MiB.

A ruleset or paytable file is a few kilobytes (the largest built-in one is under 4 KiB); a megabyte is room
for any notes a person writes, and small enough that reading and parsing it takes a fraction of a second.
"""

# Opened without blocking, so that a named pipe with no writer cannot hang the reader before it can see that
# the path is no regular file (O_NONBLOCK does nothing on a regular file), and never as the controlling
# terminal. Windows has neither flag, nor pipes in the file system.
_OPEN_FLAGS = (
    os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0) | getattr(os, "O_BINARY", 0)
)

_CHUNK = 1 << 16


def _kind(mode: int) -> str:
    """What a file that is not a regular file is, in words."""
    if stat.S_ISDIR(mode):
        return "a folder"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISFIFO(mode):
        return "a named pipe"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "not a regular file"


def _size_text(limit: int) -> str:
    if limit >= 1 << 20 and limit % (1 << 20) == 0:
        return f"{limit >> 20:,} MiB"
    if limit >= 1 << 10 and limit % (1 << 10) == 0:
        return f"{limit >> 10:,} KiB"
    return f"{limit:,} bytes"


def read_text_file(path: str | os.PathLike[str], what: str, *, limit: int = MAX_FILE_BYTES) -> str:
    """The text of the ``what`` file (``"ruleset"``, ``"paytable"``) at ``path``, decoded as UTF-8.

    An :class:`InvalidError` naming the path (cut short if long) if there is no file there, if it is not a
    regular file (a folder, a device, a pipe), if it holds more than ``limit`` bytes, if it is not UTF-8, or
    if the system cannot open or read it (a name too long, no permission).

    >>> read_text_file("/dev/zero", "ruleset")
    Traceback (most recent call last):
    ...
    hazard.core.errors.InvalidError: cannot read ruleset file '/dev/zero': it is a device: expected a regular file of at most 1 MiB
    """  # noqa: E501
    name = quoted(os.fspath(path) if isinstance(path, str | os.PathLike) else path)
    expected = f"expected a regular file of at most {_size_text(limit)}"
    try:
        descriptor = os.open(path, _OPEN_FLAGS)
    except FileNotFoundError:
        raise InvalidError(f"no {what} file at {name}") from None
    except (OSError, ValueError, TypeError) as error:  # ValueError: a NUL in the name; TypeError: no path
        raise InvalidError(f"cannot read {what} file {name}: {_reason(error)}") from None
    try:
        mode = os.fstat(descriptor).st_mode
        if not stat.S_ISREG(mode):
            raise InvalidError(f"cannot read {what} file {name}: it is {_kind(mode)}: {expected}")
        data = _read_at_most(descriptor, limit + 1)
    except OSError as error:
        raise InvalidError(f"cannot read {what} file {name}: {_reason(error)}") from None
    finally:
        os.close(descriptor)
    if len(data) > limit:
        raise InvalidError(
            f"cannot read {what} file {name}: it is larger than {_size_text(limit)}: {expected}"
        )
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as error:
        raise InvalidError(
            f"cannot read {what} file {name}: byte {error.start:,} is not UTF-8: expected a UTF-8 text file"
        ) from None


def _read_at_most(descriptor: int, count: int) -> bytes:
    """Up to ``count`` bytes from ``descriptor``: fewer only at the end of the file."""
    chunks: list[bytes] = []
    left = count
    while left > 0:
        chunk = os.read(descriptor, min(left, _CHUNK))
        if not chunk:
            break
        chunks.append(chunk)
        left -= len(chunk)
    return b"".join(chunks)


def _reason(error: Exception) -> str:
    """The system's reason, without the file name it repeats (which may be huge: it is quoted already)."""
    if isinstance(error, OSError) and error.strerror:
        return error.strerror[0].lower() + error.strerror[1:]
    return str(error)
