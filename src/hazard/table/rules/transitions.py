"""The table's rules: a pure function from a table, an action and its actor to the next table and the events.

:func:`apply_action` is to the table what :func:`hazard.core.engine.apply` is to a round. It first asks
:mod:`hazard.table.rules.roles` whether the actor may take the action at all: a player acts only for himself (he
stakes and withdraws his own stakes, offers and cancels his own side bets, takes another's), only the caster
calls, throws and passes the dice, and a bet laid once the chance is set is the caster's to accept. The referee
may enter any player's action. Then it decides whether the action is allowed now, and plays it.

>>> from hazard.core.rulesets import find_ruleset, find_paytable
>>> table = new_table(find_ruleset("craps"), find_paytable("even"))
>>> for name in ("Ann", "Bob"):
...     table, _ = apply_action(table, Sit(name, Fraction(10)), by=Actor.player(name))
>>> apply_action(table, Stake("Bob", Fraction(2)), by=Actor.player("Ann"))
Traceback (most recent call last):
...
hazard.table.rules.actors.ActorError: illegal stake Bob 2 by Ann at the craps table of 2 players, caster Ann, round: main 7, no chance yet: a player stakes only for himself (this is Bob's)
"""  # noqa: E501

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Any

from hazard.core.dice import Roll
from hazard.core.engine import Call, Mover, apply, new_round, to_move
from hazard.core.errors import IllegalError, InvalidError
from hazard.core.passing import PassingEffect, after_round, passing_effect
from hazard.core.propositions import parse_proposition, start
from hazard.core.rules import StakeArrangement
from hazard.core.seats import newcomer_place
from hazard.core.state import Outcome
from hazard.table.rules.actions import (
    ActionType,
    Actor,
    CancelBet,
    Leave,
    OfferBet,
    PassDice,
    Sit,
    Stake,
    TableAction,
    TakeBet,
    Withdraw,
    action_text,
    check_name,
    name_key,
)
from hazard.table.rules.events import (
    AnyEvent,
    BetCancelled,
    BetOffered,
    BetSettled,
    BetTaken,
    CasterChanged,
    Left,
    RoundSettled,
    Seated,
    Staked,
    Thrown,
    Withdrawn,
)
from hazard.table.rules.money import MAX_GRAIN, MoneyStyle, check_odds, check_sum, command_style, money_text
from hazard.table.rules.registry import form_of, register_form, unregister_form
from hazard.table.rules.roles import acting_for, acts_for, check_actor, needs_consent
from hazard.table.rules.state import Player, SideBet, Table, Transfer, Wager, new_table

__all__ = [
    "HANDLERS",
    "MAX_PLAYERS",
    "Handler",
    "HandlerContext",
    "acting_for",
    "apply_action",
    "check_throw",
    "new_table",
    "register_action",
    "unregister_action",
]

MAX_PLAYERS = 100
"""The most players one table seats."""

Step = tuple[Table, tuple[AnyEvent, ...]]


def _sum(amount: Fraction, money: MoneyStyle) -> str:
    """A sum in a message: in the table's money style where that is exact, else exactly, so that a refusal
    never rounds."""
    return money_text(amount, money)


def _text(action: TableAction, money: MoneyStyle) -> str:
    """An action as a refusal names it: its sums as the table shows money (in a command's form)."""
    return action_text(action, command_style(money))


@dataclass(frozen=True, slots=True)
class HandlerContext:
    """What a handler knows of the action besides the table: how refusals show money, and the number of
    the action's entry in the record (a sit makes it the player's seating)."""

    money: MoneyStyle = MoneyStyle.EXACT
    seq: int = 0


Handler = Callable[[Table, Any, HandlerContext], Step]
"""A handler plays one type of action at a table: the new table and the events, or a refusal."""

