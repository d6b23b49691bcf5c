"""The exact chance of the caster winning a round from wherever it stands now (for a table in play)."""

from __future__ import annotations

from fractions import Fraction
from functools import lru_cache

from hazard.analysis.markov import RoundChain
from hazard.core.engine import Mover, to_move
from hazard.core.state import Outcome, Round

__all__ = ["caster_chance"]


def caster_chance(state: Round) -> Fraction | None:
    """The probability that the caster wins the round from ``state``, or None where the dice do not move next
    (the caster has a main to call, or the round is over).

    >>> from hazard.core.engine import Call, apply, new_round
    >>> from hazard.core.rulesets import find_ruleset
    >>> on_six, _ = apply(new_round(find_ruleset("britannica-1911")), Call(6))
    >>> caster_chance(on_six)  # Chambers's 7,295 to 6,961 against the caster on a main of 6
    Fraction(6961, 14256)
    """
    if to_move(state) is not Mover.DICE:
        return None
    return _chance(state)


@lru_cache(maxsize=4096)
def _chance(state: Round) -> Fraction:
    # A table's rounds pass through a few dozen states, each solved once; the cache is bounded.
    return RoundChain.build(state).probability(_wins)


def _wins(outcome: Outcome) -> bool:
    return outcome.caster_wins
