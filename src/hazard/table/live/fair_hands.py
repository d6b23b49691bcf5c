"""The fair dice of a live game, hand by hand: the seeds drawn and committed, a hand opened at its first
throw, a player's own seed checked, a hand's end (its seed shown, the next one's committed).

These decide what a :class:`~hazard.table.live.session.Session` writes for its fair dice; the session writes
it, in its own order. Every seed the dice draw is drawn here (:func:`new_server_seed`,
:func:`new_client_seed`), and only ever before the commitment it goes with: a seed the server drew after
committing could be tried against its committed seed until the throws suited it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from hazard.core.dice import Roll
from hazard.core.errors import IllegalError, InvalidError
from hazard.table.fair.commit_reveal import (
    ClientSeeded,
    Committed,
    FairNote,
    FairState,
    Hand,
    HandOpened,
    check_client_seed,
    client_seed_of,
    commitment,
    fair_throw,
    new_client_seed,
    new_server_seed,
)
from hazard.table.rules.actions import Actor, ActorError, SetSeed
from hazard.table.rules.roles import acts_for
from hazard.table.rules.state import Player, Table

if TYPE_CHECKING:
    from hazard.table.live.session import Session

__all__ = [
    "first_hand",
    "hand_in_play",
    "hand_opening",
    "kept_secret",
    "next_commitment",
    "seed_note",
    "seeds_to_draw",
    "throw_of",
]


def first_hand(players: Sequence[Player]) -> tuple[list[FairNote], bytes]:
    """What a game of fair dice writes as it starts, and the first hand's seed: a seed drawn for each player
    seated with it, then the first hand's commitment (after them, so that the server chooses nothing once it
    has committed)."""
    notes: list[FairNote] = [ClientSeeded(p.name, new_client_seed()) for p in players]
    secret = new_server_seed()
    notes.append(Committed(1, commitment(secret)))
    return notes, secret


def next_commitment(hand: int) -> tuple[Committed, bytes]:
    """The commitment of hand ``hand``, and the seed it commits to (drawn now)."""
    secret = new_server_seed()
    return Committed(hand, commitment(secret)), secret


def seeds_to_draw(fair: FairState, players: Sequence[Player]) -> list[ClientSeeded]:
    """Before a commitment: a seed drawn by the dice for each seated player who has none yet."""
    return [ClientSeeded(p.name, new_client_seed()) for p in players if fair.seed_of(p.name) is None]


def hand_in_play(session: Session) -> Hand:
    """The hand of the fair dice committed now; the record is corrupt where none is."""
    hand = None if session.fair is None else session.fair.current
    if hand is None:
        raise InvalidError(f"record of game {session.game} is corrupt: no hand of the fair dice is committed")
    return hand


def kept_secret(session: Session) -> bytes | None:
    """The seed of the fair hand committed and not yet revealed, from the record's keeping."""
    hand = None if session.fair is None else session.fair.current
    if hand is None:
        return None
    if session.secret is not None and commitment(session.secret) == hand.commitment:
        return session.secret  # the hand this session already holds: nothing to read, nothing to open
    secret = session.store.secret(session.game, hand.number)
    if secret is None or commitment(secret) != hand.commitment:
        raise InvalidError(
            f"record of game {session.game} is corrupt: the seed of hand {hand.number}, committed to and "
            "not yet revealed, is not kept (or is not the one committed to), so its dice cannot go on"
        )
    return secret


def hand_opening(fair: FairState, table: Table) -> HandOpened | None:
    """The note that fixes the hand's client seed at its first throw (None once it is fixed): the seeds the
    players seated now have, in seat order. A newcomer seated since this hand's commitment who set none has
    no part in it: nothing is drawn after the commitment."""
    hand = fair.current
    assert hand is not None
    if hand.client_seed is not None:
        return None
    seeds = [fair.seed_of(player.name) for player in table.players]
    return HandOpened(hand.number, client_seed_of([seed for seed in seeds if seed is not None]))


def throw_of(secret: bytes, hand: Hand) -> Roll:
    """The hand's next throw: the one its seeds and nonce give."""
    assert hand.client_seed is not None
    return fair_throw(secret, hand.client_seed, len(hand.throws))


def seed_note(session: Session, request: SetSeed, *, by: Actor) -> ClientSeeded:
    """The note that sets a player's own seed for the fair dice, from the hand committed now on, once checked:
    by him, or by the referee; once a hand, before its first throw (``request.hand``, where given, must be
    that hand)."""
    if session.fair is None:
        raise IllegalError(
            f"illegal seed for {request.player} in game {session.game}: its dice are "
            f"{session.info.dice.describe(session.info.seed)}, not fair dice, and take no seed of a player's"
        )
    player = session.table.player(request.player).name
    if not acts_for(by, player):
        raise ActorError(f"illegal seed for {player} by {by}: a player sets only his own seed")
    seed = check_client_seed(request.seed)
    hand = hand_in_play(session)
    what = f"illegal seed for {player} in hand {hand.number}"
    if request.hand is not None and request.hand != hand.number:
        when = "is over" if request.hand < hand.number else "is not committed yet"
        raise IllegalError(
            f"illegal seed for {player} for hand {request.hand}: that hand {when}; the dice are "
            f"committed to hand {hand.number} now"
        )
    if hand.client_seed is not None:
        raise IllegalError(
            f"{what}: its dice have been thrown with the seeds fixed at its first throw; set a seed "
            "between hands, once the dice pass"
        )
    already = session.fair.fresh_entry(player)
    if already is not None:
        raise IllegalError(
            f"{what}: {player}'s seed for this hand is set already (entry {already}); a seat sets one "
            "seed a hand"
        )
    return ClientSeeded(player, seed)
