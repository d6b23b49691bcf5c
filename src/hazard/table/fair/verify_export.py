"""Reading the JSON form of a game of fair dice for the verifier (:mod:`hazard.table.fair.verify`): its
shape checked key by key, each value refused with an :class:`~hazard.core.errors.InvalidError` naming where it
is and what was expected, and the entries the checks need gathered in one pass."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, NoReturn

from hazard.core.dice import Roll
from hazard.core.errors import InvalidError, quoted
from hazard.table.fair.commit_reveal import Hand, server_seed_from_hex
from hazard.table.fair.dice import DiceKind
from hazard.table.fair.seed_order import DICE
from hazard.table.fair.seed_order import shown as _shown
from hazard.table.fair.verify_seats import Edit, SeatMove

__all__ = ["Export", "Note", "read_export"]

_FAIR = "fair"
"""The ``dice`` of a game's setup whose throws carry a proof."""
_ROLL = re.compile(r"([1-6])-([1-6])")


# --- reading the JSON form: anything not of the expected shape is refused by name ---------------------------


def _invalid(where: str, value: object, expected: str) -> NoReturn:
    raise InvalidError(f"invalid game to verify: {where} is {quoted(value)}: expected {expected}")


def _mapping(value: object, where: str) -> Mapping[str, Any]:
    if not isinstance(value, Mapping):
        _invalid(where, value, "a JSON object")
    return value


def _list(value: object, where: str) -> Sequence[Any]:
    if not isinstance(value, list | tuple):
        _invalid(where, value, "a JSON list")
    return value


def _key(data: Mapping[str, Any], key: str, where: str) -> Any:
    if key not in data:
        raise InvalidError(f"invalid game to verify: {where} has no {key!r}")
    return data[key]


