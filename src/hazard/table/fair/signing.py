"""The server's signature on each reveal: Ed25519 over the record's chain head at the reveal.

When a hand ends its seed is revealed in an entry of the record, and that entry's digest (the chain head
then, :mod:`hazard.table.record.chain`) seals everything before it: the setup, every action, every throw. The
server signs, with its Ed25519 key (:mod:`hazard.table.fair.serverkeys`: never in the database), the text

    hazard reveal/1 game G hand H entry S digest D

(UTF-8; ``D`` the entry's digest in lowercase hex), and keeps the signature beside the entry (a signature is
public: every process serving the record serves it). An export carries each signature with its reveal and
the public key; ``hazard verify`` recomputes the chain and checks each signature, so a record rebuilt whole,
its chain recomputed, fails without the server's private key.

>>> signer = RevealSigner(bytes(32))
>>> signature = signer.sign(1, 2, 9, "ab" * 32)
>>> good, moved = reveal_message(1, 2, 9, "ab" * 32), reveal_message(1, 3, 9, "ab" * 32)
>>> check_signature(signer.public_key, signature, good), check_signature(signer.public_key, signature, moved)
(True, False)
"""

from __future__ import annotations

import base64
import hashlib
from typing import TYPE_CHECKING

from hazard.core.errors import InvalidError

if TYPE_CHECKING:
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

__all__ = [
    "ALGORITHM",
    "RevealSigner",
    "check_signature",
    "fingerprint",
    "key_json",
    "public_key_from_text",
    "reveal_message",
]

ALGORITHM = "Ed25519"
PUBLIC_KEY_BYTES = 32
SIGNATURE_BYTES = 64


def reveal_message(game: int, hand: int, seq: int, digest: str) -> bytes:
    """What the server signs at the reveal of hand ``hand`` of game ``game``, in entry ``seq`` of digest
    ``digest``."""
    return f"hazard reveal/1 game {game} hand {hand} entry {seq} digest {digest}".encode()


def fingerprint(public_key: bytes) -> str:
    """A public key's fingerprint, to compare by eye: the first 32 hex digits of its SHA-256, in fours."""
    digest = hashlib.sha256(public_key).hexdigest()[:32]
    return ":".join(digest[i : i + 4] for i in range(0, 32, 4))


def key_json(public_key: bytes) -> dict[str, str]:
    """A public key as ``GET /api/key`` and exports give it."""
    return {
        "algorithm": ALGORITHM,
        "public_key": public_key.hex(),
        "public_key_base64": base64.b64encode(public_key).decode("ascii"),
        "fingerprint": fingerprint(public_key),
    }


class RevealSigner:
    """The server's Ed25519 key, from its 32-byte private seed: signs reveals."""

    def __init__(self, seed: bytes) -> None:
        from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
        from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

        self._key: Ed25519PrivateKey = Ed25519PrivateKey.from_private_bytes(seed)
        self.public_key = self._key.public_key().public_bytes(Encoding.Raw, PublicFormat.Raw)

    def sign(self, game: int, hand: int, seq: int, digest: str) -> str:
        """The signature (128 hex digits) of the reveal of ``hand`` in entry ``seq`` of digest ``digest``."""
        return self._key.sign(reveal_message(game, hand, seq, digest)).hex()


def check_signature(public_key: bytes, signature: str, message: bytes) -> bool:
    """Whether ``signature`` (hex) is ``public_key``'s over ``message`` (:func:`reveal_message`)."""
    from cryptography.exceptions import InvalidSignature
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

    try:
        raw = bytes.fromhex(signature)
        if len(raw) != SIGNATURE_BYTES:
            return False
        Ed25519PublicKey.from_public_bytes(public_key).verify(raw, message)
    except (InvalidSignature, ValueError):
        return False
    return True


def public_key_from_text(text: str, where: str) -> bytes:
    """An Ed25519 public key written as 64 hex digits, base64, or PEM; else one clear error naming
    ``where``."""
    text = text.strip()
    if text.startswith("-----BEGIN PUBLIC KEY-----"):
        from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey
        from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat, load_pem_public_key

        try:
            loaded = load_pem_public_key(text.encode("ascii", "replace"))
        except ValueError:
            loaded = None
        if not isinstance(loaded, Ed25519PublicKey):
            raise InvalidError(f"invalid public key in {where}: expected an Ed25519 public key in PEM")
        return loaded.public_bytes(Encoding.Raw, PublicFormat.Raw)
    raw = b""
    try:
        if len(text) == 2 * PUBLIC_KEY_BYTES:
            raw = bytes.fromhex(text)
        else:
            raw = base64.b64decode(text + "=" * (-len(text) % 4), validate=True)
    except ValueError:
        raw = b""
    if len(raw) != PUBLIC_KEY_BYTES:
        raise InvalidError(
            f"invalid public key in {where}: expected an Ed25519 public key: 64 hex digits, base64 of 32 "
            "bytes, or PEM"
        )
    return raw
