"""The simulator against the exact analyser, a wrong table caught, the same seed giving the same counts."""

from __future__ import annotations

import copy
import dataclasses
import json
from typing import Any

import pytest

from hazard.core.dice import ROLLS, Roll
from hazard.core.errors import InvalidError
from hazard.core.rules import DicePassing, LossCount, Ruleset
from hazard.core.rulesets import builtin_rulesets, find_paytable, find_ruleset
from hazard.sim import CompiledRules, Exact, GroupStats, compile_rules, round_stats, simulate_rounds
from hazard.sim.backend import backend
from hazard.sim.stream import BLOCK_ROUNDS
from hazard.study import ExactFigures

ROUNDS = 200_000
LIMIT = 4.0
EVEN = find_paytable("even")


def _worst(group: GroupStats, exact: Exact) -> tuple[str, float]:
    compared = {name: z for name, (_, _, z) in group.comparisons(exact).items() if z is not None}
    name = max(compared, key=lambda n: abs(compared[n]))
    return name, compared[name]


def _cases() -> list[tuple[Ruleset, int | None]]:
    return [(r, m) for r in builtin_rulesets() for m in (None, *r.mains)]


@pytest.mark.parametrize(("ruleset", "main"), _cases(), ids=lambda x: getattr(x, "id", str(x)))
def test_simulation_agrees_with_the_exact_analyser(ruleset: Ruleset, main: int | None) -> None:
    """Every figure of every built-in ruleset and main, within 4 standard errors of the exact value."""
    exact = ExactFigures(ruleset, main, EVEN)
    stats = round_stats(simulate_rounds(compile_rules(ruleset, main), ROUNDS, seed=20260101))
    name, z = _worst(stats.overall, exact.overall)
    assert abs(z) < LIMIT, (ruleset.id, main, name, z)
    for group in stats.mains:
        name, z = _worst(group, exact.mains[group.main or 0])
        assert abs(z) < LIMIT, (ruleset.id, group.main, name, z)
    if exact.p_no_round:
        z_no_round = stats.no_round.z_rate(exact.p_no_round)
        assert z_no_round is not None
        assert abs(z_no_round) < LIMIT
    kept = exact.overall.expected_rounds_kept
    if kept is not None and stats.rounds_kept is not None:
        assert abs(stats.rounds_kept.value - kept) < LIMIT * stats.rounds_kept.se, (ruleset.id, main)
    assert stats.overall.rounds + stats.no_round.value * ROUNDS == pytest.approx(ROUNDS)


@pytest.mark.parametrize(
    ("name", "passing"),
    [
        ("wikipedia", None),  # a main called at random: the mix of the mains' outcomes, 13.399 rounds
        ("cotton", DicePassing(2, LossCount.AFTER_CHANCE)),
        ("ecws", DicePassing(3, LossCount.ANY)),
        ("sca", DicePassing(0)),  # losing never passes, but a throw for the main out of range does
        ("sca", DicePassing(4, LossCount.AFTER_CHANCE)),
    ],
)
def test_the_closed_form_rounds_kept_agrees_with_the_simulation(
    name: str, passing: DicePassing | None
) -> None:
    ruleset = find_ruleset(name)
    if passing is not None:
        ruleset = dataclasses.replace(ruleset, passing=passing)
    exact = ExactFigures(ruleset, None, EVEN).overall.expected_rounds_kept
    assert exact is not None
    kept = round_stats(simulate_rounds(compile_rules(ruleset), ROUNDS, seed=11)).rounds_kept
    assert kept is not None
    assert kept.n > 1000
    assert abs(kept.value - exact) < LIMIT * kept.se, (name, passing, kept.value, exact)


def test_by_main_exact_throws_count_the_throws_for_the_main() -> None:
    exact = ExactFigures(find_ruleset("ecws"), None, EVEN)
    on_seven = ExactFigures(find_ruleset("ecws"), 7, EVEN)
    assert exact.mains[7].expected_throws == pytest.approx(on_seven.overall.expected_throws + 1.5)
    assert exact.mains[7].p_win == on_seven.overall.p_win
    assert on_seven.p_no_round == 0


def _moved_eleven(ruleset: Ruleset) -> Ruleset:
    """A test double: 11 on a main of 7 moved from the nicks to the outs."""
    rows = tuple(
        dataclasses.replace(row, nicks=row.nicks - {11}, outs=row.outs | {11}) if row.main == 7 else row
        for row in ruleset.rows
    )
    return dataclasses.replace(ruleset, rows=rows)


@pytest.mark.parametrize(("name", "main"), [("craps", None), ("wikipedia", 7), ("britannica", 7)])
def test_a_wrong_table_is_caught(name: str, main: int | None) -> None:
    right = find_ruleset(name)
    wrong = _moved_eleven(right)
    assert wrong != right
    exact = ExactFigures(right, main, EVEN)
    stats = round_stats(simulate_rounds(compile_rules(wrong, main), ROUNDS, seed=3))
    _, z = _worst(stats.overall, exact.overall)
    assert abs(z) > 10
    win_z = stats.overall.win.z_rate(exact.overall.p_win)
    assert win_z is not None
    assert win_z < -LIMIT


