"""The engine: transitions, events, illegal actions, chance outcomes, and properties over random rulesets."""

from __future__ import annotations

import random
from collections import deque
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from tests.strategies import rolls, rulesets

from hazard.core.dice import ROLLS, TOTALS, Roll, total_probability
from hazard.core.engine import (
    Action,
    Call,
    Mover,
    apply,
    chance_outcomes,
    chance_totals,
    legal_actions,
    new_round,
    to_move,
)
from hazard.core.errors import IllegalError, InvalidError
from hazard.core.events import (
    ChanceSet,
    ChanceWon,
    DicePassed,
    Event,
    MainCalled,
    MainRethrown,
    MainThrown,
    MainWon,
    Nick,
    NoEffect,
    NoMain,
    ThrowOut,
)
from hazard.core.rules import MainMethod, Opening, Ruleset
from hazard.core.rulesets import builtin_rulesets, find_ruleset
from hazard.core.state import Phase, Result, Round, Termination

BRITANNICA = find_ruleset("britannica-1911")
WIKIPEDIA = find_ruleset("wikipedia")
ECWS = find_ruleset("ecws-1674")
SCA = find_ruleset("sca-isenfir")
CRAPS = find_ruleset("craps")

# One roll for each total, to name throws by their totals.
BY_TOTAL = {2: Roll(1, 1), 3: Roll(1, 2), 4: Roll(1, 3), 5: Roll(2, 3), 6: Roll(2, 4), 7: Roll(3, 4)}
BY_TOTAL |= {8: Roll(3, 5), 9: Roll(4, 5), 10: Roll(4, 6), 11: Roll(5, 6), 12: Roll(6, 6)}


def play(state: Round, *actions: Action) -> tuple[Round, list[Event]]:
    events: list[Event] = []
    for action in actions:
        state, new = apply(state, action)
        events.extend(new)
    return state, events


def called(ruleset: Ruleset, main: int) -> Round:
    state, _ = apply(new_round(ruleset), Call(main))
    return state


class TestWorkedExample:
    """000_8ac2be41856246a3.txt: main 7; 2 and 4 set the chance 6; 3 and 5 change nothing; 1 and 5 win."""

    def test_worked_example(self) -> None:
        state = new_round(BRITANNICA)
        assert to_move(state) is Mover.CASTER

        state, events = apply(state, Call(7))
        assert events == (MainCalled(7),)
        assert (state.phase, state.main, state.chance) == (Phase.OPENING, 7, None)

        state, events = apply(state, Roll(2, 4))
        assert events == (ChanceSet(Roll(2, 4), 7),)
        assert (state.phase, state.main, state.chance) == (Phase.CHANCE, 7, 6)
        assert str(events[0]) == "6 with a main of 7 is the chance: the caster now needs 6 before 7"

        state, events = apply(state, Roll(3, 5))
        assert events == (NoEffect(Roll(3, 5), 7, 6),)
        assert (state.phase, state.main, state.chance) == (Phase.CHANCE, 7, 6)
        assert str(events[0]) == "8 is neither the chance 6 nor the main 7: throw again"

        state, events = apply(state, Roll(1, 5))
        assert events == (ChanceWon(Roll(1, 5), 7),)
        assert state.is_over
        assert state.termination is Termination.CHANCE
        assert state.outcome is not None
        assert state.outcome.result is Result.CASTER_WINS
        assert (state.outcome.main, state.outcome.chance) == (7, 6)
        assert str(events[0]) == "6 is the chance, thrown before the main 7: the caster wins"
        assert to_move(state) is Mover.TERMINAL

    def test_the_main_first_loses(self) -> None:
        state, events = play(new_round(BRITANNICA), Call(7), Roll(2, 4), Roll(3, 5), Roll(3, 4))
        assert events[-1] == MainWon(Roll(3, 4), 6)
        assert str(events[-1]) == "7 is the main, thrown before the chance 6: the caster loses"
        assert state.outcome is not None
        assert state.outcome.termination is Termination.MAIN
        assert state.outcome.result is Result.CASTER_LOSES


