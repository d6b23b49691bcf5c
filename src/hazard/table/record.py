"""The game record: an append-only log of table actions in a database, sealed by a hash chain.

Every entry is written, and committed, before the table moves on, so a game stopped at any moment (even by
``kill -9``) resumes exactly. Nothing is ever updated or deleted (see :mod:`hazard.table.game` for
corrections and the replay); only the game's head (how many entries it holds, and the last one's digest)
moves on with each entry, in the same transaction. (A server may commit the writes of many tables together,
in one :meth:`GameStore.batch`; it tells nobody of them until the batch has committed.)

- **One writer order.** An append names the entry number it expects; the head is moved on only from that
  entry's predecessor (a compare-and-set in the writing transaction), so of two sessions writing from the same
  table one is refused, told so, and nothing is written from a stale table.
- **Sealed.** Each entry holds the digest of the record before it (:mod:`hazard.table.chain`); a load
  recomputes the chain and refuses a game with a missing, reordered or altered entry, a changed setup or lost
  last entries, naming the first that does not follow, whatever the database.
- **Refused whole.** A record that does not replay, line by line, through the pure rules (corrupt JSON, an
  unknown action, an illegal move, a foreign file) is refused with one message; nothing is half-loaded.
- **Reading never writes.** Opened for reading, an SQLite record is opened read-only: no tables are made,
  nothing is upgraded.

Any SQLAlchemy URL works (``postgresql+psycopg://...``); the default is an SQLite file in the user's data
folder. A record written by the release before the chain (no digests) is read as it is, and sealed the first
time it is opened for writing.
"""

from __future__ import annotations

import dataclasses
import enum
import json
import os
import sqlite3
import threading
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import quote

from hazard.core.errors import HazardError, IllegalError, InvalidError, quoted
from hazard.core.numbers import check_whole
from hazard.core.paytable import Paytable
from hazard.core.rules import Ruleset, StakeArrangement
from hazard.core.rulesets import paytable_from_toml, paytable_to_toml, ruleset_from_toml, ruleset_to_toml
from hazard.table import keys as seat_keys
from hazard.table.actions import Actor, Sit, TableAction
from hazard.table.chain import entry_digest, setup_digest
from hazard.table.closing import CLOSE_TYPE, Close
from hazard.table.dice import DiceKind
from hazard.table.fair import FairNote, Revealed
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
    replayed_further,
)
from hazard.table.keys import Holder
from hazard.table.provenance import RecordProof
from hazard.table.sealing import open_kept_seed, seal_kept_seeds
from hazard.table.serverkeys import ServerKeys
from hazard.table.signing import RevealSigner
from hazard.table.sqlite_file import Recovery, recover, sqlite_or_empty

__all__ = [
    "GAME_NUMBERS",
    "MAX_GAME",
    "Access",
    "GameStore",
    "GameSummary",
    "Holder",
    "RecordUnavailable",
    "StaleError",
    "check_game_number",
    "default_database_url",
    "game_number_refusal",
]

MAX_GAME = 2**31 - 1
"""The largest game number a record can hold (every database's integer column holds it)."""
GAME_NUMBERS = f"a game number from 1 to {MAX_GAME}"
"""What a game number is, as every refusal of one says."""
MAX_DATA = 100_000
"""The most characters one stored entry may have (an action's JSON form is a few hundred at most)."""

MAX_REQUEST = 64
"""The most characters of a client's own number for an action (:meth:`GameStore.request`)."""

CHANNEL = "hazard_entries"
"""The PostgreSQL channel on which each committed entry is announced (its game and number)."""

_KIND = "kind"
"""The setting under which the release before the chain kept a game's kind."""

if TYPE_CHECKING:
    import sqlalchemy as sa


class Access(enum.Enum):
    """What a program opening a record will do with it."""

    CREATE = "create"
    """Write games, making the record first where there is none (starting a game)."""
    WRITE = "write"
    """Write to a record that must be there already (resuming a game); a missing SQLite file is refused."""
    READ = "read"
    """Only read: a missing file is refused, and nothing is ever written (an SQLite file is opened read-only;
    a record of the release before the chain is read as it is)."""


class _Layout(enum.Enum):
    """The tables a database holds."""

    EMPTY = "empty"
    """No tables of a record yet."""
    CHAINED = "chained"
    """This release's: games with their kind and head, entries with their digests."""
    UNCHAINED = "unchained"
    """The release before the chain's: read as it is; sealed when opened for writing."""


