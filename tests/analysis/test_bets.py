"""Exact odds of side bets: values by hand, a brute-force check over throw sequences, and the text forms."""

from __future__ import annotations

import json
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from tests.bounds import within_cpu
from tests.fuzzing import check_proposition_text, mutated_bets

from hazard.analysis.bets import BetAnalysis, analyse_bet, fair_odds, odds_against, probability, readable_odds
from hazard.core.dice import ROLLS, TOTALS
from hazard.core.errors import InvalidError
from hazard.core.propositions import (
    MAX_THROWS,
    SOURCE_BETS,
    Before,
    Next,
    Not,
    Proposition,
    RollSet,
    Tracker,
    Within,
    parse_proposition,
    start,
)

# --- values by hand -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("4 or 10 before 7", Fraction(1, 2)),  # 3 + 3 ways against 6
        ("odd before even", Fraction(1, 2)),  # 18 ways against 18
        ("below 7 before above 7", Fraction(1, 2)),  # 15 against 15
        ("6 before 8", Fraction(1, 2)),  # 5 against 5
        ("doublets before 7", Fraction(1, 2)),  # 6 against 6
        ("next odd", Fraction(1, 2)),
        ("2, 3, 11 or 12 within 3 throws", 1 - Fraction(30, 36) ** 3),
        ("2, 3, 11 or 12 within 3 throws", Fraction(91, 216)),
        ("7 before 4", Fraction(6, 9)),  # 6 ways against 3
        ("4 before 7", Fraction(1, 3)),
        ("12 before 7", Fraction(1, 7)),
        ("2 or 12 before 7", Fraction(2, 8)),
        ("next 7", Fraction(1, 6)),
        ("next 12", Fraction(1, 36)),
        ("next doublets", Fraction(1, 6)),
        ("next below 7", Fraction(15, 36)),
        ("next 10 or more", Fraction(6, 36)),
        ("7 within 1 throw", Fraction(1, 6)),
        ("7 within 2 throws", Fraction(11, 36)),
        ("doublets within 4 throws", 1 - Fraction(5, 6) ** 4),
        ("3 or more within 1 throw", Fraction(35, 36)),  # the nearest to a sure bet there is
        ("not 3 or more within 2 throws", Fraction(1, 36) ** 2),
        ("not 4 before 7", Fraction(2, 3)),
        ("not next 7", Fraction(5, 6)),
        ("not 7 within 2 throws", Fraction(25, 36)),
    ],
)
def test_probability_by_hand(text: str, expected: Fraction) -> None:
    assert probability(parse_proposition(text)) == expected
    assert probability(text) == expected


@pytest.mark.parametrize("text", SOURCE_BETS)
def test_every_source_bet_is_even(text: str) -> None:
    """The source calls all sixteen 'good even money bets': each is exactly a fair coin."""
    analysis = analyse_bet(text)
    assert analysis.probability == Fraction(1, 2)
    assert analysis.fair_odds == "1 to 1"
    assert analysis.ev_even_money == 0


def test_source_example_within_three_rolls_is_a_bad_bet() -> None:
    """'Even money the Caster will throw 2, 3, 11 or 12 in three rolls' favours whoever lays against it."""
    analysis = analyse_bet("Even money the Caster will throw 2, 3 ,11 or 12 in three rolls")
    assert analysis.probability == Fraction(91, 216)
    assert analysis.fair_odds == "125 to 91"
    assert analysis.ev_even_money == Fraction(-34, 216)
    assert analyse_bet(~analysis.proposition).ev_even_money == Fraction(34, 216)


# --- brute force ----------------------------------------------------------------------------------------


def exhaust(proposition: Proposition, depth: int) -> tuple[Fraction, Fraction]:
    """P(won) and P(undecided) after ``depth`` throws, by following every one of the 36**depth sequences.

    Trackers in the same state are merged, so the sequences are weighed together rather than listed.
    """
    open_: dict[Tracker, Fraction] = {start(proposition): Fraction(1)}
    won = Fraction(0)
    for _ in range(depth):
        after: dict[Tracker, Fraction] = {}
        for tracker, weight in open_.items():
            for roll in ROLLS:
                new = tracker.advance(roll)
                share = weight / len(ROLLS)
                if new.decided is None:
                    after[new] = after.get(new, Fraction(0)) + share
                elif new.decided:
                    won += share
        open_ = after
    return won, sum(open_.values(), Fraction(0))


