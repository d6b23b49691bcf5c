"""Round state, outcomes and terminations."""

from __future__ import annotations

import dataclasses

import pytest

from hazard.core.dice import Roll
from hazard.core.engine import Call, apply, new_round
from hazard.core.rulesets import find_ruleset
from hazard.core.state import Outcome, Phase, Result, Round, Termination

BRITANNICA = find_ruleset("britannica-1911")


class TestRound:
    def test_worked_example_states(self) -> None:
        # 000_8ac2be41856246a3.txt: "Main 7; chance 6", then "continue rolling", then the caster wins.
        state = new_round(BRITANNICA)
        seen = [str(state)]
        for action in (Call(7), Roll(2, 4), Roll(3, 5), Roll(1, 5)):
            state, _ = apply(state, action)
            seen.append(str(state))
        assert seen == [
            "no main yet",
            "main 7, no chance yet",
            "main 7, chance 6",
            "main 7, chance 6",
            "over: the chance 6 came before the main 7: the caster wins",
        ]

    def test_defaults(self) -> None:
        state = Round(BRITANNICA, Phase.MAIN)
        assert (state.main, state.chance, state.termination) == (None, None, None)
        assert not state.is_over
        assert state.outcome is None

    @pytest.mark.parametrize("phase", [Phase.MAIN, Phase.OPENING, Phase.CHANCE])
    def test_no_outcome_while_the_round_goes_on(self, phase: Phase) -> None:
        state = Round(BRITANNICA, phase, main=7, chance=6 if phase is Phase.CHANCE else None)
        assert not state.is_over
        assert state.outcome is None

    def test_outcome_when_over(self) -> None:
        state = Round(BRITANNICA, Phase.OVER, main=8, chance=4, termination=Termination.MAIN)
        assert state.is_over
        assert state.outcome == Outcome(Termination.MAIN, 8, 4)

    def test_frozen_hashable_and_compared_by_value(self) -> None:
        state = Round(BRITANNICA, Phase.OPENING, main=7)
        with pytest.raises(dataclasses.FrozenInstanceError):
            state.main = 6  # type: ignore[misc]
        assert state == Round(find_ruleset("britannica"), Phase.OPENING, main=7)
        assert state != Round(BRITANNICA, Phase.OPENING, main=6)
        assert state != Round(find_ruleset("wikipedia"), Phase.OPENING, main=7)
        assert len({state, Round(BRITANNICA, Phase.OPENING, main=7)}) == 1


class TestOutcome:
    @pytest.mark.parametrize(
        ("termination", "result"),
        [
            (Termination.NICK, Result.CASTER_WINS),
            (Termination.CHANCE, Result.CASTER_WINS),
            (Termination.OUT, Result.CASTER_LOSES),
            (Termination.MAIN, Result.CASTER_LOSES),
            (Termination.NO_MAIN, Result.NO_ROUND),
        ],
    )
    def test_result(self, termination: Termination, result: Result) -> None:
        assert termination.result is result
        outcome = Outcome(termination, None if termination is Termination.NO_MAIN else 7, None)
        assert outcome.result is result
        assert outcome.caster_wins == (result is Result.CASTER_WINS)

    @pytest.mark.parametrize(
        ("outcome", "text"),
        [
            (Outcome(Termination.NO_MAIN, None), "no main was thrown; the dice pass"),
            (Outcome(Termination.NICK, 6), "nick on a main of 6: the caster wins"),
            (Outcome(Termination.OUT, 9), "thrown out on a main of 9: the caster loses"),
            (Outcome(Termination.CHANCE, 7, 4), "the chance 4 came before the main 7: the caster wins"),
            (Outcome(Termination.MAIN, 7, 4), "the main 7 came before the chance 4: the caster loses"),
        ],
    )
    def test_str(self, outcome: Outcome, text: str) -> None:
        assert str(outcome) == text

    def test_values(self) -> None:
        assert [p.value for p in Phase] == ["main", "opening", "chance", "over"]
        assert [r.value for r in Result] == ["caster-wins", "caster-loses", "no-round"]
        assert [t.value for t in Termination] == ["nick", "out", "chance", "main", "no-main"]

    def test_chance_defaults_to_none(self) -> None:
        assert Outcome(Termination.NICK, 7).chance is None
