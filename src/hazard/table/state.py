"""The table: players and bankrolls, the caster, the stakes, side bets and dice passing, frozen.

:func:`apply_action` is to the table what :func:`hazard.core.engine.apply` is to a round: a pure function
from a state and an action to the next state and what happened. Money only ever moves as balanced
:class:`Transfer` s, so the sum of the bankrolls never changes; every stake is covered before it is laid, so
no bankroll goes below nothing.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from fractions import Fraction
from functools import cached_property

from hazard.core.engine import Call as _CoreCall
from hazard.core.engine import Mover, apply, new_round, to_move
from hazard.core.errors import IllegalError, InvalidError
from hazard.core.events import Event as RoundEvent
from hazard.core.paytable import Paytable
from hazard.core.propositions import Proposition, Tracker, parse_proposition, start
from hazard.core.rules import LossCount, MainMethod, Ruleset, StakeArrangement
from hazard.core.state import Outcome, Phase, Round, Termination
from hazard.table.actions import (
    BOT_POLICIES,
    Call,
    CancelBet,
    OfferBet,
    PassDice,
    Sit,
    Stake,
    TableAction,
    TakeBet,
    Throw,
    Withdraw,
)
from hazard.table.money import format_money

__all__ = [
    "BetOffered",
    "BetSettled",
    "BetTaken",
    "CasterChanged",
    "Player",
    "RoundSettled",
    "SideBet",
    "Staked",
    "Table",
    "TableEvent",
    "Transfer",
    "Wager",
    "apply_action",
    "new_table",
]


@dataclass(frozen=True, slots=True)
class Player:
    name: str
    bankroll: Fraction
    bot: str | None = None


@dataclass(frozen=True, slots=True)
class Wager:
    """A stake against the caster: ``amount`` is the caster's stake unit, paid out by the paytable."""

    opponent: str
    amount: Fraction


@dataclass(frozen=True, slots=True)
class SideBet:
    """A side bet: ``backer`` stakes ``amount`` on ``proposition``; ``layer`` pays ``amount * odds``."""

    number: int
    backer: str
    proposition: Proposition
    amount: Fraction
    odds: Fraction
    layer: str | None = None
    """None while the bet is only offered."""
    tracker: Tracker | None = None

    @property
    def winnings(self) -> Fraction:
        return self.amount * self.odds

    def __str__(self) -> str:
        odds = "even money" if self.odds == 1 else f"odds {self.odds.numerator} to {self.odds.denominator}"
        stake = format_money(self.amount)
        return f"#{self.number} {self.backer} backs '{self.proposition}' for {stake} at {odds}"


@dataclass(frozen=True, slots=True)
class Transfer:
    payer: str
    payee: str
    amount: Fraction

    def __str__(self) -> str:
        return f"{self.payer} pays {self.payee} {format_money(self.amount)}"


# --- table events ----------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Seated:
    player: Player

    def __str__(self) -> str:
        who = f"{self.player.name} ({self.player.bot} bot)" if self.player.bot else self.player.name
        return f"{who} sits down with {format_money(self.player.bankroll)}"


@dataclass(frozen=True, slots=True)
class Staked:
    wager: Wager
    caster: str

    def __str__(self) -> str:
        return f"{self.wager.opponent} stakes {format_money(self.wager.amount)} against {self.caster}"


@dataclass(frozen=True, slots=True)
class Withdrawn:
    player: str

    def __str__(self) -> str:
        return f"{self.player} takes back the stakes against the caster"


@dataclass(frozen=True, slots=True)
class RoundSettled:
    """The round ended: ``transfers`` settle every stake (none for a round that never began)."""

    outcome: Outcome
    caster: str
    transfers: tuple[Transfer, ...]

    def __str__(self) -> str:
        if not self.transfers:
            return "no stakes change hands"
        won = sum((t.amount for t in self.transfers if t.payee == self.caster), Fraction(0))
        lost = sum((t.amount for t in self.transfers if t.payer == self.caster), Fraction(0))
        parts = "; ".join(str(t) for t in self.transfers)
        net = won - lost
        verb = "wins" if net >= 0 else "loses"
        return f"the caster {self.caster} {verb} {format_money(abs(net))} ({parts})"


@dataclass(frozen=True, slots=True)
class CasterChanged:
    old: str | None
    new: str
    reason: str

    def __str__(self) -> str:
        if self.old is None:
            return f"{self.new} takes the dice"
        return f"the dice pass from {self.old} to {self.new}: {self.reason}"


@dataclass(frozen=True, slots=True)
class BetOffered:
    bet: SideBet

    def __str__(self) -> str:
        return f"side bet offered: {self.bet}"


