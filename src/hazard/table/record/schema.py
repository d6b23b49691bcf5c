"""The game record's tables (SQLAlchemy), and which of its releases' layouts a database holds.

A game's row holds its setup, written once; its head (how many entries, and the last one's digest) is a small
row of its own, the one row every entry moves on; each entry's row holds its stored JSON and its digest
(:mod:`hazard.table.record.chain`). Beside them: the fair dice's sealed seeds,
the reveals' signatures, the seats' keys and claim codes, the clients' request numbers, and the closes an
older record kept beside the chain. SQLAlchemy is imported on first use, not by every command.
"""

from __future__ import annotations

import enum
import json
from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING, Any

from hazard.core.errors import InvalidError, quoted
from hazard.core.numbers import check_whole
from hazard.table.record import keys as seat_keys
from hazard.table.rules.entries import FORMAT

if TYPE_CHECKING:
    import sqlalchemy as sa

__all__ = [
    "GAME_NUMBERS",
    "MAX_DATA",
    "MAX_GAME",
    "MAX_REQUEST",
    "SETUP_COLUMNS",
    "UNCHAINED_ENTRY_COLUMNS",
    "UNCHAINED_GAME_COLUMNS",
    "HeadPlace",
    "Layout",
    "Schema",
    "check_game_number",
    "game_number_refusal",
    "games_table",
    "layout",
    "stored_json",
    "tables",
]

MAX_DATA = 100_000
"""The most characters one stored entry may have (an action's JSON form is a few hundred at most)."""

MAX_REQUEST = 64
"""The most characters of a client's own number for an action (:meth:`GameStore.requests`)."""


MAX_GAME = 2**31 - 1
"""The largest game number a record can hold (every database's integer column holds it)."""
GAME_NUMBERS = f"a game number from 1 to {MAX_GAME}"
"""What a game number is, as every refusal of one says."""


def game_number_refusal(given: object) -> InvalidError:
    """The one refusal of a game number out of bounds, or of text that is none, wherever it is read (the
    record, the command line, the web's paths): ``invalid game '0': expected a game number from 1 to ...``."""
    big = isinstance(given, int) and given.bit_length() > 256  # str() of 4,300 digits is refused
    return InvalidError(f"invalid game {'too large' if big else quoted(str(given))}: expected {GAME_NUMBERS}")


def check_game_number(game: int) -> int:
    """``game`` as a game number a record can hold; else refused (before any database is asked), as
    :func:`game_number_refusal` words it."""
    return check_whole(game, what="game", low=1, high=MAX_GAME, expected=GAME_NUMBERS)


class Layout(enum.Enum):
    """The tables a database holds."""

    EMPTY = "empty"
    """No tables of a record yet."""
    CHAINED = "chained"
    """This release's: games with their kind, each game's head in a row of its own, entries with their
    digests."""
    HEAD_IN_GAME = "head-in-game"
    """The release before the head row's: chained, each game's head kept in the game's row (so every entry
    rewrote the whole setup). Read as it is; given its head rows when opened for writing."""
    UNCHAINED = "unchained"
    """The release before the chain's: read as it is; sealed when opened for writing."""


UNCHAINED_GAME_COLUMNS = (
    "id",
    "format",
    "created",
    "label",
    "ruleset",
    "paytable",
    "stakes",
    "dice",
    "seed",
    "settings",
)
UNCHAINED_ENTRY_COLUMNS = ("game", "seq", "at", "data")
SETUP_COLUMNS = (*UNCHAINED_GAME_COLUMNS[1:], "kind")
"""What a game's setup digest is over: every column of its row but its number (and, in a record of
:attr:`Layout.HEAD_IN_GAME`, its head)."""


@dataclass(frozen=True)
class HeadPlace:
    """Where a record of one layout keeps its games' heads, and the statements that read them."""

    table: sa.Table
    game: sa.ColumnElement[int]
    """The game's number in ``table``."""
    entries: sa.ColumnElement[int]
    head: sa.ColumnElement[str]
    of: sa.Select[Any]
    """A game's head (entries, digest), by ``game_id``: built once, as every append and every server's look
    at a table asks it."""


