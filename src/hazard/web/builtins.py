"""A built-in ruleset or paytable named by a web request (a page's query, a body's field).

A client's name never opens a file: the loaders are called with ``paths=False``, so only a built-in id or
alias is taken, and any other name is the one refusal, naming what was asked for and every id there is.
"""

from __future__ import annotations

from hazard.core.errors import InvalidError, quoted
from hazard.core.paytable import Paytable
from hazard.core.rules import Ruleset
from hazard.core.rulesets import builtin_paytables, builtin_rulesets, find_paytable, find_ruleset

__all__ = ["built_in_paytable", "built_in_ruleset"]


def built_in_ruleset(name: str, *, asked: str, named: str = "ruleset") -> Ruleset:
    """The built-in ruleset ``name`` (an id or alias) for what is ``asked`` (a comparison, a table card),
    where the request calls it ``named``; else :class:`InvalidError`.

    >>> built_in_ruleset("cotton", asked="table card").id
    'cotton-1674'
    >>> built_in_ruleset("/etc/passwd", asked="comparison", named="a")
    Traceback (most recent call last):
    ...
    hazard.core.errors.InvalidError: invalid comparison: a '/etc/passwd': expected a built-in ruleset id: ...
    """
    try:
        return find_ruleset(name, paths=False)
    except InvalidError:
        raise _refused(asked, named, "ruleset", name, [r.id for r in builtin_rulesets()]) from None


def built_in_paytable(name: str, *, asked: str) -> Paytable:
    """The built-in paytable ``name`` for what is ``asked``; else :class:`InvalidError`."""
    try:
        return find_paytable(name, paths=False)
    except InvalidError:
        raise _refused(asked, "paytable", "paytable", name, [p.id for p in builtin_paytables()]) from None


def _refused(asked: str, named: str, kind: str, name: str, ids: list[str]) -> InvalidError:
    listed = ", ".join(ids)
    return InvalidError(
        f"invalid {asked}: {named} {quoted(name)}: expected a built-in {kind} id: {listed}",
        said=f"{quoted(name)} isn't a built-in {kind}: choose one of {listed}.",
    )
