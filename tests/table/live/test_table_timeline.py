"""One :class:`Timeline` plays a game's entries, whether they are a whole game read back (a load, a resume),
the few another writer added since (a catch-up), or a session's own writes: each way ends where a replay of
every entry ends, with the same events, the same players acted for, the same fair dice and the same kept
tables."""

from __future__ import annotations

from fractions import Fraction

import pytest

from hazard.core.errors import InvalidError
from hazard.core.rulesets import find_ruleset
from hazard.table import (
    REFEREE,
    Actor,
    DiceKind,
    GameKind,
    GameStore,
    Session,
    Sit,
    StoredGame,
    TableSpec,
    load_game,
    table_paytable,
)
from hazard.table.live.timeline import MARK_EVERY, Correction, Entry, ReplayedGame, Timeline, replay
from hazard.table.rules.closing import Close


def played(dice: DiceKind, steps: int) -> tuple[GameStore, Session]:
    store = GameStore.open("sqlite://", in_memory=True)
    rules = find_ruleset("wikipedia")
    pays, _ = table_paytable(rules)
    seed = None if dice is DiceKind.FAIR else 5
    session = Session.start(store, TableSpec(rules, pays, dice=dice, seed=seed, kind=GameKind.PLAY))
    for name in ("Ann", "Bob"):
        session.act(f"sit {name} 1000", by=Actor.player(name))
    for _ in range(steps):
        caster = session.table.turn.caster
        assert caster is not None
        if session.table.turn.need.value == "call":
            session.act("call 7", by=Actor.player(caster))
        else:
            session.act("throw", by=Actor.player(caster))
    return store, session


def same(timeline: Timeline, whole: ReplayedGame) -> None:
    assert timeline.entries == list(whole.entries)
    assert timeline.table == whole.table
    assert timeline.events == list(whole.events)
    assert timeline.whose == dict(whole.acting_for)
    assert timeline.ledger == whole.ledger
    assert timeline.closed == whole.closed
    assert timeline.marks == whole.timeline.marks


@pytest.mark.parametrize("dice", [DiceKind.SEEDED, DiceKind.FAIR])
@pytest.mark.parametrize("piece", [1, 7, 1000])
def test_extending_in_pieces_ends_where_a_whole_replay_ends(dice: DiceKind, piece: int) -> None:
    _, session = played(dice, 270)
    entries = session.entries
    assert len(entries) > MARK_EVERY  # a table is kept on the way
    whole = replay(session.info, entries)
    timeline = Timeline.begin(session.info)
    for start in range(0, len(entries), piece):
        chunk = entries[start : start + piece]
        done = timeline.extend(chunk)
        assert [recorded.entry for recorded in done] == chunk
        assert [recorded.events for recorded in done] == [tuple(whole.events_of(e.seq)) for e in chunk]
    same(timeline, whole)
    assert session.timeline is not None
    same(session.timeline, whole)  # the session's own writes, taken one by one (moved_on)


def test_the_store_returns_the_setup_and_entries_and_the_table_replays_them() -> None:
    store, session = played(DiceKind.SEEDED, 20)
    stored = store.load(session.game)
    assert isinstance(stored, StoredGame)
    assert stored.info == session.info
    assert list(stored.entries) == session.entries
    assert not hasattr(stored, "table")
    loaded = load_game(store, session.game)
    assert loaded.table == replay(stored.info, stored.entries).table == session.table
    assert loaded.proof == stored.proof is not None


def test_a_correction_among_the_new_entries_replays_the_whole_game() -> None:
    _, session = played(DiceKind.SEEDED, 0)
    info, entries = session.info, session.entries
    timeline = Timeline.of(info, entries)
    more = [
        Entry(len(entries) + 1, "now", REFEREE, Sit("Cat", Fraction(50))),
        Entry(len(entries) + 2, "now", REFEREE, Correction(len(entries) + 1, Sit("Cat", Fraction(60)))),
    ]
    done = timeline.extend(more)
    assert [recorded.entry for recorded in done] == more
    same(timeline, replay(info, [*entries, *more]))
    assert timeline.table.player("Cat").bankroll == 60


def test_entries_that_do_not_replay_leave_the_timeline_as_it_was() -> None:
    _, session = played(DiceKind.SEEDED, 10)
    info, entries = session.info, session.entries
    timeline = Timeline.of(info, entries)
    before = timeline.copy()
    seq = len(entries) + 1
    bad = [
        Entry(seq, "now", REFEREE, Sit("Cat", Fraction(50))),
        Entry(seq + 1, "now", REFEREE, Close()),
        Entry(seq + 2, "now", REFEREE, Sit("Dan", Fraction(50))),
    ]
    with pytest.raises(
        InvalidError, match=f"entry {seq + 2} comes after entry {seq + 1}, which closed the table"
    ):
        timeline.extend(bad)
    assert timeline == before
    with pytest.raises(InvalidError, match=f"entry {seq + 2} comes after entry {seq + 1}, which closed"):
        replay(info, [*entries, *bad])  # the same refusal as a whole replay's