class TestTransitions:
    def test_called_main(self) -> None:
        state = new_round(WIKIPEDIA)
        assert state == Round(WIKIPEDIA, Phase.MAIN)
        assert to_move(state) is Mover.CASTER
        new, events = apply(state, Call(5))
        assert new == Round(WIKIPEDIA, Phase.OPENING, main=5)
        assert events == (MainCalled(5),)
        assert str(events[0]) == "the caster calls 5 as the main"
        assert state == Round(WIKIPEDIA, Phase.MAIN), "apply never changes the state it is given"

    @pytest.mark.parametrize("main", [5, 6, 7, 8, 9])
    def test_every_called_main(self, main: int) -> None:
        assert called(BRITANNICA, main) == Round(BRITANNICA, Phase.OPENING, main=main)

    def test_nick(self) -> None:
        state, events = apply(called(BRITANNICA, 7), Roll(5, 6))
        assert events == (Nick(Roll(5, 6), 7),)
        assert str(events[0]) == "11 with a main of 7 is a nick: the caster wins"
        assert state == Round(BRITANNICA, Phase.OVER, main=7, termination=Termination.NICK)

    def test_out(self) -> None:
        state, events = apply(called(BRITANNICA, 6), Roll(5, 6))
        assert events == (ThrowOut(Roll(5, 6), 6),)
        assert str(events[0]) == "11 with a main of 6 throws out: the caster loses"
        assert state == Round(BRITANNICA, Phase.OVER, main=6, termination=Termination.OUT)

    def test_chance_set(self) -> None:
        state, events = apply(called(BRITANNICA, 9), Roll(5, 5))
        assert events == (ChanceSet(Roll(5, 5), 9),)
        assert events[0].chance == 10  # type: ignore[union-attr]
        assert state == Round(BRITANNICA, Phase.CHANCE, main=9, chance=10)

    def test_opening_throw_again(self) -> None:
        # ecws-1674: 11 on a main of 7 is neither nick nor crab, and not one of the seven chance numbers.
        state = Round(ECWS, Phase.OPENING, main=7)
        new, events = apply(state, Roll(6, 5))
        assert new == state
        assert events == (NoEffect(Roll(6, 5), 7, None),)
        assert str(events[0]) == "11 with a main of 7 is neither nick, out nor chance: throw again"

    @pytest.mark.parametrize("total", [2, 3, 4, 5, 7, 8, 9, 11, 12])
    def test_after_the_chance_only_chance_and_main_count(self, total: int) -> None:
        # Main 6, chance 10: 12 was a nick and 2, 3 and 11 outs on the opening throw; now they decide nothing.
        state = Round(BRITANNICA, Phase.CHANCE, main=6, chance=10)
        new, events = apply(state, BY_TOTAL[total])
        assert new == state
        assert events == (NoEffect(BY_TOTAL[total], 6, 10),)

    def test_chance_won_and_main_won(self) -> None:
        state = Round(BRITANNICA, Phase.CHANCE, main=6, chance=10)
        won, events = apply(state, Roll(6, 4))
        assert events == (ChanceWon(Roll(6, 4), 6),)
        assert won.termination is Termination.CHANCE
        assert (won.main, won.chance) == (6, 10)
        lost, events = apply(state, Roll(1, 5))
        assert events == (MainWon(Roll(1, 5), 10),)
        assert lost.termination is Termination.MAIN
        assert (lost.main, lost.chance) == (6, 10)

    @pytest.mark.parametrize("total", TOTALS)
    def test_thrown_main(self, total: int) -> None:
        # ecws-1674: "All other numbers which occur are re-thrown until a permissible MAIN is achieved."
        state = new_round(ECWS)
        assert to_move(state) is Mover.DICE
        roll = BY_TOTAL[total]
        new, events = apply(state, roll)
        if total in ECWS.mains:
            assert events == (MainThrown(roll),)
            assert str(events[0]) == f"{roll} makes {total} the main"
            assert new == Round(ECWS, Phase.OPENING, main=total)
        else:
            assert events == (MainRethrown(roll),)
            assert str(events[0]) == f"{roll} ({total}) is not a main: throw again for the main"
            assert new == state

    @pytest.mark.parametrize("total", TOTALS)
    def test_thrown_or_pass(self, total: int) -> None:
        # 003_c981b497fd7d79e8.txt: "If the roll is less than 5 or greater than 9, pass the dice left."
        state = new_round(SCA)
        roll = BY_TOTAL[total]
        new, events = apply(state, roll)
        if 5 <= total <= 9:
            assert events == (MainThrown(roll),)
            assert new == Round(SCA, Phase.OPENING, main=total)
            return
        assert events == (NoMain(roll), DicePassed(f"{total} is not a main"))
        assert str(events[0]) == f"{roll} ({total}) is not a main: no round is played"
        assert str(events[1]) == f"the dice pass: {total} is not a main"
        assert new.is_over
        assert new.termination is Termination.NO_MAIN
        assert new.main is None
        assert new.outcome is not None
        assert new.outcome.result is Result.NO_ROUND
        assert not new.outcome.caster_wins

    def test_craps_starts_with_the_main_set(self) -> None:
        state = new_round(CRAPS)
        assert state == Round(CRAPS, Phase.OPENING, main=7)
        assert to_move(state) is Mover.DICE
        assert legal_actions(state) == list(ROLLS)
        point, events = apply(state, Roll(2, 2))
        assert events == (ChanceSet(Roll(2, 2), 7),)
        seven_out, events = apply(point, Roll(1, 6))
        assert events == (MainWon(Roll(1, 6), 4),)
        assert seven_out.termination is Termination.MAIN

    @pytest.mark.parametrize(
        ("ident", "main", "total", "event", "termination"),
        [
            ("ecws-1674", 7, 7, Nick, Termination.NICK),
            ("ecws-1674", 6, 12, Nick, Termination.NICK),
            ("ecws-1674", 7, 12, ThrowOut, Termination.OUT),
            ("sca-isenfir", 7, 11, ThrowOut, Termination.OUT),
            ("cotton-1674", 7, 11, Nick, Termination.NICK),
            ("craps", 7, 12, ThrowOut, Termination.OUT),
            ("craps", 7, 11, Nick, Termination.NICK),
        ],
    )
    def test_opening_endings(
        self, ident: str, main: int, total: int, event: type, termination: Termination
    ) -> None:
        ruleset = find_ruleset(ident)
        state, events = apply(Round(ruleset, Phase.OPENING, main=main), BY_TOTAL[total])
        assert len(events) == 1
        assert isinstance(events[0], event)
        assert state.termination is termination
        assert (state.main, state.chance) == (main, None)


