"""The ruleset and paytable of a table set up over the web: a built-in id or an uploaded file's text, never
a path.

A client is anyone: a name he sends must make the server open no file, and a refusal must tell him nothing
of what exists on the server. So the core's loaders are called with ``paths=False`` (they then refuse any
name that is not a built-in id without touching the file system), an uploaded ruleset may name its paytable
by id or carry it as a ``[paytable]`` table but not name a file, and every name that is not an id gets the
same refusal, which quotes only what the client sent.
"""

from __future__ import annotations

from hazard.core.errors import InvalidError, quoted
from hazard.core.paytable import Paytable
from hazard.core.rules import Ruleset
from hazard.core.rulesets import (
    builtin_paytables,
    builtin_rulesets,
    find_paytable,
    find_ruleset,
    paytable_from_toml,
    ruleset_from_toml,
)
from hazard.table import table_paytable

__all__ = ["table_rules"]


def table_rules(
    ruleset: str | None,
    ruleset_toml: str | None,
    paytable: str | None = None,
    paytable_toml: str | None = None,
) -> tuple[Ruleset, Paytable]:
    """The ruleset (a built-in id, or a file's text) and paytable (a built-in id, a file's text, or none:
    the ruleset's own, else even money) of a new table; one :class:`InvalidError` for anything else."""
    if (ruleset is None) == (ruleset_toml is None):
        raise InvalidError(
            "invalid table: give either ruleset (a built-in id) or ruleset_toml (a file's text)"
        )
    if paytable is not None and paytable_toml is not None:
        raise InvalidError(
            "invalid table: give at most one of paytable (a built-in id) and paytable_toml (a file's text)"
        )
    if ruleset_toml is not None:
        rules = ruleset_from_toml(ruleset_toml, "the uploaded ruleset", paths=False)
    else:
        assert ruleset is not None
        try:
            rules = find_ruleset(ruleset, paths=False)
        except InvalidError:
            raise _not_built_in("ruleset", ruleset, [r.id for r in builtin_rulesets()]) from None
    if paytable_toml is not None:
        pays = paytable_from_toml(paytable_toml, "the uploaded paytable")
        pays.check(rules)
        return rules, pays
    if paytable is not None:
        try:
            find_paytable(paytable, paths=False)
        except InvalidError:
            raise _not_built_in("paytable", paytable, [p.id for p in builtin_paytables()]) from None
    pays, _ = table_paytable(rules, paytable, paths=False)
    return rules, pays


def _not_built_in(kind: str, name: str, ids: list[str]) -> InvalidError:
    """One refusal for any name that is not a built-in id, whatever it names on the server (a path is
    never opened: nothing about a file is told)."""
    return InvalidError(
        f"invalid table: {kind} {quoted(name)}: expected a built-in {kind} id: {', '.join(ids)}, or "
        f"{kind}_toml (a {kind} file's text)"
    )
