"""A ruleset compiled into arrays: for each state a round can be in and each of the 36 throws, what follows.

The tables are built from the rules engine itself, never written by hand: starting from the first state of a
round, every state reachable by :func:`~hazard.core.engine.apply` over the 36 rolls is collected (as the exact
analyser does), and each (state, roll) pair is compiled into one packed integer:

- bits 0-15: the offset (``state * 36``) of the state the throw leads to; a throw that ends the round leads
  back to the start of the next round;
- bit 16: 1 when the step is a throw of the dice, 0 for a draw that only picks the main the caster calls;
- bits 17 and up: 0 when the round goes on, else 1 + the index of the outcome in
  :attr:`CompiledRules.outcomes`.

Digit ``d`` (0 to 35) is the roll ``Roll(d // 6 + 1, d % 6 + 1)``. A caster who calls a main at random (the
policy used when no main is given for a called-main ruleset) is a state of its own at the start, whose digits
pick a main uniformly: digit ``d`` calls main ``d % k`` of the ``k`` mains when ``d < 36 - 36 % k`` and draws
again otherwise.

>>> from hazard.core.rulesets import find_ruleset
>>> table = compile_rules(find_ruleset("craps"))
>>> len(table.states), len(table.outcomes)
(7, 14)
"""

from __future__ import annotations

import dataclasses
from array import array
from dataclasses import dataclass
from typing import Any

from hazard.core.dice import ROLLS, Roll
from hazard.core.engine import Call, Mover, apply, new_round, to_move
from hazard.core.errors import IllegalError, InvalidError
from hazard.core.passing import PassingEffect, passing_effect
from hazard.core.rules import MainMethod, Ruleset
from hazard.core.state import Outcome, Result, Round, Termination

__all__ = [
    "CODE_SHIFT",
    "HAND_BUCKETS",
    "NEXT_MASK",
    "TALLY_WAYS",
    "THROW_BIT",
    "THROW_BUCKETS",
    "CompiledRules",
    "compile_rules",
    "on_main",
    "roll_of",
    "zeros",
]

NEXT_MASK = 0xFFFF
"""Bits of an entry holding the offset of the next state."""
THROW_BIT = 16
"""Bit of an entry that is set when the step is a throw of the dice."""
CODE_SHIFT = 17
"""Shift of the outcome code in an entry (0: the round goes on)."""

THROW_BUCKETS = 64
"""Rounds are counted by number of throws up to 62; bucket 63 holds every longer round."""
HAND_BUCKETS = 64
"""Hands are counted by rounds kept up to 62; bucket 63 holds every longer hand."""
TALLY_WAYS = 4
"""Copies of each tally that the kernels write in turn (then added up)."""

_SIDES = 6
_MAX_STATES = (NEXT_MASK + 1) // len(ROLLS)


def zeros(kind: str, size: int) -> array[Any]:
    """``size`` zeros in an array of 8-byte ``kind`` items (``q``, ``Q`` or ``d``): what the kernels read."""
    return array(kind, bytes(8 * size))