class TestIllegal:
    def test_throw_while_the_caster_must_call(self) -> None:
        with pytest.raises(IllegalError) as info:
            apply(new_round(BRITANNICA), Roll(3, 4))
        assert (
            str(info.value) == "illegal throw 3-4 in round (no main yet): the caster must call a main first"
        )

    @pytest.mark.parametrize("ruleset", [ECWS, SCA], ids=lambda r: r.id)
    def test_call_when_the_main_is_thrown(self, ruleset: Ruleset) -> None:
        with pytest.raises(IllegalError) as info:
            apply(new_round(ruleset), Call(7))
        assert str(info.value) == (
            "illegal call of main 7 in round (no main yet): "
            f"the main is thrown, not called, in {ruleset.id!r}"
        )

    def test_call_when_the_main_is_fixed(self) -> None:
        with pytest.raises(IllegalError) as info:
            apply(new_round(CRAPS), Call(7))
        message = str(info.value)
        assert message.startswith("illegal call of main 7 in round (main 7, no chance yet)")
        assert "the main is always 7 in 'craps'" in message

    def test_call_after_the_main_is_set(self) -> None:
        with pytest.raises(IllegalError) as info:
            apply(called(BRITANNICA, 7), Call(6))
        assert str(info.value) == (
            "illegal call of main 6 in round (main 7, no chance yet): the main is already set"
        )
        state, _ = apply(called(BRITANNICA, 7), Roll(2, 4))
        with pytest.raises(IllegalError, match=r"in round \(main 7, chance 6\): the main is already set"):
            apply(state, Call(6))

    def test_nothing_after_the_round_is_over(self) -> None:
        over, _ = apply(called(BRITANNICA, 7), Roll(3, 4))
        assert over.is_over
        with pytest.raises(IllegalError) as info:
            apply(over, Roll(1, 1))
        assert str(info.value) == (
            "illegal throw 1-1 in round (over: nick on a main of 7: the caster wins): the round is over"
        )
        with pytest.raises(IllegalError) as info:
            apply(over, Call(7))
        assert str(info.value) == (
            "illegal call of main 7 in round (over: nick on a main of 7: the caster wins): the round is over"
        )

    def test_nothing_after_no_main(self) -> None:
        over, _ = apply(new_round(SCA), Roll(1, 1))
        with pytest.raises(IllegalError, match="the round is over"):
            apply(over, Roll(3, 4))

    @pytest.mark.parametrize("main", [2, 4, 10, 12])
    def test_call_of_a_main_the_ruleset_lacks(self, main: int) -> None:
        with pytest.raises(IllegalError) as info:
            apply(new_round(BRITANNICA), Call(main))
        assert str(info.value) == (
            f"illegal main {main} in ruleset 'britannica-1911': the mains are 5, 6, 7, 8 and 9"
        )

    @pytest.mark.parametrize("main", [13, 1, 0, -7])
    def test_call_of_an_impossible_total(self, main: int) -> None:
        with pytest.raises(InvalidError) as info:
            apply(new_round(BRITANNICA), Call(main))
        assert str(info.value) == f"invalid main {main}: expected a total from 2 to 12"

    @pytest.mark.parametrize("action", ["3-4", 7, None, (3, 4)])
    def test_not_an_action(self, action: object) -> None:
        with pytest.raises(InvalidError) as info:
            apply(new_round(BRITANNICA), action)  # type: ignore[arg-type]
        assert str(info.value) == (
            f"invalid action {action!r}: expected a main to call or a roll of two dice"
        )

    def test_errors_are_value_errors(self) -> None:
        with pytest.raises(ValueError, match="illegal throw"):
            apply(new_round(BRITANNICA), Roll(3, 4))


