"""Provably fair dice: the server commits to its seed before the throws, reveals it after the hand.

The scheme, exactly (``docs/fairness.md`` says it in words, with a verifier of some forty lines):

- A **hand** runs from a caster taking the dice until the dice pass (or the game ends). Hands are numbered
  from 1.
- Each hand's **server seed** is 32 bytes from :func:`secrets.token_bytes`, drawn before the players' seeds
  for that hand are fixed: the first hand's when the game starts, each next hand's when the hand before it
  ends. Its **commitment**, the lowercase hex of SHA-256 of those 32 bytes, is recorded and shown then.
- Each seated player may set a **client seed** of his own (1 to 64 printable characters other than ``,``),
  once a hand, between its commitment and its first throw; a web page sets a fresh one for its seat each hand.
  For a player who has none the dice draw 16 random hex digits, always *before* a commitment (with the
  opening seats, and with each hand's reveal, before the next hand's commitment), so that the server chooses
  nothing once it has committed. A hand's client seed is the seeds at the hand's first throw of the players
  seated then who have one (a newcomer seated after the commitment who sets none takes no part in that
  hand), in seat order, joined by ``,``.
- Throw ``n`` of a hand (its **nonce**, from 0) reads the bytes of ``HMAC-SHA256(key=server seed,
  message=f"{client_seed}:{n}:{cursor}")`` for cursor 0, 1, 2, ...: the first byte ``b < 216`` gives
  ``k = b % 36`` and the throw ``(k // 6 + 1, k % 6 + 1)``; a byte of 216 or more is skipped (216 is six times
  36, so each of the 36 outcomes has exactly six bytes: no bias).
- When the hand ends its server seed is **revealed**: recorded and shown. Until then it is kept in the
  record's storage only (a resumed game needs it) and shown nowhere.

>>> seed = bytes(range(32))
>>> commitment(seed)
'630dcd2966c4336691125448bbb25b4ff412a49c732db2c8abc1b8581bd710dd'
>>> [str(fair_throw(seed, "ann,bob", nonce)) for nonce in range(4)]
['3-2', '4-2', '1-6', '3-1']
"""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets
from dataclasses import dataclass, replace

from hazard.core.dice import Roll
from hazard.core.errors import InvalidError, quoted

__all__ = [
    "MAX_CLIENT_SEED",
    "NOTE_TYPES",
    "SEED_JOIN",
    "SERVER_SEED_BYTES",
    "ClientSeeded",
    "Committed",
    "FairNote",
    "FairState",
    "Hand",
    "HandOpened",
    "Ledger",
    "Revealed",
    "check_client_seed",
    "client_seed_of",
    "commitment",
    "fair_throw",
    "ledger",
    "new_client_seed",
    "new_server_seed",
    "note_from_json",
    "note_text",
    "note_to_json",
    "server_seed_from_hex",
    "throw_mismatch",
]

SERVER_SEED_BYTES = 32
"""How many random bytes a server seed is."""
MAX_CLIENT_SEED = 64
"""The most characters a player's own seed may have."""
_ACCEPTED = 216
"""Bytes below this are used (six for each of the 36 throws); bytes from it to 255 are skipped."""
_HEX = re.compile(r"[0-9a-f]{64}")


def new_server_seed() -> bytes:
    """A hand's server seed: 32 bytes from the operating system's secure source."""
    return secrets.token_bytes(SERVER_SEED_BYTES)


def new_client_seed() -> str:
    """The seed of a player who sets none: 16 random hex digits."""
    return secrets.token_hex(8)


def commitment(server_seed: bytes) -> str:
    """The commitment to a server seed: the lowercase hex of its SHA-256."""
    return hashlib.sha256(server_seed).hexdigest()


SEED_JOIN = ","
"""What joins the players' seeds into a hand's client seed, and so what no player's seed may contain."""


