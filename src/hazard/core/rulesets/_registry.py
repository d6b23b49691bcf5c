"""The built-in rulesets and paytables, found by id or alias, and a user's own files, found by path.

Built-in files are TOML files in ``data/`` and ``paytables/`` beside the package; a user's file goes through
the same schema reader (:mod:`hazard.core.rulesets._schema`), so a mistake in either reads the same.
"""

from __future__ import annotations

from functools import cache
from importlib import resources
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

# The data folders belong to the package, not to this module: look them up from the package's name.
_PACKAGE = "hazard.core.rulesets"


def ruleset_from_toml(
    text: str, origin: str, *, folder: Path | None = None, stored: Paytable | None = None
) -> Ruleset:
    """Validate TOML ``text`` as a ruleset; ``origin`` names it in errors (a path, or ``built-in ID``).

    A paytable named by a relative path is looked for in ``folder``, the ruleset file's own folder, and read
    then, once: the ruleset carries it by value. A paytable named by id must be a built-in one; a
    ``[paytable]`` table is read as a paytable file would be. Any of them must cover every chance the ruleset
    can set. A text written by :func:`~hazard.core.rulesets.ruleset_to_toml` reads back without touching a
    file.

    ``stored`` is for a text kept in a game record: no file is read at all, and a paytable named by a path
    (as records written before rulesets carried their paytable's content name it) is the game's own paytable,
    ``stored``, which the record keeps.
    """
    if stored is None:
        return _read_ruleset(text, origin, folder=folder, paytables=find_paytable)
    kept = stored
    return _read_ruleset(
        text, origin, folder=None, paytables=lambda name: kept if _is_path(name) else find_paytable(name)
    )


def load_ruleset(path: str | Path) -> Ruleset:
    """Read and validate a user's ruleset file (a regular UTF-8 file of at most
    :data:`~hazard.core.files.MAX_FILE_BYTES`), and the paytable file it names, if any."""
    path = Path(path)
    return ruleset_from_toml(read_text_file(path, "ruleset"), quoted(str(path)), folder=path.parent)


def load_paytable(path: str | Path) -> Paytable:
    """Read and validate a user's paytable file (a regular UTF-8 file of at most
    :data:`~hazard.core.files.MAX_FILE_BYTES`)."""
    path = Path(path)
    return paytable_from_toml(read_text_file(path, "paytable"), quoted(str(path)))


def _builtin_text(folder: str, ident: str) -> str:
    return (resources.files(_PACKAGE) / folder / f"{ident}.toml").read_text(encoding="utf-8")


@cache
def builtin_rulesets() -> tuple[Ruleset, ...]:
    """Every built-in ruleset, in a fixed order."""
    return tuple(
        ruleset_from_toml(_builtin_text("data", ident), f"built-in {ident}") for ident in _BUILTIN_RULESETS
    )


@cache
def builtin_paytables() -> tuple[Paytable, ...]:
    """Every built-in paytable, in a fixed order."""
    return tuple(
        paytable_from_toml(_builtin_text("paytables", ident), f"built-in {ident}")
        for ident in _BUILTIN_PAYTABLES
    )


def find_ruleset(name: str) -> Ruleset:
    """A built-in ruleset by id or alias (any case), or a user's ``.toml`` file by path."""
    if _is_path(name):
        return load_ruleset(name)
    key = name.strip().lower()
    for ruleset in builtin_rulesets():
        if key == ruleset.id or key in ruleset.aliases:
            return ruleset
    ids = ", ".join(ruleset.id for ruleset in builtin_rulesets())
    raise InvalidError(f"unknown ruleset {quoted(name)}: expected one of {ids}, or a path to a .toml file")


def find_paytable(name: str) -> Paytable:
    """A built-in paytable by id, or a user's ``.toml`` file by path."""
    if _is_path(name):
        return load_paytable(name)
    key = name.strip().lower()
    for paytable in builtin_paytables():
        if key == paytable.id:
            return paytable
    ids = ", ".join(paytable.id for paytable in builtin_paytables())
    raise InvalidError(f"unknown paytable {quoted(name)}: expected one of {ids}, or a path to a .toml file")


def paytable_for(ruleset: Ruleset, name: str | None = None) -> Paytable | None:
    """The paytable named, else the ruleset's default (None if it has none), checked against the ruleset.

    The default is a built-in paytable's id, looked up here, or a paytable the ruleset carries by value.
    """
    paytable: Paytable
    if name is not None:
        paytable = find_paytable(name)
    elif ruleset.paytable is None:
        return None
    elif isinstance(ruleset.paytable, Paytable):
        paytable = ruleset.paytable
    else:
        paytable = find_paytable(ruleset.paytable)
    paytable.check(ruleset)
    return paytable
