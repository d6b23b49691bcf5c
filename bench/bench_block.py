"""Blocks of rounds: this checkout's way against an earlier build's, or this checkout's kernel paths against
each other and the C anchor, in one process, in turn.

This checkout plays a block as ``hazard.sim.rounds`` does: one call of its kernels (``play_block``: both
lanes played and tallied ``--chunk`` rounds at a time). Before issue 23 a block was ``play_lanes`` and
``tally`` called from Python, 2**17 rounds a lane at a time, the logs kept between blocks. ``--against``
names the kernels' library of such a build (another checkout's ``src/hazard/sim/_native.abi3.so``): its
``play_lanes`` and ``tally`` are called that way, and this checkout's way is played, on the same blocks of
the same seed, one block of each in turn, so that each pair of blocks sees the same load of a shared
machine. Each pair's counts are checked equal; the report is the CPU time of each and the ratio, pair by
pair (median and range) and in all.

    .venv/bin/python bench/bench_block.py --against ../main/src/hazard/sim/_native.abi3.so --blocks 40

``--paths`` instead plays a group of blocks (as many as the widest path here takes in one call, 32 on
AVX-512) on each kernel path this CPU has (portable, avx2, avx512 on x86-64; portable, neon on aarch64:
``hazard.sim.native.KERNEL_PATHS``),
one worker, and the C anchor (bench/anchor.c, both its builds, the faster taken) on as many craps rounds
on one thread, in turn, ``--pairs`` times: each path's counts are checked equal to the portable path's,
and the report is each one's throws per CPU-second (median and range) and its ratios, pair by pair, to
the portable path and to the anchor. It says which path ``hazard simulate`` uses here.

    .venv/bin/python bench/bench_block.py --paths --pairs 15

``--path`` with ``--baseline`` instead plays one kernel path of this checkout's library and of another
build's (``--baseline``: its ``_native.abi3.so``, a build that has that path) on the same group of blocks
(as many as the path takes in one call), in turn, ``--pairs`` times, which of the two goes first
alternating: each pair's counts are checked equal, and the report is the CPU time of each and the speed
ratio, pair by pair (median and range) and in all. On a shared machine this pairing is what resolves a
change of a few percent.

    .venv/bin/python bench/bench_block.py --path avx2 --pairs 100 \\
        --baseline ../main/src/hazard/sim/_native.abi3.so
"""

from __future__ import annotations

import argparse
import ctypes
import statistics
import tempfile
import time
from array import array
from pathlib import Path

from hazard.core.rulesets import find_ruleset
from hazard.sim import compile_rules, native
from hazard.sim.rounds import _Block, _Plan, _play_blocks
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
    return _sums(_play_blocks(plan, 1, block, [BLOCK_ROUNDS], chunk).counts)


def _throws(counts: list[int]) -> int:
    """The throws of the rounds counted (added-up copies of the counts, as :func:`_sums` gives them)."""
    width = THROW_BUCKETS + 2
    rows = [counts[n : n + width] for n in range(0, len(counts), width)]
    return sum(sum(t * row[t] for t in range(THROW_BUCKETS - 1)) + row[THROW_BUCKETS] for row in rows)


def _paths(pairs: int, chunk: int) -> None:
    """Each kernel path on the same group of blocks, and the anchor on as many rounds, in turn."""
    from bench_simulate import BUILDS, anchor_run, build_anchor  # noqa: PLC0415 - beside this file

    kernels = native.load()
    group = max(native.BLOCKS_PER_CALL[path] for path in kernels.kernel_paths)
    table = compile_rules(find_ruleset("craps"))
    plan = _Plan.of(table)
    rates: dict[str, list[float]] = {path: [] for path in [*kernels.kernel_paths, "anchor"]}
    cpu: dict[str, float] = dict.fromkeys(rates, 0.0)
    with tempfile.TemporaryDirectory() as folder:
        anchors = build_anchor(Path(folder))
        for pair in range(pairs):
            first = pair * group  # new blocks each pair, the same for every path
            played: dict[str, _Block] = {}
            for path in kernels.kernel_paths:
                c0 = time.process_time()
                played[path] = _play_blocks(plan, 1, first, [BLOCK_ROUNDS] * group, chunk, path=path)
                seconds = time.process_time() - c0
                rates[path].append(_throws(_sums(played[path].counts)) / seconds)
                cpu[path] += seconds
            if any(_sums(block.counts) != _sums(played["portable"].counts) for block in played.values()):
                raise SystemExit(f"pair {pair}: the paths' counts differ")
            runs = [
                anchor_run(anchors[name], group * BLOCK_ROUNDS, 1)[0] for name in BUILDS if name in anchors
            ]
            if runs:
                best = max(runs, key=lambda run: run.per_cpu)
                rates["anchor"].append(best.per_cpu)
                cpu["anchor"] += best.cpu
    print(
        f"craps, {pairs} pairs of {group} blocks of {BLOCK_ROUNDS:,} rounds, one worker; "
        f"hazard simulate uses the {kernels.kernel_path} path here"
    )
    for name, values in rates.items():
        if not values:
            continue
        line = f"  {name:>8}: {statistics.median(values) / 1e6:7.1f} M throws/CPU-s ({min(values) / 1e6:.1f}-"
        line += f"{max(values) / 1e6:.1f}), CPU s {cpu[name]:.3f}"
        for against in ("portable", "anchor"):
            if against != name and rates[against]:
                ratios = [a / b for a, b in zip(values, rates[against], strict=True)]
                line += f"; / {against} {statistics.median(ratios):.2f} ({min(ratios):.2f}-{max(ratios):.2f})"
        print(line)