_UNCHAINED_GAME_COLUMNS = (
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
_UNCHAINED_ENTRY_COLUMNS = ("game", "seq", "at", "data")
_SETUP_COLUMNS = (*_UNCHAINED_GAME_COLUMNS[1:], "kind")
"""What a game's setup digest is over: every column of its row but its number and its head."""


@dataclass(frozen=True)
class _Schema:
    metadata: sa.MetaData
    games: sa.Table
    entries: sa.Table
    secrets: sa.Table
    """The fair dice's server seeds, each kept here from its commitment, sealed (:mod:`hazard.table.sealing`:
    AES-GCM under a key the database never holds), and never exported: a hand's seed is shown only by the
    entry that reveals it when the hand ends."""
    signatures: sa.Table
    """The server's signature on each reveal entry (:mod:`hazard.table.signing`), written with the entry:
    public, so every process serving the record serves it, and exported with the reveal."""
    seats: sa.Table
    """Who holds which key to a game played from afar: the SHA-256 of each seat's or host's token (never the
    token itself) and the seating it opens, written with the entry that seats the player, deleted with the
    one that takes him away, and never exported (:mod:`hazard.table.keys`)."""
    claims: sa.Table
    """The late arrivals' claim codes, hashed, each of one seating, spent once (:mod:`hazard.table.keys`)."""
    requests: sa.Table
    """The client's own number of each action sent from afar, with the entry it made: written with that
    entry, so an action sent again is recognised, even after a restart, and made once."""
    closed: sa.Table
    """The games their host closed, as older records kept them beside the chain: read, never written now (a
    close is an entry of the game's record, :mod:`hazard.table.closing`)."""
    head_of: sa.Select[Any]
    """A game's head (entries, digest), by ``game_id``: built once, as every append asks it."""
    move_head: sa.Update
    """The compare-and-set of a game's head, from (``last``, ``old_head``) to (``new_entries``,
    ``new_head``): built once, as every append makes it."""
    add_entry: sa.Insert
    add_request: sa.Insert
    notify: sa.TextClause


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
    return _Schema(
        metadata,
        games,
        entries,
        secrets,
        signatures,
        seats,
        claims,
        requests,
        closed,
        head_of,
        move_head,
        entries.insert(),
        requests.insert(),
        notify,
    )


def default_database_url() -> str:
    """An SQLite file in the user's data folder (created if need be)."""
    import platformdirs

    folder = Path(platformdirs.user_data_dir("hazard", appauthor=False))
    folder.mkdir(parents=True, exist_ok=True)
    return f"sqlite:///{folder / 'games.db'}"


def game_number_refusal(given: object) -> InvalidError:
    """The one refusal of a game number out of bounds, or of text that is none, wherever it is read (the
    record, the command line, the web's paths): ``invalid game '0': expected a game number from 1 to ...``."""
    big = isinstance(given, int) and given.bit_length() > 256  # str() of 4,300 digits is refused
    return InvalidError(f"invalid game {'too large' if big else quoted(str(given))}: expected {GAME_NUMBERS}")


def check_game_number(game: int) -> int:
    """``game`` as a game number a record can hold; else refused (before any database is asked), as
    :func:`game_number_refusal` words it."""
    return check_whole(game, what="game", low=1, high=MAX_GAME, expected=GAME_NUMBERS)


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


class RecordUnavailable(InvalidError):
    """The database could not be reached, or was too busy to answer: nothing was written, and the same request
    may succeed later (a server answers 503, not that the request was malformed)."""


def _failed(doing: str, url: str, error: BaseException) -> InvalidError:
    """One clear error for a database's failure: :class:`RecordUnavailable` where it is the database's state
    (a lost connection, a lock held too long), else an :class:`InvalidError` (a record that is not one)."""
    import sqlalchemy as sa

    kind = InvalidError
    if isinstance(error, sa.exc.OperationalError | sa.exc.InterfaceError | sa.exc.TimeoutError):
        reason = _reason(error)
        if "no such table" not in reason and "no such column" not in reason:
            kind = RecordUnavailable
    return kind(f"cannot {doing} the game record {url!r}: {_reason(error)}")


class StaleError(IllegalError):
    """An append from a table that is no longer the game's latest: another session has written since."""

    def __init__(self, game: int, seq: int, last: int, *, caught_up: bool = False) -> None:
        then = (
            "; this session has caught up: the table is now as the record has it, so look, then try again"
            if caught_up
            else ": resume the game to carry on"
        )
        super().__init__(
            f"illegal entry {seq} of game {game}: the game has moved on (its record ends at entry {last}, "
            f"written by another session); nothing was written{then}"
        )
        self.game = game
        self.last = last


class GameStore:
    """Games in a database. Open with :meth:`open`; every write is committed before it returns (or, inside a
    :meth:`batch`, when the batch ends)."""

    def __init__(
        self, engine: sa.Engine, url: str, layout: _Layout, access: Access, keys: ServerKeys | None = None
    ) -> None:
        self._engine = engine
        self._layout = layout
        self._access = access
        self.url = url
        self.recovery: Recovery | None = None
        """A killed writer's journal that opening to read rolled back (:mod:`hazard.table.sqlite_file`)."""
        self.keys = keys or ServerKeys.from_environment()
        """Where this process's seed-sealing and reveal-signing keys come from (never the database)."""
        self._batches = threading.local()
        """The transaction of this thread's :meth:`batch`, while one is open."""

    @classmethod
    def open(
        cls,
        url: str | None = None,
        *,
        access: Access = Access.CREATE,
        in_memory: bool = False,
        keys: ServerKeys | None = None,
    ) -> GameStore:
        """Open the record at ``url``: an SQLAlchemy URL or an SQLite path (default: the user's data folder),
        for ``access``. An in-memory database (``sqlite://``) keeps nothing once closed, so it is refused
        unless ``in_memory`` says that is what is meant (in tests and notebooks). ``keys`` say where the
        seed-sealing and reveal-signing keys are (default: :meth:`ServerKeys.from_environment`); a writer
        seals, as it opens, any seed a release before sealing kept in clear.
        """
        keys = keys or ServerKeys.from_environment()
        import sqlalchemy as sa
        from sqlalchemy.exc import ArgumentError, SQLAlchemyError

        url = _as_url(url)
        try:
            parsed = sa.engine.make_url(url)
        except ArgumentError as error:
            raise InvalidError(f"cannot open the game record {_shown(url)}: {_reason(error)}") from None
        recovery, opened = None, False
        try:
            if parsed.get_backend_name() == "sqlite":
                database = parsed.database
                if access is Access.READ and database and not database.startswith(("file:", ":memory:")):
                    recovery = recover(Path(database))  # a reader cannot roll a hot journal back itself
                    database = database if recovery is None else str(recovery.path)
                engine = _sqlite_engine(url, database, access=access, in_memory=in_memory)
            else:
                engine = sa.create_engine(url)
            with engine.connect() as looking, looking.begin():  # takes no write lock, so writes nothing
                layout = _layout(looking)
            # A resume (WRITE) of a record with no tables fails: it makes none, so it writes nothing.
            if access is Access.CREATE or (access is Access.WRITE and layout is not _Layout.EMPTY):
                with _begin(engine) as connection:
                    layout = _layout(connection)  # again, under the write lock
                    if layout is _Layout.UNCHAINED:
                        _seal(connection)
                    # every table not there yet (a record made before the fair dice has no secrets)
                    _schema().metadata.create_all(connection)
                    seal_kept_seeds(connection, _schema().secrets, keys)
                    seat_keys.upgrade(connection, _schema().seats, _schema().entries)
                    layout = _Layout.CHAINED
            opened = True
        except HazardError as error:
            if str(error).startswith("cannot open"):
                raise
            raise InvalidError(f"cannot open the game record {_shown(url)}: {error}") from None
        except (SQLAlchemyError, ValueError, ImportError, OSError) as error:
            raise InvalidError(f"cannot open the game record {_shown(url)}: {_reason(error)}") from None
        finally:
            if recovery is not None and not opened:
                recovery.close()
        store = cls(engine, url, layout, access, keys)
        store.recovery = recovery
        return store

    def close(self) -> None:
        self._engine.dispose()
        if self.recovery is not None:
            self.recovery.close()

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
        entries: Sequence[tuple[Actor, TableAction | FairNote]] = (),
        secrets: Mapping[int, bytes] | None = None,
        keys: Mapping[str, str | None] | None = None,
    ) -> GameInfo:
        """Start a new game's record, with its first ``entries`` (the players seated), in one transaction.

        So a game is in the record with all of its setup or not at all: a process killed while it starts
        leaves no game with players missing. Returns the setup as it will read back; the entries are numbered
        from 1 and dated as the game was created. ``keys`` are digests of tokens and whose they are (None: the
        host's; a player's opens the seating of his sit among ``entries``), as :meth:`holder` reads them.
        """
        self._writable()
        kept = dict(settings or {})
        created = _now()
        row: dict[str, Any] = {
            "format": FORMAT,
            "created": created,
            "label": label,
            "kind": kind.value,
            "ruleset": ruleset_to_toml(ruleset),
            "paytable": paytable_to_toml(paytable),
            "stakes": stakes.value,
            "dice": dice.value,
            "seed": seed,
            "settings": json.dumps(kept, sort_keys=True),
        }
        head = setup_digest(row)
        written = 0
        schema = _schema()
        sealer = self.keys.sealer() if secrets else None  # read before the transaction: it may be refused
        with self._write() as connection:
            result = connection.execute(schema.games.insert().values(**row, entries=0, head=head))
            key = result.inserted_primary_key
            assert key is not None
            game = int(key[0])
            seated: dict[str, int] = {}
            for seq, (actor, action) in enumerate(entries, start=1):
                if isinstance(action, Sit):
                    seated[action.name] = seq
                data = _entry_data(actor, action)
                head = entry_digest(head, seq, created, data)
                connection.execute(
                    schema.entries.insert().values(game=game, seq=seq, at=created, data=data, digest=head)
                )
                written = seq
            if written:
                connection.execute(
                    schema.games.update().where(schema.games.c.id == game).values(entries=written, head=head)
                )
            for hand, drawn in (secrets or {}).items():
                assert sealer is not None
                sealed = sealer.seal(game, hand, drawn)
                connection.execute(schema.secrets.insert().values(game=game, hand=hand, seed=sealed))
            for digest, player in (keys or {}).items():
                seating = None if player is None else seated.get(player, 0)
                connection.execute(
                    schema.seats.insert().values(game=game, digest=digest, player=player, seating=seating)
                )
        return GameInfo(game, created, label, ruleset, paytable, stakes, dice, seed, kind, kept)

    def append(
        self,
        game: int,
        actor: Actor,
        item: TableAction | Correction | FairNote | Close,
        *,
        seq: int | None = None,
        secret: tuple[int, bytes] | None = None,
        key: tuple[str, str] | None = None,
        claim: tuple[str, str, str] | None = None,
        revoke: int | None = None,
        request: str | None = None,
    ) -> Entry:
        """Write an entry, entered by ``actor``, at the end of a game's record and commit it.

        ``seq`` is the number the writer expects the entry to get: one more than the last entry of the table
        it checked the entry against (a :class:`~hazard.table.session.Session` always gives it). Where
        another writer has written since, the append is refused with a :class:`StaleError` and nothing is
        written: the game's head moves on only from the entry before ``seq``, checked and moved in the
        transaction that writes. Without ``seq`` the entry goes after whatever is there: for tools that write
        a record without a table (an import), never for a game in play.

        ``secret`` is a fair hand's number and server seed, kept sealed (in the same transaction) where only
        :meth:`secret` reads it: for the entry that commits to it. A reveal is signed with the server's key,
        the signature kept with it (:mod:`hazard.table.signing`). ``key`` is the digest of a seat's token and
        the player it seats, kept with the entry that seats him, as the key to that seating (this entry's
        number); ``claim`` a claim code's digest, player and expiry, kept the same way (:meth:`claim`);
        ``revoke`` a seating this entry ends, whose keys and claim codes go with it; ``request`` the client's
        own number for the action, kept with the entry that makes it (:meth:`request`).
        """
        import sqlalchemy as sa
        from sqlalchemy.exc import IntegrityError

        self._writable()
        schema = _schema()
        data = _entry_data(actor, item)
        at = _now()
        # Sealed and signer read before the transaction: a key refused leaves nothing half-written in a batch.
        sealed = None if secret is None else (secret[0], self.keys.sealer().seal(game, *secret))
        signer = self.keys.signer() if isinstance(item, Revealed) else None
        try:
            with self._joined() as connection:
                found = connection.execute(schema.head_of, {"game_id": game}).first()
                if found is None:
                    raise IllegalError(
                        f"illegal entry for game {game}: the record at {self.url!r} has no such game"
                    )
                last, head = int(found[0]), str(found[1])
                if seq is None:
                    seq = last + 1
                elif seq != last + 1:
                    raise StaleError(game, seq, last)
                digest = entry_digest(head, seq, at, data)
                signed = _signed(signer, game, item, seq, digest)
                moved = connection.execute(
                    schema.move_head,
                    {"game_id": game, "last": last, "old_head": head, "new_entries": seq, "new_head": digest},
                )
                if moved.rowcount != 1:  # another writer moved the head between our read and our write
                    raise StaleError(game, seq, last + 1)
                connection.execute(
                    schema.add_entry, {"game": game, "seq": seq, "at": at, "data": data, "digest": digest}
                )
                if sealed is not None:
                    connection.execute(
                        schema.secrets.insert().values(game=game, hand=sealed[0], seed=sealed[1])
                    )
                if signed is not None:
                    connection.execute(schema.signatures.insert().values(game=game, seq=seq, **signed))
                _seat_rows(connection, schema, game, seq, key=key, claim=claim, revoke=revoke)
                if request is not None:
                    connection.execute(schema.add_request, {"game": game, "client": request, "seq": seq})
                if connection.dialect.name == "postgresql":  # delivered at commit, to every listener
                    connection.execute(schema.notify, {"channel": CHANNEL, "payload": f"{game}:{seq}"})
        except IntegrityError:  # the entry's number (or the request's) is taken: another writer was first
            raise StaleError(game, seq or 1, seq or 1) from None
        except sa.exc.SQLAlchemyError as error:
            raise _failed("write to", self.url, error) from None
        return Entry(seq, at, actor, item)

    def secret(self, game: int, hand: int) -> bytes | None:
        """The server seed of a fair hand, kept sealed since its commitment, opened (None if the record has
        none): for the session that throws its dice, and nothing that shows a game. A seed sealed with
        another key than this process's is refused, saying so; a legacy seed kept in clear is read as it
        is."""
        import sqlalchemy as sa

        secrets = _schema().secrets
        with self._read() as connection:
            if not sa.inspect(connection).has_table(secrets.name):
                return None
            found = connection.execute(
                sa.select(secrets.c.seed).where(secrets.c.game == game, secrets.c.hand == hand)
            ).scalar()
        return open_kept_seed(self.keys, game, hand, found)

    def signatures(self, game: int) -> dict[int, tuple[int, str, str]]:
        """The server's signature on each reveal of game ``game``: entry number -> (hand, public key hex,
        signature hex)."""
        with self._read() as connection:
            return self._signatures(connection, game)

    def _signatures(self, connection: sa.Connection, game: int) -> dict[int, tuple[int, str, str]]:
        import sqlalchemy as sa

        signatures = _schema().signatures
        if not self._has(connection, signatures):
            return {}
        rows = connection.execute(
            sa.select(
                signatures.c.seq, signatures.c.hand, signatures.c.public_key, signatures.c.signature
            ).where(signatures.c.game == game)
        ).all()
        return {int(seq): (int(hand), str(key), str(value)) for seq, hand, key, value in rows}

    def holder(self, game: int, digest: str) -> Holder | None:
        """Whose is the token of SHA-256 ``digest`` in game ``game``: a player's seating, the host's, or
        nobody's. (Whether the seating is the player's still, the table says: a key of a seating that has
        ended is deleted with the entry that ends it, but a server may have read it before.)"""
        seats = _schema().seats
        with self._read() as connection:
            if not self._has(connection, seats):
                return None
            return seat_keys.holder(connection, seats, game, digest)

    def claim_state(self, game: int, digest: str) -> seat_keys.ClaimState:
        """What the claim code of SHA-256 ``digest`` would hand over now, without spending it; a
        :class:`~hazard.table.keys.ClaimError` saying why it hands over nothing."""
        claims = _schema().claims
        with self._read() as connection:
            if not self._has(connection, claims):
                raise seat_keys.ClaimError(f"illegal claim at table {game}: that link holds no seat")
            return seat_keys.peek(connection, claims, game, digest)

    def claim(self, game: int, digest: str, token: str) -> Holder:
        """Spend the claim code of SHA-256 ``digest`` for a seat token of SHA-256 ``token``, in one
        transaction: once, on whichever server asks first; a :class:`~hazard.table.keys.ClaimError` after."""
        self._writable()
        schema = _schema()
        with self._write() as connection:
            return seat_keys.spend(connection, schema.seats, schema.claims, game, digest=digest, token=token)

    def listen(self, woken: Callable[[int, int], None]) -> Callable[[], None] | None:
        """Call ``woken(game, seq)`` (from a thread of its own) whenever a writer commits entry ``seq`` of a
        game, this process included; returns
        the function that stops listening. Only PostgreSQL tells its writers (LISTEN/NOTIFY); for another
        database this returns None, and a watcher polls :meth:`heads` instead.

        A notification only says "look": one lost with a dropped connection costs a watcher one poll, never
        an entry, since the record, read by :meth:`heads` and :meth:`entries_after`, is the truth.
        """
        import sqlalchemy as sa

        parsed = sa.engine.make_url(self.url)
        if parsed.get_backend_name() != "postgresql":
            return None
        plain = parsed.set(drivername="postgresql").render_as_string(hide_password=False)
        stop = threading.Event()

        def run() -> None:
            import psycopg

            while not stop.is_set():
                try:
                    with psycopg.connect(plain, autocommit=True) as connection:
                        connection.execute(f"LISTEN {CHANNEL}")
                        while not stop.is_set():
                            for note in connection.notifies(timeout=1.0):
                                game, _, seq = note.payload.partition(":")
                                if game.isdigit() and seq.isdigit():
                                    woken(int(game), int(seq))
                except psycopg.Error:
                    stop.wait(1.0)  # the server is away: try again shortly

        threading.Thread(target=run, name="hazard-listen", daemon=True).start()
        return stop.set

    def requests(self, game: int) -> dict[str, int]:
        """Every client's number of an action made in game ``game``, with the entry it made (for a server
        that keeps them, and reads them again whenever another writer has moved the game on)."""
        import sqlalchemy as sa

        requests = _schema().requests
        with self._read() as connection:
            if not self._has(connection, requests):
                return {}
            rows = connection.execute(
                sa.select(requests.c.client, requests.c.seq).where(requests.c.game == game)
            ).all()
        return {str(client): int(seq) for client, seq in rows}

    def closed(self) -> frozenset[int]:
        """The games whose table is closed: those whose last entry is a close (:mod:`hazard.table.closing`),
        and those an older record closed beside the chain (its ``hazard_closed`` table)."""
        import sqlalchemy as sa

        schema = _schema()
        games, entries, legacy = schema.games, schema.entries, schema.closed
        if self._layout is _Layout.EMPTY:
            return frozenset()
        found: set[int] = set()
        with self._read() as connection:
            if self._layout is _Layout.CHAINED:
                last = games.join(
                    entries, (entries.c.game == games.c.id) & (entries.c.seq == games.c.entries)
                )
                rows = connection.execute(
                    sa.select(games.c.id, entries.c.data)
                    .select_from(last)
                    .where(entries.c.data.like(f'%"{CLOSE_TYPE}"%'))  # only a cheap sieve: read below
                ).all()
                found.update(int(game) for game, data in rows if _closes(data))
            if self._has(connection, legacy):
                found.update(int(game) for game in connection.execute(sa.select(legacy.c.game)).scalars())
        return frozenset(found)

    def heads(self, games: Sequence[int]) -> dict[int, int]:
        """How many entries each of ``games`` has now: one cheap read, for a watcher of other writers."""
        import sqlalchemy as sa

        if not games or self._layout is not _Layout.CHAINED:
            return {}
        table = _schema().games
        with self._read() as connection:
            rows = connection.execute(
                sa.select(table.c.id, table.c.entries).where(table.c.id.in_(list(games)))
            ).all()
        return {int(game): int(count) for game, count in rows}

    def head(self, game: int) -> int | None:
        """How many entries game ``game`` has now (None: no such game): the one cheap read, by a statement
        built once, that a server makes before it answers from its own copy of a table."""
        if self._layout is not _Layout.CHAINED:
            return None
        with self._read() as connection:
            found = connection.execute(_schema().head_of, {"game_id": game}).first()
        return None if found is None else int(found[0])

    def games(self) -> list[GameSummary]:
        """Every game, newest first."""
        import sqlalchemy as sa

        if self._layout is _Layout.EMPTY:
            return []
        games, entries = _schema().games, _schema().entries
        summaries = []
        with self._read() as connection:
            if self._layout is _Layout.CHAINED:
                query = sa.select(
                    games.c.id, games.c.created, games.c.label, games.c.ruleset, games.c.kind, games.c.entries
                ).order_by(games.c.id.desc())
                for r in connection.execute(query):
                    summaries.append(
                        GameSummary(
                            r[0], _text(r[1]), _text(r[2]), _kind(r[4]), _ruleset_id(r[3]), _count(r[5])
                        )
                    )
                return summaries
            count = sa.func.count(entries.c.seq)
            unchained = (
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
            for u in connection.execute(unchained):
                summaries.append(
                    GameSummary(
                        u[0],
                        _text(u[1]),
                        _text(u[2]),
                        _unchained_kind(u[4], u[2], u[5]),
                        _ruleset_id(u[3]),
                        u[6],
                    )
                )
        return summaries

    def latest(self, kind: GameKind) -> int:
        """The newest game of ``kind``; an :class:`IllegalError` if there is none."""
        for summary in self.games():
            if summary.kind is kind:
                return summary.id
        raise IllegalError(f"illegal game: the record at {self.url!r} holds no {kind.label} game to resume")

    def load(self, game: int) -> ReplayedGame:
        """Read a game's whole record, check its chain and replay it; an :class:`InvalidError` if any of it is
        wrong, naming the first entry that is."""
        import sqlalchemy as sa

        check_game_number(game)
        if self._layout is _Layout.EMPTY:
            raise IllegalError(f"illegal game {game}: the record at {self.url!r} has no such game")
        schema = _schema()
        chained = self._layout is _Layout.CHAINED
        game_columns = schema.games.c if chained else [schema.games.c[n] for n in _UNCHAINED_GAME_COLUMNS]
        entry_columns = [schema.entries.c.seq, schema.entries.c.at, schema.entries.c.data]
        if chained:
            entry_columns.append(schema.entries.c.digest)
        with self._read() as connection:  # one transaction: the head and the entries are of one moment
            found = (
                connection.execute(sa.select(*game_columns).where(schema.games.c.id == game))
                .mappings()
                .first()
            )
            if found is None:
                raise IllegalError(f"illegal game {game}: the record at {self.url!r} has no such game")
            lines = connection.execute(
                sa.select(*entry_columns).where(schema.entries.c.game == game).order_by(schema.entries.c.seq)
            ).all()
            signatures = self._signatures(connection, game) if chained else {}
            closed = self._has(connection, schema.closed) and (
                connection.execute(
                    sa.select(schema.closed.c.game).where(schema.closed.c.game == game)
                ).first()
                is not None
            )
        row = dict(found)
        _check_types(game, row, lines)
        if chained:
            _check_chain(game, row, lines)
        else:
            row[_KIND] = None
        info = _info(row)
        entries = []
        for expected, line in enumerate(lines, start=1):
            if line[0] != expected:
                raise InvalidError(f"record of game {game} is corrupt: entry {expected} is missing")
            entries.append(_entry(game, info.format, line))
        replayed = replay(info, entries)
        if closed and not replayed.closed:
            replayed = dataclasses.replace(replayed, closed=True)
        if not chained:
            return replayed
        setup = {name: row[name] for name in _SETUP_COLUMNS}
        stored = tuple((str(line[2]), str(line[3])) for line in lines)
        proof = RecordProof(setup, setup_digest(setup), str(row["head"]), stored, signatures)
        return dataclasses.replace(replayed, proof=proof)

    def entries_after(
        self, game: int, seq: int, *, proof: list[tuple[str, str]] | None = None
    ) -> list[Entry]:
        """The entries of game ``game`` after entry ``seq``, for a session that has the first ``seq``: read in
        one transaction, each checked to follow, digest by digest, from entry ``seq`` to the game's head (a
        session catching up with another writer reads what is new, not the whole game). ``proof``, where
        given, is extended with each new entry's stored text and digest."""
        import sqlalchemy as sa

        check_game_number(game)
        if seq < 1:
            raise InvalidError("a session always has its game's setup: read the whole game with load()")
        schema = _schema()
        games, entries = schema.games, schema.entries
        if self._layout is not _Layout.CHAINED:
            raise InvalidError(f"cannot read entries after {seq} of game {game}: the record is not chained")
        with self._read() as connection:
            found = connection.execute(
                sa.select(games.c.format, games.c.entries, games.c.head).where(games.c.id == game)
            ).first()
            if found is None:
                raise IllegalError(f"illegal game {game}: the record at {self.url!r} has no such game")
            lines = connection.execute(
                sa.select(entries.c.seq, entries.c.at, entries.c.data, entries.c.digest)
                .where(entries.c.game == game, entries.c.seq >= seq)
                .order_by(entries.c.seq)
            ).all()
        corrupt = f"record of game {game} is corrupt"
        if not lines or lines[0][0] != seq:
            raise InvalidError(f"{corrupt}: entry {seq}, which this session has, is missing")
        digest = _follow_chain(game, str(lines[0][3]), lines[1:], seq + 1)
        read = [_entry(game, str(found[0]), line) for line in lines[1:]]
        if seq + len(read) != int(found[1]) or digest != found[2]:
            raise InvalidError(f"{corrupt}: its last entry is not the one the game was left at")
        if proof is not None:
            proof.extend((str(line[2]), str(line[3])) for line in lines[1:])
        return read

    def load_further(self, replayed: ReplayedGame) -> ReplayedGame:
        """``replayed`` (a game :meth:`load` read) with whatever the record has gained since, each new entry
        checked to follow the chain, and its proof (stored texts, digests, signatures) brought up too: what
        :meth:`load` would give now, for the cost of the new entries alone."""
        stored: list[tuple[str, str]] = []
        more = self.entries_after(replayed.info.id, len(replayed.entries), proof=stored)
        if not more:
            return replayed
        further = replayed_further(replayed, more)
        if replayed.proof is None:
            return further
        signatures = self.signatures(replayed.info.id)
        head = stored[-1][1]
        old = replayed.proof
        proof = RecordProof(old.setup, old.setup_digest, head, (*old.stored, *stored), signatures)
        return dataclasses.replace(further, proof=proof)

    def _has(self, connection: sa.Connection, table: sa.Table) -> bool:
        """Whether ``table`` is there: a record opened for writing has every table of this release."""
        import sqlalchemy as sa

        return self._access is not Access.READ or sa.inspect(connection).has_table(table.name)

    def _writable(self) -> None:
        if self._access is Access.READ or self._layout is not _Layout.CHAINED:
            raise InvalidError(f"cannot write to the game record {self.url!r}: it was opened for reading")

    @contextmanager
    def batch(self) -> Iterator[None]:
        """Join every write this thread makes inside the block into one transaction, committed as it ends.

        This is group commit: a server with many tables commits the actions that arrived together once,
        rather than once each (a commit, with its sync to disk, costs more than the rest of an append). A
        write the record refuses (a stale append, a game that is not there) is refused before it writes
        anything, so the batch goes on without it. A database error in a write (which may come after part of
        it) fails the whole batch. Nothing written inside the block is durable, or seen by other
        connections, until the block ends without an error; if it ends with one, or the commit fails,
        nothing of the block is written, and a database's failure is raised here as one clear error (a
        :class:`RecordUnavailable` for the database's state), so a caller must not tell anyone of a write
        made inside the block before it ends. A batch inside a batch is the same batch.
        """
        from sqlalchemy.exc import SQLAlchemyError

        if getattr(self._batches, "connection", None) is not None:
            yield
            return
        self._writable()
        try:
            with _begin(self._engine) as connection:
                self._batches.connection = connection
                self._batches.broken = None
                try:
                    yield
                    broken = self._batches.broken
                    if broken is not None:
                        raise _failed("write to", self.url, broken)
                finally:
                    self._batches.connection = None
                    self._batches.broken = None
        except SQLAlchemyError as error:
            raise _failed("write to", self.url, error) from None

    @contextmanager
    def _joined(self) -> Iterator[sa.Connection]:
        """A writing transaction of its own, or this thread's open :meth:`batch`.

        A write in a batch has no savepoint of its own (one would cost two more statements, and on PostgreSQL
        two round trips, a write): a refusal of the record's own (a stale append, a game that is not there)
        comes before anything is written, so it leaves the batch as it was. A database error may come after
        part of the write, so it fails the whole batch, which then commits nothing.
        """
        from sqlalchemy.exc import SQLAlchemyError

        connection = getattr(self._batches, "connection", None)
        if connection is None:
            with _begin(self._engine) as connection:
                yield connection
            return
        if self._batches.broken is not None:
            raise _failed("write to", self.url, self._batches.broken)
        try:
            yield connection
        except SQLAlchemyError as error:
            self._batches.broken = error
            raise

    @contextmanager
    def _write(self) -> Iterator[sa.Connection]:
        """A transaction (in this thread's batch, if one is open), committed on leaving; a database failure
        becomes one clear error."""
        from sqlalchemy.exc import SQLAlchemyError

        try:
            with self._joined() as connection:
                yield connection
        except SQLAlchemyError as error:
            raise _failed("write to", self.url, error) from None

    @contextmanager
    def _read(self) -> Iterator[sa.Connection]:
        """A read-only transaction that sees one moment of the record, whatever writers do meanwhile."""
        from sqlalchemy.exc import SQLAlchemyError

        try:
            with self._engine.connect() as opened:
                connection = opened
                if opened.dialect.name == "postgresql":
                    connection = opened.execution_options(isolation_level="REPEATABLE READ")
                with connection.begin():
                    yield connection
        except SQLAlchemyError as error:
            raise _failed("read", self.url, error) from None


# --- opening -----------------------------------------------------------------------------------------------


def _sqlite_engine(url: str, database: str | None, *, access: Access, in_memory: bool) -> sa.Engine:
    """An SQLite engine whose transactions take the write lock when they begin (so of two writers one waits
    and then sees the other's entry, rather than both reading the same head); read-only for reading."""
    import sqlalchemy as sa

    memory = not database or database == ":memory:" or database.startswith("file::memory:")
    if memory and not in_memory:
        raise InvalidError(
            f"cannot open the game record {url!r}: an in-memory database keeps nothing after the program "
            "ends; give a file, e.g. --db games.db"
        )
    path = Path(database or ":memory:")
    try:
        there = memory or path.is_file()
    except OSError as error:  # a name too long, a folder that cannot be searched ...
        raise InvalidError(
            f"cannot open the game record {_shown(_as_given(url))}: {error.strerror}"
        ) from None
    if access is not Access.CREATE and not there:
        raise InvalidError(f"cannot open the game record {_shown(_as_given(url))}: no such file")
    if there and not memory and not sqlite_or_empty(path):
        raise InvalidError(
            f"cannot open the game record {_shown(_as_given(url))}: it is not an SQLite database (it does "
            "not begin as one), so not a game record; it is left as it is: give a record, or a new file"
        )
    if access is Access.READ and not memory:
        uri = f"file:{quote(os.fsencode(path.resolve()))}?mode=ro"  # bytes: any name the system allows
        engine = sa.create_engine(
            "sqlite://", creator=lambda: sqlite3.connect(uri, uri=True, check_same_thread=False)
        )
    else:
        engine = sa.create_engine(url)
    from sqlalchemy import event

    @event.listens_for(engine, "connect")
    def _connect(dbapi_connection: Any, _record: object) -> None:
        dbapi_connection.isolation_level = None  # SQLAlchemy, not the driver, begins transactions

    @event.listens_for(engine, "begin")
    def _begin_transaction(connection: sa.Connection) -> None:
        immediate = access is not Access.READ and connection.get_execution_options().get(
            "hazard_write", False
        )
        connection.exec_driver_sql("BEGIN IMMEDIATE" if immediate else "BEGIN")

    return engine


@contextmanager
def _begin(engine: sa.Engine) -> Iterator[sa.Connection]:
    """A writing transaction: on SQLite it holds the write lock from its first statement."""
    with engine.connect() as opened:
        connection = opened.execution_options(hazard_write=True)
        with connection.begin():
            yield connection


def _as_url(url: str | None) -> str:
    """An SQLAlchemy URL for what ``--db`` says: a URL as it is, a path as an SQLite file, nothing as the
    default; a ``file:`` URI, a path too long to be one, or a home folder that is not there refused."""
    if url is None:
        return default_database_url()
    if len(url) > 4096:
        raise InvalidError(
            f"cannot open the game record {_shown(url)}: expected a path or URL of at most 4096 characters"
        )
    if "://" in url:
        return url
    if url.startswith("file:"):
        raise InvalidError(
            f"cannot open the game record {url!r}: expected an SQLite file's path, or an SQLAlchemy URL such "
            "as sqlite:///games.db (an SQLite 'file:' URI is neither)"
        )
    try:
        return f"sqlite:///{Path(url).expanduser()}"
    except RuntimeError as error:  # "~nosuchuser/games.db": no such home folder
        raise InvalidError(f"cannot open the game record {_shown(url)}: {error}") from None


def _as_given(url: str) -> str:
    return url.removeprefix("sqlite:///")


def _layout(connection: sa.Connection) -> _Layout:
    """Which record the database holds; refuse a database that is someone else's rather than add tables to it
    or misread it."""
    import sqlalchemy as sa

    inspector = sa.inspect(connection)
    present = set(inspector.get_table_names())
    schema = _schema()
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
        return _Layout.EMPTY
    columns = {name: {c["name"] for c in inspector.get_columns(name)} for name in found}
    unchained = {
        "hazard_games": set(_UNCHAINED_GAME_COLUMNS),
        "hazard_entries": set(_UNCHAINED_ENTRY_COLUMNS),
    }
    for name in sorted(found):
        if columns[name] not in (set(ours[name].c.keys()), unchained[name]):
            raise InvalidError(f"its table {name!r} is not laid out as a hazard game record ({FORMAT})")
    if found != set(ours):
        missing = sorted(set(ours) - found)[0]
        raise InvalidError(f"its table {missing!r} is missing: it is not a whole hazard game record")
    if all(columns[name] == set(table.c.keys()) for name, table in ours.items()):
        return _Layout.CHAINED
    if all(columns[name] == unchained[name] for name in ours):
        return _Layout.UNCHAINED
    raise InvalidError("its tables are of two different releases of hazard: it is not a whole game record")


def _seal(connection: sa.Connection) -> None:
    """Bring a record of the release before the chain to this layout, in the opening transaction: each game
    gets its kind (kept until now in its settings), its entries their digests, and its head."""
    import sqlalchemy as sa

    schema = _schema()
    games, entries = schema.games, schema.entries
    for table, name, default in (
        (games, "kind", "''"),
        (games, "entries", "0"),
        (games, "head", "''"),
        (entries, "digest", "''"),
    ):
        kind = table.c[name].type.compile(dialect=connection.dialect)
        connection.exec_driver_sql(
            f"ALTER TABLE {table.name} ADD COLUMN {name} {kind} NOT NULL DEFAULT {default}"
        )
    for found in connection.execute(sa.select(*games.c).order_by(games.c.id)).mappings().all():
        row = dict(found)
        found_kind = _unchained_kind(row["settings"], row["label"], row["dice"])
        row["kind"] = "" if found_kind is None else found_kind.value
        settings = _json(row["settings"])
        if isinstance(settings, dict) and _KIND in settings:
            settings.pop(_KIND)
            row["settings"] = json.dumps(settings, sort_keys=True)
        head = setup_digest({name: row[name] for name in _SETUP_COLUMNS})
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
            games.update()
            .where(games.c.id == row["id"])
            .values(kind=row["kind"], settings=row["settings"], entries=count, head=head)
        )


