"""What one fetch of a long web table's record (``GET /api/tables/{id}/record``) costs the server's CPU.

One web table of fair dice, two players throwing, is written to a SQLite record until it has ``--entries``
entries. Then, in this one process, CPU seconds (``time.process_time``) per fetch, the best of
``--repeat``:

- ``whole``: the record read whole, its chain checked, the game replayed and exported (``game_json``) and
  encoded as the API encodes an answer: what every fetch cost before the export was kept;
- ``first``: the kept export's first fetch of the game (the same work, once);
- ``same``: a fetch when nothing was written since the last;
- ``+10``: a fetch after ten more entries (they alone are read, replayed and encoded).

Run ``.venv/bin/python bench/bench_record_fetch.py`` (``--entries 20000`` by default).
"""

from __future__ import annotations

import argparse
import asyncio
import tempfile
import time
from collections.abc import Callable
from fractions import Fraction
from pathlib import Path

from fastapi.responses import JSONResponse

from hazard.core.rulesets import find_ruleset
from hazard.table import (
    REFEREE,
    Actor,
    DiceKind,
    GameKind,
    GameStore,
    Session,
    Sit,
    TableSpec,
    game_json,
    load_game,
    table_paytable,
)


def written(store: GameStore, entries: int) -> Session:
    rules = find_ruleset("wikipedia")
    session = Session.start(
        store,
        TableSpec(rules, table_paytable(rules)[0], dice=DiceKind.FAIR, kind=GameKind.WEB),
        seats=[Sit("Ann", Fraction(10**6)), Sit("Bob", Fraction(10**6))],
        seated_by=REFEREE,
        settings={"money": "decimal"},
    )
    more(session, entries)
    return session


def more(session: Session, entries: int) -> None:
    with session.store.batch():
        while len(session.entries) < entries:
            caster = Actor.player(session.table.turn.caster or "Ann")
            call = session.table.turn.need.value == "call"
            session.act("call 7" if call else "throw", by=caster)


def cpu(work: Callable[[], object], repeat: int) -> float:
    best = float("inf")
    for _ in range(repeat):
        started = time.process_time()
        work()
        best = min(best, time.process_time() - started)
    return best


def main() -> None:
    from hazard.web.records import Exports  # noqa: PLC0415 - bench_record_fetchers.py imports written() alone

    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--entries", type=int, default=20_000)
    parser.add_argument("--repeat", type=int, default=3)
    options = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        store = GameStore.open(str(Path(folder) / "games.db"))
        session = written(store, options.entries)
        game = session.game

        def whole() -> bytes:
            return bytes(JSONResponse(game_json(load_game(store, game))).body)

        async def fetch(exports: Exports) -> bytes:
            return b"".join(await exports.stream(game))

        def first() -> bytes:
            return asyncio.run(fetch(Exports(store)))

        kept = Exports(store)
        body = asyncio.run(fetch(kept))
        assert body == whole(), "the stream is not the export"

        def same() -> bytes:
            return asyncio.run(fetch(kept))

        def plus_ten() -> bytes:
            more(session, len(session.entries) + 10)
            return asyncio.run(fetch(kept))

        figures = {
            "whole": cpu(whole, options.repeat),
            "first": cpu(first, options.repeat),
            "same": cpu(same, options.repeat),
            "+10": cpu(plus_ten, options.repeat),
        }
        assert asyncio.run(fetch(kept)) == whole(), "the stream fell behind the record"
        store.close()
    size = len(body) / 1e6
    print(f"{options.entries:,} entries, {size:.1f} MB; CPU seconds per fetch (best of {options.repeat}):")
    for name, seconds in figures.items():
        print(f"  {name:>6}: {seconds:.4f}")


if __name__ == "__main__":
    main()