def test_a_corrupted_compiled_entry_is_caught() -> None:
    table = compile_rules(find_ruleset("craps"))
    entries = copy.copy(table.entries)
    crab = entries[ROLLS.index(Roll(1, 1))]
    for roll in (Roll(5, 6), Roll(6, 5)):  # 11 on the come-out now loses
        entries[ROLLS.index(roll)] = crab
    broken = dataclasses.replace(table, entries=entries)
    exact = ExactFigures(table.ruleset, None, EVEN)
    stats = round_stats(simulate_rounds(broken, ROUNDS, seed=3))
    assert abs(_worst(stats.overall, exact.overall)[1]) > 10


def test_the_two_readings_of_eleven_on_seven_are_told_apart() -> None:
    """ecws throws 11 again on 7 where cotton nicks: the simulation of one is refused by the other's odds."""
    ecws = round_stats(simulate_rounds(compile_rules(find_ruleset("ecws"), 7), ROUNDS, seed=5))
    cotton = ExactFigures(find_ruleset("cotton"), 7, EVEN)
    assert abs(_worst(ecws.overall, cotton.overall)[1]) > LIMIT


def _json(table: CompiledRules, rounds: int, **options: Any) -> str:
    data = round_stats(simulate_rounds(table, rounds, seed=77, **options)).to_json_dict()
    data.pop("seconds")
    return json.dumps(data, sort_keys=True)


def test_the_same_seed_gives_the_same_counts_whatever_the_chunks_and_workers() -> None:
    table = compile_rules(find_ruleset("ecws"))
    rounds = 2 * BLOCK_ROUNDS + 12_345  # three blocks, the last one short and odd
    reference = _json(table, rounds)
    for options in (
        {"workers": 1},
        {"workers": 3},
        {"chunk_rounds": 64, "workers": 2},
        {"chunk_rounds": 5000},
    ):
        assert _json(table, rounds, **options) == reference, options


def test_tiny_chunks_give_the_same_counts() -> None:
    table = compile_rules(find_ruleset("wikipedia"))
    assert _json(table, 3001, chunk_rounds=1) == _json(table, 3001)


def test_another_seed_gives_other_counts() -> None:
    table = compile_rules(find_ruleset("craps"))
    first = simulate_rounds(table, 10_000, seed=1)
    second = simulate_rounds(table, 10_000, seed=2)
    assert first.by_code != second.by_code


def test_counts_add_up() -> None:
    counts = simulate_rounds(compile_rules(find_ruleset("sca")), 50_001, seed=9)
    assert counts.rounds == 50_001
    assert sum(map(sum, counts.by_code)) == 50_001
    assert counts.throws == sum(counts.throw_sums) >= 50_001
    assert not counts.interrupted


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"rounds": 0}, "invalid number of rounds 0"),
        ({"rounds": -5}, "invalid number of rounds"),
        ({"seed": -1}, "invalid seed -1"),
        ({"chunk_rounds": 0}, "invalid chunk size"),
        ({"workers": 0}, "invalid number of workers"),
    ],
)
def test_bad_arguments_are_refused(options: dict[str, int], message: str) -> None:
    arguments: dict[str, Any] = {"rounds": 10, "seed": 1, **options}
    with pytest.raises(InvalidError, match=message):
        simulate_rounds(compile_rules(find_ruleset("craps")), **arguments)


def test_a_ctrl_c_returns_the_blocks_finished(monkeypatch: pytest.MonkeyPatch) -> None:
    from hazard.sim import workers

    monkeypatch.setattr(workers, "PROGRESS_INTERVAL", 0.0)  # told after the first block, not 0.1 s in
    calls = []

    def interrupt(done: int) -> None:
        calls.append(done)
        raise KeyboardInterrupt

    rounds = (2 * backend().blocks_per_call + 1) * BLOCK_ROUNDS  # three calls of the kernels, on any path
    counts = simulate_rounds(
        compile_rules(find_ruleset("craps")), rounds, seed=1, progress=interrupt, workers=1
    )
    assert counts.interrupted
    assert 0 < counts.rounds < rounds
    assert counts.rounds % BLOCK_ROUNDS == 0
    assert sum(map(sum, counts.by_code)) == counts.rounds
    assert calls


def test_the_compiled_rules_and_the_counts_print_as_one_short_line() -> None:
    # their packed transitions and counts by throw are some 110 KB as dataclasses' reprs
    counts = simulate_rounds(compile_rules(find_ruleset("britannica-1911")), 5_000, seed=1, workers=1)
    assert repr(counts.table) == "<CompiledRules britannica-1911, main called: 36 states, 70 outcomes>"
    assert (
        repr(counts)
        == f"<RoundCounts 5,000 of 5,000 rounds of britannica-1911, seed 1: {counts.throws:,} throws>"
    )
    assert repr(compile_rules(find_ruleset("craps"))).startswith("<CompiledRules craps, main 7: ")
