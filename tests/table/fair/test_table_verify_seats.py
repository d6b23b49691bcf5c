"""The seat order before each hand, as the verifier reads it from the entries
(:mod:`hazard.table.fair.verify_seats`): a fair game in which players leave, are removed, sit again and hand
on the dice verifies, played through the table service; its seeds changed or put in another order do not."""

from __future__ import annotations

import copy
import itertools
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from hazard.core.rulesets import find_ruleset
from hazard.table import (
    REFEREE,
    Access,
    Actor,
    DiceKind,
    GameKind,
    GameStore,
    Session,
    TableSpec,
    ThrowDice,
    game_json,
    load_game,
    parse_action,
    table_paytable,
)
from hazard.table.fair.verify import verify_game
from hazard.table.live import fair_hands


def _hand(session: Session) -> int:
    assert session.fair is not None
    current = session.fair.current
    assert current is not None
    return current.number


def _round(session: Session) -> None:
    """The caster plays one round through: calls where he must, throws until it is over."""
    caster = Actor.player(str(session.table.caster))
    while True:
        if session.table.turn.need.value == "call":
            session.act("call 7", by=caster)
        session.act(ThrowDice(), by=caster)
        if not session.table.round_begun:
            return


def _to_next_hand(session: Session) -> None:
    """Rounds until the dice pass and the next hand is committed."""
    hand = _hand(session)
    while _hand(session) == hand:
        _round(session)


def _seats(session: Session) -> list[str]:
    return [player.name for player in session.table.players]


def _parts(session: Session) -> list[str]:
    """The seated players with a seed, in seat order: those whose seeds make the hand's client seed."""
    assert session.fair is not None
    return [name for name in _seats(session) if session.fair.seed_of(name) is not None]


Played = tuple[dict[str, Any], dict[int, list[str]]]


