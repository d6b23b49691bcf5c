"""Exact odds of side bets (propositions) on the dice, in fractions.

Each proposition has a closed form, since throws are independent: with ``p(S)`` the chance one throw falls
in a set ``S``,

- ``A before B`` is ``p(A) / (p(A) + p(B))`` (throws in neither set change nothing);
- ``A within n throws`` is ``1 - (1 - p(A))**n``;
- ``next A`` is ``p(A)``;
- ``not P`` is ``1 - P``.

>>> analyse_bet("4 or 10 before 7").probability
Fraction(1, 2)
>>> bet = analyse_bet("Even money the Caster will throw 2, 3, 11 or 12 in three rolls")
>>> bet.text, bet.probability, bet.fair_odds, bet.ev_even_money
('2, 3, 11 or 12 within 3 throws', Fraction(91, 216), '125 to 91', Fraction(-17, 108))

Every bet's cost is bounded by the propositions' own bounds: ``within`` runs for at most
:data:`~hazard.core.propositions.MAX_THROWS` throws, so the longest exact figure has some 1,560 digits. Such a
figure is exact in :meth:`BetAnalysis.to_json_dict` and readable in :meth:`BetAnalysis.to_text_dict`:

>>> analyse_bet("12 within 1000 throws").to_text_dict()["probability"]
'≈ 0.999999999999 (exact: 1,557 digits over 1,557)'
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import assert_never

from hazard.core.errors import InvalidError, quoted
from hazard.core.numbers import fraction_text, readable_fraction
from hazard.core.propositions import Before, Next, Not, Proposition, Within, parse_proposition

__all__ = ["BetAnalysis", "analyse_bet", "fair_odds", "odds_against", "probability", "readable_odds"]


def _proposition(bet: Proposition | str) -> Proposition:
    return parse_proposition(bet) if isinstance(bet, str) else bet


def probability(proposition: Proposition | str) -> Fraction:
    """The exact probability that the bet wins (text is parsed with ``parse_proposition``).

    >>> probability("odd before even"), probability("next 7"), probability("not doublets within 2 throws")
    (Fraction(1, 2), Fraction(1, 6), Fraction(25, 36))
    """
    proposition = _proposition(proposition)
    if isinstance(proposition, Before):
        first, second = proposition.first.probability, proposition.second.probability
        return first / (first + second)
    if isinstance(proposition, Within):
        return 1 - (1 - proposition.target.probability) ** proposition.throws
    if isinstance(proposition, Next):
        return proposition.target.probability
    if isinstance(proposition, Not):
        return 1 - probability(proposition.proposition)
    assert_never(proposition)


def _check_probability(p: Fraction) -> None:
    if not 0 <= p <= 1:
        raise InvalidError(f"invalid probability {p}: expected 0 to 1")


def odds_against(p: Fraction) -> tuple[int, int]:
    """The odds against an event of probability ``p``, in lowest whole terms: ``(2, 1)`` for 1/3.

    >>> odds_against(Fraction(1, 3)), odds_against(Fraction(2, 3)), odds_against(Fraction(1))
    ((2, 1), (1, 2), (0, 1))
    """
    p = Fraction(p)
    _check_probability(p)
    # p = n/d in lowest terms, so (d - n) : n is in lowest terms too.
    return p.denominator - p.numerator, p.numerator


def fair_odds(p: Fraction) -> str:
    """The odds against an event of probability ``p`` as people say them: ``"2 to 1"``.

    >>> fair_odds(Fraction(1, 2)), fair_odds(Fraction(0))
    ('1 to 1', '1 to 0')
    """
    against, on = odds_against(p)
    return f"{against} to {on}"


def readable_odds(p: Fraction, *, limit: int = 40) -> str:
    """:func:`fair_odds` where that takes at most ``limit`` characters, else the odds against as a decimal
    to one, with the size of the exact figures.

    >>> readable_odds(Fraction(1, 3)), readable_odds(1 - Fraction(1, 2) ** 200)
    ('2 to 1', '≈ 6.22301527786e-61 to 1 (exact: 1 digit to 61 digits)')
    """
    against, on = odds_against(p)
    if on == 0 or len(str(against)) + len(str(on)) + 4 <= limit:
        return fair_odds(p)
    approximate = readable_fraction(Fraction(against, on), limit=0).partition(" (")[0]
    return f"{approximate} to 1 (exact: {_digits(against)} to {_digits(on)})"


def _digits(number: int) -> str:
    count = len(str(number))
    return f"{count:,} digit{'' if count == 1 else 's'}"


@dataclass(frozen=True, slots=True)
class BetAnalysis:
    """The exact figures for one side bet: its probability, fair odds, and value at even money.

    Build one with :func:`analyse_bet`, or from a proposition: the probability is computed, never given.

    >>> analyse_bet("6 before 8").to_json_dict()["fair_odds"]
    '1 to 1'
    """

    proposition: Proposition
    probability: Fraction = field(init=False)
    """The chance the bet wins."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "probability", probability(self.proposition))

    @property
    def text(self) -> str:
        """The proposition's normalised text."""
        return str(self.proposition)

    @property
    def odds_against(self) -> tuple[int, int]:
        """The fair odds against the bet in lowest whole terms, ``(against, on)``."""
        return odds_against(self.probability)

    @property
    def fair_odds(self) -> str:
        """The fair odds against the bet, ``"a to b"``: a stake of ``b`` should win ``a``."""
        return fair_odds(self.probability)

    @property
    def ev_even_money(self) -> Fraction:
        """The expected gain of backing the bet with 1 unit at even money: ``2p - 1``."""
        return 2 * self.probability - 1

    def value(self, odds: Fraction = Fraction(1)) -> Fraction:
        """The backer's expected gain for each unit he stakes at ``odds`` (the layer pays ``odds`` a unit when
        the bet wins): ``p * odds - (1 - p)``; the layer's is the same with its sign changed.

        >>> analyse_bet("next 7").value(Fraction(5))  # at the fair odds, 5 to 1, neither side gains
        Fraction(0, 1)
        """
        if odds <= 0:
            raise InvalidError(f"invalid odds {quoted(odds)}: expected odds above 0")
        return self.probability * odds - (1 - self.probability)

    def to_json_dict(self) -> dict[str, str | float]:
        """The figures as JSON values, exact fractions written ``"a/b"``.

        >>> analyse_bet("next odd").to_json_dict()
        {'proposition': 'next odd', 'probability': '1/2', 'probability_float': 0.5, 'fair_odds': '1 to 1', 'ev_even_money': '0/1'}
        """  # noqa: E501
        return {
            "proposition": self.text,
            "probability": fraction_text(self.probability),
            "probability_float": float(self.probability),
            "fair_odds": self.fair_odds,
            "ev_even_money": fraction_text(self.ev_even_money),
        }

    def to_text_dict(self) -> dict[str, str]:
        """The figures as people read them: exact where short (``"91/216"``, ``"125 to 91"``), else a decimal
        of twelve significant digits and the size of the exact figure (see
        :func:`~hazard.core.numbers.readable_fraction`), which :meth:`to_json_dict` writes in full.

        >>> analyse_bet("next odd").to_text_dict()
        {'proposition': 'next odd', 'probability': '1/2', 'fair_odds': '1 to 1', 'ev_even_money': '0/1'}
        """
        return {
            "proposition": self.text,
            "probability": readable_fraction(self.probability),
            "fair_odds": readable_odds(self.probability),
            "ev_even_money": readable_fraction(self.ev_even_money),
        }

    def __str__(self) -> str:
        text = self.to_text_dict()
        return (
            f"{self.text}: probability {text['probability']}, fair odds {text['fair_odds']}, "
            f"expected value at even money {text['ev_even_money']}"
        )


def analyse_bet(bet: Proposition | str) -> BetAnalysis:
    """Analyse a side bet given as a proposition or as text.

    >>> str(analyse_bet("next 7"))
    'next 7: probability 1/6, fair odds 5 to 1, expected value at even money -2/3'
    """
    return BetAnalysis(_proposition(bet))
