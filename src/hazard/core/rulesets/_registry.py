"""The built-in rulesets and paytables, found by id or alias, and a user's own files, found by path.

Built-in files are TOML files in ``data/`` and ``paytables/`` beside the package; a user's file goes through
the same schema reader (:mod:`hazard.core.rulesets._schema`), so a mistake in either reads the same.
"""

from __future__ import annotations

from functools import cache
from importlib import resources
from pathlib import Path

from hazard.core.errors import InvalidError
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


def ruleset_from_toml(text: str, origin: str, *, folder: Path | None = None) -> Ruleset:
    """Validate TOML ``text`` as a ruleset; ``origin`` names it in errors (a path, or ``built-in ID``).

    A paytable named by a relative path is looked for in ``folder``, the ruleset file's own folder; a
    paytable named by id must be a built-in one. Either must cover every chance the ruleset can set.
    """
    return _read_ruleset(text, origin, folder=folder, paytables=find_paytable)


def _read_file(path: Path, what: str) -> str:
    try:
        return path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise InvalidError(f"no {what} file at {str(path)!r}") from None
    except (OSError, UnicodeDecodeError) as error:
        raise InvalidError(f"cannot read {what} file {str(path)!r}: {error}") from None


def load_ruleset(path: str | Path) -> Ruleset:
    """Read and validate a user's ruleset file."""
    path = Path(path)
    return ruleset_from_toml(_read_file(path, "ruleset"), repr(str(path)), folder=path.parent)


def load_paytable(path: str | Path) -> Paytable:
    """Read and validate a user's paytable file."""
    path = Path(path)
    return paytable_from_toml(_read_file(path, "paytable"), repr(str(path)))


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
    raise InvalidError(f"unknown ruleset {name!r}: expected one of {ids}, or a path to a .toml file")


def find_paytable(name: str) -> Paytable:
    """A built-in paytable by id, or a user's ``.toml`` file by path."""
    if _is_path(name):
        return load_paytable(name)
    key = name.strip().lower()
    for paytable in builtin_paytables():
        if key == paytable.id:
            return paytable
    ids = ", ".join(paytable.id for paytable in builtin_paytables())
    raise InvalidError(f"unknown paytable {name!r}: expected one of {ids}, or a path to a .toml file")


def paytable_for(ruleset: Ruleset, name: str | None = None) -> Paytable | None:
    """The paytable named, else the ruleset's default (None if it has none), checked against the ruleset."""
    if name is None:
        if ruleset.paytable is None:
            return None
        name = ruleset.paytable
    paytable = find_paytable(name)
    paytable.check(ruleset)
    return paytable