def exhaust_sequences(proposition: Proposition, depth: int) -> tuple[Fraction, Fraction]:
    """The same count without merging: every sequence of ``depth`` totals, weighted by its ways."""
    won = undecided = Fraction(0)

    def walk(tracker_weight: list[tuple[Tracker, Fraction]], level: int) -> None:
        nonlocal won, undecided
        for tracker, weight in tracker_weight:
            if tracker.decided is True:
                won += weight
            elif tracker.decided is None and level == depth:
                undecided += weight
            elif tracker.decided is None:
                walk([(tracker.advance(roll), weight / len(ROLLS)) for roll in ROLLS], level + 1)

    walk([(start(proposition), Fraction(1))], 0)
    return won, undecided


@pytest.mark.parametrize(
    "text",
    [*SOURCE_BETS, "4 before 7", "doublets before 7", "12 before 2 or 3", "not 6 before 8"],
)
def test_before_agrees_with_brute_force(text: str) -> None:
    proposition = parse_proposition(text)
    exact = probability(proposition)
    won, undecided = exhaust(proposition, 30)
    assert won <= exact <= won + undecided
    assert undecided < Fraction(1, 20)


@pytest.mark.parametrize(
    "text",
    [
        "2, 3, 11 or 12 within 3 throws",
        "7 within 1 throw",
        "doublets within 5 throws",
        "odd within 4 throws",
        "not 12 within 6 throws",
        "next odd",
        "not next below 7",
    ],
)
def test_within_and_next_agree_exactly(text: str) -> None:
    proposition = parse_proposition(text)
    won, undecided = exhaust(proposition, 6)
    assert undecided == 0
    assert won == probability(proposition)


@pytest.mark.parametrize(
    "text", ["4 or 10 before 7", "2, 3, 11 or 12 within 3 throws", "not doublets before 7"]
)
def test_sequence_by_sequence(text: str) -> None:
    """A plain walk over all 36**3 sequences agrees with the merged count and brackets the exact answer."""
    proposition = parse_proposition(text)
    assert exhaust_sequences(proposition, 3) == exhaust(proposition, 3)
    won, undecided = exhaust_sequences(proposition, 3)
    assert won <= probability(proposition) <= won + undecided


@st.composite
def roll_sets(draw: st.DrawFn) -> RollSet:
    if draw(st.booleans()):
        return RollSet.doublets()
    return RollSet.of_totals(*draw(st.sets(st.sampled_from(TOTALS), min_size=1)))


@st.composite
def propositions(draw: st.DrawFn) -> Proposition:
    kind = draw(st.sampled_from(["before", "within", "next"]))
    proposition: Proposition
    if kind == "before":
        first = draw(roll_sets())
        second = draw(roll_sets().filter(lambda other: not (other.rolls & first.rolls)))
        proposition = Before(first, second)
    else:
        # Not every throw: a bet on that could never lose, and is refused.
        target = draw(roll_sets().filter(lambda target: target.ways < len(ROLLS)))
        proposition = Within(target, draw(st.integers(1, 4))) if kind == "within" else Next(target)
    return Not(proposition) if draw(st.booleans()) else proposition


@settings(max_examples=40, deadline=None)
@given(propositions())
def test_brute_force_brackets_any_bet(proposition: Proposition) -> None:
    won, undecided = exhaust(proposition, 5)
    exact = probability(proposition)
    assert won <= exact <= won + undecided
    core = proposition.proposition if isinstance(proposition, Not) else proposition
    if not isinstance(core, Before):
        assert undecided == 0


