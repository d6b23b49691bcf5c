"""The table at one moment, frozen: players and bankrolls, the caster, the stakes, the side bets, the round.

:func:`hazard.table.rules.transitions.apply_action` makes new tables; nothing changes in place. Money only
moves as balanced :class:`Transfer` s, so the sum of the bankrolls never changes; every stake is covered
before it is laid, so no bankroll goes below nothing. :func:`table_json` is the table's JSON form, the one
every front end and export shows.
"""

from __future__ import annotations

import enum
import math
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from typing import Any

from hazard.core.engine import Mover, new_round, to_move
from hazard.core.errors import IllegalError
from hazard.core.numbers import fraction_text
from hazard.core.paytable import Paytable
from hazard.core.propositions import Proposition, Tracker
from hazard.core.rules import MainMethod, Ruleset, StakeArrangement
from hazard.core.seats import next_in_turn
from hazard.core.state import Phase, Round
from hazard.table.rules.actors import BotPolicy
from hazard.table.rules.money import MoneyStyle, format_money
from hazard.table.rules.reader import odds_text

__all__ = [
    "Need",
    "Player",
    "SideBet",
    "Table",
    "Transfer",
    "Turn",
    "Wager",
    "money_json",
    "new_table",
    "table_json",
]


@dataclass(frozen=True, slots=True)
class Player:
    name: str
    bankroll: Fraction
    bot: BotPolicy | None = None
    run: int = 0
    """The player's stakes against the caster settled in a row the same way: won (above 0) or lost (below 0);
    what a staking progression reads (:meth:`hazard.core.staking.StakingPlan.steps`)."""
    seating: int = 0
    """The number of the record's entry that seated the player: his seating's identity, which every key to
    the seat belongs to (a player who leaves and sits again, or a newcomer of the same name, has another);
    0 where no record numbers the sit (a table tried out before anything is recorded)."""


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

    def text(self, money: MoneyStyle = MoneyStyle.DECIMAL) -> str:
        odds = "even money" if self.odds == 1 else f"odds {odds_text(self.odds)}"
        stake = format_money(self.amount, money)
        return f"#{self.number} {self.backer} backs '{self.proposition}' for {stake} at {odds}"

    def __str__(self) -> str:
        return self.text()


@dataclass(frozen=True, slots=True)
class Transfer:
    payer: str
    payee: str
    amount: Fraction

    def text(self, money: MoneyStyle = MoneyStyle.DECIMAL) -> str:
        return f"{self.payer} pays {self.payee} {format_money(self.amount, money)}"

    def __str__(self) -> str:
        return self.text()


class Need(enum.Enum):
    """What the table waits for before the round can go on."""

    PLAYERS = "players"
    """Nobody is seated yet."""
    CALL = "call"
    """The caster must call a main."""
    THROW = "throw"
    """The dice are to be thrown, by the caster."""


@dataclass(frozen=True, slots=True)
class Turn:
    """Whose turn it is: the caster and what the round waits for, and whether stakes may be laid now."""

    caster: str | None
    need: Need
    stakes_open: bool
    """Whether players other than the caster may lay stakes against him now."""

    def __str__(self) -> str:
        if self.need is Need.PLAYERS:
            return "the table waits for players"
        verb = "to call a main" if self.need is Need.CALL else "to throw"
        return f"{self.caster} {verb}" + ("; stakes may be laid" if self.stakes_open else "")


# Of the paytable and ruleset alone, so kept beside them: every action makes a new Table, which would compute
# them again for each stake (about a tenth of an action's rules).
@lru_cache(maxsize=256)
def _grain(paytable: Paytable, ruleset: Ruleset) -> int:
    grain = paytable.nick.denominator
    for row in ruleset.rows:
        for chance in sorted(row.chances):
            grain = math.lcm(grain, paytable.chance_odds(row.main, chance).denominator)
    return grain


@lru_cache(maxsize=256)
def _most_won(paytable: Paytable, ruleset: Ruleset) -> Fraction:
    return paytable.most_won(ruleset)