@dataclass(frozen=True)
class Schema:
    metadata: sa.MetaData
    games: sa.Table
    entries: sa.Table
    secrets: sa.Table
    """The fair dice's server seeds, each kept here from its commitment, sealed
    (:mod:`hazard.table.fair.sealing`: AES-GCM under a key the database never holds), and never exported: a
    hand's seed is shown only by the entry that reveals it when the hand ends."""
    signatures: sa.Table
    """The server's signature on each reveal entry (:mod:`hazard.table.fair.signing`), written with the entry:
    public, so every process serving the record serves it, and exported with the reveal."""
    seats: sa.Table
    """Who holds which key to a game played from afar: the SHA-256 of each seat's or host's token (never the
    token itself) and the seating it opens, written with the entry that seats the player, deleted with the
    one that takes him away, and never exported (:mod:`hazard.table.record.keys`)."""
    claims: sa.Table
    """The late arrivals' claim codes, hashed, each of one seating, spent once
    (:mod:`hazard.table.record.keys`)."""
    requests: sa.Table
    """The client's own number of each action sent from afar, with the entry it made: written with that
    entry, so an action sent again is recognised, even after a restart, and made once."""
    closed: sa.Table
    """The games their host closed, as older records kept them beside the chain: read, never written now (a
    close is an entry of the game's record, :mod:`hazard.table.rules.closing`)."""
    drill_scores: sa.Table
    """The side-bet drill's scores, by player name (:mod:`hazard.table.record.drill_scores`): a drill is
    no game, so they stand beside the games, outside every chain, and are never exported."""
    heads: sa.Table
    """Each game's head: how many entries it holds and the last one's digest. A row of its own, so the
    compare-and-set every entry makes rewrites three short fields, not the game's setup (a ruleset and a
    paytable as text, written once)."""
    games_with_head: sa.Table
    """``hazard_games`` as a record of :attr:`Layout.HEAD_IN_GAME` lays it out (its head in the game's row):
    read as it is, and brought up to this layout when opened for writing."""
    move_head: sa.Update
    """The compare-and-set of a game's head, from (``last``, ``old_head``) to (``new_entries``,
    ``new_head``): built once, as every append makes it."""
    add_entry: sa.Insert
    add_request: sa.Insert
    notify: sa.TextClause
    in_heads: HeadPlace
    in_games: HeadPlace

    @property
    def head_of(self) -> sa.Select[Any]:
        """A game's head (entries, digest), by ``game_id``, in this release's layout."""
        return self.in_heads.of

    def head_place(self, layout: Layout) -> HeadPlace:
        """Where a record of ``layout`` (chained) keeps its heads."""
        return self.in_games if layout is Layout.HEAD_IN_GAME else self.in_heads

    def games_in(self, layout: Layout) -> sa.Table:
        """The games' table as a record of ``layout`` lays it out."""
        return self.games_with_head if layout is Layout.HEAD_IN_GAME else self.games

    def with_heads(self, layout: Layout) -> sa.FromClause:
        """The games of a record of ``layout`` (chained), each with its head: a game whose head row is lost
        reads as one with no head (None), for the reader to refuse."""
        games, place = self.games_in(layout), self.head_place(layout)
        return games if place.table is games else games.outerjoin(place.table, place.game == games.c.id)


def games_table(metadata: sa.MetaData, name: str = "hazard_games", *, with_head: bool = False) -> sa.Table:
    """The games' table: this release's (its head apart), or with the head in each row as
    :attr:`Layout.HEAD_IN_GAME` kept it; under another ``name`` for the rebuild that moves the head out."""
    import sqlalchemy as sa

    head: list[sa.Column[Any]] = (
        [
            sa.Column("entries", sa.Integer, nullable=False, server_default="0"),
            sa.Column("head", sa.String(64), nullable=False, server_default=""),
        ]
        if with_head
        else []
    )
    return sa.Table(
        name,
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
        sa.Column("kind", sa.String(20), nullable=False, server_default=""),
        *head,
    )


