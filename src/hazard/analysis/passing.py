"""How long a caster keeps the dice under a ruleset's passing rule, exactly.

Each attempt either passes the dice with no round (a thrown main outside the mains, where the ruleset says
so) or plays a round. Counted losses build a streak that passes the dice when it reaches the rule's count;
a win clears the streak; a loss the rule does not count (an out, under "after-chance") leaves it as it is.
The expected number of rounds played before the dice pass solves a small linear system over the streak.
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction

from hazard.analysis.markov import invert, total
from hazard.core.rules import DicePassing, LossCount
from hazard.core.state import Outcome, Termination

__all__ = ["expected_rounds_kept"]


def _counted(passing: DicePassing, outcome: Outcome) -> bool:
    if outcome.caster_wins or not passing.by_losses:
        return False
    return passing.losses is LossCount.ANY or outcome.termination is Termination.MAIN


def expected_rounds_kept(
    passing: DicePassing, outcomes: Mapping[Outcome, Fraction], p_no_round: Fraction = Fraction(0)
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
    played = 1 - p_no_round
    p_loss = played * total(p for o, p in outcomes.items() if _counted(passing, o))
    p_win = played * total(p for o, p in outcomes.items() if o.caster_wins)
    p_other = played - p_loss - p_win  # uncounted losses
    streak = max(passing.after_losses, 1)
    # E_s = p_loss (1 + E_{s+1}, or 1 at the last step) + p_win (1 + E_0) + p_other (1 + E_s), for s < streak.
    system = []
    for s in range(streak):
        row = [Fraction(0)] * streak
        row[s] += 1 - p_other
        row[0] -= p_win
        if s + 1 < streak:
            row[s + 1] -= p_loss
        system.append(row)
    try:
        inverse = invert(system)
    except ZeroDivisionError:
        return None  # the dice never pass: no finite expectation
    if not passing.by_losses and p_no_round == 0:
        return None
    return total(inverse[0][j] * played for j in range(streak))