# --- loading -----------------------------------------------------------------------------------------------


def _check_types(game: int, row: dict[str, Any], lines: Sequence[Any]) -> None:
    """Refuse a game whose stored fields are not of their kinds (a database need not enforce them: SQLite
    keeps whatever it is given)."""
    corrupt = f"record of game {game} is corrupt"
    for name, value in row.items():
        whole = name in ("id", "entries", "seed")
        if value is None and name == "seed":
            continue
        if whole and (not isinstance(value, int) or isinstance(value, bool)):
            raise InvalidError(f"{corrupt}: its {name} {_shown(value)} is not a whole number")
        if name == "entries" and value < 0:  # the impossible head itself, not an entry it would make up
            raise InvalidError(f"{corrupt}: its count of entries is {value}, below 0")
        if not whole and not isinstance(value, str):
            raise InvalidError(f"{corrupt}: its {name} {_shown(value)} is not text")
        if not whole and len(value) > MAX_DATA:
            raise InvalidError(f"{corrupt}: its {name} has {len(value)} characters, more than {MAX_DATA}")
    for place, line in enumerate(lines, start=1):
        seq, at, *rest = line
        if not isinstance(seq, int) or isinstance(seq, bool):
            raise InvalidError(
                f"{corrupt}: the number of its entry {place} is {_shown(seq)}, not a whole number"
            )
        for what, value in (("time", at), ("digest", rest[-1] if len(rest) > 1 else "")):
            if not isinstance(value, str) or len(value) > 100:
                raise InvalidError(f"{corrupt}: entry {seq}: its {what} {_shown(value)} is not a short text")


