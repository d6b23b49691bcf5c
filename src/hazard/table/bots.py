"""Bots that sit at a table: what each would do now, as actions, decided from the table alone.

Bots choose; they never roll. Their choices are deterministic, so a game with bots and seeded dice replays
the same from its record. The best main for a calling caster comes from outside (the exact analyser, which
this layer does not import): :class:`BotBrains` is handed the main to call.

Policies, by name:

- ``setter``: stakes the table's unit against the caster whenever it can cover it, and takes any side bet
  offered on one of the even-money propositions the 1674 source recommends.
- ``bystander``: stakes nothing; at the start of each round offers one of those even-money bets (in turn)
  if it has none open, and takes such bets when offered.

Any bot holding the dice calls the main it was given (7 by default).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from fractions import Fraction

from hazard.core.engine import Mover, to_move
from hazard.core.errors import InvalidError
from hazard.core.propositions import SOURCE_BETS, parse_proposition
from hazard.core.rules import StakeArrangement
from hazard.core.state import Phase
from hazard.table.actions import BOT_POLICIES, Call, OfferBet, Stake, TableAction, TakeBet
from hazard.table.state import Table, apply_action

__all__ = ["BOT_POLICIES", "BotBrains"]

_FAIR_BETS = frozenset(parse_proposition(text) for text in SOURCE_BETS)


@dataclass(frozen=True)
class BotBrains:
    """What the bots at a table know: the stake unit and the main a bot caster calls."""

    unit: Fraction = Fraction(1)
    main: int | None = None
    """The main a bot caster calls where the main is called; None: 7 if it is a main, else the first."""

    def __post_init__(self) -> None:
        if self.unit <= 0:
            raise InvalidError(f"invalid bot stake unit {self.unit}: expected more than 0")

    def call(self, table: Table) -> Call | None:
        """The call a bot caster makes now, if it holds the dice and must call."""
        if table.caster is None or table.player(table.caster).bot is None:
            return None
        if to_move(table.round) is not Mover.CASTER:
            return None
        mains = table.ruleset.mains
        main = self.main if self.main in mains else (7 if 7 in mains else mains[0])
        return Call(main)

    def cover(self, table: Table, amount: Fraction) -> str | None:
        """The bot that takes a caster's stake of ``amount`` under the bank arrangement, if any can.

        Setter bots are asked first, in seating order, then the other bots; the table decides what each can
        cover.
        """
        if table.caster is None or table.stakes is not StakeArrangement.BANK:
            return None
        bots = [p for p in table.players if p.bot is not None and p.name != table.caster]
        for player in sorted(bots, key=lambda p: p.bot != "setter"):
            if _affordable(table, Stake(player.name, amount)):
                return player.name
        return None

    def consents(self, table: Table, stake: Stake) -> bool:
        """Whether a bot caster agrees to ``stake`` laid once the chance is set: whenever it can cover it."""
        if table.caster is None or table.player(table.caster).bot is None or stake.consent:
            return False
        if table.round.phase is not Phase.CHANCE:
            return False
        return _affordable(table, replace(stake, consent=True))

    def stakes(self, table: Table) -> list[TableAction]:
        """Stakes the setter bots lay before the round begins."""
        if table.caster is None or table.round_begun:
            return []
        actions: list[TableAction] = []
        staked = {w.opponent for w in table.wagers}
        for player in table.players:
            if player.bot != "setter" or player.name == table.caster or player.name in staked:
                continue
            if table.stakes is StakeArrangement.SETTER_SUM and (table.wagers or actions):
                break  # one setter's sum a round
            probe = Stake(player.name, self.unit)
            if _affordable(table, probe):
                actions.append(probe)
        return actions

    def side_bets(self, table: Table) -> list[TableAction]:
        """Side bets the bots offer or take now."""
        actions: list[TableAction] = []
        for bet in table.side_bets:
            if bet.layer is not None or bet.proposition not in _FAIR_BETS or bet.odds != 1:
                continue
            for player in table.players:
                if player.bot is None or player.name == bet.backer:
                    continue
                if table.available(player.name) >= bet.winnings:
                    actions.append(TakeBet(bet.number, player.name))
                    break
        if table.round_begun:
            return actions
        for player in table.players:
            if player.bot != "bystander" or any(b.backer == player.name for b in table.side_bets):
                continue
            if table.available(player.name) >= self.unit:
                # Each bystander starts at its own place in the list (by its name), then moves on a round.
                start = sum(map(ord, player.name))
                text = SOURCE_BETS[(table.rounds_played + start) % len(SOURCE_BETS)]
                actions.append(OfferBet(player.name, text, self.unit))
        return actions


def _affordable(table: Table, stake: Stake) -> bool:
    """Whether the table would accept ``stake``: the table, not the bot, decides what is covered."""
    try:
        apply_action(table, stake)
    except ValueError:
        return False
    return True