@settings(max_examples=200)
@given(propositions())
def test_every_bet_can_be_won_and_lost(proposition: Proposition) -> None:
    """No proposition that can be built is sure: sure bets (and their negations) are refused."""
    assert 0 < probability(proposition) < 1


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (
            "2 or more next",
            "invalid proposition '2 or more next': every throw is 2 or more, so the bet can never lose",
        ),
        (
            "not 12 or less within 3 throws",
            "invalid proposition 'not 12 or less within 3 throws': every throw is 12 or less, "
            "so the bet can never win",
        ),
    ],
)
def test_analyse_refuses_sure_bets(text: str, message: str) -> None:
    """Fair odds of "0 to 1" (or "1 to 0") are no bet: the analysis refuses the text, as the parser does."""
    with pytest.raises(InvalidError) as caught:
        analyse_bet(text)
    assert str(caught.value) == message


# --- odds, value and the JSON form ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("p", "odds"),
    [
        (Fraction(1, 3), "2 to 1"),
        (Fraction(1, 2), "1 to 1"),
        (Fraction(2, 3), "1 to 2"),
        (Fraction(1), "0 to 1"),
        (Fraction(0), "1 to 0"),
        (Fraction(1, 6), "5 to 1"),
        (Fraction(91, 216), "125 to 91"),
        (Fraction(4, 10), "3 to 2"),
    ],
)
def test_fair_odds(p: Fraction, odds: str) -> None:
    assert fair_odds(p) == odds
    against, on = odds_against(p)
    assert f"{against} to {on}" == odds
    assert Fraction(on, against + on) == p


@pytest.mark.parametrize("p", [Fraction(-1, 2), Fraction(3, 2)])
def test_odds_refuse_what_is_not_a_probability(p: Fraction) -> None:
    with pytest.raises(InvalidError, match="expected 0 to 1"):
        fair_odds(p)


@pytest.mark.parametrize(
    ("text", "ev"),
    [
        ("next odd", Fraction(0)),
        ("4 before 7", Fraction(-1, 3)),
        ("7 before 4", Fraction(1, 3)),
        ("next 7", Fraction(-2, 3)),
        ("not next 12", Fraction(17, 18)),
    ],
)
def test_ev_even_money(text: str, ev: Fraction) -> None:
    assert analyse_bet(text).ev_even_money == ev


def test_analysis_value() -> None:
    analysis = analyse_bet("the caster will throw 4 before throwing 7")
    assert analysis == BetAnalysis(parse_proposition("4 before 7"))
    assert analysis.text == "4 before 7"
    assert analysis.probability == Fraction(1, 3)
    assert analysis.odds_against == (2, 1)
    assert analysis.fair_odds == "2 to 1"
    assert str(analysis) == "4 before 7: probability 1/3, fair odds 2 to 1, expected value at even money -1/3"
    with pytest.raises(AttributeError):
        analysis.probability = Fraction(1)  # type: ignore[misc]


def test_analyse_refuses_bad_text() -> None:
    with pytest.raises(InvalidError, match="invalid proposition '4 or 13 before 7'"):
        analyse_bet("4 or 13 before 7")


def test_json_dict() -> None:
    data = analyse_bet("2, 3, 11 or 12 in three rolls").to_json_dict()
    assert data == {
        "proposition": "2, 3, 11 or 12 within 3 throws",
        "probability": "91/216",
        "probability_float": 91 / 216,
        "fair_odds": "125 to 91",
        "ev_even_money": "-17/108",
    }
    assert list(data) == ["proposition", "probability", "probability_float", "fair_odds", "ev_even_money"]
    assert json.loads(json.dumps(data)) == data


def test_json_dict_edges() -> None:
    even = analyse_bet("odd before even").to_json_dict()
    assert even["probability"] == "1/2"
    assert even["ev_even_money"] == "0/1"
    assert even["probability_float"] == 0.5
    # The longest odds either way a bet on one throw can have (sure bets are refused).
    likely = analyse_bet("3 or more within 1 throw").to_json_dict()
    assert (likely["probability"], likely["fair_odds"], likely["ev_even_money"]) == (
        "35/36",
        "1 to 35",
        "17/18",
    )
    unlikely = analyse_bet("not 3 or more within 1 throw").to_json_dict()
    assert (unlikely["probability"], unlikely["fair_odds"]) == ("1/36", "35 to 1")
    assert unlikely["ev_even_money"] == "-17/18"


