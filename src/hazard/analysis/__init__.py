"""Exact analysis in fractions: the odds of a round under any ruleset, dice passing, and side bets.

>>> from hazard.core.rulesets import find_ruleset
>>> report = analyse(find_ruleset("britannica-1911"), main=6)
>>> report.mains[0].p_win  # Chambers's 7,295 to 6,961 against the caster
Fraction(6961, 14256)
"""

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
from hazard.analysis.position import caster_chance

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
