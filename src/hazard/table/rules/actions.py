"""The table's actions, in one place to import them from: who acts (:mod:`hazard.table.rules.actors`), the
action types with their words and JSON (:mod:`hazard.table.rules.action_types`), the reader of a typed command
and of names (:mod:`hazard.table.rules.reader`), the registry of action types
(:mod:`hazard.table.rules.registry`) and the referee's corrections (:mod:`hazard.table.rules.fixes`).

>>> from hazard.table.rules.actions import Actor, parse_action
>>> parse_action("stake 5", by=Actor.player("Ann"))
Stake(player='Ann', amount=Fraction(5, 1), consent=False)
"""

from __future__ import annotations

from hazard.core.dice import Roll
from hazard.core.engine import Call
from hazard.table.rules.action_types import (
    ActionType,
    CancelBet,
    Leave,
    OfferBet,
    PassDice,
    SetSeed,
    Sit,
    Stake,
    TableAction,
    TakeBet,
    ThrowDice,
    Withdraw,
    is_verb,
    parse_action,
)
from hazard.table.rules.actors import (
    DICE,
    MAX_NAME,
    REFEREE,
    Actor,
    ActorError,
    ActorKind,
    BotPolicy,
    actor_from_json,
    actor_to_json,
)
from hazard.table.rules.fixes import FIX_USAGE, Fix, parse_fix
from hazard.table.rules.reader import check_name, name_key, name_text, parse_odds
from hazard.table.rules.registry import (
    ActionForm,
    HelpLine,
    action_from_json,
    action_text,
    action_to_json,
    forms,
    is_action,
    verbs,
)

__all__ = [
    "DICE",
    "FIX_USAGE",
    "MAX_NAME",
    "REFEREE",
    "ActionForm",
    "ActionType",
    "Actor",
    "ActorError",
    "ActorKind",
    "BotPolicy",
    "Call",
    "CancelBet",
    "Fix",
    "HelpLine",
    "Leave",
    "OfferBet",
    "PassDice",
    "Roll",
    "SetSeed",
    "Sit",
    "Stake",
    "TableAction",
    "TakeBet",
    "ThrowDice",
    "Withdraw",
    "action_from_json",
    "action_text",
    "action_to_json",
    "actor_from_json",
    "actor_to_json",
    "check_name",
    "forms",
    "is_action",
    "is_verb",
    "name_key",
    "name_text",
    "parse_action",
    "parse_fix",
    "parse_odds",
    "verbs",
]
