"""The game record: an append-only log of table actions in a database.

Every entry is written, and committed, before the table moves on, so a game stopped at any moment (even by
``kill -9``) resumes exactly. Nothing is ever updated or deleted (see :mod:`hazard.table.game` for
corrections and the replay). A record that does not replay, line by line, through the pure rules (corrupt
JSON, an unknown action, an illegal move, a foreign file) is refused whole with one message; nothing is
half-loaded.

Any SQLAlchemy URL works (``postgresql+psycopg://...``); the default is an SQLite file in the user's data
folder.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from hazard.core.errors import HazardError, IllegalError, InvalidError
from hazard.core.paytable import Paytable
from hazard.core.rules import Ruleset, StakeArrangement
from hazard.core.rulesets import paytable_from_toml, paytable_to_toml, ruleset_from_toml, ruleset_to_toml
from hazard.table.actions import Actor, TableAction
from hazard.table.dice import DiceKind
from hazard.table.game import (
    FORMAT,
    FORMATS,
    Correction,
    Entry,
    GameInfo,
    GameKind,
    ReplayedGame,
    entry_from_json,
    entry_to_json,
    replay,
)

__all__ = ["GameStore", "GameSummary", "default_database_url"]

_KIND = "kind"
"""The setting under which a game's kind is kept (the record's layout has no column for it)."""

if TYPE_CHECKING:
    import sqlalchemy as sa


@dataclass(frozen=True)
class _Schema:
    metadata: sa.MetaData
    games: sa.Table
    entries: sa.Table


@cache
def _schema() -> _Schema:
    """The record's two tables. SQLAlchemy is imported here, on first use, not by every command."""
    import sqlalchemy as sa

    metadata = sa.MetaData()
    games = sa.Table(
        "hazard_games",
        metadata,
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("format", sa.String(40), nullable=False),
        sa.Column("created", sa.String(40), nullable=False),
        sa.Column("label", sa.String(200), nullable=False),
        sa.Column("ruleset", sa.Text, nullable=False),
        sa.Column("paytable", sa.Text, nullable=False),
        sa.Column("stakes", sa.String(40), nullable=False),
        sa.Column("dice", sa.String(40), nullable=False),
        sa.Column("seed", sa.BigInteger, nullable=True),
        sa.Column("settings", sa.Text, nullable=False),
    )
    entries = sa.Table(
        "hazard_entries",
        metadata,
        sa.Column("game", sa.Integer, sa.ForeignKey("hazard_games.id"), primary_key=True),
        sa.Column("seq", sa.Integer, primary_key=True),
        sa.Column("at", sa.String(40), nullable=False),
        sa.Column("data", sa.Text, nullable=False),
    )
    return _Schema(metadata, games, entries)


def default_database_url() -> str:
    """An SQLite file in the user's data folder (created if need be)."""
    import platformdirs

    folder = Path(platformdirs.user_data_dir("hazard", appauthor=False))
    folder.mkdir(parents=True, exist_ok=True)
    return f"sqlite:///{folder / 'games.db'}"


@dataclass(frozen=True, slots=True)
class GameSummary:
    """One line of :meth:`GameStore.games`."""

    id: int
    created: str
    label: str
    kind: GameKind | None
    """None where the record cannot say (its setup is corrupt: loading the game will say why)."""
    ruleset: str
    entries: int


