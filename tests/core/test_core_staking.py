"""The staking progressions, defined once: each round's stake from the results before it."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from hazard.core.errors import InvalidError
from hazard.core.staking import DEFAULT_CAP, MAX_CAP, Staking, StakingPlan


def stakes(plan: StakingPlan, results: str) -> list[int]:
    """The stake (in base stakes) of each round, the first included, for results W (won) and L (lost)."""
    steps, out = 0, [plan.multiple(0)]
    for result in results:
        steps = plan.after(steps, won=result == "W")
        out.append(plan.multiple(steps))
    return out


@pytest.mark.parametrize(
    ("plan", "results", "expected"),
    [
        (StakingPlan(Staking.FLAT), "LLWLW", [1, 1, 1, 1, 1, 1]),
        (StakingPlan(Staking.MARTINGALE), "LLLW", [1, 2, 4, 8, 1]),
        (StakingPlan(Staking.MARTINGALE, cap=2), "LLLLW", [1, 2, 4, 4, 4, 1]),
        (StakingPlan(Staking.MARTINGALE), "LLLLLLLL", [1, 2, 4, 8, 16, 32, 64, 64, 64]),  # default cap 6
        (StakingPlan(Staking.PAROLI), "WWWW", [1, 2, 4, 1, 2]),  # back to the base after 3 wins
        (StakingPlan(Staking.PAROLI), "WWLW", [1, 2, 4, 1, 2]),
        (StakingPlan(Staking.PAROLI, cap=1), "WWW", [1, 1, 1, 1]),
    ],
)
def test_each_progression_stakes_as_it_says(plan: StakingPlan, results: str, expected: list[int]) -> None:
    assert stakes(plan, results) == expected


@given(st.sampled_from(list(Staking)), st.integers(1, MAX_CAP), st.text(alphabet="WL", max_size=60))
def test_a_stake_is_never_below_the_base_nor_above_the_cap(staking: Staking, cap: int, results: str) -> None:
    plan = StakingPlan(staking, cap)
    for multiple in stakes(plan, results):
        assert 1 <= multiple <= 2**plan.limit


def test_the_default_caps() -> None:
    assert (
        {s: StakingPlan(s).limit for s in Staking}
        == DEFAULT_CAP
        == {
            Staking.FLAT: 0,
            Staking.MARTINGALE: 6,
            Staking.PAROLI: 3,
        }
    )


@pytest.mark.parametrize("cap", [0, -1, MAX_CAP + 1, True, 2.5, "3"])
def test_a_bad_cap_is_refused(cap: object) -> None:
    with pytest.raises(
        InvalidError, match=rf"invalid progression cap .*: expected a whole number from 1 to {MAX_CAP}"
    ):
        StakingPlan(Staking.MARTINGALE, cap)  # type: ignore[arg-type]


@given(st.sampled_from(list(Staking)), st.integers(1, MAX_CAP), st.text(alphabet="WL", max_size=60))
def test_the_steps_of_a_run_are_what_the_results_make_one_by_one(
    staking: Staking, cap: int, results: str
) -> None:
    """A table keeps each player's run of results, not his steps: the run must come to the same steps."""
    plan = StakingPlan(staking, cap)
    steps = run = 0
    for result in results:
        won = result == "W"
        steps = plan.after(steps, won=won)
        run = (run + 1 if run > 0 else 1) if won else (run - 1 if run < 0 else -1)
        assert plan.steps(run) == steps
