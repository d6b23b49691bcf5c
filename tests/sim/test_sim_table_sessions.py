"""A session study settles as the table does: the same throws played through :mod:`hazard.table` and
through the session kernel, every bankroll compared after every round.

The table side is a plain driver of the table's own rules (:func:`hazard.table.apply_action`): it lays the
stakes the study's rule lays (hazard.sim.session's docstring), calls the main the kernel's table draws,
throws the stream's throws one by one, and has the ruined leave. Everything else, what a stake pays, who may
stake, when the dice pass and to whom, is the table's. The kernel's bankrolls after round ``k`` are those of
a one-session study of ``k`` rounds from the same seed (a session's first throws are the same however many
rounds it has).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from fractions import Fraction

import pytest
from hypothesis import HealthCheck, given, seed, settings
from hypothesis import strategies as st
from tests.strategies import rulesets

from hazard.core.engine import Call
from hazard.core.rules import MainMethod, Ruleset, StakeArrangement
from hazard.core.rulesets import builtin_rulesets, paytable_for, settling_paytable
from hazard.core.staking import Staking, StakingPlan
from hazard.sim.session import SessionConfig, _player, played_ruleset
from hazard.sim.stream import SESSION_STREAM, digits_of_word, lane_generator, lane_words
from hazard.sim.tables import CompiledRules, compile_rules, roll_of
from hazard.table import Actor, Leave, RoundSettled, Sit, Stake, Table, apply_action, new_table


def _throws(seed_: int) -> Iterator[int]:
    """The digits of block 0's stream, in the order the session kernel takes them."""
    lane = lane_generator(seed_, SESSION_STREAM, 0, 0)
    while True:
        for word in lane_words(lane, 64):
            yield from digits_of_word(word)


def _lay_stakes(table: Table, config: SessionConfig) -> Table:
    """The study's stakes, laid at the table: each setter in turn from the caster's left lays his
    progression's stake, or the largest smaller one (halving down to the base) that both he and the caster
    can cover, or nothing; one setter only for a setter's sum."""
    caster = table.caster
    assert caster is not None
    plan = StakingPlan(config.staking, config.cap)
    laid = 0
    setter = table.next_after(caster)
    while setter != caster:
        if table.stakes is StakeArrangement.SETTER_SUM and laid:
            break
        for steps in range(min(plan.steps(table.player(setter).run), plan.limit), -1, -1):
            stake = Fraction(config.stake) * plan.multiple(steps)
            if stake * table.most_won <= table.available(setter) and stake <= table.available(caster):
                table, _ = apply_action(table, Stake(setter, stake), by=Actor.player(setter))
                laid += 1
                break
        setter = table.next_after(setter)
    return table


def _play_round(table: Table, compiled: CompiledRules, throws: Iterator[int]) -> Table:
    """One round at the table: the main drawn as the kernel's table draws it (where called at random),
    then the stream's throws until the round is settled."""
    caster = table.caster
    assert caster is not None
    ruleset = table.ruleset
    if ruleset.method is MainMethod.CALLED:
        mains = ruleset.mains
        main = mains[0]
        if compiled.states[compiled.start] is None:  # a main drawn at random: the kernel's own draw
            digit = next(throws)
            while digit >= 36 - 36 % len(mains):
                digit = next(throws)
            main = mains[digit % len(mains)]
        table, _ = apply_action(table, Call(main), by=Actor.player(caster))
    while True:
        table, events = apply_action(table, roll_of(next(throws)), by=Actor.player(caster))
        if any(isinstance(event, RoundSettled) for event in events):
            return table


