"""What a new table is set up with, checked before anything is written: its paytable and its first seats."""

from __future__ import annotations

from hazard.core.paytable import Paytable
from hazard.core.rules import Ruleset, StakeArrangement
from hazard.core.rulesets import paytable_for, settling_paytable
from hazard.table.rules.actions import REFEREE, Sit
from hazard.table.rules.lookalike import check_sit
from hazard.table.rules.state import new_table
from hazard.table.rules.transitions import apply_action

__all__ = ["check_seats", "table_paytable"]


def table_paytable(
    ruleset: Ruleset, name: str | None = None, *, paths: bool = False
) -> tuple[Paytable, bool]:
    """The paytable a table of ``ruleset`` settles by: ``name`` (a built-in id; with ``paths``, the
    terminal's, also a file's path), else the ruleset's own, else even money.

    The flag says whether even money was chosen because the ruleset gives no paytable (front ends say so).
    """
    chosen = paytable_for(ruleset, name, paths=paths)
    if chosen is not None:
        return chosen, False
    even = settling_paytable(None)
    even.check(ruleset)
    return even, True


def check_seats(
    ruleset: Ruleset, paytable: Paytable, stakes: StakeArrangement | None, seats: list[Sit]
) -> None:
    """Try ``seats`` at an empty table, so that a bad name or bankroll starts no game in the record."""
    table = new_table(ruleset, paytable, stakes)
    for sit in seats:
        check_sit(table, sit)
        table, _ = apply_action(table, sit, by=REFEREE)
