"""What a session study is asked for (:class:`SessionConfig`), apart from the simulator that plays it
(:mod:`hazard.sim.session`), so that a command reads it without loading NumPy."""

from __future__ import annotations

import math
from dataclasses import dataclass

from hazard.core.errors import InvalidError, quoted
from hazard.core.staking import Staking, StakingPlan

__all__ = ["MAX_SESSION_ROUNDS", "SessionConfig"]

MAX_SESSION_ROUNDS = 10**7
"""The most rounds in one session."""
_MAX_SESSIONS = 10**8
_MAX_PLAYERS = 64


@dataclass(frozen=True, slots=True)
class SessionConfig:
    """A session study: how many sessions of how many rounds, at what table, staking how."""

    sessions: int = 1000
    rounds: int = 200
    """Rounds per session, at most (a session ends early when fewer than two players are left)."""
    players: int = 4
    bankroll: float = 100.0
    """Each player's bankroll at the start, in units."""
    stake: float = 1.0
    """The base stake; a player with less than this is ruined."""
    staking: Staking = Staking.FLAT
    cap: int | None = None
    """Martingale: the most doublings (default 6); paroli: the wins before going back (default 3)."""

    def __post_init__(self) -> None:
        _whole("number of sessions", self.sessions, 1, _MAX_SESSIONS)
        _whole("number of rounds per session", self.rounds, 1, MAX_SESSION_ROUNDS)
        _whole("number of players", self.players, 2, _MAX_PLAYERS)
        if not (math.isfinite(self.stake) and self.stake > 0):
            raise InvalidError(f"invalid stake {self.stake!r}: expected a number above 0")
        if not (math.isfinite(self.bankroll) and self.bankroll >= self.stake):
            raise InvalidError(
                f"invalid bankroll {self.bankroll!r}: expected at least the stake ({self.stake:g})"
            )
        StakingPlan(self.staking, self.cap)  # a bad cap is refused as the core defines it

    @property
    def progression_cap(self) -> int:
        """The cap in force: the one given, or the progression's default (:class:`StakingPlan`)."""
        return StakingPlan(self.staking, self.cap).limit


def _whole(what: str, value: object, low: int, high: int) -> None:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise InvalidError(f"invalid {what} {quoted(value)}: expected a whole number from {low} to {high}")
