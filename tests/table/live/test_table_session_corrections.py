"""Live games corrected by the referee: replaced and voided entries, undo, what may not be corrected,
and a session catching up with another writer's entries and corrections."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest
from tests.strategies import throw_of as t
from tests.table.live.session_helpers import ANN, BEN, BOB, sit, start, stored

from hazard.core.errors import IllegalError
from hazard.table.fair.dice import DiceKind
from hazard.table.live.session import Session
from hazard.table.live.timeline import Correction, Entry, GameKind, load_game, replay
from hazard.table.record.store import GameStore
from hazard.table.rules.actions import REFEREE, Actor, Call, Roll, Sit, Stake, TableAction
from hazard.table.rules.state import Need

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
