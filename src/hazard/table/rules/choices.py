"""What one player may do at a table now: what a front end offers him, and nothing else.

The table's rules (:func:`hazard.table.apply_action`) decide every action sent, and they decide this too:
each choice is the table's answer to trying it, so every front end shows the same choices and no rule is
written a second time. What to try comes from the action types themselves: each registered form offers its
candidates (:meth:`~hazard.table.rules.action_types.ActionType.offers`), a type registered later as well as
the built-in ones; a stake or a side bet, whose sum the player names, is tried with a token sum.

>>> from fractions import Fraction
>>> from hazard.core.rulesets import find_ruleset, find_paytable
>>> from hazard.table.rules.actions import Actor, Sit
>>> from hazard.table.rules.transitions import apply_action, new_table
>>> table = new_table(find_ruleset("wikipedia"), find_paytable("even"))
>>> for name in ("Ann", "Bob"):
...     table, _ = apply_action(table, Sit(name, Fraction(10)), by=Actor.player(name))
>>> choices(table, "Ann").mains, choices(table, "Bob").stake, choices(table, "Bob").others
((5, 6, 7, 8, 9), True, ())
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any, cast, get_args

from hazard.core.engine import Call
from hazard.core.errors import HazardError
from hazard.table.rules.actions import (
    Actor,
    CancelBet,
    Leave,
    OfferBet,
    PassDice,
    Stake,
    TableAction,
    TakeBet,
    Withdraw,
)
from hazard.table.rules.registry import forms
from hazard.table.rules.roles import keeps_bank, names_stake_against_bank
from hazard.table.rules.state import Need, Table
from hazard.table.rules.transitions import apply_action, check_throw

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
    """He may lay a stake now (the caster under the bank arrangement names his own against the bank, where a
    bot at the table keeps it)."""
    withdraw: bool = False
    """He has stakes laid, and may take them back before the round begins."""
    pass_dice: bool = False
    """He holds the dice between rounds, and may hand them on."""
    leave: bool = False
    """He may get up from the table now, with his bankroll."""
    offer: bool = False
    """He may offer a side bet."""
    take: tuple[int, ...] = ()
    """Open side bets of others he may take."""
    cancel: tuple[int, ...] = ()
    """His own open side bets, which he may withdraw."""
    others: tuple[object, ...] = ()
    """The actions of the types no field above names (types registered beside the built-in ones) that he
    may take now, each whole, in the order their types were registered: a front end offers each as its
    text form (:func:`~hazard.table.rules.registry.action_text`)."""


_TRIAL = Fraction(1, 100)
"""The sum a choice to stake or bet is tried with: whether one may stake at all, not how much."""

_NAMED: frozenset[type[Any]] = frozenset(get_args(TableAction))
"""The built-in action types, whose choices the fields of :class:`Choices` name (a front end has a control
of its own for each); what any other type offers is among its ``others``."""


def choices(table: Table, player: str) -> Choices:
    """What ``player`` may do at ``table`` now: each choice tried against the table's own rules
    (:func:`~hazard.table.rules.transitions.apply_action`, which is pure), so no rule is written twice."""
    if not table.seated(player):
        return Choices()
    by = Actor.player(player)

    def accepts(action: object) -> bool:
        try:  # a registered type is a table action too, though the union names only the built-in ones
            apply_action(table, cast("TableAction", action), by=by)
        except HazardError:
            return False
        return True

    def throws(thrower: Actor) -> bool:
        try:
            check_throw(table, by=thrower)
        except HazardError:
            return False
        return True

    # Every registered type is asked what it offers, and each candidate tried: the built-in ones' too.
    offered: dict[type[Any], tuple[Any, ...]] = {
        form.type: tuple(action for action in form.offers(table, player) if accepts(action))
        for form in forms()
        if form.offers is not None
    }
    caster = table.caster
    holds = caster == player
    bot_caster = caster is not None and not holds and table.player(caster).bot is not None
    if holds:  # the caster names his stake against the bank, which a bot keeps (Session.act)
        bank = keeps_bank(table, player)
        stake = names_stake_against_bank(table, player) and not table.round_begun and bank
    else:
        stake = accepts(Stake(player, _TRIAL))
    return Choices(
        mains=tuple(call.main for call in offered.get(Call, ())),
        throw=holds and throws(by),
        throw_for=caster if bot_caster and caster is not None and _bot_may_go_on(table) else None,
        stake=stake,
        withdraw=bool(offered.get(Withdraw)),
        pass_dice=bool(offered.get(PassDice)),
        leave=bool(offered.get(Leave)),
        offer=accepts(OfferBet(player, "next 7", _TRIAL)),
        take=tuple(take.bet for take in offered.get(TakeBet, ())),
        cancel=tuple(cancel.bet for cancel in offered.get(CancelBet, ())),
        others=tuple(action for kind, made in offered.items() if kind not in _NAMED for action in made),
    )


def _bot_may_go_on(table: Table) -> bool:
    """Whether a bot caster's round can go on when asked: it calls where it must, then throws."""
    return table.turn.need in (Need.CALL, Need.THROW)
