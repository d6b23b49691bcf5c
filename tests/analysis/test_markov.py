"""Tests of hazard.analysis.markov: the exact inverse and the chain's moments against direct computation."""

from __future__ import annotations

import itertools
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hazard.analysis.markov import RoundChain, invert
from hazard.core.engine import Call, apply, new_round
from hazard.core.errors import IllegalError
from hazard.core.rulesets import find_ruleset
from hazard.core.state import Termination

F = Fraction


def _determinant(matrix: list[list[Fraction]]) -> Fraction:
    """By Leibniz's formula, independent of any elimination."""
    size = len(matrix)
    total = F(0)
    for order in itertools.permutations(range(size)):
        inversions = sum(1 for a, b in itertools.combinations(order, 2) if a > b)
        term = F(-1 if inversions % 2 else 1)
        for row, col in enumerate(order):
            term *= matrix[row][col]
        total += term
    return total


@settings(max_examples=150, deadline=None)
@given(
    st.integers(1, 5).flatmap(
        lambda size: st.lists(
            st.lists(
                st.one_of(
                    st.just(F(0)),  # zeros on the diagonal: the elimination must swap rows
                    st.builds(F, st.integers(-9, 9), st.sampled_from([1, 2, 3, 36])),
                ),
                min_size=size,
                max_size=size,
            ),
            min_size=size,
            max_size=size,
        )
    )
)
def test_invert_gives_the_identity(matrix: list[list[Fraction]]) -> None:
    size = len(matrix)
    try:
        inverse = invert(matrix)
    except ZeroDivisionError:
        assert _determinant(matrix) == 0  # refused only where there is no inverse
        return
    product = [
        [sum((matrix[r][k] * inverse[k][c] for k in range(size)), F(0)) for c in range(size)]
        for r in range(size)
    ]
    assert product == [[F(int(r == c)) for c in range(size)] for r in range(size)]


def _chain_on(ruleset_id: str, main: int) -> RoundChain:
    state, _ = apply(new_round(find_ruleset(ruleset_id)), Call(main))
    return RoundChain.build(state)


def test_called_main_chain_has_the_opening_and_one_state_per_chance() -> None:
    chain = _chain_on("britannica-1911", 7)
    assert len(chain.states) == 1 + 6  # the opening throw, then chances 4, 5, 6, 8, 9, 10
    assert sum(chain.outcome_probabilities().values(), F(0)) == 1


def test_a_chance_state_is_a_geometric_race() -> None:
    # From chance 4 against main 7: P(4 first) = 3/9, throws ~ geometric with success 9/36.
    opening = _chain_on("britannica-1911", 7)
    chance4 = next(s for s in opening.states if s.chance == 4)
    chain = RoundChain.build(chance4)
    assert chain.probability(lambda o: o.termination is Termination.CHANCE) == F(1, 3)
    first, second = chain.throw_moments()
    assert first == 4  # 36/9
    assert second - first**2 == F(27, 36) / F(9, 36) ** 2  # (1 - p) / p^2
    distribution = chain.throw_distribution(up_to=3)
    assert distribution == [F(1, 4), F(3, 4) * F(1, 4), F(3, 4) ** 2 * F(1, 4)]


def test_conditional_moments_split_the_whole() -> None:
    chain = RoundChain.build(new_round(find_ruleset("ecws-1674")))
    whole = chain.throw_moments()
    parts = [chain.throw_moments(lambda o, m=m: o.main == m) for m in (5, 6, 7, 8, 9)]
    assert sum((p[0] for p in parts), F(0)) == whole[0]
    assert sum((p[1] for p in parts), F(0)) == whole[1]


def test_a_chain_must_start_where_the_dice_move() -> None:
    with pytest.raises(IllegalError, match="the dice are not to move"):
        RoundChain.build(new_round(find_ruleset("wikipedia")))


@pytest.mark.parametrize(
    ("ruleset_id", "main"), [("britannica-1911", 7), ("wikipedia", 5), ("wikipedia", 8), ("ecws-1674", None)]
)
def test_the_whole_numbers_hold_n_and_b_as_fractions_would(ruleset_id: str, main: int | None) -> None:
    # N and B worked out directly in fractions, beside the chain's whole numbers and their units; a main of
    # None is the chain from the throw for the main.
    if main is None:
        chain = RoundChain.build(new_round(find_ruleset(ruleset_id)))
    else:
        chain = _chain_on(ruleset_id, main)
    size = len(chain.states)
    i_minus_q = [[F(int(a == b)) - chain.q[a].get(b, F(0)) for b in range(size)] for a in range(size)]
    n = invert(i_minus_q)
    b = [
        {
            k: p
            for k in range(len(chain.outcomes))
            if (p := sum((n[i][j] * chain.r[j].get(k, F(0)) for j in range(size)), F(0)))
        }
        for i in range(size)
    ]
    assert chain.n == tuple(map(tuple, n))
    assert chain.b == tuple(b)
    h = [sum(row.values(), F(0)) for row in b]  # every outcome: h = 1 from every state
    assert h == [1] * size
    g = [sum((n[s][t] * h[t] for t in range(size)), F(0)) for s in range(size)]
    second = sum((n[0][t] * (2 * g[t] - h[t]) for t in range(size)), F(0))
    assert chain.throw_moments() == (g[0], second)
