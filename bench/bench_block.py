"""A block of rounds, this checkout's way against an earlier build's, in one process, block by block in turn.

This checkout plays a block as ``hazard.sim.rounds`` does: one call of its kernels (``play_block``: both
lanes played and tallied ``--chunk`` rounds at a time). Before issue 23 a block was ``play_lanes`` and
``tally`` called from Python, 2**17 rounds a lane at a time, the logs kept between blocks. ``--against``
names the kernels' library of such a build (another checkout's ``src/hazard/sim/_native.abi3.so``): its
``play_lanes`` and ``tally`` are called that way, and this checkout's way is played, on the same blocks of
the same seed, one block of each in turn, so that each pair of blocks sees the same load of a shared
machine. Each pair's counts are checked equal; the report is the CPU time of each and the ratio, pair by
pair (median and range) and in all.

    .venv/bin/python bench/bench_block.py --against ../main/src/hazard/sim/_native.abi3.so --blocks 40
"""

from __future__ import annotations

import argparse
import ctypes
import statistics
import time
from array import array
from pathlib import Path

from hazard.core.rulesets import find_ruleset
from hazard.sim import compile_rules, native
from hazard.sim.rounds import _Plan, _play_block
from hazard.sim.stream import BLOCK_ROUNDS, ROUND_STREAM, lane_generator, pair_tables
from hazard.sim.tables import HAND_BUCKETS, TALLY_WAYS, THROW_BUCKETS, CompiledRules, zeros

EARLIER_CHUNK = 1 << 17
"""Rounds a lane played per call of the kernels before issue 23."""


def earlier_kernels(library: Path) -> native.NativeKernels:
    """An earlier build's kernels, through this checkout's loader (which also binds ``play_block``, absent
    there: this checkout's stands in, unused)."""
    loaded = ctypes.CDLL(str(library))
    setattr(loaded, "hazard_play_block", native.load()._play_block)  # noqa: B010 - ctypes binds by name
    return native.NativeKernels(loaded, library)


def _fresh(table: CompiledRules) -> tuple[array[int], array[int]]:
    counts = zeros("q", TALLY_WAYS * table.codes * (THROW_BUCKETS + 2))
    return counts, zeros("q", TALLY_WAYS * (HAND_BUCKETS + 2))


def _sums(counts: array[int]) -> list[int]:
    """The four copies of the counts added up: which copy a round goes to depends on the chunk."""
    n = len(counts) // TALLY_WAYS
    return [sum(counts[w * n + i] for w in range(TALLY_WAYS)) for i in range(n)]


def earlier_block(
    kernels: native.NativeKernels, table: CompiledRules, block: int, logs: list[array[int]]
) -> list[int]:
    low, high = pair_tables()
    counts, hands = _fresh(table)
    quotas, done = [(BLOCK_ROUNDS + 1) // 2, BLOCK_ROUNDS // 2], [0, 0]
    bits = [lane_generator(1, ROUND_STREAM, block, lane) for lane in (0, 1)]
    carry = zeros("Q", 8)
    carry[0] = carry[4] = table.start * 36
    hand_carry = [zeros("q", 2), zeros("q", 2)]
    while done != quotas:
        targets = [min(EARLIER_CHUNK, q - d) for q, d in zip(quotas, done, strict=True)]
        logged = kernels.play_lanes(
            bits[0], bits[1], targets[0], targets[1], table.entries, carry, logs[0], logs[1], low, high
        )
        for lane in (0, 1):
            kernels.tally(logs[lane], logged[lane], table.passing_rule(), counts, hands, hand_carry[lane])
            done[lane] += logged[lane]
    return _sums(counts)


def this_block(plan: _Plan, block: int, chunk: int) -> list[int]:
    """A block as this checkout's study of rounds plays it (one call of play_block)."""
    return _sums(_play_block(plan, 1, block, BLOCK_ROUNDS, chunk).counts)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--against", type=Path, required=True, help="an earlier build's _native library")
    parser.add_argument("--ruleset", default="craps")
    parser.add_argument("--blocks", type=int, default=40, help="pairs of blocks")
    parser.add_argument("--chunk", type=int, default=1 << 12, help="this checkout's chunk")
    args = parser.parse_args()
    earlier = earlier_kernels(args.against)
    table = compile_rules(find_ruleset(args.ruleset))
    plan = _Plan.of(table)
    logs = [zeros("Q", EARLIER_CHUNK + 1), zeros("Q", EARLIER_CHUNK + 1)]  # kept between blocks, as then
    ratios, before, now = [], 0.0, 0.0
    for block in range(args.blocks):
        c0 = time.process_time()
        a = earlier_block(earlier, table, block, logs)
        c1 = time.process_time()
        b = this_block(plan, block, args.chunk)
        c2 = time.process_time()
        if a != b:
            raise SystemExit(f"block {block}: the counts differ")
        ratios.append((c1 - c0) / (c2 - c1))
        before, now = before + c1 - c0, now + c2 - c1
    print(
        f"{table.ruleset.id}, {args.blocks} pairs of blocks of {BLOCK_ROUNDS:,} rounds: "
        f"CPU s earlier {before:.3f}, this {now:.3f}; speed this / earlier: {statistics.median(ratios):.3f} "
        f"({min(ratios):.3f}-{max(ratios):.3f}) by pair, {before / now:.3f} in all"
    )


if __name__ == "__main__":
    main()
