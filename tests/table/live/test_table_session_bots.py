"""Live games with bots: a bot caster's call and cover, the bank's stakes, late stakes and their consent."""

from __future__ import annotations

from fractions import Fraction

import pytest
from tests.table.live.session_helpers import ANN, BOB, BOTS, CAT, sit, start, stored

from hazard.core.errors import IllegalError
from hazard.core.rules import StakeArrangement
from hazard.core.state import Phase
from hazard.table.fair.dice import DiceKind, SeededDice
from hazard.table.live.session import Session
from hazard.table.live.timeline import load_game
from hazard.table.record.store import GameStore
from hazard.table.rules.actions import Actor, BotPolicy, Call, OfferBet, Stake, TakeBet, action_text
from hazard.table.rules.bots import BotBrains
from hazard.table.rules.events import Staked
from hazard.table.rules.state import Need


def test_a_bot_caster_calls_before_it_throws(store: GameStore) -> None:
    session = start(store, dice=DiceKind.SEEDED, seed=5)
    sit(session, ("Cas", 50, BotPolicy.SETTER), ("Ann", 50))
    session.act("stake 1", by=ANN)
    assert session.bots_act(call=False) == []  # the bot caster holds its call back, so people may stake
    assert session.table.turn.need is Need.CALL
    call, throw = session.throw(by=ANN)  # anyone may ask for a bot caster's throw
    assert (call.entry.actor, call.entry.item) == (Actor.player("Cas"), Call(7))
    assert (throw.entry.actor, throw.entry.item) == (Actor.player("Cas"), SeededDice(5).throw(0))
    assert stored(store, session)[-2:] == [(c.entry.actor, c.entry.item) for c in (call, throw)]


# --- the bank, and consent ----------------------------------------------------------------------------------


def bank_game(store: GameStore, bob: int = 50, cat: int = 50) -> Session:
    """Ann, a person, holds the dice against the bank; Cat (a bystander bot) sat before Bob (a setter bot)."""
    session = start(store, dice=DiceKind.SEEDED, seed=5)
    assert session.table.stakes is StakeArrangement.BANK
    sit(session, ("Ann", 100), ("Cat", cat, BotPolicy.BYSTANDER), ("Bob", bob, BotPolicy.SETTER))
    return session


def test_a_casters_stake_against_the_bank_is_taken_by_the_first_bot_that_can_cover_it(
    store: GameStore,
) -> None:
    session = bank_game(store)
    (done,) = session.act("stake 5", by=ANN)  # Ann names her stake; a setter bot is asked first
    assert (done.entry.actor, done.entry.item) == (BOB, Stake("Bob", Fraction(5)))
    assert [str(e) for e in done.events] == ["Bob stakes 5.00 against Ann"]
    # Bob's free money (50 less 5 x 2 covered) no longer covers 25 (50 at most): the other bot takes it
    (done,) = session.act("stake 25", by=ANN)
    assert (done.entry.actor, done.entry.item) == (CAT, Stake("Cat", Fraction(25)))
    assert load_game(store, session.game).table == session.table


def test_a_casters_stake_nobody_can_cover_is_refused(store: GameStore) -> None:
    session = bank_game(store, bob=3, cat=3)
    with pytest.raises(IllegalError) as caught:
        session.act("stake 5", by=ANN)
    assert str(caught.value) == "illegal stake Ann 5 by Ann: no one at the table can cover it as the bank"
    assert len(session.entries) == 3
    lone = start(store, dice=DiceKind.SEEDED, seed=5)
    sit(lone, ("Ann", 100), ("Ben", 100))  # people, no bot: nobody is the bank
    with pytest.raises(IllegalError, match="no one at the table can cover it as the bank"):
        lone.act("stake 1", by=ANN)


def test_a_casters_stake_once_the_round_has_begun_is_refused_for_that_reason(store: GameStore) -> None:
    """The bots could cover it; what stops it is that stakes are laid before the round begins."""
    session = bank_game(store)
    session.act("call 7", by=ANN)
    with pytest.raises(IllegalError) as caught:
        session.act("stake 1", by=ANN)
    message = str(caught.value)
    assert "no one at the table can cover it" not in message, message  # Bob and Cat could
    assert ("round" in message and "begun" in message) or "before the round begins" in message, message
    assert len(session.entries) == 4


