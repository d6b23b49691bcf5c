"""One live game's actor (as lichess has one per game): what the terminal and the web both drive.

A :class:`LiveGame` is the one writer of its game in this process. It takes each :class:`Move` in turn (its
lock), writes it through its :class:`~hazard.table.live.session.Session`, lets the bots do what they want
after it, answers a move sent again (a client's request number) with the first answer, and, where another
process has written first, catches up from the record and tries again. Every entry written or read is streamed
once, in order, with its number (:meth:`LiveGame.take_stream`), for a front end to show or send.

How a move is made is written once, as steps (:meth:`LiveGame.acting` yields each :class:`Step`, a write or a
read of the record, and is handed its result), so that the terminal runs the steps as they come
(:meth:`LiveGame.act`) and the web runs them off its event loop, its writes in one batch with other games'.
"""

from __future__ import annotations

import threading
from collections import OrderedDict, deque
from collections.abc import Callable, Generator, Sequence
from dataclasses import dataclass, field
from functools import partial
from typing import Any

from hazard.core.dice import Roll
from hazard.core.engine import Call
from hazard.core.errors import HazardError, IllegalError, InvalidError
from hazard.table.live.session import Session
from hazard.table.live.timeline import Correction, Entry, Recorded, entry_text, load_game
from hazard.table.record.engine import RecordUnavailable
from hazard.table.record.keys import SeatKey
from hazard.table.record.store import StaleError
from hazard.table.rules.actions import (
    DICE,
    Actor,
    Fix,
    PassDice,
    SetSeed,
    TableAction,
    ThrowDice,
    parse_action,
    parse_fix,
)
from hazard.table.rules.closing import Close
from hazard.table.rules.events import event_text
from hazard.table.rules.money import MoneyStyle
from hazard.table.rules.roles import actor_of, check_role, role_of

__all__ = ["KEPT", "TRIES", "Answer", "LiveGame", "Move", "News", "Step", "check_based_on", "run_steps"]

KEPT = 500
"""How many of a game's latest entries its actor keeps (for a client that reconnects, and for the answers of
moves sent again); one that has missed more gets the whole state instead."""
TRIES = 8
"""How often a move is tried again after another process moved its game on (each try catches up)."""

Command = TableAction | ThrowDice | SetSeed | Fix | Close
"""What a move asks for: an action, a throw of the game's dice, a seed, a correction, or the close."""


@dataclass(frozen=True, slots=True)
class Move:
    """One thing a live game is asked to do, by whom, and what it carries with it."""

    command: Command
    by: Actor
    client: str | None = None
    """The sender's own number for it, as the record keeps it (:func:`~hazard.table.record.keys.request_key`):
    the same number sent again is answered with the first answer and makes nothing."""
    based_on: int | None = None
    """The entry the sender's view showed: a move it would make mean something else now is refused."""
    key: str | None = None
    """The digest of the token a ``sit`` gives its player."""
    claim: tuple[str, str] | None = None
    """The digest and expiry of the claim code a ``sit`` by the host gives a late arrival."""
    seating: int | None = None
    """The seating the sender's key opens: refused unless its player holds it now."""


@dataclass(frozen=True, slots=True)
class Answer:
    """What a move made: the number of its own entry, and its events in words (sums exact)."""

    seq: int
    events: list[str]


@dataclass(frozen=True, slots=True)
class News:
    """What the game's followers have not been told yet: the entries after the last told, each once, in
    order; or (``whole``) word that more piled up than can be told one by one, so show the whole game."""

    seq: int
    """The number of the game's last entry."""
    entries: tuple[Recorded, ...] = ()
    whole: bool = False


@dataclass(frozen=True, slots=True)
class Step:
    """A step of a move for its driver to run: a write to the record (``writes``), or a read of it."""

    work: Callable[[], Any]
    writes: bool = False


Steps = Generator[Step, Any, Answer]


def run_steps(steps: Steps) -> Answer:
    """Run a move's steps one after another, here and now (what the terminal does)."""
    try:
        step = next(steps)
        while True:
            try:
                result = step.work()
            except Exception as error:  # the move decides: try again, or refuse
                step = steps.throw(error)
            else:
                step = steps.send(result)
    except StopIteration as done:
        answer: Answer = done.value
        return answer


