"""What one player may do at a table now: what a front end offers him, and nothing else.

The table's rules (:func:`hazard.table.apply_action`) still decide every action sent; this says which
controls are worth showing, read off the same state (whose turn it is, what he has staked, which side bets
are open), so that every front end shows the same choices.

>>> from fractions import Fraction
>>> from hazard.core.rulesets import find_ruleset, find_paytable
>>> from hazard.table.actions import Actor, Sit
>>> from hazard.table.transitions import apply_action, new_table
>>> table = new_table(find_ruleset("wikipedia"), find_paytable("even"))
>>> for name in ("Ann", "Bob"):
...     table, _ = apply_action(table, Sit(name, Fraction(10)), by=Actor.player(name))
>>> choices(table, "Ann").mains, choices(table, "Bob").stake
((5, 6, 7, 8, 9), True)
"""

from __future__ import annotations

from dataclasses import dataclass

from hazard.core.rules import StakeArrangement
from hazard.table.state import Need, Table

__all__ = ["Choices", "choices"]


@dataclass(frozen=True, slots=True)
class Choices:
    """The actions worth offering one player now (an empty one for somebody not at the table)."""

    mains: tuple[int, ...] = ()
    """He holds the dice and calls one of these."""
    throw: bool = False
    """He holds the dice, and they are to be thrown."""
    throw_for: str | None = None
    """A bot holds the dice: he may ask for its throw (the bot calls first where it must)."""
    stake: bool = False
    """He may lay a stake now (the caster under the bank arrangement names his own, against the bank)."""
    withdraw: bool = False
    """He has stakes laid, and may take them back before the round begins."""
    pass_dice: bool = False
    """He holds the dice between rounds, and may hand them on."""
    offer: bool = False
    """He may offer a side bet."""
    take: tuple[int, ...] = ()
    """Open side bets of others he may take."""
    cancel: tuple[int, ...] = ()
    """His own open side bets, which he may withdraw."""


def choices(table: Table, player: str) -> Choices:
    """What ``player`` may do at ``table`` now."""
    if not table.seated(player):
        return Choices()
    turn = table.turn
    caster = table.caster
    holds = caster == player
    bot_caster = caster is not None and not holds and table.player(caster).bot is not None
    begun = table.round_begun
    if holds:
        stake = table.stakes is StakeArrangement.BANK and not begun and len(table.players) > 1
    else:
        stake = turn.stakes_open
    return Choices(
        mains=table.ruleset.mains if holds and turn.need is Need.CALL else (),
        throw=holds and turn.need is Need.THROW,
        throw_for=caster if bot_caster and turn.need in (Need.CALL, Need.THROW) else None,
        stake=stake,
        withdraw=not begun and any(w.opponent == player for w in table.wagers),
        pass_dice=holds and not begun and not table.wagers and len(table.players) > 1,
        offer=True,
        take=tuple(b.number for b in table.side_bets if b.layer is None and b.backer != player),
        cancel=tuple(b.number for b in table.side_bets if b.layer is None and b.backer == player),
    )
