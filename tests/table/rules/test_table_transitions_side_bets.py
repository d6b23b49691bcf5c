"""Table transitions of side bets: offered, taken, cancelled, decided and refused."""

from __future__ import annotations

from fractions import Fraction

import pytest
from tests.strategies import throw_of as t
from tests.table.rules.transitions_helpers import bankrolls, play, refused, settled, side_table

from hazard.core.errors import HazardError, IllegalError, InvalidError
from hazard.core.events import Nick
from hazard.core.propositions import parse_proposition
from hazard.core.state import Phase
from hazard.table.rules.actions import REFEREE, Call, CancelBet, OfferBet, Stake, TableAction, TakeBet
from hazard.table.rules.events import BetSettled, RoundSettled, Thrown
from hazard.table.rules.state import Transfer


def test_a_next_odd_bet_is_decided_on_the_very_next_throw() -> None:
    table, events = play(side_table(), OfferBet("Ann", "even money the next number is odd", Fraction(10)))
    assert str(events[0]) == "side bet offered: #1 Ann backs 'next odd' for 10.00 at even money"
    table, events = play(table, TakeBet(1, "Ben"))
    assert str(events[0]) == "Ben takes side bet #1 ('next odd')"
    assert table.committed("Ben") == 10
    table, events = play(table, Call(8), t(9))
    bet_events = [e for e in events if isinstance(e, BetSettled)]
    assert len(bet_events) == 1
    assert bet_events[0].backer_wins
    assert bet_events[0].transfer == Transfer("Ben", "Ann", Fraction(10))
    assert str(bet_events[0]) == "side bet #1 'next odd' comes true: Ben pays Ann 10.00"
    assert table.side_bets == ()
    assert bankrolls(table) == {"Cass": 100, "Ann": 110, "Ben": 90}


def test_a_lost_side_bet_costs_the_backer_his_amount() -> None:
    table, _ = play(side_table(), OfferBet("Ann", "next odd", Fraction(10)), TakeBet(1, "Ben"), Call(8))
    table, events = play(table, t(8))
    bet = next(e for e in events if isinstance(e, BetSettled))
    assert not bet.backer_wins
    assert bet.transfer == Transfer("Ann", "Ben", Fraction(10))
    assert str(bet) == "side bet #1 'next odd' fails: Ann pays Ben 10.00"
    assert bankrolls(table) == {"Cass": 100, "Ann": 90, "Ben": 110}


def test_a_before_bet_is_decided_several_rounds_later() -> None:
    table, _ = play(side_table(), OfferBet("Ben", "4 or 10 before 7", Fraction(6)), TakeBet(1, "Cass"))
    # three rounds with no 4, 10 or 7: nicks on 6, 8 and 9
    table, events = play(table, Call(6), t(6), Call(8), t(12), Call(9), t(9))
    assert table.rounds_played == 3
    assert not any(isinstance(e, BetSettled) for e in events)
    assert len(table.side_bets) == 1
    tracker = table.side_bets[0].tracker
    assert tracker is not None
    assert tracker.throws == 3
    table, events = play(table, Call(5), t(4))
    assert isinstance(events[-1], BetSettled)
    assert events[-1].transfer == Transfer("Cass", "Ben", Fraction(6))
    assert table.side_bets == ()
    assert bankrolls(table) == {"Cass": 94, "Ann": 100, "Ben": 106}


def test_a_within_3_throws_bet_is_lost_after_3_misses() -> None:
    text = "Even money the Caster will throw 2, 3 ,11 or 12 in three rolls"
    table, _ = play(side_table(), OfferBet("Ann", text, Fraction(4)), TakeBet(1, "Ben"))
    assert str(table.side_bets[0].proposition) == "2, 3, 11 or 12 within 3 throws"
    table, events = play(table, Call(7), t(4), t(5))
    assert not any(isinstance(e, BetSettled) for e in events)
    table, events = play(table, t(6))
    assert [e.transfer for e in events if isinstance(e, BetSettled)] == [Transfer("Ann", "Ben", Fraction(4))]
    # the round goes on regardless
    assert table.round.phase is Phase.CHANCE


def test_side_bets_count_only_the_throws_after_they_are_taken() -> None:
    table, _ = play(side_table(), OfferBet("Ann", "next 7", Fraction(1)), Call(6), t(7))
    assert len(table.side_bets) == 1  # an offered bet nobody took is not settled
    assert bankrolls(table)["Ann"] == 100
    table, events = play(table, TakeBet(1, "Cass"), t(8))
    assert [e.transfer for e in events if isinstance(e, BetSettled)] == [Transfer("Ann", "Cass", Fraction(1))]


def test_a_side_bet_settles_after_the_round_events_of_its_throw_and_before_the_settlement() -> None:
    table, _ = play(side_table(), OfferBet("Ann", "next 12", Fraction(1)), TakeBet(1, "Ben"), Call(6))
    table, events = play(table, t(12))
    # what the dice showed, what it did to the round, the side bets it decided, and the round's settlement
    assert [type(e) for e in events] == [Thrown, Nick, BetSettled, RoundSettled]


def test_a_side_bet_at_agreed_odds_pays_the_odds() -> None:
    table, events = play(side_table(), OfferBet("Ann", "next 12", Fraction(2), Fraction(30)))
    assert str(events[0]) == "side bet offered: #1 Ann backs 'next 12' for 2.00 at odds 30 to 1"
    table, _ = play(table, TakeBet(1, "Ben"))
    assert table.committed("Ben") == 60
    table, events = play(table, Call(6), t(12))
    assert [e.transfer for e in events if isinstance(e, BetSettled)] == [Transfer("Ben", "Ann", Fraction(60))]
    # the same throw nicks the main of 6: the round and the side bet settle together
    assert isinstance(events[-1], RoundSettled)
    assert bankrolls(table) == {"Cass": 100, "Ann": 160, "Ben": 40}


