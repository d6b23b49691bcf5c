"""Simulating many rounds, throw by throw: blocks of rounds shared among worker threads.

>>> from hazard.core.rulesets import find_ruleset
>>> counts = simulate_rounds(compile_rules(find_ruleset("craps")), 1000, seed=1)
>>> counts.rounds, sum(map(sum, counts.by_code))
(1000, 1000)
"""

from __future__ import annotations

import os
import time
from array import array
from collections.abc import Callable
from dataclasses import dataclass

from hazard.core.errors import InvalidError
from hazard.sim.backend import backend
from hazard.sim.stream import (
    BLOCK_ROUNDS,
    LANES,
    ROUND_STREAM,
    check_seed,
)
from hazard.sim.tables import HAND_BUCKETS, TALLY_WAYS, THROW_BUCKETS, CompiledRules, compile_rules, zeros
from hazard.sim.workers import Pool, run_blocks

__all__ = [
    "DEFAULT_CHUNK_ROUNDS",
    "MAX_ROUNDS",
    "RoundCounts",
    "check_run",
    "compile_rules",
    "simulate_rounds",
]

DEFAULT_CHUNK_ROUNDS = 1 << 12
"""Rounds a lane logs before they are tallied, at most: the size of the logs kept in memory (small enough
to stay in the cache while the kernel tallies them: a chunk of 2**12 played 15% faster than one of 2**17)."""
MAX_ROUNDS = 10**12
"""The most rounds one study plays."""

Progress = Callable[[int], None]
"""Called from the calling thread with the number of rounds played so far."""


@dataclass(frozen=True, eq=False)
class RoundCounts:
    """What a simulation counted: rounds by outcome code and number of throws, and hands of the dice.

    ``by_code[code][t]`` is the number of rounds that ended with outcome ``code`` after ``t`` throws (the
    last bucket holds every longer round); ``throw_sums[code]`` and ``throw_squares[code]`` are the exact
    sums of throws and of their squares. ``hands[k]`` counts the casters who kept the dice for ``k`` rounds
    (where the dice pass), with ``hand_sums`` the sum of rounds kept and of their squares.
    """

    table: CompiledRules
    requested: int
    rounds: int
    seed: int
    by_code: tuple[tuple[int, ...], ...]
    throw_sums: tuple[int, ...]
    throw_squares: tuple[int, ...]
    hands: tuple[int, ...]
    hand_sums: tuple[int, int]
    seconds: float
    workers: int
    interrupted: bool

    @property
    def throws(self) -> int:
        """Every throw of the dice made in the rounds counted."""
        return sum(self.throw_sums)

    def __repr__(self) -> str:
        # One line: the counts by outcome and throw are some 14 KB; round_stats reads them.
        return (
            f"<RoundCounts {self.rounds:,} of {self.requested:,} rounds of {self.table.ruleset.id}, "
            f"seed {self.seed}: {self.throws:,} throws>"
        )


@dataclass
class _Block:
    counts: array[int]
    """``TALLY_WAYS`` copies of (codes, throw buckets + 2), flat."""
    hands: array[int]
    """``TALLY_WAYS`` copies of (hand buckets + 2), flat."""
    rounds: int


@dataclass(frozen=True, eq=False)
class _Plan:
    """What every block of a study shares: the table as the kernels read it."""

    table: CompiledRules
    low: array[int]
    high: array[int]
    rule: array[int]

    @classmethod
    def of(cls, table: CompiledRules) -> _Plan:
        low, high = backend().pair_tables()
        return cls(table, low, high, table.passing_rule())


