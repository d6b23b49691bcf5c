"""The side-bet drill's pure part: its score is the exact value of each decision, its offers are decided by
the seed, and its difficulty rises with the score."""

from __future__ import annotations

import math
from fractions import Fraction

import pytest

from hazard.analysis.bets import analyse_bet
from hazard.analysis.drill import (
    MAX_LEVEL,
    Answer,
    Drill,
    Judged,
    Offer,
    level_for,
    make_offer,
    points,
    seconds_at,
    spread_at,
    stated_odds_text,
)
from hazard.core.errors import InvalidError

# (proposition, stated odds, its probability by hand, the value of taking it for each unit staked by hand)
FIXED = [
    ("next 7", Fraction(6), Fraction(1, 6), Fraction(1, 6)),
    ("next 7", Fraction(4), Fraction(1, 6), Fraction(-1, 6)),
    ("next 7", Fraction(5), Fraction(1, 6), Fraction(0)),
    ("4 or 10 before 7", Fraction(1), Fraction(1, 2), Fraction(0)),
    ("6 before 7", Fraction(7, 5), Fraction(5, 11), Fraction(1, 11)),
    ("6 before 7", Fraction(1), Fraction(5, 11), Fraction(-1, 11)),
    ("2, 3, 11 or 12 within 3 throws", Fraction(1), Fraction(91, 216), Fraction(-17, 108)),
    ("doublets within 2 throws", Fraction(2), Fraction(11, 36), Fraction(-1, 12)),
    ("doublets within 2 throws", Fraction(3), Fraction(11, 36), Fraction(2, 9)),
    ("next odd", Fraction(9, 8), Fraction(1, 2), Fraction(1, 16)),
]


@pytest.mark.parametrize(("text", "odds", "probability", "value"), FIXED)
def test_each_decision_scores_its_exact_value(
    text: str, odds: Fraction, probability: Fraction, value: Fraction
) -> None:
    offer = Offer(1, 0, text, odds, 10.0, "generated")
    analysis = analyse_bet(text)
    assert analysis.probability == probability
    assert offer.value == value == analysis.value(odds) == probability * odds - (1 - probability)
    assert offer.fair_odds == analysis.fair_odds
    take = Judged(offer, Answer.TAKE, False, points(Answer.TAKE, offer.value))
    refuse = Judged(offer, Answer.REFUSE, False, points(Answer.REFUSE, offer.value))
    assert (take.points, refuse.points) == (value, 0)
    assert take.best == refuse.best == max(value, 0)
    assert (take.missed, refuse.missed) == (max(value, 0) - value, max(value, 0))
    # Exactly one decision is right, or both where the bet is worth nothing either way.
    assert (take.right, refuse.right) == ((True, True) if value == 0 else (value > 0, value < 0))
    assert offer.right is (Answer.TAKE if value > 0 else Answer.REFUSE)


def test_a_drill_scores_the_sum_of_its_decisions_and_a_late_answer_refuses() -> None:
    drill = Drill(seed=11, rounds=6, seconds=5)
    expected = Fraction(0)
    for number in range(6):
        offer = drill.offer()
        late = number == 2
        drill, judged = drill.answer(Answer.TAKE if number % 2 else offer.right, timed_out=late)
        assert judged.offer == offer
        assert judged.answer is (Answer.REFUSE if late else judged.answer)
        assert judged.timed_out is late
        expected += offer.value if judged.answer is Answer.TAKE else 0
    assert drill.over
    assert drill.score == expected
    assert drill.best == sum((max(j.offer.value, Fraction(0)) for j in drill.judged), Fraction(0))
    with pytest.raises(InvalidError, match="the drill is over"):
        drill.offer()


def test_the_offers_are_decided_by_the_seed() -> None:
    def played(seed: int) -> list[tuple[str, Fraction, int]]:
        drill, seen = Drill(seed=seed, rounds=12), []
        while not drill.over:
            offer = drill.offer()
            seen.append((offer.proposition, offer.odds, offer.level))
            drill, _ = drill.answer(offer.right)
        return seen

    assert played(5) == played(5)
    assert played(5) != played(6)
    assert make_offer(3, 4, 2, 10) == make_offer(3, 4, 2, 10)


def test_offers_come_from_both_kinds_and_are_both_good_and_bad() -> None:
    offers = [make_offer(seed, 1, level, 10) for seed in range(60) for level in (0, MAX_LEVEL)]
    assert {o.source for o in offers} == {"002", "generated"}
    assert any(o.value > 0 for o in offers)
    assert any(o.value < 0 for o in offers)
    assert all(o.odds != Fraction(*o.analysis.odds_against) for o in offers)
    kinds = {word for o in offers for word in ("next", "before", "within") if word in o.proposition.split()}
    assert kinds == {"next", "before", "within"}


def test_difficulty_rises_with_the_score() -> None:
    assert [level_for(Fraction(n, 8)) for n in (-8, 0, 1, 2, 3, 4, 8, 100)] == [0, 0, 0, 1, 1, 2, 4, 6]
    assert all(spread_at(n + 1) < spread_at(n) for n in range(MAX_LEVEL))
    assert [seconds_at(10, n) for n in range(4)] == [10.0, 9.0, 8.1, 7.3]
    assert seconds_at(1.5, MAX_LEVEL) == 1.0

    def closeness(level: int) -> float:  # how far the odds are from fair, on average over many offers
        offers = [make_offer(seed, 1, level, 10) for seed in range(80)]
        return sum(abs(float(o.odds / Fraction(*o.analysis.odds_against)) - 1) for o in offers) / len(offers)

    assert closeness(0) > closeness(3) > closeness(MAX_LEVEL)
    # A drill that answers right climbs, and its offers' time shortens.
    drill = Drill(seed=2, rounds=40, seconds=10)
    while not drill.over:
        drill, _ = drill.answer(drill.offer().right)
    levels = [j.offer.level for j in drill.judged]
    assert levels == sorted(levels)
    assert levels[-1] > 0
    assert drill.judged[-1].offer.seconds < drill.judged[0].offer.seconds


def test_stated_odds_in_words() -> None:
    assert (stated_odds_text(Fraction(1)), stated_odds_text(Fraction(7, 4))) == ("evens", "7 to 4")


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"seed": -1}, "invalid seed -1"),
        ({"seed": True}, "invalid seed"),
        ({"seed": 1, "rounds": 0}, "invalid rounds 0"),
        ({"seed": 1, "rounds": 101}, "invalid rounds 101"),
        ({"seed": 1, "seconds": math.nan}, "invalid seconds"),
        ({"seed": 1, "seconds": 0.5}, "invalid seconds 0.5"),
    ],
)
def test_a_drill_is_refused_out_of_bounds(kwargs: dict[str, object], message: str) -> None:
    with pytest.raises(InvalidError, match=message):
        Drill(**kwargs)  # type: ignore[arg-type]