def _check_chain(game: int, row: dict[str, Any], lines: Sequence[Any]) -> None:
    """Refuse a game whose entries do not follow, digest by digest, from its setup to its head."""
    corrupt = f"record of game {game} is corrupt"
    digest = setup_digest({name: row[name] for name in _SETUP_COLUMNS})
    if not lines and row["entries"] == 0 and digest != row["head"]:
        raise InvalidError(
            f"{corrupt}: its setup does not match its digest (it was changed after it was written)"
        )
    digest = _follow_chain(game, digest, lines, 1)
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


def _follow_chain(game: int, digest: str, lines: Sequence[Any], first: int) -> str:
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


def _info(row: dict[str, Any]) -> GameInfo:
    game = row["id"]
    if row["format"] not in FORMATS:
        expected = " or ".join(repr(f) for f in FORMATS)
        raise InvalidError(f"record of game {game} is in format {_shown(row['format'])}, expected {expected}")
    try:
        paytable = paytable_from_toml(row["paytable"], f"of game {game}")
        ruleset = ruleset_from_toml(row["ruleset"], f"of game {game}", stored=paytable)
        stakes = StakeArrangement(row["stakes"])
        dice = DiceKind(row["dice"])
    except (HazardError, ValueError, TypeError, RecursionError) as error:
        raise InvalidError(f"record of game {game} is corrupt: {_reason(error)}") from None
    seed = row["seed"]
    if seed is not None and (not isinstance(seed, int) or isinstance(seed, bool)):
        raise InvalidError(f"record of game {game} is corrupt: seed {_shown(seed)} is not a whole number")
    settings = _json(row["settings"])
    if not isinstance(settings, dict) or not all(
        isinstance(k, str) and isinstance(v, str) for k, v in settings.items()
    ):
        raise InvalidError(f"record of game {game} is corrupt: its settings are not a table of texts")
    if row[_KIND] is None:  # a record of the release before the chain: the kind is in the settings
        kind = _unchained_kind(row["settings"], row["label"], row["dice"])
        shown = settings.get(_KIND)
        if kind is None or (row["format"] == FORMAT and _KIND not in settings):
            raise InvalidError(f"record of game {game} is corrupt: its kind is {_shown(shown)}")
        settings.pop(_KIND, None)
    else:
        kind = _kind(row[_KIND])
        if kind is None:
            raise InvalidError(f"record of game {game} is corrupt: its kind is {_shown(row[_KIND])}")
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