def chance_against_a_bot(store: GameStore) -> Session:
    """All against the caster: Cas, a setter bot, casts; seed 3 throws 6-1 (main 7), 5-1 (chance 6)."""
    session = start(store, "sca-isenfir", dice=DiceKind.SEEDED, seed=3)
    assert session.table.stakes is StakeArrangement.ALL_AGAINST_CASTER
    sit(session, ("Cas", 50, BotPolicy.SETTER), ("Ann", 50), ("Bob", 50))
    session.act("stake 1", by=ANN)  # before the chance is set: no consent needed
    session.throw(by=ANN)
    session.throw(by=ANN)
    assert (session.table.round.phase, session.table.round.chance) == (Phase.CHANCE, 6)
    return session


def test_a_late_stake_against_a_bot_caster_carries_its_consent(store: GameStore) -> None:
    session = chance_against_a_bot(store)
    (done,) = session.act("stake 2", by=ANN)
    assert (done.entry.actor, done.entry.item) == (
        Actor.player("Cas"),
        Stake("Ann", Fraction(2), consent=True),
    )
    assert [type(e) for e in done.events] == [Staked]
    assert session.table.staked_by("Ann") == 3
    assert load_game(store, session.game).table == session.table
    assert load_game(store, session.game).acting_for[done.entry.seq] == "Ann"


def test_a_late_stake_a_bot_caster_cannot_cover_needs_consent_it_does_not_give(store: GameStore) -> None:
    session = chance_against_a_bot(store)
    with pytest.raises(IllegalError, match=r"once the chance is set .*: it needs the caster's consent"):
        session.act("stake 50", by=BOB)  # Bob could lose 50, but Cas has only 49 free to match it
    assert session.table.staked_by("Bob") == 0


def test_a_late_stake_is_only_for_the_player_who_lays_it(store: GameStore) -> None:
    """The bot caster's consent is to Ann's own stake: it does not let Ann stake Bob's money."""
    session = chance_against_a_bot(store)
    written = len(session.entries)
    with pytest.raises(IllegalError) as caught:
        session.act("stake Bob 1", by=ANN)
    assert "by Ann" in str(caught.value)
    assert "stakes only for himself" in str(caught.value)
    assert len(session.entries) == written
    assert session.table.staked_by("Bob") == 0


def test_a_late_stake_against_a_person_is_entered_by_the_caster(store: GameStore) -> None:
    session = start(store, "sca-isenfir", dice=DiceKind.SEEDED, seed=3)
    sit(session, ("Ann", 50), ("Bob", 50))
    session.throw(by=ANN)
    session.throw(by=ANN)
    assert session.table.round.phase is Phase.CHANCE
    with pytest.raises(IllegalError, match="it needs the caster's consent"):
        session.act("stake 1", by=BOB)
    with pytest.raises(
        IllegalError, match="is the caster's to accept; Ann, the caster, enters it with consent"
    ):
        session.act("stake 1 consent", by=BOB)
    (done,) = session.act("stake Bob 1 consent", by=ANN)
    assert (done.entry.actor, done.entry.item) == (ANN, Stake("Bob", Fraction(1), consent=True))
    assert isinstance(done.entry.item, Stake)
    assert action_text(done.entry.item) == "stake Bob 1 consent"


# --- bots in a session --------------------------------------------------------------------------------------


def test_bots_act_until_they_have_nothing_to_do(store: GameStore) -> None:
    session = start(store, dice=DiceKind.SEEDED, seed=1, brains=BotBrains(unit=Fraction(3)))
    sit(session, *BOTS)
    done = session.bots_act()
    assert [(r.entry.actor.name, r.entry.item) for r in done] == [
        ("Cas", OfferBet("Cas", "8 or 12 before 7", Fraction(3))),  # bystanders offer the source's bets
        ("Sam", TakeBet(1, "Sam")),  # and any bot takes them
        ("Bea", OfferBet("Bea", "9 or 11 before 7", Fraction(3))),
        ("Cas", TakeBet(2, "Cas")),
        ("Sam", Stake("Sam", Fraction(3))),  # setters stake the unit against the caster
        ("Sue", Stake("Sue", Fraction(3))),
        ("Cas", Call(7)),  # the bot caster calls the best main, once nobody wants anything else
    ]
    assert session.bots_act() == []
    assert stored(store, session)[4:] == [(r.entry.actor, r.entry.item) for r in done]
