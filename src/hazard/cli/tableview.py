"""What a table looks like in the terminal and in exports: the state at a glance, entries and their events.

No game logic lives here: every figure is read off :class:`hazard.table.state.Table`, every sentence is an
event's own ``str()``.
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Sequence
from fractions import Fraction
from typing import Any

from rich import box
from rich.console import Group, RenderableType
from rich.table import Table as RichTable
from rich.text import Text

from hazard.core.numbers import fraction_text
from hazard.core.rules import StakeArrangement
from hazard.table.actions import (
    Call,
    CancelBet,
    OfferBet,
    PassDice,
    Sit,
    Stake,
    TableAction,
    TakeBet,
    Throw,
    Withdraw,
    action_to_json,
)
from hazard.table.money import format_money
from hazard.table.record import Correction, Entry, GameInfo, ReplayedGame
from hazard.table.state import AnyEvent, Table

__all__ = [
    "action_text",
    "entries_view",
    "entry_statuses",
    "entry_text",
    "game_csv",
    "game_json",
    "info_text",
    "round_line",
    "stakes_text",
    "state_json",
    "table_view",
]

_STAKES = {
    StakeArrangement.BANK: "each setter against the caster",
    StakeArrangement.SETTER_SUM: "one setter's sum, accepted by the caster",
    StakeArrangement.ALL_AGAINST_CASTER: "everyone against the caster",
}


def action_text(action: TableAction) -> str:
    """An action as the referee would type it (``stake Bob 5``, ``throw 3-4``)."""
    if isinstance(action, Sit):
        bot = f" as a {action.bot} bot" if action.bot else ""
        return f"sit {action.name} {format_money(action.bankroll)}{bot}"
    if isinstance(action, Stake):
        consent = " consent" if action.consent else ""
        return f"stake {action.player} {format_money(action.amount)}{consent}"
    if isinstance(action, Withdraw):
        return f"withdraw {action.player}"
    if isinstance(action, Call):
        return f"call {action.main}"
    if isinstance(action, Throw):
        return f"throw {action.roll}"
    if isinstance(action, OfferBet):
        odds = "" if action.odds == 1 else f" at {fraction_text(action.odds)}"
        return f"offer {action.backer} {format_money(action.amount)} on {action.proposition}{odds}"
    if isinstance(action, TakeBet):
        return f"take {action.bet} {action.layer}"
    if isinstance(action, CancelBet):
        return f"cancel {action.bet}"
    assert isinstance(action, PassDice)
    return "pass"


def entry_text(entry: Entry) -> str:
    """One line of the record in words: the action, or what a correction did."""
    item = entry.item
    if isinstance(item, Correction):
        if item.replacement is None:
            return f"correction: entry {item.target} is void"
        return f"correction: entry {item.target} now reads '{action_text(item.replacement)}'"
    return action_text(item)


def entry_statuses(entries: Sequence[Entry]) -> dict[int, str]:
    """Each entry's standing: ``stands``, ``void`` or ``replaced`` (by a later correction), ``correction``."""
    final: dict[int, TableAction | None] = {}
    for entry in entries:
        if isinstance(entry.item, Correction):
            final[entry.item.target] = entry.item.replacement
    statuses: dict[int, str] = {}
    for entry in entries:
        if isinstance(entry.item, Correction):
            statuses[entry.seq] = "correction"
        elif entry.seq not in final:
            statuses[entry.seq] = "stands"
        else:
            statuses[entry.seq] = "void" if final[entry.seq] is None else "replaced"
    return statuses


BOT_UNIT = "bot_unit"
"""The setting in which ``hazard play`` keeps what its bots stake."""


def info_text(info: GameInfo) -> str:
    """What a game was set up with, on one line."""
    dice = f"seeded dice (seed {info.seed})" if info.dice == "seeded" else f"{info.dice} dice"
    label = f" · {info.label}" if info.label else ""
    unit = info.settings.get(BOT_UNIT)
    if unit is not None:
        label += f" · bot unit {format_money(Fraction(unit))}"
    return (
        f"Game {info.id}{label} · {info.ruleset.id}, paytable {info.paytable.id}, "
        f"stakes {info.stakes.value} · {dice} · started {info.created}"
    )


def round_line(table: Table) -> str:
    """The round on one line: who holds the dice, the main and chance, the throws, the losses in a row."""
    caster = f"{table.caster} has the dice" if table.caster else "nobody has the dice yet"
    throws = table.throws_this_round
    parts = [f"Round {table.rounds_played + 1}", caster, str(table.round)]
    parts.append(f"{throws} throw{'' if throws == 1 else 's'} this round")
    passing = table.ruleset.passing
    if passing.by_losses and table.losses_in_row:
        parts.append(f"{table.losses_in_row} of {passing.after_losses} losses before the dice pass")
    return " · ".join(parts)


