"""The rules engine: a pure function from a round and an action to the next round and what happened.

The engine never rolls dice. A throw is an action like any other, chosen by whoever drives the game (a
random source, a person typing real dice, an exact evaluator weighing every outcome), and
:func:`chance_outcomes` lists the throws with their probabilities, as OpenSpiel's chance player does;
:func:`chance_totals` the same by totals, one throw for each, since a throw's effect is its total's.

>>> from hazard.core.rulesets import find_ruleset
>>> state = new_round(find_ruleset("britannica-1911"))
>>> state, events = apply(state, Call(7))
>>> state, events = apply(state, Roll(2, 4))
>>> [str(event) for event in events]
['6 with a main of 7 is the chance: the caster now needs 6 before 7']
>>> state, events = apply(state, Roll(1, 5))
>>> state.outcome.result
<Result.CASTER_WINS: 'caster-wins'>
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, replace
from fractions import Fraction

from hazard.core.dice import ROLLS, TOTALS, Roll, total_probability
from hazard.core.errors import IllegalError, InvalidError, quoted
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
from hazard.core.state import Phase, Round, Termination

__all__ = [
    "Action",
    "Call",
    "Mover",
    "apply",
    "chance_outcomes",
    "chance_totals",
    "legal_actions",
    "new_round",
    "to_move",
]


class Mover(enum.Enum):
    """Who acts next in a round."""

    CASTER = "caster"
    """The caster must call a main."""
    DICE = "dice"
    """The dice are thrown: a chance node."""
    TERMINAL = "terminal"
    """Nobody: the round is over."""


@dataclass(frozen=True, slots=True, order=True)
class Call:
    """The caster calls ``main``."""

    main: int

    def __str__(self) -> str:
        return f"call {self.main}"


Action = Call | Roll
"""A caster's call or a throw of the dice."""

_ROLL_PROBABILITY = Fraction(1, len(ROLLS))
# Each total once, shown by its first roll in ROLLS' order (so the totals come in that order's first
# appearances: 2 to 12), with the chance of the total.
_TOTAL_THROWS = tuple(
    (next(roll for roll in ROLLS if roll.total == total), total_probability(total)) for total in TOTALS
)


def new_round(ruleset: Ruleset) -> Round:
    """The state at the start of a round: no main yet, or the fixed main already set."""
    if ruleset.method is MainMethod.FIXED:
        return Round(ruleset, Phase.OPENING, main=ruleset.mains[0])
    return Round(ruleset, Phase.MAIN)


def to_move(state: Round) -> Mover:
    """Who acts next: the caster (calling a main), the dice, or nobody."""
    if state.phase is Phase.OVER:
        return Mover.TERMINAL
    if state.phase is Phase.MAIN and state.ruleset.method is MainMethod.CALLED:
        return Mover.CASTER
    return Mover.DICE


def legal_actions(state: Round) -> list[Action]:
    """Every action allowed now, sorted: the mains the caster may call, the 36 throws, or nothing."""
    mover = to_move(state)
    if mover is Mover.CASTER:
        return [Call(main) for main in state.ruleset.mains]
    if mover is Mover.DICE:
        return list(ROLLS)
    return []


def _dice_move(state: Round) -> None:
    """Refuse a request for the throws possible where the dice are not to move."""
    if to_move(state) is not Mover.DICE:
        raise IllegalError(f"illegal request for throws in round ({state}): the dice are not to move")


def chance_outcomes(state: Round) -> list[tuple[Roll, Fraction]]:
    """The throws possible now with their probabilities (36 outcomes of 1/36); only when the dice move."""
    _dice_move(state)
    return [(roll, _ROLL_PROBABILITY) for roll in ROLLS]


def chance_totals(state: Round) -> list[tuple[Roll, Fraction]]:
    """The totals possible now, each as one throw showing it with the total's probability (11 throws in
    all); only when the dice move. A throw does what its total does under every rule, so summing over these
    is summing over :func:`chance_outcomes`, in a third of the steps (the exact analysis's chains).

    >>> from hazard.core.rulesets import find_ruleset
    >>> [(str(roll), str(p)) for roll, p in chance_totals(new_round(find_ruleset("craps")))][5]
    ('1-6', '1/6')
    """
    _dice_move(state)
    return list(_TOTAL_THROWS)


def apply(state: Round, action: Action) -> tuple[Round, tuple[Event, ...]]:
    """Play ``action`` on ``state``; return the new state and the events, in order.

    Raises :class:`IllegalError` for an action the state does not allow (a throw while the caster must call,
    a main outside the ruleset's), and :class:`InvalidError` for something that is no action at all.
    """
    if isinstance(action, Call):
        return _call(state, action.main)
    if isinstance(action, Roll):
        return _throw(state, action)
    raise InvalidError(f"invalid action {quoted(action)}: expected a main to call or a roll of two dice")


def _call(state: Round, main: int) -> tuple[Round, tuple[Event, ...]]:
    if to_move(state) is not Mover.CASTER:
        if state.ruleset.method is MainMethod.FIXED:
            why = f"the main is always {state.ruleset.mains[0]} in {state.ruleset.id!r}"
        elif state.phase is Phase.MAIN:
            why = f"the main is thrown, not called, in {state.ruleset.id!r}"
        else:
            why = "the main is already set" if state.phase is not Phase.OVER else "the round is over"
        raise IllegalError(f"illegal call of main {quoted(main)} in round ({state}): {why}")
    state.ruleset.row(main)  # raises on a main the ruleset does not have
    return replace(state, phase=Phase.OPENING, main=main), (MainCalled(main),)


def _throw(state: Round, roll: Roll) -> tuple[Round, tuple[Event, ...]]:
    mover = to_move(state)
    if mover is not Mover.DICE:
        why = "the caster must call a main first" if mover is Mover.CASTER else "the round is over"
        raise IllegalError(f"illegal throw {roll} in round ({state}): {why}")
    total = roll.total
    ruleset = state.ruleset
    if state.phase is Phase.MAIN:
        if total in ruleset.mains:
            return replace(state, phase=Phase.OPENING, main=total), (MainThrown(roll),)
        if ruleset.method is MainMethod.THROWN:
            return state, (MainRethrown(roll),)
        over = replace(state, phase=Phase.OVER, termination=Termination.NO_MAIN)
        return over, (NoMain(roll), DicePassed(f"{total} is not a main"))
    assert state.main is not None  # set on leaving Phase.MAIN
    main = state.main
    if state.phase is Phase.OPENING:
        opening = ruleset.row(main).opening(total)
        if opening is Opening.NICK:
            return _end(state, Termination.NICK), (Nick(roll, main),)
        if opening is Opening.OUT:
            return _end(state, Termination.OUT), (ThrowOut(roll, main),)
        if opening is Opening.CHANCE:
            return replace(state, phase=Phase.CHANCE, chance=total), (ChanceSet(roll, main),)
        return state, (NoEffect(roll, main, None),)
    assert state.chance is not None  # Phase.CHANCE
    if total == state.chance:
        return _end(state, Termination.CHANCE), (ChanceWon(roll, main),)
    if total == main:
        return _end(state, Termination.MAIN), (MainWon(roll, state.chance),)
    return state, (NoEffect(roll, main, state.chance),)


def _end(state: Round, termination: Termination) -> Round:
    return replace(state, phase=Phase.OVER, termination=termination)
