"""bench_web's players: each a client of its own (an ``aiohttp`` session and a socket following its
table) that acts on what its socket shows, as a page would; the tables they sit at and the run they share."""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import re
import time
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

import aiohttp

from _web_server import BANKROLL, STAKE

MAIN = 7
STAKE_WAIT = 1.0
"""The longest a caster waits for the setters' stakes once a round is open, before calling anyway."""
DRAIN = 5.0
"""The longest the sockets are given, after the window, to deliver the window's last actions."""

_NO_RECEIVE_TIMEOUT = aiohttp.ClientWSTimeout(ws_receive=None)
"""A player's socket may be quiet for as long as its table is."""

_SETTLED = re.compile(r"^(the caster \S+ (wins|loses) |no stakes change hands)")
_PASSED = re.compile(r"^the dice pass from \S+ to ([^:]+):")
_STAKED = re.compile(r"^(\S+) stakes \S+ against ")
_CALLED = "the caster calls "


# --- the players --------------------------------------------------------------------------------------------


@dataclass
class View:
    """A table as one player's socket (or a read of its state) has shown it."""

    head: int = 0
    caster: str | None = None
    begun: bool = False
    """Whether the caster has called this round (stakes are then closed)."""
    staked: set[str] = field(default_factory=set)
    opened: float = 0.0
    """When this player saw the round open (``time.perf_counter``)."""
    rounds: int = 0
    """Rounds this player has seen end."""

    def entries(self, entries: list[dict[str, Any]], now: float) -> None:
        for entry in entries:
            if entry["seq"] <= self.head:
                continue
            self.head = entry["seq"]
            for text in entry["events"]:
                if text.startswith(_CALLED):
                    self.begun = True
                elif found := _STAKED.match(text):
                    self.staked.add(found[1])
                elif _SETTLED.match(text):
                    self.begun = False
                    self.staked = set()
                    self.opened = now
                    self.rounds += 1
                elif found := _PASSED.match(text):
                    self.caster = found[1]

    def state(self, seq: int, state: dict[str, Any], now: float) -> None:
        """The whole table at entry ``seq`` (``GET /api/tables/{id}``, or a socket's ``state`` message)."""
        if seq < self.head:
            return
        table = state["state"]
        begun = table["turn"]["need"] == "throw"
        if not begun and (self.begun or not self.opened):
            self.opened = now
        self.head = seq
        self.caster = table["turn"]["caster"]
        self.begun = begun
        self.staked = {stake["player"] for stake in table["stakes"]}


@dataclass
class Action:
    """One action sent: when, its answer, and (once answered with 2xx) its entry's number."""

    table: int
    sent: float
    answered: float = 0.0
    status: int = 0
    seq: int = 0


class Table:
    """One table's players, and when each of its entries reached each of its sockets."""

    def __init__(self, game: int, players: int, base: str) -> None:
        self.game = game
        self.players = players
        self.base = base
        """The server its players talk to: one for the whole table, as a proxy keeping tables apart sends."""
        self.arrived: dict[int, list[float]] = {}
        """Entry number: [sockets that have it, when the last of them got it]."""
        self.seen = 0
        """The highest entry number any of the table's sockets has received."""

    def arrive(self, seq: int, now: float) -> None:
        found = self.arrived.get(seq)
        if found is None:
            self.arrived[seq] = [1, now]
        else:
            found[0] += 1
            found[1] = now
        self.seen = max(self.seen, seq)

    def everywhere(self, seq: int) -> float | None:
        """When the last of the table's sockets received entry ``seq`` (None: not all of them have)."""
        found = self.arrived.get(seq)
        return found[1] if found is not None and found[0] >= self.players else None


@dataclass
class Run:
    """What one run shares among its players: what they did, and when to stop."""

    think: float
    stop: float = float("inf")
    actions: list[Action] = field(default_factory=list)
    refusals: Counter[str] = field(default_factory=Counter)
    """Each refusal's message, its numbers blanked out."""
    reconnects: int = 0
    rereads: int = 0
    errors: Counter[str] = field(default_factory=Counter)


