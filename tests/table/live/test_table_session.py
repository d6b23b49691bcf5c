"""Live games: the table, its record, its dice and its bots kept in step, corrected, killed and resumed."""

from __future__ import annotations

import contextlib
import itertools
import json
import os
import queue
import re
import signal
import subprocess
import sys
import textwrap
import threading
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st
from tests.paths import SRC
from tests.records import sql
from tests.strategies import throw_of as t

from hazard.core.engine import Mover, to_move
from hazard.core.errors import HazardError, IllegalError, InvalidError
from hazard.core.propositions import SOURCE_BETS, SOURCE_EXAMPLES
from hazard.core.rules import StakeArrangement
from hazard.core.rulesets import builtin_rulesets, find_paytable, find_ruleset
from hazard.core.state import Phase
from hazard.table import TableSpec
from hazard.table.fair.dice import DiceKind, SeededDice
from hazard.table.live.session import Recorded, Session, check_seats, table_paytable
from hazard.table.live.timeline import Correction, Entry, GameKind, effective_actions, load_game, replay
from hazard.table.record.store import GameStore, StaleError
from hazard.table.rules.actions import (
    REFEREE,
    Actor,
    ActorError,
    BotPolicy,
    Call,
    CancelBet,
    OfferBet,
    PassDice,
    Roll,
    SetSeed,
    Sit,
    Stake,
    TableAction,
    TakeBet,
    ThrowDice,
    Withdraw,
    action_text,
)
from hazard.table.rules.bots import BotBrains
from hazard.table.rules.events import BetSettled, RoundSettled, Staked, Thrown
from hazard.table.rules.money import MoneyStyle
from hazard.table.rules.state import Need, Table

WIKIPEDIA = find_ruleset("wikipedia")
ANN, BEN, BOB, CAT = (Actor.player(name) for name in ("Ann", "Ben", "Bob", "Cat"))


def start(store: GameStore, ruleset: str = "wikipedia", **options: Any) -> Session:
    rules = find_ruleset(ruleset)
    pays, _ = table_paytable(rules)
    if options.get("dice") is DiceKind.TYPED:
        options.setdefault("kind", GameKind.REFEREE)
    spec = {key: options.pop(key) for key in _SPEC if key in options}
    if "brains" in options:
        spec["bots"] = options.pop("brains")
    return Session.start(store, TableSpec(rules, pays, **spec), **options)


_SPEC = ("stakes", "dice", "seed", "kind", "label")


def stored(store: GameStore, session: Session) -> list[tuple[Actor, object]]:
    return [(entry.actor, entry.item) for entry in load_game(store, session.game).entries]


def sit(session: Session, *seats: tuple[str, int] | tuple[str, int, BotPolicy]) -> None:
    """Each player sits himself down (a bot too: it is a player at the table)."""
    for name, bankroll, *bot in seats:
        session.play(Sit(name, Fraction(bankroll), bot[0] if bot else None), by=Actor.player(name))


# --- starting, playing, refusing ----------------------------------------------------------------------------


def test_a_refusal_shows_its_sums_as_the_table_shows_money(store: GameStore) -> None:
    session = start(store, dice=DiceKind.TYPED)
    session.play(Sit("Ann", Fraction(1, 2)), by=REFEREE)
    session.play(Sit("Bob", Fraction(1, 10)), by=REFEREE)
    refusals = {}
    for style in MoneyStyle:
        session.money = style
        for line in ("stake Bob 7s 6d", "offer Bob 15s on 4 or 10 before 7"):
            with pytest.raises(IllegalError) as caught:
                session.act(line, by=REFEREE)
            refusals[style, line.split()[0]] = str(caught.value)
    lsd = MoneyStyle.LSD
    assert (
        "stake of 7s 6d by 'Bob': Bob cannot cover it (the caster could win 15s; Bob has 2s free)"
        in (refusals[lsd, "stake"])
    )
    assert refusals[lsd, "offer"].endswith("15s is more than the 2s free")
    assert "stake of 3/8 by 'Bob'" in refusals[MoneyStyle.EXACT, "stake"]
    assert "stake of 3/8 by 'Bob'" in refusals[MoneyStyle.DECIMAL, "stake"]  # 0.38 would round
    assert "the caster could win 0.75; Bob has 0.10 free" in refusals[MoneyStyle.DECIMAL, "stake"]
    assert all(
        "/1680" not in text and "1/10" not in text for (style, _), text in refusals.items() if style is lsd
    )


def test_dice_kinds() -> None:
    assert [kind.value for kind in DiceKind] == ["secure", "seeded", "typed", "fair"]
    assert [kind.own for kind in DiceKind] == [True, True, False, True]
    assert DiceKind.SEEDED.describe(7) == "seeded dice (seed 7)"
    assert DiceKind.TYPED.describe() == "typed dice"
    assert [kind.label for kind in GameKind] == ["hazard play", "hazard referee", "hazard web"]
    assert GameKind.WEB.resume_text(3) == "open it at its table in hazard serve (table 3)"


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"dice": DiceKind.SEEDED}, "invalid dice: seeded dice need a seed"),
        (
            {"dice": DiceKind.SECURE, "seed": 3},
            "invalid seed 3: only seeded dice take a seed, not secure dice",
        ),
        ({"dice": DiceKind.SEEDED, "seed": -3}, "invalid seed -3"),
        ({"dice": DiceKind.SEEDED, "seed": 2**63}, "invalid seed 9223372036854775808"),
    ],
)
def test_a_session_needs_a_dice_source(store: GameStore, options: dict[str, Any], message: str) -> None:
    with pytest.raises(InvalidError, match=message):
        start(store, **options)
    assert store.games() == []  # nothing recorded for a game that never started


def test_a_session_records_its_setup(store: GameStore) -> None:
    session = start(
        store, "ecws-1674", dice=DiceKind.SEEDED, seed=5, label="club", stakes=StakeArrangement.BANK
    )
    info = load_game(store, session.game).info
    assert (info.dice, info.seed, info.label, info.stakes, info.kind) == (
        DiceKind.SEEDED,
        5,
        "club",
        StakeArrangement.BANK,
        GameKind.PLAY,
    )
    assert session.table.stakes is StakeArrangement.BANK
    assert session.info == info
    referee = start(store, dice=DiceKind.TYPED, settings={"room": "back"})
    assert load_game(store, referee.game).info.label == "hazard referee"  # a kind's label when none is given
    assert load_game(store, referee.game).info.settings == {"room": "back"}


def test_the_paytable_a_table_settles_by() -> None:
    britannica = find_ruleset("britannica-1911")
    assert britannica.paytable is None
    assert table_paytable(britannica) == (find_paytable("even"), True)  # even money, and the flag says why
    assert table_paytable(WIKIPEDIA) == (find_paytable("wikipedia"), False)
    assert table_paytable(WIKIPEDIA, "true-odds") == (find_paytable("true-odds"), False)


def test_check_seats_tries_the_seats_at_an_empty_table() -> None:
    pays = find_paytable("wikipedia")
    check_seats(WIKIPEDIA, pays, None, [Sit("Ann", Fraction(3)), Sit("Bob", Fraction(3), BotPolicy.SETTER)])
    with pytest.raises(IllegalError, match="illegal seat for 'ann': someone of that name is already"):
        check_seats(WIKIPEDIA, pays, None, [Sit("Ann", Fraction(3)), Sit("ann", Fraction(3))])
    with pytest.raises(InvalidError, match="invalid player name 'referee'"):
        check_seats(WIKIPEDIA, pays, None, [Sit("referee", Fraction(3))])


def test_every_action_is_recorded_before_the_table_moves(store: GameStore) -> None:
    session = start(store, dice=DiceKind.TYPED)
    moves: list[tuple[Actor, TableAction]] = [
        (ANN, Sit("Ann", Fraction(50))),
        (REFEREE, Sit("Ben", Fraction(50))),
        (BEN, Stake("Ben", Fraction(5))),
    ]
    for actor, action in moves:
        done = session.play(action, by=actor)
        assert isinstance(done, Recorded)
        assert (done.entry.actor, done.entry.item) == (actor, action)
    assert stored(store, session) == moves
    assert [entry.seq for entry in session.entries] == [1, 2, 3]
    done = session.play(Call(7), by=ANN)
    assert [str(e) for e in done.events] == ["the caster calls 7 as the main"]
    assert done.entry == session.entries[-1]
    assert load_game(store, session.game).table == session.table
    assert session.people == ["Ann", "Ben"]
    assert session.replayed().table == session.table


