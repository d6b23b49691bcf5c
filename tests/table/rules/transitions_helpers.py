"""What the table-transition tests share: a table for a ruleset, playing steps by their rightful
actors, and reading the settlement, the bankrolls and a refusal."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

import pytest

from hazard.core.errors import HazardError
from hazard.core.rules import StakeArrangement
from hazard.core.rulesets import find_paytable, find_ruleset, paytable_for
from hazard.core.state import Phase
from hazard.table.rules.actions import (
    REFEREE,
    Actor,
    BotPolicy,
    CancelBet,
    OfferBet,
    Sit,
    Stake,
    TableAction,
    TakeBet,
    Withdraw,
)
from hazard.table.rules.events import AnyEvent, RoundSettled
from hazard.table.rules.state import Table, new_table
from hazard.table.rules.transitions import apply_action

# --- helpers -----------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class By:
    """``action`` taken by ``actor`` rather than by the player whose action it is (the referee, mostly)."""

    actor: Actor
    action: TableAction


Step = TableAction | By


def rightful(table: Table, action: TableAction) -> Actor:
    """The player whose action ``action`` is at ``table``, by the rules of who may act (worked out here).

    The one who sits, stakes, withdraws, offers or takes; the backer of a bet cancelled; the caster for a
    call, a throw, a pass, and a late stake he consents to (once the chance is set, where everyone bets
    against the caster; elsewhere a stake marked with consent is still the setter's own). The referee where
    nobody is (no caster, no such bet).
    """
    name: str | None
    if isinstance(action, Sit):
        name = action.name.strip()
    elif isinstance(action, Stake):
        late = table.stakes is StakeArrangement.ALL_AGAINST_CASTER and table.round.phase is Phase.CHANCE
        name = table.caster if action.consent and late else action.player
    elif isinstance(action, Withdraw):
        name = action.player
    elif isinstance(action, OfferBet):
        name = action.backer
    elif isinstance(action, TakeBet):
        name = action.layer
    elif isinstance(action, CancelBet):
        name = next((bet.backer for bet in table.side_bets if bet.number == action.bet), None)
    else:
        name = table.caster
    return REFEREE if name is None else Actor.player(name)


def table_for(
    ruleset: str,
    *seats: tuple[str, int] | tuple[str, int, BotPolicy],
    paytable: str | None = None,
    stakes: StakeArrangement | None = None,
) -> Table:
    """A table for a built-in ruleset with players seated in order (the first holds the dice), each sitting
    himself down."""
    rules = find_ruleset(ruleset)
    pays = find_paytable(paytable) if paytable else (paytable_for(rules) or find_paytable("even"))
    table = new_table(rules, pays, stakes)
    for seat in seats:
        bot = seat[2] if len(seat) == 3 else None
        table, _ = play(table, Sit(seat[0], Fraction(seat[1]), bot))
    return table


def play(table: Table, *steps: Step) -> tuple[Table, list[AnyEvent]]:
    """Take ``steps`` in turn, each by its rightful player unless it says who; every event.

    Money must be conserved and no bankroll or free sum negative throughout; and where a player acts, the
    referee entering the same action must get the same table and events (a player never has other rights).
    """
    events: list[AnyEvent] = []
    money = table.total_money
    for step in steps:
        action, by = (step.action, step.actor) if isinstance(step, By) else (step, rightful(table, step))
        after, new = apply_action(table, action, by=by)
        if not by.is_referee:
            assert apply_action(table, action, by=REFEREE) == (after, new), (
                f"{action} by {by} and the referee"
            )
        table = after
        events.extend(new)
        if not isinstance(action, Sit):
            assert table.total_money == money, f"money not conserved by {action}"
        money = table.total_money
        assert all(p.bankroll >= 0 for p in table.players)
        assert all(table.available(p.name) >= 0 for p in table.players)
    return table, events


def bankrolls(table: Table) -> dict[str, Fraction]:
    return {p.name: p.bankroll for p in table.players}


def settled(events: Sequence[AnyEvent]) -> RoundSettled:
    found = [e for e in events if isinstance(e, RoundSettled)]
    assert len(found) == 1, events
    return found[0]


def refused(
    table: Table, action: TableAction, error: type[HazardError], *fragments: str, by: Actor | None = None
) -> str:
    """``action`` is refused with ``error`` naming each fragment, and the table is left as it was.

    Without ``by``, both the rightful player and the referee are refused, with the same message.
    """
    before = repr(table)
    actors = [by] if by is not None else list(dict.fromkeys([rightful(table, action), REFEREE]))
    messages = []
    for actor in actors:
        with pytest.raises(error) as caught:
            apply_action(table, action, by=actor)
        assert type(caught.value) is error
        messages.append(str(caught.value))
        for fragment in fragments:
            assert fragment in str(caught.value), (fragment, str(caught.value))
        assert repr(table) == before
    assert len(set(messages)) == 1, messages
    return messages[0]


def bank_table() -> Table:
    return table_for("wikipedia", ("Cass", 1000), ("Sam", 1000))


# --- ecws-1674: the setter's sum, accepted at even money -------------------------------------------------


def setter_table() -> Table:
    return table_for("ecws-1674", ("Cass", 100), ("Sam", 100), ("Sue", 100))


# --- sca-isenfir: every other player against the caster -------------------------------------------------


def all_table(cass: int = 1000) -> Table:
    return table_for("sca-isenfir", ("Cass", cass), ("Ann", 100), ("Ben", 100), ("Cat", 100))


# --- side bets ---------------------------------------------------------------------------------------------


def side_table() -> Table:
    return table_for("wikipedia", ("Cass", 100), ("Ann", 100), ("Ben", 100))