HANDLERS: dict[type[Any], Handler] = {
    Sit: lambda table, action, turn: _sit(table, action, turn.money, turn.seq),
    Stake: lambda table, action, turn: _stake(table, action, turn.money),
    Withdraw: lambda table, action, _: _withdraw(table, action),
    Leave: lambda table, action, _: _leave(table, action),
    Call: lambda table, action, _: _call(table, action),
    Roll: lambda table, action, _: _throw(table, action),
    OfferBet: lambda table, action, turn: _offer(table, action, turn.money),
    TakeBet: lambda table, action, turn: _take(table, action, turn.money),
    CancelBet: lambda table, action, _: _cancel(table, action),
    PassDice: lambda table, _action, _: _pass_by_choice(table),
}
"""The one map from an action's type to its handler, as boardgame.io's moves are a map of functions."""


def register_action(kind: type[ActionType], handler: Handler) -> None:
    """Add an action type to every table: ``kind`` (an :class:`~hazard.table.rules.action_types.ActionType`,
    carrying its verb, usage, text, JSON and the choices it offers) and ``handler``, which plays it and, as
    the built-in ones, changes nothing but the table it returns (a seat's choices are tried through it).
    Refused where its type, verb or JSON type is taken already."""
    if kind in HANDLERS:
        raise InvalidError(f"invalid action type {kind.__name__}: it is registered already")
    register_form(kind.form())
    HANDLERS[kind] = handler


def unregister_action(kind: type[ActionType]) -> None:
    """Take away an action type that :func:`register_action` added (for tests that add their own)."""
    unregister_form(kind)
    del HANDLERS[kind]


def apply_action(
    table: Table, action: TableAction, *, by: Actor, money: MoneyStyle = MoneyStyle.EXACT, seq: int = 0
) -> Step:
    """Play ``action``, taken by ``by``, at ``table``: the new table and every event, the round's and the
    table's, in order. ``seq`` is the number of the action's entry in the record (a sit makes it the
    player's seating: :attr:`~hazard.table.rules.state.Player.seating`).

    Raises :class:`IllegalError` for an action that actor may not take, or that is not allowed now (a stake
    nobody can cover, a throw before the caster has called), naming the actor, the action and the table;
    :class:`InvalidError` for a malformed one. The table is unchanged either way. Every sum a refusal shows
    is in ``money``, the table's money style, where that is exact.
    """
    handler = HANDLERS.get(type(action))
    if handler is None:
        raise InvalidError(f"invalid table action {action!r}")
    check_actor(table, action, by, money)
    step = handler(table, action, HandlerContext(money, seq))
    if form_of(action).brings_money:  # money, or a bet, comes to the table
        _check_grain(step[0], action, money)
    return step


# --- seats, stakes, the caster's actions -------------------------------------------------------------------


def _check_grain(table: Table, action: TableAction, money: MoneyStyle) -> None:
    """Refuse an action after which the table's money could come to parts of a unit finer than
    :data:`MAX_GRAIN`: every sum at the table, and every sum a stake or side bet can pay, counted together.

    A bankroll only ever changes by what a stake or a side bet pays, so every sum any bankroll can reach is
    a whole number of the finest part found here, and no more than all the money at the table: so it always
    has a short exact form, however the dice fall.
    """
    grain = 1
    pays = table.paytable_grain
    for player in table.players:
        grain = math.lcm(grain, player.bankroll.denominator)
    for wager in table.wagers:
        grain = math.lcm(grain, wager.amount.denominator * pays)
    for bet in table.side_bets:
        grain = math.lcm(grain, bet.amount.denominator, bet.winnings.denominator)
    if grain > MAX_GRAIN:
        raise IllegalError(
            f"illegal {_text(action, money)}: with it the money at the table would come to parts of "
            f"a unit finer than 1/{MAX_GRAIN} (its sums, stakes, odds and side bets together); lay it with "
            "a simpler sum or odds"
        )


def _sit(table: Table, action: Sit, money: MoneyStyle, seq: int = 0) -> Step:
    name = check_name(action.name)
    if any(name_key(p.name) == name_key(name) for p in table.players):
        raise IllegalError(f"illegal seat for {name!r}: someone of that name is already at the table")
    if len(table.players) >= MAX_PLAYERS:
        raise IllegalError(f"illegal seat for {name!r}: the table seats at most {MAX_PLAYERS} players")
    check_sum(action.bankroll, what=f"bankroll for {name!r}", allow_zero=True, money=money)
    player = Player(name, action.bankroll, action.bot, seating=seq)
    at = newcomer_place([p.name for p in table.players], table.caster)  # at the caster's right
    table = replace(table, players=(*table.players[:at], player, *table.players[at:]))
    events: list[AnyEvent] = [Seated(player)]
    if table.caster is None:
        table = replace(table, caster=name)
        events.append(CasterChanged(None, name, "the first to sit"))
    return table, tuple(events)