@pytest.mark.parametrize(
    ("actor", "action", "error", "fragment"),
    [
        (REFEREE, t(7), IllegalError, "Ann must call a main first"),
        (REFEREE, Stake("Zed", Fraction(5)), IllegalError, "illegal player 'Zed'"),
        (BEN, Stake("Ben", Fraction(50)), IllegalError, "Ben cannot cover it"),
        (BEN, Stake("Ben", Fraction(0)), InvalidError, "above 0"),
        (
            BEN,
            OfferBet("Ben", "4 or 13 before 7", Fraction(1)),
            InvalidError,
            "invalid proposition '4 or 13 before 7'",
        ),
        (REFEREE, Sit("ANN", Fraction(5)), IllegalError, "already at the table"),
        (ANN, Call(3), IllegalError, "illegal main 3"),
        # who may act
        (BEN, Call(7), ActorError, "illegal call 7 by Ben at the wikipedia table of 2 players"),
        (ANN, Stake("Ben", Fraction(1)), ActorError, "a player stakes only for himself"),
        (BEN, Sit("Cat", Fraction(1)), ActorError, "a player sits only himself down"),
        (Actor.player("Zed"), PassDice(), ActorError, "Zed is not at the table (seated: Ann, Ben)"),
        (ANN, Stake("Ben", Fraction(1), consent=True), ActorError, "a player stakes only for himself"),
    ],
    ids=repr,
)
def test_a_refused_action_writes_nothing_and_changes_nothing(
    store: GameStore, actor: Actor, action: TableAction, error: type[HazardError], fragment: str
) -> None:
    session = start(store, dice=DiceKind.TYPED)
    sit(session, ("Ann", 50), ("Ben", 50))
    before = session.table
    with pytest.raises(error) as caught:
        session.play(action, by=actor)
    assert type(caught.value) is error
    assert fragment in str(caught.value)
    assert session.table is before
    assert len(session.entries) == 2
    assert len(stored(store, session)) == 2


def test_act_reads_what_a_person_typed(store: GameStore) -> None:
    session = start(store, dice=DiceKind.TYPED)
    assert [r.entry.item for r in session.act("sit Ann 50", by=ANN)] == [Sit("Ann", Fraction(50))]
    session.act("sit Ben £20 10s", by=REFEREE)
    (done,) = session.act("stake 5/2", by=BEN)  # his own stake, his name left out
    assert (done.entry.actor, done.entry.item) == (BEN, Stake("Ben", Fraction(5, 2)))
    assert [str(e) for e in done.events] == ["Ben stakes 2.50 against Ann"]
    session.act("offer ben 1 on next odd at 3/2", by=REFEREE)  # any case names the seated player
    session.act("take 1", by=ANN)
    session.act("7", by=ANN)  # a call
    (thrown,) = session.act("3 4", by=REFEREE)  # the referee types the real dice
    assert thrown.entry.item == Roll(3, 4)
    assert isinstance(thrown.events[0], Thrown)
    assert [entry.item for entry in session.entries[2:]] == [
        Stake("Ben", Fraction(5, 2)),
        OfferBet("Ben", "next odd", Fraction(1), Fraction(3, 2)),
        TakeBet(1, "Ann"),
        Call(7),
        Roll(3, 4),
    ]
    assert load_game(store, session.game).table == session.table
    with pytest.raises(InvalidError, match="invalid command 'stake 5': the referee names the player"):
        session.act("stake 5", by=REFEREE)
    with pytest.raises(InvalidError, match="unknown command 'dance'"):
        session.act("dance", by=ANN)
    assert len(session.entries) == 7


def test_typed_in_throws_are_played_not_thrown(store: GameStore) -> None:
    session = start(store, dice=DiceKind.TYPED)
    sit(session, ("Ann", 50))
    session.play(Call(7), by=ANN)
    with pytest.raises(
        IllegalError, match=f"illegal throw by Ann in game {session.game}: its throws are real dice, typed in"
    ):
        session.throw(by=ANN)
    with pytest.raises(IllegalError, match="its throws are real dice"):
        session.act("throw", by=ANN)
    session.play(t(11), by=ANN)
    assert session.table.rounds_played == 1


def test_a_game_with_its_own_dice_refuses_a_named_roll(store: GameStore) -> None:
    session = start(store, dice=DiceKind.SEEDED, seed=5)
    sit(session, ("Ann", 50), ("Bob", 50))
    session.act("call 7", by=ANN)
    before = session.table
    for text in ("3-4", "throw 3-4", "34"):
        with pytest.raises(IllegalError) as caught:
            session.act(text, by=ANN)
        message = str(caught.value)
        assert message.startswith(f"illegal throw 3-4 by Ann in game {session.game}: "), message
        assert "its own seeded dice (seed 5)" in message
        assert "ask for a throw" in message
    with pytest.raises(
        IllegalError, match=r"by the referee in game \d+: the game throws its own seeded dice"
    ):
        session.play(Roll(3, 4), by=REFEREE)
    assert session.table is before
    assert len(session.entries) == 3
    (done,) = session.act(ThrowDice(), by=ANN)
    assert done.entry.item == SeededDice(5).throw(0)


def test_seeded_dice_throw_the_seeds_throws_in_order(store: GameStore) -> None:
    session = start(store, "ecws-1674", dice=DiceKind.SEEDED, seed=77)
    sit(session, ("Ann", 50))
    for _ in range(30):
        (done,) = session.throw(by=ANN)
        assert done.entry.actor == ANN
    throws = [entry.item for entry in session.entries[1:]]
    assert throws == [SeededDice(77).throw(i) for i in range(30)]


def test_secure_dice_play_a_game(store: GameStore) -> None:
    session = start(store, "sca-isenfir", dice=DiceKind.SECURE)
    sit(session, ("Ann", 50), ("Ben", 50))
    for _ in range(20):
        session.throw(by=REFEREE)
    assert session.table.throws == 20
    assert Session.resume(store, session.game, kind=GameKind.PLAY).table == session.table


class CountingDice:
    """Seeded dice that note every throw asked of them."""

    def __init__(self, seed: int) -> None:
        self.inner = SeededDice(seed)
        self.asked: list[int] = []

    def throw(self, index: int) -> Roll:
        self.asked.append(index)
        return self.inner.throw(index)


def test_a_refused_throw_reveals_nothing(store: GameStore) -> None:
    """A throw that is refused (the caster must call first; not the caster's throw) never asks the dice: its
    message shows no roll, and the next allowed throw shows what it would have shown anyway."""
    session = start(store, dice=DiceKind.SEEDED, seed=5)
    sit(session, ("Ann", 50), ("Bob", 50))
    dice = CountingDice(5)
    session.dice = dice
    refusals = []
    for actor in (ANN, REFEREE, BOB):
        with pytest.raises(IllegalError) as caught:
            session.act("throw", by=actor)
        refusals.append(str(caught.value))
    assert refusals[0].startswith("illegal throw by Ann in round (no main yet): Ann must call a main first")
    session.act("call 7", by=ANN)
    with pytest.raises(IllegalError) as caught:
        session.throw(by=BOB)  # Bob is not the caster
    refusals.append(str(caught.value))
    assert "only the caster, Ann, throws the dice" in refusals[-1]
    for message in refusals:
        assert re.search(r"[1-6]\s*-\s*[1-6]", message) is None, message
    assert dice.asked == []
    assert len(session.entries) == 3
    (done,) = session.throw(by=ANN)
    assert dice.asked == [0]
    assert done.entry.item == SeededDice(5).throw(0) == Roll(4, 6)


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


# --- resuming -----------------------------------------------------------------------------------------------


def play_bots(session: Session, throws: int) -> None:
    for _ in range(throws):
        session.bots_act()
        session.throw(by=REFEREE)


BOTS = (
    ("Cas", 40, BotPolicy.BYSTANDER),
    ("Sam", 40, BotPolicy.SETTER),
    ("Bea", 40, BotPolicy.BYSTANDER),
    ("Sue", 40, BotPolicy.SETTER),
)


