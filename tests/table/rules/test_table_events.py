"""What happened at a table, in words: each of the table's events in each money style, and the round's own
events through :func:`event_text`.

Every sum is written by hand in the three styles: decimal (two places, for show), exact (``16/5``), and
pounds, shillings and pence (one unit being £1: ``£3 4s``).
"""

from __future__ import annotations

from fractions import Fraction
from typing import get_args

import pytest
from tests.strategies import throw_of as t

from hazard.core.dice import Roll
from hazard.core.engine import Call, apply, legal_actions, new_round
from hazard.core.events import ChanceSet, ChanceWon, MainCalled
from hazard.core.events import Event as RoundEvent
from hazard.core.propositions import parse_proposition
from hazard.core.rulesets import builtin_rulesets, find_paytable, find_ruleset
from hazard.core.state import Outcome, Termination
from hazard.table.rules.actions import Actor, BotPolicy, OfferBet, Sit, Stake, TableAction, TakeBet
from hazard.table.rules.events import (
    AnyEvent,
    BetCancelled,
    BetOffered,
    BetSettled,
    BetTaken,
    CasterChanged,
    Left,
    RoundSettled,
    Seated,
    Staked,
    TableEvent,
    Thrown,
    Withdrawn,
    event_text,
)
from hazard.table.rules.money import MoneyStyle
from hazard.table.rules.state import Player, SideBet, Transfer, Wager, new_table
from hazard.table.rules.transitions import apply_action

STYLES = (MoneyStyle.DECIMAL, MoneyStyle.EXACT, MoneyStyle.LSD)

OFFERED = SideBet(7, "Bob", parse_proposition("4 or 10 before 7"), Fraction(305, 3), Fraction(5, 6))
TAKEN = SideBet(2, "Cat", parse_proposition("next 12"), Fraction(3, 8), Fraction(30), layer="Ann")


def same(text: str) -> tuple[str, str, str]:
    """The same words in every style: an event that holds no sum."""
    return (text, text, text)


# event, and its text in the DECIMAL, EXACT and LSD styles
EVENTS: list[tuple[AnyEvent, tuple[str, str, str]]] = [
    (
        Seated(Player("Ann", Fraction(305, 3))),
        ("Ann sits down with 101.67", "Ann sits down with 305/3", "Ann sits down with £101 13s 4d"),
    ),
    (
        Left(Player("Ann", Fraction(305, 3))),
        (
            "Ann leaves the table with 101.67",
            "Ann leaves the table with 305/3",
            "Ann leaves the table with £101 13s 4d",
        ),
    ),
    (
        Seated(Player("Bot", Fraction(0), BotPolicy.SETTER)),
        (
            "Bot (setter bot) sits down with 0.00",
            "Bot (setter bot) sits down with 0",
            "Bot (setter bot) sits down with £0",
        ),
    ),
    (
        Seated(Player("Bea", Fraction(3, 8), BotPolicy.BYSTANDER)),
        (
            "Bea (bystander bot) sits down with 0.38",
            "Bea (bystander bot) sits down with 3/8",
            "Bea (bystander bot) sits down with 7s 6d",
        ),
    ),
    (
        Staked(Wager("Sam", Fraction(5, 2)), "Cass"),
        ("Sam stakes 2.50 against Cass", "Sam stakes 5/2 against Cass", "Sam stakes £2 10s against Cass"),
    ),
    (Withdrawn(("Sam",)), same("Sam takes back the stakes against the caster")),
    (Withdrawn(("Ben", "Cat")), same("Ben and Cat take back the stakes against the caster")),
    (Withdrawn(("Ann", "Ben", "Cat")), same("Ann, Ben and Cat take back the stakes against the caster")),
    (Thrown("Ann", Roll(3, 4)), same("Ann throws 3-4")),
    (Thrown("Ann", Roll(6, 6)), same("Ann throws 6-6")),
    (
        # main 9, chance 6 at 4/5 on the Wikipedia table: 8 from Sam's 10, 16/5 from Sue's 4
        RoundSettled(
            Outcome(Termination.CHANCE, 9, 6),
            "Cass",
            (Transfer("Sam", "Cass", Fraction(8)), Transfer("Sue", "Cass", Fraction(16, 5))),
        ),
        (
            "the caster Cass wins 11.20 (Sam pays Cass 8.00; Sue pays Cass 3.20)",
            "the caster Cass wins 56/5 (Sam pays Cass 8; Sue pays Cass 16/5)",
            "the caster Cass wins £11 4s (Sam pays Cass £8; Sue pays Cass £3 4s)",
        ),
    ),
    (
        RoundSettled(
            Outcome(Termination.OUT, 7),
            "Cass",
            (Transfer("Cass", "Sam", Fraction(10)), Transfer("Cass", "Sue", Fraction(1, 3))),
        ),
        (
            "the caster Cass loses 10.33 (Cass pays Sam 10.00; Cass pays Sue 0.33)",
            "the caster Cass loses 31/3 (Cass pays Sam 10; Cass pays Sue 1/3)",
            "the caster Cass loses £10 6s 8d (Cass pays Sam £10; Cass pays Sue 6s 8d)",
        ),
    ),
    (RoundSettled(Outcome(Termination.NICK, 7), "Cass", ()), same("no stakes change hands")),
    (RoundSettled(Outcome(Termination.NO_MAIN, None), "Cass", ()), same("no stakes change hands")),
    (CasterChanged(None, "Ann", "the first to sit"), same("Ann takes the dice")),
    (
        CasterChanged("Ann", "Ben", "the dice pass after 3 lost rounds in a row"),
        same("the dice pass from Ann to Ben: the dice pass after 3 lost rounds in a row"),
    ),
    (
        BetOffered(OFFERED),
        (
            "side bet offered: #7 Bob backs '4 or 10 before 7' for 101.67 at odds 5 to 6",
            "side bet offered: #7 Bob backs '4 or 10 before 7' for 305/3 at odds 5 to 6",
            "side bet offered: #7 Bob backs '4 or 10 before 7' for £101 13s 4d at odds 5 to 6",
        ),
    ),
    (
        BetOffered(SideBet(1, "Ann", parse_proposition("next odd"), Fraction(10), Fraction(1))),
        (
            "side bet offered: #1 Ann backs 'next odd' for 10.00 at even money",
            "side bet offered: #1 Ann backs 'next odd' for 10 at even money",
            "side bet offered: #1 Ann backs 'next odd' for £10 at even money",
        ),
    ),
    (BetTaken(TAKEN), same("Ann takes side bet #2 ('next 12')")),
    (BetCancelled(OFFERED), same("side bet #7 withdrawn")),
    (
        # 3/8 at 30 to 1: the layer pays 45/4
        BetSettled(TAKEN, True, Transfer("Ann", "Cat", Fraction(45, 4))),
        (
            "side bet #2 'next 12' comes true: Ann pays Cat 11.25",
            "side bet #2 'next 12' comes true: Ann pays Cat 45/4",
            "side bet #2 'next 12' comes true: Ann pays Cat £11 5s",
        ),
    ),
    (
        BetSettled(TAKEN, False, Transfer("Cat", "Ann", Fraction(3, 8))),
        (
            "side bet #2 'next 12' fails: Cat pays Ann 0.38",
            "side bet #2 'next 12' fails: Cat pays Ann 3/8",
            "side bet #2 'next 12' fails: Cat pays Ann 7s 6d",
        ),
    ),
]


