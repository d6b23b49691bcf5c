"""The kernel built for ARM (aarch64) and run under emulation (qemu-user), on its portable path and its NEON
path: the same calls as native.py makes on this machine give the same counts, lanes, bankrolls and stats,
to the bit.

tests/sim/arm_driver.c links the kernel's C files (setup.py's, less _module.c) and replays the calls fed to
it. Without ``aarch64-linux-gnu-gcc`` or ``qemu-aarch64`` the module is skipped, unless ``HAZARD_REQUIRE_ARM``
is set (``.ci/run`` sets it), when their absence fails (apt-get install gcc-aarch64-linux-gnu
libc6-dev-arm64-cross qemu-user)."""

from __future__ import annotations

import os
import shutil
import struct
import subprocess
import sysconfig
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import seed as hypothesis_seed
from hypothesis import strategies as st
from tests.paths import ROOT
from tests.strategies import rulesets

from hazard.core.rulesets import builtin_rulesets, find_ruleset, paytable_for
from hazard.sim import compile_rules, native
from hazard.sim.session import _in_grains
from hazard.sim.stream import ROUND_STREAM, Lane, lane_generator, pair_tables
from hazard.sim.tables import CODE_SHIFT, HAND_BUCKETS, TALLY_WAYS, THROW_BIT, THROW_BUCKETS

NATIVE = native.load()
SOURCES = ("native.c", "tally.c", "session.c", "seed.c", "simd.c", "simd256.c", "simd512.c", "simdneon.c")
FLAGS = ["-O3", "-std=c11", "-ffp-contract=off", "-fno-fast-math", "-Wall", "-Wextra", "-Werror"]
SYSROOT = "/usr/aarch64-linux-gnu"

Fields = list[np.ndarray[Any, Any]]


def _tool(name: str) -> str:
    found = shutil.which(name)
    if found:
        return found
    if os.environ.get("HAZARD_REQUIRE_ARM"):
        pytest.fail(f"HAZARD_REQUIRE_ARM is set but there is no {name} (see this module's docstring)")
    pytest.skip(f"no {name}: apt-get install gcc-aarch64-linux-gnu libc6-dev-arm64-cross qemu-user")


@pytest.mark.parametrize("required", [False, True])
def test_missing_tools_skip_unless_arm_is_required(monkeypatch: pytest.MonkeyPatch, required: bool) -> None:
    monkeypatch.setattr(shutil, "which", lambda name: None)
    if required:
        monkeypatch.setenv("HAZARD_REQUIRE_ARM", "1")
    else:
        monkeypatch.delenv("HAZARD_REQUIRE_ARM", raising=False)
    outcome = pytest.fail.Exception if required else pytest.skip.Exception
    with pytest.raises(outcome, match="qemu-aarch64"):
        _tool("qemu-aarch64")


@pytest.fixture(scope="module")
def driver(tmp_path_factory: pytest.TempPathFactory) -> list[str]:
    """The driver built for aarch64, as the command that runs it under qemu."""
    gcc, qemu = _tool("aarch64-linux-gnu-gcc"), _tool("qemu-aarch64")
    folder = tmp_path_factory.mktemp("arm")
    sim = ROOT / "src" / "hazard" / "sim"
    program = folder / "arm_driver"
    sources = [ROOT / "tests" / "sim" / "arm_driver.c", *(sim / name for name in SOURCES)]
    objects = [folder / f"{source.stem}.o" for source in sources]
    # each file compiled apart, all at once: the CI's cores build it in about half the time of one command
    compiling = [
        subprocess.Popen([gcc, *FLAGS, "-c", "-o", str(built), str(source)])
        for source, built in zip(sources, objects, strict=True)
    ]
    assert [job.wait() for job in compiling] == [0] * len(compiling)
    subprocess.run([gcc, "-o", str(program), *map(str, objects)], check=True, capture_output=True)
    return [qemu, "-L", SYSROOT, str(program)]


def _defined(gcc: str, nm: str, name: str, folder: Path, *defines: str) -> list[str]:
    """What the C file ``name`` of the kernel, compiled by ``gcc`` with the test's flags (and ``defines``),
    defines, and its undefined symbols after ``"undefined"``."""
    built = folder / f"{Path(gcc).name}-{len(defines)}-{name}.o"
    source = ROOT / "src/hazard/sim" / name
    subprocess.run([gcc, *FLAGS, *defines, "-c", "-o", str(built), str(source)], check=True)
    listed = [
        subprocess.run([nm, which, str(built)], check=True, capture_output=True, text=True).stdout.split()
        for which in ("--defined-only", "--undefined-only")
    ]
    return listed[0] + (["undefined", *listed[1]] if listed[1] else [])