@pytest.mark.parametrize("ruleset", [r.id for r in builtin_rulesets()])
def test_a_resumed_game_carries_on_exactly_as_if_never_stopped(tmp_path: Path, ruleset: str) -> None:
    brains = BotBrains(unit=Fraction(2))
    whole_store = GameStore.open(str(tmp_path / "whole.db"))
    whole = start(whole_store, ruleset, dice=DiceKind.SEEDED, seed=13, brains=brains)
    sit(whole, *BOTS)
    play_bots(whole, 60)

    store = GameStore.open(str(tmp_path / "stopped.db"))
    first = start(store, ruleset, dice=DiceKind.SEEDED, seed=13, brains=brains)
    sit(first, *BOTS)
    play_bots(first, 25)
    store.close()
    thrown = 25
    for stop in (20, 15):
        again = Session.resume(
            GameStore.open(str(tmp_path / "stopped.db")), first.game, kind=GameKind.PLAY, brains=brains
        )
        assert again.table.throws == thrown
        play_bots(again, stop)
        thrown += stop
        again.store.close()
    resumed = Session.resume(
        GameStore.open(str(tmp_path / "stopped.db")), first.game, kind=GameKind.PLAY, brains=brains
    )
    assert resumed.table == whole.table
    assert [(e.actor, e.item) for e in resumed.entries] == [(e.actor, e.item) for e in whole.entries]


def test_resume_refuses_a_record_it_cannot_replay(store: GameStore) -> None:
    session = start(store, dice=DiceKind.TYPED)
    sit(session, ("Ann", 50))
    store.append(session.game, ANN, t(7))  # written behind the session's back: a throw before the call
    with pytest.raises(InvalidError, match="does not replay: entry 2: illegal throw 1-6"):
        Session.resume(store, session.game, kind=GameKind.REFEREE)


def test_resume_refuses_a_game_of_the_other_kind(store: GameStore) -> None:
    play = start(store, dice=DiceKind.SEEDED, seed=4)
    referee = start(store, dice=DiceKind.TYPED)
    with pytest.raises(IllegalError) as caught:
        Session.resume(store, referee.game, kind=GameKind.PLAY)
    assert str(caught.value) == (
        f"illegal resume of game {referee.game} as a hazard play game: it is a hazard referee game "
        f"(typed dice); resume it with hazard referee --resume {referee.game}"
    )
    with pytest.raises(IllegalError) as caught:
        Session.resume(store, play.game, kind=GameKind.REFEREE)
    assert str(caught.value) == (
        f"illegal resume of game {play.game} as a hazard referee game: it is a hazard play game "
        f"(seeded dice (seed 4)); resume it with hazard play --resume {play.game}"
    )


def test_resume_without_a_game_picks_the_latest_of_its_kind(store: GameStore) -> None:
    with pytest.raises(IllegalError, match="holds no hazard referee game to resume"):
        Session.resume(store, None, kind=GameKind.REFEREE)
    first = start(store, dice=DiceKind.SEEDED, seed=4)
    referee = start(store, dice=DiceKind.TYPED)
    second = start(store, dice=DiceKind.SECURE)
    start(store, dice=DiceKind.SECURE, kind=GameKind.REFEREE)  # a kind is the game's, not its dice's
    assert first.game < referee.game < second.game
    assert Session.resume(store, None, kind=GameKind.PLAY).game == second.game
    assert Session.resume(store, kind=GameKind.REFEREE).game == second.game + 1
    resumed = Session.resume(store, None, kind=GameKind.PLAY)
    assert (resumed.info, resumed.dice is not None) == (second.info, True)


def test_a_stale_session_cannot_write_over_the_game(store: GameStore) -> None:
    """Two sessions on one game: once one has written, the other's table is stale and its action is refused,
    so the record stays one order that replays; the loser is told so, and catches up."""
    session = start(store, dice=DiceKind.TYPED)
    sit(session, ("Ann", 50), ("Bob", 50))
    one = Session.resume(store, session.game, kind=GameKind.REFEREE)
    other = Session.resume(store, session.game, kind=GameKind.REFEREE)
    one.act("stake Bob 20", by=REFEREE)
    with pytest.raises(StaleError) as caught:
        other.act("stake Bob 20", by=REFEREE)  # Bob cannot cover both: only the stale table thinks he can
    assert str(caught.value) == (
        f"illegal entry 3 of game {session.game}: the game has moved on (its record ends at entry 3, written "
        "by "
        "another session); nothing was written; this session has caught up: the table is now as the record "
        "has it, so look, then try again"
    )
    assert load_game(store, session.game).table == one.table == other.table  # caught up
    with pytest.raises(IllegalError, match="cannot cover"):
        other.act("stake Bob 20", by=REFEREE)  # now refused for the real reason
    other.act("stake Bob 1", by=REFEREE)
    with pytest.raises(StaleError):
        one.correct()  # a correction from a stale table is refused the same way
    assert one.table == other.table == load_game(store, session.game).table
    assert [entry.seq for entry in load_game(store, session.game).entries] == [1, 2, 3, 4]


def test_a_game_is_started_with_all_its_players_or_not_at_all(store: GameStore) -> None:
    seats = [Sit("Ann", Fraction(50)), Sit("Bob", Fraction(50), BotPolicy.SETTER)]
    session = start(store, seats=seats)
    assert [(r.entry.seq, r.entry.actor, r.entry.item) for r in session.opening] == [
        (1, ANN, seats[0]),
        (2, BOB, seats[1]),
    ]
    assert [str(event) for r in session.opening for event in r.events] == [
        "Ann sits down with 50.00",
        "Ann takes the dice",
        "Bob (setter bot) sits down with 50.00",
    ]
    assert load_game(store, session.game).entries == tuple(session.entries)
    refereed = start(store, dice=DiceKind.TYPED, seats=seats, seated_by=REFEREE)
    assert [entry.actor for entry in refereed.entries] == [REFEREE, REFEREE]
    games = len(store.games())
    with pytest.raises(IllegalError, match="Ann"):  # a second Ann: nothing is written, not even the game
        start(store, seats=[*seats, Sit("Ann", Fraction(5))])
    assert len(store.games()) == games


# Two processes play one refereed game at once, each as fast as it can; each writes down every entry the
# record acknowledged to it.
_RIVAL = textwrap.dedent(
    """
    import json, random, sys
    from hazard.table import REFEREE, GameKind, GameStore, Session, StaleError, IllegalError

    path, game, name, rounds = sys.argv[1], int(sys.argv[2]), sys.argv[3], int(sys.argv[4])
    store = GameStore.open(path)
    session = Session.resume(store, game, kind=GameKind.REFEREE)
    dice = random.Random(name)
    acknowledged, refused = [], 0
    for _ in range(rounds):
        turn = session.table.turn
        line = "call 7" if turn.need.value == "call" else f"{dice.randint(1, 6)}-{dice.randint(1, 6)}"
        try:
            for done in session.act(line, by=REFEREE):
                acknowledged.append([done.entry.seq, done.entry.at, line])
        except StaleError:
            refused += 1  # caught up: the next line is chosen from the table as the record has it
        except IllegalError:
            session.catch_up()
    print(json.dumps({"acknowledged": acknowledged, "refused": refused}))
    """
)


def test_two_processes_writing_one_game_keep_it_whole(database: str) -> None:
    db = database
    store = GameStore.open(db)
    game = start(
        store, dice=DiceKind.TYPED, seats=[Sit("Ann", Fraction(10**6)), Sit("Bob", Fraction(10**6))]
    ).game
    env = {**os.environ, "PYTHONPATH": str(SRC)}
    rivals = [
        subprocess.Popen(
            [sys.executable, "-c", _RIVAL, str(db), str(game), name, "150"],
            stdout=subprocess.PIPE,
            text=True,
            env=env,
        )
        for name in ("one", "two")
    ]
    outputs = [rival.communicate(timeout=120)[0] for rival in rivals]
    assert [rival.returncode for rival in rivals] == [0, 0]
    results = [json.loads(output) for output in outputs]
    loaded = load_game(store, game)  # replays: one order of entries, each from the table before it
    by_seq = {entry.seq: entry for entry in loaded.entries}
    acknowledged = [seq for result in results for seq, _, _ in result["acknowledged"]]
    assert len(acknowledged) == len(set(acknowledged))  # no entry was acknowledged to both
    assert sorted(acknowledged) == list(range(3, len(loaded.entries) + 1))  # and every one is in the record
    for result in results:
        for seq, at, line in result["acknowledged"]:
            assert by_seq[seq].at == at
            assert action_text(by_seq[seq].item) == (line if line == "call 7" else f"throw {line}")
    assert len(loaded.entries) > 150  # both got to write


# --- corrections --------------------------------------------------------------------------------------------


