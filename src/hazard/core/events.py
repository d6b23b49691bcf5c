"""What happened: the events that :func:`hazard.core.engine.apply` returns, as plain data.

Each event says in words what it did and why (``str(event)``), so every front end explains a throw the same
way.
"""

from __future__ import annotations

from dataclasses import dataclass

from hazard.core.dice import Roll

__all__ = [
    "ChanceSet",
    "ChanceWon",
    "DicePassed",
    "Event",
    "MainCalled",
    "MainRethrown",
    "MainThrown",
    "MainWon",
    "Nick",
    "NoEffect",
    "NoMain",
    "ThrowOut",
]


@dataclass(frozen=True, slots=True)
class MainCalled:
    """The caster called ``main``."""

    main: int

    def __str__(self) -> str:
        return f"the caster calls {self.main} as the main"


@dataclass(frozen=True, slots=True)
class MainThrown:
    """The throw for the main set the main to its total."""

    roll: Roll

    def __str__(self) -> str:
        return f"{self.roll} makes {self.roll.total} the main"


@dataclass(frozen=True, slots=True)
class MainRethrown:
    """The throw for the main was no main, and the ruleset has it thrown again."""

    roll: Roll

    def __str__(self) -> str:
        return f"{self.roll} ({self.roll.total}) is not a main: throw again for the main"


@dataclass(frozen=True, slots=True)
class NoMain:
    """The throw for the main was no main, and the ruleset has the dice pass."""

    roll: Roll

    def __str__(self) -> str:
        return f"{self.roll} ({self.roll.total}) is not a main: no round is played"


@dataclass(frozen=True, slots=True)
class DicePassed:
    """The caster hands the dice to the player on the left."""

    reason: str

    def __str__(self) -> str:
        return f"the dice pass: {self.reason}"


@dataclass(frozen=True, slots=True)
class Nick:
    """The opening throw won outright."""

    roll: Roll
    main: int

    def __str__(self) -> str:
        return f"{self.roll.total} with a main of {self.main} is a nick: the caster wins"


@dataclass(frozen=True, slots=True)
class ThrowOut:
    """The opening throw lost outright."""

    roll: Roll
    main: int

    def __str__(self) -> str:
        return f"{self.roll.total} with a main of {self.main} throws out: the caster loses"


@dataclass(frozen=True, slots=True)
class ChanceSet:
    """The opening throw became the caster's chance."""

    roll: Roll
    main: int

    @property
    def chance(self) -> int:
        return self.roll.total

    def __str__(self) -> str:
        return (
            f"{self.chance} with a main of {self.main} is the chance: "
            f"the caster now needs {self.chance} before {self.main}"
        )


@dataclass(frozen=True, slots=True)
class NoEffect:
    """A throw that decided nothing and changed nothing."""

    roll: Roll
    main: int
    chance: int | None

    def __str__(self) -> str:
        if self.chance is None:
            return (
                f"{self.roll.total} with a main of {self.main} is neither nick, out nor chance: throw again"
            )
        return f"{self.roll.total} is neither the chance {self.chance} nor the main {self.main}: throw again"


@dataclass(frozen=True, slots=True)
class ChanceWon:
    """The caster threw the chance before the main."""

    roll: Roll
    main: int

    def __str__(self) -> str:
        return f"{self.roll.total} is the chance, thrown before the main {self.main}: the caster wins"


@dataclass(frozen=True, slots=True)
class MainWon:
    """The caster threw the main before the chance: the setter wins."""

    roll: Roll
    chance: int

    def __str__(self) -> str:
        return f"{self.roll.total} is the main, thrown before the chance {self.chance}: the caster loses"


Event = (
    MainCalled
    | MainThrown
    | MainRethrown
    | NoMain
    | DicePassed
    | Nick
    | ThrowOut
    | ChanceSet
    | NoEffect
    | ChanceWon
    | MainWon
)
"""Any event of a round."""
