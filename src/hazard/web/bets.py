"""Side bets as a table's pages show them: each with its exact fair odds and its value to the viewer, in the
table's money style, from the exact analyser (:func:`hazard.analysis.bets.analyse_bet`), never re-derived.

002 has side bets offered and answered at once, with no time to reckon them: a seat that may offer one is
given the 16 good even-money bets of ``002_e25665f301869517.txt`` (:data:`SOURCE_BETS`) to offer in one tap;
an open offer says who may take it, and a seat that may is given a Take button with the bet's value to him
beside it.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from hazard.analysis.bets import analyse_bet
from hazard.core.propositions import SOURCE_BETS
from hazard.table import MoneyStyle, Table, choices, format_money, odds_text

__all__ = [
    "ONE_TAP_AMOUNT",
    "Offers",
    "SideBet",
    "SourceBet",
    "offers",
    "side_bets",
    "worth",
]

ONE_TAP_AMOUNT = Fraction(1)
"""The stake the offer form starts with, for which a source bet's value is shown."""


def worth(amount: Fraction, money: MoneyStyle) -> str:
    """A value to a player in ``money``, signed as people write a gain or a loss: ``+0.42``, ``−0.42``
    (a minus sign, not a hyphen), and ``0.00`` where it rounds to nothing."""
    text = format_money(amount, money)
    if text.startswith("-"):
        return "\N{MINUS SIGN}" + text[1:]
    if amount > 0 and text != format_money(Fraction(0), money):
        return "+" + text
    return text


@dataclass(frozen=True, slots=True)
class SourceBet:
    """A bet of the sources offered in one tap at evens: its text, its exact fair odds, and its value to
    the seat that offers it (for :data:`ONE_TAP_AMOUNT`; each is fair at evens, so it is 0 at any stake)."""

    proposition: str
    fair_odds: str
    value: str


@dataclass(frozen=True, slots=True)
class Offers:
    """What the offer form needs: the table's money style (the preview asks ``/api/bet`` in it) and the
    sources' bets, each one tap."""

    money: str
    source: tuple[SourceBet, ...]


@dataclass(frozen=True, slots=True)
class SideBet:
    """A side bet as the table words it, and who laid it (or that it is open), with its figures: its exact
    fair odds, the odds it is laid at, and its value to the viewer where he is its backer or may take it."""

    number: int
    text: str
    status: str
    fair_odds: str = ""
    odds: str = "evens"
    takers: str = ""
    """Who may take it, while it is open, in words."""
    mine: str | None = None
    """Its value to the viewer who backs it."""
    take: str | None = None
    """Its value to the viewer, where he may take it now: shown beside its Take button."""
    cancel: bool = False
    """The viewer backs it and may still withdraw it."""


def offers(money: MoneyStyle) -> Offers:
    """The offer form's figures: each source bet's fair odds and its value at evens for the form's stake."""
    source = []
    for text in SOURCE_BETS:
        analysis = analyse_bet(text)
        value = analysis.value(Fraction(1)) * ONE_TAP_AMOUNT
        source.append(SourceBet(text, analysis.fair_odds, worth(value, money)))
    return Offers(money.value, tuple(source))


def side_bets(table: Table, money: MoneyStyle, seat: str | None) -> tuple[SideBet, ...]:
    """The table's side bets for the viewer holding ``seat`` (None: a spectator), open offers saying who may
    take them: each seat the table's own rules would let take it now (:func:`hazard.table.choices`)."""
    may_take = {p.name: set(choices(table, p.name).take) for p in table.players}
    may_cancel = set(choices(table, seat).cancel) if seat is not None else set()
    shown = []
    for bet in table.side_bets:
        analysis = analyse_bet(bet.proposition)
        backer = analysis.value(bet.odds) * bet.amount  # the layer's is its opposite
        takers = [name for name, numbers in may_take.items() if bet.number in numbers]
        if bet.layer is not None:
            status, who = f"laid by {bet.layer}", ""
        else:
            status = "open: nobody has taken it"
            who = f"{_either(takers)} may take it" if takers else "nobody at the table may take it now"
        shown.append(
            SideBet(
                bet.number,
                bet.text(money),
                status,
                fair_odds=analysis.fair_odds,
                odds=odds_text(bet.odds),
                takers=who,
                mine=worth(backer, money) if seat == bet.backer else None,
                take=worth(-backer, money) if seat in takers else None,
                cancel=bet.number in may_cancel,
            )
        )
    return tuple(shown)


def _either(names: list[str]) -> str:
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " or " + names[-1]
