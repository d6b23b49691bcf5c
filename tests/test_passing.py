"""Tests of hazard.analysis.passing: expected rounds a caster keeps the dice."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hazard.analysis import analyse
from hazard.analysis.passing import expected_rounds_kept
from hazard.core.rules import DicePassing, LossCount
from hazard.core.rulesets import find_ruleset
from hazard.core.state import Outcome, Termination

F = Fraction


def _coin(win: Fraction) -> dict[Outcome, Fraction]:
    return {Outcome(Termination.NICK, 7): win, Outcome(Termination.OUT, 7): 1 - win}


@settings(max_examples=50, deadline=None)
@given(st.fractions(min_value=F(1, 100), max_value=F(99, 100)), st.integers(1, 5))
def test_losses_in_a_row_match_the_run_length_formula(win: Fraction, k: int) -> None:
    # Expected trials until k losses in a row, each with probability q: (1 - q^k) / ((1 - q) q^k).
    q = 1 - win
    expected = (1 - q**k) / ((1 - q) * q**k)
    assert expected_rounds_kept(DicePassing(after_losses=k), _coin(win)) == expected


def test_never_passing_has_no_expectation() -> None:
    assert expected_rounds_kept(DicePassing(after_losses=0), _coin(F(1, 2))) is None
    assert analyse(find_ruleset("britannica-1911"), main=7).mains[0].expected_rounds_kept is None


def test_a_pass_before_the_round_counts_no_round() -> None:
    # Never passing by losses, but a third of attempts pass at once: geometric count of rounds.
    assert expected_rounds_kept(DicePassing(after_losses=0), _coin(F(1, 2)), F(1, 3)) == 2


def test_only_losses_after_a_chance_count_for_seven_out() -> None:
    outcomes = {
        Outcome(Termination.NICK, 7): F(2, 9),
        Outcome(Termination.OUT, 7): F(1, 9),
        Outcome(Termination.MAIN, 7, 4): F(1, 3),
        Outcome(Termination.CHANCE, 7, 4): F(1, 3),
    }
    assert expected_rounds_kept(DicePassing(1, LossCount.AFTER_CHANCE), outcomes) == 3
    assert expected_rounds_kept(DicePassing(1, LossCount.ANY), outcomes) == F(9, 4)


def test_craps_shooter_keeps_the_dice_until_a_seven_out() -> None:
    # P(seven out) = P(point set, then 7 first) = 196/495.
    assert analyse(find_ruleset("craps")).mains[0].expected_rounds_kept == F(495, 196)


def test_sca_a_win_keeps_the_dice_and_a_loss_or_no_main_passes() -> None:
    report = analyse(find_ruleset("sca-isenfir"))
    assert report.overall is not None
    main_set = 1 - report.p_no_round
    win = report.overall.p_win
    assert report.overall.expected_rounds_kept == main_set / (1 - main_set * win)
    assert all(odds.expected_rounds_kept is None for odds in report.mains)


@pytest.mark.parametrize("main", [5, 6, 7, 8, 9])
def test_wikipedia_three_losses_in_succession(main: int) -> None:
    odds = analyse(find_ruleset("wikipedia"), main=main).mains[0]
    q = odds.p_lose
    assert odds.expected_rounds_kept == (1 - q**3) / ((1 - q) * q**3)
