"""The C kernels, bit for bit against the plain-Python reference (``tests/sim_reference.py``), and against the
rules engine; how they are built and loaded (once, at install: nothing at run time)."""

from __future__ import annotations

import ctypes
import dataclasses
import json
import os
import subprocess
import sys
import sysconfig
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from tests.paths import ROOT
from tests.sim_reference import ReferenceKernels, session_rows
from tests.strategies import rulesets

from hazard.core.engine import apply
from hazard.core.rulesets import builtin_rulesets, find_ruleset, paytable_for
from hazard.core.state import Round
from hazard.sim import (
    SessionConfig,
    Staking,
    compile_rules,
    native,
    round_stats,
    simulate_rounds,
    simulate_sessions,
)
from hazard.sim.backend import Kernels, backend
from hazard.sim.session import _in_grains
from hazard.sim.stream import (
    BLOCK_ROUNDS,
    BLOCK_SESSIONS,
    ROUND_STREAM,
    lane_generator,
    lane_words,
    pair_tables,
    reference_digits,
)
from hazard.sim.tables import HAND_BUCKETS, TALLY_WAYS, THROW_BUCKETS, CompiledRules, roll_of

NATIVE = native.load()
KERNEL_SOURCES = (
    "native.c",
    "tally.c",
    "session.c",
    "seed.c",
    "simd.c",
    "simd256.c",
    "simd512.c",
    "simdneon.c",
)
"""The kernel's C files, as setup.py lists them (less _module.c)."""
REFERENCE = ReferenceKernels()


def _lanes(
    play: Callable[..., Any], table: CompiledRules, targets: tuple[int, int], *, seed: int, chunk: int
) -> tuple[list[int], list[int], list[list[int]]]:
    """Play two lanes to their targets, ``chunk`` rounds a call; both logs and the carry."""
    low, high = pair_tables()
    bits = [lane_generator(seed, ROUND_STREAM, 3, lane) for lane in (0, 1)]
    carry = np.zeros((2, 4), dtype=np.uint64)
    carry[:, 0] = table.start * 36
    logs: list[list[int]] = [[], []]
    done = [0, 0]
    entries = table.entries
    while done != list(targets):
        goal = [min(chunk, t - d) for t, d in zip(targets, done, strict=True)]
        buffers = [np.zeros(g + 1, dtype=np.uint64) for g in goal]
        logged = play(bits[0], bits[1], goal[0], goal[1], entries, carry, buffers[0], buffers[1], low, high)
        assert [int(n) for n in logged] == goal
        for lane in (0, 1):
            logs[lane] += buffers[lane][: goal[lane]].tolist()
            done[lane] += goal[lane]
    return logs[0], logs[1], carry.tolist()


# --- rounds: the lanes ---------------------------------------------------------------------------------


@pytest.mark.parametrize("ruleset", builtin_rulesets(), ids=lambda r: r.id)
# Chunks of 44 rounds and fewer use only the C kernel's plain loop; longer ones its fast loop as well,
# which takes four words of each lane at a time (4 * 11 rounds at most) and leaves the rest to the plain one.
@pytest.mark.parametrize("chunk", [1, 2, 7, 11, 44, 45, 46, 89, 133, 1000])
def test_the_lanes_equal_the_reference_on_every_builtin_ruleset(ruleset: Any, chunk: int) -> None:
    table = compile_rules(ruleset)
    expected = _lanes(REFERENCE.play_lanes, table, (400, 371), seed=5, chunk=400)
    assert _lanes(NATIVE.play_lanes, table, (400, 371), seed=5, chunk=chunk) == expected


@settings(max_examples=40, deadline=None)
@given(rulesets(), st.sampled_from([13, 45, 120, 600]), st.integers(0, 2**32))
def test_the_lanes_equal_the_reference_on_any_valid_ruleset(ruleset: Any, chunk: int, seed: int) -> None:
    # A user's ruleset may make a table unlike any built-in one (more states, rounds that end at once or
    # run long): the fast loop and the plain one must still agree with the reference to the bit.
    table = compile_rules(ruleset)
    expected = _lanes(REFERENCE.play_lanes, table, (300, 257), seed=seed, chunk=300)
    assert _lanes(NATIVE.play_lanes, table, (300, 257), seed=seed, chunk=chunk) == expected