def _whole(value: object, where: str, low: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < low:
        _invalid(where, value, f"a whole number from {low}")
    return value


def _text(value: object, where: str) -> str:
    if not isinstance(value, str) or not value:
        _invalid(where, value, "a text")
    return value


def _client_seed(value: object, where: str) -> str:
    """A hand's client seed: a text, empty where no player seated had a seed at its first throw."""
    if not isinstance(value, str):
        _invalid(where, value, "a text")
    return value


def _hex(value: object, where: str) -> str:
    try:
        if isinstance(value, str):
            server_seed_from_hex(value)  # the one reader of a seed as it is shown: 64 lowercase hex digits
            return value
    except InvalidError:
        pass
    _invalid(where, value, "64 lowercase hex digits")


def _roll(value: object, where: str) -> Roll:
    match = _ROLL.fullmatch(value) if isinstance(value, str) else None
    if match is None:
        _invalid(where, value, "a throw such as '3-4' (two faces from 1 to 6)")
    return Roll(int(match.group(1)), int(match.group(2)))


@dataclass(frozen=True, slots=True)
class Note:
    """A fair-dice entry about one hand: its commitment, its client seed, or its revealed server seed."""

    seq: int
    hand: int
    value: str


@dataclass(frozen=True, slots=True)
class Export:
    """The parts of a game's JSON form the verifier reads, each checked for its shape."""

    hands: tuple[Hand, ...]
    kinds: dict[int, str]
    """Each entry's type, by its sequence number."""
    rolls: dict[int, Roll]
    """Each throw entry's roll."""
    moves: tuple[tuple[int, SeatMove, str], ...]
    """Each sit, leave, reveal and correction entry: its number, what it does to the seats, the player."""
    seeds: tuple[tuple[int, str, str, bool], ...]
    """Each client-seed entry: its sequence number, the player, the seed, and whether it is the player's own
    (entered by anyone but the dice, who enter the seeds they draw)."""
    notes: dict[str, tuple[Note, ...]]
    """The commit, hand-opened and reveal entries, by type."""
    corrections: tuple[tuple[int, int], ...]
    """Each correction entry and the entry it corrects."""
    seat_order: tuple[str, ...]
    """The players of the final state, in seat order: checked against what the entries leave seated."""
    setters: dict[int, str] = field(default_factory=dict)
    """Who entered each client-seed entry, by its sequence number: a player's name, or ``the referee``, or
    ``the dice``."""
    closed: bool = False
    """Whether the game is closed (the export's ``closed``; an export without it is of a game still open)."""
    game: int | None = None
    edits: dict[int, Edit] = field(default_factory=dict)
    """Each correction entry's target and the sit or leave it puts there, by its number."""


_NOTES = {"commit": "commitment", "hand-opened": "client_seed", "reveal": "server_seed"}
"""Each fair-dice entry about a hand, and the field holding what it records."""
_SEAT_MOVES = {"sit": "name", "leave": "player"}
"""Each entry that seats a player or takes him away, and the field naming him."""


def read_export(data: object) -> Export:
    top = _mapping(data, "the game")
    game = _mapping(_key(top, "game", "the game"), "game")
    dice = _key(game, "dice", "game")
    if dice != _FAIR:
        raise InvalidError(
            f"invalid game to verify: {_not_fair(dice)} (only a game of fair dice carries a proof of its "
            "throws)"
        )
    closed = top.get("closed", False)
    if not isinstance(closed, bool):
        _invalid("closed", closed, "true or false")
    hands = tuple(
        _read_hand(item, f"hands[{i}]")
        for i, item in enumerate(_list(_key(top, "hands", "the game"), "hands"))
    )
    kinds: dict[int, str] = {}
    rolls: dict[int, Roll] = {}
    moves: list[tuple[int, SeatMove, str]] = []
    seeds: list[tuple[int, str, str, bool]] = []
    notes: dict[str, list[Note]] = {kind: [] for kind in _NOTES}
    edits: dict[int, Edit] = {}
    setters: dict[int, str] = {}
    last = 0
    for i, item in enumerate(_list(_key(top, "entries", "the game"), "entries")):
        where = f"entries[{i}]"
        line = _mapping(item, where)
        seq = _whole(_key(line, "seq", where), f"{where}.seq", 1)
        if seq <= last:
            _invalid(f"{where}.seq", seq, f"a number above the entry before it ({last})")
        last = seq
        entry = _mapping(_key(line, "entry", where), f"{where}.entry")
        where = f"{where}.entry"
        kind = kinds[seq] = _text(_key(entry, "type", where), f"{where}.type")
        if kind == "throw":
            rolls[seq] = _roll(_key(entry, "roll", where), f"{where}.roll")
        elif kind in _SEAT_MOVES:
            whom = _SEAT_MOVES[kind]
            moves.append((seq, SeatMove(kind), _text(_key(entry, whom, where), f"{where}.{whom}")))
        elif kind == "client-seed":
            player = _text(_key(entry, "player", where), f"{where}.player")
            seed = _text(_key(entry, "seed", where), f"{where}.seed")
            actor = _mapping(_key(line, "actor", f"entries[{i}]"), f"entries[{i}].actor")
            by = _text(_key(actor, "kind", f"entries[{i}].actor"), f"entries[{i}].actor.kind")
            seeds.append((seq, player, seed, by != "dice"))
            setters[seq] = _setter(actor, by, f"entries[{i}].actor")
        elif kind in _NOTES:
            name = _NOTES[kind]
            hand = _whole(_key(entry, "hand", where), f"{where}.hand", 1)
            value = _key(entry, name, where)
            text = (
                _client_seed(value, f"{where}.{name}")
                if kind == "hand-opened"
                else _hex(value, f"{where}.{name}")
            )
            notes[kind].append(Note(seq, hand, text))
            if kind == "reveal":  # the dice passed: the hand ended
                moves.append((seq, SeatMove.PASS, ""))
        elif kind == "correction":
            edits[seq] = _edit(entry, where)
            moves.append((seq, SeatMove.CORRECT, ""))
    return Export(
        hands=hands,
        kinds=kinds,
        rolls=rolls,
        moves=tuple(moves),
        seeds=tuple(seeds),
        notes={kind: tuple(found) for kind, found in notes.items()},
        corrections=tuple((seq, target) for seq, (target, _) in edits.items()),
        edits=edits,
        seat_order=_state_order(top),
        setters=setters,
        closed=closed,
        game=_game_id(game),
    )


def _game_id(game: Mapping[str, Any]) -> int | None:
    """The game's number, where the export gives one."""
    number = game.get("id")
    return number if isinstance(number, int) and not isinstance(number, bool) else None


def _edit(entry: Mapping[str, Any], where: str) -> Edit:
    """A correction entry's target, and the sit or leave its replacement is (None: none, or another
    action, whose form the verifier does not read)."""
    target = _whole(_key(entry, "target", where), f"{where}.target", 1)
    replacement = entry.get("replacement")
    if isinstance(replacement, Mapping) and replacement.get("type") in _SEAT_MOVES:
        whom = _SEAT_MOVES[replacement["type"]]
        at = f"{where}.replacement"
        return target, (SeatMove(replacement["type"]), _text(_key(replacement, whom, at), f"{at}.{whom}"))
    return target, None


def _state_order(top: Mapping[str, Any]) -> tuple[str, ...]:
    """The players of the export's final state, in seat order."""
    players = _list(
        _key(_mapping(_key(top, "state", "the game"), "state"), "players", "state"), "state.players"
    )
    return tuple(
        _text(
            _key(_mapping(p, f"state.players[{i}]"), "name", f"state.players[{i}]"),
            f"state.players[{i}].name",
        )
        for i, p in enumerate(players)
    )


def _not_fair(dice: object) -> str:
    """A game's dice that are not fair, in the words exports use (``not provably fair: seeded dice``)."""
    kinds = {kind.value: kind for kind in DiceKind}
    if isinstance(dice, str) and dice in kinds:
        return kinds[dice].fairness
    return f"it was played with {_shown(dice) if isinstance(dice, str) else quoted(dice)} dice, not fair dice"


def _setter(actor: Mapping[str, Any], kind: str, where: str) -> str:
    """Who entered a client-seed entry, in words: the player's name, ``the referee`` or ``the dice``."""
    if kind == "player":
        return _text(_key(actor, "name", where), f"{where}.name")
    return DICE if kind == "dice" else f"the {kind}"


def _read_hand(item: object, where: str) -> Hand:
    data = _mapping(item, where)
    number = _whole(_key(data, "hand", where), f"{where}.hand", 1)
    committed = _hex(_key(data, "commitment", where), f"{where}.commitment")
    seed = _key(data, "server_seed", where)
    server_seed = None if seed is None else _hex(seed, f"{where}.server_seed")
    client = _key(data, "client_seed", where)
    client_seed = None if client is None else _client_seed(client, f"{where}.client_seed")
    throws = []
    for i, throw in enumerate(_list(_key(data, "throws", where), f"{where}.throws")):
        at = f"{where}.throws[{i}]"
        fields = _mapping(throw, at)
        throws.append(
            (
                _whole(_key(fields, "entry", at), f"{at}.entry", 1),
                _whole(_key(fields, "nonce", at), f"{at}.nonce", 0),
                _roll(_key(fields, "roll", at), f"{at}.roll"),
            )
        )
    return Hand(number, committed, client_seed, server_seed, tuple(throws))


# --- the checks ---------------------------------------------------------------------------------------------
