"""Whether an export is the server's record: its hash chain recomputed from it, its signatures checked.

An export (:func:`hazard.table.game_json` of a game loaded from the record) carries the record's seal:

- ``"chain"``: the setup as the record stores it (every field the setup digest covers), that digest, the
  number of entries and the head (the last entry's digest), as :mod:`hazard.table.record.chain` defines them;
- each entry's ``"stored"`` text (what the record holds, and what its digest covers) and ``"digest"``;
- each signed reveal's ``"signature"`` (:mod:`hazard.table.fair.signing`), and ``"signing"``: the public key.

:func:`check_provenance` recomputes the chain from the setup to the head, checks that what each entry shows
is what it stored, and checks every signature against the export's key, or against a key the user pins (the
key the server publishes at ``GET /api/key``). The export's own key proves only that the export is
consistent: anyone who rebuilds a record whole can sign it with a key of his own. Only a key compared with
the server's says that the server signed it.

An export written before the seal (no ``"chain"``) is not refused: its dice can still be checked, and the
verdict says plainly that nothing shows it is the server's record.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, NoReturn

from hazard.core.errors import InvalidError, quoted
from hazard.table.fair.signing import (
    check_signature,
    fingerprint,
    key_json,
    public_key_from_text,
    reveal_message,
)
from hazard.table.record.chain import DIGEST_LENGTH, entry_digest, setup_digest

__all__ = ["Provenance", "RecordProof", "check_provenance", "proof_json"]

_REFEREE = {"kind": "referee"}
_SAME_AS_SETUP = ("format", "created", "label", "kind", "stakes", "dice", "seed")
"""The fields of an export's ``"game"`` that are the stored setup's, as they are."""


@dataclass(frozen=True)
class RecordProof:
    """What the record holds to seal a game, as :meth:`GameStore.load` reads it: the stored setup, its digest,
    the head, each entry's stored text and digest, and the signature on each signed reveal."""

    setup: Mapping[str, object]
    setup_digest: str
    head: str
    stored: tuple[tuple[str, str], ...]
    """Each entry's (stored text, digest), in order."""
    signatures: Mapping[int, tuple[int, str, str]] = field(default_factory=dict)
    """Reveal entry number -> (hand, public key hex, signature hex)."""


def proof_json(proof: RecordProof) -> tuple[dict[str, Any], dict[str, str] | None]:
    """The export's ``"chain"`` and ``"signing"`` (None where no reveal is signed: the key of its latest
    signature otherwise)."""
    chain = {
        "setup": dict(proof.setup),
        "setup_digest": proof.setup_digest,
        "entries": len(proof.stored),
        "head": proof.head,
    }
    if not proof.signatures:
        return chain, None
    latest = proof.signatures[max(proof.signatures)]
    return chain, key_json(bytes.fromhex(latest[1]))


@dataclass(frozen=True, slots=True)
class Provenance:
    """What :func:`check_provenance` found."""

    chained: bool
    """Whether the export carries the record's chain (an export of an older release does not)."""
    entries: int = 0
    head: str = ""
    signed: tuple[tuple[int, int], ...] = ()
    """Each signature verified: (hand, reveal entry)."""
    key: bytes | None = None
    """The key the signatures were checked against."""
    pinned: bool = False
    """Whether that key is one the user gave (else the export's own)."""
    problem: str | None = None

    @property
    def ok(self) -> bool:
        return self.problem is None

    def lines(self) -> list[str]:
        """What ``hazard verify`` prints of it: one line, and a warning where it proves less than it may
        seem to."""
        if not self.chained:
            return [
                "warning: this export carries no chain digests and no signatures (written before hazard "
                "sealed its exports, or stripped of them): the dice are checked against their seeds, but "
                "nothing shows that it is the server's record rather than one rebuilt whole"
            ]
        if self.problem is not None:
            return []
        line = (
            f"record: the setup and {self.entries} entries follow, digest by digest, to the head {self.head}"
        )
        if not self.signed:
            return [
                line + "; no reveal is signed",
                "warning: nothing in this export is signed by the server: its chain shows only that it is "
                "consistent, not that it is the server's record",
            ]
        assert self.key is not None
        whose = "the key you gave" if self.pinned else "the export's own key"
        reveals = f"{len(self.signed)} reveal{'' if len(self.signed) == 1 else 's'}"
        line += f"; {reveals} signed, each verified with {whose}, Ed25519 {fingerprint(self.key)}"
        last = self.signed[-1][1]
        if last < self.entries:
            line += (
                f"; entries {last + 1} to {self.entries} come after the last signed reveal (the server "
                "signs at each reveal)"
            )
        lines = [line]
        if not self.pinned:
            lines.append(
                f"warning: the signatures were checked with the key the export carries, which shows only "
                f"that the export is consistent: compare its fingerprint {fingerprint(self.key)} with the "
                "one the server publishes (GET /api/key), or give the server's key with --key"
            )
        return lines


