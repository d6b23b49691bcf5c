"""The seeding scheme: seeds checked, one stream per lane, 11 exact throws per accepted word."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hazard.core.errors import InvalidError
from hazard.sim.native import load
from hazard.sim.stream import (
    DIGITS_PER_WORD,
    MAX_SEED,
    ROUND_STREAM,
    SESSION_STREAM,
    WORD_LIMIT,
    check_seed,
    digits_of_word,
    lane_generator,
    lane_words,
    reference_digits,
    seed_words,
)


@pytest.mark.parametrize("seed", [-1, 2**128, 1.5, True, "7"])
def test_bad_seeds_are_refused(seed: object) -> None:
    with pytest.raises(InvalidError, match="invalid seed"):
        check_seed(seed)  # type: ignore[arg-type]


def test_good_seeds_pass() -> None:
    assert check_seed(0) == 0
    assert check_seed(MAX_SEED) == MAX_SEED


def test_a_word_is_eleven_base_36_digits_least_significant_first() -> None:
    digits = [3, 0, 35, 1, 2, 3, 4, 5, 6, 7, 8]
    word = sum(d * 36**k for k, d in enumerate(digits)) + 5 * 36**DIGITS_PER_WORD
    assert digits_of_word(word) == digits
    assert digits_of_word(WORD_LIMIT - 1) == [35] * 11
    assert digits_of_word(WORD_LIMIT) == []
    assert digits_of_word(2**64 - 1) == []


def test_the_accepted_words_give_every_digit_equally_often() -> None:
    # Below the limit each residue mod 36^11 is hit exactly 140 times: the digits are exactly uniform.
    assert WORD_LIMIT % 36**DIGITS_PER_WORD == 0
    assert WORD_LIMIT <= 2**64 < WORD_LIMIT + 36**DIGITS_PER_WORD


def test_each_lane_has_its_own_reproducible_stream() -> None:
    first = lane_words(lane_generator(5, ROUND_STREAM, 0, 0), 4)
    assert first == lane_words(lane_generator(5, ROUND_STREAM, 0, 0), 4)
    others = [
        lane_generator(5, ROUND_STREAM, 0, 1),
        lane_generator(5, ROUND_STREAM, 1, 0),
        lane_generator(5, SESSION_STREAM, 0, 0),
        lane_generator(6, ROUND_STREAM, 0, 0),
    ]
    for generator in others:
        assert first != lane_words(generator, 4)


_keys = st.tuples(st.integers(0, 1), st.integers(0, 2**40), st.integers(0, 1))


@settings(max_examples=300, deadline=None, derandomize=True)
@given(seed=st.one_of(st.integers(0, 2**32), st.integers(0, MAX_SEED)), key=_keys)
def test_a_lane_is_numpys_pcg64_from_its_seed_sequence(seed: int, key: tuple[int, int, int]) -> None:
    """Seeded and stepped here without NumPy, a lane draws NumPy's own words, so every result a seed gave
    before stays as it was; and the C kernels step it the same (both 128-bit ways, see test_sim_native)."""
    sequence = np.random.SeedSequence(seed, spawn_key=key)
    assert seed_words(seed, key) == sequence.generate_state(4, np.uint64).tolist()
    numpy_words = np.random.PCG64(sequence).random_raw(6).tolist()
    lane = lane_generator(seed, *key)
    assert lane_words(lane, 3) + load().lane_words(lane, 3) == numpy_words


def test_digits_are_close_to_uniform() -> None:
    digits = np.array(reference_digits(1, ROUND_STREAM, 0, 0, 20_000))
    counts = np.bincount(digits, minlength=36)
    expected = len(digits) / 36
    chi2 = float(((counts - expected) ** 2 / expected).sum())
    assert chi2 < 80  # 35 degrees of freedom: 80 is beyond the 99.99th percentile
