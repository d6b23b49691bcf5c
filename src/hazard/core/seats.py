"""Where a newcomer sits and who holds the dice next: the seat order's two rules, defined once.

The table applies them as players sit and the dice pass (:mod:`hazard.table.rules.transitions`), and the
verifier of fair dice follows them through an export's entries to know the seat order before each hand
(:mod:`hazard.table.fair.verify_seats`): so the two cannot disagree on the order of a hand's client seed.

>>> names = ["Ann", "Bob"]
>>> names.insert(newcomer_place(names, "Bob"), "Cat")  # at the caster Bob's right
>>> names, next_in_turn(names, "Bob")
(['Ann', 'Cat', 'Bob'], 'Ann')
"""

from __future__ import annotations

from collections.abc import Sequence

__all__ = ["newcomer_place", "next_in_turn"]


def newcomer_place(names: Sequence[str], caster: str | None) -> int:
    """The place in the seat order ``names`` where a newcomer sits: at the caster's right, last in the order
    the dice travel from him (so at the end where the caster sits first, or nobody casts yet)."""
    at = names.index(caster) if caster is not None else 0
    return at if at > 0 else len(names)


def next_in_turn(names: Sequence[str], name: str) -> str:
    """The player on ``name``'s left in the seat order ``names``: the next to hold the dice (``name`` himself
    where he sits alone). ``name`` must be in ``names``."""
    return names[(names.index(name) + 1) % len(names)]
