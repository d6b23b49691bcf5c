"""Side bets settled: each kind of proposition decided by the throws that follow it, a negation
settling oppositely, and trackers that are values."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st
from tests.core.propositions_helpers import propositions, totals

from hazard.core.dice import ROLLS, Roll
from hazard.core.errors import InvalidError
from hazard.core.propositions import Before, Next, Not, Proposition, RollSet, Tracker, Within, settle, start

# --- settling -------------------------------------------------------------------------------------------


def run(text: str, *rolls: str) -> Tracker:
    tracker = start(text)
    for roll in rolls:
        tracker = tracker.advance(Roll.parse(roll))
    return tracker


def test_before_decided_early_and_late() -> None:
    assert start("4 or 10 before 7").decided is None
    assert run("4 or 10 before 7", "2-2").decided is True
    assert run("4 or 10 before 7", "3-4").decided is False
    late = run("4 or 10 before 7", "1-1", "6-6", "3-3", "5-6", "2-1")
    assert late.decided is None
    assert late.throws == 5
    assert late.advance(Roll(6, 4)).decided is True
    assert late.advance(Roll(6, 1)).decided is False


def test_before_sets() -> None:
    assert run("odd before even", "1-2").decided is True
    assert run("odd before even", "1-1").decided is False
    assert run("below 7 before above 7", "3-4", "3-4", "1-5").decided is True
    assert run("below 7 before above 7", "3-4", "6-2").decided is False
    assert run("doublets before 7", "3-3").decided is True
    assert run("doublets before 7", "2-4", "4-1").decided is None
    assert run("doublets before 7", "2-4", "3-4").decided is False


def test_within() -> None:
    bet = "2, 3, 11 or 12 within 3 throws"
    assert run(bet, "1-1").decided is True
    assert run(bet, "3-4", "3-4").decided is None
    assert run(bet, "3-4", "3-4", "5-6").decided is True
    lost = run(bet, "3-4", "3-4", "3-4")
    assert lost.decided is False
    assert lost.throws == 3
    assert run("7 within 1 throw", "1-1").decided is False
    assert run("7 within 1 throw", "1-6").decided is True


def test_next() -> None:
    assert run("next odd", "1-2").decided is True
    assert run("next odd", "1-1").decided is False
    assert run("next 7", "6-1").decided is True


def test_not_inverts() -> None:
    assert run("not 4 or 10 before 7", "2-2").decided is False
    assert run("not 4 or 10 before 7", "1-1").decided is None
    assert run("not 4 or 10 before 7", "1-1", "3-4").decided is True
    assert run("no 7 within 2 throws", "1-1", "1-2").decided is True
    assert run("no 7 within 2 throws", "1-1", "1-6").decided is False
    assert run("not next odd", "1-2").decided is False
    assert run("not next odd", "3-3").decided is True


def test_decided_trackers_ignore_further_throws() -> None:
    won = run("next odd", "1-2")
    assert won.advance(Roll(1, 1)) is won
    assert won.throws == 1
    assert won.is_decided


def test_tracker_refuses_what_is_not_a_throw() -> None:
    with pytest.raises(InvalidError, match="invalid throw"):
        start("next odd").advance((1, 2))  # type: ignore[arg-type]


def test_trackers_are_values() -> None:
    assert start("next odd") == Tracker(Next(RollSet.odd()))
    assert start(Next(RollSet.odd())) == start("next odd")
    assert run("next odd", "1-2") == Tracker(Next(RollSet.odd()), 1, True)


def test_settle() -> None:
    assert settle("4 or 10 before 7", [Roll(1, 1), Roll(5, 5), Roll(3, 4)]) is True
    assert settle("4 or 10 before 7", [Roll(1, 1)]) is None
    assert settle("4 or 10 before 7", []) is None
    assert settle(Within(totals(12), 2), [Roll(1, 1), Roll(1, 1)]) is False


@given(propositions(), st.lists(st.sampled_from(ROLLS), max_size=30))
def test_negation_settles_oppositely(proposition: Proposition, rolls: list[Roll]) -> None:
    won = settle(proposition, rolls)
    lost = settle(~proposition, rolls)
    assert (won is None) == (lost is None)
    if won is not None:
        assert lost is (not won)


@given(propositions(), st.lists(st.sampled_from(ROLLS), min_size=1, max_size=30))
def test_decision_timing(proposition: Proposition, rolls: list[Roll]) -> None:
    core = proposition.proposition if isinstance(proposition, Not) else proposition
    tracker = start(proposition)
    for roll in rolls:
        tracker = tracker.advance(roll)
    if isinstance(core, Next):
        assert tracker.is_decided
        assert tracker.throws == 1
    elif isinstance(core, Within):
        assert tracker.is_decided == (len(rolls) >= core.throws or any(r in core.target for r in rolls))
        assert tracker.throws <= core.throws
    elif isinstance(core, Before):
        either = [i for i, r in enumerate(rolls) if r in core.first or r in core.second]
        assert tracker.is_decided == bool(either)
        if either:
            assert tracker.throws == either[0] + 1
