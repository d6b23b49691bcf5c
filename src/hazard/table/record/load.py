"""Reading a game back from the record: its stored fields checked for their kinds, its entries for the chain,
its setup and entries read back, and the listing of the games. Nothing here plays a rule: the table replays
what this returns (:mod:`hazard.table.live.timeline`).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from hazard.core.errors import HazardError, IllegalError, InvalidError
from hazard.core.rules import StakeArrangement
from hazard.core.rulesets import paytable_from_toml, ruleset_from_toml
from hazard.table.fair.dice import DiceKind
from hazard.table.record.chain import entry_digest, setup_digest
from hazard.table.record.engine import reason, shown
from hazard.table.record.legacy import KIND, kind_of, unchained_kind
from hazard.table.record.provenance import RecordProof
from hazard.table.record.schema import (
    MAX_DATA,
    SETUP_COLUMNS,
    UNCHAINED_GAME_COLUMNS,
    Layout,
    stored_json,
    tables,
)
from hazard.table.rules.closing import CLOSE_TYPE
from hazard.table.rules.entries import FORMAT, FORMATS, Entry, GameInfo, GameKind, entry_from_json

if TYPE_CHECKING:
    import sqlalchemy as sa

__all__ = ["GameSummary", "StoredGame", "closed_games", "read_after", "read_game", "summaries"]


@dataclass(frozen=True, slots=True)
class StoredGame:
    """A game as the record holds it, its chain checked: its setup and its entries, not yet played."""

    info: GameInfo
    entries: tuple[Entry, ...]
    closed: bool = False
    """Whether an older record closed the table beside the chain (a close is an entry now)."""
    proof: RecordProof | None = None
    """The record's seal of the game (its chain and signatures), where the record is chained."""


def read_game(
    connection: sa.Connection,
    layout: Layout,
    game: int,
    url: str,
    *,
    has: Callable[[sa.Table], bool],
    signatures: Callable[[], dict[int, tuple[int, str, str]]],
) -> StoredGame:
    """Game ``game``'s setup and entries, in ``connection``'s one transaction (the head and the entries are of
    one moment), its chain checked; an :class:`InvalidError` naming the first thing that is wrong. ``has``
    says whether a table is there; ``signatures`` reads the reveals' signatures."""
    import sqlalchemy as sa

    schema = tables()
    chained = layout is not Layout.UNCHAINED
    games = schema.games_in(layout)
    query = sa.select(*(games.c[n] for n in UNCHAINED_GAME_COLUMNS)).where(games.c.id == game)
    entry_columns = [schema.entries.c.seq, schema.entries.c.at, schema.entries.c.data]
    if chained:
        entry_columns.append(schema.entries.c.digest)
        place = schema.head_place(layout)
        query = query.add_columns(games.c.kind, place.entries, place.head).select_from(
            schema.with_heads(layout)
        )
    found = connection.execute(query).mappings().first()
    if found is None:
        raise IllegalError(f"illegal game {game}: the record at {url!r} has no such game")
    lines = connection.execute(
        sa.select(*entry_columns).where(schema.entries.c.game == game).order_by(schema.entries.c.seq)
    ).all()
    signed = signatures() if chained else {}
    closed = has(schema.closed) and (
        connection.execute(sa.select(schema.closed.c.game).where(schema.closed.c.game == game)).first()
        is not None
    )
    row = dict(found)
    if chained and row["entries"] is None and row["head"] is None:
        raise InvalidError(
            f"record of game {game} is corrupt: its head (how many entries it holds) is missing"
        )
    check_types(game, row, lines)
    if chained:
        check_chain(game, row, lines)
    else:
        row[KIND] = None
    info = game_info(row)
    entries = []
    for expected, line in enumerate(lines, start=1):
        if line[0] != expected:
            raise InvalidError(f"record of game {game} is corrupt: entry {expected} is missing")
        entries.append(read_entry(game, info.format, line))
    if not chained:
        return StoredGame(info, tuple(entries), closed)
    setup = {name: row[name] for name in SETUP_COLUMNS}
    stored = tuple((str(line[2]), str(line[3])) for line in lines)
    proof = RecordProof(setup, setup_digest(setup), str(row["head"]), stored, signed)
    return StoredGame(info, tuple(entries), closed, proof)