def referee_game(store: GameStore) -> Session:
    session = start(store, dice=DiceKind.TYPED)
    sit(session, ("Ann", 100), ("Ben", 100))
    session.play(Stake("Ben", Fraction(10)), by=BEN)
    session.play(Call(7), by=ANN)
    session.play(t(2), by=REFEREE)  # entry 5: typed by mistake; the dice showed 11
    return session


def test_a_correction_replaces_an_entry_and_keeps_it(store: GameStore) -> None:
    session = referee_game(store)
    assert session.table.player("Ann").bankroll == 90
    before, correction, table = session.correct(5, t(11))
    assert isinstance(before, Entry)
    assert (before.seq, before.item) == (5, t(2))
    assert (correction.seq, correction.actor, correction.item) == (6, REFEREE, Correction(5, t(11)))
    assert table is session.table
    assert session.table.player("Ann").bankroll == 110
    assert stored(store, session)[4] == (REFEREE, t(2))
    assert stored(store, session)[5] == (REFEREE, Correction(5, t(11)))
    assert Session.resume(store, session.game, kind=GameKind.REFEREE).table == session.table
    # and play goes on from the corrected state
    session.play(Call(6), by=ANN)
    assert Session.resume(store, session.game, kind=GameKind.REFEREE).table == session.table


def test_a_correction_voids_an_entry(store: GameStore) -> None:
    session = referee_game(store)
    session.correct(3)
    assert session.table.player("Ann").bankroll == 100
    assert len(stored(store, session)) == 6
    assert Session.resume(store, session.game, kind=GameKind.REFEREE).table == session.table