@dataclass(frozen=True, slots=True)
class BetTaken:
    bet: SideBet

    def __str__(self) -> str:
        return f"{self.bet.layer} takes side bet #{self.bet.number} ('{self.bet.proposition}')"


@dataclass(frozen=True, slots=True)
class BetCancelled:
    bet: SideBet

    def __str__(self) -> str:
        return f"side bet #{self.bet.number} withdrawn"


@dataclass(frozen=True, slots=True)
class BetSettled:
    bet: SideBet
    backer_wins: bool
    transfer: Transfer

    def __str__(self) -> str:
        verdict = "comes true" if self.backer_wins else "fails"
        return f"side bet #{self.bet.number} '{self.bet.proposition}' {verdict}: {self.transfer}"


TableEvent = (
    Seated
    | Staked
    | Withdrawn
    | RoundSettled
    | CasterChanged
    | BetOffered
    | BetTaken
    | BetCancelled
    | BetSettled
)


# --- the table -------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Table:
    """A table at one moment: build one with :func:`new_table`, change it with :func:`apply_action`."""

    ruleset: Ruleset
    paytable: Paytable
    stakes: StakeArrangement
    round: Round
    players: tuple[Player, ...] = ()
    """In the order the dice travel: each player's left-hand neighbour is the next one."""
    caster: str | None = None
    throws_this_round: int = 0
    wagers: tuple[Wager, ...] = ()
    losses_in_row: int = 0
    side_bets: tuple[SideBet, ...] = ()
    next_bet: int = 1
    rounds_played: int = 0
    throws: int = 0

    @cached_property
    def _max_net(self) -> Fraction:
        """The most a unit stake can win the caster under this paytable: what a setter must cover."""
        best = self.paytable.nick
        for row in self.ruleset.rows:
            for chance in row.chances:
                best = max(best, self.paytable.chance_odds(row.main, chance))
        return best

    @property
    def round_begun(self) -> bool:
        """Whether the caster has called or the dice have been thrown in this round.

        A fixed main (craps) is set before anything happens, so it does not begin the round.
        """
        if self.throws_this_round > 0:
            return True
        return self.round.phase is not Phase.MAIN and self.ruleset.method is not MainMethod.FIXED

    def player(self, name: str) -> Player:
        for player in self.players:
            if player.name == name:
                return player
        seated = ", ".join(p.name for p in self.players) or "nobody"
        raise IllegalError(f"illegal player {name!r}: not at the table (seated: {seated})")

    def committed(self, name: str) -> Fraction:
        """What ``name`` could still lose on open stakes and side bets: held back from new stakes."""
        total = Fraction(0)
        for wager in self.wagers:
            if wager.opponent == name:
                total += wager.amount * self._max_net
            if self.caster == name:
                total += wager.amount
        for bet in self.side_bets:
            if bet.backer == name:
                total += bet.amount
            if bet.layer == name:
                total += bet.winnings
        return total

    def available(self, name: str) -> Fraction:
        """``name``'s bankroll less what is committed."""
        return self.player(name).bankroll - self.committed(name)

    @property
    def total_money(self) -> Fraction:
        return sum((p.bankroll for p in self.players), Fraction(0))

    def next_after(self, name: str) -> str:
        """The player on ``name``'s left: the next to hold the dice."""
        names = [p.name for p in self.players]
        return names[(names.index(name) + 1) % len(names)]

    def __str__(self) -> str:
        return f"table of {len(self.players)} ({self.ruleset.id}), caster {self.caster}, round: {self.round}"


def new_table(ruleset: Ruleset, paytable: Paytable, stakes: StakeArrangement | None = None) -> Table:
    """An empty table for ``ruleset``; ``stakes`` overrides the ruleset's own stake arrangement."""
    paytable.check(ruleset)
    return Table(ruleset, paytable, ruleset.stakes if stakes is None else stakes, new_round(ruleset))


AnyEvent = RoundEvent | TableEvent


def apply_action(table: Table, action: TableAction) -> tuple[Table, tuple[AnyEvent, ...]]:
    """Play ``action`` at ``table``; the new table and every event, the round's and the table's, in order.

    Raises :class:`IllegalError` for an action that is not allowed now (a stake nobody can cover, a throw
    before the caster has called) and :class:`InvalidError` for a malformed one; the table is unchanged.
    """
    if isinstance(action, Sit):
        return _sit(table, action)
    if isinstance(action, Stake):
        return _stake(table, action)
    if isinstance(action, Withdraw):
        return _withdraw(table, action)
    if isinstance(action, Call):
        return _call(table, action.main)
    if isinstance(action, Throw):
        return _throw(table, action)
    if isinstance(action, OfferBet):
        return _offer(table, action)
    if isinstance(action, TakeBet):
        return _take(table, action)
    if isinstance(action, CancelBet):
        return _cancel(table, action)
    if isinstance(action, PassDice):
        return _pass_by_choice(table)
    raise InvalidError(f"invalid table action {action!r}")


