"""The hub: one order per table however actions arrive, news to every follower, several servers on one record.

Each test runs its own event loop (``asyncio.run``). Two hubs over one record stand for two server processes;
the record orders what both write, and each learns of the other's entries by watching the heads.
"""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any, TypeVar

import pytest

from hazard.core.rulesets import find_ruleset
from hazard.table import (
    Access,
    ActorError,
    DiceKind,
    GameKind,
    GameStore,
    IllegalError,
    InvalidError,
    RecordUnavailable,
    SeatKey,
    TableSpec,
    load_game,
    table_paytable,
)
from hazard.table.live import session as session_module
from hazard.web import Hub, Update
from hazard.web import hub as hub_module
from hazard.web.hub import token_digest

T = TypeVar("T")

RULES = find_ruleset("wikipedia")
SPEC = TableSpec(RULES, table_paytable(RULES)[0], dice=DiceKind.FAIR, kind=GameKind.WEB)
TOKENS: dict[tuple[int, str], str] = {}
"""Each seat's token, by table and name, as :func:`seated` was given it."""


def run(test: Callable[[], Awaitable[T]]) -> T:
    return asyncio.run(asyncio.wait_for(test(), timeout=30))


async def started(url: str, poll: float = 0.02) -> Hub:
    hub = Hub(GameStore.open(url), poll=poll)
    await hub.start()
    return hub


async def seated(hub: Hub, game: int, *names: str) -> dict[str, SeatKey]:
    holders = {}
    for name in names:
        _, token, _, _ = await hub.join(game, name, "100", by=None)
        assert token is not None
        TOKENS[(game, name)] = token
        holder = await hub.holder(game, token)
        assert holder is not None
        holders[name] = holder
    return holders


async def next_update(queue: asyncio.Queue[Update | None], timeout: float = 5) -> Update:
    update = await asyncio.wait_for(queue.get(), timeout)
    assert update is not None
    return update


def test_actions_sent_at_once_are_applied_one_after_the_other(tmp_path: Path) -> None:
    async def test() -> None:
        hub = await started(str(tmp_path / "g.db"))
        live, _ = await hub.create(SPEC)
        people = await seated(hub, live.game, "Ann", "Bob", "Cat", "Dan")
        stakes = [hub.act(live.game, "stake 1", by=people[n], client=f"{n}-1") for n in ("Bob", "Cat", "Dan")]
        answers = await asyncio.gather(*stakes)
        assert sorted(seq for seq, _ in answers) == [6, 7, 8]
        assert len(live.session.table.wagers) == 3
        await hub.stop()
        replayed = load_game(GameStore.open(str(tmp_path / "g.db"), access=Access.READ), live.game)
        assert replayed.table == live.session.table

    run(test)


def test_the_same_client_number_sent_twice_at_once_is_made_once(tmp_path: Path) -> None:
    async def test() -> None:
        hub = await started(str(tmp_path / "g.db"))
        live, _ = await hub.create(SPEC)
        people = await seated(hub, live.game, "Ann", "Bob")
        first, again = await asyncio.gather(
            hub.act(live.game, "stake 2", by=people["Bob"], client="same"),
            hub.act(live.game, "stake 2", by=people["Bob"], client="same"),
        )
        assert first == again
        assert len(live.session.table.wagers) == 1
        await hub.stop()

    run(test)


def test_a_spectator_and_a_forged_token_act_for_nobody(tmp_path: Path) -> None:
    async def test() -> None:
        hub = await started(str(tmp_path / "g.db"))
        live, host = await hub.create(SPEC)
        assert await hub.holder(live.game, host) == SeatKey(None)
        assert await hub.holder(live.game, "forged") is None
        assert await hub.holder(live.game, "x" * 10_000) is None
        with pytest.raises(ActorError, match="spectator"):
            await hub.act(live.game, "throw", by=None, client=None)
        await hub.stop()

    run(test)