@pytest.mark.slow
def test_a_correction_replays_only_what_follows_the_last_table_kept(
    store: GameStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    """At 1,500 entries, an undo plays at most MARK_EVERY actions again, not the whole game."""
    import hazard.table.live.timeline as game_module

    session = start(
        store, dice=DiceKind.TYPED, seats=[Sit("Ann", Fraction(10**6)), Sit("Bob", Fraction(10**6))]
    )
    rolls = [t(4), t(5), t(6), t(8), t(9), t(10), t(2), t(3), t(12), t(7)]
    for step in range(1500):
        session.act(
            "call 7" if session.table.turn.need is Need.CALL else str(rolls[step % len(rolls)]), by=REFEREE
        )
    played = []
    real = game_module.apply_action

    def counted(*args: Any, **kwargs: Any) -> Any:
        played.append(1)
        return real(*args, **kwargs)

    monkeypatch.setattr(game_module, "apply_action", counted)
    before = session.table
    session.correct()
    assert 0 < len(played) <= game_module.MARK_EVERY
    assert session.table == replay(session.info, session.entries).table != before
    played.clear()
    session.correct(700)  # half-way back: the half after it, and no more
    assert len(played) <= len(session.entries) - 700 + game_module.MARK_EVERY
    assert session.table == replay(session.info, session.entries).table


def test_undo_voids_the_last_action_that_stands(store: GameStore) -> None:
    session = referee_game(store)
    first, _, _ = session.correct()
    assert first.seq == 5
    second, _, table = session.correct()
    assert second.seq == 4  # the throw is void already: the call is the last action standing
    assert table.round.main is None
    empty = start(store, dice=DiceKind.TYPED)
    with pytest.raises(IllegalError, match="illegal undo: no action stands in the record yet"):
        empty.correct()


def test_only_the_referee_corrects(store: GameStore) -> None:
    session = referee_game(store)
    before = session.table
    for actor in (ANN, BEN):
        with pytest.raises(IllegalError) as caught:
            session.correct(5, t(11), by=actor)
        assert str(caught.value) == (
            f"illegal correction of entry 5 by {actor}: only the referee corrects the record"
        )
        with pytest.raises(IllegalError, match=f"by {actor}: only the referee corrects the record"):
            session.correct(by=actor)  # an undo too
    assert session.table is before
    assert len(stored(store, session)) == 5


@pytest.mark.parametrize(
    ("target", "replacement", "fragment"),
    [
        (1, None, "entry 3: illegal stake of 10 by 'Ben': the caster cannot stake against himself"),
        (4, Call(4), "illegal main 4"),
        (5, Stake("Ben", Fraction(1)), "before the round begins"),
        (9, None, "it can only correct entries 1 to 5"),
        (6, None, "it can only correct entries 1 to 5"),
    ],
    ids=repr,
)
def test_a_correction_that_would_not_replay_is_refused_and_nothing_is_written(
    store: GameStore, target: int, replacement: TableAction | None, fragment: str
) -> None:
    session = referee_game(store)
    before = session.table
    with pytest.raises(IllegalError) as caught:
        session.correct(target, replacement)
    assert f"illegal correction of entry {target}" in str(caught.value)
    assert fragment in str(caught.value)
    assert session.table is before
    assert len(session.entries) == 5
    assert len(stored(store, session)) == 5


def test_a_correction_cannot_name_a_roll_in_a_game_with_its_own_dice(store: GameStore) -> None:
    """A game that throws its own dice refuses a named roll (``play``); a correction must not let one in.

    Seed 5 throws 4-6 first: the chance is 10. Replacing that throw with 3-4 would make it a nick for Ann.
    """
    session = start(store, dice=DiceKind.SEEDED, seed=5)
    sit(session, ("Ann", 50), ("Bob", 50))
    session.act("stake 5", by=BOB)
    session.act("call 7", by=ANN)
    (thrown,) = session.act("throw", by=ANN)
    assert thrown.entry.item == Roll(4, 6)
    before = session.table
    with pytest.raises(IllegalError) as caught:
        session.correct(thrown.entry.seq, Roll(3, 4))
    assert f"illegal correction of entry {thrown.entry.seq}" in str(caught.value)
    assert "own" in str(caught.value)  # the game throws its own dice
    assert session.table is before
    assert len(stored(store, session)) == 5


def test_a_correction_cannot_target_a_correction(store: GameStore) -> None:
    session = referee_game(store)
    session.correct(5, t(11))
    with pytest.raises(IllegalError, match="illegal correction of entry 6: it is a correction itself"):
        session.correct(6)
    assert len(stored(store, session)) == 6


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


# --- a game killed with kill -9 -----------------------------------------------------------------------------

_CHILD = textwrap.dedent(
    """
    import sys, time
    from fractions import Fraction
    from hazard.core.rulesets import find_ruleset
    from hazard.table import REFEREE, Actor, BotBrains, BotPolicy, DiceKind, GameStore, Session, Sit
    from hazard.table import TableSpec, table_paytable

    path, mode = sys.argv[1], sys.argv[2]
    rules = find_ruleset("wikipedia")
    session = Session.start(
        GameStore.open(path),
        TableSpec(
            rules, table_paytable(rules)[0], dice=DiceKind.SEEDED, seed=21, bots=BotBrains(unit=Fraction(2))
        ),
    )
    for name, bot in (("Cas", "bystander"), ("Sam", "setter"), ("Bea", "bystander"), ("Sue", "setter")):
        session.play(Sit(name, Fraction(40), BotPolicy(bot)), by=Actor.player(name))
    print(session.game, flush=True)
    for step in range(20000):
        session.bots_act()
        session.throw(by=REFEREE)
        if mode == "mid-round" and len(session.entries) > 60 and session.table.round_begun:
            print("mid-round", flush=True)
            time.sleep(120)  # killed here; the bound only matters if the test itself died
            sys.exit(3)
        if mode == "busy" and step == 30:
            print("busy", flush=True)  # and it plays on, writing, until it is killed
    """
)


def _next_line(lines: queue.Queue[str]) -> str:
    """The child's next line; a guard, not a timing check, so a broken child cannot hang the suite."""
    try:
        return lines.get(timeout=120)
    except queue.Empty:
        pytest.fail("the game process stopped talking")


def reference(length: int) -> Session:
    """The same game as the child's, played here without interruption to at least ``length`` entries."""
    session = start(
        GameStore.open("sqlite://", in_memory=True),
        dice=DiceKind.SEEDED,
        seed=21,
        brains=BotBrains(unit=Fraction(2)),
    )
    sit(session, *BOTS)
    for _ in range(length):  # each step writes at least one entry
        if len(session.entries) >= length:
            break
        session.bots_act()
        session.throw(by=REFEREE)
    return session


@pytest.mark.parametrize("mode", ["mid-round", "busy"])
def test_a_game_killed_mid_round_resumes_with_identical_state(tmp_path: Path, mode: str) -> None:
    db = tmp_path / "killed.db"
    env = {**os.environ, "PYTHONPATH": str(SRC)}
    child = subprocess.Popen(
        [sys.executable, "-c", _CHILD, str(db), mode], stdout=subprocess.PIPE, text=True, env=env
    )
    lines: queue.Queue[str] = queue.Queue()

    def pump() -> None:
        assert child.stdout is not None
        for line in child.stdout:
            lines.put(line.strip())

    threading.Thread(target=pump, daemon=True).start()
    try:
        game = int(_next_line(lines))
        assert _next_line(lines) == mode
    finally:
        child.send_signal(signal.SIGKILL)
        child.wait()
    assert child.returncode == -signal.SIGKILL

    store = GameStore.open(str(db))
    resumed = Session.resume(store, game, kind=GameKind.PLAY, brains=BotBrains(unit=Fraction(2)))
    count = len(resumed.entries)
    assert count > 60 if mode == "mid-round" else count >= 30
    if mode == "mid-round":
        assert resumed.table.round_begun
    whole = reference(count + 40)
    assert [(e.actor, e.item) for e in resumed.entries] == [(e.actor, e.item) for e in whole.entries[:count]]
    assert resumed.table == replay(whole.info, whole.entries[:count]).table
    # and it carries on exactly as the uninterrupted game did
    for _ in range(30):
        resumed.bots_act()
        resumed.throw(by=REFEREE)
    more = len(resumed.entries)
    assert [(e.actor, e.item) for e in resumed.entries] == [
        (e.actor, e.item) for e in reference(more).entries[:more]
    ]
    store.close()


# A game killed at the n-th SQL statement it sends: inside the transaction that starts it and seats its
# players,
# and inside each of the first appends after it.
_KILLED_AT = textwrap.dedent(
    """
    import os, random, signal, sys
    from fractions import Fraction
    from sqlalchemy import event
    from hazard.core.rulesets import find_ruleset
    from hazard.table import REFEREE, DiceKind, GameKind, GameStore, Session, Sit, TableSpec, table_paytable

    path, statements = sys.argv[1], int(sys.argv[2])
    store = GameStore.open(path)
    sent = 0

    def count(statement):
        global sent
        sent += 1
        if sent == statements:
            os.kill(os.getpid(), signal.SIGKILL)

    @event.listens_for(store._engine, "connect")
    def trace(connection, record):
        connection.set_trace_callback(count)

    store._engine.dispose()  # new connections from here on, each traced
    rules = find_ruleset("wikipedia")
    seats = [Sit(name, Fraction(100)) for name in ("Ann", "Bob", "Cat")]
    session = Session.start(
        store, TableSpec(rules, table_paytable(rules)[0], dice=DiceKind.TYPED, kind=GameKind.REFEREE),
        seats=seats, seated_by=REFEREE,
    )
    print(f"started {session.game}", flush=True)
    dice = random.Random(7)
    for _ in range(40):
        roll = f"{dice.randint(1, 6)}-{dice.randint(1, 6)}"
        line = "call 7" if session.table.turn.need.value == "call" else roll
        for done in session.act(line, by=REFEREE):
            print(f"acknowledged {done.entry.seq}", flush=True)
    print("finished", flush=True)
    """
)


@pytest.mark.slow
def test_a_game_killed_at_any_statement_keeps_everything_it_acknowledged(tmp_path: Path) -> None:
    """kill -9 at each of the first statements: setup is whole or absent; every acknowledged entry is kept."""
    env = {**os.environ, "PYTHONPATH": str(SRC)}
    points = [*range(1, 25), *range(25, 120, 10), 10**9]  # the last: never killed
    children = {
        point: subprocess.Popen(
            [sys.executable, "-c", _KILLED_AT, str(tmp_path / f"{point}.db"), str(point)],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env=env,
        )
        for point in points
    }
    outcomes = set()
    for point, child in children.items():
        out, err = child.communicate(timeout=120)
        lines = out.split()
        killed = child.returncode == -signal.SIGKILL
        assert killed or (child.returncode == 0 and "finished" in lines), (point, err)
        store = GameStore.open(str(tmp_path / f"{point}.db"))
        games = store.games()
        if "started" not in out:
            outcomes.add("killed while starting")
            assert games == [] or [g.entries for g in games] == [3], point  # all three seated, or no game
            if not games:
                continue
        (game,) = games
        loaded = load_game(store, game.id)  # whatever was cut short, the record replays
        assert [player.name for player in loaded.table.players] == ["Ann", "Bob", "Cat"]
        acknowledged = [int(n) for word, n in itertools.pairwise(lines) if word == "acknowledged"]
        assert acknowledged == list(range(4, 4 + len(acknowledged))), point
        last = acknowledged[-1] if acknowledged else 3
        assert len(loaded.entries) in (last, last + 1), point  # at most one written but not yet acknowledged
        outcomes.add("killed in play" if killed else "finished")
        resumed = Session.resume(store, game.id, kind=GameKind.REFEREE)
        resumed.act("call 7" if resumed.table.turn.need is Need.CALL else "2-2", by=REFEREE)
        store.close()
    assert outcomes == {"killed while starting", "killed in play", "finished"}


# --- the property: random games with bots conserve money and replay exactly ---------------------------------

BUILTINS = [r.id for r in builtin_rulesets()]
PROPOSITIONS = [
    *SOURCE_BETS,
    *SOURCE_EXAMPLES,
    "next 7",
    "doublets within 2 throws",
    "not 6 before 8",
    "purple",
]
AMOUNTS = [Fraction(1), Fraction(2), Fraction(5, 2), Fraction(4, 5), Fraction(10), Fraction(50)]


def sat_money(session: Session) -> Fraction:
    """The money brought to the table: the standing Sit entries' bankrolls."""
    return sum(
        (a.bankroll for _, _, a in effective_actions(session.entries) if isinstance(a, Sit)),
        Fraction(0),
    )


def check(session: Session) -> None:
    table = session.table
    assert table.total_money == sat_money(session)
    for player in table.players:
        assert player.bankroll >= 0, player
        assert table.available(player.name) >= 0, player


def person_action(data: st.DataObject, table: Table) -> tuple[Actor, TableAction]:
    names = [p.name for p in table.players]
    who = data.draw(st.sampled_from([*names, "Nobody"]))
    actor = data.draw(
        st.sampled_from([Actor.player(who), Actor.player(who), REFEREE, *map(Actor.player, names)])
    )
    amount = data.draw(st.sampled_from(AMOUNTS))
    numbers = [b.number for b in table.side_bets] or [1]
    kind = data.draw(st.sampled_from(["stake", "withdraw", "offer", "take", "cancel", "pass", "call", "sit"]))
    if kind == "stake":
        return actor, Stake(who, amount, consent=data.draw(st.booleans()))
    if kind == "withdraw":
        return actor, Withdraw(who)
    if kind == "offer":
        odds = data.draw(
            st.sampled_from([Fraction(1), Fraction(1), Fraction(3, 2), Fraction(5), Fraction(1, 3)])
        )
        return actor, OfferBet(who, data.draw(st.sampled_from(PROPOSITIONS)), amount, odds)
    if kind == "take":
        return actor, TakeBet(data.draw(st.sampled_from(numbers)), who)
    if kind == "cancel":
        return actor, CancelBet(data.draw(st.sampled_from(numbers)))
    if kind == "pass":
        return actor, PassDice()
    if kind == "call":
        return actor, Call(data.draw(st.sampled_from([*table.ruleset.mains, 4])))
    late = f"Late{len(names)}"
    bot = data.draw(st.sampled_from([None, BotPolicy.SETTER, BotPolicy.BYSTANDER]))
    return data.draw(st.sampled_from([Actor.player(late), REFEREE])), Sit(late, amount * 3, bot)


def a_throw(data: st.DataObject, session: Session, moved: list[Fraction], bets: list[Fraction]) -> None:
    """As a game loop does: the bots, then the caster's call, then the dice."""
    session.bots_act()
    table = session.table
    if to_move(table.round) is Mover.CASTER:
        caster = table.player(table.caster or "")
        if caster.bot is not None:
            session.bots_act()
        else:
            session.play(Call(data.draw(st.sampled_from(table.ruleset.mains))), by=Actor.player(caster.name))
    if to_move(session.table.round) is not Mover.DICE:
        return
    thrower = data.draw(st.sampled_from([REFEREE, Actor.player(session.table.caster or "")]))
    for done in session.throw(by=thrower):
        for happened in done.events:
            if isinstance(happened, RoundSettled):
                assert all(transfer.amount > 0 for transfer in happened.transfers)
                moved.append(sum((transfer.amount for transfer in happened.transfers), Fraction(0)))
            if isinstance(happened, BetSettled):
                bets.append(happened.transfer.amount)


@pytest.mark.slow
@settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    derandomize=True,
)
@given(st.data())
def test_random_games_with_bots_conserve_money_and_replay_exactly(data: st.DataObject) -> None:
    rules = find_ruleset(data.draw(st.sampled_from(BUILTINS), label="ruleset"))
    paytable = data.draw(st.sampled_from([None, "even", "true-odds"]), label="paytable")
    pays = find_paytable(paytable) if paytable else table_paytable(rules)[0]
    stakes = data.draw(st.none() | st.sampled_from(StakeArrangement), label="stakes")
    seed = data.draw(st.integers(0, 2**32), label="seed")
    unit = data.draw(st.sampled_from([Fraction(1), Fraction(2), Fraction(5, 2)]), label="unit")
    bots_only = data.draw(st.booleans(), label="bots only")
    policies = [BotPolicy.SETTER, BotPolicy.BYSTANDER] + ([] if bots_only else [None])
    seats = data.draw(
        st.lists(st.tuples(st.integers(0, 60), st.sampled_from(policies)), min_size=2, max_size=5),
        label="seats",
    )
    if bots_only:
        assert seats[0][1] is not None  # the first to sit holds the dice: a bot caster

    store = GameStore.open("sqlite://", in_memory=True)
    session = Session.start(
        store,
        TableSpec(rules, pays, stakes=stakes, dice=DiceKind.SEEDED, seed=seed, bots=BotBrains(unit=unit)),
    )
    for index, (bankroll, bot) in enumerate(seats):
        session.play(Sit(f"P{index}", Fraction(bankroll), bot), by=Actor.player(f"P{index}"))
    check(session)

    steps = data.draw(st.integers(30, 80), label="steps")
    moved: list[Fraction] = []
    bets: list[Fraction] = []
    for _ in range(steps):
        move = data.draw(st.sampled_from(["throw", "throw", "throw", "bots", "person", "typed", "correct"]))
        if move == "bots":
            session.bots_act()
        elif move == "throw" and session.table.caster is None:
            # Corrections have voided every seat: the table refuses to play, and records nothing.
            written = len(session.entries)
            with pytest.raises(IllegalError, match="nobody is at the table yet"):
                session.throw(by=REFEREE)
            assert len(session.entries) == written
        elif move == "throw":
            a_throw(data, session, moved, bets)
        elif move in ("person", "typed") and not bots_only:
            before, written = session.table, len(session.entries)
            actor, action = person_action(data, session.table)
            try:
                if move == "typed":  # the same, as the text a person types
                    session.act(action_text(action), by=actor)
                else:
                    session.play(action, by=actor)
            except HazardError:
                assert session.table is before
                assert len(session.entries) == written
        elif move == "correct" and not bots_only and session.entries:
            target = data.draw(st.integers(1, len(session.entries)))
            with contextlib.suppress(IllegalError):  # a correction that would not replay
                session.correct(target)
        check(session)

    event(f"rounds played: {min(session.table.rounds_played, 5)}")
    event(f"rounds where money changed hands: {min(sum(1 for m in moved if m), 3)}")
    event(f"side bets settled: {min(len(bets), 3)}")
    event(f"entries: {min(len(session.entries) // 20 * 20, 60)}+")
    loaded = load_game(store, session.game)
    assert loaded.table == session.table
    assert [(e.actor, e.item) for e in loaded.entries] == [(e.actor, e.item) for e in session.entries]
    assert Session.resume(store, session.game, kind=GameKind.PLAY).table == session.table
    store.close()


