"""The built-in rulesets and paytables, and the loader that reads them and a user's own files.

Built-in rulesets are TOML files beside this module; a user's file goes through the same validator, so a
mistake in either is reported the same way: one :class:`~hazard.core.errors.InvalidError` naming the file,
the place in it and what was expected.

The work is split by concern: ``_schema`` reads a file's text, ``_registry`` finds the built-ins and a user's
files, ``_writer`` writes a value back to TOML.

>>> find_ruleset("wiki").id
'wikipedia'
>>> [ruleset.id for ruleset in builtin_rulesets()][:2]
['britannica-1911', 'wikipedia']
"""

from __future__ import annotations

from hazard.core.rulesets._registry import (
    DEFAULT_RULESET,
    EVEN_MONEY,
    builtin_paytables,
    builtin_rulesets,
    find_paytable,
    find_ruleset,
    load_paytable,
    load_ruleset,
    paytable_for,
    ruleset_from_toml,
    settling_paytable,
)
from hazard.core.rulesets._schema import paytable_from_toml
from hazard.core.rulesets._writer import paytable_to_toml, ruleset_to_toml

__all__ = [
    "DEFAULT_RULESET",
    "EVEN_MONEY",
    "builtin_paytables",
    "builtin_rulesets",
    "find_paytable",
    "find_ruleset",
    "load_paytable",
    "load_ruleset",
    "paytable_for",
    "paytable_from_toml",
    "paytable_to_toml",
    "ruleset_from_toml",
    "ruleset_to_toml",
    "settling_paytable",
]
