"""Exact analysis in fractions: the odds of a round under any ruleset, dice passing, and side bets.

>>> from hazard.core.rulesets import find_ruleset
>>> report = analyse(find_ruleset("britannica-1911"), main=6)
>>> report.mains[0].p_win  # Chambers's 7,295 to 6,961 against the caster
Fraction(6961, 14256)
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

from hazard.analysis.markov import RoundChain
from hazard.analysis.odds import (
    DISTRIBUTION_THROWS,
    MainOdds,
    OddsReport,
    analyse,
    analyse_random_main,
    as_float,
)
from hazard.analysis.passing import effect_probabilities, expected_rounds_kept, rounds_kept

if TYPE_CHECKING:
    from hazard.analysis.compare import (
        Comparison,
        Difference,
        Effect,
        Figures,
        MainFigures,
        RuleKind,
        compare_rulesets,
        kept_change,
    )
    from hazard.analysis.design import Design, MainChange, design_figures
    from hazard.analysis.position import caster_chance

# The comparison of rulesets, the designer's figures and the position load when first asked for: `hazard
# odds` needs none of them (about 12 ms of its start-up on a slow machine). A name of this facade's that is
# not loaded above is looked for in them in turn, the lightest first.
_LATER = ("hazard.analysis.position", "hazard.analysis.design", "hazard.analysis.compare")


def __getattr__(name: str) -> Any:
    if name in __all__:
        for module in map(import_module, _LATER):
            if name in module.__all__:
                return getattr(module, name)
    raise AttributeError(f"module 'hazard.analysis' has no attribute {name!r}")


__all__ = [
    "DISTRIBUTION_THROWS",
    "Comparison",
    "Design",
    "Difference",
    "Effect",
    "Figures",
    "MainChange",
    "MainFigures",
    "MainOdds",
    "OddsReport",
    "RoundChain",
    "RuleKind",
    "analyse",
    "analyse_random_main",
    "as_float",
    "caster_chance",
    "compare_rulesets",
    "design_figures",
    "effect_probabilities",
    "expected_rounds_kept",
    "kept_change",
    "rounds_kept",
]