def _need_caster(table: Table, what: str) -> str:
    if table.caster is None:
        raise IllegalError(f"illegal {what}: nobody is at the table yet")
    return table.caster


def _stake(table: Table, action: Stake, money: MoneyStyle) -> Step:
    caster = _need_caster(table, "stake")
    what = f"stake of {_sum(action.amount, money)} by {action.player!r}"
    table.player(action.player)
    if action.player == caster:
        raise IllegalError(f"illegal {what}: the caster cannot stake against himself")
    check_sum(action.amount, what=what, money=money)
    if table.stakes is StakeArrangement.ALL_AGAINST_CASTER:
        if needs_consent(table) and not action.consent:
            raise IllegalError(
                f"illegal {what} once the chance is set ({table.round}): it needs the caster's consent"
            )
    elif table.round_begun:
        raise IllegalError(
            f"illegal {what} in round ({table.round}): stakes are laid before the round begins"
        )
    if (
        table.stakes is StakeArrangement.SETTER_SUM
        and table.wagers
        and table.wagers[0].opponent != action.player
    ):
        raise IllegalError(f"illegal {what}: {table.wagers[0].opponent} is already the setter for this round")
    cover = action.amount * table.most_won
    if table.available(action.player) < cover:
        raise IllegalError(
            f"illegal {what}: {action.player} cannot cover it (the caster could win "
            f"{_sum(cover, money)}; {action.player} has {_sum(table.available(action.player), money)} free)"
        )
    if table.available(caster) < action.amount:
        raise IllegalError(
            f"illegal {what}: the caster {caster} cannot cover it ({_sum(table.available(caster), money)} "
            "free)"
        )
    wager = Wager(action.player, action.amount)
    return replace(table, wagers=(*table.wagers, wager)), (Staked(wager, caster),)


def _withdraw(table: Table, action: Withdraw) -> Step:
    table.player(action.player)
    if table.round_begun:
        raise IllegalError(f"illegal withdrawal by {action.player!r} in round ({table.round}): it has begun")
    if not any(w.opponent == action.player for w in table.wagers):
        raise IllegalError(
            f"illegal withdrawal by {action.player!r}: no stake of theirs is laid",
            said=f"{action.player} has no stake laid to withdraw.",
        )
    kept = tuple(w for w in table.wagers if w.opponent != action.player)
    return replace(table, wagers=kept), (Withdrawn((action.player,)),)


def _leave(table: Table, action: Leave) -> Step:
    player = table.player(action.player)
    name = player.name
    what = f"illegal leave by {name!r}"
    if name == table.caster and table.round_begun:
        raise IllegalError(f"{what} in round ({table.round}): he casts it; finish the round first")
    if table.round_begun and any(w.opponent == name for w in table.wagers):
        raise IllegalError(f"{what} in round ({table.round}): his stake against the caster is at risk")
    taken = [b.number for b in table.side_bets if b.layer is not None and name in (b.backer, b.layer)]
    if taken:
        raise IllegalError(f"{what}: side bet #{taken[0]} of his is in play; it must settle first")
    events: list[AnyEvent] = []
    if name == table.caster and table.wagers:
        events.append(Withdrawn(tuple(dict.fromkeys(w.opponent for w in table.wagers))))
        table = replace(table, wagers=())
    elif any(w.opponent == name for w in table.wagers):
        events.append(Withdrawn((name,)))
        table = replace(table, wagers=tuple(w for w in table.wagers if w.opponent != name))
    for bet in table.side_bets:
        if bet.backer == name:  # open offers of his (a taken one refused above)
            events.append(BetCancelled(bet))
    table = replace(table, side_bets=tuple(b for b in table.side_bets if b.backer != name))
    caster = table.caster
    if name == caster:
        table = _hand_on(table, name, f"{name} leaves the table", events)
        caster = table.caster if table.caster != name else None
    players = tuple(p for p in table.players if p.name != name)
    events.append(Left(player))
    return replace(table, players=players, caster=caster if players else None), tuple(events)


