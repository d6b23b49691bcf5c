"""The C kernels against Numba's and their Python twins, bit for bit; their build cache, and the fallback."""

from __future__ import annotations

import dataclasses
import json
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from tests.strategies import rulesets

from hazard.core.rulesets import builtin_rulesets, find_ruleset, paytable_for
from hazard.sim import (
    SessionConfig,
    Staking,
    compile_table,
    native,
    round_stats,
    simulate_rounds,
    simulate_sessions,
)
from hazard.sim import backend as backend_module
from hazard.sim.backend import ENV, Kernels, NumbaKernels, choose
from hazard.sim.session import _most_won, _nets
from hazard.sim.stream import (
    BLOCK_ROUNDS,
    BLOCK_SESSIONS,
    ROUND_STREAM,
    WORD_LIMIT,
    lane_generator,
    pair_tables,
)
from hazard.sim.tables import HAND_BUCKETS, TALLY_WAYS, THROW_BUCKETS, RoundTable

NATIVE = native.load()  # built once into the user's cache folder, as `hazard simulate` does
NUMBA = NumbaKernels()


def _python_kernels(monkeypatch: pytest.MonkeyPatch) -> Any:
    """Numba's kernels as plain Python: the ``py_func`` twins, calling each other."""
    from hazard.sim import kernels

    for name in ("_step", "_word", "play_one"):
        monkeypatch.setattr(kernels, name, getattr(kernels, name).py_func)
    return kernels


def _lanes(
    play: Callable[..., Any], table: RoundTable, targets: tuple[int, int], *, seed: int, chunk: int
) -> tuple[list[int], list[int], list[list[int]]]:
    """Play two lanes to their targets, ``chunk`` rounds a call; both logs and the carry."""
    low, high = pair_tables()
    bits = [lane_generator(seed, ROUND_STREAM, 3, lane) for lane in (0, 1)]
    carry = np.zeros((2, 4), dtype=np.uint64)
    carry[:, 0] = table.start * 36
    logs: list[list[int]] = [[], []]
    done = [0, 0]
    entries = table.entries.astype(np.uint64)
    while done != list(targets):
        goal = [min(chunk, t - d) for t, d in zip(targets, done, strict=True)]
        buffers = [np.zeros(g + 1, dtype=np.uint64) for g in goal]
        logged = play(bits[0], bits[1], goal[0], goal[1], entries, carry, buffers[0], buffers[1], low, high)
        assert [int(n) for n in logged] == goal
        for lane in (0, 1):
            logs[lane] += buffers[lane][: goal[lane]].tolist()
            done[lane] += goal[lane]
    return logs[0], logs[1], carry.tolist()


@pytest.mark.parametrize("name", ["craps", "ecws", "wikipedia", "sca", "cotton"])
# Chunks of 44 rounds and fewer use only the C kernel's plain loop; longer ones its fast loop as well,
# which takes four words of each lane at a time (4 * 11 rounds at most) and leaves the rest to the plain one.
@pytest.mark.parametrize("chunk", [1, 2, 7, 11, 44, 45, 46, 89, 133, 1000])
def test_native_lanes_equal_numba_lanes(name: str, chunk: int) -> None:
    table = compile_table(find_ruleset(name))
    numba = _lanes(NUMBA.play_lanes, table, (400, 371), seed=5, chunk=1000)
    assert _lanes(NATIVE.play_lanes, table, (400, 371), seed=5, chunk=chunk) == numba


@settings(max_examples=40, deadline=None)
@given(rulesets(), st.sampled_from([13, 45, 120, 600]), st.integers(0, 2**32))
def test_native_lanes_equal_numba_lanes_on_any_valid_ruleset(ruleset: Any, chunk: int, seed: int) -> None:
    # A user's ruleset may make a table unlike any built-in one (more states, rounds that end at once or
    # run long): the fast loop and the plain one must still agree with Numba's to the bit.
    table = compile_table(ruleset)
    numba = _lanes(NUMBA.play_lanes, table, (600, 457), seed=seed, chunk=600)
    assert _lanes(NATIVE.play_lanes, table, (600, 457), seed=seed, chunk=chunk) == numba