def _sit(table: Table, action: Sit) -> tuple[Table, tuple[AnyEvent, ...]]:
    name = action.name.strip()
    if not name or len(name) > 40:
        raise InvalidError(f"invalid player name {action.name!r}: expected 1 to 40 characters")
    if any(p.name.lower() == name.lower() for p in table.players):
        raise IllegalError(f"illegal seat for {name!r}: someone of that name is already at the table")
    if action.bankroll < 0:
        raise InvalidError(f"invalid bankroll {action.bankroll} for {name!r}: expected 0 or more")
    if action.bot is not None and action.bot not in BOT_POLICIES:
        raise InvalidError(
            f"invalid bot {action.bot!r} for {name!r}: expected one of {', '.join(BOT_POLICIES)}"
        )
    player = Player(name, action.bankroll, action.bot)
    # A newcomer sits at the caster's right: last in the order the dice travel from the caster.
    names = [p.name for p in table.players]
    at = (
        names.index(table.caster)
        if table.caster is not None and names.index(table.caster) > 0
        else len(names)
    )
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


def _stake(table: Table, action: Stake) -> tuple[Table, tuple[AnyEvent, ...]]:
    caster = _need_caster(table, "stake")
    what = f"stake of {format_money(action.amount)} by {action.player!r}"
    table.player(action.player)
    if action.player == caster:
        raise IllegalError(f"illegal {what}: the caster cannot stake against himself")
    if action.amount <= 0:
        raise InvalidError(f"invalid {what}: expected an amount above 0")
    if table.stakes is StakeArrangement.ALL_AGAINST_CASTER:
        if table.round.phase is Phase.CHANCE and not action.consent:
            raise IllegalError(
                f"illegal {what} once the chance is set ({table.round}): it needs the caster's consent"
            )
        if table.round.phase is Phase.OVER:  # pragma: no cover - a finished round is replaced at once
            raise IllegalError(f"illegal {what}: the round is over")
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
    cover = action.amount * table._max_net
    if table.available(action.player) < cover:
        raise IllegalError(
            f"illegal {what}: {action.player} cannot cover it (the caster could win "
            f"{format_money(cover)}; {action.player} has {format_money(table.available(action.player))} free)"
        )
    if table.available(caster) < action.amount:
        raise IllegalError(
            f"illegal {what}: the caster {caster} cannot cover it "
            f"({format_money(table.available(caster))} free)"
        )
    wager = Wager(action.player, action.amount)
    return replace(table, wagers=(*table.wagers, wager)), (Staked(wager, caster),)


def _withdraw(table: Table, action: Withdraw) -> tuple[Table, tuple[AnyEvent, ...]]:
    table.player(action.player)
    if table.round_begun:
        raise IllegalError(f"illegal withdrawal by {action.player!r} in round ({table.round}): it has begun")
    if not any(w.opponent == action.player for w in table.wagers):
        raise IllegalError(f"illegal withdrawal by {action.player!r}: no stake of theirs is laid")
    kept = tuple(w for w in table.wagers if w.opponent != action.player)
    return replace(table, wagers=kept), (Withdrawn(action.player),)


def _call(table: Table, main: int) -> tuple[Table, tuple[AnyEvent, ...]]:
    _need_caster(table, f"call of main {main}")
    state, events = apply(table.round, _CoreCall(main))
    return replace(table, round=state), events


