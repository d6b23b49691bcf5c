"""The server's tables: each table's actor driven from the event loop, its news told to every client.

Each table is a :class:`hazard.table.LiveGame` (its session, its bots, its request numbers, its stream of
entries) kept in memory once loaded (so a long game is replayed once, when the server first needs it, not on
every action) behind one lock: of two actions sent at once, one is applied after the other. The hub maps a
token to its holder and the holder to an actor; the table decides what that actor may do
(:mod:`hazard.table.rules.roles`). Every action is written to the record and committed before the hub answers
or tells anyone, so what a client was told is what the record holds.

Several servers may share one record. The record orders each table's actions (an append from a table that
another server has moved on is refused, and the actor catches up, then tries again); the hub learns of
what others wrote by watching the games' heads, woken at once by PostgreSQL's LISTEN/NOTIFY where there is
one, and by a short poll otherwise. The record stays the truth: a notification only says "look".

Clients follow a table by its record's entry numbers (the version, as in lichess's versioned socket): a
client that knows entry N gets every entry after N, or the whole state when it has missed more than the hub
keeps (:data:`KEPT`).
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import re
import secrets
import time
from collections import deque
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field, replace
from functools import cached_property
from typing import Any, TypeVar

from hazard.core.errors import IllegalError, InvalidError, quoted
from hazard.table import (
    MAX_REQUEST,
    REFEREE,
    Actor,
    Answer,
    BotBrains,
    BotPolicy,
    ClaimState,
    Close,
    GameKind,
    GameStore,
    LiveGame,
    MoneyStyle,
    Move,
    News,
    Recorded,
    RecordUnavailable,
    SeatKey,
    Session,
    SetSeed,
    Sit,
    TableSpec,
    check_closer,
    check_game_number,
    check_name,
    check_seater,
    check_seeder,
    check_spectator,
    entry_text,
    event_text,
    holds,
    load_game,
    parse_money,
    request_key,
    table_json,
)
from hazard.table.record.keys import expiry
from hazard.web.writers import Uncommitted, Writer

__all__ = [
    "KEPT",
    "Hub",
    "LiveTable",
    "NoSuchTable",
    "Update",
    "token_digest",
]

_T = TypeVar("_T")

KEPT = 500
"""How many of a table's latest entries its actor keeps here to send a client that reconnects; one that has
missed more gets the whole state instead."""
_QUEUE = 256
"""Updates waiting for one slow client before it is sent the whole state instead."""
_TRIES = 8
"""How often an action is tried again after another server moved its table on (each try catches up)."""
_POLL = 0.5
IDLE = 600.0
"""Seconds after which a table nobody follows here and nobody has asked for is let go from memory (it is
read again from the record when it is next asked for)."""
"""Seconds between looks at the record's heads, for what other servers wrote (LISTEN/NOTIFY wakes it
sooner)."""
_CLIENT = re.compile(rf"^[A-Za-z0-9_.:-]{{1,{MAX_REQUEST}}}$")
MAX_TEXT = 500
"""The longest action text a client may send."""
CLAIM_TTL = 30 * 60.0
"""How long a late arrival's claim link works, unused, by default (seconds)."""
SETTING_MONEY = "money"
SETTING_HOST = "host"


class NoSuchTable(IllegalError):
    """A table number that names no web table in this server's record."""


def token_digest(token: str) -> str:
    """The SHA-256 of a token, which is all the record keeps of it."""
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def new_token() -> str:
    return secrets.token_urlsafe(24)


@dataclass(frozen=True)  # no slots: its encoded text is kept once made
class Update:
    """What a client following a table is sent: the entries after the last one it knew, or (``state`` given)
    the whole table when it has missed too many to be sent one by one."""

    seq: int
    entries: tuple[dict[str, Any], ...] = ()
    state: dict[str, Any] | None = None

    def to_json(self) -> dict[str, Any]:
        if self.state is not None:
            return {"type": "state", "seq": self.seq, "state": self.state}
        return {"type": "entries", "seq": self.seq, "entries": list(self.entries)}

    @cached_property
    def text(self) -> str:
        """The update as sent: encoded once, however many clients follow the table."""
        return json.dumps(self.to_json(), separators=(",", ":"))


