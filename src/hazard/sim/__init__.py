"""Monte Carlo simulation of Hazard, throw by throw, seeded and reproducible, checked against the exact odds.

Every throw of the two dice is drawn (one of the 36 ordered outcomes) and every round is played through the
ruleset's own transitions, compiled from the rules engine; nothing is sampled from the exact answer.

>>> from hazard.core.rulesets import find_ruleset
>>> stats = round_stats(simulate_rounds(compile_rules(find_ruleset("craps")), 20_000, seed=1))
>>> abs(stats.overall.win.value - 244 / 495) < 0.02
True
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

from hazard.core.staking import Staking
from hazard.extras import require
from hazard.sim.config import SessionConfig
from hazard.sim.rounds import RoundCounts, simulate_rounds
from hazard.sim.stats import Estimate, Exact, GroupStats, RoundStats, round_stats
from hazard.sim.tables import CompiledRules, compile_rules, on_main
from hazard.sim.workers import Pool

if TYPE_CHECKING:
    from hazard.sim.session import SessionRows, SessionTally, simulate_sessions
    from hazard.sim.tally import Tally

# Session studies count with NumPy; a study of rounds needs none, so these load when first asked for.
_LATER = {
    "SessionRows": "hazard.sim.session",
    "SessionTally": "hazard.sim.session",
    "simulate_sessions": "hazard.sim.session",
    "Tally": "hazard.sim.tally",
}


def __getattr__(name: str) -> Any:
    if name in _LATER:
        require("numpy", what=f"hazard.sim.{name}", extra="sessions")
        return getattr(import_module(_LATER[name]), name)
    raise AttributeError(f"module 'hazard.sim' has no attribute {name!r}")


__all__ = [
    "CompiledRules",
    "Estimate",
    "Exact",
    "GroupStats",
    "Pool",
    "RoundCounts",
    "RoundStats",
    "SessionConfig",
    "SessionRows",
    "SessionTally",
    "Staking",
    "Tally",
    "compile_rules",
    "on_main",
    "round_stats",
    "simulate_rounds",
    "simulate_sessions",
]