def test_two_servers_on_one_record_keep_one_order_and_both_tell_their_clients(tmp_path: Path) -> None:
    async def test() -> None:
        url = str(tmp_path / "g.db")
        one, two = await started(url), await started(url)
        live, _ = await one.create(SPEC)
        people = await seated(one, live.game, "Ann", "Bob", "Cat")
        there = await two.table(live.game)
        follower = two.subscribe(there)
        # the second server learns of the first's entry by watching the record
        await one.act(live.game, "stake 1", by=people["Bob"], client="b1")
        update = await next_update(follower)
        assert update.seq == there.seq == live.seq
        # an action sent to the second server from its own (now current) table
        cat = await two.holder(live.game, TOKENS[(live.game, "Cat")])
        assert cat == SeatKey("Cat", 4)  # the key to the seating of entry 4, Cat's sit (after the commitment)
        seq, _ = await two.act(live.game, "stake 2", by=cat, client="c1")
        # the first server's table is behind: its next action catches up first, then is written after
        withdrawn = await one.act(live.game, "withdraw", by=people["Bob"], client="b2")
        assert withdrawn[0] == seq + 1
        # the same client number sent to the other server is recognised there too, and made nothing
        assert await two.act(live.game, "withdraw", by=people["Bob"], client="b2") == withdrawn
        await one.stop()
        await two.stop()
        replayed = load_game(GameStore.open(url, access=Access.READ), live.game)
        assert [w.opponent for w in replayed.table.wagers] == ["Cat"]

    run(test)


def test_a_restarted_server_carries_every_table_on_and_knows_what_was_sent(tmp_path: Path) -> None:
    async def test() -> None:
        url = str(tmp_path / "g.db")
        first = await started(url)
        live, host = await first.create(SPEC)
        _, ann_token, _, _ = await first.join(live.game, "Ann", "100", by=None)
        _, bob_token, _, _ = await first.join(live.game, "Bob", "100", by=None)
        assert ann_token is not None
        assert bob_token is not None
        bob = await first.holder(live.game, bob_token)
        answer = await first.act(live.game, "stake 3", by=bob, client="bob-stake")
        table = live.session.table
        await first.stop()
        first.store.close()

        second = await started(url)
        again = await second.table(live.game)
        assert again.session.table == table
        assert await second.holder(live.game, host) == SeatKey(None)
        assert await second.holder(live.game, ann_token) == SeatKey("Ann", 2)
        bob = await second.holder(live.game, bob_token)
        assert await second.act(live.game, "stake 3", by=bob, client="bob-stake") == answer
        assert len(again.session.table.wagers) == 1
        await second.stop()

    run(test)


