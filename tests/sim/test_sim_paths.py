"""The kernel's paths for blocks of rounds (simd.c): every path this CPU has gives the counts of the portable
path and of the plain-Python reference, to the bit, on built-in, random and made-up tables; the path is
chosen as documented, and a forced path that cannot be had is refused."""

from __future__ import annotations

import ctypes
from array import array
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from tests.sim_reference import ReferenceKernels
from tests.strategies import rulesets

from hazard.core.errors import InvalidError
from hazard.core.rulesets import builtin_rulesets, find_ruleset
from hazard.sim import compile_rules, native
from hazard.sim.backend import Kernels
from hazard.sim.stream import ROUND_STREAM, lane_generator, pair_tables
from hazard.sim.tables import CODE_SHIFT, HAND_BUCKETS, TALLY_WAYS, THROW_BIT, THROW_BUCKETS, zeros

NATIVE = native.load()
REFERENCE = ReferenceKernels()
PATHS = NATIVE.kernel_paths
VECTOR_PATHS = [path for path in PATHS if path != "portable"]
GROUP = max(native.BLOCKS_PER_CALL[path] for path in PATHS)
"""Blocks enough for a group of the widest path here (fewer are played on narrower paths)."""
CASCADE = 32 + 16 + 8 + 1
"""Blocks that take every width of group in turn (AVX-512's 32 and 16, AVX2's 8) and the portable path."""


