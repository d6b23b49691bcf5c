"""A game as its record holds it: the setup, the entries in order, and the replay that rebuilds the table.

Nothing is ever updated or deleted: a mistaken entry is put right by a :class:`Correction` entry that voids it
or replaces it, and :func:`effective_actions` is the one place that says which entries stand once the
corrections are applied. :func:`replay` plays the standing actions through the pure table; a record that does
not replay is refused whole. :func:`game_json` is a game's JSON form.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from hazard.core.dice import Roll
from hazard.core.errors import HazardError, IllegalError, InvalidError
from hazard.core.paytable import Paytable
from hazard.core.rules import Ruleset, StakeArrangement
from hazard.table.actions import (
    REFEREE,
    Actor,
    TableAction,
    action_from_json,
    action_text,
    action_to_json,
    actor_from_json,
    actor_to_json,
)
from hazard.table.closing import CLOSE_TYPE, Close, close_from_json, close_text, close_to_json, closed_at
from hazard.table.dice import DiceKind
from hazard.table.events import AnyEvent, event_text
from hazard.table.fair import (
    FairNote,
    Ledger,
    ledger,
    note_from_json,
    note_text,
    note_to_json,
)
from hazard.table.money import MoneyStyle
from hazard.table.provenance import RecordProof, proof_json
from hazard.table.state import Table, new_table, table_json
from hazard.table.transitions import acting_for, apply_action

__all__ = [
    "FORMAT",
    "FORMATS",
    "Correction",
    "Entry",
    "GameInfo",
    "GameKind",
    "ReplayedGame",
    "Standing",
    "Timeline",
    "check_correction",
    "effective_actions",
    "entry_data",
    "entry_from_json",
    "entry_note",
    "entry_text",
    "entry_to_json",
    "fair_ledger",
    "game_json",
    "hands_json",
    "info_json",
    "replay",
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


@dataclass(frozen=True)
class ReplayedGame:
    """A game rebuilt from its record: the setup, every entry, and the table they lead to."""

    info: GameInfo
    entries: tuple[Entry, ...]
    table: Table
    events: tuple[tuple[int, AnyEvent], ...]
    """Each event with the number of the entry that caused it."""
    acting_for: Mapping[int, str | None]
    """For each standing entry, the player whose action it was (see ``acting_for``)."""
    timeline: Timeline
    """Tables along the game, from which a correction replays only what comes after it."""
    ledger: Ledger
    """Every hand of the fair dice (none, for other dice)."""
    closed: bool = False
    """Whether the table is closed: by its last entry (a :class:`~hazard.table.closing.Close`), or, in an
    older record, beside the chain."""
    proof: RecordProof | None = None
    """The record's seal of the game (its chain and signatures), where it was loaded from a chained record:
    exported, so that ``hazard verify`` can recompute it."""

    def events_of(self, seq: int) -> list[AnyEvent]:
        """The events entry ``seq`` caused."""
        return self._caused.get(seq, [])

    @cached_property
    def _caused(self) -> dict[int, list[AnyEvent]]:
        caused: dict[int, list[AnyEvent]] = {}
        for seq, event in self.events:
            caused.setdefault(seq, []).append(event)
        return caused


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


def replay(info: GameInfo, entries: Sequence[Entry]) -> ReplayedGame:
    """Rebuild a game by playing its standing actions through the pure table and rules; the fair dice's notes
    must be in order (:func:`~hazard.table.fair.ledger`) and only in a game of fair dice."""
    dice = fair_ledger(info, entries)
    events: list[tuple[int, AnyEvent]] = []
    whose: dict[int, str | None] = {}
    timeline = Timeline(info, {})
    try:
        closed = closed_at(entries) is not None
    except InvalidError as error:
        raise InvalidError(f"record of game {info.id} does not replay: {error}") from None
    table = timeline.play(new_table(info.ruleset, info.paytable, info.stakes), entries, 1, events, whose)
    return ReplayedGame(info, tuple(entries), table, tuple(events), whose, timeline, dice, closed)


def replayed_further(game: ReplayedGame, more: Sequence[Entry]) -> ReplayedGame:
    """``game`` with the entries ``more`` (those after its last) played on from its table: what
    :func:`replay` of all of them gives, for the cost of the new ones alone. A correction among them, which
    can change what came before it, is replayed whole."""
    if not more:
        return game
    entries = (*game.entries, *more)
    if any(isinstance(entry.item, Correction) for entry in more):
        return replay(game.info, entries)
    events = list(game.events)
    whose = dict(game.acting_for)
    timeline = Timeline(game.info, dict(game.timeline.marks))
    try:
        closed = game.closed or closed_at(entries) is not None  # or closed beside the chain, in an old record
    except InvalidError as error:
        raise InvalidError(f"record of game {game.info.id} does not replay: {error}") from None
    table = timeline.play(game.table, more, more[0].seq, events, whose)
    return ReplayedGame(
        game.info, entries, table, tuple(events), whose, timeline, fair_ledger(game.info, entries), closed
    )


def fair_ledger(info: GameInfo, entries: Sequence[Entry]) -> Ledger:
    """Where the game's fair dice stand, from its entries; an :class:`InvalidError` if their notes are out of
    order, found in a game of other dice, or a correction touches a fair throw (its nonce would then mean
    another throw)."""
    fair = info.dice is DiceKind.FAIR
    items: list[tuple[int, object]] = []
    throws: set[int] = set()
    for entry in entries:
        if isinstance(entry.item, FairNote):
            if not fair:
                raise InvalidError(
                    f"record of game {info.id} does not replay: entry {entry.seq} is a note of fair dice, in "
                    f"a game of {info.dice.describe(info.seed)}"
                )
            items.append((entry.seq, entry.item))
        elif fair and isinstance(entry.item, Roll):
            items.append((entry.seq, entry.item))
            throws.add(entry.seq)
        elif (
            fair
            and isinstance(entry.item, Correction)
            and (entry.item.target in throws or isinstance(entry.item.replacement, Roll))
        ):
            raise InvalidError(
                f"record of game {info.id} does not replay: entry {entry.seq} corrects a throw of the fair "
                "dice, which stand as thrown"
            )
    try:
        return ledger(items)
    except InvalidError as error:
        raise InvalidError(f"record of game {info.id} does not replay: {error}") from None


MARK_EVERY = 256
"""How many entries apart a :class:`Timeline` keeps a table: a correction replays at most this many entries
before the one it corrects."""


@dataclass
class Timeline:
    """Tables along a game: before entry 1, and before every ``MARK_EVERY``-th entry after it.

    A table is frozen, so keeping one costs a reference to what the game holds anyway. A correction of entry
    ``t`` leaves every table before ``t`` as it was: :meth:`corrected` starts from the last one kept at or
    before ``t`` and replays only what follows.
    """

    info: GameInfo
    marks: dict[int, Table]
    """Entry number ``s`` -> the table once every standing action of the entries before ``s`` is played."""

    @classmethod
    def of(cls, info: GameInfo, entries: Sequence[Entry]) -> Timeline:
        return replay(info, entries).timeline

    def moved_on(self, entry: Entry, table: Table) -> None:
        """Entry ``entry`` was written and led to ``table``."""
        if _marked(entry.seq + 1):
            self.marks[entry.seq + 1] = table

    def corrected(self, entries: Sequence[Entry], target: int) -> tuple[Table, Timeline]:
        """The table ``entries`` lead to, the last of them correcting entry ``target``, and the timeline they
        make; an :class:`InvalidError` if they do not replay."""
        start = max(seq for seq in self.marks if seq <= target)
        kept = {seq: table for seq, table in self.marks.items() if seq <= start}
        timeline = Timeline(self.info, kept)
        table = timeline.play(kept[start], entries, start, [], {})
        return table, timeline

    def play(
        self,
        table: Table,
        entries: Sequence[Entry],
        start: int,
        events: list[tuple[int, AnyEvent]],
        whose: dict[int, str | None],
    ) -> Table:
        """Play the standing actions of entries ``start`` on from ``table``, marking tables as it goes."""
        self.marks[start] = table
        try:
            standing_actions = effective_actions(entries)
        except InvalidError as error:
            raise InvalidError(f"record of game {self.info.id} does not replay: {error}") from None
        mark = start
        for seq, actor, action in standing_actions:
            if seq < start:
                continue
            while mark <= seq:  # the tables before this entry: every mark passed since the last action
                if _marked(mark):
                    self.marks[mark] = table
                mark += 1
            whose[seq] = acting_for(table, action)
            try:
                table, new = apply_action(table, action, by=actor, seq=seq)
            except HazardError as error:
                raise InvalidError(
                    f"record of game {self.info.id} does not replay: entry {seq}: {error}"
                ) from None
            events.extend((seq, event) for event in new)
        last = entries[-1].seq + 1 if entries else 1
        while mark <= last:
            if _marked(mark):
                self.marks[mark] = table
            mark += 1
        return table


def _marked(seq: int) -> bool:
    return seq % MARK_EVERY == 1


# --- text and JSON forms -----------------------------------------------------------------------------------


def entry_text(entry: Entry, money: MoneyStyle = MoneyStyle.EXACT) -> str:
    """One line of the record in words: the action, or what a correction did."""
    item = entry.item
    if isinstance(item, Correction):
        if item.replacement is None:
            return f"correction: entry {item.target} is void"
        return f"correction: entry {item.target} now reads '{action_text(item.replacement, money)}'"
    if isinstance(item, FairNote):
        return note_text(item)
    if isinstance(item, Close):
        return close_text(item)
    return action_text(item, money)


def entry_note(actor: Actor, acting_for: str | None) -> str:
    """Who entered an entry: ``by Bob``, ``entered by the referee for Bob``, ``entered by the referee``."""
    if not actor.is_referee:
        return f"by {actor}"
    return "entered by the referee" + ("" if acting_for is None else f" for {acting_for}")


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


def entry_data(entry: Entry) -> dict[str, Any]:
    """An entry's item as exports show it: the action's JSON form, or ``{"type": "correction", ...}``."""
    if isinstance(entry.item, Close):
        return {"type": CLOSE_TYPE}
    stored = entry_to_json(entry.actor, entry.item)
    if isinstance(entry.item, Correction):
        return {"type": "correction", **stored["correction"]}
    data: dict[str, Any] = stored["fair" if isinstance(entry.item, FairNote) else "action"]
    return data


def hands_json(game: ReplayedGame) -> list[dict[str, Any]]:
    """The fair dice's hands as exports give them: each commitment, server seed (None until revealed), client
    seed (None until the hand's first throw), and each throw with its entry and nonce."""
    return [
        {
            "hand": hand.number,
            "commitment": hand.commitment,
            "server_seed": hand.server_seed,
            "client_seed": hand.client_seed,
            "throws": [{"entry": seq, "nonce": nonce, "roll": str(roll)} for seq, nonce, roll in hand.throws],
        }
        for hand in game.ledger.hands
    ]


def game_json(game: ReplayedGame, *, entries: bool = True) -> dict[str, Any]:
    """A game as JSON values: its setup, every entry with its actor, standing and events, and its state.

    Every sum is exact: in the entries' and events' texts too (``3/8``, never a rounded ``0.38``). With
    ``entries=False`` the list of entries is left empty, for a writer that sends each entry's form
    (:func:`export_entry_json`) as it goes.
    """
    standings = standing(game.entries) if entries else {}
    chain, signing = (None, None) if game.proof is None else proof_json(game.proof)
    return {
        "game": info_json(game.info),
        "closed": game.closed,
        "entries": [export_entry_json(game, entry, standings) for entry in game.entries] if entries else [],
        "hands": hands_json(game),
        "state": table_json(game.table),
        "chain": chain,
        "signing": signing,
    }


def export_entry_json(game: ReplayedGame, entry: Entry, standings: Mapping[int, Standing]) -> dict[str, Any]:
    """One entry of :func:`game_json`: its number, time, actor, whose action it was, its data and text, its
    standing (``standings``: :func:`standing` of the game's entries) and its events; from a chained record,
    also what the record stores of it, its digest and any signature."""
    line: dict[str, Any] = {
        "seq": entry.seq,
        "at": entry.at,
        "actor": actor_to_json(entry.actor),
        "for": game.acting_for.get(entry.seq),
        "entry": entry_data(entry),
        "text": entry_text(entry),
        "standing": standings[entry.seq].value,
        "events": [event_text(event, MoneyStyle.EXACT) for event in game.events_of(entry.seq)],
    }
    proof = game.proof
    if proof is not None:  # what the record holds, and seals: hazard verify recomputes the chain over it
        line["stored"], line["digest"] = proof.stored[entry.seq - 1]  # entries are numbered from 1, no gap
        if entry.seq in proof.signatures:
            line["signature"] = proof.signatures[entry.seq][2]
    return line
