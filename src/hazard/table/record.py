"""The game record: an append-only log of table actions in a database, and the replay that rebuilds a game.

Every action is written, and committed, before the table moves on, so a game stopped at any moment (even by
``kill -9``) resumes exactly. Nothing is ever updated or deleted: a mistaken entry is put right by a
correction entry that voids it or replaces it, and replay applies the corrections. A record that does not
replay, line by line, through the pure rules (corrupt JSON, an unknown action, an illegal move, a foreign
file) is refused whole with one message; nothing is half-loaded.

Any SQLAlchemy URL works (``postgresql+psycopg://...``); the default is an SQLite file in the user's data
folder.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from hazard.core.errors import HazardError, IllegalError, InvalidError
from hazard.core.paytable import Paytable
from hazard.core.rules import Ruleset, StakeArrangement
from hazard.core.rulesets import paytable_from_toml, paytable_to_toml, ruleset_from_toml, ruleset_to_toml
from hazard.table.actions import TableAction, action_from_json, action_to_json
from hazard.table.state import AnyEvent, Table, apply_action, new_table

__all__ = [
    "FORMAT",
    "Correction",
    "Entry",
    "GameInfo",
    "GameStore",
    "ReplayedGame",
    "default_database_url",
    "effective_actions",
    "replay",
]

FORMAT = "hazard-game/1"
"""Written into every game; a record of another format is refused rather than misread."""

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
class Correction:
    """A correction entry: entry ``target`` is void, or stands replaced by ``replacement``."""

    target: int
    replacement: TableAction | None = None


@dataclass(frozen=True, slots=True)
class Entry:
    """One line of a game's record: its number, when it was written, and what it holds."""

    seq: int
    at: str
    item: TableAction | Correction


@dataclass(frozen=True, slots=True)
class GameInfo:
    """What a game was set up with."""

    id: int
    created: str
    label: str
    ruleset: Ruleset
    paytable: Paytable
    stakes: StakeArrangement
    dice: str
    seed: int | None
    settings: Mapping[str, str] = field(default_factory=dict)
    """What the front end that started the game kept with it (its kind, a bot's stake unit ...)."""


@dataclass(frozen=True)
class ReplayedGame:
    """A game rebuilt from its record: the setup, every entry, and the table they lead to."""

    info: GameInfo
    entries: tuple[Entry, ...]
    table: Table
    events: tuple[tuple[int, AnyEvent], ...]
    """Each event with the number of the entry that caused it."""


def _item_to_json(item: TableAction | Correction) -> dict[str, Any]:
    if isinstance(item, Correction):
        return {
            "type": "correction",
            "target": item.target,
            "replacement": None if item.replacement is None else action_to_json(item.replacement),
        }
    return action_to_json(item)


def _item_from_json(data: object) -> TableAction | Correction:
    if isinstance(data, dict) and data.get("type") == "correction":
        if set(data) != {"type", "target", "replacement"}:
            raise InvalidError(f"invalid correction {data!r}: expected a target and a replacement")
        target = data["target"]
        if not isinstance(target, int) or isinstance(target, bool) or target < 1:
            raise InvalidError(f"invalid correction target {target!r}: expected an entry number")
        replacement = data["replacement"]
        return Correction(target, None if replacement is None else action_from_json(replacement))
    return action_from_json(data)


def effective_actions(entries: Sequence[Entry]) -> list[tuple[int, TableAction]]:
    """The actions that stand once every correction is applied, each with its entry number."""
    kinds = {entry.seq: isinstance(entry.item, Correction) for entry in entries}
    replaced: dict[int, TableAction | None] = {}
    for entry in entries:
        if isinstance(entry.item, Correction):
            target = entry.item.target
            if target >= entry.seq or kinds.get(target, True):
                raise InvalidError(
                    f"invalid correction in entry {entry.seq}: entry {target} is not an earlier action"
                )
            replaced[target] = entry.item.replacement
    actions: list[tuple[int, TableAction]] = []
    for entry in entries:
        if isinstance(entry.item, Correction):
            continue
        action = replaced.get(entry.seq, entry.item)
        if action is not None:
            actions.append((entry.seq, action))
    return actions


