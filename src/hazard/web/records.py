"""A table's whole record for clients (``GET /api/tables/{id}/record``, and page by page), without replaying
the game for every fetch.

The export is ``hazard record export``'s JSON exactly (:func:`hazard.table.game_json`, which ``hazard
verify`` reads), sent as a stream. What it costs is kept per game: the game as replayed, and each entry's
encoded form (:func:`hazard.table.export_entry_json`). A fetch reads from the record only the entries after
the last one kept, checked against the chain and played on (``load_further``), and encodes those;
everything else is sent as it was encoded the first time. Fetchers
of one game wait for one another rather than each doing the work. A correction, which can change the
standing of what came before it, makes the game be read and encoded whole again; so does a record that is
not chained.
"""

from __future__ import annotations

import asyncio
import json
from collections import OrderedDict
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from hazard.core.errors import HazardError
from hazard.table import (
    Correction,
    GameStore,
    ReplayedGame,
    export_entry_json,
    game_json,
    load_further,
    load_game,
    standing,
)

__all__ = ["PAGE", "Exports"]

_GAMES = 4
"""Games whose export is kept at once (the least recently fetched are dropped first)."""
_CHUNK = 256
"""Entries sent in one piece of the stream."""
PAGE = 500
"""The most entries one page of ``/entries`` gives."""


@dataclass(frozen=True, slots=True)
class _Export:
    game: ReplayedGame
    texts: tuple[str, ...]
    """Each entry's form, encoded: ``texts[k]`` is entry ``k + 1``'s."""
    outline: tuple[tuple[str, str], ...]
    """The export's other parts (setup, hands, state), each encoded, in the export's order; entries' ''.

    Made in the worker thread with the rest, so a fetch of a game unchanged since costs the sending alone."""


def _export(game: ReplayedGame, texts: tuple[str, ...]) -> _Export:
    outline = game_json(game, entries=False)
    return _Export(
        game, texts, tuple((key, "" if key == "entries" else _json(v)) for key, v in outline.items())
    )


def _json(value: object) -> str:
    """As the API encodes every answer (Starlette's ``JSONResponse``), so the stream is the same bytes."""
    return json.dumps(value, ensure_ascii=False, allow_nan=False, indent=None, separators=(",", ":"))


def _encoded(game: ReplayedGame, first: int) -> tuple[str, ...]:
    """The encoded forms of the game's entries from entry ``first`` on."""
    standings = standing(game.entries)
    return tuple(_json(export_entry_json(game, entry, standings)) for entry in game.entries[first - 1 :])


class Exports:
    """The kept exports of one record's games."""

    def __init__(self, store: GameStore) -> None:
        self.store = store
        self._kept: OrderedDict[int, _Export] = OrderedDict()
        self._locks: dict[int, asyncio.Lock] = {}

    async def export(self, game: int) -> _Export:
        """Game ``game``'s export as the record holds it now."""
        lock = self._locks.setdefault(game, asyncio.Lock())
        try:
            async with lock:
                export = await asyncio.to_thread(self._brought_up, game, self._kept.get(game))
                self._kept[game] = export
                self._kept.move_to_end(game)
                while len(self._kept) > _GAMES:
                    self._kept.popitem(last=False)
                return export
        finally:
            if not lock.locked() and self._locks.get(game) is lock:
                del self._locks[game]

    def _brought_up(self, game: int, kept: _Export | None) -> _Export:
        if kept is not None:
            try:
                further = load_further(self.store, kept.game)
            except HazardError:  # not chained, or not as kept: read whole below, which names what is wrong
                further = None
            if further is not None:
                if further is kept.game:
                    return kept
                more = further.entries[len(kept.game.entries) :]
                if any(isinstance(entry.item, Correction) for entry in more):
                    return _export(further, _encoded(further, 1))  # standings before it may have changed
                return _export(further, kept.texts + _encoded(further, len(kept.texts) + 1))
        replayed = load_game(self.store, game)
        return _export(replayed, _encoded(replayed, 1))

    async def stream(self, game: int) -> Iterator[bytes]:
        """The export's text, piece by piece: the same JSON as ``json.dumps(game_json(...))``."""
        export = await self.export(game)
        return _pieces(export)

    async def page(self, game: int, after: int, limit: int) -> dict[str, Any]:
        """Entries ``after + 1`` to ``after + limit`` of the export, and the game's head."""
        export = await self.export(game)
        texts = export.texts[after : after + limit]
        head = len(export.texts)
        return {
            "game": game,
            "head": head,
            "after": after,
            "next": after + len(texts) if after + len(texts) < head else None,
            "entries": [json.loads(text) for text in texts],
        }


def _pieces(export: _Export) -> Iterator[bytes]:
    yield b"{"
    for number, (key, value) in enumerate(export.outline):
        yield ("," if number else "").encode() + _json(key).encode() + b":"
        if key != "entries":
            yield value.encode()
            continue
        yield b"["
        for start in range(0, len(export.texts), _CHUNK):
            yield (("," if start else "") + ",".join(export.texts[start : start + _CHUNK])).encode()
        yield b"]"
    yield b"}"