# --- the largest bets: bounded cost, exact figures that print, readable forms ---------------------------

# Bets at the bound of MAX_THROWS, whose exact figures have the most digits any bet can have.
LONGEST_BETS = [
    f"12 within {MAX_THROWS} throws",
    f"not 12 within {MAX_THROWS} throws",
    f"not 3 or more within {MAX_THROWS} throws",
    f"2, 3, 4, 5, 6, 7, 8, 9, 10 or 11 within {MAX_THROWS} throws",
    f"7 within {MAX_THROWS} throws",
]


@pytest.mark.parametrize("text", LONGEST_BETS)
def test_the_longest_bets_are_fast_and_print(text: str) -> None:
    with within_cpu(0.5, "the analysis"):  # about a millisecond
        analysis = analyse_bet(text)
        data = analysis.to_json_dict()
        shown = str(analysis)
        json.dumps(data)
    assert Fraction(str(data["probability"])) == analysis.probability  # exact in JSON, however long
    assert len(str(data["probability"])) < 4000
    assert len(shown) < 400  # readable in text
    assert "≈" in shown


def test_within_agrees_with_its_closed_form_at_the_bound() -> None:
    assert probability(f"12 within {MAX_THROWS} throws") == 1 - Fraction(35, 36) ** MAX_THROWS


def test_text_dict_is_exact_when_short_and_a_decimal_when_long() -> None:
    assert analyse_bet("2, 3, 11 or 12 within 3 throws").to_text_dict() == {
        "proposition": "2, 3, 11 or 12 within 3 throws",
        "probability": "91/216",
        "fair_odds": "125 to 91",
        "ev_even_money": "-17/108",
    }
    text = analyse_bet(f"not 12 within {MAX_THROWS} throws").to_text_dict()
    assert text["probability"] == "≈ 5.82832261142e-13 (exact: 1,545 digits over 1,557)"
    assert text["fair_odds"] == "≈ 1.71575951894e+12 to 1 (exact: 1,557 digits to 1,545 digits)"
    assert text["ev_even_money"] == "≈ -0.999999999999 (exact: 1,557 digits over 1,557)"


def test_readable_odds() -> None:
    assert readable_odds(Fraction(1, 3)) == "2 to 1"
    assert readable_odds(Fraction(1)) == "0 to 1"
    assert readable_odds(Fraction(0)) == "1 to 0"
    assert readable_odds(Fraction(1, 2**200)) == "≈ 1.60693804426e+60 to 1 (exact: 61 digits to 1 digit)"


def test_str_is_unchanged_for_short_bets() -> None:
    assert str(analyse_bet("next 7")) == (
        "next 7: probability 1/6, fair odds 5 to 1, expected value at even money -2/3"
    )


@settings(derandomize=True, database=None, max_examples=300, deadline=None)
@given(mutated_bets())
def test_fuzz_any_bet_that_parses_is_analysed_quickly(text: str) -> None:
    proposition = check_proposition_text(text)
    if proposition is None:
        return
    with within_cpu(0.5, "the analysis"):
        analysis = analyse_bet(proposition)
        assert 0 < analysis.probability < 1
        json.dumps(analysis.to_json_dict())
        assert len(str(analysis)) < 600


def test_a_bets_value_to_the_backer_at_its_odds() -> None:
    from fractions import Fraction

    from hazard.analysis.bets import analyse_bet
    from hazard.core.errors import InvalidError

    six_before_eight = analyse_bet("6 before 8")
    assert six_before_eight.value() == 0  # even money on an even chance
    assert six_before_eight.value(Fraction(2)) == Fraction(1, 2)  # paid 2 for 1 on a half chance
    next_seven = analyse_bet("next 7")
    assert next_seven.value(Fraction(4)) == Fraction(-1, 6)  # 4 to 1 on 5 to 1 against
    with pytest.raises(InvalidError, match="invalid odds 0: expected odds above 0"):
        next_seven.value(Fraction(0))
