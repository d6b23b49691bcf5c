"""The compiled kernels against their own Python source, and a lane's log against the rules engine."""

from __future__ import annotations

import numpy as np
import pytest

from hazard.core.engine import apply
from hazard.core.rulesets import find_ruleset, paytable_for
from hazard.core.state import Round
from hazard.sim import kernels, native
from hazard.sim.session import SessionConfig, _most_won, _nets
from hazard.sim.stream import ROUND_STREAM, digits_of_word, lane_generator, reference_digits
from hazard.sim.tables import RoundTable, compile_table, roll_of


def _lanes(
    table: RoundTable,
    targets: tuple[int, int],
    *,
    compiled: bool,
    seed: int = 2,
    chunk: int | None = None,
    backend: str = "numba",
) -> tuple[list[int], list[int], list[int]]:
    """Play two lanes to their targets, ``chunk`` rounds a call; the logs of both lanes, and the carry.

    ``compiled``: the ``backend``'s kernels (``numba``, or ``native``: the C ones), else the Python twin.
    """
    play = kernels.play_lanes.py_func
    if compiled:
        play = native.load().play_lanes if backend == "native" else kernels.play_lanes
    low, high = kernels.pair_tables()
    bits = [lane_generator(seed, ROUND_STREAM, 0, lane) for lane in (0, 1)]
    carry = np.zeros((2, 4), dtype=np.uint64)
    carry[:, 0] = table.start * 36
    logs: list[list[int]] = [[], []]
    done = [0, 0]
    step = chunk or max(targets)
    entries = table.entries.astype(np.uint64)
    while done != list(targets):
        goal = [min(step, t - d) for t, d in zip(targets, done, strict=True)]
        buffers = [np.zeros(g + 1, dtype=np.uint64) for g in goal]
        logged = play(bits[0], bits[1], goal[0], goal[1], entries, carry, buffers[0], buffers[1], low, high)
        assert list(logged) == goal
        for lane in (0, 1):
            logs[lane] += buffers[lane][: goal[lane]].tolist()
            done[lane] += goal[lane]
    return logs[0], logs[1], carry.tolist()


def _python_kernels(monkeypatch: pytest.MonkeyPatch) -> None:
    """Make the Python twins call each other, not the compiled helpers."""
    for name in ("_step", "_word", "play_one"):
        monkeypatch.setattr(kernels, name, getattr(kernels, name).py_func)


@pytest.mark.parametrize("name", ["craps", "ecws", "wikipedia", "sca"])
def test_play_lanes_compiled_equals_its_python(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    table = compile_table(find_ruleset(name))
    compiled = _lanes(table, (150, 97), compiled=True)
    _python_kernels(monkeypatch)
    assert _lanes(table, (150, 97), compiled=False) == compiled


@pytest.mark.parametrize("backend", ["numba", "native"])
@pytest.mark.parametrize("chunk", [1, 2, 7, 11, 12, 40, 1000])
def test_a_lane_goes_on_as_if_never_stopped(chunk: int, backend: str) -> None:
    table = compile_table(find_ruleset("ecws"))
    whole = _lanes(table, (300, 299), compiled=True, seed=8, backend=backend)
    assert _lanes(table, (300, 299), compiled=True, seed=8, chunk=chunk, backend=backend)[:2] == whole[:2]


@pytest.mark.parametrize("backend", ["numba", "native"])
@pytest.mark.parametrize("name", ["craps", "ecws", "wikipedia", "sca", "cotton"])
def test_a_lane_log_is_what_the_engine_makes_of_the_same_throws(name: str, backend: str) -> None:
    table = compile_table(find_ruleset(name))
    log0, _, _ = _lanes(table, (500, 10), compiled=True, seed=9, backend=backend)
    digits = reference_digits(9, ROUND_STREAM, 0, 0, 1000)
    # Replay the same throws through the engine, round after round.
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
    got = [(v >> 32, v & 0xFFFFFFFF) for v in log0]
    assert got == expected[: len(got)]
    assert len(got) == 500


def test_tally_compiled_equals_its_python() -> None:
    table = compile_table(find_ruleset("wikipedia"), 7)
    log0, _, _ = _lanes(table, (600, 1), compiled=True, seed=4)
    logged0 = len(log0)
    log = np.array(log0, dtype=np.uint64)
    results = []
    for tally in (kernels.tally, kernels.tally.py_func):
        counts = np.zeros((kernels.TALLY_WAYS, table.codes, kernels.THROW_BUCKETS + 2), dtype=np.int64)
        hands = np.zeros((kernels.TALLY_WAYS, kernels.HAND_BUCKETS + 2), dtype=np.int64)
        carry = np.zeros(2, dtype=np.int64)
        with np.errstate(over="ignore"):  # the masks wrap round in uint64, as the compiled code does
            tally(log, logged0, table.passing_rule(), counts, hands, carry)
        results.append((counts.sum(axis=0).tolist(), hands.sum(axis=0).tolist(), carry.tolist()))
    assert results[0] == results[1]
    counts_list, hands_list, _ = results[0]
    assert sum(map(sum, (row[: kernels.THROW_BUCKETS] for row in counts_list))) == logged0
    assert sum(hands_list[: kernels.HAND_BUCKETS]) > 0  # wikipedia passes the dice after 3 losses


def test_play_sessions_compiled_equals_its_python() -> None:
    ruleset = find_ruleset("wikipedia")
    table = compile_table(ruleset, 6)
    config = SessionConfig(sessions=3, rounds=40, players=3, bankroll=20, staking=kernels_staking())
    digits = np.array(
        [d for w in lane_generator(1, 1, 0, 0).random_raw(400).tolist() for d in digits_of_word(int(w))],
        dtype=np.uint8,
    )
    net = _nets(table, paytable_for(ruleset))
    cover = _most_won(table, paytable_for(ruleset))
    settings = np.array([config.rounds, 1, config.stake, config.progression_cap, cover], dtype=np.float64)
    results = []
    for play in (kernels.play_sessions, kernels.play_sessions.py_func):
        bank = np.zeros((3, 3))
        ruin = np.zeros((3, 3), dtype=np.int64)
        stats = np.zeros((3, 7))
        used = play(
            digits, table.entries.astype(np.uint64), table.start * 36, net, table.passing_rule(), settings,
            np.full(3, 20.0), bank, ruin, stats,
        )  # fmt: skip
        results.append((int(used), bank.tolist(), ruin.tolist(), stats.tolist()))
    assert results[0] == results[1]
    assert results[0][0] > 0
    assert np.isclose(np.array(results[0][1]).sum(axis=1), 60.0).all()  # money only changes hands


def kernels_staking():  # type: ignore[no-untyped-def]
    from hazard.sim.session import Staking

    return Staking.MARTINGALE


def test_too_few_throws_for_the_sessions_is_reported() -> None:
    table = compile_table(find_ruleset("craps"))
    bank = np.zeros((1, 2))
    used = kernels.play_sessions(
        np.zeros(5, dtype=np.uint8), table.entries.astype(np.uint64), 0, np.zeros(table.codes),
        table.passing_rule(), np.array([100, 0, 1.0, 0, 1.0]), np.full(2, 10.0), bank,
        np.zeros((1, 2), dtype=np.int64), np.zeros((1, 7)),
    )  # fmt: skip
    assert used == -1