@pytest.mark.parametrize("chunk", [1, 2, 7, 11, 12, 40, 1000])
def test_a_lane_goes_on_as_if_never_stopped(chunk: int) -> None:
    table = compile_rules(find_ruleset("ecws"))
    whole = _lanes(NATIVE.play_lanes, table, (3000, 2999), seed=8, chunk=3000)
    assert _lanes(NATIVE.play_lanes, table, (3000, 2999), seed=8, chunk=chunk)[:2] == whole[:2]


@pytest.mark.parametrize("name", ["craps", "ecws", "wikipedia", "sca", "cotton"])
def test_a_lane_log_is_what_the_engine_makes_of_the_same_throws(name: str) -> None:
    table = compile_rules(find_ruleset(name))
    low, high = pair_tables()
    bits = [lane_generator(9, ROUND_STREAM, 0, lane) for lane in (0, 1)]
    carry = np.zeros((2, 4), dtype=np.uint64)
    carry[:, 0] = table.start * 36
    logs = [np.zeros(501, dtype=np.uint64), np.zeros(11, dtype=np.uint64)]
    NATIVE.play_lanes(bits[0], bits[1], 500, 10, table.entries, carry, *logs, low, high)
    digits = reference_digits(9, ROUND_STREAM, 0, 0, 1000)
    # The same throws through the engine, round after round.
    expected: list[tuple[int, int]] = []
    start = table.states[table.start]
    state: Round | None = None
    throws = 0
    mains = table.ruleset.mains
    for digit in digits:
        if state is None:
            if start is None:
                # a main drawn for the caster: d % k for d < 36 - 36 % k, else draw again
                if digit < 36 - 36 % len(mains):
                    state = table.states[1 + digit % len(mains)]
                continue
            state = start
        state, _ = apply(state, roll_of(digit))
        throws += 1
        if state.outcome is not None:
            expected.append((table.outcomes.index(state.outcome) + 1, throws))
            state, throws = None, 0
    got = [(int(v) >> 32, int(v) & 0xFFFFFFFF) for v in logs[0][:500]]
    assert got == expected[:500]


# --- rounds: the tally -------------------------------------------------------------------------------------


def _random_log(rng: np.random.Generator, n: int, codes: int) -> np.ndarray[Any, np.dtype[np.uint64]]:
    """A log of ``n`` rounds with random codes and throws, long rounds (63 throws and more) included."""
    code = rng.integers(1, codes, size=n, dtype=np.uint64)
    throws = rng.integers(1, 12, size=n, dtype=np.uint64)
    long = rng.random(n) < 0.05
    throws[long] = rng.integers(60, 500, size=int(long.sum()), dtype=np.uint64)
    return (code << np.uint64(32)) | throws


def _tallied(kernels: Kernels, log: Any, pieces: list[tuple[int, int]], rule: Any, codes: int) -> Any:
    counts = np.zeros((TALLY_WAYS, codes, THROW_BUCKETS + 2), dtype=np.int64)
    hands = np.zeros((TALLY_WAYS, HAND_BUCKETS + 2), dtype=np.int64)
    carry = np.array([1, 5], dtype=np.int64)
    for start, stop in pieces:  # in pieces, the carry between
        kernels.tally(log[start:stop].copy(), stop - start, rule, counts, hands, carry)
    return counts.tolist(), hands.tolist(), carry.tolist()


@pytest.mark.parametrize("after", [0, 1, 2, 3, 100])
def test_the_tally_equals_the_reference(after: int) -> None:
    rng = np.random.default_rng(after)
    codes = 6
    rule = rng.integers(0, 8, size=codes).astype(np.int64)
    rule[-1] &= 3  # not every code passes the dice, so that long hands occur
    rule[0] = after
    log = _random_log(rng, 3000, codes)
    pieces = [(0, 1), (1, 8), (8, 2500), (2500, 3000)]
    assert _tallied(NATIVE, log, pieces, rule, codes) == _tallied(REFERENCE, log, pieces, rule, codes)


def test_the_tally_of_a_real_log_with_long_hands_equals_the_reference() -> None:
    table = compile_rules(find_ruleset("wikipedia"), 7)
    log0, _, _ = _lanes(NATIVE.play_lanes, table, (5000, 1), seed=4, chunk=5000)
    log = np.array(log0, dtype=np.uint64)
    pieces = [(0, len(log))]
    native_tally = _tallied(NATIVE, log, pieces, table.passing_rule(), table.codes)
    assert native_tally == _tallied(REFERENCE, log, pieces, table.passing_rule(), table.codes)
    counts, hands, _ = native_tally
    assert sum(sum(row[:THROW_BUCKETS]) for way in counts for row in way) == len(log)
    assert sum(sum(way[:HAND_BUCKETS]) for way in hands) > 0  # wikipedia passes the dice after 3 losses


