"""Changing a game record underneath its store, as a crash, a bad tool, a bad disk or a forger might."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from hazard.table.record.chain import entry_digest, setup_digest

SETUP = ("format", "created", "label", "kind", "ruleset", "paytable", "stakes", "dice", "seed", "settings")


def _unsynced(db: Path) -> sqlite3.Connection:
    """A connection whose commits are not flushed to the disk: what it writes is the damage a test reads back
    at once, through the same file, and waiting for the disk (a few milliseconds a commit) made the fuzzers
    of the record spend most of their time in fsync."""
    connection = sqlite3.connect(db)
    connection.execute("PRAGMA synchronous = OFF")
    return connection


def sql(db: Path, statement: str, *params: object) -> None:
    """Run one statement on the record's file and commit it."""
    connection = _unsynced(db)
    with connection:
        connection.execute(statement, params)
    connection.close()


def rows(db: Path, statement: str) -> list[tuple[object, ...]]:
    connection = sqlite3.connect(db)
    try:
        return connection.execute(statement).fetchall()
    finally:
        connection.close()


def reseal(db: Path) -> None:
    """Recompute every game's chain over what its rows now hold, as a writer with a bug would have sealed it.

    A test changes an entry's content and then reseals, to reach the checks behind the chain: what a record
    says must still make sense even where its chain is whole.
    """
    connection = _unsynced(db)
    connection.row_factory = sqlite3.Row
    with connection:
        for game in connection.execute("SELECT * FROM hazard_games").fetchall():
            head = setup_digest({name: game[name] for name in SETUP})
            lines = connection.execute(
                "SELECT seq, at, data FROM hazard_entries WHERE game = ? ORDER BY seq", (game["id"],)
            ).fetchall()
            for line in lines:
                data = line["data"] if isinstance(line["data"], str) else repr(line["data"])
                head = entry_digest(head, line["seq"], line["at"], data)
                connection.execute(
                    "UPDATE hazard_entries SET digest = ? WHERE game = ? AND seq = ?",
                    (head, game["id"], line["seq"]),
                )
            connection.execute(
                "UPDATE hazard_heads SET entries = ?, head = ? WHERE game = ?", (len(lines), head, game["id"])
            )
    connection.close()