class Player:
    """One person at a table: a keep-alive HTTP connection for acting, and a socket following the table."""

    def __init__(self, run: Run, table: Table, name: str, index: int) -> None:
        self.run = run
        self.table = table
        self.name = name
        self.view = View()
        self.changed = asyncio.Event()
        self.random = random.Random(table.game * 100 + index)
        self.actions = 0
        # A connection for actions, kept alive, and the socket; no cookies: once seated, every request
        # carries the seat's token.
        self.client = aiohttp.ClientSession(
            base_url=table.base,
            connector=aiohttp.TCPConnector(limit=2),  # the socket holds one of them
            cookie_jar=aiohttp.DummyCookieJar(),
            timeout=aiohttp.ClientTimeout(total=30.0),
        )
        self.headers: dict[str, str] = {}
        self.socket_head = 0
        self.socket: aiohttp.ClientWebSocketResponse | None = None

    async def sit(self) -> None:
        """Sit down; from then on every request carries the seat's token."""
        path = f"/api/tables/{self.table.game}/seats"
        async with self.client.post(path, json={"name": self.name, "bankroll": BANKROLL}) as sat:
            sat.raise_for_status()
            seat = await sat.json()
        self.name = seat["seat"]
        self.headers = {"authorization": f"Bearer {seat['token']}"}

    async def reread(self) -> None:
        """Read the table's state, as a page does when it has lost track (again if the connection fails)."""
        for tries in range(3):
            try:
                async with self.client.get(f"/api/tables/{self.table.game}", headers=self.headers) as got:
                    got.raise_for_status()
                    state = await got.json()
                break
            except aiohttp.ClientConnectionError as error:
                self.run.errors[type(error).__name__] += 1
                if tries == 2:
                    raise
        self.view.state(state["seq"], state, time.perf_counter())

    async def connect(self) -> None:
        url = f"/api/tables/{self.table.game}/live?since={self.view.head}"
        # autoping: the server's pings are answered, as a browser answers them. Unanswered (as before issue
        # 23), uvicorn closed every socket 40 s after it opened, all together, and each reconnect delivered
        # the actions in flight half a second late: a tail of the benchmark's own, not the server's.
        self.socket = await self.client.ws_connect(
            url, autoping=True, heartbeat=None, max_msg_size=0, timeout=_NO_RECEIVE_TIMEOUT
        )
        self.socket_head = max(self.socket_head, self.view.head)

    async def follow(self) -> None:
        """Read the socket until it is closed: every update moves the view on and is timed for the table."""
        while True:
            assert self.socket is not None
            async for message in self.socket:
                if message.type != aiohttp.WSMsgType.TEXT:
                    continue
                now = time.perf_counter()
                update = json.loads(message.data)
                if update["type"] == "entries":
                    for entry in update["entries"]:
                        if entry["seq"] > self.socket_head:
                            self.table.arrive(entry["seq"], now)
                    self.view.entries(update["entries"], now)
                else:
                    for seq in range(self.socket_head + 1, update["seq"] + 1):
                        self.table.arrive(seq, now)
                    self.view.state(update["seq"], update["state"], now)
                self.socket_head = max(self.socket_head, update["seq"])
                self.changed.set()
            if time.perf_counter() >= self.run.stop:
                return
            self.run.reconnects += 1
            await asyncio.sleep(0.5)
            with contextlib.suppress(aiohttp.ClientError, OSError, TimeoutError):
                await self.connect()

    def decide(self, now: float) -> tuple[str | None, float]:
        """The action to send now (None: none yet), and how long to wait for news before deciding again."""
        view = self.view
        if view.caster == self.name:
            if view.begun:
                return "throw", 0.0
            left = STAKE_WAIT - (now - view.opened)
            if len(view.staked) >= self.table.players - 1 or left <= 0:
                return f"call {MAIN}", 0.0
            return None, left
        if not view.begun and self.name not in view.staked:
            return f"stake {STAKE}", 0.0
        return None, 1.0

    async def play(self) -> None:
        """Act on what the socket shows until the run stops."""
        run = self.run
        self.view.opened = time.perf_counter()  # the first round opens when play starts
        while True:
            now = time.perf_counter()
            if now >= run.stop:
                return
            self.changed.clear()
            text, wait = self.decide(now)
            if text is None:
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self.changed.wait(), timeout=min(wait, run.stop - now) + 0.001)
                continue
            if run.think > 0:
                await asyncio.sleep(min(run.think * self.random.uniform(0.5, 1.5), max(0.0, run.stop - now)))
                if time.perf_counter() >= run.stop:
                    return
                text, _ = self.decide(time.perf_counter())  # the table may have moved on meanwhile
                if text is None:
                    continue
            self.actions += 1
            action = Action(self.table.game, time.perf_counter())
            body = {"action": text, "id": f"{self.name}-{self.actions}"}
            answer = await self._send(body)
            if answer is None:
                await asyncio.sleep(0.1)
                continue
            action.answered = time.perf_counter()
            action.status, said = answer
            run.actions.append(action)
            if 200 <= action.status < 300:
                action.seq = said["seq"]
                await self._seen(action.seq)
            else:
                with contextlib.suppress(TypeError, KeyError):
                    message = re.sub(r"\d+", "N", said["error"])
                    run.refusals[f"{action.status} {message}"] += 1
                run.rereads += 1
                with contextlib.suppress(aiohttp.ClientError):
                    await self.reread()

    async def _send(self, body: dict[str, str]) -> tuple[int, Any] | None:
        """Post an action: its status and JSON body. Sent again, with the same id, where the connection failed
        (the server's keep-alive timeout may close an idle connection as it is reused): the server makes an
        action sent twice once."""
        path = f"/api/tables/{self.table.game}/actions"
        for _ in range(3):
            try:
                async with self.client.post(path, json=body, headers=self.headers) as answer:
                    try:
                        said = await answer.json(content_type=None)
                    except ValueError:
                        said = None
                    return answer.status, said
            except aiohttp.ClientConnectionError as error:
                self.run.errors[type(error).__name__] += 1
        return None

    async def _seen(self, seq: int) -> None:
        """Wait until this player's socket has shown entry ``seq`` (or the run stops)."""
        while self.view.head < seq:
            now = time.perf_counter()
            if now >= self.run.stop + DRAIN:
                return
            self.changed.clear()
            if self.view.head >= seq:
                return
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.changed.wait(), timeout=1.0)

    async def close(self) -> None:
        if self.socket is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self.socket.close(), timeout=2.0)
        await self.client.close()