def _throw(table: Table, action: Throw) -> tuple[Table, tuple[AnyEvent, ...]]:
    caster = _need_caster(table, f"throw {action.roll}")
    if to_move(table.round) is Mover.CASTER:
        raise IllegalError(
            f"illegal throw {action.roll} in round ({table.round}): {caster} must call a main first"
        )
    state, round_events = apply(table.round, action.roll)
    table = replace(
        table, round=state, throws_this_round=table.throws_this_round + 1, throws=table.throws + 1
    )
    events: list[AnyEvent] = list(round_events)
    table = _settle_side_bets(table, action, events)
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
    if outcome.termination is not Termination.NO_MAIN:
        for wager in table.wagers:
            net = wager.amount * table.paytable.caster_net(outcome)
            if net > 0:
                transfers.append(Transfer(wager.opponent, caster, net))
            elif net < 0:
                transfers.append(Transfer(caster, wager.opponent, -net))
    table = _pay(replace(table, wagers=()), transfers)
    events.append(RoundSettled(outcome, caster, tuple(transfers)))
    passing = table.ruleset.passing
    losses = table.losses_in_row
    reason = None
    if outcome.termination is Termination.NO_MAIN:
        reason = "the throw for the main was no main"
    elif outcome.caster_wins:
        losses = 0
    elif passing.by_losses and (passing.losses is LossCount.ANY or outcome.termination is Termination.MAIN):
        losses += 1
        if losses >= passing.after_losses:
            reason = passing.describe()
    played = outcome.termination is not Termination.NO_MAIN
    table = replace(
        table,
        round=new_round(table.ruleset),
        throws_this_round=0,
        losses_in_row=losses,
        rounds_played=table.rounds_played + played,
    )
    if reason is not None:
        table = _hand_on(table, caster, reason, events)
    return table


def _hand_on(table: Table, caster: str, reason: str, events: list[AnyEvent]) -> Table:
    new = table.next_after(caster)
    if new != caster:  # alone at the table, the caster simply keeps the dice
        events.append(CasterChanged(caster, new, reason))
    return replace(table, caster=new, losses_in_row=0)


def _pass_by_choice(table: Table) -> tuple[Table, tuple[AnyEvent, ...]]:
    caster = _need_caster(table, "pass of the dice")
    if table.round_begun:
        raise IllegalError(f"illegal pass of the dice in round ({table.round}): finish the round first")
    if len(table.players) < 2:
        raise IllegalError("illegal pass of the dice: nobody else is at the table")
    events: list[AnyEvent] = []
    if table.wagers:
        events.append(Withdrawn("every setter"))
    table = _hand_on(replace(table, wagers=()), caster, f"{caster} gives up the dice", events)
    return table, tuple(events)


# --- side bets ---------------------------------------------------------------------------------------------


def _bet(table: Table, number: int) -> SideBet:
    for bet in table.side_bets:
        if bet.number == number:
            return bet
    raise IllegalError(f"illegal side bet #{number}: no such bet is open")


def _offer(table: Table, action: OfferBet) -> tuple[Table, tuple[AnyEvent, ...]]:
    table.player(action.backer)
    proposition = parse_proposition(action.proposition)
    if action.amount <= 0 or action.odds <= 0:
        raise InvalidError(f"invalid side bet by {action.backer!r}: the amount and the odds must be above 0")
    if table.available(action.backer) < action.amount:
        raise IllegalError(
            f"illegal side bet by {action.backer!r}: {format_money(action.amount)} is more than the "
            f"{format_money(table.available(action.backer))} free"
        )
    bet = SideBet(table.next_bet, action.backer, proposition, action.amount, action.odds)
    table = replace(table, side_bets=(*table.side_bets, bet), next_bet=table.next_bet + 1)
    return table, (BetOffered(bet),)


def _take(table: Table, action: TakeBet) -> tuple[Table, tuple[AnyEvent, ...]]:
    bet = _bet(table, action.bet)
    table.player(action.layer)
    if bet.layer is not None:
        raise IllegalError(f"illegal take of side bet #{bet.number}: {bet.layer} has already taken it")
    if action.layer == bet.backer:
        raise IllegalError(f"illegal take of side bet #{bet.number}: {bet.backer} cannot lay against himself")
    if table.available(action.layer) < bet.winnings:
        raise IllegalError(
            f"illegal take of side bet #{bet.number} by {action.layer!r}: it could cost "
            f"{format_money(bet.winnings)}, more than the {format_money(table.available(action.layer))} free"
        )
    taken = replace(bet, layer=action.layer, tracker=start(bet.proposition))
    bets = tuple(taken if b.number == bet.number else b for b in table.side_bets)
    return replace(table, side_bets=bets), (BetTaken(taken),)


def _cancel(table: Table, action: CancelBet) -> tuple[Table, tuple[AnyEvent, ...]]:
    bet = _bet(table, action.bet)
    if bet.layer is not None:
        raise IllegalError(f"illegal withdrawal of side bet #{bet.number}: {bet.layer} has taken it")
    bets = tuple(b for b in table.side_bets if b.number != bet.number)
    return replace(table, side_bets=bets), (BetCancelled(bet),)


def _settle_side_bets(table: Table, action: Throw, events: list[AnyEvent]) -> Table:
    still_open: list[SideBet] = []
    transfers: list[Transfer] = []
    for bet in table.side_bets:
        if bet.tracker is None or bet.layer is None:
            still_open.append(bet)
            continue
        tracker = bet.tracker.advance(action.roll)
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
