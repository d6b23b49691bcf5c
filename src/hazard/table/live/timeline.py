"""A game as its record holds it, played: the replay that rebuilds the table from the setup and the entries.

The store (:mod:`hazard.table.record.store`) returns a game's setup and entries and knows no rule; here they
are played through the pure table. One :class:`Timeline` does it, for a whole game read back (a load, a
resume) and for the entries another writer added since (a catch-up), by :meth:`Timeline.extend`; a record
that does not replay is refused whole. :func:`game_json` is a game's JSON form.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import TYPE_CHECKING, Any

from hazard.core.dice import Roll
from hazard.core.errors import HazardError, InvalidError
from hazard.table.fair.commit_reveal import FairNote, FairState, Hand, Ledger, ledger, note_text, noted
from hazard.table.fair.dice import DiceKind
from hazard.table.record.provenance import RecordProof, proof_json
from hazard.table.rules.actions import Actor, action_text, actor_to_json
from hazard.table.rules.closing import CLOSE_TYPE, Close, close_text
from hazard.table.rules.entries import (
    FORMAT,
    FORMATS,
    Correction,
    Entry,
    GameInfo,
    GameKind,
    Standing,
    check_correction,
    closed_at,
    effective_actions,
    entry_from_json,
    entry_to_json,
    info_json,
    standing,
)
from hazard.table.rules.events import AnyEvent, event_text
from hazard.table.rules.money import MoneyStyle
from hazard.table.rules.state import Table, new_table, table_json
from hazard.table.rules.transitions import acting_for, apply_action

if TYPE_CHECKING:
    from hazard.table.record.store import GameStore

__all__ = [
    "FORMAT",
    "FORMATS",
    "MARK_EVERY",
    "Correction",
    "Entry",
    "GameInfo",
    "GameKind",
    "Recorded",
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
    "load_further",
    "load_game",
    "replay",
    "replayed_further",
    "standing",
]


@dataclass(frozen=True, slots=True)
class Recorded:
    """An entry of the record, just written or just read, and what it did."""

    entry: Entry
    events: tuple[AnyEvent, ...]


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
    """Whether the table is closed: by its last entry (a :class:`~hazard.table.rules.closing.Close`), or, in
    an older record, beside the chain."""
    proof: RecordProof | None = None
    """The record's seal of the game (its chain and signatures), where it was loaded from a chained record:
    exported, so that ``hazard verify`` can recompute it."""

    def with_record(self, *, closed: bool = False, proof: RecordProof | None = None) -> ReplayedGame:
        """This game as the record holds it: ``closed`` beside the chain (an older record), sealed by
        ``proof``."""
        if (closed and not self.closed) or proof is not None:
            return dataclasses.replace(
                self, closed=self.closed or closed, proof=self.proof if proof is None else proof
            )
        return self

    def events_of(self, seq: int) -> list[AnyEvent]:
        """The events entry ``seq`` caused."""
        return self._caused.get(seq, [])

    @cached_property
    def _caused(self) -> dict[int, list[AnyEvent]]:
        caused: dict[int, list[AnyEvent]] = {}
        for seq, event in self.events:
            caused.setdefault(seq, []).append(event)
        return caused


def replay(info: GameInfo, entries: Sequence[Entry]) -> ReplayedGame:
    """Rebuild a game by playing its standing actions through the pure table and rules; the fair dice's notes
    must be in order (``ledger``) and only in a game of fair dice."""
    timeline = Timeline.begin(info)
    timeline.extend(entries)
    return timeline.replayed()


def replayed_further(game: ReplayedGame, more: Sequence[Entry]) -> ReplayedGame:
    """``game`` with the entries ``more`` (those after its last) played on from its table: what
    :func:`replay` of all of them gives, for the cost of the new ones alone. A correction among them, which
    can change what came before it, is replayed whole."""
    if not more:
        return game
    if len(game.timeline.entries) != len(game.entries):  # its timeline has moved on since, in a session
        return replay(game.info, [*game.entries, *more]).with_record(closed=game.closed)
    timeline = game.timeline.copy()
    timeline.extend(more)
    return timeline.replayed(closed=game.closed)  # or closed beside the chain, in an old record


def load_game(store: GameStore, game: int) -> ReplayedGame:
    """Read game ``game`` from ``store`` (its chain checked there) and replay it; an :class:`InvalidError` if
    any of it is wrong, naming the first entry that is."""
    stored = store.load(game)
    return replay(stored.info, stored.entries).with_record(closed=stored.closed, proof=stored.proof)


def load_further(store: GameStore, replayed: ReplayedGame) -> ReplayedGame:
    """``replayed`` (a game :func:`load_game` read) with whatever the record has gained since, each new entry
    checked to follow the chain, and its proof (stored texts, digests, signatures) brought up too: what
    :func:`load_game` would give now, for the cost of the new entries alone."""
    stored: list[tuple[str, str]] = []
    more = store.entries_after(replayed.info.id, len(replayed.entries), proof=stored)
    if not more:
        return replayed
    further = replayed_further(replayed, more)
    old = replayed.proof
    if old is None:
        return further
    signatures = store.signatures(replayed.info.id)
    proof = RecordProof(old.setup, old.setup_digest, stored[-1][1], (*old.stored, *stored), signatures)
    return further.with_record(proof=proof)


def _not_fair(info: GameInfo, entry: Entry) -> InvalidError:
    return InvalidError(
        f"record of game {info.id} does not replay: entry {entry.seq} is a note of fair dice, in a game of "
        f"{info.dice.describe(info.seed)}"
    )


def _refused(game: int, error: HazardError) -> InvalidError:
    return InvalidError(f"record of game {game} does not replay: {error}")


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
                raise _not_fair(info, entry)
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
        raise _refused(info.id, error) from None


MARK_EVERY = 256
"""How many entries apart a :class:`Timeline` keeps a table: a correction replays at most this many entries
before the one it corrects."""


@dataclass
class Timeline:
    """A game played entry by entry: where it stands now (its table, fair dice and close), what each entry
    did, and tables along the way, before entry 1 and before every ``MARK_EVERY``-th entry after it.

    :meth:`extend` plays entries on, whether they are a whole game read back or the few another writer
    added since (a catch-up); :meth:`moved_on` takes an entry a session played and wrote itself. A table is
    frozen, so keeping one costs a reference to what the game holds anyway. A correction of entry ``t``
    leaves every table before ``t`` as it was: :meth:`corrected` starts from the last one kept at or before
    ``t`` and replays only what follows.
    """

    info: GameInfo
    marks: dict[int, Table]
    """Entry number ``s`` -> the table once every standing action of the entries before ``s`` is played."""
    table: Table
    """The table once every entry is played."""
    entries: list[Entry] = field(default_factory=list)
    events: list[tuple[int, AnyEvent]] = field(default_factory=list)
    """Each event with the number of the entry that caused it."""
    whose: dict[int, str | None] = field(default_factory=dict)
    """For each standing entry, the player whose action it was (see ``acting_for``)."""
    fair: FairState = field(default_factory=FairState)
    """Where the fair dice stand (as they were set up, for other dice)."""
    hands: list[Hand] = field(default_factory=list)
    """Every hand of the fair dice so far (none, for other dice)."""
    closed: bool = False
    """Whether the last entry closed the table."""

    @classmethod
    def begin(cls, info: GameInfo) -> Timeline:
        """A game as it was set up, before its first entry."""
        table = new_table(info.ruleset, info.paytable, info.stakes)
        return cls(info, {1: table}, table)

    @classmethod
    def of(cls, info: GameInfo, entries: Sequence[Entry]) -> Timeline:
        """The game that ``entries`` make."""
        timeline = cls.begin(info)
        timeline.extend(entries)
        return timeline

    def copy(self) -> Timeline:
        """A timeline that moves on apart from this one."""
        return dataclasses.replace(
            self,
            marks=dict(self.marks),
            entries=list(self.entries),
            events=list(self.events),
            whose=dict(self.whose),
            hands=list(self.hands),
        )

    @property
    def ledger(self) -> Ledger:
        """Every hand of the fair dice, and where they stand now."""
        return Ledger(tuple(self.hands), self.fair)

    def replayed(self, *, closed: bool = False) -> ReplayedGame:
        """The game as it stands, as :class:`ReplayedGame` holds it (``closed``: closed beside the chain)."""
        return ReplayedGame(
            self.info,
            tuple(self.entries),
            self.table,
            tuple(self.events),
            dict(self.whose),
            self,
            self.ledger,
            self.closed or closed,
        )

    def recorded(self, entries: Sequence[Entry]) -> list[Recorded]:
        """Each of ``entries`` (entries of this timeline) with its events."""
        first = entries[0].seq if entries else 0
        caused: dict[int, list[AnyEvent]] = {}
        for seq, event in reversed(self.events):
            if seq < first:
                break
            caused.setdefault(seq, []).insert(0, event)
        return [Recorded(entry, tuple(caused.get(entry.seq, ()))) for entry in entries]

    def extend(self, entries: Sequence[Entry]) -> list[Recorded]:
        """Play ``entries``, those after the last this timeline has, and return each with its events: all of
        them or, with an :class:`InvalidError` where one does not replay, none (the timeline is as it was).

        A correction among them, which can change what came before it, has the whole game replayed.
        """
        if not entries:
            return []
        if not self.entries or any(isinstance(entry.item, Correction) for entry in entries):
            whole = Timeline.begin(self.info)
            whole._play_from(1, whole.table, [*self.entries, *entries], whole=True)
            self._adopt(whole)
        else:
            self._follow(entries)
        return self.recorded(entries)

    def moved_on(self, entry: Entry, table: Table, events: Sequence[AnyEvent] = ()) -> None:
        """Entry ``entry``, played by a session (``events`` what it did) and written, led to ``table``."""
        item = entry.item
        if isinstance(item, FairNote) or (self.info.dice is DiceKind.FAIR and isinstance(item, Roll)):
            self.fair = noted(self.hands, self.fair, entry.seq, item)
        if not isinstance(item, FairNote | Correction | Close):
            self.whose[entry.seq] = acting_for(self.table, item)
        self.closed = self.closed or isinstance(item, Close)
        self.entries.append(entry)
        self.events.extend((entry.seq, event) for event in events)
        self.table = table
        if _marked(entry.seq + 1):
            self.marks[entry.seq + 1] = table

    def corrected(self, entries: Sequence[Entry], target: int) -> tuple[Table, Timeline]:
        """The table ``entries`` lead to, the last of them correcting entry ``target``, and the timeline they
        make; an :class:`InvalidError` if they do not replay."""
        start = max(seq for seq in self.marks if seq <= target)
        kept = Timeline(
            self.info,
            {seq: table for seq, table in self.marks.items() if seq <= start},
            self.marks[start],
            events=[(seq, event) for seq, event in self.events if seq < start],
            whose={seq: name for seq, name in self.whose.items() if seq < start},
            fair=self.fair,  # a correction touches no note or throw of the fair dice
            hands=list(self.hands),
            closed=self.closed,
        )
        kept._play_from(start, kept.table, entries, whole=False)
        return kept.table, kept

    def _adopt(self, other: Timeline) -> None:
        self.marks, self.table, self.entries = other.marks, other.table, other.entries
        self.events, self.whose, self.closed = other.events, other.whose, other.closed
        self.fair, self.hands = other.fair, other.hands

    def _play_from(self, start: int, table: Table, entries: Sequence[Entry], *, whole: bool) -> None:
        """Play the standing actions of ``entries`` (the whole game) from entry ``start`` on, from ``table``,
        marking tables as it goes: this timeline becomes the game they make. A ``whole`` replay checks the
        fair dice's notes and the close too; a correction (a session's, which has checked it) touches
        neither."""
        game = self.info.id
        fair = fair_ledger(self.info, entries) if whole else self.ledger
        try:
            closed = closed_at(entries) is not None if whole else self.closed
            standing_actions = effective_actions(entries)
        except InvalidError as error:
            raise _refused(game, error) from None
        self.marks[start] = table
        mark = start
        for seq, actor, action in standing_actions:
            if seq < start:
                continue
            while mark <= seq:  # the tables before this entry: every mark passed since the last action
                if _marked(mark):
                    self.marks[mark] = table
                mark += 1
            self.whose[seq] = acting_for(table, action)
            try:
                table, new = apply_action(table, action, by=actor, seq=seq)
            except HazardError as error:
                raise InvalidError(f"record of game {game} does not replay: entry {seq}: {error}") from None
            self.events.extend((seq, event) for event in new)
        last = entries[-1].seq + 1 if entries else 1
        while mark <= last:
            if _marked(mark):
                self.marks[mark] = table
            mark += 1
        self.table, self.entries, self.closed = table, list(entries), closed
        self.fair, self.hands = fair.state, list(fair.hands)

    def _follow(self, entries: Sequence[Entry]) -> None:
        """Play ``entries``, none of them a correction, one by one on from where the game stands (a
        catch-up): as :meth:`_play_from` would, for the cost of these alone. Nothing changes unless every
        one of them plays."""
        info, game = self.info, self.info.id
        fair = info.dice is DiceKind.FAIR
        table, dice, hands = self.table, self.fair, list(self.hands)
        closer = self.entries[-1].seq if self.closed else None
        marks: dict[int, Table] = {}
        events: list[tuple[int, AnyEvent]] = []
        whose: dict[int, str | None] = {}
        for entry in entries:
            item = entry.item
            if closer is not None:
                raise InvalidError(
                    f"record of game {game} does not replay: entry {entry.seq} comes after entry {closer}, "
                    "which closed the table"
                )
            if isinstance(item, Close):
                closer = entry.seq
            if isinstance(item, FairNote) and not fair:
                raise _not_fair(info, entry)
            if isinstance(item, FairNote) or (fair and isinstance(item, Roll)):
                try:
                    dice = noted(hands, dice, entry.seq, item)
                except InvalidError as error:
                    raise _refused(game, error) from None
            if not isinstance(item, FairNote | Correction | Close):
                whose[entry.seq] = acting_for(table, item)
                try:
                    table, new = apply_action(table, item, by=entry.actor, seq=entry.seq)
                except HazardError as error:
                    raise InvalidError(
                        f"record of game {game} does not replay: entry {entry.seq}: {error}"
                    ) from None
                events.extend((entry.seq, event) for event in new)
            if _marked(entry.seq + 1):  # the table before the next entry is kept, as replay keeps it
                marks[entry.seq + 1] = table
        self.marks.update(marks)
        self.entries.extend(entries)
        self.events.extend(events)
        self.whose.update(whose)
        self.table, self.fair, self.hands, self.closed = table, dice, hands, closer is not None


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
