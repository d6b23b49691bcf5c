"""The game record's store: an append-only log of a game's entries in a database, sealed by a hash chain.

Every entry is written, and committed, before the table moves on, so a game stopped at any moment (even by
``kill -9``) resumes exactly. Nothing is ever updated or deleted; only the game's head (how many entries it
holds, and the last one's digest) moves on with each entry, in the same transaction. (A server may commit the
writes of many tables together, in one :meth:`GameStore.batch`; it tells nobody of them until the batch has
committed.) The store knows no rule of the game: it returns a game's setup and entries, and the table replays
them (:func:`hazard.table.live.timeline.load_game`).

- **One writer order.** An append names the entry number it expects; the head is moved on only from that
  entry's predecessor (a compare-and-set in the writing transaction), so of two sessions writing from the same
  table one is refused, told so, and nothing is written from a stale table.
- **Sealed.** Each entry holds the digest of the record before it (:mod:`hazard.table.record.chain`); a load
  recomputes the chain and refuses a game with a missing, reordered or altered entry, a changed setup or lost
  last entries, naming the first that does not follow, whatever the database.
- **Reading never writes.** Opened for reading, an SQLite record is opened read-only: no tables are made,
  nothing is upgraded.

The schema is :mod:`hazard.table.record.schema`, the engines :mod:`hazard.table.record.engine`, reading a game
back :mod:`hazard.table.record.load`, older releases :mod:`hazard.table.record.legacy`, and the wake-up of
other processes ``hazard.table.record.notify``.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from datetime import UTC, datetime
from functools import partial
from typing import TYPE_CHECKING, Any

from hazard.core.errors import HazardError, IllegalError, InvalidError
from hazard.core.paytable import Paytable
from hazard.core.rules import Ruleset, StakeArrangement
from hazard.core.rulesets import paytable_to_toml, ruleset_to_toml
from hazard.extras import MissingExtra
from hazard.table.fair.commit_reveal import FairNote, Revealed
from hazard.table.fair.dice import DiceKind
from hazard.table.fair.sealing import open_kept_seed
from hazard.table.fair.serverkeys import ServerKeys
from hazard.table.fair.signing import RevealSigner
from hazard.table.record import keys as seat_keys
from hazard.table.record.chain import entry_digest, setup_digest
from hazard.table.record.driver import fetch_one, run
from hazard.table.record.engine import Access, as_url, begin, failed, make_engine, reason, shown
from hazard.table.record.keys import SeatKey
from hazard.table.record.legacy import upgraded
from hazard.table.record.load import GameSummary, StoredGame, closed_games, read_after, read_game, summaries
from hazard.table.record.notify import CHANNEL, listen
from hazard.table.record.schema import Layout, check_game_number, tables
from hazard.table.record.sqlite_file import Recovery
from hazard.table.rules.actions import Actor, Sit, TableAction
from hazard.table.rules.closing import Close
from hazard.table.rules.entries import FORMAT, Correction, Entry, GameInfo, GameKind, entry_to_json

if TYPE_CHECKING:
    import sqlalchemy as sa

__all__ = ["GameStore", "StaleError", "StoredGame"]

WITH_HEADS = frozenset({Layout.CHAINED, Layout.HEAD_IN_GAME})
"""The layouts whose games have heads (this release's, and a record read as an older release left it)."""


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
        self, engine: sa.Engine, url: str, layout: Layout, access: Access, keys: ServerKeys | None = None
    ) -> None:
        self._engine = engine
        self._layout = layout
        self._access = access
        self.url = url
        self.recovery: Recovery | None = None
        """A killed writer's journal that opening to read rolled back
        (``hazard.table.record.sqlite_file``)."""
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
        seed-sealing and reveal-signing keys are (default: ``ServerKeys.from_environment``); a writer
        seals, as it opens, any seed a release before sealing kept in clear.
        """
        keys = keys or ServerKeys.from_environment()
        import sqlalchemy as sa
        from sqlalchemy.exc import ArgumentError, SQLAlchemyError

        url = as_url(url)
        try:
            sa.engine.make_url(url)
        except ArgumentError as error:
            raise InvalidError(f"cannot open the game record {shown(url)}: {reason(error)}") from None
        recovery, opened = None, False
        try:
            engine, recovery = make_engine(url, access=access, in_memory=in_memory)
            layout = upgraded(engine, access, keys)
            opened = True
        except HazardError as error:
            if str(error).startswith("cannot open") or isinstance(error, MissingExtra):
                raise
            raise InvalidError(f"cannot open the game record {shown(url)}: {error}") from None
        except (SQLAlchemyError, ValueError, ImportError, OSError) as error:
            raise InvalidError(f"cannot open the game record {shown(url)}: {reason(error)}") from None
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
        created = now()
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
        schema = tables()
        sealer = self.keys.sealer() if secrets else None  # read before the transaction: it may be refused
        with self._write() as connection:
            result = connection.execute(schema.games.insert().values(**row))
            key = result.inserted_primary_key
            assert key is not None
            game = int(key[0])
            seated: dict[str, int] = {}
            for seq, (actor, action) in enumerate(entries, start=1):
                if isinstance(action, Sit):
                    seated[action.name] = seq
                data = entry_data(actor, action)
                head = entry_digest(head, seq, created, data)
                connection.execute(
                    schema.entries.insert().values(game=game, seq=seq, at=created, data=data, digest=head)
                )
                written = seq
            connection.execute(schema.heads.insert().values(game=game, entries=written, head=head))
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
        it checked the entry against (a :class:`~hazard.table.live.session.Session` always gives it). Where
        another writer has written since, the append is refused with a :class:`StaleError` and nothing is
        written: the game's head moves on only from the entry before ``seq``, checked and moved in the
        transaction that writes. Without ``seq`` the entry goes after whatever is there: for tools that write
        a record without a table (an import), never for a game in play.

        ``secret`` is a fair hand's number and server seed, kept sealed (in the same transaction) where only
        :meth:`secret` reads it: for the entry that commits to it. A reveal is signed with the server's key,
        the signature kept with it (``hazard.table.fair.signing``). ``key`` is the digest of a seat's token
        and the player it seats, kept with the entry that seats him, as the key to that seating (this entry's
        number); ``claim`` a claim code's digest, player and expiry, kept the same way (:meth:`claim`);
        ``revoke`` a seating this entry ends, whose keys and claim codes go with it; ``request`` the client's
        own number for the action, kept with the entry that makes it (:meth:`requests`).
        """
        import sqlalchemy as sa
        from sqlalchemy.exc import IntegrityError

        self._writable()
        schema = tables()
        data = entry_data(actor, item)
        at = now()
        # Sealed and signer read before the transaction: a key refused leaves nothing half-written in a batch.
        sealed = None if secret is None else (secret[0], self.keys.sealer().seal(game, *secret))
        signer = self.keys.signer() if isinstance(item, Revealed) else None
        try:
            with self._joined() as connection:
                found = fetch_one(connection, schema.head_of, {"game_id": game})
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
                signed = signed_row(signer, game, item, seq, digest)
                moved = {
                    "game_id": game,
                    "last": last,
                    "old_head": head,
                    "new_entries": seq,
                    "new_head": digest,
                }
                if run(connection, schema.move_head, moved) != 1:  # another writer moved it since our read
                    raise StaleError(game, seq, last + 1)
                written = {"game": game, "seq": seq, "at": at, "data": data, "digest": digest}
                run(connection, schema.add_entry, written)
                if sealed is not None:
                    connection.execute(
                        schema.secrets.insert().values(game=game, hand=sealed[0], seed=sealed[1])
                    )
                if signed is not None:
                    connection.execute(schema.signatures.insert().values(game=game, seq=seq, **signed))
                seat_keys.entry_keys(
                    connection, schema.seats, schema.claims, game, seq, key=key, claim=claim, ended=revoke
                )
                if request is not None:
                    run(connection, schema.add_request, {"game": game, "client": request, "seq": seq})
                if connection.dialect.name == "postgresql":  # delivered at commit, to every listener
                    run(connection, schema.notify, {"channel": CHANNEL, "payload": f"{game}:{seq}"})
        except IntegrityError:  # the entry's number (or the request's) is taken: another writer was first
            raise StaleError(game, seq or 1, seq or 1) from None
        except sa.exc.SQLAlchemyError as error:
            raise failed("write to", self.url, error) from None
        return Entry(seq, at, actor, item)

    def secret(self, game: int, hand: int) -> bytes | None:
        """The server seed of a fair hand, kept sealed since its commitment, opened (None if the record has
        none): for the session that throws its dice, and nothing that shows a game. A seed sealed with
        another key than this process's is refused, saying so; a legacy seed kept in clear is read as it
        is."""
        import sqlalchemy as sa

        secrets = tables().secrets
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

        signatures = tables().signatures
        if not self._has(connection, signatures):
            return {}
        rows = connection.execute(
            sa.select(
                signatures.c.seq, signatures.c.hand, signatures.c.public_key, signatures.c.signature
            ).where(signatures.c.game == game)
        ).all()
        return {int(seq): (int(hand), str(key), str(value)) for seq, hand, key, value in rows}

    def holder(self, game: int, digest: str) -> SeatKey | None:
        """Whose is the token of SHA-256 ``digest`` in game ``game``: a player's seating, the host's, or
        nobody's. (Whether the seating is the player's still, the table says: a key of a seating that has
        ended is deleted with the entry that ends it, but a server may have read it before.)"""
        seats = tables().seats
        with self._read() as connection:
            if not self._has(connection, seats):
                return None
            return seat_keys.holder(connection, seats, game, digest)

    def claim_state(self, game: int, digest: str) -> seat_keys.ClaimState:
        """What the claim code of SHA-256 ``digest`` would hand over now, without spending it; a
        :class:`~hazard.table.record.keys.ClaimError` saying why it hands over nothing."""
        claims = tables().claims
        with self._read() as connection:
            if not self._has(connection, claims):
                raise seat_keys.ClaimError(f"illegal claim at table {game}: that link holds no seat")
            return seat_keys.peek(connection, claims, game, digest)

    def given_claims(self, game: int) -> list[seat_keys.GivenClaim]:
        """Game ``game``'s late arrivals' claim links whose seats remain: whose, until when, whether used."""
        claims = tables().claims
        with self._read() as connection:
            return seat_keys.given_claims(connection, claims, game) if self._has(connection, claims) else []

    def claim(self, game: int, digest: str, token: str) -> SeatKey:
        """Spend the claim code of SHA-256 ``digest`` for a seat token of SHA-256 ``token``, in one
        transaction: once, on whichever server asks first; a :class:`~hazard.table.record.keys.ClaimError`
        after."""
        self._writable()
        schema = tables()
        with self._write() as connection:
            return seat_keys.spend(connection, schema.seats, schema.claims, game, digest=digest, token=token)

    def listen(self, woken: Callable[[int, int], None]) -> Callable[[], None] | None:
        """Call ``woken(game, seq)`` (from a thread of its own) whenever a writer commits entry ``seq`` of a
        game, this process included; returns the function that stops listening. Only PostgreSQL tells its
        writers (LISTEN/NOTIFY, ``hazard.table.record.notify``); for another database this returns None,
        and a watcher polls :meth:`heads` instead."""
        return listen(self.url, woken)

    def requests(self, game: int) -> dict[str, int]:
        """Every client's number of an action made in game ``game``, with the entry it made (for a server
        that keeps them, and reads them again whenever another writer has moved the game on)."""
        import sqlalchemy as sa

        requests = tables().requests
        with self._read() as connection:
            if not self._has(connection, requests):
                return {}
            rows = connection.execute(
                sa.select(requests.c.client, requests.c.seq).where(requests.c.game == game)
            ).all()
        return {str(client): int(seq) for client, seq in rows}

    def closed(self) -> frozenset[int]:
        """The games whose table is closed: those whose last entry is a close
        (``hazard.table.rules.closing``), and those an older record closed beside the chain (its
        ``hazard_closed`` table)."""
        if self._layout is Layout.EMPTY:
            return frozenset()
        with self._read() as connection:
            return frozenset(closed_games(connection, self._layout, has=partial(self._has, connection)))

    def heads(self, games: Sequence[int]) -> dict[int, int]:
        """How many entries each of ``games`` has now: one cheap read, for a watcher of other writers."""
        import sqlalchemy as sa

        if not games or self._layout not in WITH_HEADS:
            return {}
        place = tables().head_place(self._layout)
        with self._read() as connection:
            rows = connection.execute(
                sa.select(place.game, place.entries).where(place.game.in_(list(games)))
            ).all()
        return {int(game): int(count) for game, count in rows}

    def head(self, game: int) -> int | None:
        """How many entries game ``game`` has now (None: no such game): the one cheap read, by a statement
        built once, that a server makes before it answers from its own copy of a table."""
        if self._layout not in WITH_HEADS:
            return None
        with self._read() as connection:
            found = connection.execute(tables().head_place(self._layout).of, {"game_id": game}).first()
        return None if found is None else int(found[0])

    def games(self) -> list[GameSummary]:
        """Every game, newest first."""
        if self._layout is Layout.EMPTY:
            return []
        with self._read() as connection:
            return summaries(connection, self._layout)

    def latest(self, kind: GameKind) -> int:
        """The newest game of ``kind``; an :class:`IllegalError` if there is none."""
        for summary in self.games():
            if summary.kind is kind:
                return summary.id
        raise IllegalError(f"illegal game: the record at {self.url!r} holds no {kind.label} game to resume")

    def load(self, game: int) -> StoredGame:
        """Read a game's setup and whole record and check its chain (the table replays it:
        :func:`~hazard.table.live.timeline.load_game`); an :class:`InvalidError` if any of it is wrong, naming
        the first entry that is."""
        check_game_number(game)
        if self._layout is Layout.EMPTY:
            raise IllegalError(f"illegal game {game}: the record at {self.url!r} has no such game")
        with self._read() as connection:  # one transaction: the head and the entries are of one moment
            return read_game(
                connection,
                self._layout,
                game,
                self.url,
                has=partial(self._has, connection),
                signatures=partial(self._signatures, connection, game),
            )

    def entries_after(
        self, game: int, seq: int, *, proof: list[tuple[str, str]] | None = None
    ) -> list[Entry]:
        """The entries of game ``game`` after entry ``seq``, for a session that has the first ``seq``: read in
        one transaction, each checked to follow, digest by digest, from entry ``seq`` to the game's head (a
        session catching up with another writer reads what is new, not the whole game). ``proof``, where
        given, is extended with each new entry's stored text and digest."""
        check_game_number(game)
        if seq < 1:
            raise InvalidError("a session always has its game's setup: read the whole game with load()")
        if self._layout not in WITH_HEADS:
            raise InvalidError(f"cannot read entries after {seq} of game {game}: the record is not chained")
        with self._read() as connection:
            read, stored = read_after(connection, self._layout, game, seq, self.url)
        if proof is not None:
            proof.extend(stored)
        return read

    def _has(self, connection: sa.Connection, table: sa.Table) -> bool:
        """Whether ``table`` is there: a record opened for writing has every table of this release."""
        import sqlalchemy as sa

        return self._access is not Access.READ or sa.inspect(connection).has_table(table.name)

    def _writable(self) -> None:
        if self._access is Access.READ or self._layout is not Layout.CHAINED:
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
            with begin(self._engine) as connection:
                self._batches.connection = connection
                self._batches.broken = None
                try:
                    yield
                    broken = self._batches.broken
                    if broken is not None:
                        raise failed("write to", self.url, broken)
                finally:
                    self._batches.connection = None
                    self._batches.broken = None
        except SQLAlchemyError as error:
            raise failed("write to", self.url, error) from None

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
            with begin(self._engine) as connection:
                yield connection
            return
        if self._batches.broken is not None:
            raise failed("write to", self.url, self._batches.broken)
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
            raise failed("write to", self.url, error) from None

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
            raise failed("read", self.url, error) from None


def signed_row(
    signer: RevealSigner | None, game: int, item: object, seq: int, digest: str
) -> dict[str, object] | None:
    """The signature row of a reveal entry (None for any other entry)."""
    if signer is None or not isinstance(item, Revealed):
        return None
    signature = signer.sign(game, item.hand, seq, digest)
    return {"hand": item.hand, "public_key": signer.public_key.hex(), "signature": signature}


def entry_data(actor: Actor, item: TableAction | Correction | FairNote | Close) -> str:
    return json.dumps(entry_to_json(actor, item), sort_keys=True)


def now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")
