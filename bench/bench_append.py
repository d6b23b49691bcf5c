"""The record's CPU per append, as a web server's writer makes them: many games, each appended to in turn,
64 appends to one transaction (``GameStore.batch``, group commit), each a stake with its client's number
(the rows the web table writes for one action).

The CPU time of this one process over the timed batches, per append (the commits' syncs to disk included,
as far as they cost CPU). Run ``.venv/bin/python bench/bench_append.py`` (``--batches``, ``--runs``); to
compare two revisions, run each alternately with ``PYTHONPATH=<checkout>/src``.
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from fractions import Fraction
from pathlib import Path

from hazard.core.rules import StakeArrangement
from hazard.core.rulesets import find_paytable, find_ruleset
from hazard.table import DiceKind, GameKind, GameStore, Sit
from hazard.table.rules.actions import Actor, Stake

GAMES = 64
"""Games in play, one append to each per batch: the most the web's writer joins in one transaction."""
ANN, BEN = Actor.player("Ann"), Actor.player("Ben")


def _games(store: GameStore) -> dict[int, int]:
    """Each new game's number and its last entry's."""
    found = {}
    for _ in range(GAMES):
        info = store.create(
            ruleset=find_ruleset("wikipedia"),
            paytable=find_paytable("wikipedia"),
            stakes=StakeArrangement.BANK,
            dice=DiceKind.SEEDED,
            kind=GameKind.PLAY,
            seed=9,
            label="bench",
            entries=[(ANN, Sit("Ann", Fraction(100))), (BEN, Sit("Ben", Fraction(100)))],
        )
        found[info.id] = 2
    return found


def _batches(store: GameStore, heads: dict[int, int], batches: int) -> int:
    stake = Stake("Ben", Fraction(1))
    for _ in range(batches):
        with store.batch():
            for game, last in heads.items():
                heads[game] = last + 1
                store.append(game, BEN, stake, seq=last + 1, request=f"bench-{last + 1}")
    return batches * len(heads)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--batches", type=int, default=40, help="timed batches a run")
    parser.add_argument("--runs", type=int, default=3)
    options = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        store = GameStore.open(str(Path(folder) / "games.db"))
        try:
            heads = _games(store)
            _batches(store, heads, 5)  # warm: statements compiled, pages cached
            took = []
            for _ in range(options.runs):
                start = time.process_time()
                appends = _batches(store, heads, options.batches)
                took.append(1e6 * (time.process_time() - start) / appends)
        finally:
            store.close()
    shown = ", ".join(f"{t:.0f}" for t in took)
    print(f"CPU per append, batches of {GAMES}: median {statistics.median(took):.0f} µs ({shown})")


if __name__ == "__main__":
    main()
