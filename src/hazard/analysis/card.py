"""A table card: one ruleset's rules in plain words, its opening throw's table, its exact odds, its paytable
and the source bets, as ``hazard card`` prints it on one page and ``/rules/{id}/card`` shows it.

Every figure is the analyser's (:func:`hazard.analysis.analyse`, :func:`hazard.analysis.bets.analyse_bet`),
written here once so that the PDF and the page carry the same text; the wording of the rules is the one
``hazard rules`` and the table's rules card print (:mod:`hazard.analysis.wording`,
:func:`paytable_words`, :func:`hazard.core.passing.passing_text`).

>>> from hazard.core.rulesets import find_ruleset
>>> card = table_card(find_ruleset("craps"), None)
>>> card.odds[0].main, card.odds[0].p_win, card.odds[0].edge
('7', '244/495 = 0.4929', '+0.0141 (7/495)')
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from fractions import Fraction

from hazard.analysis.odds import MainOdds, analyse
from hazard.analysis.wording import METHOD_WORDS, SET_CHANCE
from hazard.core.dice import TOTALS
from hazard.core.numbers import fraction_text, readable_fraction
from hazard.core.passing import passing_text
from hazard.core.paytable import Paytable
from hazard.core.rules import Ruleset
from hazard.core.rulesets import settling_paytable

__all__ = [
    "BETS_SOURCE",
    "CardBet",
    "CardOdds",
    "TableCard",
    "paytable_words",
    "table_card",
    "totals_text",
]

BETS_SOURCE = "002_e25665f301869517.txt"
"""The source whose "good even money bets" the card lists (ECWS, after Cotton)."""


def totals_text(values: Iterable[int]) -> str:
    """Totals in words, in order: ``"2, 3, 12"``, or ``"—"`` for none."""
    return ", ".join(str(v) for v in sorted(values)) or "—"


def paytable_words(paytable: Paytable) -> str:
    """What a paytable pays, in one sentence."""
    return (
        f"Paytable “{paytable.name}” ({paytable.id}): a nick pays {fraction_text(paytable.nick)}; a won "
        f"chance pays {paytable.describe_chance()}; an out or a lost chance loses the stake."
    )


@dataclass(frozen=True, slots=True)
class CardOdds:
    """One main's row of the card's odds (or ``main`` "all", over every round of a thrown main)."""

    main: str
    p_main: str
    """Its chance among rounds played, where the main is thrown; else empty."""
    p_win: str
    """The caster's chance of winning the round, exact and as a decimal: ``"244/495 = 0.4929"``."""
    edge: str
    """The house's edge per unit of the caster's stake, signed, with its exact fraction."""


@dataclass(frozen=True, slots=True)
class CardBet:
    """One of the source's even-money side bets and its true odds against."""

    proposition: str
    fair_odds: str
    probability: str


@dataclass(frozen=True, slots=True)
class TableCard:
    """Everything a table card carries, as text: the PDF and the web page lay it out, and add nothing."""

    id: str
    name: str
    citation: str
    source_file: str
    """The source's file among the project's sources, or empty."""
    main: str
    """How the main is set, and the mains."""
    chance: str
    passing: str
    mains: tuple[int, ...]
    """The columns of the opening throw's table."""
    grid: tuple[tuple[int, tuple[str, ...]], ...]
    """The opening throw's table: each total thrown (2 to 12), and what it does on each main."""
    odds: tuple[CardOdds, ...]
    odds_note: str
    paytable: str
    paytable_grid: tuple[tuple[str, ...], ...]
    """Where the chance's odds vary: a header row (``main \\ chance``, each chance), then one row per main."""
    bets: tuple[CardBet, ...]
    notes: tuple[str, ...]

    @property
    def title(self) -> str:
        """The card's heading."""
        return f"{self.name} ({self.id})"


def _decimal(value: Fraction, digits: int = 4) -> str:
    return f"{float(value):.{digits}f}"


def _odds_row(odds: MainOdds, thrown: bool) -> CardOdds:
    edge = odds.edge
    return CardOdds(
        main="all" if odds.main is None else str(odds.main),
        p_main=(readable_fraction(odds.p_main) if odds.main is not None else "") if thrown else "",
        p_win=f"{readable_fraction(odds.p_win)} = {_decimal(odds.p_win)}",
        edge="—" if edge is None else f"{float(edge):+.4f} ({readable_fraction(edge)})",
    )


def _paytable_grid(ruleset: Ruleset, paytable: Paytable) -> tuple[tuple[str, ...], ...]:
    if paytable.flat is not None:
        return ()
    chances = sorted(ruleset.chances)
    head = ("main \\ chance", *(str(c) for c in chances))
    rows = tuple(
        (
            str(row.main),
            *(fraction_text(paytable.chance_odds(row.main, c)) if c in row.chances else "—" for c in chances),
        )
        for row in ruleset.rows
    )
    return (head, *rows)


def table_card(ruleset: Ruleset, paytable: Paytable | None) -> TableCard:
    """The table card of ``ruleset`` under ``paytable`` (None: the ruleset's own, else even money, as a
    table settles: :func:`hazard.core.rulesets.settling_paytable`)."""
    pays = settling_paytable(paytable)
    report = analyse(ruleset, pays)
    thrown = ruleset.method.is_thrown
    rows = [*report.mains, *([report.overall] if report.overall is not None else [])]
    note = (
        "Caster wins: his chance of winning a round on that main, exact and as a decimal. House edge: what "
        "the setter expects to gain per unit of the caster's stake (negative: the caster's advantage)."
    )
    if thrown:
        note += (
            " The main is thrown: P(main) is its chance among rounds played, and the all row is over every "
            "round from the throw for the main."
        )
    mains = tuple(row.main for row in ruleset.rows)
    grid = tuple((total, tuple(row.opening(total).value for row in ruleset.rows)) for total in TOTALS)
    # Here, not at the top: the side bets and their parser would slow hazard rules and odds, which take the
    # wording alone
    from hazard.analysis.bets import analyse_bet  # noqa: PLC0415
    from hazard.core.propositions import SOURCE_BETS  # noqa: PLC0415

    bets = tuple(
        CardBet(text, analysis.fair_odds, fraction_text(analysis.probability))
        for text, analysis in ((text, analyse_bet(text)) for text in SOURCE_BETS)
    )
    return TableCard(
        id=ruleset.id,
        name=ruleset.name,
        citation=ruleset.source.citation,
        source_file=ruleset.source.file or "",
        main=f"Main: {METHOD_WORDS[ruleset.method]} — {totals_text(ruleset.mains)}.",
        chance=SET_CHANCE,
        passing=f"Dice passing: {passing_text(ruleset)}.",
        mains=mains,
        grid=grid,
        odds=tuple(_odds_row(odds, thrown) for odds in rows),
        odds_note=note,
        paytable=paytable_words(pays)
        + ("" if paytable is not None else " (The source names no paytable: a table settles at even money.)"),
        paytable_grid=_paytable_grid(ruleset, pays),
        bets=bets,
        notes=tuple(ruleset.notes),
    )