def entry_json(done: Recorded) -> dict[str, Any]:
    """One entry as clients get it: its number, who entered it, and what it did in words (sums exact)."""
    entry = done.entry
    return {
        "seq": entry.seq,
        "by": str(entry.actor),
        "text": entry_text(entry, MoneyStyle.EXACT),
        "events": [event_text(event, MoneyStyle.EXACT) for event in done.events],
    }


@dataclass
class LiveTable:
    """One table in play at this server: its game's actor (:class:`hazard.table.LiveGame`), the lock that
    orders this server's coroutines on it, and who follows it."""

    actor: LiveGame
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    """Taken by whatever reads or drives the table here: the actor's own lock is a thread's, which a
    coroutine waiting on the event loop cannot hold."""
    listeners: set[asyncio.Queue[Update | None]] = field(default_factory=set)
    used: float = field(default_factory=time.monotonic)
    """When the table was last asked for (``time.monotonic``): a table idle long enough is let go."""

    def __post_init__(self) -> None:
        self.session.money = self.money  # the sums in its refusals, as the table's pages show money

    @property
    def session(self) -> Session:
        return self.actor.session

    @property
    def recent(self) -> deque[Recorded]:
        """The latest entries with their events, for clients that reconnect and for the pages' log."""
        return self.actor.recent

    @property
    def game(self) -> int:
        return self.session.game

    @property
    def closed(self) -> bool:
        """Whether the table is closed: as its record says (:mod:`hazard.table.rules.closing`)."""
        return self.session.closed

    @property
    def seq(self) -> int:
        """The number of the table's last entry: the version clients follow."""
        return len(self.session.entries)

    @property
    def money(self) -> MoneyStyle:
        return MoneyStyle(self.session.info.settings.get(SETTING_MONEY, MoneyStyle.DECIMAL.value))

    @property
    def host_label(self) -> str:
        return self.session.info.settings.get(SETTING_HOST, "")

    def since(self, seq: int) -> Update:
        """What a client that knows entry ``seq`` is missing."""
        return self.update(self.actor.missed(seq))

    def update(self, news: News) -> Update:
        """The actor's news as clients get it."""
        if news.whole:
            return Update(news.seq, state=self.state())
        return Update(news.seq, tuple(entry_json(done) for done in news.entries))

    def state(self) -> dict[str, Any]:
        """The table as ``GET /api/tables/{id}`` gives it: the export's state form, with the table's setup."""
        session = self.session
        info = session.info
        fair = session.fair
        hand = None if fair is None else fair.current
        return {
            "id": self.game,
            "seq": self.seq,
            "closed": self.closed,
            "label": info.label,
            "ruleset": info.ruleset.id,
            "paytable": info.paytable.id,
            "stakes": info.stakes.value,
            "dice": info.dice.value,
            "money": self.money.value,
            "commitment": None if hand is None else hand.commitment,
            "hand": None if hand is None else hand.number,
            "state": table_json(session.table),
        }