def test_the_vector_files_compile_to_nothing_on_the_other_cpu(tmp_path: Path, driver: list[str]) -> None:
    # the x86 paths are guarded out on ARM and the NEON path on x86: no symbol of their own
    gcc, nm = _tool("aarch64-linux-gnu-gcc"), _tool("aarch64-linux-gnu-nm")
    for name in ("simd256.c", "simd512.c"):
        assert _defined(gcc, nm, name, tmp_path) == [], name
    linked = subprocess.run([nm, "--defined-only", driver[-1]], check=True, capture_output=True, text=True)
    assert "hazard_neon_batch" in linked.stdout.split()  # the driver's own build has the NEON path
    # HAZARD_NO_SIMD leaves the NEON path out too: simd.c then calls none of it
    assert _defined(gcc, nm, "simdneon.c", tmp_path, "-DHAZARD_NO_SIMD") == []
    assert not any("neon" in name for name in _defined(gcc, nm, "simd.c", tmp_path, "-DHAZARD_NO_SIMD"))
    host = (os.environ.get("CC") or sysconfig.get_config_var("CC") or "cc").split()[0]
    if sysconfig.get_platform().endswith("x86_64") and shutil.which(host) and shutil.which("nm"):
        assert _defined(host, "nm", "simdneon.c", tmp_path) == []


def test_the_arm_build_offers_the_portable_and_neon_paths(driver: list[str]) -> None:
    paths, outputs = _replay(driver, [])
    offered = [name for n, name in enumerate(native.KERNEL_PATHS) if paths >> n & 1]
    assert (offered, outputs) == (["portable", "neon"], [])


def _replay(driver: list[str], calls: list[tuple[int, Fields]]) -> tuple[int, list[Fields]]:
    """The driver's kernel paths and, for each call, its output fields (the call's result last)."""
    fed = bytearray()
    for op, fields in calls:
        fed += struct.pack("<Q", op)
        for field in fields:
            words = np.ascontiguousarray(field).view(np.uint64).ravel()
            fed += struct.pack("<Q", len(words)) + words.astype("<u8").tobytes()
    run = subprocess.run(driver, input=bytes(fed), check=True, capture_output=True, timeout=60)
    out, at, got = run.stdout, 0, []
    while at < len(out):
        (n,) = struct.unpack_from("<Q", out, at)
        got.append(np.frombuffer(out, dtype="<u8", count=n, offset=at + 8).copy())
        at += 8 + 8 * n
    paths = int(got.pop(0)[0])
    return paths, [got[k : k + 4] for k in range(0, len(got), 4)]


def _words(values: Any) -> np.ndarray[Any, Any]:
    return np.asarray(values).astype(np.int64).view(np.uint64).ravel()


def _lanes(lanes: list[Lane]) -> np.ndarray[Any, Any]:
    return np.array([[x.state_high, x.state_low, x.inc_high, x.inc_low] for x in lanes], dtype=np.uint64)


def _quotas(blocks: int, base: int) -> list[int]:
    """Lanes' quotas unequal and a multiple of nothing in particular, the last block's last lane well short
    (that block is left over for the portable path)."""
    quotas = [base + (7 * n) % 50 for n in range(2 * blocks)]
    quotas[-1] = base // 3
    return quotas


GROUP = native.BLOCKS_PER_CALL["neon"] + 1
"""Blocks for a group of the NEON path's (8 blocks, 16 lanes) and one left over."""
SAME_COPIES = "avx2" if "avx2" in NATIVE.kernel_paths else "portable"
"""The x86 path whose counts NEON's equal copy by copy (AVX2 lists every step's keys in the same order,
lane by lane, so each goes to the same copy); without it, the copies' sums are compared."""


