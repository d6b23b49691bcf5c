"""The frozen state of one round of Hazard, and how a finished round ended."""

from __future__ import annotations

import enum
from dataclasses import dataclass

from hazard.core.rules import Ruleset

__all__ = ["Outcome", "Phase", "Result", "Round", "Termination"]


class Phase(enum.Enum):
    """Where a round stands."""

    MAIN = "main"
    """No main yet: the caster calls one, or throws for one."""
    OPENING = "opening"
    """The main is set; the next throw may nick, throw out or set the chance."""
    CHANCE = "chance"
    """The chance is set; the caster throws until the chance (a win) or the main (a loss)."""
    OVER = "over"
    """The round has ended; see :attr:`Round.outcome`."""


class Result(enum.Enum):
    """Who a finished round went to."""

    CASTER_WINS = "caster-wins"
    CASTER_LOSES = "caster-loses"
    NO_ROUND = "no-round"
    """No main was set: the dice passed before anything was at stake."""


class Termination(enum.Enum):
    """How a round ended."""

    NICK = "nick"
    """The opening throw won outright."""
    OUT = "out"
    """The opening throw lost outright (thrown out, a crab)."""
    CHANCE = "chance"
    """The caster threw the chance before the main."""
    MAIN = "main"
    """The caster threw the main before the chance."""
    NO_MAIN = "no-main"
    """The throw for the main fell outside the mains and passed the dice."""

    @property
    def result(self) -> Result:
        if self in (Termination.NICK, Termination.CHANCE):
            return Result.CASTER_WINS
        if self is Termination.NO_MAIN:
            return Result.NO_ROUND
        return Result.CASTER_LOSES


@dataclass(frozen=True, slots=True)
class Outcome:
    """How a finished round ended, with the main and chance it was played on (None where never set)."""

    termination: Termination
    main: int | None
    chance: int | None = None

    @property
    def result(self) -> Result:
        return self.termination.result

    @property
    def caster_wins(self) -> bool:
        return self.result is Result.CASTER_WINS

    def __str__(self) -> str:
        if self.termination is Termination.NO_MAIN:
            return "no main was thrown; the dice pass"
        if self.termination is Termination.NICK:
            return f"nick on a main of {self.main}: the caster wins"
        if self.termination is Termination.OUT:
            return f"thrown out on a main of {self.main}: the caster loses"
        if self.termination is Termination.CHANCE:
            return f"the chance {self.chance} came before the main {self.main}: the caster wins"
        return f"the main {self.main} came before the chance {self.chance}: the caster loses"


@dataclass(frozen=True, slots=True)
class Round:
    """One round, frozen. The engine (``hazard.core.engine``) makes new ones; nothing changes in place.

    ``main`` and ``chance`` are None until set; ``termination`` is None until the round is over.
    """

    ruleset: Ruleset
    phase: Phase
    main: int | None = None
    chance: int | None = None
    termination: Termination | None = None

    @property
    def is_over(self) -> bool:
        return self.phase is Phase.OVER

    @property
    def outcome(self) -> Outcome | None:
        """How the round ended, or None while it goes on."""
        if self.termination is None:
            return None
        return Outcome(self.termination, self.main, self.chance)

    def __str__(self) -> str:
        if self.phase is Phase.MAIN:
            return "no main yet"
        if self.phase is Phase.OPENING:
            return f"main {self.main}, no chance yet"
        if self.phase is Phase.CHANCE:
            return f"main {self.main}, chance {self.chance}"
        return f"over: {self.outcome}"