class TestChanceOutcomes:
    @pytest.mark.parametrize(
        "state",
        [
            Round(BRITANNICA, Phase.OPENING, main=7),
            Round(BRITANNICA, Phase.CHANCE, main=7, chance=4),
            new_round(ECWS),
            new_round(SCA),
            new_round(CRAPS),
        ],
        ids=str,
    )
    def test_thirty_six_throws_summing_to_one(self, state: Round) -> None:
        outcomes = chance_outcomes(state)
        assert [roll for roll, _ in outcomes] == list(ROLLS)
        assert all(probability == Fraction(1, 36) for _, probability in outcomes)
        assert sum(probability for _, probability in outcomes) == 1

    def test_refused_when_the_caster_must_call(self) -> None:
        with pytest.raises(IllegalError) as info:
            chance_outcomes(new_round(BRITANNICA))
        assert (
            str(info.value) == "illegal request for throws in round (no main yet): the dice are not to move"
        )

    def test_refused_when_the_round_is_over(self) -> None:
        over, _ = apply(called(BRITANNICA, 5), Roll(1, 1))
        with pytest.raises(
            IllegalError, match=r"round \(over: thrown out on a main of 5.*the dice are not to move"
        ):
            chance_outcomes(over)


class TestLegalActions:
    def test_caster_calls_any_main_in_order(self) -> None:
        actions = legal_actions(new_round(BRITANNICA))
        assert actions == [Call(5), Call(6), Call(7), Call(8), Call(9)]
        assert actions == sorted(actions)

    def test_dice_throw_the_36_outcomes_in_order(self) -> None:
        actions = legal_actions(called(BRITANNICA, 7))
        assert actions == list(ROLLS)
        assert actions == sorted(actions)  # type: ignore[type-var]

    def test_nothing_when_over(self) -> None:
        over, _ = apply(called(BRITANNICA, 7), Roll(3, 4))
        assert legal_actions(over) == []

    @pytest.mark.parametrize(
        ("state", "mover"),
        [
            (new_round(BRITANNICA), Mover.CASTER),
            (new_round(ECWS), Mover.DICE),
            (new_round(SCA), Mover.DICE),
            (new_round(CRAPS), Mover.DICE),
            (Round(BRITANNICA, Phase.CHANCE, main=7, chance=4), Mover.DICE),
            (Round(BRITANNICA, Phase.OVER, main=7, termination=Termination.NICK), Mover.TERMINAL),
        ],
        ids=str,
    )
    def test_to_move(self, state: Round, mover: Mover) -> None:
        assert to_move(state) is mover

    @pytest.mark.parametrize("ruleset", builtin_rulesets(), ids=lambda r: r.id)
    def test_every_legal_action_applies(self, ruleset: Ruleset) -> None:
        for state in reachable(ruleset):
            for action in legal_actions(state):
                apply(state, action)