def _rounds_call(
    entries: Any, start: int, rule: Any, quotas: list[int], *, seed: int, path: str
) -> tuple[tuple[int, Fields], Fields]:
    """A call of play_blocks on ``path`` (ARM's portable or neon) as the driver takes it, and what x86 gives:
    the lanes where they were left, the counts and hands copy by copy (on the portable path for the portable
    path, on SAME_COPIES for neon; None where that is the portable path) and their sums on the portable path
    (every path's sums are the same)."""
    low, high = pair_tables()
    blocks = len(quotas) // 2
    lanes = [lane_generator(seed, ROUND_STREAM, n // 2, n % 2) for n in range(2 * blocks)]
    rule = np.asarray(rule, dtype=np.int64)
    counts = np.zeros(TALLY_WAYS * len(rule) * (THROW_BUCKETS + 2), dtype=np.int64)
    hands = np.zeros(TALLY_WAYS * (HAND_BUCKETS + 2), dtype=np.int64)
    entries = np.asarray(entries, dtype=np.uint64)
    fields = [_lanes(lanes), _words(quotas), _words([97]), entries, _words([start])]
    fields += [np.asarray(low, np.uint64), np.asarray(high, np.uint64), rule, counts.copy(), hands.copy()]
    fields.append(_words([native.KERNEL_PATHS.index(path)]))
    played = []
    for on in ("portable", "portable" if path == "portable" else SAME_COPIES):
        copies = [lane_generator(seed, ROUND_STREAM, n // 2, n % 2) for n in range(2 * blocks)]
        c, h = counts.copy(), hands.copy()
        NATIVE.play_blocks(copies, quotas, 97, entries, start, low, high, rule, c, h, path=on)
        played.append((copies, c, h))
    (lanes_after, portable_counts, portable_hands), (_, same_counts, same_hands) = played
    by_copy = path == "portable" or SAME_COPIES == "avx2"
    expected = [_lanes(lanes_after).ravel(), _words(same_counts), _words(same_hands), _words([0])]
    if not by_copy:
        expected[1:3] = [None, None]
    expected += [
        _words(portable_counts.reshape(TALLY_WAYS, -1).sum(0)),
        _words(portable_hands.reshape(TALLY_WAYS, -1).sum(0)),
    ]
    return (1, fields), expected


def _check_rounds(driver: list[str], calls: list[tuple[tuple[int, Fields], Fields]]) -> None:
    _, outputs = _replay(driver, [call for call, _ in calls])
    for (_, expected), got in zip(calls, outputs, strict=True):
        lanes, counts, hands, result = got
        assert result.tolist() == expected[3].tolist()
        assert lanes.tolist() == expected[0].tolist()
        summed = [_words(x.view(np.int64).reshape(TALLY_WAYS, -1).sum(0)) for x in (counts, hands)]
        assert [s.tolist() for s in summed] == [expected[4].tolist(), expected[5].tolist()]
        if expected[1] is not None:
            assert counts.tolist() == expected[1].tolist()
            assert hands.tolist() == expected[2].tolist()


def _ruleset_calls(tables: list[Any], seed: int, blocks: int, base: int, path: str) -> list[Any]:
    return [
        _rounds_call(
            t.entries, t.start * 36, t.passing_rule(), _quotas(blocks, base), seed=seed + n, path=path
        )
        for n, t in enumerate(tables)
    ]


def test_rounds_on_arm_are_the_x86_builds_on_every_builtin_ruleset(driver: list[str]) -> None:
    # the portable path on 5 blocks; NEON on a group of 8 blocks several batches long, and one left over
    tables = [compile_rules(ruleset) for ruleset in builtin_rulesets()]
    calls = _ruleset_calls(tables, 11, 5, 150, "portable") + _ruleset_calls(tables, 17, GROUP, 601, "neon")
    _check_rounds(driver, calls)


def test_the_best_path_on_arm_is_neon(driver: list[str]) -> None:
    # path -1 (the best this CPU has) plays as neon does, copy by copy
    table = compile_rules(find_ruleset("wikipedia"))
    (call,) = _ruleset_calls([table], 5, GROUP, 301, "neon")
    (op, fields), expected = call
    best = (op, [*fields[:-1], _words([-1])]), expected
    _, (neon, chosen) = _replay(driver, [call[0], best[0]])
    assert [x.tolist() for x in chosen] == [x.tolist() for x in neon]
    _check_rounds(driver, [best])


@settings(max_examples=4, deadline=None, database=None)
@hypothesis_seed(23)
@given(st.lists(rulesets(), min_size=2, max_size=2), st.integers(0, 2**32))
def test_rounds_on_arm_are_the_x86_builds_on_any_valid_ruleset(
    driver: list[str], drawn: list[Any], seed: int
) -> None:
    tables = [compile_rules(ruleset) for ruleset in drawn]
    portable = _ruleset_calls(tables, seed, 5, 150, "portable")
    _check_rounds(driver, portable + _ruleset_calls(tables, seed, GROUP, 401, "neon"))


def _one_state(codes: list[int]) -> np.ndarray[Any, Any]:
    """A table of one state in which digit d is a throw of outcome codes[d] (0: the round goes on)."""
    return np.array([(1 << THROW_BIT) | (code << CODE_SHIFT) for code in codes], dtype=np.uint64)


LONG_ROUNDS = [1, 2] + [0] * 34
"""Only 1-1 and 1-2 end a round: 18 throws on average, many rounds in the last bucket (63 or more)."""
LONG_HANDS = [1] + [2] * 35
"""Every throw ends a round, 1-1 in outcome 1: a hand passed only by it lasts 36 rounds on average."""
RULES = {  # the three kinds of a batch's hands' work, with and without long hands (test_sim_paths.py's)
    "pass after 100 losses": (LONG_ROUNDS, [100, 2, 2], True),
    "after 6, a win clears them": (LONG_ROUNDS, [6, 1, 2], True),
    "every loss passes": (LONG_ROUNDS, [0, 2, 2], False),
    "no main": (LONG_ROUNDS, [1, 0, 4], False),
    "never": (LONG_ROUNDS, [0, 0, 0], False),
    "every loss passes, long hands": (LONG_HANDS, [1, 2, 1], True),
    "a loss that also wins passes, long hands": (LONG_HANDS, [1, 3, 1], True),
}


def test_long_rounds_and_long_hands_on_neon_are_the_x86_builds(driver: list[str]) -> None:
    # a round of 63 throws or more sends its batch to be played again, checked; a hand of 63 rounds or more
    # has its exact sums added
    calls = [
        _rounds_call(_one_state(codes), 0, rule, _quotas(GROUP, 300), seed=seed, path="neon")
        for seed, (codes, rule, _) in enumerate(RULES.values())
    ]
    _check_rounds(driver, calls)
    for (_, expected), (codes, _, long_hands) in zip(calls, RULES.values(), strict=True):
        counts, hands = expected[4].view(np.int64), expected[5].view(np.int64)
        if codes is LONG_ROUNDS:
            assert counts[THROW_BUCKETS + 2 + THROW_BUCKETS] > 0  # outcome 1's long rounds: their throws
        assert (hands[HAND_BUCKETS] > 0) == long_hands


# whole grains (the integer money path), a third of a grain and sums past 2^53 (the doubles path)
BANKROLLS = {"whole": 12.0, "half": 12.5, "third": 12 + 1 / 3, "big": 2.0**52}


@pytest.mark.parametrize("name", ["craps", "wikipedia", "ecws-1674"])
def test_sessions_on_arm_are_the_x86_builds_however_the_money_is_counted(
    driver: list[str], name: str
) -> None:
    table = compile_rules(find_ruleset(name))
    grain, net, cover = _in_grains(table, paytable_for(table.ruleset))
    calls, expected = [], []
    for staking in (0, 1, 2):
        for n, bankroll in enumerate(BANKROLLS.values()):
            settings_ = np.array([40, staking, grain, 3, cover, (staking + n) % 3, 1.0], dtype=np.float64)
            bankrolls = np.full(3, bankroll * grain)
            bank, ruin, stats = np.zeros((6, 3)), np.zeros((6, 3), dtype=np.int64), np.zeros((6, 7))
            seed, kind, first, per_block = 2**70 + 5 + staking, 1, 3, 4
            fixed = (table.entries, table.start * 36, net, table.passing_rule(), settings_, bankrolls)
            NATIVE.play_session_blocks(seed, kind, first, per_block, *fixed, bank, ruin, stats)
            head = [np.array([seed >> 64], np.uint64), np.array([seed & (2**64 - 1)], np.uint64)]
            head += [_words([kind]), _words([first]), _words([per_block])]
            rest = [
                np.asarray(table.entries, np.uint64),
                _words([table.start * 36]),
                np.asarray(net, np.float64),
            ]
            rest += [np.asarray(table.passing_rule(), np.int64), settings_, bankrolls]
            calls.append((2, [*head, *rest, np.zeros((6, 3)), np.zeros((6, 3), np.int64), np.zeros((6, 7))]))
            expected.append(
                [bank.view(np.uint64).ravel(), ruin.view(np.uint64).ravel(), stats.view(np.uint64).ravel()]
            )
    _, outputs = _replay(driver, calls)
    for want, got in zip(expected, outputs, strict=True):
        assert [g.tolist() for g in got[:3]] == [w.tolist() for w in want]  # every bit of every double
        assert got[3].tolist() == [0]