def _call(table: Table, action: Call) -> Step:
    _need_caster(table, f"call of main {action.main}")
    state, events = apply(table.round, action)
    return replace(table, round=state), events


def check_throw(table: Table, *, by: Actor) -> None:
    """Refuse, before any dice are thrown, a throw that ``by`` may not make now, whatever it would show.

    Whether a throw is allowed never depends on what it shows, so the game's own dice are asked only once
    the throw is allowed, and a refused throw reveals nothing.
    """
    caster = _need_caster(table, "throw")
    if not acts_for(by, caster):
        raise IllegalError(
            f"illegal throw by {by} at the {table}: only the caster, {caster}, throws the dice"
        )
    if to_move(table.round) is Mover.CASTER:
        mains = [str(main) for main in table.ruleset.mains]
        choice = mains[0] if len(mains) == 1 else ", ".join(mains[:-1]) + " or " + mains[-1]
        raise IllegalError(
            f"illegal throw by {by} in round ({table.round}): {caster} must call a main first ({choice}), "
            f"e.g. call {table.ruleset.mains[len(mains) // 2]}"
        )


def _throw(table: Table, roll: Roll) -> Step:
    caster = _need_caster(table, f"throw {roll}")
    if to_move(table.round) is Mover.CASTER:
        raise IllegalError(f"illegal throw {roll} in round ({table.round}): {caster} must call a main first")
    state, round_events = apply(table.round, roll)
    table = replace(
        table, round=state, throws_this_round=table.throws_this_round + 1, throws=table.throws + 1
    )
    events: list[AnyEvent] = [Thrown(caster, roll), *round_events]
    table = _settle_side_bets(table, roll, events)
    if state.outcome is not None:
        table = _end_round(table, caster, state.outcome, events)
    return table, tuple(events)


def _pay(table: Table, transfers: list[Transfer]) -> Table:
    balance: dict[str, Fraction] = {}
    for t in transfers:
        balance[t.payer] = balance.get(t.payer, Fraction(0)) - t.amount
        balance[t.payee] = balance.get(t.payee, Fraction(0)) + t.amount
    players = tuple(replace(p, bankroll=p.bankroll + balance.get(p.name, Fraction(0))) for p in table.players)
    return replace(table, players=players)


def _end_round(table: Table, caster: str, outcome: Outcome, events: list[AnyEvent]) -> Table:
    transfers: list[Transfer] = []
    net = table.paytable.caster_net(outcome)
    results: dict[str, bool] = {}
    for wager in table.wagers:
        won = wager.amount * net
        if won > 0:
            transfers.append(Transfer(wager.opponent, caster, won))
        elif won < 0:
            transfers.append(Transfer(caster, wager.opponent, -won))
        if won != 0:
            results[wager.opponent] = won < 0  # the setter won what the caster lost
    table = _pay(replace(table, wagers=()), transfers)
    table = _runs(table, results)
    events.append(RoundSettled(outcome, caster, tuple(transfers)))
    passing = table.ruleset.passing
    effect = passing_effect(passing, outcome.termination)
    losses, passes = after_round(passing, table.losses_in_row, outcome.termination)
    table = replace(
        table,
        round=new_round(table.ruleset),
        throws_this_round=0,
        losses_in_row=losses,
        rounds_played=table.rounds_played + (effect is not PassingEffect.PASS),
    )
    if passes:
        reason = "the throw for the main was no main" if effect is PassingEffect.PASS else passing.describe()
        table = _hand_on(table, caster, reason, events)
    return table


def _runs(table: Table, results: dict[str, bool]) -> Table:
    """Each player's run of stakes settled the same way, moved on by this round's result (``results``: won or
    lost, by player; a stake that neither won nor lost leaves the run as it was)."""
    if not results:
        return table
    return replace(
        table, players=tuple(_run_on(p, results[p.name]) if p.name in results else p for p in table.players)
    )