@pytest.mark.parametrize("chunk", [1, 7, 45, 200])
def test_native_lanes_equal_the_python_twins(chunk: int, monkeypatch: pytest.MonkeyPatch) -> None:
    table = compile_table(find_ruleset("wikipedia"), 7)
    expected = _lanes(_python_kernels(monkeypatch).play_lanes.py_func, table, (200, 150), seed=6, chunk=chunk)
    assert _lanes(NATIVE.play_lanes, table, (200, 150), seed=6, chunk=chunk) == expected


def _random_log(rng: np.random.Generator, n: int, codes: int) -> np.ndarray[Any, np.dtype[np.uint64]]:
    """A log of ``n`` rounds with random codes and throws, long rounds (63 throws and more) included."""
    code = rng.integers(1, codes, size=n, dtype=np.uint64)
    throws = rng.integers(1, 12, size=n, dtype=np.uint64)
    long = rng.random(n) < 0.05
    throws[long] = rng.integers(60, 500, size=int(long.sum()), dtype=np.uint64)
    return (code << np.uint64(32)) | throws


@pytest.mark.parametrize("after", [0, 1, 2, 3, 100])
def test_native_tally_equals_numba_and_python(after: int) -> None:
    rng = np.random.default_rng(after)
    codes = 6
    rule = rng.integers(0, 8, size=codes).astype(np.int64)
    rule[-1] &= 3  # not every code passes the dice, so that long hands occur
    rule[0] = after
    log = _random_log(rng, 3000, codes)
    results = []
    from hazard.sim import kernels

    for tally in (NATIVE.tally, NUMBA.tally, kernels.tally.py_func):
        counts = np.zeros((TALLY_WAYS, codes, THROW_BUCKETS + 2), dtype=np.int64)
        hands = np.zeros((TALLY_WAYS, HAND_BUCKETS + 2), dtype=np.int64)
        carry = np.array([1, 5], dtype=np.int64)
        for start, stop in ((0, 1), (1, 8), (8, 2500), (2500, 3000)):  # in pieces, the carry between
            with np.errstate(over="ignore"):  # the masks wrap round in uint64, as the compiled code does
                tally(log[start:stop].copy(), stop - start, rule, counts, hands, carry)
        results.append((counts.tolist(), hands.tolist(), carry.tolist()))
    assert results[0] == results[1] == results[2]


def test_native_tally_on_a_real_log_with_long_hands() -> None:
    table = compile_table(find_ruleset("wikipedia"), 7)
    log0, _, _ = _lanes(NUMBA.play_lanes, table, (5000, 1), seed=4, chunk=5000)
    log = np.array(log0, dtype=np.uint64)
    results = []
    for kernels in (NATIVE, NUMBA):
        counts = np.zeros((TALLY_WAYS, table.codes, THROW_BUCKETS + 2), dtype=np.int64)
        hands = np.zeros((TALLY_WAYS, HAND_BUCKETS + 2), dtype=np.int64)
        carry = np.zeros(2, dtype=np.int64)
        kernels.tally(log, len(log), table.passing_rule(), counts, hands, carry)
        results.append((counts.tolist(), hands.tolist(), carry.tolist()))
    assert results[0] == results[1]


def test_native_digits_equal_numba_digits() -> None:
    words = lane_generator(3, 1, 0, 0).random_raw(5000)
    words[::97] = np.uint64(2**64 - 1)  # some words to discard
    outs = []
    for kernels in (NATIVE, NUMBA):
        out = np.zeros(len(words) * 11, dtype=np.uint8)
        count = kernels.extract_digits(words, out)
        outs.append(out[:count].tolist())
    assert outs[0] == outs[1]
    assert len(outs[0]) == 11 * int((words < WORD_LIMIT).sum())


