"""hazard: the historical dice game Hazard, faithful to its sources.

The names here are the pure core; the exact analyser lives in :mod:`hazard.analysis` and the command line in
``hazard.cli``.

>>> ruleset = find_ruleset("britannica-1911")
>>> state, _ = apply(new_round(ruleset), Call(6))
>>> state, events = apply(state, Roll(6, 6))
>>> str(events[0])
'12 with a main of 6 is a nick: the caster wins'
"""

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
