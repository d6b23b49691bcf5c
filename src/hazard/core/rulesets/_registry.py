"""The built-in rulesets and paytables, found by id or alias, and a user's own files, found by path.

Built-in files are TOML files in ``data/`` and ``paytables/`` beside the package; a user's file goes through
the same schema reader (:mod:`hazard.core.rulesets._schema`), so a mistake in either reads the same.

A name is read as a file's path only where the caller says so (``paths=True``): the terminal, where a person
names his own files. By default a name must be a built-in id, and a ruleset's text may name no paytable file:
what a remote client sends (the web) can make the server open no file, and learn nothing of what exists.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

from hazard.core.errors import InvalidError, quoted
from hazard.core.files import read_text_file
from hazard.core.paytable import Paytable
from hazard.core.rules import Ruleset
from hazard.core.rulesets._schema import _is_path, _read_ruleset, paytable_from_toml

DEFAULT_RULESET = "wikipedia"
"""The ruleset used when none is named: the source with a full paytable and a dice-passing rule."""

# Built-in files are listed here, in the order people see them, rather than discovered, so that a stray
# file in the package cannot become a ruleset.
_BUILTIN_RULESETS = ("britannica-1911", "wikipedia", "ecws-1674", "cotton-1674", "sca-isenfir", "craps")
_BUILTIN_PAYTABLES = ("even", "true-odds", "wikipedia")

EVEN_MONEY = "even"
"""The built-in paytable a game settles by when neither it nor its ruleset names one: even money."""

# The data folders lie beside this module, as the wheel installs them. Found from its own path, not through
# importlib.resources, which costs a start-up (`hazard odds`) about 10 ms in imports: zipfile, tempfile.
_DATA = Path(__file__).parent


def ruleset_from_toml(
    text: str,
    origin: str,
    *,
    folder: Path | None = None,
    stored: Paytable | None = None,
    paths: bool = False,
) -> Ruleset:
    """Validate TOML ``text`` as a ruleset; ``origin`` names it in errors (a path, or ``built-in ID``).

    With ``paths``, a paytable may be named by a file's path: a relative one is looked for in ``folder``,
    the ruleset file's own folder, and read then, once: the ruleset carries it by value. Without it (the
    default: a text from anyone but the person at the terminal), a paytable named by a path is refused
    without touching the file. A paytable named by id must be a built-in one; a ``[paytable]`` table is read
    as a paytable file would be. Any of them must cover every chance the ruleset can set. A text written by
    :func:`~hazard.core.rulesets.ruleset_to_toml` reads back without touching a file.

    ``stored`` is for a text kept in a game record: no file is read at all, and a paytable named by a path
    (as records written before rulesets carried their paytable's content name it) is the game's own paytable,
    ``stored``, which the record keeps.
    """
    if stored is None:
        return _read_ruleset(
            text,
            origin,
            folder=folder if paths else None,
            paytables=lambda name: find_paytable(name, paths=paths),
        )
    kept = stored
    return _read_ruleset(
        text, origin, folder=None, paytables=lambda name: kept if _is_path(name) else find_paytable(name)
    )


def load_ruleset(path: str | Path) -> Ruleset:
    """Read and validate a user's ruleset file (a regular UTF-8 file of at most
    ``MAX_FILE_BYTES``), and the paytable file it names, if any."""
    path = Path(path)
    text = read_text_file(path, "ruleset")
    return ruleset_from_toml(text, quoted(str(path)), folder=path.parent, paths=True)


def load_paytable(path: str | Path) -> Paytable:
    """Read and validate a user's paytable file (a regular UTF-8 file of at most
    ``MAX_FILE_BYTES``)."""
    path = Path(path)
    return paytable_from_toml(read_text_file(path, "paytable"), quoted(str(path)))


def _builtin_text(folder: str, ident: str) -> str:
    return (_DATA / folder / f"{ident}.toml").read_text(encoding="utf-8")


# Each built-in file is read once, when first asked for: a command that names a ruleset by its id (as
# `hazard odds -r wikipedia` does) reads that file and its paytable's alone, not all nine (about 10 ms of
# its start-up). A file's name is its ruleset's or paytable's id, which tests/core/test_rulesets.py holds.
@cache
def _builtin_ruleset(ident: str) -> Ruleset:
    return ruleset_from_toml(_builtin_text("data", ident), f"built-in {ident}")


@cache
def _builtin_paytable(ident: str) -> Paytable:
    return paytable_from_toml(_builtin_text("paytables", ident), f"built-in {ident}")


@cache
def builtin_rulesets() -> tuple[Ruleset, ...]:
    """Every built-in ruleset, in a fixed order."""
    return tuple(_builtin_ruleset(ident) for ident in _BUILTIN_RULESETS)


@cache
def builtin_paytables() -> tuple[Paytable, ...]:
    """Every built-in paytable, in a fixed order."""
    return tuple(_builtin_paytable(ident) for ident in _BUILTIN_PAYTABLES)


def find_ruleset(name: str, *, paths: bool = False) -> Ruleset:
    """A built-in ruleset by id or alias (any case); with ``paths`` (the terminal), also a user's ``.toml``
    file by path. Without it, any other name is refused alike, and no file is opened."""
    if paths and _is_path(name):
        return load_ruleset(name)
    key = name.strip().lower()
    if key in _BUILTIN_RULESETS:
        return _builtin_ruleset(key)
    for ruleset in builtin_rulesets():
        if key == ruleset.id or key in ruleset.aliases:
            return ruleset
    ids = ", ".join(ruleset.id for ruleset in builtin_rulesets())
    if paths:
        raise InvalidError(
            f"unknown ruleset {quoted(name)}: expected one of {ids}, or a path to a .toml file"
        )
    raise InvalidError(f"unknown ruleset {quoted(name)}: expected a built-in ruleset id: {ids}")


def find_paytable(name: str, *, paths: bool = False) -> Paytable:
    """A built-in paytable by id; with ``paths`` (the terminal), also a user's ``.toml`` file by path.
    Without it, any other name is refused alike, and no file is opened."""
    if paths and _is_path(name):
        return load_paytable(name)
    key = name.strip().lower()
    if key in _BUILTIN_PAYTABLES:
        return _builtin_paytable(key)
    for paytable in builtin_paytables():
        if key == paytable.id:
            return paytable
    ids = ", ".join(paytable.id for paytable in builtin_paytables())
    if paths:
        raise InvalidError(
            f"unknown paytable {quoted(name)}: expected one of {ids}, or a path to a .toml file"
        )
    raise InvalidError(f"unknown paytable {quoted(name)}: expected a built-in paytable id: {ids}")


def paytable_for(ruleset: Ruleset, name: str | None = None, *, paths: bool = False) -> Paytable | None:
    """The paytable named, else the ruleset's default (None if it has none), checked against the ruleset.

    ``name`` is a built-in paytable's id, or with ``paths`` (the terminal) also a file's path. The default is
    a built-in paytable's id, looked up here, or a paytable the ruleset carries by value.
    """
    paytable: Paytable
    if name is not None:
        paytable = find_paytable(name, paths=paths)
    elif ruleset.paytable is None:
        return None
    elif isinstance(ruleset.paytable, Paytable):
        paytable = ruleset.paytable
    else:
        paytable = find_paytable(ruleset.paytable)
    paytable.check(ruleset)
    return paytable


def settling_paytable(paytable: Paytable | None) -> Paytable:
    """What a game settles by: ``paytable``, else even money (:data:`EVEN_MONEY`). The one default the
    table, the simulator and the studies share: "no paytable means even money" is said here only."""
    return find_paytable(EVEN_MONEY) if paytable is None else paytable
