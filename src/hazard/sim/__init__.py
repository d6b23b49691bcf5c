"""Monte Carlo simulation of Hazard, throw by throw, seeded and reproducible, checked against the exact odds.

Every throw of the two dice is drawn (one of the 36 ordered outcomes) and every round is played through the
ruleset's own transitions, compiled from the rules engine; nothing is sampled from the exact answer.

>>> from hazard.core.rulesets import find_ruleset
>>> stats = round_stats(simulate_rounds(compile_table(find_ruleset("craps")), 20_000, seed=1))
>>> abs(stats.overall.win.value - 244 / 495) < 0.02
True
"""

from hazard.sim.rounds import RoundCounts, simulate_rounds
from hazard.sim.session import SessionConfig, SessionRows, SessionStudy, Staking, simulate_sessions
from hazard.sim.stats import Estimate, Exact, GroupStats, RoundStats, round_stats
from hazard.sim.tables import RoundTable, compile_table, on_main
from hazard.sim.tally import Tally
from hazard.sim.workers import Pool

__all__ = [
    "Estimate",
    "Exact",
    "GroupStats",
    "Pool",
    "RoundCounts",
    "RoundStats",
    "RoundTable",
    "SessionConfig",
    "SessionRows",
    "SessionStudy",
    "Staking",
    "Tally",
    "compile_table",
    "on_main",
    "round_stats",
    "simulate_rounds",
    "simulate_sessions",
]