# --- rounds: a whole block in one call ---------------------------------------------------------------------


def _block(kernels: Kernels, table: CompiledRules, quotas: tuple[int, int], *, seed: int, chunk: int) -> Any:
    """A block's two lanes played to their quotas and tallied in one call: the counts and hands, their copies
    added up (which copy a round goes to depends on the chunk; the sums do not)."""
    low, high = pair_tables()
    bits = [lane_generator(seed, ROUND_STREAM, 2, lane) for lane in (0, 1)]
    counts = np.zeros(TALLY_WAYS * table.codes * (THROW_BUCKETS + 2), dtype=np.int64)
    hands = np.zeros(TALLY_WAYS * (HAND_BUCKETS + 2), dtype=np.int64)
    rule = table.passing_rule()
    start = table.start * 36
    kernels.play_block(bits[0], bits[1], *quotas, chunk, table.entries, start, low, high, rule, counts, hands)
    return counts.reshape(TALLY_WAYS, -1).sum(axis=0).tolist(), hands.reshape(TALLY_WAYS, -1).sum(
        axis=0
    ).tolist()


@pytest.mark.parametrize("ruleset", builtin_rulesets(), ids=lambda r: r.id)
@pytest.mark.parametrize(
    ("quotas", "chunk"), [((700, 699), 1), ((700, 699), 45), ((700, 699), 4096), ((9, 0), 4)]
)
def test_a_block_in_one_call_equals_the_reference(ruleset: Any, quotas: tuple[int, int], chunk: int) -> None:
    table = compile_rules(ruleset)
    expected = _block(REFERENCE, table, quotas, seed=6, chunk=300)
    assert _block(NATIVE, table, quotas, seed=6, chunk=chunk) == expected
    counts = np.array(expected[0]).reshape(table.codes, THROW_BUCKETS + 2)
    assert counts[:, :THROW_BUCKETS].sum() == sum(quotas)


def test_a_block_in_one_call_refuses_what_it_cannot_play() -> None:
    table = compile_rules(find_ruleset("craps"))
    for quotas, chunk, message in [((-1, 2), 10, "quotas of 0 or more"), ((3, 2), 0, "a chunk of 1 or more")]:
        with pytest.raises(ValueError, match=message):
            _block(NATIVE, table, quotas, seed=1, chunk=chunk)
    low, high = pair_tables()
    bits = lane_generator(1, ROUND_STREAM, 0, 0)
    short = np.zeros(3, dtype=np.int64)
    with pytest.raises(ValueError, match="items"):
        NATIVE.play_block(
            bits, bits, 5, 5, 10, table.entries, 0, low, high, table.passing_rule(), short, short
        )


# --- sessions -----------------------------------------------------------------------------------------------


@pytest.mark.parametrize("ruleset", builtin_rulesets(), ids=lambda r: r.id)
@pytest.mark.parametrize("staking", [0, 1, 2])
def test_the_sessions_equal_the_reference_on_every_builtin_ruleset(ruleset: Any, staking: int) -> None:
    _same_sessions_as_the_reference(ruleset, staking, 12.0)


# whole grains (counted in integers), half grains (integers once doubled), and bankrolls the kernel must
# count in doubles as the reference does: a third of a grain, and sums past 2^53
@pytest.mark.parametrize("bankroll", [12.0, 12.5, 12 + 1 / 3, 2.0**52], ids=["whole", "half", "third", "big"])
@pytest.mark.parametrize("staking", [0, 1, 2])
def test_the_sessions_equal_the_reference_however_the_money_is_counted(staking: int, bankroll: float) -> None:
    _same_sessions_as_the_reference(find_ruleset("wikipedia"), staking, bankroll)


