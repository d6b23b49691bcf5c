"""Records of older releases: read as they are, and brought up to this release's layout the first time they
are opened for writing, in the opening transaction. A record of the release before the chain is sealed (each
game given its kind, each entry its digest, each game its head); one that kept each game's head in the game's
row has the heads moved to rows of their own (:func:`move_heads`); the fair dice's seeds kept in clear are
sealed by :mod:`hazard.table.fair.sealing`, the seats' keys given their seatings by
:mod:`hazard.table.record.keys`.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

from hazard.table.fair.dice import DiceKind
from hazard.table.fair.sealing import seal_kept_seeds
from hazard.table.record import keys as seat_keys
from hazard.table.record.chain import entry_digest, setup_digest
from hazard.table.record.engine import Access, begin
from hazard.table.record.schema import SETUP_COLUMNS, Layout, games_table, layout, stored_json, tables
from hazard.table.rules.entries import GameKind

if TYPE_CHECKING:
    import sqlalchemy as sa

    from hazard.table.fair.serverkeys import ServerKeys

__all__ = ["KIND", "kind_of", "move_heads", "seal_chain", "unchained_kind", "upgraded"]

KIND = "kind"
"""The setting under which the release before the chain kept a game's kind."""


def upgraded(engine: sa.Engine, access: Access, keys: ServerKeys) -> Layout:
    """The layout of the record ``engine`` opens, once a writer (``access``) has brought it up to this
    release's in one transaction: the chain sealed over a record of the release before it, the heads moved
    out of the games' rows, every table not there yet made (a record made before the fair dice has no
    secrets), the seeds kept in clear sealed, the seats' keys given their seatings."""
    with engine.connect() as looking, looking.begin():  # takes no write lock, so writes nothing
        found = layout(looking)
    # A resume (WRITE) of a record with no tables fails: it makes none, so it writes nothing.
    if access is Access.CREATE or (access is Access.WRITE and found is not Layout.EMPTY):
        with begin(engine) as connection:
            found = layout(connection)  # again, under the write lock
            tables().metadata.create_all(connection)
            if found is Layout.UNCHAINED:
                seal_chain(connection)
            elif found is Layout.HEAD_IN_GAME:
                move_heads(connection)
            seal_kept_seeds(connection, tables().secrets, keys)
            seat_keys.upgrade(connection, tables().seats, tables().entries)
            found = Layout.CHAINED
    return found


def seal_chain(connection: sa.Connection) -> None:
    """Bring a record of the release before the chain to this layout, in the opening transaction: each game
    gets its kind (kept until now in its settings), its entries their digests, and its head row (made
    already)."""
    import sqlalchemy as sa

    schema = tables()
    games, entries = schema.games, schema.entries
    for table, name, default in ((games, "kind", "''"), (entries, "digest", "''")):
        kind = table.c[name].type.compile(dialect=connection.dialect)
        connection.exec_driver_sql(
            f"ALTER TABLE {table.name} ADD COLUMN {name} {kind} NOT NULL DEFAULT {default}"
        )
    for found in connection.execute(sa.select(*games.c).order_by(games.c.id)).mappings().all():
        row = dict(found)
        found_kind = unchained_kind(row["settings"], row["label"], row["dice"])
        row["kind"] = "" if found_kind is None else found_kind.value
        settings = stored_json(row["settings"])
        if isinstance(settings, dict) and KIND in settings:
            settings.pop(KIND)
            row["settings"] = json.dumps(settings, sort_keys=True)
        head = setup_digest({name: row[name] for name in SETUP_COLUMNS})
        count = 0
        lines = connection.execute(
            sa.select(entries.c.seq, entries.c.at, entries.c.data)
            .where(entries.c.game == row["id"])
            .order_by(entries.c.seq)
        ).all()
        for seq, at, data in lines:
            head = entry_digest(head, seq, at, data if isinstance(data, str) else repr(data))
            count += 1
            connection.execute(
                entries.update().where(entries.c.game == row["id"], entries.c.seq == seq).values(digest=head)
            )
        connection.execute(
            games.update().where(games.c.id == row["id"]).values(kind=row["kind"], settings=row["settings"])
        )
        connection.execute(schema.heads.insert().values(game=row["id"], entries=count, head=head))


def move_heads(connection: sa.Connection) -> None:
    """Move each game's head out of its row (where the release before kept it, so that every entry rewrote
    the game's whole setup) into its head row (made already), in the opening transaction; the games' rows
    are left as they are but for the head."""
    import sqlalchemy as sa

    schema = tables()
    old, heads = schema.games_with_head, schema.heads
    connection.execute(
        heads.insert().from_select(
            ["game", "entries", "head"], sa.select(old.c.id, old.c.entries, old.c.head)
        )
    )
    if connection.dialect.name != "sqlite":
        connection.exec_driver_sql(f"ALTER TABLE {old.name} DROP COLUMN entries, DROP COLUMN head")
        return
    # SQLite before 3.35 cannot drop a column; the rebuild is what a newer one would do for it. No foreign
    # key is enforced on the record's connections (SQLite's default), so the other tables keep naming
    # hazard_games, the rebuilt table, by its name.
    moving = games_table(sa.MetaData(), f"{old.name}_moving")
    moving.create(connection)
    names = list(moving.c.keys())
    connection.execute(moving.insert().from_select(names, sa.select(*(old.c[name] for name in names))))
    old.drop(connection)
    connection.exec_driver_sql(f"ALTER TABLE {moving.name} RENAME TO {old.name}")


def kind_of(value: object) -> GameKind | None:
    try:
        return GameKind(value)
    except (ValueError, TypeError):
        return None


def unchained_kind(settings: object, label: object, dice: object) -> GameKind | None:
    """A game's kind in a record of the release before the chain: in its settings, else by its label."""
    kept = stored_json(settings)
    if isinstance(kept, dict) and KIND in kept:
        return kind_of(kept[KIND])
    if kept is None:
        return None
    for kind in GameKind:
        if label == kind.label:
            return kind
    return GameKind.REFEREE if dice == DiceKind.TYPED.value else GameKind.PLAY