class _Broken(Exception):
    """The first thing that does not follow (its message is the problem)."""


def check_provenance(data: Mapping[str, Any], pinned: bytes | None = None) -> Provenance:
    """Recompute an export's chain and check its signatures (module description), against ``pinned`` where
    it is given (the server's public key, raw), else against the export's own key. Malformed parts are one
    :class:`InvalidError`; what does not follow is :attr:`Provenance.problem`."""
    chain = data.get("chain")
    if chain is None:
        if pinned is not None:
            return Provenance(
                False,
                problem="the export carries no chain digests and no signatures, so nothing in it is signed "
                f"by the key you gave ({fingerprint(pinned)})",
            )
        return Provenance(False)
    chain = _mapping(chain, "chain")
    game = _mapping(data.get("game"), "game")
    entries = data.get("entries")
    if not isinstance(entries, list):
        _invalid("entries", entries, "a JSON list")
    signing = data.get("signing")
    key = pinned
    if signing is not None:
        own = public_key_from_text(str(_mapping(signing, "signing").get("public_key")), "signing.public_key")
        key = own if pinned is None else pinned
    try:
        head, signed = _follow(chain, game, entries, _Key(key, pinned is not None))
    except _Broken as broken:
        return Provenance(True, problem=str(broken), key=key, pinned=pinned is not None)
    return Provenance(True, len(entries), head, tuple(signed), key, pinned is not None)


def _follow(
    chain: Mapping[str, Any], game: Mapping[str, Any], entries: Sequence[Any], key: _Key
) -> tuple[str, list[tuple[int, int]]]:
    """Recompute the chain from the setup over every entry to the head, checking signatures on the way: the
    head, and each (hand, entry) signed; :class:`_Broken` at the first thing that does not follow."""
    digest = _check_setup(chain, game)
    number = game.get("id")
    if isinstance(number, bool) or not isinstance(number, int):
        _invalid("game.id", number, "a whole number")
    signed: list[tuple[int, int]] = []
    for place, item in enumerate(entries, start=1):
        line = _mapping(item, f"entries[{place - 1}]")
        digest = _check_entry(line, place, digest)
        shown = _mapping(line.get("entry"), f"entries[{place - 1}].entry")
        hand = _check_signature(
            line, shown, place, game=number, digest=digest, key=key, signed_before=bool(signed)
        )
        if hand is not None:
            signed.append((hand, place))
    if len(entries) != chain.get("entries") or digest != chain.get("head"):
        raise _Broken(
            f"the chain ends at entry {len(entries)}, not at the record's head (entry "
            f"{quoted(chain.get('entries'))}): entries were cut off or added"
        )
    if key.pinned and not signed:
        raise _Broken(f"no reveal of the export is signed by the key you gave ({key.shown})")
    return digest, signed


@dataclass(frozen=True, slots=True)
class _Key:
    """The key the signatures are checked against, and whose it is."""

    raw: bytes | None
    pinned: bool

    @property
    def shown(self) -> str:
        return "no key" if self.raw is None else fingerprint(self.raw)

    @property
    def whose(self) -> str:
        return "the key you gave" if self.pinned else "the export's key"


