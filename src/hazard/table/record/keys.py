"""Keys to a game played from afar: each seat token, and each late arrival's claim code, is of one seating.

A seating is one player's time at the table, from the entry that seats him to the one that takes him away;
its identity is the number of the entry that seated him (:attr:`hazard.table.rules.state.Player.seating`). A
token belongs to a seating, not to a name: a player who leaves and sits again, or a newcomer who takes the
name of one who left, holds another seating, and no key of the old one acts for him. The record keeps only
the SHA-256 of a token or code (never the thing itself), with the seating it opens:

- ``hazard_seats``: a seat's (or the host's) token, written with the entry that seats the player, and
  deleted with the entry that takes him away (a leave, or the host's removal). Whether a key still opens a
  seat is decided by the table, not by this table: :meth:`hazard.table.live.session.Session.act` refuses a key
  whose seating is not the one the player holds now, so a process with a stale cache of keys refuses it too.
- ``hazard_claims``: a late arrival's claim code, which the host hands on as a link. It is spent once (a
  compare-and-set in the transaction that writes the fresh seat token it is exchanged for), and dies at its
  expiry or with the seating.

A record written before seatings holds seat rows with no seating: the first time it is opened for writing
(:func:`upgrade`), each is given the seating its player holds at that moment (the last sit of that name not
followed by a leave), or 0, which opens nothing, where the player has left.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING, Any

from hazard.core.errors import HazardError
from hazard.table.rules.actions import Actor, ActorError, Leave, Sit
from hazard.table.rules.actors import SeatKey
from hazard.table.rules.entries import Entry, effective_actions, entry_from_json
from hazard.table.rules.state import Table

if TYPE_CHECKING:
    import sqlalchemy as sa

__all__ = [
    "ClaimError",
    "ClaimState",
    "GivenClaim",
    "SeatKey",
    "check_seating",
    "claims_table",
    "entry_keys",
    "expiry",
    "holds",
    "request_key",
    "seatings_by_name",
]

SEATING = "seating"
"""The column of ``hazard_seats`` that a record written before seatings lacks."""


class ClaimError(ActorError):
    """A claim code that opens nothing: never given, spent already, expired, or of a seat that is gone."""


@dataclass(frozen=True, slots=True)
class ClaimState:
    """What a claim code would hand over now, read without spending it (for the page that offers it)."""

    player: str
    expires: str


@dataclass(frozen=True, slots=True)
class GivenClaim:
    """A late arrival's claim link as the host's panel lists it: never its code, which the record keeps only
    as a digest (the host saw the link once, when the seat was made)."""

    player: str
    expires: str
    spent: bool


def given_claims(connection: sa.Connection, claims: sa.Table, game: int) -> list[GivenClaim]:
    """The claim codes of game ``game`` whose seatings go on (a leave deletes a seating's codes), oldest
    seating first."""
    import sqlalchemy as sa

    rows = connection.execute(
        sa.select(claims.c.player, claims.c.expires, claims.c.spent)
        .where(claims.c.game == game)
        .order_by(claims.c[SEATING], claims.c.expires)
    ).all()
    return [GivenClaim(str(player), str(expires), spent is not None) for player, expires, spent in rows]


def check_seating(table: Table, by: Actor, seating: int) -> None:
    """Refuse a key to seating ``seating`` (the number of the entry that seated its player) unless ``by``
    holds that seating now, at ``table``: a key dies with its seat, whatever a server remembers of it."""
    name = by.name
    seated = None if name is None else next((p for p in table.players if p.name == name), None)
    if seated is not None and seating >= 1 and seated.seating == seating:
        return
    what = f"illegal action by {by}"
    if seated is None:
        raise ActorError(f"{what}: that key was to a seat that has been left; {by} is not at the table")
    raise ActorError(
        f"{what}: that key was to the seat {by} took at entry {seating}, which was left; the {by} at the "
        f"table now sat down at entry {seated.seating}, and holds a key of his own"
    )


def holds(table: Table, holder: SeatKey) -> bool:
    """Whether ``holder`` is a player who sits at ``table`` now, in the seating his key opens."""
    if holder.player is None:
        return False
    try:
        check_seating(table, Actor.player(holder.player), holder.seating or 0)
    except ActorError:
        return False
    return True


def request_key(holder: SeatKey, client: str | None) -> str | None:
    """What the record keeps of a client's own number for an action: the SHA-256 of the seating (or the
    host) that sent it and the number, so that two seatings that both number their actions 1, 2, 3 ...
    (two players, or a newcomer who took the name of one who left) never answer for each other."""
    if client is None:
        return None
    who = "host" if holder.player is None else f"seating {holder.seating}"
    return hashlib.sha256(f"{who}\x00{client}".encode()).hexdigest()


def expiry(seconds: float, now: datetime | None = None) -> str:
    """The moment ``seconds`` from now, as the record keeps times (UTC, to the second: ordered as text)."""
    moment = (now or datetime.now(UTC)) + timedelta(seconds=seconds)
    return moment.isoformat(timespec="seconds")


def now_text() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


def claims_table(metadata: sa.MetaData) -> sa.Table:
    """The late arrivals' claim codes: the SHA-256 of each, its seating and player, its expiry, when spent."""
    import sqlalchemy as sa

    return sa.Table(
        "hazard_claims",
        metadata,
        sa.Column("game", sa.Integer, sa.ForeignKey("hazard_games.id"), primary_key=True),
        sa.Column("digest", sa.String(64), primary_key=True),
        sa.Column("player", sa.String(200), nullable=False),
        sa.Column(SEATING, sa.Integer, nullable=False),
        sa.Column("expires", sa.String(40), nullable=False),
        sa.Column("spent", sa.String(40), nullable=True),
    )