def _at_the_table(
    compiled: CompiledRules, config: SessionConfig, seed_: int
) -> list[tuple[list[Fraction], list[int]]]:
    """Each player's bankroll and ruin round (-1: not yet) after each round of the session at the table."""
    table = new_table(played_ruleset(compiled), settling_paytable(paytable_for(compiled.ruleset)))
    names = [f"P{p}" for p in range(config.players)]
    for name in names:
        table, _ = apply_action(table, Sit(name, Fraction(config.bankroll)), by=Actor.player(name))
    # the first to sit casts first, and the dice travel in the order the players sat
    assert [table.next_after(name) for name in names] == [*names[1:], names[0]]
    bank = [Fraction(config.bankroll)] * config.players
    ruin = [-1] * config.players
    throws = _throws(seed_)
    after: list[tuple[list[Fraction], list[int]]] = []
    for r in range(config.rounds):
        if len(table.players) >= 2:
            table = _lay_stakes(table, config)
            table = _play_round(table, compiled, throws)
            for player in table.players:
                bank[names.index(player.name)] = player.bankroll
                if player.bankroll < Fraction(config.stake):  # ruined: he leaves, the dice go on from him
                    ruin[names.index(player.name)] = r
                    table, _ = apply_action(table, Leave(player.name), by=Actor.player(player.name))
        after.append((list(bank), list(ruin)))
    assert sum(bank) == config.players * Fraction(config.bankroll)  # money only changes hands
    return after


def _in_the_kernel(
    compiled: CompiledRules, config: SessionConfig, seed_: int, rounds: int
) -> tuple[list[float], list[int]]:
    one = dataclasses.replace(config, sessions=1, rounds=rounds)
    rows = _player(compiled, one, paytable_for(compiled.ruleset), seed_)(0)
    return rows.bankrolls[0].tolist(), rows.ruined_in[0].tolist()


def _same_as_the_table(compiled: CompiledRules, config: SessionConfig, seed_: int) -> None:
    for k, (bank, ruin) in enumerate(_at_the_table(compiled, config, seed_), start=1):
        kernel_bank, kernel_ruin = _in_the_kernel(compiled, config, seed_, k)
        where = f"after round {k - 1}"
        assert kernel_ruin == ruin, where
        assert kernel_bank == [float(b) for b in bank], where  # exact: the kernel counts in whole grains


def _small_sessions() -> st.SearchStrategy[SessionConfig]:
    """Sessions short and poor enough that stakes are cut back and players ruined within a few rounds."""
    return st.builds(
        SessionConfig,
        sessions=st.just(1),
        rounds=st.integers(8, 24),
        players=st.integers(2, 5),
        bankroll=st.sampled_from([3.0, 5.0, 8.0, 12.5]),
        stake=st.sampled_from([1.0, 0.5, 2.0]),
        staking=st.sampled_from(Staking),
        cap=st.none() | st.integers(1, 4),
    ).filter(lambda c: c.bankroll >= c.stake and (c.cap is None or c.staking is not Staking.FLAT))


@pytest.mark.parametrize("arrangement", StakeArrangement, ids=lambda a: a.value)
@pytest.mark.parametrize("ruleset", builtin_rulesets(), ids=lambda r: r.id)
@settings(max_examples=3, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@seed(23)
@given(config=_small_sessions(), seed_=st.integers(0, 2**32), data=st.data())
def test_a_builtin_ruleset_settles_as_the_table(
    ruleset: Ruleset, arrangement: StakeArrangement, config: SessionConfig, seed_: int, data: st.DataObject
) -> None:
    arranged = dataclasses.replace(ruleset, stakes=arrangement)
    main = data.draw(st.none() | st.sampled_from(ruleset.mains), label="main")
    _same_as_the_table(compile_rules(arranged, main), config, seed_)


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@seed(5)
@given(ruleset=rulesets(), config=_small_sessions(), seed_=st.integers(0, 2**32), data=st.data())
def test_a_random_ruleset_settles_as_the_table(
    ruleset: Ruleset, config: SessionConfig, seed_: int, data: st.DataObject
) -> None:
    main = data.draw(st.none() | st.sampled_from(ruleset.mains), label="main")
    _same_as_the_table(compile_rules(ruleset, main), config, seed_)
