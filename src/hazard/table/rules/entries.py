"""The game record's vocabulary: a game's setup and its entries, their stored JSON forms, and which entries
stand once the corrections are applied. No rule of the game: the store reads and writes these, and the table
(:mod:`hazard.table.live.timeline`) replays them.

Nothing is ever updated or deleted: a mistaken entry is put right by a :class:`Correction` entry that voids it
or replaces it, and :func:`effective_actions` is the one place that says which entries stand once the
corrections are applied.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, cast

from hazard.core.errors import IllegalError, InvalidError
from hazard.core.paytable import Paytable
from hazard.core.rules import Ruleset, StakeArrangement
from hazard.table.fair.commit_reveal import FairNote, note_from_json, note_text, note_to_json
from hazard.table.fair.dice import DiceKind
from hazard.table.rules.actions import (
    REFEREE,
    Actor,
    TableAction,
    action_from_json,
    action_text,
    action_to_json,
    actor_from_json,
    actor_to_json,
    is_action,
)
from hazard.table.rules.closing import CLOSE_TYPE, Close, close_from_json, close_to_json

__all__ = [
    "FORMAT",
    "FORMATS",
    "LEGACY_FORMAT",
    "Correction",
    "Entry",
    "GameInfo",
    "GameKind",
    "Standing",
    "check_correction",
    "closed_at",
    "effective_actions",
    "entry_from_json",
    "entry_to_json",
    "info_json",
    "item_text",
    "standing",
]

FORMAT = "hazard-game/2"
"""The format new games are written in: each entry names its actor."""
LEGACY_FORMAT = "hazard-game/1"
"""Games written before entries named their actors; their entries read as entered by the referee."""
FORMATS = (LEGACY_FORMAT, FORMAT)
"""Every format a record may be in; any other is refused rather than misread."""


class GameKind(enum.Enum):
    """Which way of playing a game was started in, and so which front end carries it on."""

    PLAY = "play"
    """``hazard play``: one person and bots, the game throwing the dice."""
    REFEREE = "referee"
    """``hazard referee``: people with real dice, a referee typing in what happens."""
    WEB = "web"
    """``hazard serve``: a table played from afar, with the server's fair dice or a referee's real dice."""

    @property
    def label(self) -> str:
        """The label a game of this kind gets when none is given."""
        return f"hazard {self.value}"

    def resume_text(self, game: int) -> str:
        """How a game of this kind is carried on."""
        if self is GameKind.WEB:
            return f"open it at its table in hazard serve (table {game})"
        return f"resume it with {self.label} --resume {game}"


class Standing(enum.Enum):
    """Where an entry stands once every correction is applied."""

    STANDS = "stands"
    VOID = "void"
    REPLACED = "replaced"
    CORRECTION = "correction"
    NOTE = "note"
    """A note of the fair dice (a commitment, a seed, a reveal) or the table's close: part of the record, no
    action."""


@dataclass(frozen=True, slots=True)
class Correction:
    """A correction entry: entry ``target`` is void, or stands replaced by ``replacement``."""

    target: int
    replacement: TableAction | None = None


@dataclass(frozen=True, slots=True)
class Entry:
    """One line of a game's record: its number, when it was written, who entered it, and what it holds."""

    seq: int
    at: str
    actor: Actor
    item: TableAction | Correction | FairNote | Close


@dataclass(frozen=True, slots=True)
class GameInfo:
    """What a game was set up with."""

    id: int
    created: str
    label: str
    ruleset: Ruleset
    paytable: Paytable
    stakes: StakeArrangement
    dice: DiceKind
    seed: int | None
    kind: GameKind = GameKind.PLAY
    settings: Mapping[str, str] = field(default_factory=dict)
    """What the front end that started the game kept with it (a bot's stake unit ...)."""
    format: str = FORMAT


# --- corrections -------------------------------------------------------------------------------------------


def standing(entries: Sequence[Entry]) -> dict[int, Standing]:
    """Each entry's standing once every correction is applied (the last correction of an entry wins)."""
    final: dict[int, TableAction | None] = {}
    for entry in entries:
        if isinstance(entry.item, Correction):
            final[entry.item.target] = entry.item.replacement
    result: dict[int, Standing] = {}
    for entry in entries:
        if isinstance(entry.item, Correction):
            result[entry.seq] = Standing.CORRECTION
        elif isinstance(entry.item, FairNote | Close):
            result[entry.seq] = Standing.NOTE
        elif entry.seq not in final:
            result[entry.seq] = Standing.STANDS
        else:
            result[entry.seq] = Standing.VOID if final[entry.seq] is None else Standing.REPLACED
    return result


def check_correction(entries: Sequence[Entry], target: int, seq: int, by: Actor) -> None:
    """Refuse a correction by ``by``, written as entry ``seq``, unless ``by`` is the referee and ``target`` is
    an earlier action entry."""
    if not by.is_referee:
        raise IllegalError(
            f"illegal correction of entry {target} by {by}: only the referee corrects the record"
        )
    before = _entry(entries, target)
    if before is None or target >= seq:
        last = f"entries 1 to {seq - 1}" if seq > 1 else "no entries"
        raise IllegalError(f"illegal correction of entry {target}: it can only correct {last}")
    if isinstance(before.item, FairNote):
        raise IllegalError(
            f"illegal correction of entry {target}: it is a note of the fair dice, which stands as written"
        )
    if isinstance(before.item, Close):
        raise IllegalError(f"illegal correction of entry {target}: it closed the table, which stays closed")
    if isinstance(before.item, Correction):
        raise IllegalError(
            f"illegal correction of entry {target}: it is a correction itself; correct entry "
            f"{before.item.target} instead"
        )


