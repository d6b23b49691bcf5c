"""The compiled tables say, for every state and every throw, exactly what the rules engine says."""

from __future__ import annotations

import dataclasses

import pytest
from hypothesis import given, settings
from tests.strategies import rulesets

from hazard.core.dice import ROLLS, Roll
from hazard.core.engine import apply
from hazard.core.errors import IllegalError, InvalidError
from hazard.core.passing import PassingEffect, passing_effect
from hazard.core.rules import DicePassing, LossCount, MainMethod, Ruleset
from hazard.core.rulesets import builtin_rulesets, find_ruleset
from hazard.core.state import Phase
from hazard.sim.tables import CODE_SHIFT, NEXT_MASK, THROW_BIT, CompiledRules, compile_rules, on_main, roll_of


def _decode(table: CompiledRules, state: int, digit: int) -> tuple[int, bool, int]:
    entry = int(table.entries[state * 36 + digit])
    return (entry & NEXT_MASK) // 36, bool(entry >> THROW_BIT & 1), entry >> CODE_SHIFT


def _check_against_engine(table: CompiledRules) -> None:
    for index, state in enumerate(table.states):
        for digit in range(36):
            target, throw, code = _decode(table, index, digit)
            if state is None:  # the caster's main drawn at random: no throw, and no outcome
                assert not throw
                assert code == 0
                continue
            assert throw
            after, _ = apply(state, roll_of(digit))
            if after.outcome is None:
                assert code == 0
                assert table.states[target] == after
            else:
                assert table.outcomes[code - 1] == after.outcome
                assert target == table.start


def test_digits_are_the_36_ordered_rolls() -> None:
    assert [roll_of(d) for d in range(36)] == list(ROLLS)
    with pytest.raises(InvalidError, match="expected 0 to 35"):
        roll_of(36)


@pytest.mark.parametrize("ruleset", builtin_rulesets(), ids=lambda r: r.id)
def test_every_builtin_table_agrees_with_the_engine(ruleset: Ruleset) -> None:
    _check_against_engine(compile_rules(ruleset))
    for main in ruleset.mains:
        table = compile_rules(ruleset, main)
        assert table.main == main
        _check_against_engine(table)


@settings(max_examples=40, deadline=None)
@given(rulesets())
def test_any_valid_ruleset_compiles_to_the_engine(ruleset: Ruleset) -> None:
    _check_against_engine(compile_rules(ruleset))


def test_craps_is_seven_states_and_fourteen_endings() -> None:
    table = compile_rules(find_ruleset("craps"))
    assert table.main == 7
    assert len(table.states) == 7
    assert len(table.outcomes) == 14
    assert table.codes == 15


def test_a_called_main_without_a_main_is_drawn_uniformly() -> None:
    table = compile_rules(find_ruleset("wikipedia"))
    assert table.main is None
    assert table.states[0] is None
    picked = [_decode(table, 0, d)[0] for d in range(36)]
    # 35 digits call one of the 5 mains, 7 each; digit 35 draws again.
    mains = [table.states[p].main for p in picked[:35]]  # type: ignore[union-attr]
    assert sorted(mains) == sorted([5, 6, 7, 8, 9] * 7)
    assert picked[35] == 0


def test_on_main_plays_a_thrown_main_from_its_opening_throw() -> None:
    ecws = find_ruleset("ecws")
    fixed = on_main(ecws, 6)
    assert fixed.method is MainMethod.FIXED
    assert fixed.rows == (ecws.row(6),)
    table = compile_rules(ecws, 6)
    first = table.states[table.start]
    assert first is not None
    assert first.phase is Phase.OPENING
    assert first.main == 6
    assert table.ruleset is ecws


def test_an_unknown_main_is_refused() -> None:
    with pytest.raises(IllegalError, match="the mains are 5, 6, 7, 8 and 9"):
        compile_rules(find_ruleset("ecws"), 4)


@pytest.mark.parametrize("ruleset", builtin_rulesets(), ids=lambda r: r.id)
@pytest.mark.parametrize(
    "passing", [None, *(DicePassing(n, losses) for n in (0, 1, 3) for losses in LossCount)]
)
def test_the_passing_rule_is_compiled_from_the_core(ruleset: Ruleset, passing: DicePassing | None) -> None:
    """Each code's bits say what ``passing_effect`` says of its outcome; code 0 holds the count."""
    if passing is not None:
        ruleset = dataclasses.replace(ruleset, passing=passing)
    bits = {PassingEffect.CLEAR: 1, PassingEffect.COUNT: 2, PassingEffect.PASS: 4, PassingEffect.KEEP: 0}
    for main in (None, *ruleset.mains):
        table = compile_rules(ruleset, main)
        rule = table.passing_rule()
        assert (rule.typecode, rule.itemsize, len(rule)) == ("q", 8, table.codes)
        assert rule[0] == ruleset.passing.after_losses
        for code, outcome in enumerate(table.outcomes, start=1):
            assert rule[code] == bits[passing_effect(ruleset.passing, outcome.termination)]
            assert bool(rule[code] & 1) == outcome.caster_wins  # the session kernel stakes on bit 0


def test_craps_counts_only_a_seven_out() -> None:
    craps = compile_rules(find_ruleset("craps"))
    rule = craps.passing_rule()
    flags = craps.code_flags()
    for code, outcome in enumerate(craps.outcomes, start=1):
        assert flags["win"][code] == outcome.caster_wins
        assert bool(rule[code] & 2) == (outcome.termination.value == "main")
    no_passing = dataclasses.replace(
        find_ruleset("craps"), passing=dataclasses.replace(find_ruleset("craps").passing, after_losses=0)
    )
    assert not any(bits & 2 for bits in compile_rules(no_passing).passing_rule()[1:])


def test_a_throw_for_the_main_that_passes_the_dice_is_an_outcome() -> None:
    sca = compile_rules(find_ruleset("sca"))
    first = sca.states[sca.start]
    assert first is not None
    assert first.phase is Phase.MAIN
    code = _decode(sca, sca.start, ROLLS.index(Roll(1, 1)))[2]
    assert sca.code_flags()["no_main"][code]
    assert sca.passing_rule()[code] == 4  # the dice pass at once
