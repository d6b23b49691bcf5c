"""The hash chain that seals a game's record: each entry holds the digest of everything before it.

A game's setup has a digest; each entry's digest is SHA-256 over the digest before it (the setup's, for the
first entry) and the entry's own number, time and stored text. The record keeps every entry's digest and, with
the game, the number of entries and the last digest (the head). Recomputing the chain on load therefore
finds, whatever the database and however it was damaged, an entry that is missing, out of order or altered,
a setup that was changed, and entries lost from the end; the first entry that does not follow is named.

>>> setup = setup_digest({"format": "hazard-game/2", "label": "club night"})
>>> at, data = "2026-12-01T12:00:00+00:00", '{"action": {"type": "pass-dice"}}'
>>> first = entry_digest(setup, 1, at, data)
>>> len(first), first == entry_digest(setup, 2, at, data)
(64, False)
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping

__all__ = ["DIGEST_LENGTH", "entry_digest", "setup_digest"]

DIGEST_LENGTH = 64
"""A digest's length: SHA-256 in lowercase hex."""


def setup_digest(setup: Mapping[str, object]) -> str:
    """The digest of a game's setup: its stored fields (texts and numbers), whatever their order."""
    text = json.dumps(dict(setup), sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def entry_digest(previous: str, seq: int, at: str, data: str) -> str:
    """The digest of entry ``seq``, written ``at`` with stored text ``data``, after digest ``previous``."""
    # A JSON array keeps the four parts apart: no text can be shifted from one part into the next.
    text = json.dumps([previous, seq, at, data], ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()