def test_a_side_bet_at_fractional_odds_loses_only_the_amount() -> None:
    table, events = play(
        side_table(), OfferBet("Ann", "odd before even", Fraction(10), Fraction(5, 6)), TakeBet(1, "Ben")
    )
    assert "odds 5 to 6" in str(events[0])
    table, _ = play(table, Call(7), t(7))
    assert bankrolls(table) == {"Cass": 100, "Ann": Fraction(325, 3), "Ben": Fraction(275, 3)}


def test_side_bets_are_offered_and_taken_mid_round_and_settle_with_the_round() -> None:
    table, _ = play(side_table(), Stake("Ann", Fraction(10)), Call(7), t(5))
    table, _ = play(table, OfferBet("Cass", "not 5 before 7", Fraction(20)), TakeBet(1, "Ben"))
    # Cass bets against his own chance as a hedge; the 5 wins his round and loses the side bet
    table, events = play(table, t(5))
    assert [e.transfer for e in events if isinstance(e, BetSettled)] == [
        Transfer("Cass", "Ben", Fraction(20))
    ]
    assert settled(events).transfers == (Transfer("Ann", "Cass", Fraction(15)),)
    assert bankrolls(table) == {"Cass": 95, "Ann": 85, "Ben": 120}


def test_cancelling_an_offer_nobody_took() -> None:
    table, _ = play(
        side_table(), OfferBet("Ann", "next odd", Fraction(10)), OfferBet("Ben", "next 7", Fraction(1))
    )
    assert table.available("Ann") == 90
    table, events = play(table, CancelBet(1))
    assert str(events[0]) == "side bet #1 withdrawn"
    assert [b.number for b in table.side_bets] == [2]
    assert table.available("Ann") == 100
    table, _ = play(table, OfferBet("Ann", "next odd", Fraction(1)))
    assert [b.number for b in table.side_bets] == [2, 3]  # numbers are never reused


@pytest.mark.parametrize(
    ("action", "error", "fragments"),
    [
        (TakeBet(1, "Ann"), IllegalError, ("take of side bet #1", "Ann cannot lay against himself")),
        (TakeBet(2, "Cass"), IllegalError, ("take of side bet #2", "Ben has already taken it")),
        (CancelBet(2), IllegalError, ("withdrawal of side bet #2", "Ben has taken it")),
        (TakeBet(9, "Cass"), IllegalError, ("side bet #9", "no such bet")),
        (
            TakeBet(3, "Cass"),
            IllegalError,
            ("take of side bet #3 by 'Cass'", "could cost 200", "100 free"),
        ),
        (
            OfferBet("Ann", "next odd", Fraction(81)),
            IllegalError,
            ("side bet by 'Ann'", "81 is more than the 80 free"),
        ),
        (
            OfferBet("Ann", "purple before 7", Fraction(1)),
            InvalidError,
            ("invalid proposition 'purple before 7'",),
        ),
        (OfferBet("Ann", "7 before 7", Fraction(1)), InvalidError, ("invalid proposition '7 before 7'",)),
        (OfferBet("Ann", "", Fraction(1)), InvalidError, ("invalid proposition ''",)),
        (OfferBet("Ann", "next odd", Fraction(0)), InvalidError, ("side bet by 'Ann'", "above 0")),
        (
            OfferBet("Ann", "next odd", Fraction(1), Fraction(0)),
            InvalidError,
            ("side bet by 'Ann'", "above 0"),
        ),
    ],
    ids=repr,
)
def test_side_bet_refusals(action: TableAction, error: type[HazardError], fragments: tuple[str, ...]) -> None:
    table, _ = play(
        side_table(),
        OfferBet("Ann", "next odd", Fraction(10)),
        OfferBet("Ann", "next 7", Fraction(10)),
        TakeBet(2, "Ben"),
        OfferBet("Ben", "next 12", Fraction(10), Fraction(20)),
    )
    refused(table, action, error, *fragments)


def test_a_bet_cannot_be_taken_for_a_player_not_at_the_table() -> None:
    table, _ = play(side_table(), OfferBet("Ann", "next odd", Fraction(10)))
    refused(table, TakeBet(1, "Zed"), IllegalError, "illegal player 'Zed'", by=REFEREE)


def test_taking_a_bet_you_cannot_cover_after_other_commitments() -> None:
    table, _ = play(
        side_table(),
        OfferBet("Ann", "next odd", Fraction(50)),
        OfferBet("Ben", "next even", Fraction(60)),
        TakeBet(1, "Cass"),
    )
    refused(table, TakeBet(2, "Cass"), IllegalError, "by 'Cass'", "could cost 60, more than the 50 free")
    # Ann's own open offer holds back 50 of her 100 too
    refused(table, TakeBet(2, "Ann"), IllegalError, "by 'Ann'", "could cost 60, more than the 50 free")
    table, _ = play(table, CancelBet(2), OfferBet("Ben", "next even", Fraction(50)), TakeBet(3, "Ann"))
    assert table.available("Ann") == 0
    assert table.available("Cass") == 50
    # both bets settle on one throw, whichever way it goes
    table, _ = play(table, Call(7), t(8))
    assert bankrolls(table) == {"Cass": 150, "Ann": 0, "Ben": 150}


def test_the_parsed_proposition_is_stored_normalised() -> None:
    table, _ = play(
        side_table(), OfferBet("Ann", "the caster will throw 4 or 10 before throwing 7", Fraction(1))
    )
    assert table.side_bets[0].proposition == parse_proposition("4 or 10 before 7")