class GameStore:
    """Games in a database. Open with :meth:`open`; every write is committed before it returns."""

    def __init__(self, engine: sa.Engine, url: str) -> None:
        self._engine = engine
        self.url = url

    @classmethod
    def open(cls, url: str | None = None, *, create: bool = True) -> GameStore:
        """Open the record at ``url``: an SQLAlchemy URL or an SQLite path (default: the user's data folder).

        With ``create`` False (for reading), an SQLite file that is not there is refused rather than made.
        """
        if url is None:
            url = default_database_url()
        elif "://" not in url:
            path = Path(url).expanduser()
            if not create and not path.is_file():
                raise InvalidError(f"cannot open the game record {url!r}: no such file")
            url = f"sqlite:///{path}"
        import sqlalchemy as sa
        from sqlalchemy.exc import SQLAlchemyError

        try:
            engine = sa.create_engine(url)
            with engine.begin() as connection:
                _check_layout(connection)
                _schema().metadata.create_all(connection)
        except (SQLAlchemyError, ValueError, ImportError) as error:
            raise InvalidError(f"cannot open the game record {url!r}: {_reason(error)}") from None
        return cls(engine, url)

    def close(self) -> None:
        self._engine.dispose()

    def create(
        self,
        *,
        ruleset: Ruleset,
        paytable: Paytable,
        stakes: StakeArrangement,
        dice: DiceKind,
        kind: GameKind,
        seed: int | None = None,
        label: str = "",
        settings: Mapping[str, str] | None = None,
    ) -> GameInfo:
        """Start a new game's record; its setup as it will read back."""
        kept = dict(settings or {})
        if _KIND in kept:
            raise InvalidError(f"invalid game setting {_KIND!r}: the record keeps the game's kind itself")
        created = _now()
        row = {
            "format": FORMAT,
            "created": created,
            "label": label,
            "ruleset": ruleset_to_toml(ruleset),
            "paytable": paytable_to_toml(paytable),
            "stakes": stakes.value,
            "dice": dice.value,
            "seed": seed,
            "settings": json.dumps({**kept, _KIND: kind.value}, sort_keys=True),
        }
        with self._write() as connection:
            result = connection.execute(_schema().games.insert().values(**row))
            key = result.inserted_primary_key
            assert key is not None
            game = int(key[0])
        return GameInfo(game, created, label, ruleset, paytable, stakes, dice, seed, kind, kept)

    def append(
        self, game: int, actor: Actor, item: TableAction | Correction, *, seq: int | None = None
    ) -> Entry:
        """Write an entry, entered by ``actor``, at the end of a game's record and commit it.

        ``seq`` is the number the writer expects the entry to get: one more than the last entry of the table
        it checked the entry against (a :class:`~hazard.table.session.Session` always gives it). Where
        another writer has written that entry since, the append is refused (each game's entries are numbered
        uniquely, and the check is made in the transaction that writes), so nothing is ever written from a
        stale table. Without ``seq`` the entry goes after whatever is there: for tools that write a record
        without a table (an import), never for a game in play.
        """
        import sqlalchemy as sa
        from sqlalchemy.exc import IntegrityError

        schema = _schema()
        data = json.dumps(entry_to_json(actor, item), sort_keys=True)
        at = _now()
        try:
            with self._engine.begin() as connection:
                last = connection.execute(
                    sa.select(sa.func.max(schema.entries.c.seq)).where(schema.entries.c.game == game)
                ).scalar()
                known = connection.execute(
                    sa.select(schema.games.c.id).where(schema.games.c.id == game)
                ).scalar()
                if known is None:
                    raise IllegalError(
                        f"illegal entry for game {game}: the record at {self.url!r} has no such game"
                    )
                if seq is None:
                    seq = (last or 0) + 1
                elif (last or 0) + 1 != seq:
                    raise _Stale(last or 0)
                connection.execute(schema.entries.insert().values(game=game, seq=seq, at=at, data=data))
        except (IntegrityError, _Stale) as error:
            last = error.last if isinstance(error, _Stale) else (seq or 1)
            raise IllegalError(
                f"illegal entry {seq} of game {game}: the game has moved on (its record ends at entry "
                f"{last}, written by another session); nothing was written: resume the game to carry on"
            ) from None
        except sa.exc.SQLAlchemyError as error:
            raise InvalidError(f"cannot write to the game record {self.url!r}: {_reason(error)}") from None
        assert seq is not None
        return Entry(seq, at, actor, item)

    def games(self) -> list[GameSummary]:
        """Every game, newest first."""
        import sqlalchemy as sa

        games, entries = _schema().games, _schema().entries
        count = sa.func.count(entries.c.seq)
        query = (
            sa.select(
                games.c.id,
                games.c.created,
                games.c.label,
                games.c.ruleset,
                games.c.settings,
                games.c.dice,
                count,
            )
            .select_from(games.outerjoin(entries, entries.c.game == games.c.id))
            .group_by(games.c.id)
            .order_by(games.c.id.desc())
        )
        with self._read() as connection:
            rows = connection.execute(query).all()
        return [
            GameSummary(r[0], r[1], r[2], _kind_of(r[4], r[2], r[5]), _ruleset_id(r[3]), r[6]) for r in rows
        ]

    def latest(self, kind: GameKind) -> int:
        """The newest game of ``kind``; an :class:`IllegalError` if there is none."""
        for summary in self.games():
            if summary.kind is kind:
                return summary.id
        raise IllegalError(f"illegal game: the record at {self.url!r} holds no {kind.label} game to resume")

    def load(self, game: int) -> ReplayedGame:
        """Read a game's whole record and replay it; an :class:`InvalidError` if any of it is wrong."""
        import sqlalchemy as sa

        schema = _schema()
        with self._read() as connection:
            row = (
                connection.execute(sa.select(schema.games).where(schema.games.c.id == game))
                .mappings()
                .first()
            )
            if row is None:
                raise IllegalError(f"illegal game {game}: the record at {self.url!r} has no such game")
            lines = connection.execute(
                sa.select(schema.entries.c.seq, schema.entries.c.at, schema.entries.c.data)
                .where(schema.entries.c.game == game)
                .order_by(schema.entries.c.seq)
            ).all()
        info = _info(dict(row))
        entries = []
        for expected, (seq, at, data) in enumerate(lines, start=1):
            if seq != expected:
                raise InvalidError(f"record of game {game} is corrupt: entry {expected} is missing")
            try:
                stored = json.loads(data)
                if info.format == FORMAT and not (isinstance(stored, dict) and "actor" in stored):
                    raise InvalidError("it names no actor")
                actor, item = entry_from_json(stored)
            except (ValueError, TypeError, RecursionError) as error:  # bad JSON or bytes; a HazardError
                raise InvalidError(
                    f"record of game {game} is corrupt: entry {seq}: {_reason(error)}"
                ) from None
            entries.append(Entry(seq, at, actor, item))
        return replay(info, entries)

    @contextmanager
    def _write(self) -> Iterator[sa.Connection]:
        """A transaction, committed on leaving; a database failure becomes one clear error."""
        from sqlalchemy.exc import SQLAlchemyError

        try:
            with self._engine.begin() as connection:
                yield connection
        except SQLAlchemyError as error:
            raise InvalidError(f"cannot write to the game record {self.url!r}: {_reason(error)}") from None

    @contextmanager
    def _read(self) -> Iterator[sa.Connection]:
        from sqlalchemy.exc import SQLAlchemyError

        try:
            with self._engine.connect() as connection:
                yield connection
        except SQLAlchemyError as error:
            raise InvalidError(f"cannot read the game record {self.url!r}: {_reason(error)}") from None


