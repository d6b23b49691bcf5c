"""Sealing the fair dice's server seeds at rest: AES-256-GCM under a key the database never holds.

A hand's seed is kept in the record from its commitment until the hand ends, so that a game resumed later
can go on throwing. Kept in clear, a copy of the database (a backup, a replica, a read-only look at the
SQLite file) would predict every throw of the hand in play. So it is kept sealed:

    hz1:KEYID:BASE64URL(nonce ‖ ciphertext ‖ tag)

AES-256-GCM with a fresh 12-byte random nonce, over the 32 bytes of the seed, with the associated data
``hazard seed/1 game G hand H``: a sealed seed copied to another game or hand does not open. ``KEYID`` is
the first 8 hex digits of SHA-256 over a label and the key: it names which key sealed a seed (so a process
given another key says so plainly), and tells nothing of the key.

A record of the release before sealing keeps its seeds as 64 hex digits: they are read as they are, and
sealed when a writer next opens the record (:func:`is_sealed` tells the two apart).

``cryptography`` is imported here alone, when a seed is first sealed or opened.

>>> from hazard.table.fair.serverkeys import ServerKeys
>>> sealer = SeedSealer(bytes(32))
>>> sealed = sealer.seal(3, 1, bytes(range(32)))
>>> sealed.startswith("hz1:" + sealer.key_id + ":"), sealer.open(3, 1, sealed) == bytes(range(32))
(True, True)
>>> sealer.open(3, 2, sealed)
Traceback (most recent call last):
...
hazard.core.errors.InvalidError: the kept seed of game 3, hand 2 does not open with this process's seed-sealing key: it was altered, or moved from another game or hand
"""  # noqa: E501

from __future__ import annotations

import base64
import binascii
import hashlib
import secrets
from typing import TYPE_CHECKING

from hazard.core.errors import InvalidError

if TYPE_CHECKING:
    import sqlalchemy as sa
    from cryptography.hazmat.primitives.ciphers.aead import AESGCM

    from hazard.table.fair.serverkeys import ServerKeys

__all__ = ["PREFIX", "SeedSealer", "is_sealed", "key_id", "open_kept_seed", "seal_kept_seeds"]

PREFIX = "hz1"
"""The first field of a sealed seed: the scheme above, version 1."""
_NONCE = 12


def key_id(key: bytes) -> str:
    """A key's name in a sealed seed: 8 hex digits, which reveal nothing of the key."""
    return hashlib.sha256(b"hazard seed-sealing key id\n" + key).hexdigest()[:8]


def is_sealed(stored: str) -> bool:
    """Whether a kept seed is sealed (else it is a legacy seed in clear, 64 hex digits)."""
    return stored.startswith(PREFIX + ":")


def _associated(game: int, hand: int) -> bytes:
    return f"hazard seed/1 game {game} hand {hand}".encode()


class SeedSealer:
    """Seals and opens the seeds of one record's hands with one key (one AES-GCM operation each)."""

    def __init__(self, key: bytes) -> None:
        from cryptography.hazmat.primitives.ciphers.aead import AESGCM

        self._aead: AESGCM = AESGCM(key)
        self.key_id = key_id(key)

    def seal(self, game: int, hand: int, seed: bytes) -> str:
        """Hand ``hand`` of game ``game``'s seed as the record keeps it."""
        nonce = secrets.token_bytes(_NONCE)
        sealed = nonce + self._aead.encrypt(nonce, seed, _associated(game, hand))
        return f"{PREFIX}:{self.key_id}:{base64.urlsafe_b64encode(sealed).decode('ascii')}"

    def open(self, game: int, hand: int, stored: str) -> bytes:
        """The seed of a kept, sealed ``stored``; one clear :class:`InvalidError` where it does not open."""
        from cryptography.exceptions import InvalidTag

        where = f"the kept seed of game {game}, hand {hand}"
        parts = stored.split(":")
        if len(parts) != 3 or parts[0] != PREFIX:
            raise InvalidError(f"{where} is not a sealed seed ({PREFIX}:KEYID:DATA)")
        if parts[1] != self.key_id:
            raise InvalidError(
                f"{where} cannot be opened: the record's secrets were sealed with another key (key id "
                f"{parts[1]}; this process has {self.key_id}). Every process writing one record must be "
                "given the same HAZARD_SECRET_KEY (or key file): see docs/reliability.md"
            )
        try:
            sealed = base64.urlsafe_b64decode(parts[2].encode("ascii"))
            if len(sealed) <= _NONCE:
                raise ValueError("too short")
            return self._aead.decrypt(sealed[:_NONCE], sealed[_NONCE:], _associated(game, hand))
        except (InvalidTag, ValueError, binascii.Error, UnicodeEncodeError):
            raise InvalidError(
                f"{where} does not open with this process's seed-sealing key: it was altered, or moved "
                "from another game or hand"
            ) from None


def open_kept_seed(keys: ServerKeys, game: int, hand: int, found: object) -> bytes | None:
    """A kept seed as the record holds it, opened: sealed (with this process's key, else refused), or a
    legacy seed in clear (64 hex digits); None where it is neither (a record whose seed is lost: the session
    says so)."""
    if not isinstance(found, str):
        return None
    if is_sealed(found):
        return keys.sealer().open(game, hand, found)
    try:
        return bytes.fromhex(found) if len(found) == 64 else None
    except ValueError:
        return None


def seal_kept_seeds(connection: sa.Connection, table: sa.Table, keys: ServerKeys) -> None:
    """Seal, in the writing transaction that opens a record, the seeds a release before sealing kept in
    clear (it declared the column ``VARCHAR(64)``; this release declares it ``TEXT``, which marks a record
    whose seeds are all sealed, so a record is looked at once).

    The seeds are copied, sealed, into a new table, and the old one is dropped, its pages zeroed on SQLite
    (``secure_delete``) and its files removed on PostgreSQL, so no copy of the clear seeds is left in the
    database (a PostgreSQL server's write-ahead log keeps them until it is recycled: docs/reliability.md)."""
    import sqlalchemy as sa

    column = next(c for c in sa.inspect(connection).get_columns(table.name) if c["name"] == "seed")
    if getattr(column["type"], "length", None) is None:
        return
    rows = connection.execute(sa.select(table.c.game, table.c.hand, table.c.seed)).all()
    sealer = keys.sealer() if rows else None
    if connection.dialect.name == "sqlite":
        connection.exec_driver_sql("PRAGMA secure_delete = ON")
    metadata = sa.MetaData()
    for referred in table.foreign_keys:  # the table it refers to, so that the copy's key refers to it too
        referred.column.table.to_metadata(metadata)
    draft = table.to_metadata(metadata, name=f"{table.name}_sealing")
    draft.create(connection)
    for game, hand, seed in rows:
        assert sealer is not None
        opened = open_kept_seed(keys, int(game), int(hand), seed)
        if opened is not None:  # a lost seed stays lost: the game says so when resumed
            connection.execute(
                draft.insert().values(game=game, hand=hand, seed=sealer.seal(game, hand, opened))
            )
    connection.exec_driver_sql(f"DROP TABLE {table.name}")
    connection.exec_driver_sql(f"ALTER TABLE {draft.name} RENAME TO {table.name}")