class Hub:
    """Every table this server has open, over one record."""

    def __init__(
        self, store: GameStore, *, poll: float = _POLL, idle: float = IDLE, claim_ttl: float = CLAIM_TTL
    ) -> None:
        self.store = store
        self.poll = poll
        self.idle = idle
        self.claim_ttl = claim_ttl
        """How long a late arrival's claim link holds his seat, in seconds, until it is used."""
        self._tables: dict[int, LiveTable] = {}
        self._opening: dict[int, asyncio.Lock] = {}
        self._keys: dict[tuple[int, str], SeatKey] = {}
        self._wake = asyncio.Event()
        self._dirty: set[int] = set()
        """Tables a notification says are behind: looked at at once, the others at the next poll."""
        self._watcher: asyncio.Task[None] | None = None
        self._watch_stop: Callable[[], None] | None = None
        self._writer = Writer(store)
        self._loop: asyncio.AbstractEventLoop | None = None

    # --- life -------------------------------------------------------------------------------------------

    async def start(self) -> None:
        """Start watching the record for what other servers write."""
        self._loop = asyncio.get_running_loop()
        self._watcher = asyncio.create_task(self._watch())
        self._watch_stop = self.store.listen(self._woken)

    async def stop(self) -> None:
        self._loop = None  # the listener's thread may still wake once: it finds nobody to tell
        if self._watch_stop is not None:
            self._watch_stop()
        if self._watcher is not None:
            self._watcher.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._watcher
        for live in self._tables.values():
            for queue in list(live.listeners):
                self.hang_up(queue)
        await asyncio.to_thread(self._writer.stop)

    def _woken(self, game: int, seq: int) -> None:
        loop = self._loop
        if loop is not None:
            with contextlib.suppress(RuntimeError):  # the hub has stopped and its loop closed meanwhile
                loop.call_soon_threadsafe(self._notified, game, seq)

    def _notified(self, game: int, seq: int) -> None:
        """An entry was committed: look at its table only if it is open here and behind (this server's own
        entries, which it has already told, wake nothing)."""
        live = self._tables.get(game)
        if live is not None and live.listeners and seq > live.seq:
            self._dirty.add(game)
            self._wake.set()

    # --- tables -----------------------------------------------------------------------------------------

    async def create(self, spec: TableSpec, money: MoneyStyle = MoneyStyle.DECIMAL) -> tuple[LiveTable, str]:
        """A new web table (whatever kind ``spec`` names, it is a web game, labelled after its ruleset
        unless it has a label); returns it and its host's token (the only time the token is seen)."""
        spec = replace(spec, kind=GameKind.WEB, label=spec.label or f"{spec.ruleset.name} table")
        token = new_token()
        settings = {SETTING_MONEY: money.value, **spec.bots.settings()}

        def start() -> Session:
            return Session.start(self.store, spec, settings=settings, keys={token_digest(token): None})

        session = await self._write(start)
        live = LiveTable(LiveGame(session, kept=KEPT))
        live.actor.take_stream()  # its opening entries: kept for its log, told to nobody yet
        self._tables[session.game] = live
        self._keys[(session.game, token_digest(token))] = SeatKey(None)
        return live, token

    async def table(self, game: int) -> LiveTable:
        """The table of game ``game``, loaded from the record the first time; an :class:`IllegalError` for a
        game that is not a web table."""
        live = self._tables.get(game)
        if live is not None:
            live.used = time.monotonic()
            return live
        check_game_number(game)
        opening = self._opening.setdefault(game, asyncio.Lock())
        async with opening:
            live = self._tables.get(game)
            if live is None:
                try:
                    live = await asyncio.to_thread(self._load, game)
                except BaseException:
                    # No lock is kept for a number that names no table (else each probe of one costs memory).
                    if self._opening.get(game) is opening and game not in self._tables:
                        del self._opening[game]
                    raise
                self._tables[game] = live
        live.used = time.monotonic()
        return live

    def loaded(self) -> frozenset[int]:
        """The tables held in memory now."""
        return frozenset(self._tables)

    def let_go_idle(self) -> list[int]:
        """Let go of every table nobody follows here and nobody has asked for in :attr:`idle` seconds (run
        by the watcher). Nothing is lost: every entry is in the record before anyone is told of it, and the
        table is read again from there when it is next asked for. The tables let go."""
        now = time.monotonic()
        idle = [
            live
            for live in self._tables.values()
            if not live.listeners and not live.lock.locked() and now - live.used > self.idle
        ]
        for live in idle:
            del self._tables[live.game]
            self._opening.pop(live.game, None)
        if idle:
            gone = {live.game for live in idle}
            self._keys = {key: holder for key, holder in self._keys.items() if key[0] not in gone}
        return [live.game for live in idle]

    @contextlib.asynccontextmanager
    async def locked(self, game: int) -> AsyncIterator[LiveTable]:
        """Table ``game`` under its lock, for reading it or acting on it: no write of it is under way, so
        what it shows is committed, and nothing moves it on until the block ends. (A table let go while
        this waited for its lock, its batch lost, is the hub's no more: the one read again is taken.)"""
        for _ in range(_TRIES):
            live = await self.table(game)
            async with live.lock:
                if self._tables.get(game) is live:
                    yield live
                    return
        raise RecordUnavailable(f"table {game} could not be read from the record: try again")

    @contextlib.asynccontextmanager
    async def current(self, game: int) -> AsyncIterator[LiveTable]:
        """Table ``game`` under its lock, as the record has it now: a read that answers from the record's
        head, not from what this server last saw (one cheap look at the head; a catch-up where another server
        has written since, told to this server's followers too)."""
        async with self.locked(game) as live:
            head = await asyncio.to_thread(self.store.head, game)
            if head is not None and head != live.seq:
                await asyncio.to_thread(live.actor.catch_up)
                self._told(live)
            yield live

    async def follow(self, game: int, since: int) -> tuple[LiveTable, asyncio.Queue[Update | None], Update]:
        """Follow table ``game`` from entry ``since``: the table, the follower's queue, and its first update
        (what it missed). Under the table's lock, at the record's head: the first update and the queue start
        at one entry, so nothing written meanwhile is either missed or sent twice."""
        async with self.current(game) as live:
            self._told(live)
            return live, self.subscribe(live), live.since(since)

    def _drop(self, live: LiveTable) -> None:
        """Let go of a table whose session is ahead of the record (its batch did not commit): its followers
        reconnect, and whoever needs it next loads it from the record."""
        if self._tables.get(live.game) is live:
            del self._tables[live.game]
        for queue in list(live.listeners):
            self.hang_up(queue)

    def _load(self, game: int) -> LiveTable:
        if game not in self.store.heads([game]):
            raise NoSuchTable(f"illegal table {game}: there is no table {game}")
        replayed = load_game(self.store, game)
        if replayed.info.kind is not GameKind.WEB:
            raise NoSuchTable(
                f"illegal table {game}: game {game} is a {replayed.info.kind.label} game, not a web table"
            )
        brains = BotBrains.from_settings(replayed.info.settings)
        session = Session.resume(self.store, game, kind=GameKind.WEB, brains=brains)
        recent = [Recorded(entry, tuple(replayed.events_of(entry.seq))) for entry in replayed.entries[-KEPT:]]
        return LiveTable(LiveGame.resume(session, recent, kept=KEPT))

    def open_tables(self) -> list[dict[str, Any]]:
        """The web tables not closed, newest first, as the lobby lists them (a read of the record)."""
        closed = self.store.closed()
        return [
            {"id": s.id, "label": s.label, "ruleset": s.ruleset, "entries": s.entries, "created": s.created}
            for s in self.store.games()
            if s.kind is GameKind.WEB and s.id not in closed
        ]

    # --- who is who ---------------------------------------------------------------------------------------

    async def holder(self, game: int, token: str | None) -> SeatKey | None:
        """Whose ``token`` is at table ``game`` (None: nobody's, a spectator's). A seat's key is its
        seating's, which may have ended since: the table refuses it then (:meth:`seated`, :meth:`act`)."""
        if not token or len(token) > 200:
            return None
        key = (game, token_digest(token))
        known = self._keys.get(key)
        if known is None:
            known = await asyncio.to_thread(self.store.holder, game, key[1])
            if known is not None:
                self._keys[key] = known
        return known

    async def seated(self, game: int, holder: SeatKey | None) -> str | None:
        """The player whose seat ``holder`` holds at table ``game`` now (None: none, or a seating that has
        ended), as the table says."""
        if holder is None or holder.is_host:
            return None
        async with self.locked(game) as live:
            return holder.player if holds(live.session.table, holder) else None

    async def claim_state(self, game: int, code: str) -> ClaimState:
        """What a claim link's code would hand over now (it is not spent: a link's preview spends nothing)."""
        await self.table(game)
        return await asyncio.to_thread(self.store.claim_state, game, token_digest(code[:200]))

    async def claim(self, game: int, code: str) -> tuple[SeatKey, str]:
        """Spend a late arrival's claim code, once, for a seat token minted now: the seat's holder and
        token."""
        await self.table(game)
        token = new_token()
        holder = await self._write(self.store.claim, game, token_digest(code[:200]), token_digest(token))
        self._keys[(game, token_digest(token))] = holder
        return holder, token

    # --- acting -----------------------------------------------------------------------------------------

    async def join(
        self, game: int, name: str, bankroll: str, *, by: SeatKey | None, bot: BotPolicy | None = None
    ) -> tuple[str, str | None, int, list[str]]:
        """Seat ``name`` with ``bankroll``: himself (``by`` None), or seated by the host (a late arrival, or
        a bot). Returns the name as seated, his key, the entry and its events. A player who sits himself down
        gets his seat's token; a late arrival's key is a claim code, which the host hands on and he exchanges
        once for a token of his own (:meth:`claim`), so that the host never holds a player's credential; a
        bot has none."""
        check_seater(by, bot=bot is not None)
        seated = check_name(name)
        amount = parse_money(bankroll, what="bankroll")
        sit = Sit(seated, amount, bot)
        actor = REFEREE if by is not None else Actor.player(seated)
        if by is None:
            token = new_token()
            seq, events = await self._act(game, Move(sit, actor, key=token_digest(token)))
            self._keys[(game, token_digest(token))] = SeatKey(seated, seq)
            return seated, token, seq, events
        code = None if bot is not None else new_token()
        claim = None if code is None else (token_digest(code), expiry(self.claim_ttl))
        seq, events = await self._act(game, Move(sit, actor, claim=claim))
        return seated, code, seq, events

    async def act(
        self, game: int, text: str, *, by: SeatKey | None, client: str | None, based_on: int | None = None
    ) -> tuple[int, list[str]]:
        """Make the action ``text`` (the terminal's text form) for the holder ``by``; returns the number of
        its entry and its events in words. ``client`` is the sender's own number for it: the same number sent
        again is answered with the first answer and makes nothing. ``based_on`` is the entry the sender's
        view showed: an action it would make mean something else now (the dice have been thrown since, or a
        correction made) is refused.
        """
        live = await self.table(game)
        by = check_spectator(game, text, by)
        if client is not None and not _CLIENT.match(client):
            raise InvalidError(
                f"invalid action id {quoted(client)}: expected 1 to {MAX_REQUEST} letters, digits or . _ : -"
            )
        if len(text) > MAX_TEXT:
            raise InvalidError(
                f"invalid action {quoted(text)}: expected at most {MAX_TEXT} characters, not {len(text):,}"
            )
        move = live.actor.move_of(text, by=by, client=request_key(by, client), based_on=based_on)
        return await self._act(game, move)

    async def seed(self, game: int, hand: int, seed: str, *, by: SeatKey | None) -> tuple[int, list[str]]:
        """The seat's own seed for hand ``hand``, drawn by its page as soon as it saw the hand's commitment
        (``hazard.js``): the table takes one a seat a hand, before the hand's first throw, and refuses any
        other with what it is (a page shows that refusal to nobody)."""
        await self.table(game)
        player = check_seeder(game, hand, by)
        assert by is not None
        seed_of = SetSeed(player, seed, hand)
        return await self._act(game, Move(seed_of, Actor.player(player), seating=by.seating or 0))

    async def _act(self, game: int, move: Move) -> tuple[int, list[str]]:
        """Have the table's actor make ``move``, under the table's lock: its writes on the writer (each
        committed with whatever else is waiting), its reads off the event loop, its news told after each."""
        async with self.locked(game) as live:
            steps = live.actor.acting(move)
            try:
                step = next(steps)
                while True:
                    try:
                        if step.writes:
                            result = await self._write(step.work)
                        else:
                            result = await asyncio.to_thread(step.work)
                    except Uncommitted:
                        steps.close()
                        self._drop(live)
                        raise
                    except Exception as error:  # the actor decides: try again, or refuse
                        self._told(live)  # whatever was written before the refusal (a bot caster's call)
                        step = steps.throw(error)
                    else:
                        self._told(live)
                        step = steps.send(result)
            except StopIteration as done:
                answer: Answer = done.value
                return answer.seq, answer.events

    async def close(self, game: int, *, by: SeatKey | None) -> int:
        """Close the table: only its host may. The close is an entry of the record (with the reveal of the
        hand in play at a table of fair dice), which every server learns as it learns any other; returns its
        number."""
        check_closer(game, by)
        seq, _ = await self._act(game, Move(Close(), REFEREE))
        return seq

    async def _write(self, work: Callable[..., _T], *args: object) -> _T:
        """Run ``work`` (which writes to the record) on the writer, committed with whatever else is waiting
        (see :mod:`hazard.web.writers`)."""
        return await self._writer.run(work, *args)

    # --- telling --------------------------------------------------------------------------------------------

    def subscribe(self, live: LiveTable) -> asyncio.Queue[Update | None]:
        queue: asyncio.Queue[Update | None] = asyncio.Queue(maxsize=_QUEUE)
        live.listeners.add(queue)
        return queue

    def unsubscribe(self, live: LiveTable, queue: asyncio.Queue[Update | None]) -> None:
        live.listeners.discard(queue)

    @staticmethod
    def hang_up(queue: asyncio.Queue[Update | None]) -> None:
        """End a follower's wait: what it has not taken is dropped, and it is handed None, as at a stop."""
        _drain(queue)
        _offer(queue, None)

    def _told(self, live: LiveTable) -> None:
        """Tell every follower of the table here what its actor has written or read since they were last
        told: each entry once, in order, whoever wrote it (:meth:`hazard.table.LiveGame.take_stream`)."""
        news = live.actor.take_stream()
        if news is None:
            return
        update = live.update(news)
        for queue in list(live.listeners):
            if not _offer(queue, update):
                # A client too slow to take its updates gets the whole state once it catches up.
                _drain(queue)
                _offer(queue, Update(live.seq, state=live.state()))

    async def _watch(self) -> None:
        """Look at the heads of the open tables; where another server has written, catch up and tell."""
        while True:
            woken = False
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), timeout=self.poll)
                woken = True
            self._wake.clear()
            self.let_go_idle()
            dirty, self._dirty = self._dirty, set()
            followed = [game for game, live in self._tables.items() if live.listeners]
            games = [game for game in followed if game in dirty] if woken else followed
            if not games:
                continue
            try:
                heads = await asyncio.to_thread(self.store.heads, games)
            except InvalidError:
                continue  # the record is unreachable for now: look again at the next tick
            for game, head in heads.items():
                live = self._tables.get(game)
                if live is not None and head > live.seq and not live.lock.locked():
                    async with live.lock:
                        if self._tables.get(game) is not live:  # let go meanwhile
                            continue
                        try:
                            await asyncio.to_thread(live.actor.catch_up)
                        except InvalidError:
                            continue
                        self._told(live)


def _offer(queue: asyncio.Queue[Update | None], update: Update | None) -> bool:
    try:
        queue.put_nowait(update)
    except asyncio.QueueFull:
        return False
    return True


def _drain(queue: asyncio.Queue[Update | None]) -> None:
    with contextlib.suppress(asyncio.QueueEmpty):
        while True:
            queue.get_nowait()