def _check_layout(connection: sa.Connection) -> None:
    """Refuse a database that is someone else's rather than add tables to it or misread it."""
    import sqlalchemy as sa

    inspector = sa.inspect(connection)
    present = set(inspector.get_table_names())
    ours = {table.name: table for table in _schema().metadata.sorted_tables}
    if present and not present & set(ours) and connection.dialect.name == "sqlite":
        shown = ", ".join(sorted(present)[:5])
        raise InvalidError(f"it is a database of something else (tables: {shown}), not a hazard game record")
    for name, table in ours.items():
        if name in present:
            columns = {column["name"] for column in inspector.get_columns(name)}
            if columns != set(table.c.keys()):
                raise InvalidError(f"its table {name!r} is not laid out as a hazard game record ({FORMAT})")


class _Stale(Exception):
    """The record of a game has entries its writer has not seen."""

    def __init__(self, last: int) -> None:
        super().__init__(last)
        self.last = last


def _kind_of(settings: object, label: object, dice: object) -> GameKind | None:
    """A game's kind: kept in its settings; a game written before kinds were kept goes by its label."""
    try:
        kept = json.loads(settings) if isinstance(settings, str) else None
    except ValueError:
        return None
    if isinstance(kept, dict) and _KIND in kept:
        try:
            return GameKind(kept[_KIND])
        except ValueError:
            return None
    for kind in GameKind:
        if label == kind.label:
            return kind
    return GameKind.REFEREE if dice == DiceKind.TYPED.value else GameKind.PLAY


def _info(row: dict[str, Any]) -> GameInfo:
    game = row["id"]
    if row["format"] not in FORMATS:
        expected = " or ".join(repr(f) for f in FORMATS)
        raise InvalidError(f"record of game {game} is in format {row['format']!r}, expected {expected}")
    try:
        ruleset = ruleset_from_toml(row["ruleset"], f"of game {game}")
        paytable = paytable_from_toml(row["paytable"], f"of game {game}")
        stakes = StakeArrangement(row["stakes"])
        dice = DiceKind(row["dice"])
    except (HazardError, ValueError) as error:
        raise InvalidError(f"record of game {game} is corrupt: {_reason(error)}") from None
    seed = row["seed"]
    if seed is not None and (not isinstance(seed, int) or isinstance(seed, bool)):
        raise InvalidError(f"record of game {game} is corrupt: seed {seed!r} is not a whole number")
    try:
        settings = json.loads(row["settings"])
    except (ValueError, TypeError):
        settings = None
    if not isinstance(settings, dict) or not all(
        isinstance(k, str) and isinstance(v, str) for k, v in settings.items()
    ):
        raise InvalidError(f"record of game {game} is corrupt: its settings are not a table of texts")
    kind = _kind_of(row["settings"], row["label"], row["dice"])
    if kind is None or (row["format"] == FORMAT and _KIND not in settings):
        raise InvalidError(f"record of game {game} is corrupt: its kind is {settings.get(_KIND)!r}")
    settings.pop(_KIND, None)
    return GameInfo(
        game,
        row["created"],
        row["label"],
        ruleset,
        paytable,
        stakes,
        dice,
        seed,
        kind,
        settings,
        row["format"],
    )


def _ruleset_id(text: str) -> str:
    for line in text.splitlines():
        if line.startswith("id = "):
            return line.removeprefix("id = ").strip('"')
    return "?"


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


def _reason(error: BaseException) -> str:
    return " ".join(str(error).split())[:300]
