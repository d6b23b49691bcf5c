"""The banner of a round's result: who won what from whom, in the table's money style, and why.

It is read from the table's events, not from the log's lines: the last :class:`~hazard.table.RoundSettled`
of the game as played (the session's timeline, which a referee's correction replays whole), so after a
``fix`` the banner shows the corrected outcome and its settlement.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from hazard.table import MoneyStyle, RoundSettled, event_text, format_money
from hazard.web.livetable import LiveTable

__all__ = ["Payment", "ResultView", "corrected_events", "result_view"]


@dataclass(frozen=True, slots=True)
class Payment:
    """One transfer of the round's settlement: who pays whom how much, in the table's money."""

    payer: str
    payee: str
    amount: str


@dataclass(frozen=True, slots=True)
class ResultView:
    """The last round settled: its number, its headline, its reason and its payments."""

    number: int
    headline: str
    """Who won what, in words: ``Ann, the caster, wins 5.00``."""
    reason: str
    """How the round ended: ``the chance 9 came before the main 7: the caster wins``."""
    payments: tuple[Payment, ...]
    entry: int
    """The entry whose play settled it."""


def result_view(live: LiveTable) -> ResultView | None:
    """The banner of ``live``'s last settled round, or None before any round has settled."""
    timeline = live.session.timeline
    if timeline is None:
        return None
    settled = [(seq, event) for seq, event in timeline.events if isinstance(event, RoundSettled)]
    if not settled:
        return None
    seq, last = settled[-1]
    return ResultView(
        len(settled), _headline(last, live.money), str(last.outcome), _payments(last, live.money), seq
    )


def _headline(settled: RoundSettled, money: MoneyStyle) -> str:
    caster = settled.caster
    won = sum((t.amount for t in settled.transfers if t.payee == caster), Fraction(0))
    lost = sum((t.amount for t in settled.transfers if t.payer == caster), Fraction(0))
    if not settled.transfers or won == lost:
        return f"{caster}, the caster: no money changes hands"
    if won > lost:
        return f"{caster}, the caster, wins {format_money(won - lost, money)}"
    return f"{caster}, the caster, loses {format_money(lost - won, money)}"


def _payments(settled: RoundSettled, money: MoneyStyle) -> tuple[Payment, ...]:
    return tuple(Payment(t.payer, t.payee, format_money(t.amount, money)) for t in settled.transfers)


def corrected_events(live: LiveTable, target: int) -> tuple[str, ...]:
    """What entry ``target`` does now that a correction has replaced it, in words, in the table's money: the
    game as replayed after the correction (a voided entry, or one the replay skips, does nothing)."""
    timeline = live.session.timeline
    if timeline is None:
        return ()
    return tuple(f"now: {event_text(event, live.money)}" for seq, event in timeline.events if seq == target)
