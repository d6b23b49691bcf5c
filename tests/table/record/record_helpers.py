"""What the record tests share: a live table from moves, a new game stored with them, and a record
refused whole."""

from __future__ import annotations

import json
from fractions import Fraction

from hazard.core.dice import Roll
from hazard.core.rules import Ruleset, StakeArrangement
from hazard.core.rulesets import find_paytable, find_ruleset
from hazard.table.fair.dice import DiceKind
from hazard.table.live.timeline import GameKind
from hazard.table.record.store import GameStore
from hazard.table.rules.actions import (
    REFEREE,
    Actor,
    BotPolicy,
    Call,
    CancelBet,
    OfferBet,
    PassDice,
    Sit,
    Stake,
    TableAction,
    TakeBet,
    Withdraw,
)
from hazard.table.rules.state import Table, new_table
from hazard.table.rules.transitions import apply_action

WIKIPEDIA = find_ruleset("wikipedia")
WIKI_PAYS = find_paytable("wikipedia")
ANN, BEN, CAT = Actor.player("Ann"), Actor.player("Ben"), Actor.player("Cat")

Move = tuple[Actor, TableAction]

# A legal game holding every kind of action, each by an actor allowed to take it.
EVERY_ACTION: list[Move] = [
    (ANN, Sit("Ann", Fraction(100))),
    (BEN, Sit("Ben", Fraction(201, 2), BotPolicy.SETTER)),
    (REFEREE, Sit("Cat", Fraction(50), BotPolicy.BYSTANDER)),  # the referee seats a bot
    (BEN, Stake("Ben", Fraction(5))),
    (BEN, Withdraw("Ben")),
    (BEN, Stake("Ben", Fraction(7, 2), consent=True)),  # consent where none is needed: Ben's own stake
    (CAT, OfferBet("Cat", "next odd", Fraction(2), Fraction(3, 2))),
    (ANN, TakeBet(1, "Ann")),
    (REFEREE, OfferBet("Cat", "4 or 10 before 7", Fraction(1))),  # entered by the referee for Cat
    (CAT, CancelBet(2)),
    (ANN, Call(7)),
    (ANN, Roll(5, 6)),  # 11 nicks on a main of 7; the odd total wins Cat's side bet
    (ANN, PassDice()),
]


def live(moves: list[Move], ruleset: Ruleset = WIKIPEDIA) -> Table:
    """The table the moves lead to, played straight through the pure rules as entries 1, 2, ... (a sit's entry
    is its player's seating)."""
    table = new_table(ruleset, WIKI_PAYS if ruleset is WIKIPEDIA else find_paytable("even"))
    for seq, (actor, action) in enumerate(moves, start=1):
        table, _ = apply_action(table, action, by=actor, seq=seq)
    return table


def new_game(store: GameStore, moves: list[Move] | None = None, kind: GameKind = GameKind.PLAY) -> int:
    info = store.create(
        ruleset=WIKIPEDIA,
        paytable=WIKI_PAYS,
        stakes=StakeArrangement.BANK,
        dice=DiceKind.SEEDED if kind is GameKind.PLAY else DiceKind.TYPED,
        kind=kind,
        seed=9 if kind is GameKind.PLAY else None,
        label="test",
    )
    for actor, action in moves or []:
        store.append(info.id, actor, action)
    return info.id


# --- corrupt and foreign records ----------------------------------------------------------------------------


def two_entry_game(store: GameStore) -> int:
    return new_game(store, [(ANN, Sit("Ann", Fraction(10))), (BEN, Sit("Ben", Fraction(10)))])


def entry(actor: object, **item: object) -> str:
    return json.dumps({"actor": actor, **item})