@pytest.mark.parametrize(("event", "texts"), EVENTS, ids=[texts[1] for _, texts in EVENTS])
def test_each_event_in_words_in_each_money_style(event: AnyEvent, texts: tuple[str, str, str]) -> None:
    assert isinstance(event, TableEvent)
    assert tuple(event.text(style) for style in STYLES) == texts
    assert tuple(event_text(event, style) for style in STYLES) == texts
    # the plain forms are the decimal style: two places, for show
    assert str(event) == event.text() == event_text(event) == texts[0]


def test_every_kind_of_table_event_is_in_the_table() -> None:
    assert {type(event) for event, _ in EVENTS} == set(get_args(TableEvent))


def test_the_rounds_own_events_hold_no_sums_and_read_the_same_in_every_style() -> None:
    # every event of the first three actions of a round, under every built-in ruleset
    seen: dict[type, RoundEvent] = {}
    for rules in builtin_rulesets():
        frontier = [new_round(rules)]
        for _ in range(3):
            following = []
            for state in frontier:
                for action in legal_actions(state):
                    after, events = apply(state, action)
                    following.append(after)
                    for event in events:
                        seen.setdefault(type(event), event)
            frontier = list(dict.fromkeys(following))
    assert set(seen) == set(get_args(RoundEvent))
    for event in seen.values():
        assert [event_text(event, style) for style in STYLES] == [str(event)] * 3


def test_the_events_of_a_round_at_the_table_in_words() -> None:
    table = new_table(find_ruleset("wikipedia"), find_paytable("wikipedia"))
    ann, sam = Actor.player("Ann"), Actor.player("Sam")
    steps: list[tuple[TableAction, Actor]] = [
        (Sit("Ann", Fraction(100)), ann),
        (Sit("Sam", Fraction(100)), sam),
        (Stake("Sam", Fraction(10)), sam),
        (OfferBet("Sam", "next odd", Fraction(3, 2)), sam),
        (TakeBet(1, "Ann"), ann),
        (Call(7), ann),
        (t(5), ann),
        (t(5), ann),
    ]
    said: list[AnyEvent] = []
    for action, by in steps:
        table, events = apply_action(table, action, by=by)
        said.extend(events)
    # the round's own events (by type: the rules engine words them) among the table's, in order
    expected: list[str | type[RoundEvent]] = [
        "Ann sits down with £100",
        "Ann takes the dice",
        "Sam sits down with £100",
        "Sam stakes £10 against Ann",
        "side bet offered: #1 Sam backs 'next odd' for £1 10s at even money",
        "Ann takes side bet #1 ('next odd')",
        MainCalled,
        "Ann throws 1-4",
        ChanceSet,
        "side bet #1 'next odd' comes true: Ann pays Sam £1 10s",
        "Ann throws 1-4",
        ChanceWon,
        # main 7, chance 5: 3 to 2 on Sam's 10
        "the caster Ann wins £15 (Sam pays Ann £15)",
    ]
    assert len(said) == len(expected)
    for event, want in zip(said, expected, strict=True):
        if isinstance(want, str):
            assert event_text(event, MoneyStyle.LSD) == want
        else:
            assert type(event) is want
            assert event_text(event, MoneyStyle.LSD) == str(event)
