"""The side-bet drill's scores in the record: kept by name, exactly, best first, and still there once the
record is opened again (a restart), on SQLite and PostgreSQL."""

from __future__ import annotations

import subprocess
import sys
import uuid
from fractions import Fraction
from pathlib import Path

import pytest

from hazard.core.errors import InvalidError
from hazard.table import GameStore, best_drill_scores, keep_drill_score
from hazard.table.record.engine import Access


def test_scores_are_kept_by_name_best_first_and_survive_reopening(database: str) -> None:
    ann, ben = f"Ann{uuid.uuid4().hex[:8]}", f"Ben{uuid.uuid4().hex[:8]}"  # PostgreSQL's is shared
    store = GameStore.open(database)
    try:
        kept = keep_drill_score(store, ann, Fraction(1, 3), 10, 5)
        keep_drill_score(store, ann.upper(), Fraction(29, 36), 12, 6)  # the same player, whatever the case
        keep_drill_score(store, ann, Fraction(-1, 6), 10, 7)
        keep_drill_score(store, f"  {ben} ", Fraction(2), 10, 8)
    finally:
        store.close()
    assert (kept.name, kept.score, kept.rounds, kept.seed) == (ann, Fraction(1, 3), 10, 5)
    store = GameStore.open(database)
    try:
        best = best_drill_scores(store, ann.lower())
        assert [(s.name, s.score, s.rounds, s.seed) for s in best] == [
            (ann.upper(), Fraction(29, 36), 12, 6),
            (ann, Fraction(1, 3), 10, 5),
            (ann, Fraction(-1, 6), 10, 7),
        ]
        assert [s.score for s in best_drill_scores(store, ann, limit=1)] == [Fraction(29, 36)]
        assert [(s.name, s.score) for s in best_drill_scores(store, ben)] == [(ben, Fraction(2))]
    finally:
        store.close()


@pytest.mark.slow  # a process of its own
def test_scores_survive_another_process(db: Path) -> None:
    write = (
        "import sys; from fractions import Fraction; from hazard.table import GameStore, keep_drill_score; "
        "s = GameStore.open(sys.argv[1]); keep_drill_score(s, 'Zoë', Fraction(7, 16), 10, 3); s.close()"
    )
    subprocess.run([sys.executable, "-c", write, str(db)], check=True, timeout=60)
    reader = GameStore.open(str(db), access=Access.READ)
    try:
        assert [(s.name, s.score) for s in best_drill_scores(reader, "zoë")] == [("Zoë", Fraction(7, 16))]
    finally:
        reader.close()


def test_a_record_without_the_table_has_no_scores_and_bad_names_are_refused(db: Path) -> None:
    GameStore.open(str(db)).close()
    import sqlite3

    with sqlite3.connect(db) as connection:  # as a record of a release before the drill
        connection.execute("DROP TABLE hazard_drill_scores")
    reader = GameStore.open(str(db), access=Access.READ)
    try:
        assert best_drill_scores(reader) == ()
        with pytest.raises(InvalidError, match="opened for reading"):
            keep_drill_score(reader, "Ann", Fraction(1), 10, 1)
    finally:
        reader.close()
    store = GameStore.open(str(db))  # a writer makes it
    try:
        assert best_drill_scores(store) == ()
        for name in ("", "x" * 41, '"Ann"', "7up", "Ann\x1b[2J"):
            with pytest.raises(InvalidError, match="invalid player name"):
                keep_drill_score(store, name, Fraction(1), 10, 1)
        with pytest.raises(InvalidError, match="invalid drill"):
            keep_drill_score(store, "Ann", Fraction(1), 0, 1)
    finally:
        store.close()