def head_place(table: sa.Table, game: sa.ColumnElement[int]) -> HeadPlace:
    import sqlalchemy as sa

    entries, head = table.c.entries, table.c.head
    return HeadPlace(
        table, game, entries, head, sa.select(entries, head).where(game == sa.bindparam("game_id"))
    )


@cache
def tables() -> Schema:
    """The record's tables. SQLAlchemy is imported here, on first use, not by every command."""
    import sqlalchemy as sa

    metadata = sa.MetaData()
    games = games_table(metadata)
    heads = sa.Table(
        "hazard_heads",
        metadata,
        sa.Column("game", sa.Integer, sa.ForeignKey("hazard_games.id"), primary_key=True),
        sa.Column("entries", sa.Integer, nullable=False),
        sa.Column("head", sa.String(64), nullable=False),
    )
    games_with_head = games_table(sa.MetaData(), with_head=True)  # not this release's: never made
    entries = sa.Table(
        "hazard_entries",
        metadata,
        sa.Column("game", sa.Integer, sa.ForeignKey("hazard_games.id"), primary_key=True),
        sa.Column("seq", sa.Integer, primary_key=True),
        sa.Column("at", sa.String(40), nullable=False),
        sa.Column("data", sa.Text, nullable=False),
        sa.Column("digest", sa.String(64), nullable=False, server_default=""),
    )
    secrets = sa.Table(
        "hazard_secrets",
        metadata,
        sa.Column("game", sa.Integer, sa.ForeignKey("hazard_games.id"), primary_key=True),
        sa.Column("hand", sa.Integer, primary_key=True),
        sa.Column("seed", sa.Text, nullable=False),  # sealed; a release before sealing kept 64 hex digits
    )
    signatures = sa.Table(
        "hazard_signatures",
        metadata,
        sa.Column("game", sa.Integer, sa.ForeignKey("hazard_games.id"), primary_key=True),
        sa.Column("seq", sa.Integer, primary_key=True),
        sa.Column("hand", sa.Integer, nullable=False),
        sa.Column("public_key", sa.String(64), nullable=False),
        sa.Column("signature", sa.String(128), nullable=False),
    )
    seats = sa.Table(
        "hazard_seats",
        metadata,
        sa.Column("game", sa.Integer, sa.ForeignKey("hazard_games.id"), primary_key=True),
        sa.Column("digest", sa.String(64), primary_key=True),
        sa.Column("player", sa.String(200), nullable=True),  # NULL: the host's
        sa.Column(seat_keys.SEATING, sa.Integer, nullable=True),  # the entry that seated him; NULL: the host
    )
    claims = seat_keys.claims_table(metadata)
    requests = sa.Table(
        "hazard_requests",
        metadata,
        sa.Column("game", sa.Integer, sa.ForeignKey("hazard_games.id"), primary_key=True),
        sa.Column("client", sa.String(MAX_REQUEST), primary_key=True),
        sa.Column("seq", sa.Integer, nullable=False),
    )
    closed = sa.Table(
        "hazard_closed",
        metadata,
        sa.Column("game", sa.Integer, sa.ForeignKey("hazard_games.id"), primary_key=True),
        sa.Column("at", sa.String(40), nullable=False),
    )
    drill_scores = sa.Table(
        "hazard_drill_scores",
        metadata,
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("name", sa.String(200), nullable=False),
        sa.Column("name_key", sa.String(200), nullable=False, index=True),
        sa.Column("score", sa.Text, nullable=False),  # exact: "a/b"
        sa.Column("score_float", sa.Float, nullable=False),  # the order of the best
        sa.Column("rounds", sa.Integer, nullable=False),
        sa.Column("seed", sa.BigInteger, nullable=False),
        sa.Column("at", sa.String(40), nullable=False),
    )
    move_head = (
        heads.update()
        .where(
            heads.c.game == sa.bindparam("game_id"),
            heads.c.entries == sa.bindparam("last"),
            heads.c.head == sa.bindparam("old_head"),
        )
        .values(entries=sa.bindparam("new_entries"), head=sa.bindparam("new_head"))
    )
    notify = sa.text("SELECT pg_notify(:channel, :payload)")
    return Schema(
        metadata,
        games,
        entries,
        secrets,
        signatures,
        seats,
        claims,
        requests,
        closed,
        drill_scores,
        heads,
        games_with_head,
        move_head,
        entries.insert(),
        requests.insert(),
        notify,
        head_place(heads, heads.c.game),
        head_place(games_with_head, games_with_head.c.id),
    )