def _kind(value: object) -> GameKind | None:
    try:
        return GameKind(value)
    except (ValueError, TypeError):
        return None


def _unchained_kind(settings: object, label: object, dice: object) -> GameKind | None:
    """A game's kind in a record of the release before the chain: in its settings, else by its label."""
    kept = _json(settings)
    if isinstance(kept, dict) and _KIND in kept:
        return _kind(kept[_KIND])
    if kept is None:
        return None
    for kind in GameKind:
        if label == kind.label:
            return kind
    return GameKind.REFEREE if dice == DiceKind.TYPED.value else GameKind.PLAY


def _entry(game: int, format_: str, line: Sequence[Any]) -> Entry:
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
        raise InvalidError(f"record of game {game} is corrupt: entry {seq}: {_reason(error)}") from None
    return Entry(seq, at, actor, item)


def _json(text: object) -> object:
    """Stored JSON text read back; None where it is not JSON (or too deep, or not text)."""
    if not isinstance(text, str) or len(text) > MAX_DATA:
        return None
    try:
        return json.loads(text)
    except (ValueError, RecursionError):
        return None


def _seat_rows(
    connection: sa.Connection,
    schema: _Schema,
    game: int,
    seq: int,
    *,
    key: tuple[str, str] | None,
    claim: tuple[str, str, str] | None,
    revoke: int | None,
) -> None:
    """What entry ``seq`` does to the seats' keys, in its transaction: the key or claim code a sit gives, the
    keys and codes of a seating a leave ends (:mod:`hazard.table.keys`)."""
    if key is not None:
        seat_keys.add_key(connection, schema.seats, game, key, seq)
    if claim is not None:
        seat_keys.add_claim(connection, schema.claims, game, claim, seq)
    if revoke is not None:
        seat_keys.revoke(connection, schema.seats, schema.claims, game, revoke)