def _played(
    kernels: Kernels,
    entries: array[int],
    start: int,
    rule: array[int],
    quotas: list[int],
    *,
    seed: int,
    path: str | None = None,
) -> tuple[list[int], list[int], list[int]]:
    """Blocks played to their quotas in one call: the counts and hands, their copies added up, and where each
    lane's generator was left."""
    low, high = pair_tables()
    lanes = [lane_generator(seed, ROUND_STREAM, n // 2, n % 2) for n in range(len(quotas))]
    codes = len(rule)
    counts = np.zeros(TALLY_WAYS * codes * (THROW_BUCKETS + 2), dtype=np.int64)
    hands = np.zeros(TALLY_WAYS * (HAND_BUCKETS + 2), dtype=np.int64)
    options = {} if path is None else {"path": path}
    kernels.play_blocks(lanes, quotas, 97, entries, start, low, high, rule, counts, hands, **options)
    by_copy = (counts.reshape(TALLY_WAYS, -1).sum(axis=0), hands.reshape(TALLY_WAYS, -1).sum(axis=0))
    return by_copy[0].tolist(), by_copy[1].tolist(), [lane.state_low for lane in lanes]


def _quotas(blocks: int, base: int) -> list[int]:
    """Lanes' quotas unequal (one lane of the last block well short), each far enough for several batches."""
    quotas = [base + (7 * n) % 50 for n in range(2 * blocks)]
    quotas[-1] = base // 3
    return quotas


@pytest.mark.parametrize("path", VECTOR_PATHS)
@pytest.mark.parametrize("ruleset", builtin_rulesets(), ids=lambda r: r.id)
def test_every_path_gives_the_portable_counts_and_the_references(ruleset: Any, path: str) -> None:
    # 17 blocks: a group of 16 on AVX-512 (two of 8 on AVX2), one block left over for the portable path
    table = compile_rules(ruleset)
    arguments = (table.entries, table.start * 36, table.passing_rule(), _quotas(17, 200))
    portable = _played(NATIVE, *arguments, seed=3, path="portable")
    assert _played(NATIVE, *arguments, seed=3, path=path) == portable
    assert _played(REFERENCE, *arguments, seed=3) == portable


@pytest.mark.parametrize("path", VECTOR_PATHS)
@pytest.mark.parametrize("name", ["craps", "wikipedia"])
def test_every_width_of_group_gives_the_portable_counts(name: str, path: str) -> None:
    table = compile_rules(find_ruleset(name))
    arguments = (table.entries, table.start * 36, table.passing_rule(), _quotas(CASCADE, 400))
    assert _played(NATIVE, *arguments, seed=4, path=path) == _played(
        NATIVE, *arguments, seed=4, path="portable"
    )


@pytest.mark.parametrize("path", VECTOR_PATHS)
@settings(max_examples=12, deadline=None)
@given(rulesets(), st.integers(0, 2**32))
def test_every_path_agrees_on_any_valid_ruleset(path: str, ruleset: Any, seed: int) -> None:
    table = compile_rules(ruleset)
    arguments = (table.entries, table.start * 36, table.passing_rule(), _quotas(GROUP, 200))
    assert _played(NATIVE, *arguments, seed=seed, path=path) == _played(
        NATIVE, *arguments, seed=seed, path="portable"
    )


def _long_rounds() -> array[int]:
    """A table of one state in which only a roll of 1-1 (outcome 1) or of 1-2 (outcome 2) ends the round:
    rounds of 18 throws on average, many of them in the last bucket of throws (63 or more)."""
    entries = zeros("Q", 36)
    for digit in range(36):
        entries[digit] = (1 << THROW_BIT) | ((digit + 1 if digit < 2 else 0) << CODE_SHIFT)
    return entries


@pytest.mark.parametrize("path", VECTOR_PATHS)
@pytest.mark.parametrize(
    ("rule", "long_hands"),
    [
        ([100, 2, 2], True),
        ([6, 1, 2], True),
        ([0, 2, 2], False),
        ([1, 3, 2], False),
        ([1, 0, 4], False),
        ([0, 0, 0], False),
    ],
    ids=[
        "pass after 100 losses",
        "after 6, a win clears them",
        "every loss passes",
        "after 1, a loss that also wins passes",
        "no main",
        "never",
    ],
)
def test_long_rounds_and_long_hands_are_summed_exactly_on_every_path(
    path: str, rule: list[int], long_hands: bool
) -> None:
    arguments = (_long_rounds(), 0, array("q", rule), _quotas(GROUP, 300))
    portable = _played(NATIVE, *arguments, seed=8, path="portable")
    assert _played(NATIVE, *arguments, seed=8, path=path) == portable
    counts, hands, _ = portable
    assert counts[THROW_BUCKETS + 2 + THROW_BUCKETS] > 0  # outcome 1's long rounds: their throws summed
    assert (hands[HAND_BUCKETS] > 0) == long_hands


def _long_hands() -> array[int]:
    """A table of one state in which every throw ends the round: a roll of 1-1 in outcome 1, any other in
    outcome 2, so that a hand passed only by outcome 1 lasts 36 rounds on average, many in the last bucket."""
    entries = zeros("Q", 36)
    for digit in range(36):
        entries[digit] = (1 << THROW_BIT) | ((1 if digit == 0 else 2) << CODE_SHIFT)
    return entries


@pytest.mark.parametrize("path", VECTOR_PATHS)
@pytest.mark.parametrize(
    "rule",
    [[1, 2, 1], [1, 3, 1], [0, 4, 1]],
    ids=["after 1, a loss passes", "after 1, a loss that also wins passes", "no main passes"],
)
def test_long_hands_where_every_counted_loss_passes_are_summed_exactly_on_every_path(
    path: str, rule: list[int]
) -> None:
    # where every counted loss passes, the AVX2 batch leaves a hand's rounds for the count to bucket
    arguments = (_long_hands(), 0, array("q", rule), _quotas(GROUP, 600))
    portable = _played(NATIVE, *arguments, seed=5, path="portable")
    assert _played(NATIVE, *arguments, seed=5, path=path) == portable
    assert portable[1][HAND_BUCKETS] > 0  # the long hands' rounds summed


def test_the_path_in_use_is_the_best_unless_one_is_forced(monkeypatch: pytest.MonkeyPatch) -> None:
    assert PATHS[0] == "portable"
    assert set(PATHS) <= set(native.KERNEL_PATHS)
    path = native.library_file()
    monkeypatch.delenv(native.PATH_VARIABLE, raising=False)
    assert native.NativeKernels(ctypes.CDLL(str(path)), path).kernel_path == PATHS[-1]
    for forced in PATHS:
        monkeypatch.setenv(native.PATH_VARIABLE, forced)
        kernels = native.NativeKernels(ctypes.CDLL(str(path)), path)
        assert (kernels.kernel_path, kernels.blocks_per_call) == (forced, native.BLOCKS_PER_CALL[forced])


@pytest.mark.parametrize(
    ("wanted", "offered", "message"),
    [
        ("sse9", PATHS, r"invalid HAZARD_KERNEL_PATH 'sse9': expected one of portable, avx2, avx512, neon"),
        ("AVX2", PATHS, "expected one of"),
        ("avx512", ("portable", "avx2"), "this CPU .* has only portable, avx2"),
        ("avx2", ("portable",), "has only portable$"),
    ],
)
def test_a_forced_path_that_cannot_be_had_is_refused(
    monkeypatch: pytest.MonkeyPatch, wanted: str, offered: tuple[str, ...], message: str
) -> None:
    monkeypatch.setenv(native.PATH_VARIABLE, wanted)
    with pytest.raises(InvalidError, match=message):
        native._chosen_path(offered)


def test_a_call_on_a_path_not_here_is_refused() -> None:
    table = compile_rules(builtin_rulesets()[0])
    missing = [path for path in native.KERNEL_PATHS if path not in PATHS] or ["sse9"]
    with pytest.raises(ValueError, match="no path"):
        _played(NATIVE, table.entries, 0, table.passing_rule(), [5, 5], seed=1, path=missing[0])
