"""A table in play at this server, as the hub keeps it (its actor, its lock, its followers) and as its
followers get it: an :class:`Update`, the entries after the last one a client knew, or the whole state."""

from __future__ import annotations

import asyncio
import json
import time
from collections import deque
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from hazard.table import (
    LiveGame,
    MoneyStyle,
    News,
    Recorded,
    Session,
    entry_text,
    event_text,
    table_json,
)

__all__ = ["SETTING_HOST", "SETTING_MONEY", "LiveTable", "Update", "entry_json"]

SETTING_MONEY = "money"
SETTING_HOST = "host"


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
        """Whether the table is closed: as its record says (``hazard.table.rules.closing``)."""
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