# --- fair dice ---------------------------------------------------------------------------------------------


def fair_game(store: GameStore, ruleset: str = "wikipedia") -> Session:
    return start(
        store,
        ruleset,
        dice=DiceKind.FAIR,
        seats=[Sit("Ann", Fraction(1000)), Sit("Bob", Fraction(1000)), Sit("Cat", Fraction(1000))],
    )


def play_fair(session: Session, throws: int) -> None:
    """The caster calls 7 where he must, and throws: ``throws`` times."""
    for _ in range(throws):
        caster = Actor.player(session.table.caster or "")
        if session.table.turn.need is Need.CALL:
            session.act("call 7", by=caster)
        session.act("throw", by=caster)


def check_every_revealed_hand(session: Session) -> int:
    """Every revealed hand's seed hashes to its commitment and gives its throws: the throws checked."""
    from hazard.table import commitment, fair_ledger, fair_throw

    checked = 0
    for hand in fair_ledger(session.info, session.entries).hands:
        if hand.server_seed is None:
            continue
        seed = bytes.fromhex(hand.server_seed)
        assert commitment(seed) == hand.commitment
        assert hand.client_seed is not None
        for _, nonce, roll in hand.throws:
            assert fair_throw(seed, hand.client_seed, nonce) == roll
            checked += 1
    return checked


def test_fair_dice_commit_before_each_hand_and_reveal_after_it(store: GameStore) -> None:
    from hazard.table import ClientSeeded, Committed, HandOpened, Revealed, fair_ledger

    session = fair_game(store)
    # The players seated with the game, the seeds the dice draw for them, then the first hand's commitment:
    # the server chooses nothing once it has committed (issue 19, finding 8).
    opening = [entry.item for entry in session.entries]
    assert [type(item).__name__ for item in opening] == ["Sit"] * 3 + ["ClientSeeded"] * 3 + ["Committed"]
    assert [entry.actor.kind.value for entry in session.entries[3:]] == ["dice"] * 4
    session.act("seed ann's-own", by=ANN)
    for _ in range(3000):  # until the dice have passed twice (three lost rounds in a row pass them)
        play_fair(session, 1)
        if session.fair is not None and session.fair.hand is not None and session.fair.hand.number >= 3:
            break
    hands = fair_ledger(session.info, session.entries).hands
    assert len(hands) >= 3
    items = [entry.item for entry in session.entries]
    first_throw = next(i for i, item in enumerate(items) if isinstance(item, Roll))
    assert isinstance(items[first_throw - 1], HandOpened)
    drawn = [item for item in items[:first_throw] if isinstance(item, ClientSeeded)]
    assert [(s.player, len(s.seed)) for s in drawn] == [("Ann", 16), ("Bob", 16), ("Cat", 16), ("Ann", 9)]
    assert hands[0].client_seed == ",".join(s.seed for s in drawn[3:] + drawn[1:3])
    for before, after in itertools.pairwise(hands):
        assert before.server_seed is not None  # every hand but the last has ended and shown its seed
        reveal = next(
            i for i, item in enumerate(items) if item == Revealed(before.number, before.server_seed)
        )
        assert items[reveal + 1] == Committed(after.number, after.commitment)  # the next one at once
    assert check_every_revealed_hand(session) > 0
    assert load_game(store, session.game).table == session.table


def test_the_seed_of_a_hand_in_play_is_shown_nowhere(store: GameStore, tmp_path: Path) -> None:
    from hazard.cli.tableview import entries_view, table_view
    from hazard.table import game_json

    session = fair_game(store)
    play_fair(session, 3)
    hand = session.fair.current if session.fair else None
    assert hand is not None
    assert session.secret is not None
    secret = session.secret.hex()
    assert store.secret(session.game, hand.number) == session.secret  # kept, for a resume
    loaded = load_game(store, session.game)
    shown = [
        json.dumps(game_json(loaded)),
        "\n".join(entry_text_of(entry) for entry in loaded.entries),
        render(entries_view(loaded)),
        render(table_view(loaded.table, hand=hand)),
        subprocess.run(
            [
                sys.executable,
                "-m",
                "hazard",
                "record",
                "show",
                str(session.game),
                "--db",
                str(tmp_path / "games.db"),
            ],
            capture_output=True,
            text=True,
            check=True,
        ).stdout,
    ]
    for text in shown:
        assert secret not in text
    assert any(hand.commitment in text for text in shown)
    assert game_json(loaded)["hands"][-1]["server_seed"] is None


def entry_text_of(entry: Entry) -> str:
    from hazard.table.live.timeline import entry_text

    return entry_text(entry)


def render(renderable: object) -> str:
    from rich.console import Console

    console = Console(width=200, record=True, file=open(os.devnull, "w"))  # noqa: SIM115
    console.print(renderable)
    return console.export_text()


