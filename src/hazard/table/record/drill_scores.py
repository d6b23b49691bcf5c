"""The side-bet drill's scores in the record, by player name, so a player's best survive a restart.

A drill (:mod:`hazard.analysis.drill`) is no game: its scores are rows of their own table
(``hazard_drill_scores``), made with the record's other tables, outside every game's chain, and never
exported. A score is kept exactly (a fraction's text) and, for ordering, as a float. A name is a player's
name as the table reads it (:func:`hazard.table.rules.reader.check_name`); two names that differ only in
case are the same player's.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from hazard.core.errors import InvalidError, quoted
from hazard.table.record.schema import tables
from hazard.table.record.store import GameStore, now
from hazard.table.rules.reader import check_name

__all__ = ["MAX_BEST", "DrillScore", "best_drill_scores", "keep_drill_score"]

MAX_BEST = 10
"""The most best scores one asking returns."""


@dataclass(frozen=True, slots=True)
class DrillScore:
    """One drill's score as kept: the player's name, the score (exact), the drill's rounds and seed, when."""

    name: str
    score: Fraction
    rounds: int
    seed: int
    at: str


def keep_drill_score(store: GameStore, name: str, score: Fraction, rounds: int, seed: int) -> DrillScore:
    """Keep a drill's score under the player's ``name`` (refused unless a player's name), committed before
    it returns."""
    name = check_name(name)
    if not 1 <= rounds <= 10_000 or not 0 <= seed < 2**63:
        raise InvalidError(f"invalid drill of {quoted(rounds)} rounds, seed {quoted(seed)}")
    kept = DrillScore(name, Fraction(score), rounds, seed, now())
    store._writable()
    with store._write() as connection:
        connection.execute(
            tables().drill_scores.insert(),
            {
                "name": kept.name,
                "name_key": name.casefold(),
                "score": f"{kept.score.numerator}/{kept.score.denominator}",
                "score_float": float(kept.score),
                "rounds": rounds,
                "seed": seed,
                "at": kept.at,
            },
        )
    return kept


def best_drill_scores(store: GameStore, name: str | None = None, *, limit: int = 5) -> tuple[DrillScore, ...]:
    """The best scores kept (of the player ``name``, or of everyone), best first, at most ``limit``
    (1 to :data:`MAX_BEST`); none where the record has no drill scores yet."""
    import sqlalchemy as sa

    limit = max(1, min(MAX_BEST, limit))
    table = tables().drill_scores
    query = sa.select(table).order_by(table.c.score_float.desc(), table.c.id).limit(limit)
    if name is not None:
        query = query.where(table.c.name_key == check_name(name).casefold())
    with store._read() as connection:
        if not store._has(connection, table):
            return ()
        rows = connection.execute(query).mappings().all()
    return tuple(
        DrillScore(row["name"], Fraction(row["score"]), row["rounds"], row["seed"], row["at"]) for row in rows
    )
