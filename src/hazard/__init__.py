"""hazard: the historical dice game Hazard, faithful to its sources.

The names here are the pure core; the exact analyser lives in :mod:`hazard.analysis` and the command line in
``hazard.cli``.

>>> from hazard import Call, Roll, apply, find_ruleset, new_round
>>> ruleset = find_ruleset("britannica-1911")
>>> state, _ = apply(new_round(ruleset), Call(6))
>>> state, events = apply(state, Roll(6, 6))
>>> str(events[0])
'12 with a main of 6 is a nick: the caster wins'
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from hazard.core.dice import ROLLS, TOTALS, Roll, total_probability, ways
    from hazard.core.engine import (
        Action,
        Call,
        Mover,
        apply,
        chance_outcomes,
        chance_totals,
        legal_actions,
        new_round,
        to_move,
    )
    from hazard.core.errors import HazardError, IllegalError, InvalidError
    from hazard.core.events import (
        ChanceSet,
        ChanceWon,
        DicePassed,
        Event,
        MainCalled,
        MainRethrown,
        MainThrown,
        MainWon,
        Nick,
        NoEffect,
        NoMain,
        ThrowOut,
    )
    from hazard.core.passing import PassingEffect, after_round, passing_effect, passing_text
    from hazard.core.paytable import Paytable
    from hazard.core.rules import DicePassing, LossCount, MainMethod, MainRow, Opening, Ruleset, Source
    from hazard.core.rulesets import (
        builtin_paytables,
        builtin_rulesets,
        find_paytable,
        find_ruleset,
        load_paytable,
        load_ruleset,
        paytable_for,
    )
    from hazard.core.staking import Staking, StakingPlan
    from hazard.core.state import Outcome, Phase, Result, Round, Termination

# Each name loads its module when first asked for: `hazard --help` and `hazard --version` need none of the
# core (about a fifth of their start-up), and each command loads the modules it uses. A name is looked for in
# these modules in turn, each after those it imports.
_MODULES = (
    "hazard.core.errors",
    "hazard.core.dice",
    "hazard.core.rules",
    "hazard.core.state",
    "hazard.core.events",
    "hazard.core.engine",
    "hazard.core.passing",
    "hazard.core.paytable",
    "hazard.core.staking",
    "hazard.core.rulesets",
)


def __getattr__(name: str) -> Any:
    if name in __all__:
        for module in map(import_module, _MODULES):
            if name in module.__all__:
                value = getattr(module, name)
                globals()[name] = value  # found once: the next use is an ordinary attribute
                return value
    raise AttributeError(f"module 'hazard' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})


__all__ = [
    "ROLLS",
    "TOTALS",
    "Action",
    "Call",
    "ChanceSet",
    "ChanceWon",
    "DicePassed",
    "DicePassing",
    "Event",
    "HazardError",
    "IllegalError",
    "InvalidError",
    "LossCount",
    "MainCalled",
    "MainMethod",
    "MainRethrown",
    "MainRow",
    "MainThrown",
    "MainWon",
    "Mover",
    "Nick",
    "NoEffect",
    "NoMain",
    "Opening",
    "Outcome",
    "PassingEffect",
    "Paytable",
    "Phase",
    "Result",
    "Roll",
    "Round",
    "Ruleset",
    "Source",
    "Staking",
    "StakingPlan",
    "Termination",
    "ThrowOut",
    "after_round",
    "apply",
    "builtin_paytables",
    "builtin_rulesets",
    "chance_outcomes",
    "chance_totals",
    "find_paytable",
    "find_ruleset",
    "legal_actions",
    "load_paytable",
    "load_ruleset",
    "new_round",
    "passing_effect",
    "passing_text",
    "paytable_for",
    "to_move",
    "total_probability",
    "ways",
]
__version__ = "0.1.0"  # the one place the version is written: pyproject.toml reads it from here