def test_a_seed_is_set_between_hands_by_its_player_in_a_fair_game_only(store: GameStore) -> None:
    session = fair_game(store)
    with pytest.raises(IllegalError, match="a player sets only his own seed"):
        session.set_seed(SetSeed("Bob", "mine"), by=ANN)
    with pytest.raises(InvalidError, match="invalid client seed"):
        session.act("seed " + "x" * 65, by=ANN)
    session.act("seed Cat cat's", by=REFEREE)  # the referee sets anyone's
    play_fair(session, 1)
    with pytest.raises(IllegalError, match="set a seed between hands"):
        session.act("seed later", by=ANN)
    other = start(store, dice=DiceKind.SEEDED, seed=3, seats=[Sit("Ann", Fraction(10))])
    with pytest.raises(IllegalError, match="not fair dice"):
        other.act("seed mine", by=ANN)


def test_a_seat_sets_one_seed_a_hand_before_its_first_throw(store: GameStore) -> None:
    """Issue 19, finding 8: a page sets its seat's seed once a hand; a second one for the same hand, one for a
    hand that is over or not yet committed, and one after the hand's first throw are refused, each saying
    why, and write nothing."""
    session = fair_game(store)
    assert session.fair is not None
    first = session.set_seed(SetSeed("Ann", "a1", 1), by=ANN)
    assert session.fair.fresh_entry("Ann") == first.entry.seq
    written = len(session.entries)
    with pytest.raises(
        IllegalError, match=rf"Ann's seed for this hand is set already \(entry {first.entry.seq}\)"
    ):
        session.act("seed a2", by=ANN)
    with pytest.raises(IllegalError, match="set already"):
        session.set_seed(SetSeed("Ann", "a3"), by=REFEREE)  # the referee sets it for him no second time
    with pytest.raises(
        IllegalError, match="for hand 2: that hand is not committed yet; the dice are committed to hand 1"
    ):
        session.set_seed(SetSeed("Bob", "b1", 2), by=BOB)
    assert len(session.entries) == written
    session.set_seed(SetSeed("Bob", "b1", 1), by=BOB)  # each seat sets its own
    play_fair(session, 1)
    with pytest.raises(IllegalError, match="illegal seed for Cat in hand 1: its dice have been thrown"):
        session.set_seed(SetSeed("Cat", "c1", 1), by=CAT)
    for _ in range(3000):  # until the dice pass
        if session.fair.current is not None and session.fair.current.number > 1:
            break
        play_fair(session, 1)
    hand = session.fair.current
    assert hand is not None
    assert hand.number == 2
    assert session.fair.fresh == ()  # a new hand: every seat may set a seed again
    with pytest.raises(IllegalError, match="for hand 1: that hand is over; the dice are committed to hand 2"):
        session.set_seed(SetSeed("Ann", "late", 1), by=ANN)
    session.set_seed(SetSeed("Ann", "a-2", 2), by=ANN)
    assert session.fair.seed_of("Ann") == "a-2"