# --- Properties over random rulesets ---


def reachable(ruleset: Ruleset) -> set[Round]:
    """Every state a round under ``ruleset`` can reach, by breadth-first search over the legal actions."""
    start = new_round(ruleset)
    seen = {start}
    queue = deque([start])
    while queue:
        state = queue.popleft()
        for action in legal_actions(state):
            new, _ = apply(state, action)
            if new not in seen:
                seen.add(new)
                queue.append(new)
    return seen


def _successors(state: Round) -> set[Round]:
    return {apply(state, action)[0] for action in legal_actions(state)}


@settings(max_examples=60, deadline=None)
@given(rulesets())
def test_every_reachable_state_can_move_or_is_over(ruleset: Ruleset) -> None:
    states = reachable(ruleset)
    for state in states:
        mover = to_move(state)
        if state.is_over:
            assert mover is Mover.TERMINAL
            assert legal_actions(state) == []
            assert state.outcome is not None
            with pytest.raises(IllegalError):
                chance_outcomes(state)
            with pytest.raises(IllegalError):
                chance_totals(state)
        elif mover is Mover.CASTER:
            assert ruleset.method is MainMethod.CALLED
            assert legal_actions(state) == [Call(main) for main in ruleset.mains]
            with pytest.raises(IllegalError):
                chance_outcomes(state)
            with pytest.raises(IllegalError):
                chance_totals(state)
        else:
            outcomes = chance_outcomes(state)
            assert sum(p for _, p in outcomes) == 1
            assert [roll for roll, _ in outcomes] == legal_actions(state)
            # A throw's effect is its total's: each of chance_totals stands for its total's rolls.
            by_total = chance_totals(state)
            assert [(roll.total, p) for roll, p in by_total] == [(t, total_probability(t)) for t in TOTALS]
            shown = {roll.total: apply(state, roll)[0] for roll, _ in by_total}
            assert all(apply(state, roll)[0] == shown[roll.total] for roll in ROLLS)
    # From every state some path leads to the end of the round (the chain is absorbing).
    finishing = {state for state in states if state.is_over}
    changed = True
    while changed:
        changed = False
        for state in states - finishing:
            if _successors(state) & finishing:
                finishing.add(state)
                changed = True
    assert finishing == states


@settings(max_examples=60, deadline=None)
@given(rulesets())
def test_reachable_states_are_the_expected_ones(ruleset: Ruleset) -> None:
    states = reachable(ruleset)
    live = {(s.phase, s.main, s.chance) for s in states if not s.is_over}
    expected: set[tuple[Phase, int | None, int | None]] = set()
    if ruleset.method is not MainMethod.FIXED:
        expected.add((Phase.MAIN, None, None))
    for row in ruleset.rows:
        expected.add((Phase.OPENING, row.main, None))
        expected |= {(Phase.CHANCE, row.main, chance) for chance in row.chances}
    assert live == expected
    endings = {s.termination for s in states if s.is_over}
    possible = set()
    for row in ruleset.rows:
        possible |= {Termination.NICK} if row.nicks else set()
        possible |= {Termination.OUT} if row.outs else set()
        possible |= {Termination.CHANCE, Termination.MAIN} if row.chances else set()
    if ruleset.method is MainMethod.THROWN_OR_PASS and len(ruleset.mains) < len(TOTALS):
        possible.add(Termination.NO_MAIN)
    assert endings == possible