def layout(connection: sa.Connection) -> Layout:
    """Which record the database holds; refuse a database that is someone else's rather than add tables to it
    or misread it."""
    import sqlalchemy as sa

    inspector = sa.inspect(connection)
    present = set(inspector.get_table_names())
    schema = tables()
    ours = {table.name: table for table in (schema.games, schema.entries)}  # the secrets may come later
    if schema.secrets.name in present:
        laid_out = {c["name"] for c in inspector.get_columns(schema.secrets.name)}
        if laid_out != set(schema.secrets.c.keys()):
            raise InvalidError(f"its table {schema.secrets.name!r} is not laid out as a hazard game record")
    found = present & set(ours)
    if not found:
        if present and connection.dialect.name == "sqlite":
            shown = ", ".join(sorted(present)[:5])
            raise InvalidError(
                f"it is a database of something else (tables: {shown}), not a hazard game record"
            )
        return Layout.EMPTY
    columns = {name: {c["name"] for c in inspector.get_columns(name)} for name in found}
    chained = set(schema.entries.c.keys())
    releases = {
        "hazard_games": {
            frozenset(schema.games.c.keys()): {Layout.CHAINED},
            frozenset(schema.games_with_head.c.keys()): {Layout.HEAD_IN_GAME},
            frozenset(UNCHAINED_GAME_COLUMNS): {Layout.UNCHAINED},
        },
        "hazard_entries": {
            frozenset(chained): {Layout.CHAINED, Layout.HEAD_IN_GAME},
            frozenset(UNCHAINED_ENTRY_COLUMNS): {Layout.UNCHAINED},
        },
    }
    for name in sorted(found):
        if frozenset(columns[name]) not in releases[name]:
            raise InvalidError(f"its table {name!r} is not laid out as a hazard game record ({FORMAT})")
    if found != set(ours):
        missing = sorted(set(ours) - found)[0]
        raise InvalidError(f"its table {missing!r} is missing: it is not a whole hazard game record")
    games, entries = (releases[name][frozenset(columns[name])] for name in ("hazard_games", "hazard_entries"))
    if not games & entries:
        raise InvalidError(
            "its tables are of two different releases of hazard: it is not a whole game record"
        )
    (kept,) = games
    heads = schema.heads.name
    if kept is Layout.CHAINED:
        if heads not in present:
            raise InvalidError(f"its table {heads!r} is missing: it is not a whole hazard game record")
        if {c["name"] for c in inspector.get_columns(heads)} != set(schema.heads.c.keys()):
            raise InvalidError(f"its table {heads!r} is not laid out as a hazard game record ({FORMAT})")
    elif heads in present:
        raise InvalidError(
            "its tables are of two different releases of hazard: it is not a whole game record"
        )
    return kept


def stored_json(text: object) -> object:
    """Stored JSON text read back; None where it is not JSON (or too deep, or not text)."""
    if not isinstance(text, str) or len(text) > MAX_DATA:
        return None
    try:
        return json.loads(text)
    except (ValueError, RecursionError):
        return None