def _check_setup(chain: Mapping[str, Any], game: Mapping[str, Any]) -> str:
    """The setup digest, once the stored setup matches it and the export's game agrees with the setup."""
    setup = _mapping(chain.get("setup"), "chain.setup")
    digest = _digest(chain.get("setup_digest"), "chain.setup_digest")
    if setup_digest(setup) != digest:
        raise _Broken("the record's setup does not match its digest (it was changed after it was written)")
    for name in _SAME_AS_SETUP:
        if game.get(name) != setup.get(name):
            raise _Broken(
                f"the game's {name} {quoted(game.get(name))} is not the one its record's setup holds "
                f"({quoted(setup.get(name))})"
            )
    return digest


def _check_entry(line: Mapping[str, Any], place: int, before: str) -> str:
    """Entry ``place``'s digest, once it follows from ``before`` and the entry shows what it stored."""
    seq, at, stored = line.get("seq"), line.get("at"), line.get("stored")
    if seq != place:
        raise _Broken(f"entry {place} is missing from the chain (found {quoted(seq)} in its place)")
    if not isinstance(at, str) or not isinstance(stored, str):
        _invalid(f"entries[{place - 1}]", {"at": at, "stored": stored}, "texts")
    digest = entry_digest(before, place, at, stored)
    if digest != _digest(line.get("digest"), f"entries[{place - 1}].digest"):
        raise _Broken(
            f"entry {place} does not follow from the entries before it: its digest is not the one the chain "
            "gives (it was changed, moved or put in)"
        )
    if _shown_form(stored) != (line.get("actor"), line.get("entry")):
        raise _Broken(
            f"entry {place}: what the export shows of it is not what the record stored (and sealed)"
        )
    return digest


def _check_signature(
    line: Mapping[str, Any],
    shown: Mapping[str, Any],
    place: int,
    *,
    game: int,
    digest: str,
    key: _Key,
    signed_before: bool,
) -> int | None:
    """The hand whose reveal entry ``place`` is, where its signature verifies; None for an entry that is
    not a reveal, or a reveal left unsigned where that is allowed (before any signed one, with no key
    pinned: a record of an older release)."""
    signature = line.get("signature")
    is_reveal = shown.get("type") == "reveal"
    if not is_reveal:
        if signature is not None:
            raise _Broken(f"entry {place} carries a signature, but only a reveal is signed")
        return None
    hand = shown.get("hand")
    if signature is None:
        if signed_before or key.pinned:
            why = ", though the reveals before it are" if signed_before else " by the key you gave"
            raise _Broken(f"entry {place}, the reveal of hand {hand}, is not signed{why}")
        return None
    if key.raw is None:
        raise _Broken(f"entry {place} carries a signature, but the export names no signing key")
    if isinstance(hand, bool) or not isinstance(hand, int) or not isinstance(signature, str):
        _invalid(
            f"entries[{place - 1}].signature", signature, "a signature in hex, on a reveal with its hand"
        )
    if not check_signature(key.raw, signature, reveal_message(game, hand, place, digest)):
        raise _Broken(
            f"entry {place}, the reveal of hand {hand}: its signature does not verify with {key.whose} "
            f"({key.shown}): the entry, or the record before it, is not what the server signed"
        )
    return hand


def _shown_form(stored: str) -> tuple[object, object]:
    """The actor and entry an export shows for an entry's stored text (``game.entry_data``)."""
    try:
        data = json.loads(stored)
    except (ValueError, RecursionError):
        return None, None
    if isinstance(data, dict) and "actor" in data:
        rest = {name: value for name, value in data.items() if name != "actor"}
        if set(rest) == {"correction"} and isinstance(rest["correction"], dict):
            return data["actor"], {"type": "correction", **rest["correction"]}
        if len(rest) == 1:
            return data["actor"], next(iter(rest.values()))
        return None, None
    return _REFEREE, data  # an entry of the first format: the referee's, stored as the export shows it


def _mapping(value: object, where: str) -> Mapping[str, Any]:
    if not isinstance(value, Mapping):
        _invalid(where, value, "a JSON object")
    return value


def _digest(value: object, where: str) -> str:
    if not isinstance(value, str) or len(value) != DIGEST_LENGTH:
        _invalid(where, value, "a digest: 64 lowercase hex digits")
    return value


def _invalid(where: str, value: object, expected: str) -> NoReturn:
    raise InvalidError(f"invalid game to verify: {where} is {quoted(value)}: expected {expected}")