def _group(
    kernels: native.NativeKernels, plan: _Plan, path: str, blocks: range, chunk: int
) -> tuple[float, list[int]]:
    """The CPU seconds of ``blocks`` played on ``path`` by ``kernels``, and their counts and hands (each
    with its copies added up)."""
    table = plan.table
    counts, hands = _fresh(table)
    lanes = [kernels.seeded_lane(1, ROUND_STREAM, block, lane) for block in blocks for lane in (0, 1)]
    quotas = [q for _ in blocks for q in ((BLOCK_ROUNDS + 1) // 2, BLOCK_ROUNDS // 2)]
    entries, start = table.entries, table.start * 36
    c0 = time.process_time()
    kernels.play_blocks(
        lanes, quotas, chunk, entries, start, plan.low, plan.high, plan.rule, counts, hands, path=path
    )
    return time.process_time() - c0, _sums(counts) + _sums(hands)


def _builds(path: str, baseline: Path, pairs: int, ruleset: str, chunk: int) -> None:
    """One path of this checkout's kernels and of a baseline build's, on the same blocks, in turn."""
    builds = {"baseline": native.NativeKernels(ctypes.CDLL(str(baseline)), baseline), "this": native.load()}
    plan = _Plan.of(compile_rules(find_ruleset(ruleset)))
    group = native.BLOCKS_PER_CALL[path]
    seconds: dict[str, list[float]] = {name: [] for name in builds}
    for pair in range(pairs):
        played = {}
        for name in list(builds)[:: 1 if pair % 2 == 0 else -1]:  # which goes first alternates
            cpu, played[name] = _group(
                builds[name], plan, path, range(pair * group, (pair + 1) * group), chunk
            )
            seconds[name].append(cpu)
        if played["baseline"] != played["this"]:
            raise SystemExit(f"pair {pair}: the counts differ")
    before, now = sum(seconds["baseline"]), sum(seconds["this"])
    ratios = [a / b for a, b in zip(seconds["baseline"], seconds["this"], strict=True)]
    print(
        f"{ruleset}, {pairs} pairs of {group} blocks of {BLOCK_ROUNDS:,} rounds on the {path} path: "
        f"CPU s baseline {before:.3f}, this {now:.3f}; speed this / baseline: "
        f"{statistics.median(ratios):.3f} ({min(ratios):.3f}-{max(ratios):.3f}) by pair, "
        f"{before / now:.3f} in all"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--against", type=Path, help="an earlier build's _native library")
    parser.add_argument("--paths", action="store_true", help="this checkout's kernel paths and the anchor")
    parser.add_argument("--pairs", type=int, default=15, help="--paths, --path: rounds of runs in turn")
    parser.add_argument("--path", choices=native.KERNEL_PATHS, help="one kernel path, against --baseline")
    parser.add_argument("--baseline", type=Path, help="--path: another build's _native library")
    parser.add_argument("--ruleset", default="craps")
    parser.add_argument("--blocks", type=int, default=40, help="pairs of blocks")
    parser.add_argument("--chunk", type=int, default=1 << 12, help="this checkout's chunk")
    args = parser.parse_args()
    if args.paths:
        _paths(args.pairs, args.chunk)
        return
    if args.path is not None:
        if args.baseline is None:
            parser.error("--path needs --baseline")
        _builds(args.path, args.baseline, args.pairs, args.ruleset, args.chunk)
        return
    if args.against is None:
        parser.error("--against or --paths is needed")
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