@pytest.mark.parametrize(("name", "main"), [("wikipedia", 6), ("craps", None), ("sca", None), ("ecws", 7)])
@pytest.mark.parametrize("staking", [0, 1, 2])
def test_native_sessions_equal_numba_and_python(name: str, main: int | None, staking: int) -> None:
    from hazard.sim import kernels

    ruleset = find_ruleset(name)
    table = compile_table(ruleset, main)
    digits = np.zeros(3000 * 11, dtype=np.uint8)
    words = lane_generator(1, 1, 0, 0).random_raw(3000)
    digits = digits[: NUMBA.extract_digits(words, digits)]
    net = _nets(table, paytable_for(ruleset))
    settings = np.array([60, staking, 1.0, 3, _most_won(table, paytable_for(ruleset))], dtype=np.float64)
    results = []
    plays = (NATIVE.play_sessions, NUMBA.play_sessions, kernels.play_sessions.py_func)
    for play in plays:
        bank = np.zeros((5, 3))
        ruin = np.zeros((5, 3), dtype=np.int64)
        stats = np.zeros((5, 7))
        used = play(
            digits, table.entries.astype(np.uint64), table.start * 36, net, table.passing_rule(), settings,
            np.full(3, 12.0), bank, ruin, stats,
        )  # fmt: skip
        results.append((int(used), bank.tolist(), ruin.tolist(), stats.tolist()))
    assert results[0] == results[1] == results[2]
    assert results[0][0] > 0


def test_native_sessions_report_too_few_throws() -> None:
    table = compile_table(find_ruleset("craps"))
    used = NATIVE.play_sessions(
        np.zeros(5, dtype=np.uint8), table.entries.astype(np.uint64), 0, np.zeros(table.codes),
        table.passing_rule(), np.array([100, 0, 1.0, 0, 1.0]), np.full(2, 10.0), np.zeros((1, 2)),
        np.zeros((1, 2), dtype=np.int64), np.zeros((1, 7)),
    )  # fmt: skip
    assert used == -1


def test_native_refuses_arrays_of_the_wrong_kind() -> None:
    table = compile_table(find_ruleset("craps"))
    low, high = pair_tables()
    bits = lane_generator(0, 0, 0, 0)
    carry = np.zeros((2, 4), dtype=np.uint64)
    with pytest.raises(ValueError, match="target"):
        NATIVE.play_lanes(bits, bits, 10, 0, table.entries.astype(np.uint64), carry, np.zeros(5, np.uint64),
                          np.zeros(1, np.uint64), low, high)  # fmt: skip
    with pytest.raises(ValueError, match="C-contiguous"):
        NATIVE.play_lanes(bits, bits, 1, 0, table.entries.astype(np.int64), carry, np.zeros(5, np.uint64),
                          np.zeros(1, np.uint64), low, high)  # fmt: skip


def _with_backend(monkeypatch: pytest.MonkeyPatch, kernels: Kernels) -> None:
    from hazard.sim import rounds, session

    monkeypatch.setattr(rounds, "backend", lambda: kernels)
    monkeypatch.setattr(session, "backend", lambda: kernels)


def _round_json(table: RoundTable, rounds: int, **options: Any) -> str:
    counts = simulate_rounds(table, rounds, seed=31, **options)
    data = round_stats(counts).to_json_dict()
    data.pop("seconds")
    fields = {f.name: getattr(counts, f.name) for f in dataclasses.fields(counts)}
    arrays = {k: v.tolist() for k, v in fields.items() if isinstance(v, np.ndarray)}
    return json.dumps(data, sort_keys=True) + json.dumps(arrays, sort_keys=True)