@dataclass
class LiveGame:
    """A game in play in this process, and the one writer of it here."""

    session: Session
    requests: dict[str, int] = field(default_factory=dict)
    """Every move made at this game with a client's number, with the entry it made (from the record)."""
    kept: int = KEPT
    """How many of the latest entries :attr:`recent` keeps."""
    recent: deque[Recorded] = field(init=False)
    """The latest entries with their events, for followers that reconnect and for a log."""
    answers: OrderedDict[int, list[str]] = field(default_factory=OrderedDict)
    """The events, by entry, of the latest moves: what a move sent again is answered with."""
    told: int = 0
    """The last entry its followers have been told of (every entry up to it, once each, in order)."""
    lock: threading.RLock = field(default_factory=threading.RLock)
    """Taken by :meth:`act`: of two moves sent at once, one is made after the other."""

    def __post_init__(self) -> None:
        self.recent = deque(maxlen=self.kept)

    @classmethod
    def resume(cls, session: Session, recent: list[Recorded] | None = None, *, kept: int = KEPT) -> LiveGame:
        """The actor of a game read from its record (``recent``: its latest entries, for its log): its
        followers are told from its last entry on."""
        game = cls(session, requests=session.store.requests(session.game), kept=kept)
        game.recent.extend(recent or [])
        game.told = game.seq
        return game

    @property
    def game(self) -> int:
        return self.session.game

    @property
    def seq(self) -> int:
        """The number of the game's last entry: the version its followers follow."""
        return len(self.session.entries)

    @property
    def closed(self) -> bool:
        return self.session.closed

    # --- acting -------------------------------------------------------------------------------------------

    def move_of(
        self, text: str, *, by: SeatKey, client: str | None = None, based_on: int | None = None
    ) -> Move:
        """What ``text`` (the actions' text form) asks of this game from the holder of a key, ``by``: read
        for his actor (a host may correct the record), and refused unless his role allows it.
        ``client`` is the record's form of the sender's number
        (:func:`~hazard.table.record.keys.request_key`)."""
        actor = actor_of(by)
        players = [p.name for p in self.session.table.players]
        fix = parse_fix(text, by=actor, players=players) if by.is_host else None
        command: Command = fix if fix is not None else parse_action(text, by=actor, players=players)
        check_role(role_of(by, self.session.info.dice), self.game, command, text)
        seating = None if by.is_host else (by.seating or 0)
        return Move(command, actor, client, based_on, seating=seating)

    def act(self, move: Move) -> Answer:
        """Make ``move`` now, under the game's lock, its writes committed each as it is made."""
        with self.lock:
            return run_steps(self.acting(move))

    def open(self) -> None:
        """Let the bots do what they want before anyone acts (a game just started or resumed)."""
        with self.lock:
            self.session.bots_act(call=False)

    def acting(self, move: Move) -> Steps:
        """The steps of ``move``: for a driver that holds the game's lock and runs each step it is given (a
        write, a read), handing back its result or its error. Returns the move's answer."""
        session = self.session
        for _ in range(TRIES):
            if move.client is not None and move.client in self.requests:
                return (yield from self._answer(self.requests[move.client]))
            if self.closed and isinstance(move.command, Close):  # closing it twice is closing it once
                return Answer(self.seq, [])
            if move.based_on is not None:
                check_based_on(session.entries, move.based_on, session.money)
            try:
                made: list[Recorded] = yield Step(partial(self._play, move), writes=True)
            except StaleError:  # another process wrote first: the session has caught up; try again
                yield Step(self._read_requests)
                continue
            except RecordUnavailable:
                raise
            except HazardError as error:
                # Refused by this table: if another process has moved the game on, the refusal may be stale
                # (or the move a resend, already made there): catch up and look again.
                heads = yield Step(partial(session.store.heads, [self.game]))
                if heads.get(self.game, self.seq) <= self.seq:
                    raise error from None
                yield Step(self._catch_up)
                continue
            seq = _own(made)
            if move.client is not None:
                self.requests[move.client] = seq
            events = _said(made, session.money)
            self.answers[seq] = events
            while len(self.answers) > KEPT:
                self.answers.popitem(last=False)
            return Answer(seq, events)
        raise IllegalError(
            f"illegal action at table {self.game}: other servers kept moving the table on; look, then send "
            "it again"
        )

    def _play(self, move: Move) -> list[Recorded]:
        """The entries the move made; then the bots do whatever they want after it (into the stream)."""
        session, command, by = self.session, move.command, move.by
        if isinstance(command, Fix):
            _, correction, _ = session.correct(command.target, command.replacement, by=by)
            made = [Recorded(correction, ())]  # its answer is what it did: see _said
        elif isinstance(command, Close):
            return session.close(by=by)
        else:
            made = session.act(
                command, by=by, client=move.client, key=move.key, claim=move.claim, seating=move.seating
            )
        session.bots_act(call=False)
        return made

    def _answer(self, seq: int) -> Generator[Step, Any, Answer]:
        known = self.answers.get(seq)
        if known is not None:
            return Answer(seq, known)
        replayed = yield Step(partial(load_game, self.session.store, self.game))
        money = self.session.money
        return Answer(seq, [event_text(event, money) for event in replayed.events_of(seq)])

    def _read_requests(self) -> None:
        """The client numbers other processes wrote (their entries are in the session's news already)."""
        self.requests = self.session.store.requests(self.game)

    def _catch_up(self) -> None:
        self.session.catch_up()
        self._read_requests()

    def catch_up(self) -> None:
        """Read what other processes wrote (into the stream), and their client numbers."""
        with self.lock:
            self._catch_up()

    # --- telling ------------------------------------------------------------------------------------------

    def take_stream(self) -> News | None:
        """What the game's followers have not been told: every entry its session has written or read since
        they were last told, once each, in order (None: nothing)."""
        news = [done for done in self.session.take_news() if done.entry.seq > self.told]
        head = self.seq
        if head == self.told and not news:
            return None
        told, self.told = self.told, head
        if [done.entry.seq for done in news] == list(range(told + 1, head + 1)):
            self.recent.extend(news)
            return News(head, tuple(news))
        self.recent.clear()  # more piled up than the news keeps: the whole game
        return News(head, whole=True)

    def missed(self, seq: int) -> News:
        """What a follower that knows entry ``seq`` is missing: the entries after it, or the whole game."""
        head = self.seq
        if seq == head:
            return News(head)
        kept = [done for done in self.recent if done.entry.seq > seq]
        if 0 <= seq < head and [done.entry.seq for done in kept] == list(range(seq + 1, head + 1)):
            return News(head, tuple(kept))
        return News(head, whole=True)


