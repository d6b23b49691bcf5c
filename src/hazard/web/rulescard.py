"""The rules card of a table's page: its ruleset as the sources print it (``hazard rules NAME``'s layout): the
opening throw's table by main (nicks, outs, chances), what happens once the chance is set, how the dice pass,
what the paytable pays, and what the page's "free" column means."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from hazard.analysis.wording import METHOD_WORDS, SET_CHANCE
from hazard.core.numbers import fraction_text
from hazard.core.passing import passing_text
from hazard.core.paytable import Paytable
from hazard.core.rules import Ruleset
from hazard.core.rulesets import builtin_paytables, builtin_rulesets, paytable_for

__all__ = ["FREE", "RulesCard", "RulesRow", "card_link", "rules_card"]

_METHODS = METHOD_WORDS
"""How the main is set, in the words ``hazard rules`` prints."""

FREE = (
    "“Free” is what a player may still stake: his bankroll less everything he could still lose on the "
    "stakes and side bets open now."
)
"""What the players' "free" column means (docs/table.md)."""


@dataclass(frozen=True, slots=True)
class RulesRow:
    """One main's row of the opening throw's table: its totals, each list in words ("2, 3, 12" or "—")."""

    main: int
    nicks: str
    outs: str
    chances: str
    again: str


@dataclass(frozen=True, slots=True)
class RulesCard:
    """A ruleset and its paytable, as the rules card prints them."""

    name: str
    id: str
    citation: str
    main: str
    """How the main is set, and the mains."""
    rows: tuple[RulesRow, ...]
    chance: str
    passing: str
    paytable: str
    odds_chances: tuple[int, ...]
    """The chances heading the paytable's odds grid: empty where the paytable pays one flat price."""
    odds_rows: tuple[tuple[int, tuple[str, ...]], ...]
    free: str
    notes: tuple[str, ...]
    card: str = ""
    """The address of the ruleset's table card to print (``/rules/{id}/card``), or empty where the ruleset
    is not a built-in one."""


def _totals(values: Iterable[int]) -> str:
    return ", ".join(str(v) for v in sorted(values)) or "—"


def rules_card(ruleset: Ruleset, paytable: Paytable) -> RulesCard:
    """The rules card of a table that plays ``ruleset`` paid by ``paytable``."""
    flat = paytable.flat is not None
    chances = () if flat else tuple(sorted(ruleset.chances))
    odds = tuple(
        (
            row.main,
            tuple(
                fraction_text(paytable.chance_odds(row.main, c)) if c in row.chances else "—" for c in chances
            ),
        )
        for row in (() if flat else ruleset.rows)
    )
    return RulesCard(
        name=ruleset.name,
        id=ruleset.id,
        citation=ruleset.source.citation,
        main=f"{_METHODS[ruleset.method]} — {_totals(ruleset.mains)}",
        rows=tuple(
            RulesRow(
                row.main, _totals(row.nicks), _totals(row.outs), _totals(row.chances), _totals(row.again)
            )
            for row in ruleset.rows
        ),
        chance=SET_CHANCE,
        passing=f"{passing_text(ruleset)}.",
        paytable=(
            f"Paytable “{paytable.name}”: a nick pays {fraction_text(paytable.nick)}; a won chance pays "
            f"{paytable.describe_chance()}; an out or a lost chance loses the stake."
        ),
        odds_chances=chances,
        odds_rows=odds,
        free=FREE,
        notes=tuple(ruleset.notes),
        card=card_link(ruleset, paytable),
    )


def card_link(ruleset: Ruleset, paytable: Paytable | None) -> str:
    """The address of ``ruleset``'s card under ``paytable``, or empty where the ruleset is not a built-in one
    (a table on a file of its own): ``?paytable=`` only where it is not the ruleset's own."""
    built_in = {r.id: r for r in builtin_rulesets()}
    if built_in.get(ruleset.id) != ruleset:
        return ""
    link = f"/rules/{ruleset.id}/card"
    own = paytable_for(ruleset)
    if paytable is None or paytable == own:
        return link
    if paytable not in builtin_paytables():
        return link
    return f"{link}?paytable={paytable.id}"
