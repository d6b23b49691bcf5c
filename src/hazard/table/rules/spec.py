"""What a new table is set up with: one :class:`TableSpec` that every front end builds and
:meth:`~hazard.table.Session.start` takes, so that set-up is written once.

>>> from hazard.core.rulesets import find_ruleset
>>> from hazard.table.rules.setup import table_paytable
>>> rules = find_ruleset("wikipedia")
>>> spec = TableSpec(rules, table_paytable(rules)[0], dice=DiceKind.SEEDED, seed=1)
>>> spec.dice.describe(spec.seed)
'seeded dice (seed 1)'
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from hazard.core.errors import InvalidError
from hazard.core.paytable import Paytable
from hazard.core.rules import Ruleset, StakeArrangement
from hazard.table.fair.dice import DiceKind
from hazard.table.rules.actions import Sit
from hazard.table.rules.bots import BotBrains
from hazard.table.rules.entries import GameKind
from hazard.table.rules.setup import check_seats

__all__ = ["TableSpec"]

_WEB_DICE = (DiceKind.FAIR, DiceKind.TYPED)


@dataclass(frozen=True, slots=True)
class TableSpec:
    """A new table: its rules, its dice, the way of playing it and what its bots stake.

    Checked when made, before anything is written: fair dice take no seed; a web table has the server's
    fair dice or a referee's typed ones.
    """

    ruleset: Ruleset
    paytable: Paytable
    stakes: StakeArrangement | None = None
    """How stakes are arranged (None: the ruleset's own)."""
    dice: DiceKind = DiceKind.SECURE
    seed: int | None = None
    """The seed of seeded dice (the same seed and choices replay the same game)."""
    kind: GameKind = GameKind.PLAY
    label: str | None = None
    """The game's label in the record (None: its kind's)."""
    bots: BotBrains = field(default_factory=BotBrains)
    """What the bots seated at it stake, and how."""

    def __post_init__(self) -> None:
        if self.dice is DiceKind.FAIR and self.seed is not None:
            raise InvalidError(f"invalid seed {self.seed}: fair dice take no seed; each hand draws its own")
        if self.kind is GameKind.WEB and self.dice not in _WEB_DICE:
            raise InvalidError(
                f"invalid dice {self.dice.value!r}: a web table has the server's fair dice (fair) or real "
                "dice entered by a referee (typed)"
            )

    def check_seats(self, seats: Sequence[Sit]) -> None:
        """Try ``seats`` at this table, empty, so that a bad name or bankroll starts no game in the record."""
        check_seats(self.ruleset, self.paytable, self.stakes, list(seats))
