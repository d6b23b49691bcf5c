"""How a player sets each stake from the last results: flat, martingale or paroli, defined once.

A progression counts *steps*: the stake is the base stake doubled once a step, at most ``cap`` times. The
simulator's session kernel implements these rules in C (``hazard/sim/session.c``), and the tests hold them to
this definition; the table's bots stake by it too (:class:`hazard.table.BotBrains`), from each player's run
of results, which the table keeps.

- ``flat``: always the base stake (no steps).
- ``martingale``: a step more after each lost round, back to the base after a win.
- ``paroli``: a step more after each win, back to the base after a loss, or after ``cap`` wins in a row.

>>> plan = StakingPlan(Staking.MARTINGALE, cap=3)
>>> steps = 0
>>> stakes = []
>>> for won in (False, False, False, False, True):
...     steps = plan.after(steps, won=won)
...     stakes.append(plan.multiple(steps))
>>> stakes
[2, 4, 8, 8, 1]
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from hazard.core.errors import InvalidError, quoted

__all__ = ["DEFAULT_CAP", "MAX_CAP", "Staking", "StakingPlan"]

MAX_CAP = 30
"""The most doublings (or wins) a progression counts."""


class Staking(enum.Enum):
    """How a caster sets the next stake from the last results."""

    FLAT = "flat"
    MARTINGALE = "martingale"
    PAROLI = "paroli"


DEFAULT_CAP = {Staking.FLAT: 0, Staking.MARTINGALE: 6, Staking.PAROLI: 3}
"""The cap of each progression where none is given: the most doublings (martingale) or wins (paroli)."""


@dataclass(frozen=True, slots=True)
class StakingPlan:
    """A progression and its cap (``DEFAULT_CAP`` where none is given)."""

    staking: Staking = Staking.FLAT
    cap: int | None = None

    def __post_init__(self) -> None:
        cap = self.cap
        if cap is not None and (isinstance(cap, bool) or not isinstance(cap, int) or not 1 <= cap <= MAX_CAP):
            raise InvalidError(
                f"invalid progression cap {quoted(cap)}: expected a whole number from 1 to {MAX_CAP}"
            )

    @property
    def limit(self) -> int:
        """The cap in force: the one given, or the progression's default."""
        return DEFAULT_CAP[self.staking] if self.cap is None else self.cap

    def multiple(self, steps: int) -> int:
        """The stake, as a multiple of the base, after ``steps`` steps."""
        return 1 << min(steps, self.limit)

    def steps(self, run: int) -> int:
        """The steps a run of results comes to: ``run`` rounds won in a row (above 0) or lost in a row
        (below 0), as a table keeps them; what :meth:`after` makes of those results, one by one, from 0.

        >>> StakingPlan(Staking.MARTINGALE).steps(-3), StakingPlan(Staking.PAROLI).steps(4)
        (3, 1)
        """
        if self.staking is Staking.MARTINGALE:
            return max(0, -run)
        if self.staking is Staking.PAROLI:
            return max(0, run) % self.limit
        return 0

    def after(self, steps: int, *, won: bool) -> int:
        """The steps after a round that the staker won (``won``) or lost, from ``steps``."""
        if self.staking is Staking.MARTINGALE:
            return 0 if won else steps + 1
        if self.staking is Staking.PAROLI:
            steps = steps + 1 if won else 0
            return 0 if steps >= self.limit else steps
        return 0
