"""The record's wake-up call: PostgreSQL's LISTEN/NOTIFY on one channel, each committed entry announced by
its game and number (the store's append sends it in the writing transaction, so it is delivered at commit).

A notification only says "look"; the record is the truth.
"""

from __future__ import annotations

import threading
from collections.abc import Callable

__all__ = ["CHANNEL", "listen"]

CHANNEL = "hazard_entries"
"""The PostgreSQL channel on which each committed entry is announced (its game and number)."""


def listen(url: str, woken: Callable[[int, int], None]) -> Callable[[], None] | None:
    """Call ``woken(game, seq)`` (from a thread of its own) whenever a writer commits entry ``seq`` of a
    game in the record at ``url``, this process included; returns the function that stops listening. Only
    PostgreSQL tells its writers (LISTEN/NOTIFY); for another database this returns None, and a watcher
    polls the heads instead (:meth:`~hazard.table.record.store.GameStore.heads`).

    A notification only says "look": one lost with a dropped connection costs a watcher one poll, never
    an entry, since the record, read by the heads and the entries after them, is the truth.
    """
    import sqlalchemy as sa

    parsed = sa.engine.make_url(url)
    if parsed.get_backend_name() != "postgresql":
        return None
    plain = parsed.set(drivername="postgresql").render_as_string(hide_password=False)
    stop = threading.Event()

    def run() -> None:
        import psycopg

        while not stop.is_set():
            try:
                with psycopg.connect(plain, autocommit=True) as connection:
                    connection.execute(f"LISTEN {CHANNEL}")
                    while not stop.is_set():
                        for note in connection.notifies(timeout=1.0):
                            game, _, seq = note.payload.partition(":")
                            if game.isdigit() and seq.isdigit():
                                woken(int(game), int(seq))
            except psycopg.Error:
                stop.wait(1.0)  # the server is away: try again shortly

    threading.Thread(target=run, name="hazard-listen", daemon=True).start()
    return stop.set
