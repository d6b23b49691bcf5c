"""Playing Hazard at a table: the one service every front end drives.

A front end opens a :class:`GameStore`, starts or resumes a :class:`Session`, and hands it what each person
typed with who typed it (:meth:`Session.act`); the table decides who may do what, settles the money, passes
the dice and keeps the record. Everything a front end shows is read off the session: the :class:`Table`
(whose :attr:`Table.turn` it is, every bankroll and stake), the events of each action in words
(:func:`event_text`), the record's entries (:func:`entry_text`, :func:`standing`), and the JSON forms of a
table and of a game (:func:`table_json`, :func:`game_json`). Sums are exact fractions, shown in a
:class:`MoneyStyle`.

>>> store = GameStore.open("sqlite://", in_memory=True)  # a record that ends with the program
>>> from hazard.core.rulesets import find_ruleset
>>> rules = find_ruleset("craps")
>>> pays, _ = table_paytable(rules)
>>> session = Session.start(store, ruleset=rules, paytable=pays, dice=DiceKind.SEEDED, seed=1)
>>> for name in ("Ann", "Bob"):
...     _ = session.act(f"sit {name} 20", by=Actor.player(name))
>>> [str(event) for done in session.act("stake 5", by=Actor.player("Bob")) for event in done.events]
['Bob stakes 5.00 against Ann']
>>> str(session.table.turn)
'Ann to throw; stakes may be laid'
"""

from hazard.core.errors import HazardError, IllegalError, InvalidError
from hazard.table.actions import (
    DICE,
    REFEREE,
    Actor,
    ActorError,
    ActorKind,
    BotPolicy,
    Call,
    CancelBet,
    OfferBet,
    PassDice,
    Roll,
    SetSeed,
    Sit,
    Stake,
    TableAction,
    TakeBet,
    ThrowDice,
    Withdraw,
    action_from_json,
    action_text,
    action_to_json,
    check_name,
    is_verb,
    parse_action,
)
from hazard.table.bots import BotBrains, BotMove, MainChoice, best_main
from hazard.table.dice import DiceKind, DiceSource, SecureDice, SeededDice
from hazard.table.events import (
    AnyEvent,
    BetCancelled,
    BetOffered,
    BetSettled,
    BetTaken,
    CasterChanged,
    RoundSettled,
    Seated,
    Staked,
    TableEvent,
    Thrown,
    Withdrawn,
    event_text,
)
from hazard.table.fair import (
    ClientSeeded,
    Committed,
    FairNote,
    FairState,
    Hand,
    HandOpened,
    Revealed,
    commitment,
    fair_throw,
    note_text,
)
from hazard.table.game import (
    FORMAT,
    Correction,
    Entry,
    GameInfo,
    GameKind,
    ReplayedGame,
    Standing,
    effective_actions,
    entry_data,
    entry_note,
    entry_text,
    entry_to_json,
    fair_ledger,
    game_json,
    hands_json,
    info_json,
    replay,
    standing,
)
from hazard.table.money import MoneyStyle, format_money, parse_money
from hazard.table.record import (
    MAX_GAME,
    MAX_REQUEST,
    Access,
    GameStore,
    GameSummary,
    Holder,
    StaleError,
    check_game_number,
    default_database_url,
)
from hazard.table.session import Recorded, Session, check_seats, table_paytable
from hazard.table.state import Need, Player, SideBet, Table, Transfer, Turn, Wager, new_table, table_json
from hazard.table.transitions import acting_for, apply_action
from hazard.table.verify import HandCheck, Verification, verify_game

__all__ = [
    "DICE",
    "FORMAT",
    "MAX_GAME",
    "MAX_REQUEST",
    "REFEREE",
    "Access",
    "Actor",
    "ActorError",
    "ActorKind",
    "AnyEvent",
    "BetCancelled",
    "BetOffered",
    "BetSettled",
    "BetTaken",
    "BotBrains",
    "BotMove",
    "BotPolicy",
    "Call",
    "CancelBet",
    "CasterChanged",
    "ClientSeeded",
    "Committed",
    "Correction",
    "DiceKind",
    "DiceSource",
    "Entry",
    "FairNote",
    "FairState",
    "GameInfo",
    "GameKind",
    "GameStore",
    "GameSummary",
    "Hand",
    "HandCheck",
    "HandOpened",
    "HazardError",
    "Holder",
    "IllegalError",
    "InvalidError",
    "MainChoice",
    "MoneyStyle",
    "Need",
    "OfferBet",
    "PassDice",
    "Player",
    "Recorded",
    "ReplayedGame",
    "Revealed",
    "Roll",
    "RoundSettled",
    "Seated",
    "SecureDice",
    "SeededDice",
    "Session",
    "SetSeed",
    "SideBet",
    "Sit",
    "Stake",
    "Staked",
    "StaleError",
    "Standing",
    "Table",
    "TableAction",
    "TableEvent",
    "TakeBet",
    "ThrowDice",
    "Thrown",
    "Transfer",
    "Turn",
    "Verification",
    "Wager",
    "Withdraw",
    "Withdrawn",
    "acting_for",
    "action_from_json",
    "action_text",
    "action_to_json",
    "apply_action",
    "best_main",
    "check_game_number",
    "check_name",
    "check_seats",
    "commitment",
    "default_database_url",
    "effective_actions",
    "entry_data",
    "entry_note",
    "entry_text",
    "entry_to_json",
    "event_text",
    "fair_ledger",
    "fair_throw",
    "format_money",
    "game_json",
    "hands_json",
    "info_json",
    "is_verb",
    "new_table",
    "note_text",
    "parse_action",
    "parse_money",
    "replay",
    "standing",
    "table_json",
    "table_paytable",
    "verify_game",
]
