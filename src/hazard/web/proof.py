"""The page that proves a table's dice: every hand's commitment, seeds and throws, checked in the browser.

``/tables/{id}/proof`` shows each hand of fair dice as the table's record holds it: the commitment shown
before the hand, the client seed fixed at its first throw (and which players set a seed of their own after
the commitment, or a plain warning where none did), the server seed once revealed, and each throw with its
nonce. The server renders what the record says; the page's own script (``static/proof.js``) then fetches
the record and recomputes, with the browser's Web Crypto, SHA-256 of each revealed seed against its
commitment and every throw from the seeds (HMAC-SHA256, as :func:`hazard.table.fair_throw`), and marks each
✔ or ✘: a player need trust neither this server's word nor its Python.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from typing import Any

from jinja2 import Environment

from hazard.core.dice import Roll
from hazard.core.errors import InvalidError
from hazard.table import HandCheck, verify_game
from hazard.web.pages import templates

__all__ = ["HandProof", "ProofView", "ThrowRow", "proof_page", "proof_view"]


@dataclass(frozen=True, slots=True)
class ThrowRow:
    """One throw of a hand: its nonce (0 for the hand's first), the entry that holds it, what it showed."""

    nonce: int
    entry: int
    roll: Roll


@dataclass(frozen=True, slots=True)
class HandProof:
    """One hand as the record holds it, with who set a seed after its commitment (or the warning)."""

    number: int
    commitment: str
    server_seed: str | None
    """None until the hand ends and its seed is revealed."""
    client_seed: str | None
    """None until the hand's first throw."""
    throws: tuple[ThrowRow, ...]
    fresh: tuple[str, ...]
    """The seeds set after the commitment, each as ``Ann at entry 5``: what kept the server from choosing."""
    warning: str | None
    """Where the dice were thrown and no player set a seed after the commitment: the plain warning."""


@dataclass(frozen=True, slots=True)
class ProofView:
    """The proof page: the table, its hands, and what the server's own check found (None: all well)."""

    game: int
    label: str
    hands: tuple[HandProof, ...]
    problem: str | None
    fair: bool
    """Whether the table's dice are fair dice at all (the others carry no proof)."""
    dice: str
    """The table's dice, in words (``provably fair``, ``real dice, typed by the referee`` ...)."""


def proof_view(game: int, export: Mapping[str, Any]) -> ProofView:
    """The proof of table ``game`` from its export (``GET /api/tables/{id}/record``'s JSON)."""
    setup = export.get("game") or {}
    label = str(setup.get("label") or f"table {game}")
    dice = str(setup.get("fairness") or setup.get("dice") or "")
    try:
        verification = verify_game(export)
    except InvalidError:
        return ProofView(game, label, (), None, fair=False, dice=dice)
    checks = {check.number: check for check in verification.checked}
    hands = tuple(_hand(hand, checks.get(int(hand["hand"]))) for hand in export.get("hands") or ())
    return ProofView(game, label, hands, verification.problem, fair=True, dice=dice)


def _hand(hand: Mapping[str, Any], check: HandCheck | None) -> HandProof:
    throws = tuple(
        ThrowRow(int(t["nonce"]), int(t["entry"]), Roll.parse(str(t["roll"])))
        for t in hand.get("throws") or ()
    )
    warning = None if check is None else check.warning()
    return HandProof(
        number=int(hand["hand"]),
        commitment=str(hand["commitment"]),
        server_seed=hand.get("server_seed"),
        client_seed=hand.get("client_seed"),
        throws=throws,
        fresh=() if check is None else tuple(str(seed) for seed in check.chosen),
        warning=None if warning is None else _sentence(warning),
    )


def _sentence(warning: str) -> str:
    """``hand 3: no player set ...`` as the page says it under hand 3's heading: ``No player set ...``."""
    _, _, said = warning.partition(": ")
    return said[:1].upper() + said[1:] + "."


@cache
def _templates() -> Environment:
    return templates()


def proof_page(game: int, export: Mapping[str, Any]) -> str:
    """The proof page of table ``game``, from its export."""
    view = proof_view(game, export)
    return (
        _templates()
        .get_template("proof.html")
        .render(
            title=f"{view.label} · the dice's proof · Hazard",
            data={"page": "proof", "game": game},
            game=game,
            proof=view,
        )
    )
