"""The felt's money (issue 21 item 1): each player's place around the table, with his bankroll, what of it is
free and a chip of what he has at stake this round, and the circle at the felt's centre with the sum laid
against the caster.

The sources place the money so. In 002 (the ECWS account after Cotton, 1674) the setter lays his sum in a
circle at the middle of the table and the caster takes it on by knocking beside the circle; so at a table
where one setter names the sum (``setter-sum``) the circle holds his stake, labelled with his name ("Ann sets
5.00"). In 000 and 001 one or more setters oppose the caster, the other players together perhaps as the bank
(``bank``); in 003 all the others bet and the caster must match them all (``all-against-caster``); so where
several stake, the circle holds the sum of all the stakes against the caster, and each staker's chip lies at
his own place.

Every sum is written in the table's money style (:func:`hazard.table.format_money`), never as a raw fraction
at a decimal table; every chip carries its sum as text and an accessible label that says whose it is and
against whom, so nothing is told by colour alone.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from hazard.core.rules import StakeArrangement
from hazard.table import MoneyStyle, Table, format_money

__all__ = ["Chip", "Circle", "Felt", "Place", "felt_view"]


@dataclass(frozen=True, slots=True)
class Chip:
    """A sum on the felt: ``amount`` in the table's money, and ``label`` saying whose it is and what for."""

    amount: str
    label: str


@dataclass(frozen=True, slots=True)
class Place:
    """A player's place around the table."""

    name: str
    marks: str
    """What sets him apart, in words (caster, a bot, you), or empty."""
    caster: bool
    own: bool
    """The place of the viewer's own seat."""
    bankroll: str
    free: str
    """What of his bankroll no stake or side bet holds."""
    stake: Chip | None
    """A setter's stake against the caster this round; at the caster's place, the sum of the stakes he covers.
    None where he has nothing at stake."""
    side: Chip | None
    """What his side bets put at risk (a backer's stakes, a layer's payouts), None where nothing."""


@dataclass(frozen=True, slots=True)
class Circle:
    """The circle at the felt's centre: what is laid against the caster this round, read as ``text``: the
    words before the sum, the sum (drawn as a chip) and the words after it."""

    before: str
    amount: str | None
    """The sum in it, in the table's money (None while it is empty)."""
    after: str = ""
    setter: str | None = None
    """The setter, where one alone has set the sum."""

    @property
    def text(self) -> str:
        """What it reads: "Ann sets 5.00", "2 stake 5.00 against Bob", or that nothing is laid yet."""
        return " ".join(part for part in (self.before, self.amount, self.after) if part)


@dataclass(frozen=True, slots=True)
class Felt:
    """The felt's money: the places around it, in seat order, and its circle (None with nobody casting)."""

    places: tuple[Place, ...]
    circle: Circle | None


def felt_view(table: Table, money: MoneyStyle, seat: str | None) -> Felt:
    """The felt of ``table`` as ``seat``'s page shows it (None: a spectator's), its sums in ``money``."""
    places = tuple(_place(table, money, seat, player.name) for player in table.players)
    return Felt(places, _circle(table, money))


def _marks(table: Table, name: str, seat: str | None, bot: str | None) -> str:
    marks = []
    if name == table.caster:
        marks.append("caster")
    if bot is not None:
        marks.append(f"bot ({bot})")
    if name == seat:
        marks.append("you")
    return ", ".join(marks)


def _place(table: Table, money: MoneyStyle, seat: str | None, name: str) -> Place:
    player = table.player(name)
    bot = None if player.bot is None else player.bot.value
    caster = name == table.caster
    return Place(
        name=name,
        marks=_marks(table, name, seat, bot),
        caster=caster,
        own=name == seat,
        bankroll=format_money(player.bankroll, money),
        free=format_money(table.available(name), money),
        stake=_covered(table, money, name) if caster else _staked(table, money, name),
        side=_side(table, money, name),
    )


def _staked(table: Table, money: MoneyStyle, name: str) -> Chip | None:
    amount = table.staked_by(name)
    if not amount:
        return None
    text = format_money(amount, money)
    return Chip(text, f"{name} stakes {text} against {table.caster or 'the caster'}")


def _covered(table: Table, money: MoneyStyle, name: str) -> Chip | None:
    """The caster's chip: the sum of the stakes he covers, every setter's together."""
    if not table.wagers:
        return None
    text = format_money(sum((w.amount for w in table.wagers), Fraction(0)), money)
    setters = _stakers(table)
    against = setters[0] if len(setters) == 1 else f"{len(setters)} setters"
    return Chip(text, f"{name} covers {text} against {against}")


def _side(table: Table, money: MoneyStyle, name: str) -> Chip | None:
    """What ``name``'s side bets put at risk, as :meth:`Table.committed` holds it back: a backer's stake
    (offered or taken), a layer's payout."""
    at_risk = Fraction(0)
    for bet in table.side_bets:
        if bet.backer == name:
            at_risk += bet.amount
        if bet.layer == name:
            at_risk += bet.winnings
    if not at_risk:
        return None
    text = format_money(at_risk, money)
    return Chip(text, f"{name} has {text} at risk on side bets")


def _stakers(table: Table) -> list[str]:
    return list(dict.fromkeys(w.opponent for w in table.wagers))


def _circle(table: Table, money: MoneyStyle) -> Circle | None:
    caster = table.caster
    if caster is None:
        return None
    if not table.wagers:
        closed = table.round_begun and not table.turn.stakes_open  # "yet" while one may still be laid
        when = "this round" if closed else "yet"
        return Circle(f"No stake against {caster} {when}", None)
    total = format_money(sum((w.amount for w in table.wagers), Fraction(0)), money)
    stakers = _stakers(table)
    if len(stakers) == 1 and table.stakes is not StakeArrangement.ALL_AGAINST_CASTER:
        # one setter (setter-sum) or one of the bank's setters: his sum, under his name (002)
        return Circle(f"{stakers[0]} sets", total, setter=stakers[0])
    if len(stakers) == 1:
        return Circle(f"{stakers[0]} stakes", total, f"against {caster}")
    return Circle(f"{len(stakers)} stake", total, f"against {caster}")