@settings(max_examples=80, deadline=None)
@given(rulesets(), st.data())
def test_each_throw_follows_the_row(ruleset: Ruleset, data: st.DataObject) -> None:
    main = data.draw(st.sampled_from(ruleset.mains))
    roll = data.draw(rolls())
    row = ruleset.row(main)
    state, events = apply(Round(ruleset, Phase.OPENING, main=main), roll)
    expected = {
        Opening.NICK: Nick(roll, main),
        Opening.OUT: ThrowOut(roll, main),
        Opening.CHANCE: ChanceSet(roll, main),
        Opening.AGAIN: NoEffect(roll, main, None),
    }[row.opening(roll.total)]
    assert events == (expected,)
    phase, chance, termination = {
        Opening.NICK: (Phase.OVER, None, Termination.NICK),
        Opening.OUT: (Phase.OVER, None, Termination.OUT),
        Opening.CHANCE: (Phase.CHANCE, roll.total, None),
        Opening.AGAIN: (Phase.OPENING, None, None),
    }[row.opening(roll.total)]
    assert state == Round(ruleset, phase, main=main, chance=chance, termination=termination)
    if row.chances:
        chance = data.draw(st.sampled_from(sorted(row.chances)))
        before = Round(ruleset, Phase.CHANCE, main=main, chance=chance)
        state, events = apply(before, roll)
        if roll.total == chance:
            assert events == (ChanceWon(roll, main),)
            assert state == Round(ruleset, Phase.OVER, main, chance, Termination.CHANCE)
        elif roll.total == main:
            assert events == (MainWon(roll, chance),)
            assert state == Round(ruleset, Phase.OVER, main, chance, Termination.MAIN)
        else:
            assert events == (NoEffect(roll, main, chance),)
            assert state == before


CAP = 20_000
"""Far more actions than any round needs: each phase ends with probability at least 1/36 a throw."""


@pytest.mark.slow
@settings(max_examples=100, deadline=None)
@given(rulesets(), st.randoms(use_true_random=False))
def test_random_play_ends_with_a_consistent_outcome(ruleset: Ruleset, rng: random.Random) -> None:
    state = new_round(ruleset)
    actions: list[Action] = []
    events: list[Event] = []
    while not state.is_over:
        assert len(actions) < CAP, "the round did not end"
        action = rng.choice(legal_actions(state))
        actions.append(action)
        state, new = apply(state, action)
        assert new, "every action has an event"
        events.extend(new)
    outcome = state.outcome
    assert outcome is not None
    assert outcome.termination is state.termination
    last = actions[-1]
    assert isinstance(last, Roll)
    if outcome.termination is Termination.NO_MAIN:
        assert ruleset.method is MainMethod.THROWN_OR_PASS
        assert outcome.main is None
        assert last.total not in ruleset.mains
        assert events[-2:] == [NoMain(last), DicePassed(f"{last.total} is not a main")]
        assert len(actions) == 1
        return
    assert outcome.main in ruleset.mains
    row = ruleset.row(outcome.main)
    if outcome.termination is Termination.NICK:
        assert last.total in row.nicks
        assert outcome.chance is None
        assert events[-1] == Nick(last, outcome.main)
    elif outcome.termination is Termination.OUT:
        assert last.total in row.outs
        assert outcome.chance is None
        assert events[-1] == ThrowOut(last, outcome.main)
    elif outcome.termination is Termination.CHANCE:
        assert outcome.chance in row.chances
        assert last.total == outcome.chance
        assert events[-1] == ChanceWon(last, outcome.main)
    else:
        assert outcome.chance in row.chances
        assert last.total == outcome.main
        assert events[-1] == MainWon(last, outcome.chance)
    assert outcome.caster_wins == (outcome.termination in (Termination.NICK, Termination.CHANCE))
    # The main was set once, the chance at most once, and only the final event ends the round.
    assert sum(isinstance(e, MainCalled | MainThrown) for e in events) == (
        ruleset.method is not MainMethod.FIXED
    )
    assert sum(isinstance(e, ChanceSet) for e in events) == (outcome.chance is not None)
    ending = (Nick, ThrowOut, ChanceWon, MainWon, NoMain)
    assert [isinstance(e, ending) for e in events] == [False] * (len(events) - 1) + [True]
