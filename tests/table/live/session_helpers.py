"""What the live-session tests share: starting a session on a store, seating its players, reading
back what it stored, and the players themselves."""

from __future__ import annotations

import queue
from fractions import Fraction
from typing import Any

import pytest

from hazard.core.rulesets import find_ruleset
from hazard.table import TableSpec
from hazard.table.fair.dice import DiceKind
from hazard.table.live.session import Session, table_paytable
from hazard.table.live.timeline import GameKind, load_game
from hazard.table.record.store import GameStore
from hazard.table.rules.actions import Actor, BotPolicy, Sit

ANN, BEN, BOB, CAT = (Actor.player(name) for name in ("Ann", "Ben", "Bob", "Cat"))


def start(store: GameStore, ruleset: str = "wikipedia", **options: Any) -> Session:
    rules = find_ruleset(ruleset)
    pays, _ = table_paytable(rules)
    if options.get("dice") is DiceKind.TYPED:
        options.setdefault("kind", GameKind.REFEREE)
    spec = {key: options.pop(key) for key in _SPEC if key in options}
    if "brains" in options:
        spec["bots"] = options.pop("brains")
    return Session.start(store, TableSpec(rules, pays, **spec), **options)


_SPEC = ("stakes", "dice", "seed", "kind", "label")


def stored(store: GameStore, session: Session) -> list[tuple[Actor, object]]:
    return [(entry.actor, entry.item) for entry in load_game(store, session.game).entries]


def sit(session: Session, *seats: tuple[str, int] | tuple[str, int, BotPolicy]) -> None:
    """Each player sits himself down (a bot too: it is a player at the table)."""
    for name, bankroll, *bot in seats:
        session.play(Sit(name, Fraction(bankroll), bot[0] if bot else None), by=Actor.player(name))


BOTS = (
    ("Cas", 40, BotPolicy.BYSTANDER),
    ("Sam", 40, BotPolicy.SETTER),
    ("Bea", 40, BotPolicy.BYSTANDER),
    ("Sue", 40, BotPolicy.SETTER),
)


def _next_line(lines: queue.Queue[str]) -> str:
    """The child's next line; a guard, not a timing check, so a broken child cannot hang the suite."""
    try:
        return lines.get(timeout=120)
    except queue.Empty:
        pytest.fail("the game process stopped talking")
