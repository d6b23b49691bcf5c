"""When the dice pass: what a finished round does to the caster's hold on the dice, defined once.

Every layer derives from these functions: the table applies :func:`after_round` after each round, the exact
analyser sums the probability of each :class:`PassingEffect`, and the simulator compiles
:func:`passing_effect` into the per-outcome array its kernels read.

>>> from hazard.core.rules import DicePassing, LossCount
>>> craps = DicePassing(after_losses=1, losses=LossCount.AFTER_CHANCE)
>>> passing_effect(craps, Termination.OUT), passing_effect(craps, Termination.MAIN)
(<PassingEffect.KEEP: 'keep'>, <PassingEffect.COUNT: 'count'>)
>>> after_round(DicePassing(after_losses=3), 2, Termination.OUT)
(0, True)
"""

from __future__ import annotations

import enum

from hazard.core.errors import InvalidError, quoted
from hazard.core.rules import DicePassing, LossCount, MainMethod, Ruleset, totals_text
from hazard.core.state import Result, Termination

__all__ = ["PassingEffect", "after_round", "passing_effect", "passing_text"]


class PassingEffect(enum.Enum):
    """What a finished round does to the caster's hold on the dice."""

    CLEAR = "clear"
    """A win: the count of losses in a row starts again."""
    COUNT = "count"
    """A loss the rule counts: one more in the row."""
    KEEP = "keep"
    """A loss the rule does not count (an out, under 'after-chance'), or any loss where losses never pass the
    dice: the count stays."""
    PASS = "pass"
    """The dice pass at once: the throw for the main was no main (thrown-or-pass)."""


def passing_effect(passing: DicePassing, termination: Termination) -> PassingEffect:
    """What a round that ended by ``termination`` does under ``passing``.

    >>> passing_effect(DicePassing(after_losses=0), Termination.OUT)
    <PassingEffect.KEEP: 'keep'>
    >>> passing_effect(DicePassing(after_losses=3), Termination.NO_MAIN)
    <PassingEffect.PASS: 'pass'>
    """
    result = termination.result
    if result is Result.NO_ROUND:
        return PassingEffect.PASS
    if result is Result.CASTER_WINS:
        return PassingEffect.CLEAR
    if passing.by_losses and (passing.losses is LossCount.ANY or termination is Termination.MAIN):
        return PassingEffect.COUNT
    return PassingEffect.KEEP


def after_round(passing: DicePassing, losses_in_row: int, termination: Termination) -> tuple[int, bool]:
    """The losses in a row after a round that ended so, and whether the dice pass now (the count is 0 once
    they pass).

    ``losses_in_row`` is the count before the round: from 0 to one less than ``passing.after_losses`` (0
    where losses never pass the dice); anything else is an :class:`InvalidError`.

    >>> three = DicePassing(after_losses=3)
    >>> after_round(three, 0, Termination.MAIN), after_round(three, 2, Termination.NICK)
    ((1, False), (0, False))
    """
    most = max(passing.after_losses - 1, 0)
    if (
        isinstance(losses_in_row, bool)
        or not isinstance(losses_in_row, int)
        or not 0 <= losses_in_row <= most
    ):
        raise InvalidError(
            f"invalid count of losses in a row {quoted(losses_in_row)}: expected a whole number from 0 to "
            f"{most} ({passing.describe()})"
        )
    effect = passing_effect(passing, termination)
    if effect is PassingEffect.PASS:
        return 0, True
    if effect is PassingEffect.CLEAR:
        return 0, False
    if effect is PassingEffect.KEEP:
        return losses_in_row, False
    losses = losses_in_row + 1
    if losses >= passing.after_losses:
        return 0, True
    return losses, False


def passing_text(ruleset: Ruleset) -> str:
    """The whole rule in words: the losses part (:meth:`DicePassing.describe`) plus, for a thrown-or-pass
    main, that a throw for the main outside the mains passes the dice too.

    >>> from hazard.core.rulesets import find_ruleset
    >>> passing_text(find_ruleset("sca-isenfir"))
    'every lost round passes the dice; so does a throw for the main outside 5, 6, 7, 8 and 9'
    >>> passing_text(find_ruleset("wikipedia"))
    'the dice pass after 3 lost rounds in a row'
    """
    passing = ruleset.passing
    if ruleset.method is not MainMethod.THROWN_OR_PASS:
        return passing.describe()
    outside = f"a throw for the main outside {totals_text(ruleset.mains)}"
    if passing.by_losses:
        return f"{passing.describe()}; so does {outside}"
    # describe() would say the caster keeps the dice until giving them up, which a main out of range belies.
    return f"losing never passes the dice, but {outside} does"
