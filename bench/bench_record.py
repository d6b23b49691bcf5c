"""What a long game's record costs: resuming it, correcting it, showing it, against replaying it whole.

One refereed game of N entries (two players, a main called each round, throws from a fixed random sequence)
is written once into an in-memory record and then copied to a file. Timed in this one process, each against
the same process's replay of the whole game (``hazard.table.replay``, the baseline):

- ``load``: reading the record and checking its hash chain, then replaying it (what resume does);
- ``undo``: voiding the last action (``Session.correct()``): it replays only the entries after the last kept
  table, at most ``MARK_EVERY`` entries back, however long the game;
- ``fix N/2``: correcting an entry half-way through: it replays the half after it;
- ``show``: the whole ``hazard record show`` process on the file, start-up included.

Run ``.venv/bin/python bench/bench_record.py`` (``--entries`` to choose the sizes).
"""

from __future__ import annotations

import argparse
import random
import sqlite3
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from fractions import Fraction
from pathlib import Path

from hazard.core.rulesets import find_ruleset
from hazard.table import REFEREE, DiceKind, GameKind, GameStore, Session, Sit, TableSpec, table_paytable
from hazard.table.live.timeline import MARK_EVERY, Correction, Entry, load_game, replay

HAZARD = Path(sys.executable).with_name("hazard")


def written(entries: int) -> tuple[GameStore, Session]:
    store = GameStore.open("sqlite://", in_memory=True)
    rules = find_ruleset("wikipedia")
    session = Session.start(
        store,
        TableSpec(rules, table_paytable(rules)[0], dice=DiceKind.TYPED, kind=GameKind.REFEREE),
        seats=[Sit("Ann", Fraction(10**6)), Sit("Bob", Fraction(10**6))],
        seated_by=REFEREE,
    )
    dice = random.Random(1)
    while len(session.entries) < entries:
        need_call = session.table.turn.need.value == "call"
        line = "call 7" if need_call else f"{dice.randint(1, 6)}-{dice.randint(1, 6)}"
        session.act(line, by=REFEREE)
    return store, session


def seconds(work: Callable[[], object], repeat: int) -> float:
    """The best of ``repeat`` runs: the least disturbed by the rest of the machine."""
    best = float("inf")
    for _ in range(repeat):
        began = time.perf_counter()
        work()
        best = min(best, time.perf_counter() - began)
    return best


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--entries", type=int, nargs="+", default=[10_000, 100_000])
    parser.add_argument("--repeat", type=int, default=3)
    options = parser.parse_args()
    print(
        f"python {sys.version.split()[0]}; a correction replays from the last table kept (every {MARK_EVERY})"
    )
    print(f"{'entries':>8} {'replay s':>9} {'load':>7} {'undo':>7} {'fix N/2':>8} {'show':>7}   (× replay)")
    for count in options.entries:
        print(measure(count, options.repeat))


def measure(count: int, repeat: int) -> str:
    """One line of the table: the figures for a game of ``count`` entries."""
    store, session = written(count)
    baseline = seconds(lambda: replay(session.info, session.entries), repeat)
    load = seconds(lambda: load_game(store, session.game), repeat)
    undo = seconds(lambda: _fix(session, session.entries[-1].seq), repeat)
    half = seconds(lambda: _fix(session, count // 2), repeat)
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "games.db"
        raw = store._engine.raw_connection()  # copy the in-memory record to a file, for the CLI
        target = sqlite3.connect(path)
        raw.driver_connection.backup(target)  # type: ignore[union-attr]
        target.close()
        raw.close()
        command = [str(HAZARD), "record", "show", str(session.game), "--db", str(path)]
        show = seconds(lambda: subprocess.run(command, check=True, capture_output=True), 1)
    store.close()
    return (
        f"{count:>8} {baseline:>9.3f} {load / baseline:>7.2f} {undo / baseline:>7.3f} "
        f"{half / baseline:>8.3f} {show / baseline:>7.2f}"
    )


def _fix(session: Session, target: int) -> None:
    """What a correction of entry ``target`` costs before it is written: the entry replaced by its own action
    (so the game still replays to its end) and the game replayed from the last table kept before it."""
    assert session.timeline is not None
    item = session.entries[target - 1].item
    assert not isinstance(item, Correction)
    trial = [*session.entries, Entry(len(session.entries) + 1, "now", REFEREE, Correction(target, item))]
    session.timeline.corrected(trial, target)


if __name__ == "__main__":
    main()
