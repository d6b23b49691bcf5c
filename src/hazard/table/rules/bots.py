"""Bots that sit at a table: what each would do now, as actions, decided from the table alone.

Bots choose; they never roll. Their choices are deterministic, so a game with bots and seeded dice replays
the same from its record. Policies (:class:`~hazard.table.rules.actions.BotPolicy`):

- ``setter``: stakes against the caster whenever it can cover it, and takes any side bet offered on one of
  the even-money propositions the 1674 source recommends. Its stake is the table's unit, or, under a staking
  progression (:mod:`hazard.core.staking`, the one the simulator's sessions stake by), the unit doubled as
  the progression says from its run of results.
- ``bystander``: stakes nothing; at the start of each round offers one of those even-money bets (in turn)
  if it has none open, and takes such bets when offered.

Any bot holding the dice calls the main with the best expected value for the caster under the table's
paytable (:func:`best_main`). Where the caster names his stake against a bank, the first bot that can cover
it takes it (:meth:`BotBrains.cover`); a bot caster agrees to a late bet whenever it can cover it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from fractions import Fraction
from functools import lru_cache

from hazard.analysis.odds import analyse
from hazard.core.engine import Call, Mover, to_move
from hazard.core.errors import HazardError, InvalidError, quoted
from hazard.core.numbers import fraction_text
from hazard.core.paytable import Paytable
from hazard.core.propositions import SOURCE_BETS, parse_proposition
from hazard.core.rules import MainMethod, Ruleset, StakeArrangement
from hazard.core.staking import Staking, StakingPlan
from hazard.core.state import Phase
from hazard.table.rules.actions import Actor, BotPolicy, OfferBet, Stake, TableAction, TakeBet
from hazard.table.rules.money import parse_money
from hazard.table.rules.state import Table
from hazard.table.rules.transitions import apply_action

__all__ = ["SETTING_STAKING", "SETTING_UNIT", "BotBrains", "BotMove", "MainChoice", "best_main"]

_FAIR_BETS = frozenset(parse_proposition(text) for text in SOURCE_BETS)


@dataclass(frozen=True, slots=True)
class MainChoice:
    """The main a bot caster calls, and why: the caster's exact expected value and chance of winning."""

    main: int
    ev: Fraction
    """The caster's expected net per unit staked, under the paytable."""
    p_win: Fraction
    paytable: str

    def reason(self) -> str:
        """Why this main, in words."""
        sign = "+" if self.ev >= 0 else "-"
        return (
            f"the best main by exact analysis (expected value {sign}{abs(self.ev)} = {float(self.ev):+.4f} "
            f"a unit staked under paytable {self.paytable}; P(win) {float(self.p_win):.4f})"
        )


@lru_cache(maxsize=64)
def best_main(ruleset: Ruleset, paytable: Paytable) -> MainChoice | None:
    """The main with the highest expected value for the caster under ``paytable``, then the highest P(win).

    None where the caster does not call the main. The figures are the exact analyser's
    (:func:`hazard.analysis.analyse`), so the bot and ``hazard odds`` cannot disagree.

    >>> from hazard.core.rulesets import find_paytable, find_ruleset
    >>> choice = best_main(find_ruleset("wikipedia"), find_paytable("wikipedia"))
    >>> choice.main, choice.ev
    (7, Fraction(1, 9))
    """
    if ruleset.method is not MainMethod.CALLED:
        return None
    choices = [
        MainChoice(row.main, row.ev, row.p_win, paytable.id)
        for row in analyse(ruleset, paytable, distribution_throws=0).mains
        if row.main is not None and row.ev is not None
    ]
    return max(choices, key=lambda choice: (choice.ev, choice.p_win))


@dataclass(frozen=True, slots=True)
class BotMove:
    """An action a bot wants to take, and the bot that takes it."""

    action: TableAction
    by: Actor


SETTING_UNIT = "bot_unit"
"""The game's setting that keeps the bots' stake unit (as exact text)."""
SETTING_STAKING = "bot_staking"
"""The game's setting that keeps the setter bots' progression (absent: flat)."""