def replay(info: GameInfo, entries: Sequence[Entry]) -> ReplayedGame:
    """Rebuild a game by playing its standing actions through the pure table and rules."""
    table = new_table(info.ruleset, info.paytable, info.stakes)
    events: list[tuple[int, AnyEvent]] = []
    try:
        standing = effective_actions(entries)
    except InvalidError as error:
        raise InvalidError(f"record of game {info.id} does not replay: {error}") from None
    for seq, action in standing:
        try:
            table, new = apply_action(table, action)
        except HazardError as error:
            raise InvalidError(f"record of game {info.id} does not replay: entry {seq}: {error}") from None
        events.extend((seq, event) for event in new)
    return ReplayedGame(info, tuple(entries), table, tuple(events))


class GameStore:
    """Games in a database. Open with :meth:`open`; every write is committed before it returns."""

    def __init__(self, engine: sa.Engine, url: str) -> None:
        self._engine = engine
        self.url = url

    @classmethod
    def open(cls, url: str | None = None) -> GameStore:
        """Open (creating it if need be) the record at ``url``: an SQLAlchemy URL or an SQLite path."""
        if url is None:
            url = default_database_url()
        elif "://" not in url:
            url = f"sqlite:///{Path(url).expanduser()}"
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
        dice: str,
        seed: int | None = None,
        label: str = "",
        settings: Mapping[str, str] | None = None,
    ) -> int:
        """Start a new game's record; its id."""
        row = {
            "format": FORMAT,
            "created": _now(),
            "label": label,
            "ruleset": ruleset_to_toml(ruleset),
            "paytable": paytable_to_toml(paytable),
            "stakes": stakes.value,
            "dice": dice,
            "seed": seed,
            "settings": json.dumps(dict(settings or {}), sort_keys=True),
        }
        with self._write() as connection:
            result = connection.execute(_schema().games.insert().values(**row))
            key = result.inserted_primary_key
            assert key is not None
            return int(key[0])

    def append(self, game: int, item: TableAction | Correction) -> int:
        """Write one entry at the end of a game's record and commit it; its number."""
        import sqlalchemy as sa

        entries = _schema().entries
        data = json.dumps(_item_to_json(item), sort_keys=True)
        with self._write() as connection:
            last = connection.execute(
                sa.select(sa.func.max(entries.c.seq)).where(entries.c.game == game)
            ).scalar()
            seq = (last or 0) + 1
            connection.execute(entries.insert().values(game=game, seq=seq, at=_now(), data=data))
            return seq

    def games(self) -> list[tuple[int, str, str, str, int]]:
        """Every game: id, created, label, ruleset id, number of entries; newest first."""
        import sqlalchemy as sa

        games, entries = _schema().games, _schema().entries
        count = sa.func.count(entries.c.seq)
        query = (
            sa.select(games.c.id, games.c.created, games.c.label, games.c.ruleset, count)
            .select_from(games.outerjoin(entries, entries.c.game == games.c.id))
            .group_by(games.c.id)
            .order_by(games.c.id.desc())
        )
        with self._read() as connection:
            rows = connection.execute(query).all()
        return [(r[0], r[1], r[2], _ruleset_id(r[3]), r[4]) for r in rows]

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
                item = _item_from_json(json.loads(data))
            except (ValueError, TypeError, RecursionError) as error:  # bad JSON or bytes; a HazardError
                raise InvalidError(
                    f"record of game {game} is corrupt: entry {seq}: {_reason(error)}"
                ) from None
            entries.append(Entry(seq, at, item))
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


def _info(row: dict[str, Any]) -> GameInfo:
    game = row["id"]
    if row["format"] != FORMAT:
        raise InvalidError(f"record of game {game} is in format {row['format']!r}, expected {FORMAT!r}")
    try:
        ruleset = ruleset_from_toml(row["ruleset"], f"of game {game}")
        paytable = paytable_from_toml(row["paytable"], f"of game {game}")
        stakes = StakeArrangement(row["stakes"])
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
    return GameInfo(
        game, row["created"], row["label"], ruleset, paytable, stakes, row["dice"], seed, settings
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