def _play_blocks(
    plan: _Plan, seed: int, first: int, sizes: list[int], chunk_rounds: int, *, path: str | None = None
) -> _Block:
    """Play blocks ``first``, ``first + 1``, ... of ``sizes[0]``, ``sizes[1]``, ... rounds, each over its two
    lanes (the first lane takes the odd round), tallied as they are played and added up, in one call of the
    kernels (``chunk_rounds`` a lane at a time; on ``path``, or the kernels' own, where they have paths)."""
    table = plan.table
    counts = zeros("q", TALLY_WAYS * table.codes * (THROW_BUCKETS + 2))
    hands = zeros("q", TALLY_WAYS * (HAND_BUCKETS + 2))
    kernels = backend()
    # seeded in C (seed.c's hazard_seed_lane): in Python, SeedSequence's hashing took 31-78 us a lane
    blocks = range(first, first + len(sizes))
    lanes = [
        kernels.seeded_lane(seed, ROUND_STREAM, block, lane) for block in blocks for lane in range(LANES)
    ]
    quotas = [quota for size in sizes for quota in ((size + 1) // 2, size // 2)]
    kernels.play_blocks(
        lanes,
        quotas,
        chunk_rounds,
        table.entries,
        table.start * 36,
        plan.low,
        plan.high,
        plan.rule,
        counts,
        hands,
        path=path,
    )
    return _Block(counts, hands, sum(sizes))


def check_run(rounds: int, chunk_rounds: int, workers: int | None) -> int:
    """Check a run's size, chunk and workers (:class:`InvalidError` if bad); return the workers to use."""
    if isinstance(rounds, bool) or not isinstance(rounds, int) or not 1 <= rounds <= MAX_ROUNDS:
        raise InvalidError(f"invalid number of rounds {rounds!r}: expected a whole number from 1 to 10**12")
    if isinstance(chunk_rounds, bool) or not isinstance(chunk_rounds, int) or chunk_rounds < 1:
        raise InvalidError(
            f"invalid chunk size {chunk_rounds!r}: expected a whole number of rounds, 1 or more"
        )
    if workers is None:
        return max(1, min(os.cpu_count() or 1, 64))
    if isinstance(workers, bool) or not isinstance(workers, int) or workers < 1:
        raise InvalidError(f"invalid number of workers {workers!r}: expected 1 or more")
    return workers


def simulate_rounds(
    table: CompiledRules,
    rounds: int,
    seed: int,
    *,
    chunk_rounds: int = DEFAULT_CHUNK_ROUNDS,
    workers: int | None = None,
    progress: Progress | None = None,
    pool: Pool | None = None,
) -> RoundCounts:
    """Play ``rounds`` rounds of ``table`` from ``seed``, every throw drawn, and count what happened.

    The counts depend only on the table, the number of rounds and the seed: not on ``chunk_rounds`` (rounds
    a lane logs before they are tallied) nor on ``workers`` (threads; default: one per core). A Ctrl-C
    stops the run after the blocks in progress and returns what the finished blocks counted, with
    ``interrupted`` set. With ``pool`` (a cluster's: ``hazard.sim.cluster.connect``) the blocks run
    there instead, with the same results.
    """
    check_seed(seed)
    workers = check_run(rounds, chunk_rounds, workers)
    began = time.perf_counter()
    plan = _Plan.of(table)
    kernels = backend()
    blocks = -(-rounds // BLOCK_ROUNDS)
    # A vector path plays several blocks' lanes in step: as many as it takes, but no fewer calls than
    # workers, so that a study of a few dozen blocks still keeps every worker busy.
    spread = workers if pool is None else pool.width
    per_call = max(1, min(kernels.blocks_per_call, blocks // max(spread, 1)))
    groups = -(-blocks // per_call)
    width = THROW_BUCKETS + 2
    counts = zeros("q", table.codes * width)
    hands = zeros("q", HAND_BUCKETS + 2)
    played = 0

    def play(group: int) -> _Block:
        first = group * per_call
        last = min(first + per_call, blocks)
        sizes = [min(BLOCK_ROUNDS, rounds - block * BLOCK_ROUNDS) for block in range(first, last)]
        return _play_blocks(plan, seed, first, sizes, chunk_rounds)

    def fold(result: _Block) -> None:
        nonlocal played
        kernels.add(counts, result.counts, TALLY_WAYS)  # in C: a block's counts are thousands of numbers
        kernels.add(hands, result.hands, TALLY_WAYS)
        played += result.rounds

    threads = min(workers, groups) if pool is None else pool.width
    report = None if progress is None else (lambda: progress(played))
    # a group's blocks are added up in one result: a study cut short still ends at a block's end
    _, interrupted = run_blocks(groups, play, fold, threads=threads, progress=report, pool=pool)
    # The last bucket of throws (and of hands) holds every longer one: its exact sums are kept apart.
    rows = [counts[code * width : (code + 1) * width] for code in range(table.codes)]
    by_code = tuple(tuple(row[:THROW_BUCKETS]) for row in rows)
    short = range(THROW_BUCKETS - 1)
    kept = tuple(hands[:HAND_BUCKETS])
    hand_short = range(HAND_BUCKETS - 1)
    return RoundCounts(
        table=table,
        requested=rounds,
        rounds=played,
        seed=seed,
        by_code=by_code,
        throw_sums=tuple(sum(t * row[t] for t in short) + row[THROW_BUCKETS] for row in rows),
        throw_squares=tuple(sum(t * t * row[t] for t in short) + row[THROW_BUCKETS + 1] for row in rows),
        hands=kept,
        hand_sums=(
            sum(k * kept[k] for k in hand_short) + hands[HAND_BUCKETS],
            sum(k * k * kept[k] for k in hand_short) + hands[HAND_BUCKETS + 1],
        ),
        seconds=time.perf_counter() - began,
        workers=threads,
        interrupted=interrupted,
    )