@dataclass(frozen=True)
class BotBrains:
    """What the bots at a table know: the stake unit a setter stakes and a bystander bets, and the staking
    progression a setter follows from it."""

    unit: Fraction = Fraction(1)
    plan: StakingPlan = field(default_factory=StakingPlan)

    def __post_init__(self) -> None:
        if self.unit <= 0:
            raise InvalidError(f"invalid bot stake unit {self.unit}: expected more than 0")

    def settings(self) -> dict[str, str]:
        """These brains as a game's settings keep them (what :meth:`from_settings` reads back)."""
        kept = {SETTING_UNIT: fraction_text(self.unit)}
        if self.plan.staking is not Staking.FLAT:
            kept[SETTING_STAKING] = self.plan.staking.value
        return kept

    @classmethod
    def from_settings(cls, settings: Mapping[str, str]) -> BotBrains:
        """The brains a game's settings keep (a game without them: a unit of 1, flat stakes)."""
        unit = parse_money(settings.get(SETTING_UNIT, "1"), what="bot stake unit")
        staking = settings.get(SETTING_STAKING, Staking.FLAT.value)
        try:
            plan = StakingPlan(Staking(staking))
        except ValueError:
            raise InvalidError(
                f"invalid bot staking {quoted(staking)} in the game's settings: expected "
                f"{', '.join(s.value for s in Staking)}"
            ) from None
        return cls(unit, plan)

    def stake(self, run: int) -> Fraction:
        """What a setter bot stakes after ``run`` (its stakes settled the same way in a row)."""
        return self.unit * self.plan.multiple(self.plan.steps(run))

    def call(self, table: Table) -> BotMove | None:
        """The call a bot caster makes now, if it holds the dice and must call."""
        if table.caster is None or table.player(table.caster).bot is None:
            return None
        if to_move(table.round) is not Mover.CASTER:
            return None
        choice = best_main(table.ruleset, table.paytable)
        assert choice is not None  # the caster calls only where the ruleset has the main called
        return BotMove(Call(choice.main), Actor.player(table.caster))

    def cover(self, table: Table, amount: Fraction) -> str | None:
        """The bot that takes a caster's stake of ``amount`` under the bank arrangement, if any can.

        Setter bots are asked first, in seating order, then the other bots; the table decides what each can
        cover.
        """
        if table.caster is None or table.stakes is not StakeArrangement.BANK:
            return None
        bots = [p for p in table.players if p.bot is not None and p.name != table.caster]
        for player in sorted(bots, key=lambda p: p.bot is not BotPolicy.SETTER):
            if _accepted(table, Stake(player.name, amount), Actor.player(player.name)):
                return player.name
        return None

    def consents(self, table: Table, stake: Stake) -> bool:
        """Whether a bot caster agrees to ``stake`` laid once the chance is set: whenever it can cover it."""
        caster = table.caster
        if caster is None or table.player(caster).bot is None or stake.consent:
            return False
        if table.round.phase is not Phase.CHANCE:
            return False
        return _accepted(table, replace(stake, consent=True), Actor.player(caster))

    def stakes(self, table: Table) -> list[BotMove]:
        """Stakes the setter bots lay before the round begins."""
        if table.caster is None or table.round_begun:
            return []
        moves: list[BotMove] = []
        staked = {w.opponent for w in table.wagers}
        for player in table.players:
            if player.bot is not BotPolicy.SETTER or player.name == table.caster or player.name in staked:
                continue
            if table.stakes is StakeArrangement.SETTER_SUM and (table.wagers or moves):
                break  # one setter's sum a round
            move = BotMove(Stake(player.name, self.stake(player.run)), Actor.player(player.name))
            if _accepted(table, move.action, move.by):
                moves.append(move)
        return moves

    def side_bets(self, table: Table) -> list[BotMove]:
        """Side bets the bots offer or take now."""
        moves: list[BotMove] = []
        for bet in table.side_bets:
            if bet.layer is not None or bet.proposition not in _FAIR_BETS or bet.odds != 1:
                continue
            for player in table.players:
                if player.bot is None or player.name == bet.backer:
                    continue
                if table.available(player.name) >= bet.winnings:
                    moves.append(BotMove(TakeBet(bet.number, player.name), Actor.player(player.name)))
                    break
        if table.round_begun:
            return moves
        for player in table.players:
            if player.bot is not BotPolicy.BYSTANDER or any(b.backer == player.name for b in table.side_bets):
                continue
            if table.available(player.name) >= self.unit:
                # Each bystander starts at its own place in the list (by its name), then moves on a round.
                first = sum(map(ord, player.name))
                text = SOURCE_BETS[(table.rounds_played + first) % len(SOURCE_BETS)]
                moves.append(BotMove(OfferBet(player.name, text, self.unit), Actor.player(player.name)))
        return moves

    def wanted(self, table: Table, *, call: bool = True) -> BotMove | None:
        """The next thing a bot wants to do: a side bet or a stake first, then a bot caster's call."""
        moves = [*self.side_bets(table), *self.stakes(table)]
        if moves:
            return moves[0]
        return self.call(table) if call else None


def _accepted(table: Table, action: TableAction, by: Actor) -> bool:
    """Whether the table would accept ``action``: the table, not the bot, decides what is covered."""
    try:
        apply_action(table, action, by=by)
    except HazardError:
        return False
    return True
