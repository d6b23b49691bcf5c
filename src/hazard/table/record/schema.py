"""The game record's tables (SQLAlchemy), and which of its releases' layouts a database holds.

A game's row holds its setup and its head (how many entries, and the last one's digest); each entry's row
its stored JSON and its digest (:mod:`hazard.table.record.chain`). Beside them: the fair dice's sealed seeds,
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
    "Layout",
    "Schema",
    "check_game_number",
    "game_number_refusal",
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
    """This release's: games with their kind and head, entries with their digests."""
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
"""What a game's setup digest is over: every column of its row but its number and its head."""


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
    head_of: sa.Select[Any]
    """A game's head (entries, digest), by ``game_id``: built once, as every append asks it."""
    move_head: sa.Update
    """The compare-and-set of a game's head, from (``last``, ``old_head``) to (``new_entries``,
    ``new_head``): built once, as every append makes it."""
    add_entry: sa.Insert
    add_request: sa.Insert
    notify: sa.TextClause


@cache
def tables() -> Schema:
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
        sa.Column("kind", sa.String(20), nullable=False, server_default=""),
        sa.Column("entries", sa.Integer, nullable=False, server_default="0"),
        sa.Column("head", sa.String(64), nullable=False, server_default=""),
    )
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
    head_of = sa.select(games.c.entries, games.c.head).where(games.c.id == sa.bindparam("game_id"))
    move_head = (
        games.update()
        .where(
            games.c.id == sa.bindparam("game_id"),
            games.c.entries == sa.bindparam("last"),
            games.c.head == sa.bindparam("old_head"),
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
        head_of,
        move_head,
        entries.insert(),
        requests.insert(),
        notify,
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
    unchained = {
        "hazard_games": set(UNCHAINED_GAME_COLUMNS),
        "hazard_entries": set(UNCHAINED_ENTRY_COLUMNS),
    }
    for name in sorted(found):
        if columns[name] not in (set(ours[name].c.keys()), unchained[name]):
            raise InvalidError(f"its table {name!r} is not laid out as a hazard game record ({FORMAT})")
    if found != set(ours):
        missing = sorted(set(ours) - found)[0]
        raise InvalidError(f"its table {missing!r} is missing: it is not a whole hazard game record")
    if all(columns[name] == set(table.c.keys()) for name, table in ours.items()):
        return Layout.CHAINED
    if all(columns[name] == unchained[name] for name in ours):
        return Layout.UNCHAINED
    raise InvalidError("its tables are of two different releases of hazard: it is not a whole game record")


def stored_json(text: object) -> object:
    """Stored JSON text read back; None where it is not JSON (or too deep, or not text)."""
    if not isinstance(text, str) or len(text) > MAX_DATA:
        return None
    try:
        return json.loads(text)
    except (ValueError, RecursionError):
        return None