def _entry(entries: Sequence[Entry], seq: int) -> Entry | None:
    """Entry ``seq``: found by its place where the entries are numbered from 1 without a gap, as a record's
    are, so that checking every correction of a long game costs no more than reading it."""
    if 1 <= seq <= len(entries) and entries[seq - 1].seq == seq:
        return entries[seq - 1]
    return next((entry for entry in entries if entry.seq == seq), None)


def effective_actions(entries: Sequence[Entry]) -> list[tuple[int, Actor, TableAction]]:
    """The actions that stand once every correction is applied, each with its entry number and actor.

    A replacement is entered by whoever wrote the correction (the referee).
    """
    replaced: dict[int, tuple[Actor, TableAction | None]] = {}
    for entry in entries:
        if isinstance(entry.item, Correction):
            try:
                check_correction(entries, entry.item.target, entry.seq, entry.actor)
            except IllegalError as error:
                raise InvalidError(f"invalid correction in entry {entry.seq}: {error}") from None
            replaced[entry.item.target] = (entry.actor, entry.item.replacement)
    actions: list[tuple[int, Actor, TableAction]] = []
    for entry in entries:
        if isinstance(entry.item, Correction | FairNote | Close):
            continue
        actor, action = replaced.get(entry.seq, (entry.actor, entry.item))
        if action is not None:
            actions.append((entry.seq, actor, action))
    return actions


def entry_to_json(actor: Actor, item: TableAction | Correction | FairNote | Close) -> dict[str, Any]:
    """What the record stores for one entry: its actor, and its action, correction, fair dice's note or
    close."""
    if isinstance(item, Close):
        return {"actor": actor_to_json(actor), CLOSE_TYPE: close_to_json(item)}
    if isinstance(item, FairNote):
        return {"actor": actor_to_json(actor), "fair": note_to_json(item)}
    if isinstance(item, Correction):
        replacement = None if item.replacement is None else action_to_json(item.replacement)
        return {
            "actor": actor_to_json(actor),
            "correction": {"target": item.target, "replacement": replacement},
        }
    return {"actor": actor_to_json(actor), "action": action_to_json(item)}


def entry_from_json(data: object) -> tuple[Actor, TableAction | Correction | FairNote | Close]:
    """Read one stored entry: either form (a legacy entry, with no actor, reads as entered by the referee)."""
    if isinstance(data, dict) and "actor" in data:
        kinds = set(data) - {"actor"}
        if kinds == {"action"}:
            return actor_from_json(data["actor"]), action_from_json(data["action"])
        if kinds == {"correction"}:
            return actor_from_json(data["actor"]), _correction(data["correction"])
        if kinds == {"fair"}:
            return actor_from_json(data["actor"]), note_from_json(data["fair"])
        if kinds == {CLOSE_TYPE}:
            return actor_from_json(data["actor"]), close_from_json(data[CLOSE_TYPE])
        raise InvalidError(
            f"invalid entry {str(data)[:80]!r}: expected an actor with an action or a correction"
        )
    if isinstance(data, dict) and data.get("type") == "correction":
        rest = {key: value for key, value in data.items() if key != "type"}
        return REFEREE, _correction(rest)
    return REFEREE, action_from_json(data)


def _correction(data: object) -> Correction:
    if not isinstance(data, dict) or set(data) != {"target", "replacement"}:
        raise InvalidError(f"invalid correction {str(data)[:80]!r}: expected a target and a replacement")
    target = data["target"]
    if not isinstance(target, int) or isinstance(target, bool) or target < 1:
        raise InvalidError(f"invalid correction target {target!r}: expected an entry number")
    replacement = data["replacement"]
    return Correction(target, None if replacement is None else action_from_json(replacement))


def info_json(info: GameInfo) -> dict[str, Any]:
    """A game's setup as JSON values."""
    return {
        "id": info.id,
        "format": info.format,
        "created": info.created,
        "label": info.label,
        "kind": info.kind.value,
        "ruleset": info.ruleset.id,
        "paytable": info.paytable.id,
        "stakes": info.stakes.value,
        "dice": info.dice.value,
        "fairness": info.dice.fairness,
        "seed": info.seed,
        "settings": dict(info.settings),
    }


def closed_at(entries: Sequence[Entry]) -> int | None:
    """The number of the entry that closed the table (None while it is open); an :class:`InvalidError`
    where any entry comes after it, since a closed table takes nothing more."""
    for index, entry in enumerate(entries):
        if isinstance(entry.item, Close):
            if index + 1 < len(entries):
                raise InvalidError(
                    f"entry {entries[index + 1].seq} comes after entry {entry.seq}, which closed the table"
                )
            return entry.seq
    return None


def item_text(item: TableAction | Correction | FairNote | Close) -> str:
    """An entry's item in words, as a refusal names it."""
    if isinstance(item, FairNote):
        return note_text(item)
    if isinstance(item, Close):
        return "close"
    if is_action(item):  # any registered action type, which writes its own text
        return action_text(item)
    return f"correction of entry {cast(Correction, item).target}"