def check_client_seed(seed: str) -> str:
    """``seed`` as a player's own seed: 1 to 64 printable characters other than ``,`` (which joins the
    players' seeds, so a seed holding one could not be told from two), not beginning or ending with a space
    (commands could not give those back); else refused."""
    if not _is_stored_seed(seed) or SEED_JOIN in seed:
        raise InvalidError(
            f"invalid client seed {quoted(seed)}: expected 1 to {MAX_CLIENT_SEED} printable characters other "
            f"than {SEED_JOIN!r}, not beginning or ending with a space"
        )
    return seed


def _is_stored_seed(seed: object) -> bool:
    """Whether ``seed`` is a seed a record may hold: what :func:`check_client_seed` takes, or one holding a
    ``,`` that the table took before it refused them (an old record still loads; ``hazard verify`` fails
    it, since its hand's client seed cannot be split back into the players' seeds)."""
    return (
        isinstance(seed, str)
        and 1 <= len(seed) <= MAX_CLIENT_SEED
        and seed.isprintable()
        and seed == seed.strip()
    )


def client_seed_of(seeds: list[str]) -> str:
    """A hand's client seed: the seated players' seeds in seat order, joined by commas."""
    return SEED_JOIN.join(seeds)


def fair_throw(server_seed: bytes, client_seed: str, nonce: int) -> Roll:
    """Throw ``nonce`` of a hand with this server seed and client seed (the scheme above)."""
    if len(server_seed) != SERVER_SEED_BYTES:
        raise InvalidError(f"invalid server seed of {len(server_seed)} bytes: expected {SERVER_SEED_BYTES}")
    if isinstance(nonce, bool) or not isinstance(nonce, int) or nonce < 0:
        raise InvalidError(f"invalid nonce {quoted(nonce)}: expected a whole number from 0")
    cursor = 0
    while True:  # each block of 32 bytes has a byte below 216 but with chance (40/256)**32, about 1e-26
        message = f"{client_seed}:{nonce}:{cursor}".encode()
        for byte in hmac.new(server_seed, message, hashlib.sha256).digest():
            if byte < _ACCEPTED:
                k = byte % 36
                return Roll(k // 6 + 1, k % 6 + 1)
        cursor += 1


def server_seed_from_hex(text: str, *, what: str = "server seed") -> bytes:
    """A server seed as it is recorded and shown: 64 lowercase hex digits."""
    if not isinstance(text, str) or not _HEX.fullmatch(text):
        raise InvalidError(f"invalid {what} {quoted(text)}: expected 64 lowercase hex digits")
    return bytes.fromhex(text)


@dataclass(frozen=True, slots=True)
class Hand:
    """One hand of fair dice as the record holds it."""

    number: int
    commitment: str
    client_seed: str | None = None
    """Fixed at the hand's first throw; None before it."""
    server_seed: str | None = None
    """Hex, once revealed when the hand ends; None until then."""
    throws: tuple[tuple[int, int, Roll], ...] = ()
    """Each throw: the entry that holds it, its nonce, and what the dice showed."""


def throw_mismatch(hand: Hand) -> str | None:
    """The first throw of a revealed hand that its seeds and nonce do not give, in words; None where every
    throw follows (what ``hazard verify`` and a table's page both check, once the seed is shown)."""
    assert hand.server_seed is not None
    seed = bytes.fromhex(hand.server_seed)
    client_seed = hand.client_seed or ""  # None only where the hand has no throws
    for entry, nonce, roll in hand.throws:
        thrown = fair_throw(seed, client_seed, nonce)
        if thrown != roll:
            return (
                f"hand {hand.number}, throw entry {entry} (nonce {nonce}): the seeds give {thrown}, but the "
                f"record shows {roll}"
            )
    return None


# --- what the record holds: the fair dice's notes, beside the table's actions -------------------------------


@dataclass(frozen=True, slots=True)
class Committed:
    """Hand ``hand``'s server seed is drawn, and ``commitment`` is its SHA-256: written before the hand."""

    hand: int
    commitment: str


@dataclass(frozen=True, slots=True)
class ClientSeeded:
    """``player``'s own seed is ``seed`` from now on (set by him, or drawn for him)."""

    player: str
    seed: str


@dataclass(frozen=True, slots=True)
class HandOpened:
    """Hand ``hand``'s client seed is fixed: written just before its first throw."""

    hand: int
    client_seed: str


@dataclass(frozen=True, slots=True)
class Revealed:
    """Hand ``hand`` has ended, and its server seed (hex) is shown."""

    hand: int
    server_seed: str


FairNote = Committed | ClientSeeded | HandOpened | Revealed
"""What the fair dice write in a game's record, beside the table's actions (the table's replay skips them)."""


def note_to_json(note: FairNote) -> dict[str, object]:
    """A note's JSON form, as the record stores it and exports show it."""
    if isinstance(note, Committed):
        return {"type": "commit", "hand": note.hand, "commitment": note.commitment}
    if isinstance(note, ClientSeeded):
        return {"type": "client-seed", "player": note.player, "seed": note.seed}
    if isinstance(note, HandOpened):
        return {"type": "hand-opened", "hand": note.hand, "client_seed": note.client_seed}
    return {"type": "reveal", "hand": note.hand, "server_seed": note.server_seed}


def note_text(note: FairNote) -> str:
    """A note in words, as the record shows it."""
    if isinstance(note, Committed):
        return f"hand {note.hand}: the dice commit to their seed, SHA-256 {note.commitment}"
    if isinstance(note, ClientSeeded):
        return f"seed for {note.player}: {note.seed}"
    if isinstance(note, HandOpened):
        return f"hand {note.hand}: the client seed is {note.client_seed!r}"
    return f"hand {note.hand} ends: the dice's seed was {note.server_seed}"


NOTE_TYPES = frozenset({"commit", "client-seed", "hand-opened", "reveal"})
"""The ``type`` of each note's JSON form."""


def note_from_json(data: object) -> FairNote:
    """Read a stored note back; an :class:`InvalidError` for anything that is not exactly one."""
    if not isinstance(data, dict) or data.get("type") not in NOTE_TYPES:
        raise InvalidError(
            f"invalid fair dice note {quoted(data)}: expected a commit, client seed, hand or reveal"
        )
    kind = data["type"]
    fields = {
        "commit": {"hand", "commitment"},
        "client-seed": {"player", "seed"},
        "hand-opened": {"hand", "client_seed"},
        "reveal": {"hand", "server_seed"},
    }[kind]
    if set(data) - {"type"} != fields:
        raise InvalidError(
            f"invalid fair dice note {quoted(data)}: expected the fields {', '.join(sorted(fields))}"
        )
    hand = data.get("hand", 1)
    if isinstance(hand, bool) or not isinstance(hand, int) or hand < 1:
        raise InvalidError(f"invalid fair dice note {quoted(data)}: expected a hand number from 1")
    if kind == "commit":
        server_seed_from_hex(data["commitment"], what="commitment")
        return Committed(hand, data["commitment"])
    if kind == "reveal":
        server_seed_from_hex(data["server_seed"])
        return Revealed(hand, data["server_seed"])
    if kind == "client-seed":
        player = data["player"]
        if not isinstance(player, str) or not player:
            raise InvalidError(f"invalid fair dice note {quoted(data)}: expected a player's name")
        if not _is_stored_seed(data["seed"]):
            check_client_seed(data["seed"])  # raises, saying what a seed is
        return ClientSeeded(player, data["seed"])
    seed = data["client_seed"]
    # Empty where no player seated had a seed when the hand's dice were first thrown.
    if not isinstance(seed, str) or len(seed) > 100 * (MAX_CLIENT_SEED + 1):
        raise InvalidError(f"invalid fair dice note {quoted(data)}: expected the hand's client seed")
    return HandOpened(hand, seed)


@dataclass(frozen=True, slots=True)
class FairState:
    """Where a game's fair dice stand: the last hand committed, and each player's own seed now.

    Built one entry at a time (:meth:`after`), so a live game keeps it at no cost; ``ledger`` keeps every
    hand as well.
    """

    hand: Hand | None = None
    seeds: tuple[tuple[str, str], ...] = ()
    """Each player's own seed now, by name, in the order first set."""
    revealed: Hand | None = None
    """The last hand ended and revealed, with its throws: what a table shows to be checked."""
    fresh: tuple[tuple[str, int], ...] = ()
    """The players whose seed was set after the last hand's commitment, each with the entry that set it: the
    seeds the server did not know when it committed (a seat sets one a hand)."""

    @property
    def current(self) -> Hand | None:
        """The hand in play or about to be: the last committed one, unless it is already revealed."""
        if self.hand is None or self.hand.server_seed is not None:
            return None
        return self.hand

    def seed_of(self, player: str) -> str | None:
        return dict(self.seeds).get(player)

    def fresh_entry(self, player: str) -> int | None:
        """The entry that set ``player``'s seed after the last commitment; None where none did."""
        return dict(self.fresh).get(player)

    def after(self, seq: int, item: object) -> FairState:
        """The state once entry ``seq``, holding ``item`` (a note, or a throw of the fair dice), is written;
        an :class:`InvalidError` where it is out of order (a throw before its hand is opened, a hand opened
        twice, a reveal of a hand not committed, a seed that is not its commitment's ...)."""
        last = self.hand

        def fail(why: str) -> InvalidError:
            return InvalidError(f"invalid fair dice entry {seq}: {why}")

        if isinstance(item, Committed):
            if item.hand != (0 if last is None else last.number) + 1 or (last and last.server_seed is None):
                raise fail(f"hand {item.hand} committed out of turn")
            return replace(self, hand=Hand(item.hand, item.commitment), fresh=())
        if isinstance(item, ClientSeeded):
            seeds = dict(self.seeds)
            seeds[item.player] = item.seed
            fresh = self.fresh
            if last is not None and last.server_seed is None and self.fresh_entry(item.player) is None:
                fresh = (*fresh, (item.player, seq))
            return replace(self, seeds=tuple(seeds.items()), fresh=fresh)
        if isinstance(item, HandOpened):
            if last is None or last.number != item.hand or last.client_seed is not None or last.server_seed:
                raise fail(f"hand {item.hand} opened out of turn")
            return replace(self, hand=Hand(last.number, last.commitment, item.client_seed))
        if isinstance(item, Revealed):
            if last is None or last.number != item.hand or last.server_seed is not None:
                raise fail(f"hand {item.hand} revealed out of turn")
            if commitment(server_seed_from_hex(item.server_seed)) != last.commitment:
                raise fail(f"the server seed of hand {item.hand} does not match its commitment")
            ended = Hand(last.number, last.commitment, last.client_seed, item.server_seed, last.throws)
            return replace(self, hand=ended, revealed=ended, fresh=())
        if isinstance(item, Roll):
            if last is None or last.client_seed is None or last.server_seed is not None:
                raise fail("a throw of the fair dice outside an opened hand")
            throws = (*last.throws, (seq, len(last.throws), item))
            return replace(self, hand=Hand(last.number, last.commitment, last.client_seed, None, throws))
        return self


@dataclass(frozen=True, slots=True)
class Ledger:
    """Every hand of a game's fair dice, and where they stand now (see ``ledger``)."""

    hands: tuple[Hand, ...]
    state: FairState


def ledger(items: list[tuple[int, object]]) -> Ledger:
    """The fair dice's ledger from a game's entries in order, each as (its number, what it holds): its notes,
    and its throws (each the next nonce of the hand open). An :class:`InvalidError` where they are out of
    order (:meth:`FairState.after`)."""
    state = FairState()
    hands: list[Hand] = []
    for seq, item in items:
        state = noted(hands, state, seq, item)
    return Ledger(tuple(hands), state)


def noted(hands: list[Hand], state: FairState, seq: int, item: object) -> FairState:
    """Where the fair dice stand once entry ``seq``, holding ``item``, is played from ``state``, its hand
    put in ``hands`` (every hand so far); an :class:`InvalidError` where it is out of order."""
    state = state.after(seq, item)
    if state.hand is not None:
        if hands and hands[-1].number == state.hand.number:
            hands[-1] = state.hand
        else:
            hands.append(state.hand)
    return state