def roll_of(digit: int) -> Roll:
    """The roll a digit from 0 to 35 stands for.

    >>> roll_of(0), roll_of(35), roll_of(15)
    (Roll(a=1, b=1), Roll(a=6, b=6), Roll(a=3, b=4))
    """
    if not 0 <= digit < len(ROLLS):
        raise InvalidError(f"invalid digit {digit!r}: expected 0 to 35")
    return Roll(digit // _SIDES + 1, digit % _SIDES + 1)


def on_main(ruleset: Ruleset, main: int) -> Ruleset:
    """``ruleset`` with every round played on ``main``: a fixed main, the same row and dice passing.

    For a called main this is the caster calling ``main`` every round; for a thrown main, every round as if
    ``main`` had been thrown, from the opening throw (no throws for the main, so no dice passed before a main
    is set). It is what ``--main`` means, and the exact analyser's row for ``main``.

    >>> from hazard.core.rulesets import find_ruleset
    >>> on_main(find_ruleset("ecws"), 6).mains
    (6,)
    """
    row = ruleset.row(main)  # raises on a main the ruleset does not have
    return dataclasses.replace(ruleset, method=MainMethod.FIXED, rows=(row,))


@dataclass(frozen=True, eq=False)
class CompiledRules:
    """The compiled transitions of one ruleset, and what each outcome code means.

    Build one with :func:`compile_rules`.
    """

    ruleset: Ruleset
    main: int | None
    """The main every round is played on, or None where it is thrown or called at random."""
    states: tuple[Round | None, ...]
    """Every state a round can be in; None for the state in which a main is drawn for the caster."""
    start: int
    """Index of the state each round starts in."""
    entries: array[int]
    """The packed transitions, ``states * 36`` of them (unsigned 64-bit): ``entries[state * 36 + digit]``."""
    outcomes: tuple[Outcome, ...]
    """Every way a round can end; outcome code ``k`` is ``outcomes[k - 1]``."""

    def __repr__(self) -> str:
        # One line: the packed transitions and states are some 95 KB as a dataclass's repr, and every
        # study's counts and tallies hold their table.
        main = (
            str(self.main)
            if self.main is not None
            else "thrown"
            if self.ruleset.method.is_thrown
            else "called"
        )
        return (
            f"<CompiledRules {self.ruleset.id}, main {main}: {len(self.states)} states, "
            f"{len(self.outcomes)} outcomes>"
        )

    @property
    def codes(self) -> int:
        """The number of outcome codes, 0 (the round goes on) included."""
        return len(self.outcomes) + 1

    def code_flags(self) -> dict[str, list[bool]]:
        """Flags by outcome code: ``win``, ``nick``, ``out``, ``no_main``."""
        flags = {name: [False] * self.codes for name in _FLAG_NAMES}
        for code, outcome in enumerate(self.outcomes, start=1):
            termination = outcome.termination
            flags["win"][code] = outcome.result is Result.CASTER_WINS
            flags["nick"][code] = termination is Termination.NICK
            flags["out"][code] = termination is Termination.OUT
            flags["no_main"][code] = termination is Termination.NO_MAIN
        return flags

    def passing_rule(self) -> array[int]:
        """The ruleset's dice-passing rule as the kernels read it: a signed 64-bit array by outcome code.

        Compiled from :func:`hazard.core.passing.passing_effect`, outcome by outcome, as the entries are
        compiled from the engine: ``rule[code]`` has bit 0 for :attr:`~PassingEffect.CLEAR` (a win, which the
        session kernel also reads for the staking), bit 1 for :attr:`~PassingEffect.COUNT`, bit 2 for
        :attr:`~PassingEffect.PASS`, and none for :attr:`~PassingEffect.KEEP`; ``rule[0]`` is the number of
        counted losses in a row that pass the dice (0: never).

        >>> from hazard.core.rulesets import find_ruleset
        >>> table = compile_rules(find_ruleset("craps"))  # the dice pass on a seven-out; an out keeps them
        >>> rule = dict(zip(table.outcomes, table.passing_rule()[1:]))
        >>> out, nick, seven_out = Termination.OUT, Termination.NICK, Termination.MAIN
        >>> rule[Outcome(out, 7)], rule[Outcome(nick, 7)], rule[Outcome(seven_out, 7, 4)]
        (0, 1, 2)
        """
        passing = self.ruleset.passing
        rule = zeros("q", self.codes)
        rule[0] = passing.after_losses
        for code, outcome in enumerate(self.outcomes, start=1):
            effect = passing_effect(passing, outcome.termination)
            # The session kernel stakes on bit 0 as "the caster won": one and the same thing as a clear.
            assert (effect is PassingEffect.CLEAR) == outcome.caster_wins
            rule[code] = _PASSING_BITS[effect]
        return rule

    def code_values(self, values: dict[Outcome, float]) -> array[float]:
        """An array by outcome code from a value per outcome (0 for code 0 and any outcome left out)."""
        out = zeros("d", self.codes)
        for code, outcome in enumerate(self.outcomes, start=1):
            out[code] = values.get(outcome, 0.0)
        return out


_FLAG_NAMES = ("win", "nick", "out", "no_main")
_PASSING_BITS = {PassingEffect.CLEAR: 1, PassingEffect.COUNT: 2, PassingEffect.PASS: 4, PassingEffect.KEEP: 0}


def _starts(ruleset: Ruleset) -> list[Round]:
    first = new_round(ruleset)
    if ruleset.method is MainMethod.CALLED:
        return [apply(first, Call(main))[0] for main in ruleset.mains]
    return [first]


def compile_rules(ruleset: Ruleset, main: int | None = None) -> CompiledRules:
    """Compile ``ruleset`` into a :class:`CompiledRules`.

    With ``main``, every round is played on it (see :func:`on_main`). Without, a thrown or fixed main is
    played as the rules say, and a called main is called uniformly at random each round.
    """
    if main is not None:
        played = on_main(ruleset, main)
        return dataclasses.replace(_compile(played), ruleset=ruleset, main=main)
    table = _compile(ruleset)
    if ruleset.method is MainMethod.FIXED:
        return dataclasses.replace(table, main=ruleset.mains[0])
    return table


def _compile(ruleset: Ruleset) -> CompiledRules:
    starts = _starts(ruleset)
    choose = len(starts) > 1
    states: list[Round | None] = [None] if choose else []
    index: dict[Round, int] = {}
    for state in starts:
        index[state] = len(states)
        states.append(state)
    outcomes: list[Outcome] = []
    codes: dict[Outcome, int] = {}
    transitions: dict[tuple[int, int], tuple[int, bool, int]] = {}  # (state, digit) -> (next, throw, code)
    start = 0
    i = 1 if choose else 0
    while i < len(states):
        current = states[i]
        assert current is not None
        if (
            to_move(current) is not Mover.DICE
        ):  # pragma: no cover - the engine never leaves a choice mid-round
            raise IllegalError(f"illegal state in a simulation ({current}): a choice mid-round")
        for digit, roll in enumerate(ROLLS):
            after, _ = apply(current, roll)
            outcome = after.outcome
            if outcome is not None:
                code = codes.setdefault(outcome, len(outcomes) + 1)
                if code == len(outcomes) + 1:
                    outcomes.append(outcome)
                transitions[(i, digit)] = (start, True, code)
            else:
                j = index.setdefault(after, len(states))
                if j == len(states):
                    states.append(after)
                transitions[(i, digit)] = (j, True, 0)
        i += 1
    if choose:
        mains = len(starts)
        accept = len(ROLLS) - len(ROLLS) % mains
        for digit in range(len(ROLLS)):
            target = 1 + digit % mains if digit < accept else 0
            transitions[(0, digit)] = (target, False, 0)
    if len(states) > _MAX_STATES:  # pragma: no cover - no ruleset of two dice has this many
        raise InvalidError(f"invalid ruleset {ruleset.id!r}: {len(states)} states is too many to simulate")
    entries = zeros("Q", len(states) * len(ROLLS))
    for (state_index, digit), (target, throw, code) in transitions.items():
        entries[state_index * len(ROLLS) + digit] = (
            target * len(ROLLS) | (int(throw) << THROW_BIT) | (code << CODE_SHIFT)
        )
    return CompiledRules(
        ruleset=ruleset,
        main=None,
        states=tuple(states),
        start=start,
        entries=entries,
        outcomes=tuple(outcomes),
    )
