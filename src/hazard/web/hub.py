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

The hub holds the tables and acts on them; a table as it keeps it is :mod:`hazard.web.livetable`'s, the
watching of the record ``hazard.web.watcher``'s, and the telling of each table's followers
:mod:`hazard.web.telling`'s.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import re
import secrets
import time
from collections.abc import AsyncIterator, Callable
from dataclasses import replace
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
    GivenClaim,
    LiveGame,
    MoneyStyle,
    Move,
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
    expiry,
    holds,
    load_game,
    parse_money,
    request_key,
)
from hazard.web.livetable import SETTING_MONEY, LiveTable, Update
from hazard.web.telling import hang_up, subscribe, tell, unsubscribe
from hazard.web.watcher import Watcher
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
_TRIES = 8
"""How often an action is tried again after another server moved its table on (each try catches up)."""
_POLL = 0.5
"""Seconds between looks at the record's heads, for what other servers wrote (LISTEN/NOTIFY wakes it
sooner)."""
IDLE = 600.0
"""Seconds after which a table nobody follows here and nobody has asked for is let go from memory (it is
read again from the record when it is next asked for)."""
_CLIENT = re.compile(rf"^[A-Za-z0-9_.:-]{{1,{MAX_REQUEST}}}$")
MAX_TEXT = 500
"""The longest action text a client may send."""
CLAIM_TTL = 30 * 60.0
"""How long a late arrival's claim link works, unused, by default (seconds)."""


class NoSuchTable(IllegalError):
    """A table number that names no web table in this server's record."""


def token_digest(token: str) -> str:
    """The SHA-256 of a token, which is all the record keeps of it."""
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def new_token() -> str:
    return secrets.token_urlsafe(24)


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
        self._watcher = Watcher(store, self._tables, poll=poll, let_go=self.let_go_idle)
        self._writer = Writer(store)

    # --- life -------------------------------------------------------------------------------------------

    async def start(self) -> None:
        """Start watching the record for what other servers write (``hazard.web.watcher``)."""
        self._watcher.start()

    async def stop(self) -> None:
        await self._watcher.stop()
        for live in self._tables.values():
            for queue in list(live.listeners):
                self.hang_up(queue)
        await asyncio.to_thread(self._writer.stop)

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
        """Let go of every table nobody follows here and nobody has asked for in ``idle`` seconds (run
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
                tell(live)
            yield live

    async def follow(self, game: int, since: int) -> tuple[LiveTable, asyncio.Queue[Update | None], Update]:
        """Follow table ``game`` from entry ``since``: the table, the follower's queue, and its first update
        (what it missed). Under the table's lock, at the record's head: the first update and the queue start
        at one entry, so nothing written meanwhile is either missed or sent twice."""
        async with self.current(game) as live:
            tell(live)
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
        session = Session.of_replayed(self.store, replayed, kind=GameKind.WEB, brains=brains)
        recent = [Recorded(entry, tuple(replayed.events_of(entry.seq))) for entry in replayed.entries[-KEPT:]]
        return LiveTable(LiveGame.resume(session, recent, kept=KEPT))

    def open_tables(self) -> list[dict[str, Any]]:
        """The web tables not closed, newest first, as the lobby lists them (a read of the record)."""
        closed = self.store.closed()
        return [
            {
                "id": s.id,
                "label": s.label,
                "ruleset": s.ruleset,
                "entries": s.entries,
                "created": s.created,
                **self._at_table(s.id),
            }
            for s in self.store.games()
            if s.kind is GameKind.WEB and s.id not in closed
        ]

    def _at_table(self, game: int) -> dict[str, Any]:
        """Who sits at table ``game`` and what it waits for, where it is held in memory (a table being played
        is); a table let go is not read again for the lobby, which would replay its record for a glance."""
        live = self._tables.get(game)
        if live is None:
            return {"players": None, "state": "nobody is at the table now"}
        table = live.session.table  # a frozen snapshot: read without the lock
        names = [p.name for p in table.players]
        turn = table.turn
        state = str(turn) if not names else f"round {table.rounds_played + 1}: {turn}"
        return {"players": names, "state": state}

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

    async def given_claims(self, game: int) -> list[GivenClaim]:
        """The late arrivals' claim links of table ``game`` whose seats are still there (for the host)."""
        return await asyncio.to_thread(self.store.given_claims, game)

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
                        tell(live)  # whatever was written before the refusal (a bot caster's call)
                        step = steps.throw(error)
                    else:
                        tell(live)
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

    # --- telling (:mod:`hazard.web.telling`) ----------------------------------------------------------------

    def subscribe(self, live: LiveTable) -> asyncio.Queue[Update | None]:
        """A new follower of ``live``: its queue, told every update from now on."""
        return subscribe(live)

    def unsubscribe(self, live: LiveTable, queue: asyncio.Queue[Update | None]) -> None:
        """The follower of ``queue`` follows ``live`` no more."""
        unsubscribe(live, queue)

    @staticmethod
    def hang_up(queue: asyncio.Queue[Update | None]) -> None:
        """End a follower's wait: what it has not taken is dropped, and it is handed None, as at a stop."""
        hang_up(queue)