def _same_sessions_as_the_reference(ruleset: Any, staking: int, bankroll: float) -> None:
    table = compile_rules(ruleset)
    grain, net, cover = _in_grains(table, paytable_for(ruleset))
    # every arrangement on every ruleset, whichever the ruleset's own: one setter's sum, or every setter
    arrangement = (staking + len(ruleset.id)) % 3
    settings_ = np.array([60, staking, grain, 3, cover, arrangement, 1.0], dtype=np.float64)
    results = []
    for kernels in (NATIVE, REFERENCE):
        bank = np.zeros((5, 3))
        ruin = np.zeros((5, 3), dtype=np.int64)
        stats = np.zeros((5, 7))
        bits = lane_generator(1, 1, 0, 0)
        used = kernels.play_sessions(
            bits, table.entries, table.start * 36, net, table.passing_rule(), settings_,
            np.full(3, bankroll * grain), bank, ruin, stats,
        )  # fmt: skip
        results.append((int(used), bank.tolist(), ruin.tolist(), stats.tolist()))
    # the same throws used, to the last (the C kernel plays rounds ahead: the stream's state after differs)
    assert results[0] == results[1]
    assert results[0][0] > 0
    assert np.isclose(np.array(results[0][1]).sum(axis=1), 3 * bankroll).all()  # money only changes hands


def test_blocks_of_sessions_in_one_call_are_the_blocks_played_one_by_one() -> None:
    """play_session_blocks seeds each block's lane and plays its sessions, the last block short: the rows of
    play_sessions block by block, and the reference's."""
    table = compile_rules(find_ruleset("wikipedia"))
    grain, net, cover = _in_grains(table, paytable_for(table.ruleset))
    settings_ = np.array([50, 1, grain, 3, cover, 0, 1.0], dtype=np.float64)
    bankrolls = np.full(3, 20.0 * grain)
    fixed = (table.entries, table.start * 36, net, table.passing_rule(), settings_, bankrolls)
    rows = []
    for kernels in (NATIVE, REFERENCE):  # ten sessions in blocks of four from block 3: blocks 3, 4 and 5
        bank, ruin, stats = np.zeros((10, 3)), np.zeros((10, 3), dtype=np.int64), np.zeros((10, 7))
        kernels.play_session_blocks(2**70 + 5, 1, 3, 4, *fixed, bank, ruin, stats)
        rows.append((bank.tolist(), ruin.tolist(), stats.tolist()))
    one_by_one: list[tuple[Any, ...]] = []
    for block, sessions in ((3, 4), (4, 4), (5, 2)):
        bank, ruin, stats = (
            np.zeros((sessions, 3)),
            np.zeros((sessions, 3), dtype=np.int64),
            np.zeros((sessions, 7)),
        )
        NATIVE.play_sessions(NATIVE.seeded_lane(2**70 + 5, 1, block, 0), *fixed, bank, ruin, stats)
        one_by_one.append((bank, ruin, stats))
    joined = tuple(np.concatenate([part[k] for part in one_by_one]).tolist() for k in range(3))
    assert rows[0] == rows[1] == joined
    assert len({tuple(row) for row in rows[0][0]}) > 1  # the blocks' sessions differ


@pytest.mark.parametrize("seed", [0, 7, 2**32, 2**64 - 1, 2**64 + 3, 2**128 - 1])
def test_a_seeded_lane_seeded_in_c_is_the_streams_own(seed: int) -> None:
    """The session kernel seeds its block's lane in C: the same generator as SeedSequence gives."""
    for key in [(1, 0, 0), (1, 5, 0), (0, 2**32, 1), (1, 2**64 - 1, 0)]:
        assert NATIVE.seeded_lane(seed, *key).state_low == lane_generator(seed, *key).state_low
        assert lane_words(NATIVE.seeded_lane(seed, *key), 3) == lane_words(lane_generator(seed, *key), 3)
    with pytest.raises(ValueError, match="spawn key"):
        NATIVE.seeded_lane(seed, 1, 2**64, 0)


