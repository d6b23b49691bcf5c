"""Rates, means, intervals and deviations; the statistics and JSON form of a round study."""

from __future__ import annotations

import json
import math

import pytest

from hazard.core.rulesets import find_ruleset
from hazard.sim import compile_rules, round_stats, simulate_rounds
from hazard.sim.stats import Exact, mean, rate

REQUIRED = {
    "ruleset",
    "main",
    "rounds",
    "seed",
    "throws",
    "wins",
    "win_rate",
    "win_rate_ci",
    "exact_p_win",
    "z",
    "seconds",
}


def test_wilson_interval_matches_published_values() -> None:
    # Wilson 95% interval for 48 of 100 (e.g. Newcombe 1998): 0.3846 to 0.5768
    estimate = rate(48, 100)
    assert estimate.value == 0.48
    assert estimate.low == pytest.approx(0.3846, abs=1e-4)
    assert estimate.high == pytest.approx(0.5768, abs=1e-4)
    zero = rate(0, 10)
    assert zero.low == 0
    assert 0.25 < zero.high < 0.35
    empty = rate(0, 0)
    assert empty.n == 0
    assert empty.z_rate(0.5) is None


def test_z_counts_standard_errors_of_the_exact_distribution() -> None:
    estimate = rate(5100, 10_000)
    assert estimate.z_rate(0.5) == pytest.approx(2.0)
    assert rate(10, 10).z_rate(1.0) == 0.0
    assert rate(9, 10).z_rate(1.0) == -math.inf


def test_mean_and_its_interval() -> None:
    values = [1, 2, 3, 4, 5]
    estimate = mean(sum(values), sum(v * v for v in values), len(values))
    assert estimate.value == 3
    assert estimate.se == pytest.approx(math.sqrt(2.5 / 5))
    assert estimate.low < 3 < estimate.high
    assert estimate.z(3.5, 2.5) == pytest.approx(-0.5 / math.sqrt(0.5))
    assert math.isnan(mean(0, 0, 0).value)


def test_round_stats_of_a_thrown_main_split_by_main() -> None:
    stats = round_stats(simulate_rounds(compile_rules(find_ruleset("sca")), 100_000, seed=4))
    assert [g.main for g in stats.mains] == [5, 6, 7, 8, 9]
    assert sum(g.rounds for g in stats.mains) == stats.overall.rounds
    assert sum(g.wins for g in stats.mains) == stats.overall.wins
    assert stats.overall.rounds + round(stats.no_round.value * 100_000) == 100_000
    assert 0.30 < stats.no_round.value < 0.36  # 12/36 of throws for the main fall outside 5 to 9
    assert stats.rounds_kept is not None  # every loss passes the dice
    assert sum(stats.overall.throw_counts) == stats.overall.rounds


def test_json_form_has_the_documented_fields() -> None:
    stats = round_stats(simulate_rounds(compile_rules(find_ruleset("craps")), 20_000, seed=4))
    exact = Exact(p_win=244 / 495, p_nick=2 / 9, p_out=1 / 9, expected_throws=557 / 165, throws_variance=9.0)
    data = stats.to_json_dict(exact)
    assert set(data) >= REQUIRED
    assert data["ruleset"] == "craps"
    assert data["main"] == 7
    assert data["rounds"] == 20_000
    assert data["wins"] == stats.overall.wins
    low, high = data["win_rate_ci"]
    assert low < data["win_rate"] < high
    assert data["exact_p_win"] == pytest.approx(244 / 495)
    assert data["z"] == pytest.approx(stats.overall.win.z_rate(244 / 495))
    json.dumps(data, allow_nan=False)  # plain JSON: no NaN or infinity


def test_a_thrown_main_has_a_null_main_in_json() -> None:
    stats = round_stats(simulate_rounds(compile_rules(find_ruleset("ecws")), 5_000, seed=4))
    data = stats.to_json_dict()
    assert data["main"] is None
    assert data["exact_p_win"] is None
    assert data["z"] is None
    assert [row["main"] for row in data["mains"]] == [5, 6, 7, 8, 9]