@pytest.mark.parametrize("ruleset", builtin_rulesets(), ids=lambda r: r.id)
def test_whole_studies_are_the_same_on_either_backend(ruleset: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    table = compile_table(ruleset)
    results = []
    for kernels in (NATIVE, NUMBA):
        _with_backend(monkeypatch, kernels)
        results.append(_round_json(table, 20_001, chunk_rounds=777))
    assert results[0] == results[1]


def test_block_boundaries_and_chunks_are_the_same_on_either_backend(monkeypatch: pytest.MonkeyPatch) -> None:
    table = compile_table(find_ruleset("ecws"))
    rounds = BLOCK_ROUNDS + 3  # two blocks, the second of three rounds
    results = []
    for kernels, chunk in ((NUMBA, BLOCK_ROUNDS), (NATIVE, 7), (NATIVE, BLOCK_ROUNDS)):
        _with_backend(monkeypatch, kernels)
        results.append(_round_json(table, rounds, chunk_rounds=chunk, workers=2))
    assert results[0] == results[1] == results[2]


@pytest.mark.parametrize("staking", list(Staking))
def test_session_studies_are_the_same_on_either_backend(
    staking: Staking, monkeypatch: pytest.MonkeyPatch
) -> None:
    ruleset = find_ruleset("wikipedia")
    config = SessionConfig(sessions=2 * BLOCK_SESSIONS + 3, rounds=150, bankroll=30, staking=staking)
    results = []
    for kernels in (NATIVE, NUMBA):
        _with_backend(monkeypatch, kernels)
        study = simulate_sessions(compile_table(ruleset), config, seed=12, paytable=paytable_for(ruleset))
        data = study.to_json_dict()
        data.pop("seconds")
        results.append(json.dumps(data, sort_keys=True) + repr(study.bankrolls.tolist()))
    assert results[0] == results[1]


# The build cache and the fallback.


def test_the_library_is_built_once_and_then_loaded(tmp_path: Path) -> None:
    first = native.load(tmp_path)
    built = first.path.stat().st_mtime_ns
    second = native.load(tmp_path)
    assert second.path == first.path
    assert second.path.stat().st_mtime_ns == built
    assert [p.name for p in tmp_path.iterdir()] == [first.path.name]  # no temporary files left behind


@pytest.mark.parametrize("damage", ["truncate", "garbage", "empty"])
def test_a_broken_cache_file_is_rebuilt_not_trusted(tmp_path: Path, damage: str) -> None:
    path = native.load(tmp_path).path
    data = path.read_bytes()
    broken = {"truncate": data[: len(data) // 2], "garbage": b"\x7fELF" + b"\0" * 100, "empty": b""}[damage]
    # A new file, not the old one rewritten in place: this process has the old one mapped, as a process that
    # loaded it would (the loader itself only ever replaces the file whole).
    path.unlink()
    path.write_bytes(broken)
    assert native.load(tmp_path).path == path
    assert path.read_bytes() != broken
    assert native._intact(path)


def test_the_c_source_compiles_without_warnings(tmp_path: Path) -> None:
    import shutil

    command = native.compiler()
    if shutil.which(command[0]) is None:
        pytest.skip("no C compiler")
    result = subprocess.run(
        [*command, *native.FLAGS, "-Werror", "-o", str(tmp_path / "k.so"), str(native.SOURCE)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stderr


def test_the_cache_key_follows_the_source_and_the_compiler(tmp_path: Path) -> None:
    one = native.library_path(tmp_path, b"int x;", ["cc"])
    assert native.library_path(tmp_path, b"int x;", ["cc"]) == one
    assert native.library_path(tmp_path, b"int y;", ["cc"]) != one
    assert native.library_path(tmp_path, b"int x;", ["clang"]) != one


@pytest.mark.parametrize("cc", ["/nonexistent/cc", "false"])
def test_without_a_working_compiler_numba_is_used(
    cc: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("CC", cc)
    with pytest.raises(native.NativeUnavailable):
        native.load(tmp_path)
    assert choose("auto", tmp_path).name == "numba"
    with pytest.raises(native.NativeUnavailable):
        choose("native", tmp_path)
    assert not list(tmp_path.glob("*.so"))  # a failed build leaves nothing to be trusted later


def test_the_backend_is_chosen_by_the_environment(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(ENV, "numba")
    assert choose(folder=tmp_path).name == "numba"
    monkeypatch.setenv(ENV, "native")
    assert choose(folder=tmp_path).name == "native"
    monkeypatch.delenv(ENV)
    assert choose(folder=tmp_path).name == "native"
    with pytest.raises(ValueError, match=ENV):
        choose("fortran", tmp_path)
    assert backend_module.backend() is backend_module.backend()  # chosen once per process


def _simulate_in_a_process(backend: str) -> tuple[dict[str, Any], bool]:
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
    env = {**os.environ, ENV: backend}
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, env=env)
    *output, imported = result.stdout.strip().splitlines()
    data = json.loads("\n".join(output))
    data.pop("seconds")
    return data, json.loads(imported)


def test_hazard_simulate_gives_the_same_json_without_importing_numba() -> None:
    native_json, native_imported_numba = _simulate_in_a_process("native")
    numba_json, numba_imported_numba = _simulate_in_a_process("numba")
    assert native_json == numba_json
    assert not native_imported_numba
    assert numba_imported_numba
