"""The side-bet drill: propositions at stated odds, taken or refused against a clock, scored exactly.

002 has side bets offered and answered at once, so that a player in a hurry may take a very bad one. The
drill offers a proposition (one of 002's even-money bets, or
one made in the proposition language: ``A before B``, ``A within N throws``, ``next A``) at stated odds
``a to b``: the player may back it, staking ``b`` to win ``a``, or refuse it.

**The score.** A decision scores its exact expected gain for each unit staked, from the exact analyser
(:meth:`hazard.analysis.bets.BetAnalysis.value`): taking a bet of value ``v`` scores ``v`` (a gain where the
stated odds are longer than the fair odds, a loss where shorter), refusing it scores ``0``. An answer after
the clock is a refusal. The best decision scores ``max(v, 0)``; what a decision *missed* is the best's score
less its own, so a perfect drill misses nothing and its score is the sum of the good bets' values.

**Difficulty** rises with the score: the level is the score in quarters of a unit (0 to :data:`MAX_LEVEL`);
each level offers odds closer to the fair odds and gives less time to answer.

Everything is decided by the seed: round ``k`` of a drill at level ``L`` is always the same offer.

>>> drill = Drill(seed=7)
>>> offer = drill.offer()
>>> offer.round, offer.level
(1, 0)
>>> after, judged = drill.answer(Answer.TAKE)
>>> judged.points == offer.value, after.round
(True, 2)
"""

from __future__ import annotations

import enum
import math
import random
from dataclasses import dataclass, field, replace
from fractions import Fraction

from hazard.analysis.bets import BetAnalysis, analyse_bet
from hazard.core.errors import HazardError, InvalidError, quoted
from hazard.core.propositions import SOURCE_BETS

__all__ = [
    "LEVEL_STEP",
    "MAX_LEVEL",
    "MAX_ROUNDS",
    "MAX_SECONDS",
    "MAX_SEED",
    "MIN_SECONDS",
    "Answer",
    "Drill",
    "Judged",
    "Offer",
    "level_for",
    "make_offer",
    "points",
    "seconds_at",
    "spread_at",
    "stated_odds_text",
]

MAX_LEVEL = 6
"""The hardest level."""
LEVEL_STEP = Fraction(1, 4)
"""How much score (units of expected gain per unit staked) takes the drill up one level."""
MAX_ROUNDS = 100
"""The most propositions of one drill."""
MAX_SECONDS = 120.0
"""The longest time given to answer one (at the first level)."""
MIN_SECONDS = 1.0
"""The shortest time a drill may give, at any level."""
MAX_SEED = 2**63 - 1
"""The largest seed."""
_TRIES = 1000

_SETS = (
    "7",
    "6",
    "8",
    "6 or 8",
    "4 or 10",
    "5 or 9",
    "2, 3 or 12",
    "11",
    "12",
    "2 or 12",
    "doublets",
    "odd",
    "below 5",
    "above 9",
)
_WITHIN = (2, 3, 4, 5, 6)


class Answer(enum.Enum):
    """What the player does with an offer."""

    TAKE = "take"
    REFUSE = "refuse"


def points(answer: Answer, value: Fraction) -> Fraction:
    """A decision's score: the value taken (``value`` per unit staked) where it is taken, 0 where refused.

    >>> points(Answer.TAKE, Fraction(-1, 6)), points(Answer.REFUSE, Fraction(-1, 6))
    (Fraction(-1, 6), Fraction(0, 1))
    """
    return value if answer is Answer.TAKE else Fraction(0)


def level_for(score: Fraction) -> int:
    """The level a drill's score puts it at: one up for each :data:`LEVEL_STEP`, from 0 to :data:`MAX_LEVEL`.

    >>> level_for(Fraction(-1)), level_for(Fraction(1, 4)), level_for(Fraction(100))
    (0, 1, 6)
    """
    return max(0, min(MAX_LEVEL, math.floor(score / LEVEL_STEP)))


def spread_at(level: int) -> Fraction:
    """How far, at most, the stated odds lie from the fair odds at ``level``, as a share of the fair odds:
    a half at level 0, two thirds of that at each level up."""
    return Fraction(1, 2) * Fraction(2, 3) ** level


def seconds_at(seconds: float, level: int) -> float:
    """The time to answer at ``level``, when the first level gives ``seconds``: a tenth less each level up,
    never under :data:`MIN_SECONDS`."""
    return max(MIN_SECONDS, round(seconds * 0.9**level, 1))


def stated_odds_text(odds: Fraction) -> str:
    """Odds as people state them: ``"evens"``, ``"7 to 4"``."""
    return "evens" if odds == 1 else f"{odds.numerator} to {odds.denominator}"


@dataclass(frozen=True, slots=True)
class Offer:
    """One proposition offered at stated odds: backing it stakes ``odds.denominator`` to win
    ``odds.numerator``."""

    round: int
    level: int
    proposition: str
    """Its normalised text (:func:`hazard.core.propositions.parse_proposition` reads it back)."""
    odds: Fraction
    """The stated odds: what the bet pays for each unit staked when it wins."""
    seconds: float
    """The time to answer, after which the offer is refused."""
    source: str
    """Where it comes from: ``"002"`` (the ECWS rules' even-money bets) or ``"generated"``."""
    analysis: BetAnalysis = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if self.odds <= 0:
            raise InvalidError(f"invalid odds {quoted(self.odds)}: expected odds above 0")
        object.__setattr__(self, "analysis", analyse_bet(self.proposition))

    @property
    def value(self) -> Fraction:
        """The exact expected gain of taking it, for each unit staked (refusing is worth 0)."""
        return self.analysis.value(self.odds)

    @property
    def right(self) -> Answer:
        """The better decision: take a bet worth more than nothing (refuse a fair one: it gains nothing)."""
        return Answer.TAKE if self.value > 0 else Answer.REFUSE

    @property
    def stated(self) -> str:
        """The stated odds in words."""
        return stated_odds_text(self.odds)

    @property
    def fair_odds(self) -> str:
        """The fair odds against it, from the exact analyser."""
        return self.analysis.fair_odds