def test_a_server_grinding_a_bots_seed_has_nothing_left_to_grind_against(
    store: GameStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 19, finding 8, the attack: a server that, whenever it draws a seed for a seat that has none (a
    bot here), tries seeds until the hand committed now begins with four 7s. When the dice drew those seeds at
    a hand's first throw, after its commitment and after Ann's own seed, it always found one (276 tries in the
    issue's run); now they are drawn before the commitment they serve, and before the players' own seeds for
    that hand, so there is nothing to try them against: the grinder's aim is met in no hand, and the record
    shows every drawn seed before the commitment of every hand it is part of."""
    import hashlib

    from hazard.table import game_json, verify_game
    from hazard.table.fair.commit_reveal import ClientSeeded, Committed, HandOpened, fair_throw
    from hazard.table.live import fair_hands

    servers = (hashlib.sha256(f"server {n}".encode()).digest() for n in itertools.count())
    monkeypatch.setattr(fair_hands, "new_server_seed", lambda: next(servers))
    session = start(store, dice=DiceKind.FAIR)
    sit(session, ("Ann", 1000), ("Bob", 1000, BotPolicy.BYSTANDER))
    tries: list[int] = []

    def grind() -> str:
        # Every seed known now, and the seed the dice are committed to now: the best a server can do.
        assert session.fair is not None
        assert session.secret is not None
        parts = [session.fair.seed_of(p.name) for p in session.table.players]
        for n in range(100_000):
            candidate = f"{n:016x}"
            client = ",".join(candidate if part is None else part for part in parts)
            if all(fair_throw(session.secret, client, k).total == 7 for k in range(4)):
                tries.append(n)
                return candidate
        raise AssertionError("no seed found")

    monkeypatch.setattr(fair_hands, "new_client_seed", grind)
    seeded: set[int] = set()
    for _ in range(3000):  # until hand 3 is committed
        assert session.fair is not None
        hand = session.fair.current
        assert hand is not None
        if hand.number >= 3:
            break
        if hand.number not in seeded:  # Ann sets a seed of her own after each commitment
            seeded.add(hand.number)
            session.act(f"seed ann-{hand.number}", by=ANN)
        play_fair(session, 1)
    assert tries  # the grinder was asked, and found what it looked for
    loaded = load_game(store, session.game)
    for hand in loaded.ledger.hands:
        first = [roll.total for _, _, roll in hand.throws[:4]]
        assert first != [7, 7, 7, 7], f"hand {hand.number} begins as the grinder chose"
    committed = {e.item.hand: e.seq for e in loaded.entries if isinstance(e.item, Committed)}
    opened = {e.item.hand: e.seq for e in loaded.entries if isinstance(e.item, HandOpened)}
    drawn = [
        e.seq for e in loaded.entries if isinstance(e.item, ClientSeeded) and e.actor.kind.value == "dice"
    ]
    assert drawn
    for number, start_at in committed.items():
        assert not any(start_at < seq < opened.get(number, len(loaded.entries) + 1) for seq in drawn)
    result = verify_game(game_json(loaded))
    assert result.ok, result.problem
    assert result.warnings == ()  # Ann's own seed, set after each commitment, is in each hand
    assert all([seed.player for seed in hand.chosen] == ["Ann"] for hand in result.checked if hand.throws)


def test_a_throw_of_the_fair_dice_cannot_be_corrected(store: GameStore) -> None:
    session = fair_game(store)
    play_fair(session, 2)
    throw = next(entry.seq for entry in session.entries if isinstance(entry.item, Roll))
    with pytest.raises(IllegalError, match="a throw of the fair dice, which stand as thrown"):
        session.correct(throw)
    commit = next(entry.seq for entry in session.entries if entry.actor.kind.value == "dice")
    with pytest.raises(IllegalError, match="a note of the fair dice"):
        session.correct(commit)


def test_a_fair_game_whose_kept_seed_is_lost_is_refused_on_resume(store: GameStore, db: Path) -> None:
    session = fair_game(store)
    play_fair(session, 2)
    sql(db, "DELETE FROM hazard_secrets")
    with pytest.raises(InvalidError, match="is not kept"):
        Session.resume(store, session.game, kind=GameKind.PLAY)


_FAIR_CHILD = textwrap.dedent(
    """
    import sys
    from fractions import Fraction
    from hazard.core.rulesets import find_ruleset
    from hazard.table import Actor, DiceKind, GameStore, Session, Sit, TableSpec, table_paytable

    rules = find_ruleset("wikipedia")
    session = Session.start(
        GameStore.open(sys.argv[1]), TableSpec(rules, table_paytable(rules)[0], dice=DiceKind.FAIR),
        seats=[Sit(name, Fraction(1000)) for name in ("Ann", "Bob")],
    )
    print(session.game, flush=True)
    for _ in range(10000):
        caster = Actor.player(session.table.caster)
        if session.table.turn.need.value == "call":
            session.act("call 7", by=caster)
        session.act("throw", by=caster)
        hand = session.fair.current
        if hand is not None and len(hand.throws) >= 3 and hand.number >= 2:
            print("mid-hand", flush=True)
            sys.stdin.readline()  # killed here
    """
)


def test_fair_dice_killed_mid_hand_resume_and_every_throw_verifies(tmp_path: Path) -> None:
    db = tmp_path / "fair.db"
    env = {**os.environ, "PYTHONPATH": str(SRC)}
    child = subprocess.Popen(
        [sys.executable, "-c", _FAIR_CHILD, str(db)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
        env=env,
    )
    lines: queue.Queue[str] = queue.Queue()

    def pump() -> None:
        assert child.stdout is not None
        for line in child.stdout:
            lines.put(line.strip())

    threading.Thread(target=pump, daemon=True).start()
    try:
        game = int(_next_line(lines))
        assert _next_line(lines) == "mid-hand"
    finally:
        child.send_signal(signal.SIGKILL)
        child.wait()
    store = GameStore.open(str(db))
    session = Session.resume(store, game, kind=GameKind.PLAY)
    assert session.fair is not None
    hand = session.fair.current
    assert hand is not None
    assert len(hand.throws) >= 3  # mid-hand, its seed still secret
    number = hand.number
    for _ in range(500):  # finish the hand: the dice pass, its seed is shown
        play_fair(session, 1)
        if session.fair.current is None or session.fair.current.number > number:
            break
    assert check_every_revealed_hand(session) >= 3
    again = Session.resume(store, game, kind=GameKind.PLAY)
    assert check_every_revealed_hand(again) == check_every_revealed_hand(session)
    store.close()


def test_a_session_catches_up_entry_by_entry_as_a_whole_replay_would(store: GameStore) -> None:
    """Another writer's entries are read and played onto the table one by one (not the whole game again):
    the table, the fair dice and the kept seed come out as a whole replay gives them, and the session can
    throw the next fair throw from there."""
    session = start(store, dice=DiceKind.FAIR)
    sit(session, ("Ann", 500), ("Bob", 500))
    follower = Session.resume(store, session.game, kind=GameKind.PLAY)
    loaded = []
    real_load = store.load
    store.load = lambda game: loaded.append(game) or real_load(game)  # type: ignore[method-assign]
    for _ in range(400):  # until the dice have passed twice: hands revealed and the next committed
        turn = session.table.turn
        hand = None if session.fair is None else session.fair.hand
        if turn.caster is None or (hand is not None and hand.number > 2):
            break
        if turn.need.value == "call":
            session.act("call 7", by=Actor.player(turn.caster))
        else:
            session.act("throw", by=Actor.player(turn.caster))
    assert session.fair is not None
    assert session.fair.revealed is not None  # a hand was revealed and the next committed on the way
    caught = follower.catch_up()
    assert loaded == []  # no whole replay
    assert [done.entry for done in caught] == session.entries[len(follower.entries) - len(caught) :]
    store.load = real_load  # type: ignore[method-assign]
    replayed = load_game(store, session.game)
    assert follower.table == replayed.table == session.table
    assert follower.fair == replayed.ledger.state == session.fair
    assert follower.secret == session.secret
    assert [str(e) for done in caught for e in done.events] == [
        str(e) for entry in caught for e in replayed.events_of(entry.entry.seq)
    ]
    caster = follower.table.turn.caster
    assert caster is not None
    follower.act("call 7" if follower.table.turn.need.value == "call" else "throw", by=Actor.player(caster))
    assert load_game(store, session.game).table == follower.table


def test_a_correction_by_another_writer_is_caught_up_by_a_replay(store: GameStore) -> None:
    session = start(store, dice=DiceKind.TYPED)
    sit(session, ("Ann", 50), ("Bob", 50))
    other = Session.resume(store, session.game, kind=GameKind.REFEREE)
    session.act("stake Bob 5", by=REFEREE)
    session.correct()
    caught = other.catch_up()
    assert [done.entry.seq for done in caught] == [3, 4]
    assert other.table == load_game(store, session.game).table == session.table


# --- closing (issue 19, finding 5 and the close's half of 9) ------------------------------------------------


def _fair_mid_hand(store: GameStore) -> Session:
    """A table of fair dice in the middle of its first hand: seats set, the dice thrown once."""
    session = start(store, dice=DiceKind.FAIR, kind=GameKind.WEB)
    for name in ("Ann", "Bob"):
        session.act(f"sit {name} 50", by=Actor.player(name))
    session.act("call 7", by=ANN)
    while session.fair is not None and session.fair.current is not None and not session.fair.current.throws:
        session.act("throw", by=ANN)
    return session


def test_a_close_is_an_entry_and_reveals_the_hand_in_play(store: GameStore) -> None:
    from hazard.table.fair.commit_reveal import Revealed, commitment
    from hazard.table.live.timeline import game_json
    from hazard.table.rules.closing import Close

    session = _fair_mid_hand(store)
    hand = session.fair.current if session.fair is not None else None
    assert hand is not None
    assert hand.server_seed is None  # mid-hand: its seed is still secret
    with pytest.raises(ActorError, match="only its host closes"):
        session.close(by=ANN)
    before = len(session.entries)
    done = session.close()
    reveal, close = (recorded.entry for recorded in done)
    assert (reveal.seq, close.seq) == (before + 1, before + 2)
    assert isinstance(reveal.item, Revealed)
    assert commitment(bytes.fromhex(reveal.item.server_seed)) == hand.commitment
    assert isinstance(close.item, Close)
    assert close.actor == REFEREE
    loaded = load_game(store, session.game)
    assert loaded.closed
    assert [entry.item for entry in loaded.entries[-2:]] == [reveal.item, Close()]
    exported = game_json(loaded)
    assert exported["closed"] is True
    assert exported["hands"][0]["server_seed"] == reveal.item.server_seed
    assert exported["entries"][-1]["entry"] == {"type": "close"}
    assert exported["entries"][-1]["text"] == "the table is closed: nothing more may be done"
    assert game_json(load_game(store, start(store).game))["closed"] is False
    assert store.closed() >= {session.game}


@pytest.mark.parametrize(
    "attempt",
    [
        lambda s: s.act("sit Cat 10", by=CAT),
        lambda s: s.act("stake 1", by=BOB),
        lambda s: s.act("throw", by=ANN),
        lambda s: s.act("seed lucky", by=BOB),
        lambda s: s.act("leave", by=BOB),
        lambda s: s.play(Sit("Cat", Fraction(10)), by=CAT),
        lambda s: s.throw(by=ANN),
        lambda s: s.correct(3),
        lambda s: s.close(),
    ],
)
def test_nothing_more_may_be_done_at_a_closed_table_here_resumed_or_at_another_writer(
    store: GameStore, db: Path, attempt: Any
) -> None:
    session = _fair_mid_hand(store)
    other = Session.resume(GameStore.open(str(db)), session.game, kind=GameKind.WEB)  # another process
    session.close()
    head = len(load_game(store, session.game).entries)
    with pytest.raises(IllegalError, match="closed"):
        attempt(session)
    with pytest.raises(IllegalError, match="closed"):
        attempt(Session.resume(store, session.game, kind=GameKind.WEB))
    with contextlib.suppress(HazardError):  # stale, or refused by its table before it learns of the close
        attempt(other)
    other.catch_up()  # what a writer does on either (the hub, on a refusal, where the head has moved)
    assert other.closed
    with pytest.raises(IllegalError, match="closed"):
        attempt(other)
    assert session.bots_act() == []
    assert len(load_game(store, session.game).entries) == head  # nothing was written


def test_a_close_at_a_table_between_hands_or_of_other_dice_reveals_nothing(store: GameStore) -> None:
    from hazard.table.rules.closing import Close

    session = start(store, dice=DiceKind.SEEDED, seed=3)
    session.act("sit Ann 10", by=ANN)
    (done,) = session.close()
    assert isinstance(done.entry.item, Close)
    resumed = Session.resume(store, session.game, kind=GameKind.PLAY)
    assert resumed.closed
    assert resumed.bots_act() == []


def test_an_action_that_ends_a_hand_returns_its_reveal_and_the_next_commitment(store: GameStore) -> None:
    from hazard.table.fair.commit_reveal import ClientSeeded, Committed, Revealed

    session = start(store, dice=DiceKind.FAIR, kind=GameKind.WEB)
    for name in ("Ann", "Bob"):
        session.act(f"sit {name} 50", by=Actor.player(name))
    session.take_news()
    session.act("call 7", by=ANN)
    for _ in range(100):
        if session.table.turn.need is Need.CALL:
            break
        session.act("throw", by=ANN)
    done = session.act("pass", by=Actor.player(session.table.caster or ""))
    kinds = [type(recorded.entry.item) for recorded in done]
    # The pass, then the hand's end: its reveal, the seeds drawn for the players who have none (Ann and Bob
    # sat after the first commitment), the next commitment; returned, not only written.
    assert kinds[1:] == [Revealed, ClientSeeded, ClientSeeded, Committed]
    news = [recorded.entry.seq for recorded in session.take_news()]
    assert news == list(range(news[0], len(session.entries) + 1))  # every entry, in order, once
    assert news[0] == 4  # from the commitment, the two sits: the call on
