"""What a table looks like in the terminal and in CSV: the state at a glance, entries and their events.

No game logic lives here: every figure is read off :class:`hazard.table.Table`, every sentence is an event's
or an entry's own text, in the money style the player chose.
"""

from __future__ import annotations

import csv
import io
import json
from fractions import Fraction

from rich import box
from rich.console import Group, RenderableType
from rich.table import Table as RichTable
from rich.text import Text

from hazard.core.passing import passing_text
from hazard.table import (
    SETTING_STAKING,
    SETTING_UNIT,
    GameInfo,
    Hand,
    MoneyStyle,
    ReplayedGame,
    Standing,
    Table,
    entry_data,
    entry_note,
    entry_text,
    event_text,
    format_money,
    standing,
)

__all__ = [
    "entries_view",
    "game_csv",
    "info_text",
    "round_line",
    "rules_text",
    "table_view",
]


def info_text(info: GameInfo, money: MoneyStyle = MoneyStyle.DECIMAL) -> str:
    """What a game was set up with, on one line."""
    label = f" · {info.label}" if info.label else ""
    unit = info.settings.get(SETTING_UNIT)
    if unit is not None:
        label += f" · bot unit {format_money(Fraction(unit), money)}"
    staking = info.settings.get(SETTING_STAKING)
    if staking is not None:
        label += f", {staking} stakes"
    return (
        f"Game {info.id}{label} · {info.ruleset.id}, paytable {info.paytable.id}, "
        f"stakes {info.stakes.value} · {info.dice.describe(info.seed)} · started {info.created}"
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


def table_view(
    table: Table, *, you: str | None = None, money: MoneyStyle = MoneyStyle.DECIMAL, hand: Hand | None = None
) -> RenderableType:
    """The table at a glance: the caster, main and chance, every player's money and stake, the side bets,
    and the fair dice's commitment to the hand in play (``hand``; its seed is never shown before it ends)."""
    grid = RichTable(box=box.SIMPLE_HEAD, show_edge=False, pad_edge=False)
    for column in ("player", "bankroll", "free", "stake", ""):
        grid.add_column(column, justify="right" if column in ("bankroll", "free") else "left")
    against = sum((w.amount for w in table.wagers), Fraction(0))
    for player in table.players:
        notes = []
        if player.name == you:
            notes.append("you")
        if player.bot:
            notes.append(f"{player.bot.value} bot")
        if player.name == table.caster:
            notes.append("caster")
            stake = f"covers {format_money(against, money)}" if table.wagers else ""
        else:
            laid = table.staked_by(player.name)
            stake = f"{format_money(laid, money)} against {table.caster}" if laid else ""
        grid.add_row(
            player.name,
            format_money(player.bankroll, money),
            format_money(table.available(player.name), money),
            stake,
            ", ".join(notes),
        )
    parts: list[RenderableType] = [Text(round_line(table), style="bold")]
    if table.players:
        parts.append(grid)
    for bet in table.side_bets:
        taken = f"taken by {bet.layer}" if bet.layer else f"open: take it with 'take {bet.number}'"
        parts.append(Text(f"side bet {bet.text(money)} — {taken}"))
    if hand is not None:
        seeds = "seeds fixed" if hand.client_seed is not None else "seeds may still be set ('seed TEXT')"
        throws = f"{len(hand.throws)} throw{'' if len(hand.throws) == 1 else 's'}"
        parts.append(Text(f"fair dice · hand {hand.number} · {throws} · {seeds}"))
        parts.append(Text(f"  commitment (SHA-256 of the hand's seed): {hand.commitment}"))
    return Group(*parts)


def entries_view(game: ReplayedGame, money: MoneyStyle = MoneyStyle.DECIMAL) -> Group:
    """Every entry of a game's record as it would be typed (``[7] throw 2-2``), who entered it, what it did.

    An entry that a later correction voided or replaced says so.
    """
    standings = standing(game.entries)
    lines: list[str] = []
    for entry in game.entries:
        status = standings[entry.seq]
        note = f" · {status.value}" if status in (Standing.VOID, Standing.REPLACED) else ""
        who = entry_note(entry.actor, game.acting_for.get(entry.seq))
        text = entry_text(entry, _exact_or(money))
        lines.append(f"[{entry.seq}] {text} · {who}{note} · {entry.at}")
        lines.extend(f"      {event_text(event, money)}" for event in game.events_of(entry.seq))
    # One text for the whole log, not one per line, to be printed with soft_wrap (lines as they are): Rich
    # lays out each renderable, and folds each line, on its own, and a long game has hundreds of thousands.
    return Group(Text(f"Entries of game {game.info.id}:", style="bold"), Text("\n".join(lines)))


def _exact_or(money: MoneyStyle) -> MoneyStyle:
    """Commands are shown in the money style where it is exact (lsd, exact), else exactly."""
    return MoneyStyle.EXACT if money is MoneyStyle.DECIMAL else money


def game_csv(game: ReplayedGame) -> str:
    """A game's entries as CSV, one row each: number, time, actor, kind, the entry, standing, events.

    Sums are exact, as in the JSON export.
    """
    standings = standing(game.entries)
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(["seq", "at", "actor", "for", "type", "entry", "standing", "events", "data"])
    for entry in game.entries:
        data = entry_data(entry)
        writer.writerow(
            [
                entry.seq,
                entry.at,
                str(entry.actor),
                game.acting_for.get(entry.seq) or "",
                data["type"],
                entry_text(entry),
                standings[entry.seq].value,
                " | ".join(event_text(event, MoneyStyle.EXACT) for event in game.events_of(entry.seq)),
                json.dumps(data, sort_keys=True),
            ]
        )
    return out.getvalue()


def rules_text(info: GameInfo) -> str:
    """The game's rules on one line: the main, the stakes, what a won chance pays, when the dice pass."""
    rules = info.ruleset
    return (
        f"{rules.name}: the main is {rules.method.value}; stakes: {info.stakes.text}; "
        f"a won chance pays {info.paytable.describe_chance()}; {passing_text(rules)}"
    )