def _signed(
    signer: RevealSigner | None, game: int, item: object, seq: int, digest: str
) -> dict[str, object] | None:
    """The signature row of a reveal entry (None for any other entry)."""
    if signer is None or not isinstance(item, Revealed):
        return None
    signature = signer.sign(game, item.hand, seq, digest)
    return {"hand": item.hand, "public_key": signer.public_key.hex(), "signature": signature}


def _entry_data(actor: Actor, item: TableAction | Correction | FairNote | Close) -> str:
    return json.dumps(entry_to_json(actor, item), sort_keys=True)


def _closes(data: object) -> bool:
    """Whether a stored entry's text is a close."""
    stored = _json(data)
    return isinstance(stored, dict) and set(stored) == {"actor", CLOSE_TYPE}


def _text(value: object) -> str:
    """A stored text for a listing: as it is, or ``?`` where the record holds something else there (loading
    the game says what is wrong)."""
    return value[:200] if isinstance(value, str) else "?"


def _count(value: object) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) and value >= 0 else 0


def _ruleset_id(text: object) -> str:
    if not isinstance(text, str):
        return "?"
    for line in text[:MAX_DATA].splitlines():
        if line.startswith("id = "):
            return line.removeprefix("id = ").strip('"')
    return "?"


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


def _shown(value: object) -> str:
    """A stored value or a path as an error quotes it (a path may be long and still be worth reading)."""
    return quoted(value, limit=120)


def _reason(error: BaseException) -> str:
    """What went wrong, in one line: the driver's own words, without SQLAlchemy's statement and link."""
    text = " ".join(str(error).split())
    for tail in (" [SQL:", " (Background on this error"):
        text = text.split(tail, 1)[0]
    return text[:300]
