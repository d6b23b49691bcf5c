"""How long a caster keeps the dice under a ruleset's passing rule, exactly and in closed form.

Each attempt either passes the dice with no round (a thrown main outside the mains, where the ruleset says
so) or plays a round, and what it does to the caster's hold on the dice is the core's
:func:`~hazard.core.passing.passing_effect`: a win clears the count of losses in a row (CLEAR), a loss the
rule counts adds one (COUNT), a loss it does not count leaves the count (KEEP), and a throw for the main
outside the mains passes the dice at once (PASS). With ``w``, ``c``, ``k`` and ``q`` the probabilities of
those four effects per attempt (they sum to 1) and ``n`` the count that passes the dice, the expected number
of rounds played before the dice pass is, by a renewal argument,

    E = (1 - q) L / (m - w L),   where m = 1 - k = w + c + q and L = 1 + r + r² + ... + r^(n-1), r = c / m.

*Derivation.* A KEEP changes nothing but adds a round, so leave the KEEPs out: between two attempts that do
something there is a geometric number of them, and the attempts that do something are CLEAR, COUNT and PASS
with probabilities ``w/m``, ``c/m`` and ``q/m``. Cut those attempts into cycles, each starting with no loss
in the row and ending at the first CLEAR, PASS or ``n``-th COUNT in a row. A cycle reaches its ``j``-th
attempt only if the ``j - 1`` before were all COUNT, with probability ``r^(j-1)``; so a cycle holds ``L``
attempts on average, and ends with a CLEAR (the next cycle starts afresh) with probability ``(w/m) L``. The
cycles are independent, so the number of them is geometric and the attempts that do something number
``L / (1 - (w/m) L)`` on average. Each of those takes ``1/m`` attempts on average, KEEPs included, and an
attempt is a round with probability ``1 - q`` whatever came before, so by Wald's identity the rounds number
``(1 - q) / m`` times as many: the formula above. Where losses never pass the dice (``n = 0``, so ``c = 0``)
it is the same with ``L = 1``: ``(1 - q) / q``, the rounds before the first PASS. The dice never pass, and
there is no finite expectation, when ``c = q = 0``.

``L`` is a geometric sum, ``(1 - r^n) / (1 - r)`` (or ``n`` when ``r = 1``): two powers by repeated squaring,
so the cost is O(log n) multiplications of fractions. The answer itself has about ``n`` times as many digits
as ``r``, which is why :class:`~hazard.core.rules.DicePassing` refuses a count above
:data:`~hazard.core.rules.MAX_AFTER_LOSSES`.
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction

from hazard.analysis.markov import total
from hazard.core.errors import InvalidError
from hazard.core.passing import PassingEffect, passing_effect
from hazard.core.rules import DicePassing
from hazard.core.state import Outcome

__all__ = ["effect_probabilities", "expected_rounds_kept", "rounds_kept"]

_ZERO = Fraction(0)


def rounds_kept(effects: Mapping[PassingEffect, Fraction], after_losses: int) -> Fraction | None:
    """Expected rounds played before the dice pass, from each effect's probability per attempt.

    ``effects`` maps each :class:`PassingEffect` to its probability (missing ones are 0; they sum to 1);
    ``after_losses`` is the count of counted losses in a row that passes the dice (0: losses never do, so
    COUNT must have probability 0). None where the dice never pass.

    >>> half = Fraction(1, 2)
    >>> rounds_kept({PassingEffect.CLEAR: half, PassingEffect.COUNT: half}, 2)  # two tails in a row
    Fraction(6, 1)
    >>> rounds_kept({PassingEffect.KEEP: Fraction(2, 3), PassingEffect.PASS: Fraction(1, 3)}, 0)
    Fraction(2, 1)
    >>> rounds_kept({PassingEffect.CLEAR: Fraction(1)}, 3) is None
    True
    """
    w, c, k, q = (Fraction(effects.get(effect, _ZERO)) for effect in PassingEffect)
    if min(w, c, k, q) < 0 or w + c + k + q != 1:
        shown = ", ".join(f"{e.value} {p}" for e, p in zip(PassingEffect, (w, c, k, q), strict=True))
        raise InvalidError(
            f"invalid passing effects ({shown}): expected probabilities from 0 to 1 summing to 1"
        )
    if after_losses < 0 or (after_losses == 0 and c):
        raise InvalidError(
            f"invalid count {after_losses!r} that passes the dice with counted losses of probability {c}: "
            "expected 1 or more"
        )
    if c == 0 and q == 0:
        return None  # nothing ever passes the dice: no finite expectation
    m = 1 - k
    r = c / m
    n = max(after_losses, 1)  # with n = 0 no loss counts (c = 0), and the sum is its first term alone
    geometric = Fraction(n) if r == 1 else (1 - r**n) / (1 - r)
    return (1 - q) * geometric / (m - w * geometric)


def effect_probabilities(
    passing: DicePassing, outcomes: Mapping[Outcome, Fraction], p_no_round: Fraction = _ZERO
) -> dict[PassingEffect, Fraction]:
    """The probability of each :class:`PassingEffect` per attempt (every effect present, zeros included).

    ``outcomes`` is the distribution of a played round's outcome; ``p_no_round`` the probability that an
    attempt passes the dice before any round.
    """
    played = 1 - p_no_round
    effects = dict.fromkeys(PassingEffect, _ZERO)
    for outcome, p in outcomes.items():
        effects[passing_effect(passing, outcome.termination)] += played * p
    effects[PassingEffect.PASS] += p_no_round
    return effects


def expected_rounds_kept(
    passing: DicePassing, outcomes: Mapping[Outcome, Fraction], p_no_round: Fraction = _ZERO
) -> Fraction | None:
    """Expected rounds a caster plays before passing the dice; None if the dice never pass.

    ``outcomes`` is the distribution of a played round's outcome; ``p_no_round`` the probability that an
    attempt passes the dice before any round.

    >>> from hazard.core.state import Outcome, Termination
    >>> coin = {Outcome(Termination.NICK, 7): Fraction(1, 2), Outcome(Termination.OUT, 7): Fraction(1, 2)}
    >>> expected_rounds_kept(DicePassing(after_losses=1), coin)
    Fraction(2, 1)
    >>> expected_rounds_kept(DicePassing(after_losses=2), coin)
    Fraction(6, 1)
    """
    if total(outcomes.values()) != 1:
        raise InvalidError(
            f"invalid outcome distribution: its probabilities sum to {total(outcomes.values())}, expected 1"
        )
    return rounds_kept(effect_probabilities(passing, outcomes, p_no_round), passing.after_losses)
