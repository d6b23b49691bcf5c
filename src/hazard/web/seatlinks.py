"""The host's list of his late arrivals' claim links: whose seat each holds, until when, and whether it has
been used, read from the record (which keeps each code only as a digest, so never the link itself)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime

from hazard.table import GivenClaim

__all__ = ["SeatLink", "seat_links"]


@dataclass(frozen=True, slots=True)
class SeatLink:
    """A late arrival's claim link as the host's panel lists it: whose seat, until when, and whether it has
    been used (or has expired). Never the link itself: the record keeps only a digest of its code."""

    player: str
    until: str
    state: str
    pending: bool
    """Not used yet and not expired: the seat still waits for its player's browser."""


def seat_links(given: Iterable[GivenClaim], now: datetime) -> tuple[SeatLink, ...]:
    """The host's list of the claim links ``given``, as they stand at ``now`` (UTC)."""
    shown = []
    for claim in given:
        until = datetime.fromisoformat(claim.expires)
        expired = until <= now
        state = "used" if claim.spent else "expired" if expired else "waiting for its player"
        shown.append(SeatLink(claim.player, f"{until:%H:%M} UTC", state, not claim.spent and not expired))
    return tuple(shown)