# --- written with an entry ----------------------------------------------------------------------------


def add_key(
    connection: sa.Connection, seats: sa.Table, game: int, key: tuple[str, str], seating: int
) -> None:
    """The key (token digest, player) to the seating that entry ``seating`` makes."""
    digest, player = key
    connection.execute(seats.insert().values(game=game, digest=digest, player=player, seating=seating))


def add_claim(
    connection: sa.Connection, claims: sa.Table, game: int, claim: tuple[str, str, str], seating: int
) -> None:
    """A claim code (digest, player, expiry) to the seating that entry ``seating`` makes."""
    digest, player, expires = claim
    connection.execute(
        claims.insert().values(game=game, digest=digest, player=player, seating=seating, expires=expires)
    )


def revoke(connection: sa.Connection, seats: sa.Table, claims: sa.Table, game: int, seating: int) -> None:
    """Every key and claim code of a seating that ends (written with the entry that ends it)."""
    connection.execute(seats.delete().where(seats.c.game == game, seats.c[SEATING] == seating))
    connection.execute(claims.delete().where(claims.c.game == game, claims.c[SEATING] == seating))


# --- read and spent -----------------------------------------------------------------------------------


def holder(connection: sa.Connection, seats: sa.Table, game: int, digest: str) -> SeatKey | None:
    """Whose key of SHA-256 ``digest`` is in game ``game``."""
    import sqlalchemy as sa

    found = connection.execute(
        sa.select(seats.c.player, seats.c[SEATING]).where(seats.c.game == game, seats.c.digest == digest)
    ).first()
    if found is None:
        return None
    if found[0] is None:
        return SeatKey(None)
    seating = found[1]
    return SeatKey(str(found[0]), seating if isinstance(seating, int) and seating > 0 else 0)


def peek(connection: sa.Connection, claims: sa.Table, game: int, digest: str) -> ClaimState:
    """What claim code ``digest`` would hand over now; a :class:`ClaimError` saying why not."""
    return _claim_row(connection, claims, game, digest, now_text())[0]


def spend(
    connection: sa.Connection, seats: sa.Table, claims: sa.Table, game: int, *, digest: str, token: str
) -> SeatKey:
    """Spend claim code ``digest`` for the seat token of SHA-256 ``token``, in the caller's transaction: of
    two exchanges at once (on any server), one spends it and the other is refused."""
    now = now_text()
    state, seating = _claim_row(connection, claims, game, digest, now)
    spent = connection.execute(
        claims.update()
        .where(
            claims.c.game == game,
            claims.c.digest == digest,
            claims.c.spent.is_(None),
            claims.c.expires > now,
        )
        .values(spent=now)
    )
    if spent.rowcount != 1:
        raise ClaimError(f"illegal claim at table {game}: {_USED}")
    connection.execute(seats.insert().values(game=game, digest=token, player=state.player, seating=seating))
    return SeatKey(state.player, seating)