def played_with_leaves(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Played:
    """A fair game where Ann sits, plays, leaves and sits again, Cat sits at the caster's right and leaves
    holding the dice, and the host removes Dan; its export, and at each hand's first throw the seated players
    with a seed, in seat order."""
    servers = (bytes([n % 256]) * 32 for n in itertools.count(1))
    clients = (f"{n:016x}" for n in itertools.count(1))
    monkeypatch.setattr(fair_hands, "new_server_seed", lambda: next(servers))
    monkeypatch.setattr(fair_hands, "new_client_seed", lambda: next(clients))
    db = tmp_path / "games.db"
    store = GameStore.open(str(db))
    rules = find_ruleset("wikipedia")
    paytable, _ = table_paytable(rules)
    session = Session.start(store, TableSpec(rules, paytable, dice=DiceKind.FAIR, kind=GameKind.PLAY))
    orders = _play(session)
    store.close()
    reader = GameStore.open(str(db), access=Access.READ)  # as `hazard record export` reads it
    try:
        data = game_json(load_game(reader, session.game))
    finally:
        reader.close()
    return data, orders


def _play(session: Session) -> dict[int, list[str]]:
    """The game :func:`played_with_leaves` describes; at each hand's first throw, the seated with a seed."""
    orders: dict[int, list[str]] = {}

    def sit(name: str) -> None:
        session.act(f"sit {name} {Fraction(100)}", by=Actor.player(name))

    def hand() -> None:
        orders[_hand(session)] = _parts(session)
        _to_next_hand(session)

    sit("Ann")
    sit("Bob")
    session.act("seed ann-1", by=Actor.player("Ann"))
    hand()  # 1: Ann casts, then Bob
    sit("Cat")  # at the caster Bob's right: between Ann and Bob
    assert _seats(session) == ["Ann", "Cat", "Bob"]
    session.act("seed cat-2", by=Actor.player("Cat"))
    session.act("leave", by=Actor.player("Ann"))
    session.act("seed bob-2", by=Actor.player("Bob"))
    hand()  # 2: Cat and Bob, Bob casts, then Cat
    assert session.table.caster == "Cat"
    sit("Ann")  # again, now at the caster Cat's right: last, after Bob
    sit("Dan")
    assert _seats(session) == ["Cat", "Bob", "Ann", "Dan"]
    session.act("seed ann-3", by=Actor.player("Ann"))
    session.act("seed dan-3", by=Actor.player("Dan"))
    orders[_hand(session)] = _parts(session)
    _round(session)  # 3: Cat casts a round, or more, then leaves with the dice
    while session.table.caster != "Cat":
        _to_next_hand(session)
        orders[_hand(session)] = _parts(session)
    known = _hand(session)
    session.act("leave", by=Actor.player("Cat"))
    assert _hand(session) == known + 1  # the dice went on with him: his hand ended
    session.act("leave Dan", by=REFEREE)  # the host removes Dan
    sit("Eve")
    hand()
    hand()
    return orders


def test_a_fair_game_whose_players_leave_and_sit_again_verifies(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    data, orders = played_with_leaves(monkeypatch, tmp_path)
    result = verify_game(data)
    assert result.ok, result.problem
    assert result.hands == len(data["hands"]) - 1
    assert orders[2] == ["Cat", "Bob"]  # Ann had left: her seed had no part in hand 2
    assert data["hands"][1]["client_seed"] == "cat-2,bob-2"
    assert orders[3] == ["Cat", "Bob", "Ann", "Dan"]  # Ann sat again, at the caster Cat's right
    assert data["hands"][2]["client_seed"].split(",")[2:] == ["ann-3", "dan-3"]
    for number, order in orders.items():  # each hand's client seed has a part for each seated with a seed
        opened = data["hands"][number - 1]["client_seed"]
        assert opened is not None
        assert len(opened.split(",") if opened else []) == len(order)


def test_its_seeds_changed_or_reordered_are_named(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    data, _ = played_with_leaves(monkeypatch, tmp_path)
    opened = [line["entry"] for line in data["entries"] if line["entry"]["type"] == "hand-opened"]
    swapped = copy.deepcopy(data)
    first, second, *rest = opened[2]["client_seed"].split(",")
    reordered = ",".join([second, first, *rest])
    for line in swapped["entries"]:
        if line["entry"] == opened[2]:
            line["entry"]["client_seed"] = reordered
    swapped["hands"][2]["client_seed"] = reordered
    problem = str(verify_game(swapped).problem)
    assert problem.startswith("hand 3: its client seed"), problem
    assert "is not what the seated players' seeds make in seat order (Cat, Bob, Ann, Dan)" in problem
    changed = copy.deepcopy(data)
    seed = next(line for line in changed["entries"] if line["entry"].get("seed") == "bob-2")
    seed["entry"]["seed"] = "not-bob"
    problem = str(verify_game(changed).problem)
    assert problem.startswith("hand 2: its client seed"), problem
    stated = copy.deepcopy(data)
    stated["state"]["players"].reverse()
    assert str(verify_game(stated).problem).startswith("the game's state seats ")


def test_a_fair_game_whose_sits_and_leaves_were_corrected_verifies(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """The referee voids a sit and a leave, and puts a sit in a stake's place: the table replays the game
    through each, and so does the verifier's seat order."""
    clients = (f"{n:016x}" for n in itertools.count(1))
    monkeypatch.setattr(fair_hands, "new_client_seed", lambda: next(clients))
    store = GameStore.open(str(tmp_path / "games.db"))
    rules = find_ruleset("wikipedia")
    paytable, _ = table_paytable(rules)
    session = Session.start(store, TableSpec(rules, paytable, dice=DiceKind.FAIR, kind=GameKind.PLAY))
    for name in ("Ann", "Bob", "Cat"):
        session.act(f"sit {name} {Fraction(100)}", by=Actor.player(name))
    session.correct(len(session.entries), by=REFEREE)  # Cat's sit, void
    _to_next_hand(session)
    session.act("leave", by=Actor.player("Ann"))
    session.correct(len(session.entries), by=REFEREE)  # Ann's leave, void: she is back in her seat
    session.act(f"sit Dan {Fraction(100)}", by=Actor.player("Dan"))
    session.act("stake Ann 1", by=Actor.player("Ann"))
    replacement = parse_action(f"sit Eve {Fraction(100)}", by=REFEREE, players=_seats(session))
    session.correct(len(session.entries), replacement, by=REFEREE)  # a sit in the stake's place
    assert _seats(session) == ["Ann", "Dan", "Eve", "Bob"]
    for name in ("Dan", "Eve"):
        session.act(f"seed {name.lower()}-2", by=Actor.player(name))
    _to_next_hand(session)
    caster, leave = session.table.caster, len(session.entries) + 1
    session.act("leave", by=Actor.player(str(caster)))  # the caster: his hand ends with it
    assert _hand(session) == 4
    session.correct(leave, by=REFEREE)  # his leave, void: the hand it ended stays ended
    assert session.table.caster == caster  # he holds the dice again, in the next hand
    session.act(f"sit Fay {Fraction(100)}", by=Actor.player("Fay"))  # at his right
    session.act("seed fay-4", by=Actor.player("Fay"))
    _to_next_hand(session)
    _to_next_hand(session)
    data = game_json(load_game(store, session.game))
    store.close()
    result = verify_game(data)
    assert result.ok, result.problem
    assert data["hands"][1]["client_seed"].split(",")[1:3] == ["dan-2", "eve-2"]
