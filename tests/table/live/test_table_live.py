"""The live game's actor (hazard.table.live.actor) and the roles the table checks
(hazard.table.rules.roles)."""

from __future__ import annotations

from collections.abc import Iterator
from fractions import Fraction
from pathlib import Path

import pytest

from hazard.core.errors import IllegalError
from hazard.core.rulesets import find_ruleset
from hazard.table import (
    REFEREE,
    Actor,
    ActorError,
    BotPolicy,
    Call,
    Close,
    DiceKind,
    GameKind,
    GameStore,
    LiveGame,
    Move,
    Role,
    SeatKey,
    Session,
    Sit,
    Stake,
    TableSpec,
    ThrowDice,
    actor_of,
    check_role,
    role_of,
    table_paytable,
)

ANN, BOB, CAT, DAN = (Actor.player(name) for name in ("Ann", "Bob", "Cat", "Dan"))


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return tmp_path / "games.db"


@pytest.fixture
def store(db: Path) -> Iterator[GameStore]:
    opened = GameStore.open(str(db))
    yield opened
    opened.close()


def new_game(store: GameStore) -> LiveGame:
    rules = find_ruleset("wikipedia")
    pays, _ = table_paytable(rules)
    return LiveGame(Session.start(store, TableSpec(rules, pays, dice=DiceKind.SEEDED, seed=1)))


def streamed(live: LiveGame) -> list[tuple[int, str]]:
    news = live.take_stream()
    assert news is not None
    assert not news.whole
    return [(done.entry.seq, str(done.entry.actor)) for done in news.entries]


def test_the_bots_act_after_each_move_and_every_entry_is_streamed_once_in_order(store: GameStore) -> None:
    live = new_game(store)
    assert live.act(Move(Sit("Ann", Fraction(50)), ANN)).seq == 1
    answer = live.act(Move(Sit("Bob", Fraction(50), BotPolicy.SETTER), BOB))
    assert (answer.seq, answer.events) == (2, ["Bob (setter bot) sits down with 50"])
    assert streamed(live) == [(1, "Ann"), (2, "Bob"), (3, "Bob")]  # the setter's stake, after his sit
    assert isinstance(live.session.entries[2].item, Stake)
    assert live.take_stream() is None  # told once
    assert [done.entry.seq for done in live.recent] == [1, 2, 3]


def test_a_move_sent_again_with_its_number_is_answered_and_made_once(store: GameStore) -> None:
    live = new_game(store)
    live.act(Move(Sit("Ann", Fraction(50)), ANN))
    live.act(Move(Call(7), ANN))
    first = live.act(Move(ThrowDice(), ANN, client="k1"))
    head = live.seq
    assert live.act(Move(ThrowDice(), ANN, client="k1")) == first
    assert live.seq == head


def test_a_move_from_a_view_the_dice_have_changed_is_refused(store: GameStore) -> None:
    live = new_game(store)
    live.act(Move(Sit("Ann", Fraction(50)), ANN))
    live.act(Move(Sit("Cat", Fraction(50)), CAT))
    seen = live.seq
    live.act(Move(Call(7), ANN))
    with pytest.raises(
        IllegalError, match=rf"illegal action from a view of entry {seen}: the table has moved"
    ):
        live.act(Move(Stake("Cat", Fraction(1)), CAT, based_on=seen))
    assert live.act(Move(Close(), REFEREE)) == live.act(Move(Close(), REFEREE))  # closed once


def test_a_move_after_another_process_wrote_catches_up_and_is_made(store: GameStore, db: Path) -> None:
    live = new_game(store)
    live.act(Move(Sit("Ann", Fraction(50)), ANN))
    live.take_stream()
    there = GameStore.open(str(db))
    try:
        other = LiveGame.resume(Session.resume(there, live.game, kind=GameKind.PLAY))
        assert other.act(Move(Sit("Cat", Fraction(5)), CAT, client="c1")).seq == 2
        assert live.act(Move(Sit("Dan", Fraction(5)), DAN, client="d1")).seq == 3
        assert streamed(live) == [(2, "Cat"), (3, "Dan")]  # the other's entry, then its own
        # A resend of the other process's move is answered from the record, and makes nothing.
        assert live.act(Move(Sit("Cat", Fraction(5)), CAT, client="c1")).events == ["Cat sits down with 5"]
        assert live.seq == 3
    finally:
        there.close()


def test_a_key_holder_comes_to_the_table_in_a_role() -> None:
    host, ann = SeatKey(None), SeatKey("Ann", 1)
    assert [role_of(host, DiceKind.FAIR), role_of(host, DiceKind.TYPED), role_of(ann, DiceKind.FAIR)] == [
        Role.HOST,
        Role.REFEREE,
        Role.PLAYER,
    ]
    assert (actor_of(host), actor_of(ann)) == (REFEREE, ANN)
    check_role(Role.HOST, 7, Sit("Ann", Fraction(1)), "sit Ann 1")  # the host seats players
    check_role(Role.REFEREE, 7, ThrowDice(), "throw")  # a referee enters anything
    with pytest.raises(ActorError, match=r"illegal 'throw' by the host of table 7: at a table of fair dice"):
        check_role(Role.HOST, 7, ThrowDice(), "throw")