def table_view(table: Table, *, you: str | None = None) -> RenderableType:
    """The table at a glance: the caster, main and chance, every player's money and stake, the side bets."""
    grid = RichTable(box=box.SIMPLE_HEAD, show_edge=False, pad_edge=False)
    for column in ("player", "bankroll", "free", "stake", ""):
        grid.add_column(column, justify="right" if column in ("bankroll", "free") else "left")
    against = sum((w.amount for w in table.wagers), Fraction(0))
    for player in table.players:
        notes = []
        if player.name == you:
            notes.append("you")
        if player.bot:
            notes.append(f"{player.bot} bot")
        if player.name == table.caster:
            notes.append("caster")
            stake = f"covers {format_money(against)}" if table.wagers else ""
        else:
            laid = sum((w.amount for w in table.wagers if w.opponent == player.name), Fraction(0))
            stake = f"{format_money(laid)} against {table.caster}" if laid else ""
        grid.add_row(
            player.name,
            format_money(player.bankroll),
            format_money(table.available(player.name)),
            stake,
            ", ".join(notes),
        )
    parts: list[RenderableType] = [Text(round_line(table), style="bold")]
    if table.players:
        parts.append(grid)
    for bet in table.side_bets:
        taken = f"taken by {bet.layer}" if bet.layer else "open: take it with 'take " + str(bet.number) + "'"
        parts.append(Text(f"side bet {bet} — {taken}"))
    return Group(*parts)


def entries_view(game: ReplayedGame) -> Group:
    """Every entry of a game's record as the referee typed it (``[7] throw 2-2``), then what it did.

    An entry that a later correction voided or replaced says so.
    """
    caused = _events_by_entry(game.events)
    statuses = entry_statuses(game.entries)
    lines = [Text(f"Entries of game {game.info.id}:", style="bold")]
    for entry in game.entries:
        standing = statuses[entry.seq]
        note = f" · {standing}" if standing in ("void", "replaced") else ""
        lines.append(Text(f"[{entry.seq}] {entry_text(entry)}{note} · {entry.at}"))
        lines.extend(Text(f"      {event}") for event in caused.get(entry.seq, []))
    return Group(*lines)


def _entry_json(item: TableAction | Correction) -> dict[str, Any]:
    if isinstance(item, Correction):
        replacement = None if item.replacement is None else action_to_json(item.replacement)
        return {"type": "correction", "target": item.target, "replacement": replacement}
    return action_to_json(item)


def _events_by_entry(events: Sequence[tuple[int, AnyEvent]]) -> dict[int, list[str]]:
    caused: dict[int, list[str]] = {}
    for seq, event in events:
        caused.setdefault(seq, []).append(str(event))
    return caused


def state_json(table: Table) -> dict[str, Any]:
    """The table's state as plain JSON values; sums written as :func:`format_money` writes them."""
    return {
        "caster": table.caster,
        "phase": table.round.phase.value,
        "main": table.round.main,
        "chance": table.round.chance,
        "rounds_played": table.rounds_played,
        "throws": table.throws,
        "throws_this_round": table.throws_this_round,
        "losses_in_row": table.losses_in_row,
        "players": [
            {
                "name": p.name,
                "bot": p.bot,
                "bankroll": format_money(p.bankroll),
                "free": format_money(table.available(p.name)),
            }
            for p in table.players
        ],
        "stakes": [{"player": w.opponent, "amount": format_money(w.amount)} for w in table.wagers],
        "side_bets": [
            {
                "number": b.number,
                "backer": b.backer,
                "layer": b.layer,
                "proposition": str(b.proposition),
                "amount": format_money(b.amount),
                "odds": fraction_text(b.odds),
            }
            for b in table.side_bets
        ],
    }


def game_json(game: ReplayedGame) -> str:
    """A game as JSON: its setup, every entry with its standing and events, and the state it leads to."""
    info = game.info
    caused = _events_by_entry(game.events)
    statuses = entry_statuses(game.entries)
    data = {
        "game": {
            "id": info.id,
            "created": info.created,
            "label": info.label,
            "ruleset": info.ruleset.id,
            "paytable": info.paytable.id,
            "stakes": info.stakes.value,
            "dice": info.dice,
            "seed": info.seed,
        },
        "entries": [
            {
                "seq": e.seq,
                "at": e.at,
                "entry": _entry_json(e.item),
                "text": entry_text(e),
                "standing": statuses[e.seq],
                "events": caused.get(e.seq, []),
            }
            for e in game.entries
        ],
        "state": state_json(game.table),
    }
    return json.dumps(data, indent=2)


def game_csv(game: ReplayedGame) -> str:
    """A game's entries as CSV, one row each: number, time, kind, the entry in words, standing, events."""
    caused = _events_by_entry(game.events)
    statuses = entry_statuses(game.entries)
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(["seq", "at", "type", "entry", "standing", "events", "data"])
    for e in game.entries:
        data = _entry_json(e.item)
        writer.writerow(
            [
                e.seq,
                e.at,
                data["type"],
                entry_text(e),
                statuses[e.seq],
                " | ".join(caused.get(e.seq, [])),
                json.dumps(data, sort_keys=True),
            ]
        )
    return out.getvalue()


def stakes_text(stakes: StakeArrangement) -> str:
    """How stakes are laid, in words."""
    return _STAKES[stakes]
