"""The rules in the words ``hazard rules``, the table's rules card and the table card print: how the main is
set, and what the throws after the opening throw do.

Kept apart from the card (:mod:`hazard.analysis.card`), which needs the exact odds, so that printing a
ruleset loads no more than its words.

>>> from hazard.core.rules import MainMethod
>>> METHOD_WORDS[MainMethod.CALLED]
'called by the caster'
"""

from __future__ import annotations

from hazard.core.rules import MainMethod

__all__ = ["METHOD_WORDS", "SET_CHANCE"]

METHOD_WORDS = {
    MainMethod.CALLED: "called by the caster",
    MainMethod.THROWN: "thrown; a total that is no main is thrown again",
    MainMethod.THROWN_OR_PASS: "thrown; a total that is no main passes the dice",
    MainMethod.FIXED: "always the same",
}
"""How the main is set, for each way of setting it."""

SET_CHANCE = (
    "Once the chance is set: the chance wins for the caster, the main loses, any other total is thrown again."
)
"""What the throws after the opening throw do, under every ruleset."""