def test_the_sessions_play_the_streams_throws_in_order() -> None:
    """A session's throws are its stream's words, 11 throws of each accepted word, lowest digit first: what
    ``reference_digits`` computes in plain Python from the same stream."""
    table = compile_rules(find_ruleset("craps"))
    bits = lane_generator(4, 1, 2, 0)
    stats = np.zeros((1, 7))
    used = NATIVE.play_sessions(
        bits, table.entries, table.start * 36, np.zeros(table.codes), table.passing_rule(),
        np.array([300, 0, 1.0, 0, 1.0, 0, 1.0]), np.full(2, 1e9), np.zeros((1, 2)),
        np.zeros((1, 2), dtype=np.int64), stats,
    )  # fmt: skip
    digits = reference_digits(4, 1, 2, 0, used // 11 + 2)
    # replay those digits through the table: the same rounds in the same number of throws
    offset, rounds, thrown = table.start * 36, 0, 0
    for digit in digits:
        entry = int(table.entries[offset + digit])
        thrown += 1
        offset = entry & 0xFFFF
        if entry >> 17:
            rounds += 1
            offset = table.start * 36
            if rounds == 300:
                break
    assert (rounds, thrown) == (300, used)
    assert stats[0, 6] == used  # every throw drawn was a throw of the dice (craps throws for no main)


def test_the_kernels_refuse_arrays_of_the_wrong_kind() -> None:
    table = compile_rules(find_ruleset("craps"))
    low, high = pair_tables()
    bits = lane_generator(0, 0, 0, 0)
    carry = np.zeros((2, 4), dtype=np.uint64)
    logs = (np.zeros(5, np.uint64), np.zeros(1, np.uint64))

    def lanes(*changed: Any, target: int = 1, lane: Any = bits) -> None:
        arrays = dict(
            zip(
                ("entries", "carry", "log0", "log1", "low", "high"),
                (table.entries, carry, *logs, low, high),
                strict=True,
            )
        )
        arrays.update(changed)
        NATIVE.play_lanes(lane, bits, target, 0, *arrays.values())

    with pytest.raises(ValueError, match="target"):
        lanes(target=10)
    entries = np.asarray(table.entries)
    cases = [
        (("entries", entries.astype(np.int64)), "C-contiguous, writable uint64"),
        (("entries", entries.astype(np.float64)), "uint64"),
        (("entries", entries.astype(np.uint32)), "uint64"),
        (("entries", np.repeat(entries, 2)[::2]), "C-contiguous"),
        (("entries", bytes(8 * len(entries))), "writable"),
        (("entries", [1, 2, 3]), "got list"),
        (("log0", None), "got NoneType"),
        (("carry", np.zeros(7, np.uint64)), "8 uint64 items, got 7"),
        (("low", low[:-1]), "1296 uint64 items"),
    ]
    for change, message in cases:
        with pytest.raises(ValueError, match=message):
            lanes(change)
    with pytest.raises(ValueError, match="a lane's generator"):
        lanes(lane=np.random.PCG64(0))


def test_the_c_generator_is_the_same_with_and_without_a_128_bit_integer(tmp_path: Path) -> None:
    """Built without the compiler's 128-bit integer (as on MSVC), the kernels draw the same words."""
    library = tmp_path / "portable.so"
    folder = ROOT / "src" / "hazard" / "sim"  # the checkout's sources: a wheel ships them built only
    sources = [str(folder / name) for name in KERNEL_SOURCES]
    flags = ["-O2", "-std=c11", "-shared", "-fPIC", "-ffp-contract=off", "-DHAZARD_NO_INT128"]
    subprocess.run([*_compiler(), *flags, *sources, "-lm", "-o", str(library)], check=True)
    portable = native.NativeKernels(ctypes.CDLL(str(library)), library)
    for seed in (0, 1, 2**64 + 3, 2**128 - 1):
        words = portable.lane_words(lane_generator(seed, 1, 7, 0), 50)
        assert words == NATIVE.lane_words(lane_generator(seed, 1, 7, 0), 50)
        assert words == lane_words(lane_generator(seed, 1, 7, 0), 50)


# --- whole studies ------------------------------------------------------------------------------------------


def _with_kernels(monkeypatch: pytest.MonkeyPatch, kernels: Kernels) -> None:
    from hazard.sim import rounds, session

    monkeypatch.setattr(rounds, "backend", lambda: kernels)
    monkeypatch.setattr(session, "backend", lambda: kernels)


def _round_json(table: CompiledRules, rounds: int, **options: Any) -> str:
    counts = simulate_rounds(table, rounds, seed=31, **options)
    data = round_stats(counts).to_json_dict()
    data.pop("seconds")
    fields = {f.name: getattr(counts, f.name) for f in dataclasses.fields(counts)}
    arrays = {k: v.tolist() for k, v in fields.items() if isinstance(v, np.ndarray)}
    return json.dumps(data, sort_keys=True) + json.dumps(arrays, sort_keys=True)


@pytest.mark.parametrize("ruleset", builtin_rulesets(), ids=lambda r: r.id)
def test_whole_studies_of_rounds_equal_the_reference(ruleset: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    table = compile_rules(ruleset)
    native_json = _round_json(table, 4_001, chunk_rounds=777)
    _with_kernels(monkeypatch, REFERENCE)
    assert _round_json(table, 4_001, chunk_rounds=777) == native_json


def test_block_boundaries_and_chunks_change_nothing() -> None:
    table = compile_rules(find_ruleset("ecws"))
    rounds = BLOCK_ROUNDS + 3  # two blocks, the second of three rounds
    results = {
        _round_json(table, rounds, chunk_rounds=chunk, workers=2) for chunk in (7, 4_099, BLOCK_ROUNDS)
    }
    assert len(results) == 1


@pytest.mark.parametrize("staking", list(Staking))
def test_whole_session_studies_equal_the_reference(staking: Staking, monkeypatch: pytest.MonkeyPatch) -> None:
    ruleset = find_ruleset("wikipedia")
    config = SessionConfig(sessions=2 * BLOCK_SESSIONS + 3, rounds=40, bankroll=30, staking=staking)
    results = []
    for kernels in (NATIVE, REFERENCE):
        _with_kernels(monkeypatch, kernels)
        study = simulate_sessions(compile_rules(ruleset), config, seed=12, paytable=paytable_for(ruleset))
        data = study.to_json_dict()
        data.pop("seconds")
        results.append(json.dumps(data, sort_keys=True) + repr(session_rows(study).bankrolls.tolist()))
    assert results[0] == results[1]


# --- built at install, nothing at run time ------------------------------------------------------------------


def test_the_kernels_are_the_installed_extension_loaded_once() -> None:
    path = native.library_file()
    assert path.name.startswith("_native")
    # one build for every Python from 3.11 on (setup.py): the limited API's name, not this version's
    assert path.name == ("_native.pyd" if sys.platform == "win32" else "_native.abi3.so")
    assert path.parent == Path(native.__file__).parent
    assert native.load() is native.load()
    assert backend() is NATIVE


def test_an_installation_without_the_kernels_is_told_how_to_mend_it(monkeypatch: pytest.MonkeyPatch) -> None:
    import importlib.util

    monkeypatch.setattr(importlib.util, "find_spec", lambda name: None)
    with pytest.raises(native.NativeUnavailable, match=r"install it again \(pip install \."):
        native.library_file()


def test_a_library_of_another_version_is_refused_with_what_it_lacks() -> None:
    """A stale build that lacks a kernel is one clear refusal, not an AttributeError: here the program's own
    symbols, which have none of hazard's."""
    with pytest.raises(
        native.NativeUnavailable, match=r"another version of hazard \(they have no hazard_constants\)"
    ):
        native.NativeKernels(ctypes.CDLL(None), Path("stale.so"))


def _compiler() -> list[str]:
    """The C compiler that built the package (as setup.py finds it), or a skip where there is none."""
    import shlex
    import shutil

    command = shlex.split(os.environ.get("CC") or sysconfig.get_config_var("CC") or "cc")
    if shutil.which(command[0]) is None:
        pytest.skip("no C compiler")
    return command


@pytest.mark.parametrize("name", KERNEL_SOURCES)
@pytest.mark.parametrize("defines", [[], ["-DHAZARD_NO_INT128"]], ids=["int128", "64-bit halves"])
def test_the_c_source_compiles_without_warnings_as_portable_c11(
    tmp_path: Path, defines: list[str], name: str
) -> None:
    """No compiler builtin, no extension: the strictest warnings of the compiler that built the package,
    with the compiler's 128-bit integer and without it (as on MSVC)."""
    source = ROOT / "src" / "hazard" / "sim" / name
    flags = ["-std=c11", "-pedantic-errors", "-Wall", "-Wextra", "-Werror", "-O2", "-c", *defines]
    result = subprocess.run(
        [*_compiler(), *flags, "-o", str(tmp_path / "native.o"), str(source)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    assert "__builtin" not in source.read_text()


def test_hazard_simulate_writes_nothing_to_the_cache_and_imports_no_numba(tmp_path: Path) -> None:
    code = (
        "import json, sys\n"
        "from hazard.cli import main\n"
        "sys.argv = ['hazard', 'simulate', '-r', 'sca', '--rounds', '30000', '--seed', '4', '-f', 'json']\n"
        "try:\n"
        "    main()\n"
        "except SystemExit:\n"
        "    pass\n"
        "print(json.dumps('numba' in sys.modules))\n"
    )
    home, cache = tmp_path / "home", tmp_path / "cache"
    home.mkdir()
    env = {**os.environ, "HOME": str(home), "XDG_CACHE_HOME": str(cache)}
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, env=env)
    *output, imported = result.stdout.strip().splitlines()
    assert json.loads("\n".join(output))["rounds"] == 30_000
    assert json.loads(imported) is False
    assert not cache.exists()
    assert list(home.iterdir()) == []