def _own(made: list[Recorded]) -> int:
    """The number of a move's own entry among those it made: after the dice's notes that came before it
    (a hand opened), before those its end wrote after it (a reveal, the seeds drawn for the next hand, the
    next commitment). The record keeps a client's number with that entry, so a resend is answered with it."""
    for done in reversed(made):
        if done.entry.actor != DICE:
            return done.entry.seq
    return made[-1].entry.seq


def _said(made: list[Recorded], money: MoneyStyle) -> list[str]:
    """A move's answer: its events in words, in the table's money style (a page shows them as they are); a
    correction, which has none, says what it corrected."""
    said = [event_text(event, money) for done in made for event in done.events]
    if not said and made and isinstance(made[-1].entry.item, Correction):
        said = [entry_text(made[-1].entry, money)]
    return said


def check_based_on(entries: Sequence[Entry], based_on: int, money: MoneyStyle) -> None:
    """Refuse an action sent from a view of the table (at entry ``based_on``) that the dice (or a
    correction) have since changed: it may mean something else now."""
    head = len(entries)
    if based_on > head or based_on < 0:
        raise InvalidError(f"invalid based_on {based_on}: expected an entry number from 0 to {head}")
    for entry in entries[based_on:]:
        if isinstance(entry.item, Roll | Call | PassDice | Correction):
            raise IllegalError(
                f"illegal action from a view of entry {based_on}: the table has moved on since (entry "
                f"{entry.seq}: {entry_text(entry, money)}), so it may mean something else now; look, "
                "then send it again"
            )