def _run_on(player: Player, won: bool) -> Player:
    if won:
        return replace(player, run=player.run + 1 if player.run > 0 else 1)
    return replace(player, run=player.run - 1 if player.run < 0 else -1)


def _hand_on(table: Table, caster: str, reason: str, events: list[AnyEvent]) -> Table:
    new = table.next_after(caster)
    if new != caster:  # alone at the table, the caster simply keeps the dice
        events.append(CasterChanged(caster, new, reason))
    return replace(table, caster=new, losses_in_row=0)


def _pass_by_choice(table: Table) -> Step:
    caster = _need_caster(table, "pass of the dice")
    if table.round_begun:
        raise IllegalError(f"illegal pass of the dice in round ({table.round}): finish the round first")
    if len(table.players) < 2:
        raise IllegalError("illegal pass of the dice: nobody else is at the table")
    events: list[AnyEvent] = []
    if table.wagers:
        events.append(Withdrawn(tuple(dict.fromkeys(w.opponent for w in table.wagers))))
    table = _hand_on(replace(table, wagers=()), caster, f"{caster} gives up the dice", events)
    return table, tuple(events)


# --- side bets ---------------------------------------------------------------------------------------------


def _offer(table: Table, action: OfferBet, money: MoneyStyle) -> Step:
    table.player(action.backer)
    proposition = parse_proposition(action.proposition)
    check_sum(action.amount, what=f"side bet by {action.backer!r}", money=money)
    check_odds(action.odds, what=f"odds of a side bet by {action.backer!r}")
    if table.available(action.backer) < action.amount:
        raise IllegalError(
            f"illegal side bet by {action.backer!r}: {_sum(action.amount, money)} is more than the "
            f"{_sum(table.available(action.backer), money)} free"
        )
    bet = SideBet(table.next_bet, action.backer, proposition, action.amount, action.odds)
    table = replace(table, side_bets=(*table.side_bets, bet), next_bet=table.next_bet + 1)
    return table, (BetOffered(bet),)


def _take(table: Table, action: TakeBet, money: MoneyStyle) -> Step:
    bet = table.bet(action.bet)
    table.player(action.layer)
    if bet.layer is not None:
        raise IllegalError(f"illegal take of side bet #{bet.number}: {bet.layer} has already taken it")
    if action.layer == bet.backer:
        raise IllegalError(f"illegal take of side bet #{bet.number}: {bet.backer} cannot lay against himself")
    if table.available(action.layer) < bet.winnings:
        raise IllegalError(
            f"illegal take of side bet #{bet.number} by {action.layer!r}: it could cost "
            f"{_sum(bet.winnings, money)}, more than the {_sum(table.available(action.layer), money)} free"
        )
    taken = replace(bet, layer=action.layer, tracker=start(bet.proposition))
    bets = tuple(taken if b.number == bet.number else b for b in table.side_bets)
    return replace(table, side_bets=bets), (BetTaken(taken),)


def _cancel(table: Table, action: CancelBet) -> Step:
    bet = table.bet(action.bet)
    if bet.layer is not None:
        raise IllegalError(f"illegal withdrawal of side bet #{bet.number}: {bet.layer} has taken it")
    bets = tuple(b for b in table.side_bets if b.number != bet.number)
    return replace(table, side_bets=bets), (BetCancelled(bet),)


def _settle_side_bets(table: Table, roll: Roll, events: list[AnyEvent]) -> Table:
    still_open: list[SideBet] = []
    transfers: list[Transfer] = []
    for bet in table.side_bets:
        if bet.tracker is None or bet.layer is None:
            still_open.append(bet)
            continue
        tracker = bet.tracker.advance(roll)
        if tracker.decided is None:
            still_open.append(replace(bet, tracker=tracker))
            continue
        if tracker.decided:
            transfer = Transfer(bet.layer, bet.backer, bet.winnings)
        else:
            transfer = Transfer(bet.backer, bet.layer, bet.amount)
        transfers.append(transfer)
        events.append(BetSettled(bet, tracker.decided, transfer))
    return _pay(replace(table, side_bets=tuple(still_open)), transfers)
