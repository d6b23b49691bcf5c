"""What happened at a table: the events :func:`hazard.table.rules.transitions.apply_action` returns, as plain
data.

The round's own events (a nick, the chance set, ...) come from the rules engine (:mod:`hazard.core.events`);
these are the table's: a seat taken, a stake laid, a throw, the settlement of a round or a side bet, the dice
passing. Each says in words what it did (:func:`event_text`), with sums in the money style a front end shows.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from hazard.core.dice import Roll
from hazard.core.events import Event as RoundEvent
from hazard.core.state import Outcome
from hazard.table.rules.money import MoneyStyle, format_money
from hazard.table.rules.state import Player, SideBet, Transfer, Wager

__all__ = [
    "AnyEvent",
    "BetCancelled",
    "BetOffered",
    "BetSettled",
    "BetTaken",
    "CasterChanged",
    "Left",
    "RoundSettled",
    "Seated",
    "Staked",
    "TableEvent",
    "Thrown",
    "Withdrawn",
    "event_text",
]

_DEFAULT = MoneyStyle.DECIMAL


def _names(names: Sequence[str]) -> str:
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


@dataclass(frozen=True, slots=True)
class Seated:
    player: Player

    def text(self, money: MoneyStyle = _DEFAULT) -> str:
        bot = self.player.bot
        who = self.player.name if bot is None else f"{self.player.name} ({bot.value} bot)"
        return f"{who} sits down with {format_money(self.player.bankroll, money)}"

    def __str__(self) -> str:
        return self.text()


@dataclass(frozen=True, slots=True)
class Left:
    """A player got up from the table with his bankroll."""

    player: Player

    def text(self, money: MoneyStyle = _DEFAULT) -> str:
        return f"{self.player.name} leaves the table with {format_money(self.player.bankroll, money)}"

    def __str__(self) -> str:
        return self.text()


@dataclass(frozen=True, slots=True)
class Staked:
    wager: Wager
    caster: str

    def text(self, money: MoneyStyle = _DEFAULT) -> str:
        return f"{self.wager.opponent} stakes {format_money(self.wager.amount, money)} against {self.caster}"

    def __str__(self) -> str:
        return self.text()


@dataclass(frozen=True, slots=True)
class Withdrawn:
    """Stakes against the caster were taken back: by a player, or every setter's when the dice pass."""

    players: tuple[str, ...]

    def text(self, money: MoneyStyle = _DEFAULT) -> str:
        verb = "takes" if len(self.players) == 1 else "take"
        return f"{_names(self.players)} {verb} back the stakes against the caster"

    def __str__(self) -> str:
        return self.text()


@dataclass(frozen=True, slots=True)
class Thrown:
    """The caster threw ``roll``: what the dice showed, before what it did."""

    caster: str
    roll: Roll

    def text(self, money: MoneyStyle = _DEFAULT) -> str:
        return f"{self.caster} throws {self.roll}"

    def __str__(self) -> str:
        return self.text()


@dataclass(frozen=True, slots=True)
class RoundSettled:
    """The round ended: ``transfers`` settle every stake (none for a round that never began)."""

    outcome: Outcome
    caster: str
    transfers: tuple[Transfer, ...]

    def text(self, money: MoneyStyle = _DEFAULT) -> str:
        if not self.transfers:
            return "no stakes change hands"
        won = sum((t.amount for t in self.transfers if t.payee == self.caster), Fraction(0))
        lost = sum((t.amount for t in self.transfers if t.payer == self.caster), Fraction(0))
        parts = "; ".join(t.text(money) for t in self.transfers)
        net = won - lost
        verb = "wins" if net >= 0 else "loses"
        return f"the caster {self.caster} {verb} {format_money(abs(net), money)} ({parts})"

    def __str__(self) -> str:
        return self.text()


@dataclass(frozen=True, slots=True)
class CasterChanged:
    old: str | None
    new: str
    reason: str

    def text(self, money: MoneyStyle = _DEFAULT) -> str:
        if self.old is None:
            return f"{self.new} takes the dice"
        return f"the dice pass from {self.old} to {self.new}: {self.reason}"

    def __str__(self) -> str:
        return self.text()


@dataclass(frozen=True, slots=True)
class BetOffered:
    bet: SideBet

    def text(self, money: MoneyStyle = _DEFAULT) -> str:
        return f"side bet offered: {self.bet.text(money)}"

    def __str__(self) -> str:
        return self.text()


@dataclass(frozen=True, slots=True)
class BetTaken:
    bet: SideBet

    def text(self, money: MoneyStyle = _DEFAULT) -> str:
        return f"{self.bet.layer} takes side bet #{self.bet.number} ('{self.bet.proposition}')"

    def __str__(self) -> str:
        return self.text()


@dataclass(frozen=True, slots=True)
class BetCancelled:
    bet: SideBet

    def text(self, money: MoneyStyle = _DEFAULT) -> str:
        return f"side bet #{self.bet.number} withdrawn"

    def __str__(self) -> str:
        return self.text()


@dataclass(frozen=True, slots=True)
class BetSettled:
    bet: SideBet
    backer_wins: bool
    transfer: Transfer

    def text(self, money: MoneyStyle = _DEFAULT) -> str:
        verdict = "comes true" if self.backer_wins else "fails"
        return f"side bet #{self.bet.number} '{self.bet.proposition}' {verdict}: {self.transfer.text(money)}"

    def __str__(self) -> str:
        return self.text()


TableEvent = (
    Seated
    | Left
    | Staked
    | Withdrawn
    | Thrown
    | RoundSettled
    | CasterChanged
    | BetOffered
    | BetTaken
    | BetCancelled
    | BetSettled
)
"""Any event of the table's own."""

AnyEvent = RoundEvent | TableEvent
"""Any event at a table: the round's or the table's."""


def event_text(event: AnyEvent, money: MoneyStyle = _DEFAULT) -> str:
    """What ``event`` did, in words, with sums in ``money`` (the round's events hold no sums)."""
    if isinstance(event, TableEvent):
        return event.text(money)
    return str(event)