_USED = "that link has been used already: a claim link hands its seat to one browser, once; ask the host"


def _claim_row(
    connection: sa.Connection, claims: sa.Table, game: int, digest: str, now: str
) -> tuple[ClaimState, int]:
    import sqlalchemy as sa

    found = connection.execute(
        sa.select(claims.c.player, claims.c[SEATING], claims.c.expires, claims.c.spent).where(
            claims.c.game == game, claims.c.digest == digest
        )
    ).first()
    if found is None:
        raise ClaimError(
            f"illegal claim at table {game}: that link holds no seat of this table (it was never given, or "
            "its player has left)"
        )
    player, seating, expires, spent = found
    if spent is not None:
        raise ClaimError(f"illegal claim at table {game}: {_USED}")
    if str(expires) <= now:
        raise ClaimError(
            f"illegal claim at table {game}: that link expired at {expires}; ask the host for a new one"
        )
    return ClaimState(str(player), str(expires)), int(seating)


# --- a record written before seatings ---------------------------------------------------------------


def seatings_by_name(entries: list[Entry]) -> dict[str, int]:
    """Each seated player's seating (by his name, casefolded) once ``entries`` stand: the entry of the last
    sit of that name that no leave has followed."""
    try:
        actions = effective_actions(entries)
    except HazardError:  # a correction that does not stand: the game is refused when it is loaded
        return {}
    seated: dict[str, int] = {}
    for seq, _, action in actions:
        if isinstance(action, Sit):
            seated[action.name.casefold()] = seq
        elif isinstance(action, Leave):
            seated.pop(action.player.casefold(), None)
    return seated


def upgrade(connection: sa.Connection, seats: sa.Table, entries: sa.Table) -> None:
    """Give the seat rows of a record written before seatings (no ``seating`` column) their seating: the one
    each player holds now, or 0 (opens nothing) where he has left. In the opening transaction, once."""
    import sqlalchemy as sa

    if _has_seating(connection, seats):
        return
    connection.exec_driver_sql(f"ALTER TABLE {seats.name} ADD COLUMN {SEATING} INTEGER")
    rows = connection.execute(
        sa.select(seats.c.game, seats.c.digest, seats.c.player).where(seats.c.player.is_not(None))
    ).all()
    by_game: dict[int, list[tuple[str, str]]] = {}
    for game, digest, player in rows:
        by_game.setdefault(int(game), []).append((str(digest), str(player)))
    for game, keys in by_game.items():
        lines = connection.execute(
            sa.select(entries.c.seq, entries.c.at, entries.c.data)
            .where(entries.c.game == game)
            .order_by(entries.c.seq)
        ).all()
        seated = seatings_by_name(_entries(lines))
        for digest, player in keys:
            connection.execute(
                seats.update()
                .where(seats.c.game == game, seats.c.digest == digest)
                .values({SEATING: seated.get(player.casefold(), 0)})
            )


def _entries(lines: Sequence[Any]) -> list[Entry]:
    """Stored lines read back as entries, as far as they read (a corrupt game is refused when loaded)."""
    read = []
    for seq, at, data in lines:
        try:
            actor, item = entry_from_json(json.loads(data))
        except (ValueError, TypeError, RecursionError, HazardError):
            break
        read.append(Entry(int(seq), str(at), actor, item))
    return read


def _has_seating(connection: sa.Connection, seats: sa.Table) -> bool:
    import sqlalchemy as sa

    inspector = sa.inspect(connection)
    if not inspector.has_table(seats.name):
        return True  # made with this release's columns by the opening transaction
    return any(column["name"] == SEATING for column in inspector.get_columns(seats.name))


def entry_keys(
    connection: sa.Connection,
    seats: sa.Table,
    claims: sa.Table,
    game: int,
    seq: int,
    *,
    key: tuple[str, str] | None,
    claim: tuple[str, str, str] | None,
    ended: int | None,
) -> None:
    """What entry ``seq`` does to the seats' keys, in its transaction: the key or claim code a sit gives, the
    keys and codes of the seating a leave ends (``ended``)."""
    if key is not None:
        add_key(connection, seats, game, key, seq)
    if claim is not None:
        add_claim(connection, claims, game, claim, seq)
    if ended is not None:
        revoke(connection, seats, claims, game, ended)