@dataclass(frozen=True)
class Table:
    """A table at one moment: build one with :func:`new_table`, change it with ``apply_action``."""

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

    @property
    def paytable_grain(self) -> int:
        """The least common multiple of the denominators of every odds the paytable can pay on this ruleset:
        a stake's payout is a whole number of its amount's parts divided by this."""
        return _grain(self.paytable, self.ruleset)

    @property
    def most_won(self) -> Fraction:
        """The most a unit stake can win the caster here: what a setter covers for each unit he stakes."""
        return _most_won(self.paytable, self.ruleset)

    @property
    def round_begun(self) -> bool:
        """Whether the caster has called or the dice have been thrown in this round.

        A fixed main (craps) is set before anything happens, so it does not begin the round.
        """
        if self.throws_this_round > 0:
            return True
        return self.round.phase is not Phase.MAIN and self.ruleset.method is not MainMethod.FIXED

    @property
    def turn(self) -> Turn:
        """Whose turn it is, and what for."""
        if self.caster is None:
            return Turn(None, Need.PLAYERS, stakes_open=False)
        need = Need.CALL if to_move(self.round) is Mover.CASTER else Need.THROW
        if self.stakes is StakeArrangement.ALL_AGAINST_CASTER:
            stakes_open = self.round.phase is not Phase.CHANCE  # after it, only with the caster's consent
        else:
            stakes_open = not self.round_begun
        return Turn(self.caster, need, stakes_open=stakes_open and len(self.players) > 1)

    def player(self, name: str) -> Player:
        for player in self.players:
            if player.name == name:
                return player
        seated = ", ".join(p.name for p in self.players) or "nobody"
        raise IllegalError(f"illegal player {name!r}: not at the table (seated: {seated})")

    def seated(self, name: str) -> bool:
        return any(player.name == name for player in self.players)

    def committed(self, name: str) -> Fraction:
        """What ``name`` could still lose on open stakes and side bets: held back from new stakes."""
        total = Fraction(0)
        for wager in self.wagers:
            if wager.opponent == name:
                total += wager.amount * self.most_won
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

    def staked_by(self, name: str) -> Fraction:
        """What ``name`` has laid against the caster this round."""
        return sum((w.amount for w in self.wagers if w.opponent == name), Fraction(0))

    @property
    def total_money(self) -> Fraction:
        return sum((p.bankroll for p in self.players), Fraction(0))

    def next_after(self, name: str) -> str:
        """The player on ``name``'s left: the next to hold the dice."""
        self.player(name)  # refuses a name not at the table
        return next_in_turn([p.name for p in self.players], name)

    def bet(self, number: int) -> SideBet:
        """Side bet ``number``, open or taken; an :class:`IllegalError` if no such bet is open."""
        for bet in self.side_bets:
            if bet.number == number:
                return bet
        raise IllegalError(
            f"illegal side bet #{number}: no such bet is open", said=f"There is no open side bet #{number}."
        )

    def __str__(self) -> str:
        seats = f"{len(self.players)} player{'' if len(self.players) == 1 else 's'}"
        return f"{self.ruleset.id} table of {seats}, caster {self.caster}, round: {self.round}"


def new_table(ruleset: Ruleset, paytable: Paytable, stakes: StakeArrangement | None = None) -> Table:
    """An empty table for ``ruleset``; ``stakes`` overrides the ruleset's own stake arrangement."""
    paytable.check(ruleset)
    return Table(ruleset, paytable, ruleset.stakes if stakes is None else stakes, new_round(ruleset))


def money_json(out: dict[str, Any], name: str, amount: Fraction) -> None:
    """Put ``amount`` into ``out`` as JSON keeps sums: the exact ``a/b`` at ``name``, a float beside it."""
    out[name] = fraction_text(amount)
    out[f"{name}_float"] = float(amount)


def table_json(table: Table) -> dict[str, Any]:
    """The table's state as plain JSON values: each sum exact (``"305/3"``) with its float beside it."""
    players = []
    for p in table.players:
        entry: dict[str, Any] = {"name": p.name, "bot": None if p.bot is None else p.bot.value}
        money_json(entry, "bankroll", p.bankroll)
        money_json(entry, "free", table.available(p.name))
        players.append(entry)
    stakes = []
    for w in table.wagers:
        stake: dict[str, Any] = {"player": w.opponent}
        money_json(stake, "amount", w.amount)
        stakes.append(stake)
    bets = []
    for b in table.side_bets:
        bet: dict[str, Any] = {
            "number": b.number,
            "backer": b.backer,
            "layer": b.layer,
            "proposition": str(b.proposition),
        }
        money_json(bet, "amount", b.amount)
        bet["odds"] = fraction_text(b.odds)
        bets.append(bet)
    turn = table.turn
    return {
        "caster": table.caster,
        "phase": table.round.phase.value,
        "main": table.round.main,
        "chance": table.round.chance,
        "turn": {"caster": turn.caster, "need": turn.need.value, "stakes_open": turn.stakes_open},
        "rounds_played": table.rounds_played,
        "throws": table.throws,
        "throws_this_round": table.throws_this_round,
        "losses_in_row": table.losses_in_row,
        "players": players,
        "stakes": stakes,
        "side_bets": bets,
    }