def read_after(
    connection: sa.Connection, layout: Layout, game: int, seq: int, url: str
) -> tuple[list[Entry], list[tuple[str, str]]]:
    """The entries of game ``game`` after entry ``seq``, each checked to follow, digest by digest, from entry
    ``seq`` to the game's head, with each one's stored text and digest; in ``connection``'s one
    transaction."""
    import sqlalchemy as sa

    schema = tables()
    games, entries, place = schema.games_in(layout), schema.entries, schema.head_place(layout)
    found = connection.execute(
        sa.select(games.c.format, place.entries, place.head)
        .select_from(schema.with_heads(layout))
        .where(games.c.id == game)
    ).first()
    if found is None:
        raise IllegalError(f"illegal game {game}: the record at {url!r} has no such game")
    if found[1] is None:
        raise InvalidError(
            f"record of game {game} is corrupt: its head (how many entries it holds) is missing"
        )
    lines = connection.execute(
        sa.select(entries.c.seq, entries.c.at, entries.c.data, entries.c.digest)
        .where(entries.c.game == game, entries.c.seq >= seq)
        .order_by(entries.c.seq)
    ).all()
    corrupt = f"record of game {game} is corrupt"
    if not lines or lines[0][0] != seq:
        raise InvalidError(f"{corrupt}: entry {seq}, which this session has, is missing")
    digest = follow_chain(game, str(lines[0][3]), lines[1:], seq + 1)
    read = [read_entry(game, str(found[0]), line) for line in lines[1:]]
    if seq + len(read) != int(found[1]) or digest != found[2]:
        raise InvalidError(f"{corrupt}: its last entry is not the one the game was left at")
    return read, [(str(line[2]), str(line[3])) for line in lines[1:]]


def summaries(connection: sa.Connection, layout: Layout) -> list[GameSummary]:
    """Every game, newest first, as :meth:`~hazard.table.record.store.GameStore.games` lists them."""
    import sqlalchemy as sa

    schema = tables()
    games, entries = schema.games, schema.entries
    listed = []
    if layout is not Layout.UNCHAINED:
        kept, place = schema.games_in(layout), schema.head_place(layout)
        query = (
            sa.select(kept.c.id, kept.c.created, kept.c.label, kept.c.ruleset, kept.c.kind, place.entries)
            .select_from(schema.with_heads(layout))
            .order_by(kept.c.id.desc())
        )
        for r in connection.execute(query):
            listed.append(
                GameSummary(
                    r[0],
                    listed_text(r[1]),
                    listed_text(r[2]),
                    kind_of(r[4]),
                    listed_ruleset(r[3]),
                    listed_count(r[5]),
                )
            )
        return listed
    count = sa.func.count(entries.c.seq)
    unchained = (
        sa.select(
            games.c.id, games.c.created, games.c.label, games.c.ruleset, games.c.settings, games.c.dice, count
        )
        .select_from(games.outerjoin(entries, entries.c.game == games.c.id))
        .group_by(games.c.id)
        .order_by(games.c.id.desc())
    )
    for u in connection.execute(unchained):
        listed.append(
            GameSummary(
                u[0],
                listed_text(u[1]),
                listed_text(u[2]),
                unchained_kind(u[4], u[2], u[5]),
                listed_ruleset(u[3]),
                u[6],
            )
        )
    return listed


def closed_games(connection: sa.Connection, layout: Layout, *, has: Callable[[sa.Table], bool]) -> set[int]:
    """The games whose last entry is a close, and those an older record closed beside the chain."""
    import sqlalchemy as sa

    schema = tables()
    entries, legacy = schema.entries, schema.closed
    found: set[int] = set()
    if layout is not Layout.UNCHAINED:
        place = schema.head_place(layout)
        last = place.table.join(entries, (entries.c.game == place.game) & (entries.c.seq == place.entries))
        rows = connection.execute(
            sa.select(place.game, entries.c.data)
            .select_from(last)
            .where(entries.c.data.like(f'%"{CLOSE_TYPE}"%'))  # only a cheap sieve: read below
        ).all()
        found.update(int(game) for game, data in rows if closes(data))
    if has(legacy):
        found.update(int(game) for game in connection.execute(sa.select(legacy.c.game)).scalars())
    return found


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


def check_types(game: int, row: dict[str, Any], lines: Sequence[Any]) -> None:
    """Refuse a game whose stored fields are not of their kinds (a database need not enforce them: SQLite
    keeps whatever it is given)."""
    corrupt = f"record of game {game} is corrupt"
    for name, value in row.items():
        whole = name in ("id", "entries", "seed")
        if value is None and name == "seed":
            continue
        if whole and (not isinstance(value, int) or isinstance(value, bool)):
            raise InvalidError(f"{corrupt}: its {name} {shown(value)} is not a whole number")
        if name == "entries" and value < 0:  # the impossible head itself, not an entry it would make up
            raise InvalidError(f"{corrupt}: its count of entries is {value}, below 0")
        if not whole and not isinstance(value, str):
            raise InvalidError(f"{corrupt}: its {name} {shown(value)} is not text")
        if not whole and len(value) > MAX_DATA:
            raise InvalidError(f"{corrupt}: its {name} has {len(value)} characters, more than {MAX_DATA}")
    for place, line in enumerate(lines, start=1):
        seq, at, *rest = line
        if not isinstance(seq, int) or isinstance(seq, bool):
            raise InvalidError(
                f"{corrupt}: the number of its entry {place} is {shown(seq)}, not a whole number"
            )
        for what, value in (("time", at), ("digest", rest[-1] if len(rest) > 1 else "")):
            if not isinstance(value, str) or len(value) > 100:
                raise InvalidError(f"{corrupt}: entry {seq}: its {what} {shown(value)} is not a short text")