@dataclass(frozen=True, slots=True)
class Judged:
    """An offer answered: the decision, its score, the best decision's, and the fair odds."""

    offer: Offer
    answer: Answer
    timed_out: bool
    points: Fraction
    """The decision's score (:func:`points`)."""

    @property
    def best(self) -> Fraction:
        """The best decision's score: ``max(value, 0)``."""
        return max(self.offer.value, Fraction(0))

    @property
    def missed(self) -> Fraction:
        """What this decision scored less than the best one: 0 for the right answer."""
        return self.best - self.points

    @property
    def right(self) -> bool:
        """Whether the decision was the best one (where both score 0, both are)."""
        return self.missed == 0


def _generated(stream: random.Random) -> str:
    kind = stream.randrange(3)
    first = stream.choice(_SETS)
    if kind == 0:
        second = stream.choice([s for s in _SETS if s != first])
        return f"{first} before {second}"
    if kind == 1:
        return f"{first} within {stream.choice(_WITHIN)} throws"
    return f"next {first}"


def make_offer(seed: int, round_number: int, level: int, seconds: float) -> Offer:
    """Round ``round_number``'s offer of the drill ``seed`` at ``level``, from a stream of its own (so a
    round is the same whatever came before): a proposition, one in four from 002's list, at stated odds of
    small whole numbers within :func:`spread_at` of the fair odds, never at them."""
    stream = random.Random(f"hazard-drill/{seed}/{round_number}/{level}")
    spread = spread_at(level)
    finest = 8 * 2 ** (level // 2)  # the harder, the finer the stated odds may be
    for _ in range(_TRIES):
        if stream.randrange(4) == 0:
            text, source = stream.choice(SOURCE_BETS), "002"
        else:
            text, source = _generated(stream), "generated"
        try:
            analysis = analyse_bet(text)
        except HazardError:  # two sets that overlap, or a bet that cannot lose: draw again
            continue
        against, on = analysis.odds_against
        fair = Fraction(against, on)
        shift = spread * Fraction(stream.randint(20, 100), 100) * stream.choice((-1, 1))
        odds = (fair * (1 + shift)).limit_denominator(finest if fair < 4 else finest // 8)
        if odds > 0 and odds != fair:
            return Offer(round_number, level, analysis.text, odds, seconds_at(seconds, level), source)
    # Never reached in practice (each try draws afresh); kept so that a drill always ends.
    return Offer(round_number, level, "next 7", Fraction(6), seconds_at(seconds, level), "generated")


@dataclass(frozen=True, slots=True)
class Drill:
    """A drill under way: its seed and length, the time the first level gives, and what has been judged."""

    seed: int
    rounds: int = 10
    seconds: float = 10.0
    judged: tuple[Judged, ...] = ()

    def __post_init__(self) -> None:
        if isinstance(self.seed, bool) or not isinstance(self.seed, int) or not 0 <= self.seed <= MAX_SEED:
            raise InvalidError(
                f"invalid seed {quoted(self.seed)}: expected a whole number from 0 to {MAX_SEED}"
            )
        if (
            isinstance(self.rounds, bool)
            or not isinstance(self.rounds, int)
            or not 1 <= self.rounds <= MAX_ROUNDS
        ):
            raise InvalidError(f"invalid rounds {quoted(self.rounds)}: expected 1 to {MAX_ROUNDS}")
        if not MIN_SECONDS <= self.seconds <= MAX_SECONDS:  # also refuses NaN
            raise InvalidError(
                f"invalid seconds {quoted(self.seconds)}: expected {MIN_SECONDS:g} to {MAX_SECONDS:g}"
            )

    @property
    def score(self) -> Fraction:
        """The sum of the decisions' scores."""
        return sum((j.points for j in self.judged), Fraction(0))

    @property
    def best(self) -> Fraction:
        """What the best decisions would have scored over the offers so far."""
        return sum((j.best for j in self.judged), Fraction(0))

    @property
    def level(self) -> int:
        """The level the score puts the next offer at."""
        return level_for(self.score)

    @property
    def round(self) -> int:
        """The number of the next offer."""
        return len(self.judged) + 1

    @property
    def over(self) -> bool:
        """Whether every offer has been answered."""
        return len(self.judged) >= self.rounds

    def offer(self) -> Offer:
        """The next offer; refused once the drill is over."""
        if self.over:
            raise InvalidError(f"no offer after round {self.rounds}: the drill is over")
        return make_offer(self.seed, self.round, self.level, self.seconds)

    def answer(self, answer: Answer, *, timed_out: bool = False) -> tuple[Drill, Judged]:
        """The drill once the next offer is answered (a timed-out answer is a refusal, whatever was given),
        and the judgement of it."""
        offer = self.offer()
        given = Answer.REFUSE if timed_out else answer
        judged = Judged(offer, given, timed_out, points(given, offer.value))
        return replace(self, judged=(*self.judged, judged)), judged
