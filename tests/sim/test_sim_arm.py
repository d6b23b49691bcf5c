"""The kernel's portable path built for ARM (aarch64) and run under emulation (qemu-user): the same calls as
native.py makes on this machine give the same counts, lanes, bankrolls and stats, to the bit.

tests/sim/arm_driver.c links the kernel's C files (setup.py's, less _module.c) and replays the calls fed to
it. Without ``aarch64-linux-gnu-gcc`` or ``qemu-aarch64`` the module is skipped, unless ``HAZARD_REQUIRE_ARM``
is set (``.ci/run`` sets it), when their absence fails (apt-get install gcc-aarch64-linux-gnu
libc6-dev-arm64-cross qemu-user)."""

from __future__ import annotations

import os
import shutil
import struct
import subprocess
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
from hazard.sim.tables import HAND_BUCKETS, TALLY_WAYS, THROW_BUCKETS

NATIVE = native.load()
SOURCES = ("native.c", "tally.c", "session.c", "seed.c", "simd.c", "simd256.c", "simd512.c")
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
    sources = [str(ROOT / "tests" / "sim" / "arm_driver.c"), *(str(sim / name) for name in SOURCES)]
    subprocess.run([gcc, *FLAGS, "-o", str(program), *sources], check=True, capture_output=True)
    return [qemu, "-L", SYSROOT, str(program)]


def test_the_vector_files_compile_to_nothing_on_arm(tmp_path: Path, driver: list[str]) -> None:
    # the x86 paths are guarded out: no symbol of their own, and the build offers the portable path only
    gcc, nm = _tool("aarch64-linux-gnu-gcc"), _tool("aarch64-linux-gnu-nm")
    for name in ("simd256.c", "simd512.c"):
        built = tmp_path / f"{name}.o"
        subprocess.run([gcc, *FLAGS, "-c", "-o", str(built), str(ROOT / "src/hazard/sim" / name)], check=True)
        listed = subprocess.run(
            [nm, "--defined-only", str(built)], check=True, capture_output=True, text=True
        )
        assert listed.stdout.split() == [], name
    paths, outputs = _replay(driver, [])
    assert (paths, outputs) == (1 << native.KERNEL_PATHS.index("portable"), [])


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


def _rounds_call(table: Any, seed: int) -> tuple[tuple[int, Fields], Fields]:
    """A call of play_blocks (five blocks, unequal quotas) as the driver takes it, and what x86 gives: the
    lanes where they were left, and the counts and hands on the portable path (copy by copy) and on the best
    path here (the copies added up: every path's sums are the same)."""
    low, high = pair_tables()
    lanes = [lane_generator(seed, ROUND_STREAM, n // 2, n % 2) for n in range(10)]
    quotas = [150 + (7 * n) % 50 for n in range(10)]
    rule = np.asarray(table.passing_rule(), dtype=np.int64)
    counts = np.zeros(TALLY_WAYS * len(rule) * (THROW_BUCKETS + 2), dtype=np.int64)
    hands = np.zeros(TALLY_WAYS * (HAND_BUCKETS + 2), dtype=np.int64)
    entries = np.asarray(table.entries, dtype=np.uint64)
    fields = [_lanes(lanes), _words(quotas), _words([97]), entries, _words([table.start * 36])]
    fields += [np.asarray(low, np.uint64), np.asarray(high, np.uint64), rule, counts.copy(), hands.copy()]
    played = []
    for path in ("portable", NATIVE.kernel_path):
        copies = [lane_generator(seed, ROUND_STREAM, n // 2, n % 2) for n in range(10)]
        c, h = counts.copy(), hands.copy()
        NATIVE.play_blocks(copies, quotas, 97, entries, table.start * 36, low, high, rule, c, h, path=path)
        played.append((copies, c, h))
    (lanes_after, portable_counts, portable_hands), (_, best_counts, best_hands) = played
    expected = [_lanes(lanes_after).ravel(), _words(portable_counts), _words(portable_hands), _words([0])]
    expected += [
        _words(best_counts.reshape(TALLY_WAYS, -1).sum(0)),
        _words(best_hands.reshape(TALLY_WAYS, -1).sum(0)),
    ]
    return (1, fields), expected


def _check_rounds(driver: list[str], tables: list[Any], seed: int) -> None:
    calls = [_rounds_call(table, seed + n) for n, table in enumerate(tables)]
    _, outputs = _replay(driver, [call for call, _ in calls])
    for (_, expected), got in zip(calls, outputs, strict=True):
        lanes, counts, hands, result = got
        assert lanes.tolist() == expected[0].tolist()
        assert counts.tolist() == expected[1].tolist()
        assert hands.tolist() == expected[2].tolist()
        assert result.tolist() == expected[3].tolist()
        summed = [_words(x.view(np.int64).reshape(TALLY_WAYS, -1).sum(0)) for x in (counts, hands)]
        assert [s.tolist() for s in summed] == [expected[4].tolist(), expected[5].tolist()]


def test_rounds_on_arm_are_the_x86_builds_on_every_builtin_ruleset(driver: list[str]) -> None:
    _check_rounds(driver, [compile_rules(ruleset) for ruleset in builtin_rulesets()], seed=11)


@settings(max_examples=4, deadline=None, database=None)
@hypothesis_seed(23)
@given(st.lists(rulesets(), min_size=2, max_size=2), st.integers(0, 2**32))
def test_rounds_on_arm_are_the_x86_builds_on_any_valid_ruleset(
    driver: list[str], drawn: list[Any], seed: int
) -> None:
    _check_rounds(driver, [compile_rules(ruleset) for ruleset in drawn], seed=seed)


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