def check_chain(game: int, row: dict[str, Any], lines: Sequence[Any]) -> None:
    """Refuse a game whose entries do not follow, digest by digest, from its setup to its head."""
    corrupt = f"record of game {game} is corrupt"
    digest = setup_digest({name: row[name] for name in SETUP_COLUMNS})
    if not lines and row["entries"] == 0 and digest != row["head"]:
        raise InvalidError(
            f"{corrupt}: its setup does not match its digest (it was changed after it was written)"
        )
    digest = follow_chain(game, digest, lines, 1)
    count = row["entries"]
    if len(lines) < count:
        held = f"entries 1 to {len(lines)}" if lines else "no entries"
        raise InvalidError(
            f"{corrupt}: it holds {held} of {count}: entries {len(lines) + 1} to {count} are missing"
        )
    if len(lines) > count:
        raise InvalidError(f"{corrupt}: entry {count + 1} was put in after the game's last entry, {count}")
    if digest != row["head"]:
        raise InvalidError(f"{corrupt}: its last entry, {count}, is not the one the game was left at")


def follow_chain(game: int, digest: str, lines: Sequence[Any], first: int) -> str:
    """Check that stored lines numbered from ``first`` follow, digest by digest, from ``digest`` (the setup's,
    or the digest of the entry before ``first``); the last digest, or one :class:`InvalidError` naming the
    first line that does not follow."""
    corrupt = f"record of game {game} is corrupt"
    for expected, (seq, at, data, stored) in enumerate(lines, start=first):
        if seq != expected:
            raise InvalidError(f"{corrupt}: entry {expected} is missing")
        digest = entry_digest(digest, seq, at, data if isinstance(data, str) else repr(data)[:MAX_DATA])
        if digest != stored:
            if seq == 1:
                raise InvalidError(f"{corrupt}: its setup or its entry 1 was changed after it was written")
            raise InvalidError(
                f"{corrupt}: entry {seq} does not follow from the entries before it (it was changed, moved "
                "or put in)"
            )
    return digest


def game_info(row: dict[str, Any]) -> GameInfo:
    game = row["id"]
    if row["format"] not in FORMATS:
        expected = " or ".join(repr(f) for f in FORMATS)
        raise InvalidError(f"record of game {game} is in format {shown(row['format'])}, expected {expected}")
    try:
        paytable = paytable_from_toml(row["paytable"], f"of game {game}")
        ruleset = ruleset_from_toml(row["ruleset"], f"of game {game}", stored=paytable)
        stakes = StakeArrangement(row["stakes"])
        dice = DiceKind(row["dice"])
    except (HazardError, ValueError, TypeError, RecursionError) as error:
        raise InvalidError(f"record of game {game} is corrupt: {reason(error)}") from None
    seed = row["seed"]
    if seed is not None and (not isinstance(seed, int) or isinstance(seed, bool)):
        raise InvalidError(f"record of game {game} is corrupt: seed {shown(seed)} is not a whole number")
    settings = stored_json(row["settings"])
    if not isinstance(settings, dict) or not all(
        isinstance(k, str) and isinstance(v, str) for k, v in settings.items()
    ):
        raise InvalidError(f"record of game {game} is corrupt: its settings are not a table of texts")
    if row[KIND] is None:  # a record of the release before the chain: the kind is in the settings
        kind = unchained_kind(row["settings"], row["label"], row["dice"])
        kept = settings.get(KIND)
        if kind is None or (row["format"] == FORMAT and KIND not in settings):
            raise InvalidError(f"record of game {game} is corrupt: its kind is {shown(kept)}")
        settings.pop(KIND, None)
    else:
        kind = kind_of(row[KIND])
        if kind is None:
            raise InvalidError(f"record of game {game} is corrupt: its kind is {shown(row[KIND])}")
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


def read_entry(game: int, format_: str, line: Sequence[Any]) -> Entry:
    """One stored line (its number, time and text) read back as an entry; one clear error if it cannot be."""
    seq, at, data = line[0], line[1], line[2]
    try:
        if not isinstance(data, str) or len(data) > MAX_DATA:
            raise InvalidError(f"expected a stored text of at most {MAX_DATA} characters")
        stored = json.loads(data)
        if format_ == FORMAT and not (isinstance(stored, dict) and "actor" in stored):
            raise InvalidError("it names no actor")
        actor, item = entry_from_json(stored)
    except (ValueError, TypeError, RecursionError) as error:  # bad JSON or bytes; a HazardError
        raise InvalidError(f"record of game {game} is corrupt: entry {seq}: {reason(error)}") from None
    return Entry(seq, at, actor, item)


def closes(data: object) -> bool:
    """Whether a stored entry's text is a close."""
    stored = stored_json(data)
    return isinstance(stored, dict) and set(stored) == {"actor", CLOSE_TYPE}


def listed_text(value: object) -> str:
    """A stored text for a listing: as it is, or ``?`` where the record holds something else there (loading
    the game says what is wrong)."""
    return value[:200] if isinstance(value, str) else "?"


def listed_count(value: object) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) and value >= 0 else 0


def listed_ruleset(text: object) -> str:
    if not isinstance(text, str):
        return "?"
    for line in text[:MAX_DATA].splitlines():
        if line.startswith("id = "):
            return line.removeprefix("id = ").strip('"')
    return "?"