def test_a_slow_follower_gets_the_whole_state_instead_of_a_growing_queue(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from hazard.web import telling

    monkeypatch.setattr(telling, "_QUEUE", 2)

    async def test() -> None:
        hub = await started(str(tmp_path / "g.db"))
        live, _ = await hub.create(SPEC)
        people = await seated(hub, live.game, "Ann", "Bob")
        queue = hub.subscribe(live)
        for n in range(1, 6):
            await hub.act(live.game, f"stake {n}", by=people["Bob"], client=f"s{n}")
        assert queue.qsize() <= 2
        updates = [queue.get_nowait() for _ in range(queue.qsize())]
        assert any(u is not None and u.state is not None for u in updates)
        await hub.stop()

    run(test)


def test_bad_input_to_the_hub(tmp_path: Path) -> None:
    async def test() -> None:
        hub = await started(str(tmp_path / "g.db"))
        live, _host = await hub.create(SPEC)
        people = await seated(hub, live.game, "Ann")
        with pytest.raises(InvalidError, match="invalid game"):
            await hub.table(0)
        with pytest.raises(IllegalError, match="there is no table 7"):
            await hub.table(7)
        with pytest.raises(InvalidError, match="invalid action id"):
            await hub.act(live.game, "call 7", by=people["Ann"], client="")
        with pytest.raises(InvalidError, match="based_on"):
            await hub.act(live.game, "call 7", by=people["Ann"], client=None, based_on=99)
        await hub.stop()

    run(test)


def test_a_table_spec_takes_fair_or_typed_dice_only() -> None:
    with pytest.raises(InvalidError, match="a web table has the server's fair dice"):
        TableSpec(RULES, table_paytable(RULES)[0], dice=DiceKind.SEEDED, kind=GameKind.WEB)


def test_a_token_is_kept_only_as_its_digest(tmp_path: Path) -> None:
    async def test() -> None:
        url = str(tmp_path / "g.db")
        hub = await started(url)
        live, host = await hub.create(SPEC)
        await hub.stop()
        data = (tmp_path / "g.db").read_bytes()
        assert host.encode() not in data
        assert token_digest(host).encode() in data
        assert live.game == 1

    run(test)


def test_an_action_whose_batch_does_not_commit_is_lost_whole_and_its_table_read_again(tmp_path: Path) -> None:
    """The database fails after part of an action's write (a trigger stands for a full disk): nothing of it
    is in the record, the sender is told to send it again, nobody is told it happened, and the table that
    had moved on in memory is let go and read again from the record."""
    db = tmp_path / "g.db"

    async def test() -> None:
        hub = await started(str(db))
        live, _ = await hub.create(SPEC)
        game = live.game
        people = await seated(hub, game, "Ann", "Bob")
        follower = hub.subscribe(live)
        head, before = live.seq, live.state()
        with sqlite3.connect(db) as connection:
            connection.execute(
                f"CREATE TRIGGER lost BEFORE INSERT ON hazard_entries WHEN NEW.seq = {head + 1} "
                "BEGIN SELECT RAISE(ABORT, 'the disk is full'); END"
            )
        with pytest.raises(RecordUnavailable, match=r"the disk is full.*send it again"):
            await hub.act(game, "stake 1", by=people["Bob"], client="b-1")
        assert await asyncio.wait_for(follower.get(), 5) is None  # hung up: it reconnects and reads again
        again = await hub.table(game)
        assert again is not live
        assert again.state() == before
        with sqlite3.connect(db) as connection:
            connection.execute("DROP TRIGGER lost")
        seq, events = await hub.act(game, "stake 1", by=people["Bob"], client="b-1")
        assert seq == head + 1
        assert events == ["Bob stakes 1.00 against Ann"]
        await hub.stop()
        assert GameStore.open(str(db)).heads([game]) == {game: head + 1}

    run(test)


def test_an_idle_table_is_let_go_from_memory_and_read_again_with_nothing_lost(tmp_path: Path) -> None:
    """A table nobody follows and nobody asks for is let go; the next request reads it again from the
    record: the same entries, the same fair hand and commitment, an action resent with its number answered
    as before (made once), and play goes on. A table someone follows is kept."""

    async def test() -> None:
        hub = Hub(GameStore.open(str(tmp_path / "g.db")), poll=0.02, idle=0.1)
        await hub.start()
        live, _ = await hub.create(SPEC)
        game = live.game
        people = await seated(hub, game, "Ann", "Bob")
        staked = await hub.act(game, "stake 5", by=people["Bob"], client="b-1")
        caster = live.session.table.caster
        assert caster is not None
        await hub.act(game, "call 7", by=people[caster], client="c-1")
        before = live.state()
        followed, _ = await hub.create(SPEC)
        queue = hub.subscribe(followed)
        for _ in range(250):
            if game not in hub.loaded():
                break
            await asyncio.sleep(0.02)
        assert game not in hub.loaded(), "the idle table was kept"
        assert followed.game in hub.loaded(), "a followed table was let go"
        again = await hub.table(game)
        assert again is not live
        assert again.state() == before
        assert await hub.act(game, "stake 5", by=people["Bob"], client="b-1") == staked  # made once
        assert again.seq == before["seq"]
        seq, events = await hub.act(game, "throw", by=people[caster], client="c-2")
        assert seq > before["seq"]
        assert events
        hub.unsubscribe(followed, queue)
        await hub.stop()
        replayed = load_game(GameStore.open(str(tmp_path / "g.db"), access=Access.READ), game)
        assert replayed.table == again.session.table

    run(test)


def test_a_number_that_names_no_table_costs_no_memory(tmp_path: Path) -> None:
    async def test() -> None:
        hub = await started(str(tmp_path / "g.db"))
        for game in range(1_000, 1_200):
            with pytest.raises(IllegalError):
                await hub.table(game)
        assert not hub._opening  # what is kept per number asked for
        await hub.stop()

    run(test)


def test_a_table_read_again_is_replayed_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A restarted server reads a table's record once: the hub's one replay gives the session too (a long
    table's replay is the cost of reading it again, docs/benchmarks.md)."""
    db = str(tmp_path / "g.db")

    async def make() -> int:
        hub = await started(db)
        live, _ = await hub.create(SPEC)
        await seated(hub, live.game, "Ann", "Bob")
        await hub.stop()
        return live.game

    game = run(make)
    replays: list[int] = []
    real = hub_module.load_game

    def counted(store: GameStore, number: int) -> Any:
        replays.append(number)
        return real(store, number)

    monkeypatch.setattr(hub_module, "load_game", counted)
    monkeypatch.setattr(session_module, "load_game", counted)

    async def read_again() -> None:
        hub = await started(db)
        again = await hub.table(game)
        assert [p.name for p in again.session.table.players] == ["Ann", "Bob"]
        await hub.stop()

    run(read_again)
    assert replays == [game]
