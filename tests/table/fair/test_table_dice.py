"""Dice sources: the seeded generator is reproducible throw by throw; the secure one throws valid dice."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from hazard.core.dice import ROLLS, TOTALS, Roll
from hazard.core.errors import InvalidError
from hazard.table.fair.dice import DiceSource, SecureDice, SeededDice

# Pinned: a game started with --seed 0 or --seed 42 must throw these in every release, or an old seed
# no longer reproduces its game.
PINNED = {
    0: ["1-5", "3-2", "4-6", "6-6", "1-4", "1-5", "4-2", "1-3", "2-3", "1-2"],
    42: ["2-4", "6-2", "4-2", "4-2", "1-4", "3-3", "5-2", "2-3", "5-3", "5-2"],
}


@pytest.mark.parametrize("seed", sorted(PINNED))
def test_seeded_throws_are_pinned(seed: int) -> None:
    dice = SeededDice(seed)
    assert [str(dice.throw(index)) for index in range(10)] == PINNED[seed]


@given(st.integers(0, 2**63 - 1), st.integers(0, 10**6))
def test_a_throw_depends_only_on_seed_and_index(seed: int, index: int) -> None:
    first = SeededDice(seed).throw(index)
    assert isinstance(first, Roll)
    assert first in ROLLS
    # another generator, other throws in between, asked out of order: the same throw
    other = SeededDice(seed)
    for earlier in (index + 1, 0, index + 7):
        other.throw(earlier)
    assert other.throw(index) == first


def test_throws_do_not_depend_on_the_order_they_are_asked_for() -> None:
    dice = SeededDice(5)
    forward = [dice.throw(i) for i in range(50)]
    backward = [dice.throw(i) for i in reversed(range(50))]
    assert forward == backward[::-1]


def test_different_seeds_give_different_games() -> None:
    games = {tuple(SeededDice(seed).throw(i) for i in range(20)) for seed in range(20)}
    assert len(games) == 20


def test_a_seeded_game_throws_every_total_in_fair_proportion() -> None:
    dice = SeededDice(2024)
    counts = Counter(dice.throw(i) for i in range(36 * 200))
    assert set(counts) == set(ROLLS)
    # each ordered throw is expected 200 times; a fair generator stays well within these bounds
    assert all(120 < count < 280 for count in counts.values())
    totals = Counter(roll.total for roll in counts.elements())
    assert set(totals) == set(TOTALS)


@pytest.mark.parametrize("seed", [-1, -(2**40), 2**63])
def test_a_seed_out_of_range_is_refused(seed: int) -> None:
    with pytest.raises(
        InvalidError, match=rf"invalid seed {seed}: expected a whole number from 0 to 2\*\*63 - 1"
    ):
        SeededDice(seed)


def test_the_seed_is_part_of_the_value() -> None:
    assert SeededDice(3) == SeededDice(3)
    assert SeededDice(3) != SeededDice(4)


def test_secure_dice_throw_valid_rolls() -> None:
    dice = SecureDice()
    thrown = [dice.throw(index) for index in range(300)]
    assert all(isinstance(roll, Roll) and roll in ROLLS for roll in thrown)
    # 300 identical throws from a working generator has probability 36**-299
    assert len(set(thrown)) > 1
    # every face turns up on each die (missing one in 300 throws: about 6 * (5/6)**300, under 1e-22)
    assert {roll.a for roll in thrown} == set(range(1, 7))
    assert {roll.b for roll in thrown} == set(range(1, 7))


def test_both_sources_satisfy_the_protocol() -> None:
    sources: list[DiceSource] = [SecureDice(), SeededDice(1)]
    for source in sources:
        assert source.throw(0) in ROLLS
