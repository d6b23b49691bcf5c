"""Verifying a game of fair dice (:mod:`hazard.table.fair.verify`): whole exports verify; every tampering is
named by the first check it breaks; unrevealed hands are listed; anything not an export is refused.

The exports are built here with :mod:`hazard.table.fair.commit_reveal` alone, in the JSON form of
:func:`hazard.table.game_json` (:func:`fair_export`), and one is a real game played through the table service.
"""

from __future__ import annotations

import copy
import gc
import itertools
import re
import time
from collections.abc import Callable, Iterator
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from tests.commandline import fuzz

from hazard.core.errors import InvalidError
from hazard.table import TableSpec, load_game
from hazard.table.fair.commit_reveal import commitment, fair_throw
from hazard.table.fair.verify import FreshSeed, HandCheck, Verification, verify_game

SEEDS = (bytes(range(32)), bytes(range(32, 64)), bytes(range(64, 96)))
"""The server seeds of hands 1, 2 and 3."""
DRAWN = "0123456789abcdef"
"""Bob's seed, drawn for him by the dice."""
SCRIPT: tuple[tuple[Any, ...], ...] = (
    ("sit", "Ann"),
    ("sit", "Bob"),
    ("draw", "Bob", DRAWN),  # before the commitment, as the table draws them
    ("commit",),
    ("seed", "Ann", "ann-seed"),
    ("hand", 4),
    ("sit", "Cat"),  # at the caster Bob's right: between Ann and Bob
    ("seed", "Cat", "cat-seed"),
    ("seed", "Ann", "ann-2"),
    ("hand", 3),
    ("hand", 2),
)
"""Ann and Bob sit, the dice draw Bob's seed and commit to hand 1, Ann sets hers and they play it; Cat sits
and sets his seed and Ann changes hers before hand 2; hand 3 follows, no seed set after its commitment."""
SEAT_ORDER = ("Ann", "Cat", "Bob")
Export = dict[str, Any]


def _actor(name: str | None) -> dict[str, str]:
    return {"kind": "dice"} if name is None else {"kind": "player", "name": name}


def fair_export(
    script: tuple[tuple[Any, ...], ...] = SCRIPT,
    *,
    seat_order: tuple[str, ...] = SEAT_ORDER,
    last_open: bool = True,
    closed: bool = False,
) -> Export:
    """A game of fair dice in the JSON form of :func:`hazard.table.game_json`, as the table writes it.

    ``script`` holds ``("sit", name)``, ``("seed", name, seed)`` (a seed the player sets), ``("draw", name,
    seed)`` (one the dice draw for him), ``("commit",)`` (hand 1's commitment, else the first entry) and
    ``("hand", throws)``: hand ``n`` is played with ``SEEDS[n - 1]``, its client seed fixed just before its
    first throw (from the players seated who have a seed, in ``seat_order``), then a call, its throws, its
    reveal (unless it is the last and ``last_open``) and, after the draws that follow it in ``script``, the
    next hand's commitment. ``closed`` is the export's own ``closed``.
    """
    entries: list[dict[str, Any]] = []

    def add(entry: dict[str, Any], by: str | None = None) -> int:
        seq = len(entries) + 1
        entries.append(
            {
                "seq": seq,
                "at": "2026-12-01T12:00:00+00:00",
                "actor": _actor(by),
                "for": by,
                "entry": entry,
                "text": "",
                "standing": "stands",
                "events": [],
            }
        )
        return seq

    total = sum(1 for item in script if item[0] == "hand")
    hands: list[dict[str, Any]] = []
    seated: list[str] = []
    seeds: dict[str, str] = {}
    pending = 0  # the hand whose commitment is due, before the next item that is not a draw
    if ("commit",) not in script:
        add({"type": "commit", "hand": 1, "commitment": commitment(SEEDS[0])})
    for item in script:
        if item[0] == "commit":
            add({"type": "commit", "hand": 1, "commitment": commitment(SEEDS[0])})
            continue
        if pending and item[0] != "draw":
            add({"type": "commit", "hand": pending, "commitment": commitment(SEEDS[pending - 1])})
            pending = 0
        if item[0] == "sit":
            seated.append(item[1])
            add({"type": "sit", "name": item[1], "bankroll": "100/1", "bot": None}, item[1])
        elif item[0] in ("seed", "draw"):
            seeds[item[1]] = item[2]
            add(
                {"type": "client-seed", "player": item[1], "seed": item[2]},
                item[1] if item[0] == "seed" else None,
            )
        else:
            number = len(hands) + 1
            server_seed = SEEDS[number - 1]
            client_seed = None
            throws = []
            if item[1]:
                client_seed = ",".join(seeds[name] for name in seat_order if name in seated and name in seeds)
                add({"type": "hand-opened", "hand": number, "client_seed": client_seed})
                add({"type": "call", "main": 7}, seated[0])
                for nonce in range(item[1]):
                    roll = str(fair_throw(server_seed, client_seed, nonce))
                    seq = add({"type": "throw", "roll": roll}, seated[0])
                    throws.append({"entry": seq, "nonce": nonce, "roll": roll})
            revealed = number < total or not last_open
            if revealed:
                add({"type": "reveal", "hand": number, "server_seed": server_seed.hex()})
            if number < total:
                pending = number + 1
            hands.append(
                {
                    "hand": number,
                    "commitment": commitment(server_seed),
                    "server_seed": server_seed.hex() if revealed else None,
                    "client_seed": client_seed,
                    "throws": throws,
                }
            )
    players = [{"name": name, "bot": None} for name in seat_order if name in seated]
    return {
        "game": {"id": 1, "format": "hazard-game/2", "kind": "play", "dice": "fair", "seed": None},
        "entries": entries,
        "hands": hands,
        "state": {"caster": seated[0], "players": players},
        "closed": closed,
    }


def seq_of(data: Export, kind: str, nth: int = 0, **fields: object) -> int:
    """The sequence number of the ``nth`` entry of type ``kind`` (with these fields)."""
    found = [
        line["seq"]
        for line in data["entries"]
        if line["entry"]["type"] == kind and all(line["entry"].get(k) == v for k, v in fields.items())
    ]
    return int(found[nth])


def entry(data: Export, seq: int) -> dict[str, Any]:
    found: dict[str, Any] = data["entries"][seq - 1]["entry"]
    return found


def other_roll(roll: str) -> str:
    return "6-6" if roll != "6-6" else "1-1"


# --- whole exports ------------------------------------------------------------------------------------------


def test_a_whole_export_verifies_every_revealed_hand() -> None:
    result = verify_game(fair_export())
    assert result.problem is None
    assert result.ok
    assert (result.throws, result.hands, result.unrevealed) == (7, 2, (3,))
    assert result.text() == (
        "all 7 throws of 2 hands verified; hand 3 pending, not yet revealed (its 2 throws cannot be checked "
        "until it ends)"
    )


def test_each_hand_checked_says_what_a_player_compares() -> None:
    data = fair_export()
    first, second, third = verify_game(data).checked
    ann = FreshSeed("Ann", seq_of(data, "client-seed", player="Ann"))
    assert first == HandCheck(1, commitment(SEEDS[0]), True, f"ann-seed,{DRAWN}", 4, (ann,))
    # Cat sat between Ann and Bob; Ann's new seed counts from hand 2; both set after hand 2's commitment.
    ann, cat = FreshSeed("Ann", seq_of(data, "client-seed", 1, player="Ann")), FreshSeed("Cat", 15)
    assert second == HandCheck(2, commitment(SEEDS[1]), True, f"ann-2,cat-seed,{DRAWN}", 3, (ann, cat))
    assert third == HandCheck(3, commitment(SEEDS[2]), False, f"ann-2,cat-seed,{DRAWN}", 2, ())
    assert first.line() == (
        f"hand 1: commitment {commitment(SEEDS[0])}; server seed revealed, matching it; client seed "
        f"'ann-seed,{DRAWN}' (seeds set after the commitment: Ann at entry 5); 4 throws verified"
    )
    assert "(seeds set after the commitment: Ann at entry 16, Cat at entry 15)" in second.line()
    assert third.line() == (
        f"hand 3: commitment {commitment(SEEDS[2])}; server seed not yet revealed; client seed "
        f"'ann-2,cat-seed,{DRAWN}' (no seed set after the commitment); 2 throws to check when it ends"
    )
    # Hand 3's throws were made from seeds the server knew when it committed: said plainly.
    assert (first.warning(), second.warning()) == (None, None)
    assert third.warning() == (
        "hand 3: no player set a seed after the server's commitment: the server could have chosen these "
        "throws"
    )
    assert verify_game(data).warnings == (third.warning(),)


def test_a_game_with_every_hand_revealed() -> None:
    result = verify_game(fair_export(last_open=False))
    assert result.text() == "all 9 throws of 3 hands verified"
    assert result.unrevealed == ()


def test_a_hand_without_throws() -> None:
    data = fair_export((("sit", "Ann"), ("seed", "Ann", "a"), ("hand", 1), ("hand", 0)))
    assert (
        verify_game(data).text()
        == "all 1 throw of 1 hand verified; hand 2 pending, not yet revealed (no throw yet)"
    )
    line = verify_game(data).checked[1].line()
    assert line.endswith("server seed not yet revealed; no client seed yet; no throw yet")
    revealed = fair_export((("sit", "Ann"), ("seed", "Ann", "a"), ("hand", 0), ("hand", 2)), last_open=False)
    assert verify_game(revealed).text() == "all 2 throws of 2 hands verified"
    assert (
        verify_game(revealed)
        .checked[0]
        .line()
        .endswith("revealed, matching it; no client seed yet; 0 throws verified")
    )


def test_a_game_of_no_hand_but_its_commitment() -> None:
    data = fair_export((("sit", "Ann"), ("hand", 0)))
    assert (
        verify_game(data).text()
        == "all 0 throws of 0 hands verified; hand 1 pending, not yet revealed (no throw yet)"
    )


def test_a_game_of_other_dice_has_nothing_to_verify() -> None:
    """Issue 19, finding 12: the dice are named plainly, as exports name them."""
    for dice, said in (
        ("seeded", "not provably fair: seeded dice"),
        ("secure", "not provably fair: the server's secure random dice"),
        ("typed", "real dice, typed by the referee"),
        (None, "it was played with None dice, not fair dice"),
        (7, "it was played with 7 dice, not fair dice"),
    ):
        data = fair_export()
        data["game"]["dice"] = dice
        with pytest.raises(InvalidError) as refused:
            verify_game(data)
        assert str(refused.value) == (
            f"invalid game to verify: {said} (only a game of fair dice carries a proof of its throws)"
        )


def test_a_verification_names_the_game_and_its_dice() -> None:
    assert verify_game(fair_export()).heading() == "game 1: provably fair dice"
    data = fair_export()
    del data["game"]["id"]
    assert verify_game(data).heading() == "the game: provably fair dice"


def test_a_real_game_verifies(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """A game played through the table service, its seeds fixed here, its export as the record gives it."""
    from hazard.core.rulesets import find_ruleset
    from hazard.table import (
        Access,
        Actor,
        DiceKind,
        GameKind,
        GameStore,
        Session,
        ThrowDice,
        game_json,
        table_paytable,
    )
    from hazard.table.live import fair_hands

    servers = itertools.cycle(SEEDS)
    clients = (f"{n:016x}" for n in itertools.count(1))
    monkeypatch.setattr(fair_hands, "new_server_seed", lambda: next(servers))
    monkeypatch.setattr(fair_hands, "new_client_seed", lambda: next(clients))
    db = tmp_path / "games.db"
    store = GameStore.open(str(db))
    rules = find_ruleset("wikipedia")
    paytable, _ = table_paytable(rules)
    session = Session.start(store, TableSpec(rules, paytable, dice=DiceKind.FAIR, kind=GameKind.PLAY))
    for name in ("Ann", "Bob"):
        session.act(f"sit {name} {Fraction(100)}", by=Actor.player(name))
    session.act("seed ann-seed", by=Actor.player("Ann"))
    hands = 1
    while hands < 3:
        caster = Actor.player(str(session.table.caster))
        if session.table.turn.need.value == "call":
            session.act("call 7", by=caster)
        session.act(ThrowDice(), by=caster)
        assert session.fair is not None
        current = session.fair.current
        assert current is not None
        if current.number != hands:
            hands = current.number
            session.act(f"seed bob-{hands}", by=Actor.player("Bob"))
    store.close()
    reader = GameStore.open(str(db), access=Access.READ)  # as `hazard record export` reads it
    try:
        data = game_json(load_game(reader, session.game))
    finally:
        reader.close()
    result = verify_game(data)
    assert result.ok, result.problem
    assert result.hands == 2
    assert result.unrevealed == (3,)
    assert result.throws == sum(len(hand["throws"]) for hand in data["hands"][:2])
    assert [[seed.player for seed in hand.chosen] for hand in result.checked] == [["Ann"], ["Bob"], []]
    # Bob sat after hand 1's commitment and set no seed for it: he had no part in it; the dice drew his seed
    # with hand 1's reveal, before hand 2's commitment.
    assert data["hands"][0]["client_seed"] == "ann-seed"
    drawn = seq_of(data, "client-seed", player="Bob")
    assert seq_of(data, "reveal", hand=1) < drawn < seq_of(data, "commit", hand=2)
    data["hands"][0]["throws"][0]["roll"] = other_roll(data["hands"][0]["throws"][0]["roll"])
    assert "hand 1, throw entry" in str(verify_game(data).problem)


# --- tampering: each names what does not match ----------------------------------------------------------


def _throw_in_hand(data: Export) -> None:
    throw = data["hands"][0]["throws"][1]
    throw["roll"] = other_roll(throw["roll"])


def _throw_in_entry(data: Export) -> None:
    throw = data["hands"][0]["throws"][1]
    entry(data, throw["entry"])["roll"] = other_roll(throw["roll"])


def _throw_everywhere(data: Export) -> None:
    throw = data["hands"][1]["throws"][2]
    throw["roll"] = entry(data, throw["entry"])["roll"] = other_roll(throw["roll"])


def _server_seed_in_hand(data: Export) -> None:
    data["hands"][0]["server_seed"] = SEEDS[2].hex()


def _server_seed_everywhere(data: Export) -> None:
    data["hands"][1]["server_seed"] = entry(data, seq_of(data, "reveal", hand=2))["server_seed"] = "ab" * 32


def _commitment_in_hand(data: Export) -> None:
    data["hands"][0]["commitment"] = commitment(b"another")


def _commitment_everywhere(data: Export) -> None:
    data["hands"][0]["commitment"] = entry(data, seq_of(data, "commit"))["commitment"] = commitment(
        b"another"
    )


def _client_seed_in_hand(data: Export) -> None:
    data["hands"][0]["client_seed"] = "ann-seed,mine"


def _client_seed_and_its_entry(data: Export) -> None:
    data["hands"][0]["client_seed"] = "ann-seed,mine"
    entry(data, seq_of(data, "hand-opened", hand=1))["client_seed"] = "ann-seed,mine"


def _client_seed_and_the_players_seed(data: Export) -> None:
    data["hands"][0]["client_seed"] = "ann-seed,mine"
    entry(data, seq_of(data, "hand-opened", hand=1))["client_seed"] = "ann-seed,mine"
    entry(data, seq_of(data, "client-seed", player="Bob"))["seed"] = "mine"


def _seat_order(data: Export) -> None:
    data["state"]["players"].reverse()


def _seeds_in_another_order(data: Export) -> None:
    """Hand 1's client seed made of Bob's seed and then Ann's: not the seat order, Ann first."""
    swapped = f"{DRAWN},ann-seed"
    opened = entry(data, seq_of(data, "hand-opened", hand=1))
    data["hands"][0]["client_seed"] = opened["client_seed"] = swapped


def _nonce(data: Export) -> None:
    data["hands"][0]["throws"][1]["nonce"] = 2


def _nonce_and_throw(data: Export) -> None:
    """Throws 0 and 1 swapped in the hand's list, each with its nonce: the order of the entries says no."""
    throws = data["hands"][0]["throws"]
    throws[0], throws[1] = throws[1], throws[0]


def _throw_left_out(data: Export) -> None:
    del data["hands"][0]["throws"][-1]


def _throw_added(data: Export) -> None:
    entry(data, seq_of(data, "call", 1))["type"] = "throw"
    entry(data, seq_of(data, "throw", 4))["roll"] = "1-1"


def _throw_before_any_hand(data: Export) -> None:
    data["entries"][1]["entry"] = {"type": "throw", "roll": "2-2"}


def _throw_not_a_throw(data: Export) -> None:
    data["hands"][0]["throws"][0]["entry"] = seq_of(data, "call")


def _throw_after_reveal(data: Export) -> None:
    last = data["hands"][0]["throws"][-1]
    reveal = seq_of(data, "reveal", hand=1)
    assert reveal == last["entry"] + 1
    data["entries"][last["entry"] - 1]["entry"], data["entries"][reveal - 1]["entry"] = (
        entry(data, reveal),
        entry(data, last["entry"]),
    )
    last["entry"] = reveal


def _seed_hidden(data: Export) -> None:
    data["hands"][0]["server_seed"] = None


def _reveal_dropped(data: Export) -> None:
    data["hands"][0]["server_seed"] = None
    data["entries"][seq_of(data, "reveal", hand=1) - 1]["entry"] = {"type": "pass-dice"}


def _committed_late(data: Export) -> None:
    data["entries"][seq_of(data, "commit", hand=2) - 1]["entry"] = {"type": "pass-dice"}
    data["entries"][seq_of(data, "call", 1) - 1]["entry"] = {
        "type": "commit",
        "hand": 2,
        "commitment": commitment(SEEDS[1]),
    }


def _corrected(data: Export) -> None:
    target = seq_of(data, "throw")
    data["entries"][seq_of(data, "call", 1) - 1]["entry"] = {"type": "correction", "target": target}


def _committed_twice(data: Export) -> None:
    data["entries"][seq_of(data, "call", 1) - 1]["entry"] = {
        "type": "commit",
        "hand": 1,
        "commitment": commitment(SEEDS[0]),
    }


def _unknown_hand(data: Export) -> None:
    data["entries"][seq_of(data, "call", 1) - 1]["entry"] = {
        "type": "reveal",
        "hand": 9,
        "server_seed": "00" * 32,
    }


def _hands_misnumbered(data: Export) -> None:
    data["hands"][1]["hand"] = 5


def _seed_missing(data: Export) -> None:
    data["entries"][seq_of(data, "client-seed", player="Cat") - 1]["entry"] = {"type": "pass-dice"}


def _player_not_in_state(data: Export) -> None:
    data["state"]["players"] = data["state"]["players"][1:]


def _drawn_after_the_commitment(data: Export) -> None:
    """The dice draw Bob's seed after hand 1's commitment, as they did at a hand's first throw before issue 19
    (finding 8): the server, knowing its seed, could have tried seeds for Bob until the throws suited it."""
    draw, commit = data["entries"][2], data["entries"][3]
    assert (draw["entry"]["type"], commit["entry"]["type"]) == ("client-seed", "commit")
    for key in ("actor", "entry"):
        draw[key], commit[key] = commit[key], draw[key]


def _seed_after_the_first_throw(data: Export) -> None:
    """Ann sets a seed after hand 1's first throw, which the table refuses (finding 12)."""
    line = data["entries"][seq_of(data, "throw") + 1 - 1]
    line["actor"] = {"kind": "player", "name": "Ann"}
    line["entry"] = {"type": "client-seed", "player": "Ann", "seed": "late"}
    for hand in data["hands"]:  # the throw it was is gone from its hand: renumber what follows it
        hand["throws"] = [t for t in hand["throws"] if t["entry"] != line["seq"]]
        for nonce, throw in enumerate(hand["throws"]):
            throw["nonce"] = nonce


def _seed_with_a_comma(data: Export) -> None:
    """Cat's seed holds the comma that joins the seeds (finding 12)."""
    entry(data, seq_of(data, "client-seed", player="Cat"))["seed"] = "cat,seed"


def _closed_unrevealed(data: Export) -> None:
    """The game is closed with its last hand's seed never shown (finding 9)."""
    data["closed"] = True


def _no_commit(data: Export) -> None:
    data["entries"][seq_of(data, "commit") - 1]["entry"] = {"type": "pass-dice"}


TAMPERINGS: dict[str, tuple[Callable[[Export], None], str]] = {
    "a throw in the hand": (
        _throw_in_hand,
        r"^hand 1, throw entry 9 \(nonce 1\): the hand has .-., but the entry",
    ),
    "a throw in its entry": (_throw_in_entry, r"^hand 1, throw entry 9 \(nonce 1\): the hand has"),
    "a throw everywhere": (
        _throw_everywhere,
        r"^hand 2, throw entry \d+ \(nonce 2\): the seeds give .-., but the",
    ),
    "the server seed": (
        _server_seed_in_hand,
        r"^hand 1: its server seed [0-9a-f]{64} is not the one revealed at",
    ),
    "the server seed everywhere": (
        _server_seed_everywhere,
        r"^hand 2: its server seed does not match its commit",
    ),
    "the commitment": (
        _commitment_in_hand,
        r"^hand 1: its commitment [0-9a-f]{64} is not the one recorded at entry 4",
    ),
    "the commitment everywhere": (
        _commitment_everywhere,
        r"^hand 1: its server seed does not match its commitment$",
    ),
    "the client seed": (
        _client_seed_in_hand,
        r"^hand 1: its client seed 'ann-seed,mine' is not the one fixed at",
    ),
    "the client seed and its entry": (
        _client_seed_and_its_entry,
        r"^hand 1: its client seed 'ann-seed,mine' \(entry 6\) is not what the seated players' seeds make in "
        r"seat order \(Ann, Bob\): 'ann-seed,0123456789abcdef'$",
    ),
    "the client seed and a player's": (
        _client_seed_and_the_players_seed,
        r"^hand 1, throw entry 8 \(nonce 0\): the seeds",
    ),
    "the seat order": (
        _seat_order,
        r"^the game's state seats Bob, Cat, Ann in seat order, but its entries leave Ann, Cat, Bob seated, "
        r"in that order$",
    ),
    "the seeds in another order": (
        _seeds_in_another_order,
        r"^hand 1: its client seed '0123456789abcdef,ann-seed' \(entry 6\) is not what the seated players' "
        r"seeds make in seat order \(Ann, Bob\): 'ann-seed,0123456789abcdef'$",
    ),
    "a nonce": (
        _nonce,
        r"^hand 1, throw entry 9: its nonce is 2, expected 1 \(a hand's throws are numbered from 0",
    ),
    "two throws swapped": (_nonce_and_throw, r"^hand 1, throw entry 9: its nonce is 1, expected 0"),
    "a throw left out": (_throw_left_out, r"^hand 1: throw entry 11 is not among the hand's throws$"),
    "a throw added": (_throw_added, r"^hand 2: throw entry \d+ is not among the hand's throws$"),
    "a throw before any hand": (_throw_before_any_hand, r"^throw entry 2 comes before any hand began"),
    "a throw that is no throw": (
        _throw_not_a_throw,
        r"^hand 1: its throw 0 \(nonce 0\) is entry 7, a call entry$",
    ),
    "a throw after the reveal": (
        _throw_after_reveal,
        r"^hand 1, throw entry 12 \(nonce 3\): it comes after the hand's",
    ),
    "a seed hidden": (
        _seed_hidden,
        r"^hand 1: entry 12 reveals its server seed, but the hands give it none$",
    ),
    "a reveal dropped": (
        _reveal_dropped,
        r"^hand 1: it has ended \(hand 2 follows\) but its server seed was never",
    ),
    "a late commitment": (
        _committed_late,
        r"^hand 2: its commitment \(entry \d+\) comes after its client seed was",
    ),
    "a correction of a throw": (
        _corrected,
        r"^entry \d+ corrects entry 8, a throw entry: a fair game's throws",
    ),
    "a second commitment": (_committed_twice, r"^hand 1: entries 4 and \d+ are both its commit entry$"),
    "a note of no hand": (
        _unknown_hand,
        r"^entry \d+ \(reveal\) names hand 9, which is not among the game's 3 hands",
    ),
    "hands misnumbered": (
        _hands_misnumbered,
        r"^the hands are not numbered 1, 2, ... in order: hand 5 is listed at",
    ),
    "a player's seed missing": (
        _seed_missing,
        r"^hand 2: its client seed 'ann-2,cat-seed,0123456789abcdef' \(entry 17\) is not what the seated "
        r"players' seeds make in seat order \(Ann, Bob\): 'ann-2,0123456789abcdef'$",
    ),
    "a player not in the state": (
        _player_not_in_state,
        r"^the game's state seats Cat, Bob in seat order, but Ann, seated at entry 1 and never gone, is not "
        r"among them$",
    ),
    "no commitment": (_no_commit, r"^hand 1: no commit entry records its commitment$"),
    "a seed drawn after the commitment": (
        _drawn_after_the_commitment,
        r"^hand 1: entry 4 is a seed the dice drew for Bob after the hand's commitment \(entry 3\): the "
        r"server could have chosen it",
    ),
    "a seed after the first throw": (
        _seed_after_the_first_throw,
        r"^hand 1: entry 9 sets Ann's seed after the hand's first throw \(its client seed was fixed at entry "
        r"6\): the table refuses",
    ),
    "a seed with a comma": (
        _seed_with_a_comma,
        r"^entry 15 sets Cat's seed to 'cat,seed', which the table refuses: it holds a ',', which joins",
    ),
    "a closed game's hand unrevealed": (
        _closed_unrevealed,
        r"^hand 3: the game is closed, but the hand's server seed was never revealed, so its 2 throws cannot "
        r"be checked$",
    ),
}


def tampered() -> Iterator[tuple[str, Export, str]]:
    """Each tampering: its name, the export it makes, and the pattern of the problem it must be named by."""
    for name, (change, pattern) in TAMPERINGS.items():
        data = fair_export()
        change(data)
        yield name, data, pattern


@pytest.mark.parametrize(("name", "data", "pattern"), list(tampered()), ids=list(TAMPERINGS))
def test_each_tampering_is_named(name: str, data: Export, pattern: str) -> None:
    result = verify_game(data)
    assert result.problem is not None, name
    assert not result.ok
    assert result.text() == result.problem
    assert re.search(pattern, result.problem), result.problem


def test_a_problem_comes_with_what_was_checked_before_it() -> None:
    data = fair_export()
    _server_seed_everywhere(data)
    result = verify_game(data)
    assert (result.throws, result.hands, [hand.number for hand in result.checked]) == (4, 1, [1])


def test_the_first_problem_is_reported() -> None:
    data = fair_export()
    _throw_everywhere(data)  # hand 2
    _throw_in_hand(data)  # hand 1: the first
    assert str(verify_game(data).problem).startswith("hand 1, throw entry 9")


def test_a_last_hand_unrevealed_is_checked_as_far_as_it_can_be() -> None:
    data = fair_export()
    data["hands"][2]["throws"][0]["nonce"] = 1
    assert str(verify_game(data).problem).startswith("hand 3, throw entry")
    data = fair_export()
    data["hands"][2]["throws"][0]["roll"] = other_roll(data["hands"][2]["throws"][0]["roll"])
    assert "the hand has" in str(verify_game(data).problem)


def test_a_verification_says_its_verdict() -> None:
    assert Verification(throws=1, hands=1).text() == "all 1 throw of 1 hand verified"
    assert Verification(throws=0, hands=0, problem="hand 1: x").text() == "hand 1: x"
    assert not Verification(throws=0, hands=0, problem="hand 1: x").ok


# --- malformed input: refused, not verified --------------------------------------------------------------


def _set(path: tuple[Any, ...], value: object) -> Callable[[Export], None]:
    def change(data: Export) -> None:
        target: Any = data
        for key in path[:-1]:
            target = target[key]
        if value is _DELETE:
            del target[path[-1]]
        else:
            target[path[-1]] = value

    return change


_DELETE = object()
MALFORMED: list[tuple[Callable[[Export], None], str]] = [
    (_set(("game",), _DELETE), "the game has no 'game'"),
    (_set(("game",), []), r"game is \[\]: expected a JSON object"),
    (_set(("game", "dice"), _DELETE), "game has no 'dice'"),
    (_set(("hands",), _DELETE), "the game has no 'hands'"),
    (_set(("hands",), {}), r"hands is \{\}: expected a JSON list"),
    (_set(("entries",), "x"), "entries is 'x': expected a JSON list"),
    (_set(("state",), _DELETE), "the game has no 'state'"),
    (_set(("state", "players"), None), "state.players is None: expected a JSON list"),
    (_set(("state", "players", 0, "name"), 7), r"state.players\[0\].name is 7: expected a text"),
    (_set(("hands", 0), 1), r"hands\[0\] is 1: expected a JSON object"),
    (_set(("hands", 0, "hand"), True), r"hands\[0\].hand is True: expected a whole number from 1"),
    (_set(("hands", 0, "hand"), 0), r"hands\[0\].hand is 0: expected a whole number from 1"),
    (
        _set(("hands", 0, "commitment"), "AB" * 32),
        r"hands\[0\].commitment is 'ABAB.*: expected 64 lowercase hex",
    ),
    (
        _set(("hands", 0, "commitment"), "ab"),
        r"hands\[0\].commitment is 'ab': expected 64 lowercase hex digits",
    ),
    (
        _set(("hands", 0, "server_seed"), 12),
        r"hands\[0\].server_seed is 12: expected 64 lowercase hex digits",
    ),
    (_set(("hands", 0, "client_seed"), 5), r"hands\[0\].client_seed is 5: expected a text"),
    (_set(("hands", 0, "throws"), None), r"hands\[0\].throws is None: expected a JSON list"),
    (
        _set(("hands", 0, "throws", 0, "nonce"), -1),
        r"throws\[0\].nonce is -1: expected a whole number from 0",
    ),
    (
        _set(("hands", 0, "throws", 0, "nonce"), "0"),
        r"throws\[0\].nonce is '0': expected a whole number from 0",
    ),
    (
        _set(("hands", 0, "throws", 0, "entry"), 1.0),
        r"throws\[0\].entry is 1.0: expected a whole number from 1",
    ),
    (
        _set(("hands", 0, "throws", 0, "roll"), "7-1"),
        r"throws\[0\].roll is '7-1': expected a throw such as '3-4'",
    ),
    (_set(("hands", 0, "throws", 0, "roll"), "3 4"), r"throws\[0\].roll is '3 4': expected a throw"),
    (_set(("hands", 0, "throws", 0, "roll"), _DELETE), r"hands\[0\].throws\[0\] has no 'roll'"),
    (_set(("entries", 0, "seq"), "1"), r"entries\[0\].seq is '1': expected a whole number from 1"),
    (
        _set(("entries", 1, "seq"), 1),
        r"entries\[1\].seq is 1: expected a number above the entry before it \(1\)",
    ),
    (_set(("entries", 0, "entry"), _DELETE), r"entries\[0\] has no 'entry'"),
    (_set(("entries", 0, "entry", "type"), None), r"entries\[0\].entry.type is None: expected a text"),
    (
        _set(("entries", 3, "entry", "commitment"), "z" * 64),
        r"entries\[3\].entry.commitment is 'zzz.*: expected 64",
    ),
    (
        _set(("entries", 3, "entry", "hand"), -3),
        r"entries\[3\].entry.hand is -3: expected a whole number from 1",
    ),
    (_set(("closed",), "yes"), r"closed is 'yes': expected true or false"),
    (_set(("entries", 1, "entry", "name"), _DELETE), r"entries\[1\].entry has no 'name'"),
    (_set(("entries", 2, "entry", "seed"), ["x"]), r"entries\[2\].entry.seed is \['x'\]: expected a text"),
    (_set(("entries", 2, "actor"), _DELETE), r"entries\[2\] has no 'actor'"),
    (_set(("entries", 7, "entry", "roll"), "0-3"), r"entries\[7\].entry.roll is '0-3': expected a throw"),
    (
        _set(("entries", 5, "entry", "client_seed"), 5),
        r"entries\[5\].entry.client_seed is 5: expected a text",
    ),
]


@pytest.mark.parametrize(("change", "message"), MALFORMED)
def test_malformed_exports_are_refused_by_name(change: Callable[[Export], None], message: str) -> None:
    data = fair_export()
    change(data)
    with pytest.raises(InvalidError, match=f"^invalid game to verify: .*{message}"):
        verify_game(data)


@pytest.mark.parametrize("data", [None, [], "game", 7, {"entries": []}])
def test_what_is_no_export_at_all_is_refused(data: Any) -> None:
    with pytest.raises(InvalidError, match=r"^invalid game to verify: the game"):
        verify_game(data)


def test_the_malformed_cases_touch_what_they_mean_to() -> None:
    data = fair_export()
    assert entry(data, 2)["type"] == "sit"
    assert entry(data, 3)["type"] == "client-seed"
    assert entry(data, 4)["type"] == "commit"
    assert entry(data, 6)["type"] == "hand-opened"
    assert entry(data, 8)["type"] == "throw"


_HOSTILE_JSON: st.SearchStrategy[Any] = st.one_of(
    st.sampled_from(
        [
            None,
            True,
            False,
            0,
            -1,
            1,
            2**70,
            -(2**70),
            1.5,
            float("inf"),
            "",
            "x",
            "3-4",
            "fair",
            "00" * 32,
            [],
            {},
        ]
    ),
    st.text(max_size=20),
    st.integers(),
    st.lists(st.integers(), max_size=3),
    st.dictionaries(st.text(max_size=5), st.integers(), max_size=3),
)


def _paths(value: Any, path: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    yield path
    if isinstance(value, dict):
        for key, inner in value.items():
            yield from _paths(inner, (*path, key))
    elif isinstance(value, list):
        for index, inner in enumerate(value):
            yield from _paths(inner, (*path, index))


_BASE = fair_export()
_ALL_PATHS = [path for path in _paths(_BASE) if path]


@fuzz(300)
@given(
    changes=st.lists(
        st.tuples(st.sampled_from(_ALL_PATHS), _HOSTILE_JSON | st.just(_DELETE)), min_size=1, max_size=3
    )
)
def test_fuzzed_exports_verify_or_are_refused(changes: list[tuple[tuple[Any, ...], object]]) -> None:
    data = copy.deepcopy(_BASE)
    for path, value in changes:
        try:
            _set(path, value)(data)
        except (KeyError, IndexError, TypeError):  # the path is gone since an earlier change
            continue
    try:
        result: Verification | InvalidError = verify_game(data)
    except InvalidError as error:
        result = error
    if isinstance(result, InvalidError):
        assert str(result).startswith("invalid game to verify: ")
        assert len(str(result)) < 400
        assert "\n" not in str(result)
    else:
        assert result.problem is None or "\n" not in result.problem
        assert result.text()


# --- hostile sizes: time linear in the file's size ----------------------------------------------------------

GROWTH = 4
"""Each export below is verified at a size and at ``GROWTH`` times it: a linear verifier takes about
``GROWTH`` times as long, a quadratic one ``GROWTH**2``."""
LINEAR_RATIO = 8.0
"""The most the larger export may take over the smaller (the geometric mean of 4 and 16). With a scan of a
list per entry (as before issue 19) these exports took 139 s (150,000 throws), 205 s (100,000 players) and
233 s (20,000 hands) where a linear verifier takes about 1 s: at the sizes below such a verifier's ratio is
13 to 15, a linear one's about 4. Paired runs compared in the process's own CPU time, the best of
``REPEATS`` each, interleaved, hold on a slow or loaded machine where a limit in seconds did not."""
REPEATS = 3


def _line(entries: list[dict[str, Any]], entry: dict[str, Any], by: str | None = None) -> int:
    seq = len(entries) + 1
    entries.append({"seq": seq, "actor": _actor(by), "entry": entry})
    return seq


def _cpu_time(data: Export) -> tuple[Verification, float]:
    """The verification, and the CPU time it took (the garbage collector held off: its passes over the whole
    heap, as large as the suite has made it, would count the heap, not the verifier)."""
    gc.disable()
    try:
        began = time.process_time()
        result = verify_game(data)
        return result, time.process_time() - began
    finally:
        gc.enable()


def _verified_in_linear_time(export: Callable[[int], Export], small: int) -> Verification:
    """``export(small)`` and ``export(GROWTH * small)`` verified ``REPEATS`` times each, in turn; asserts the
    larger took at most ``LINEAR_RATIO`` times the smaller's best, and returns the larger's verification."""
    little, large = export(small), export(GROWTH * small)
    best = {"little": float("inf"), "large": float("inf")}
    result = None
    for _ in range(REPEATS):
        _, took = _cpu_time(little)
        best["little"] = min(best["little"], took)
        result, took = _cpu_time(large)
        best["large"] = min(best["large"], took)
    assert result is not None
    ratio = best["large"] / max(best["little"], 1e-6)
    assert ratio < LINEAR_RATIO, f"{GROWTH} times the size took {ratio:.1f} times as long: {best}"
    return result


def _throws_export(count: int) -> Export:
    """One open hand of ``count + 1`` throws, its last missing from the hand's list."""
    entries: list[dict[str, Any]] = []
    _line(entries, {"type": "commit", "hand": 1, "commitment": commitment(SEEDS[0])})
    _line(entries, {"type": "sit", "name": "Ann"}, "Ann")
    _line(entries, {"type": "client-seed", "player": "Ann", "seed": "s"}, "Ann")
    _line(entries, {"type": "hand-opened", "hand": 1, "client_seed": "s"})
    throws = [
        {"entry": _line(entries, {"type": "throw", "roll": "3-4"}, "Ann"), "nonce": n, "roll": "3-4"}
        for n in range(count + 1)
    ]
    hand = {"hand": 1, "commitment": commitment(SEEDS[0]), "server_seed": None, "client_seed": "s"}
    return {
        "game": {"dice": "fair"},
        "entries": entries,
        "hands": [{**hand, "throws": throws[:-1]}],
        "state": {"players": [{"name": "Ann"}]},
    }


def test_a_hand_missing_its_last_of_many_throws_is_found_in_linear_time() -> None:
    small = 5_000
    result = _verified_in_linear_time(_throws_export, small)
    last = GROWTH * small + 5  # after the commitment, the sitting, the seed and the opening
    assert result.problem == f"hand 1: throw entry {last} is not among the hand's throws"


def _players_export(count: int) -> Export:
    entries: list[dict[str, Any]] = []
    _line(entries, {"type": "commit", "hand": 1, "commitment": commitment(SEEDS[0])})
    names = [f"p{i}" for i in range(count)]
    for name in names:
        _line(entries, {"type": "sit", "name": name}, name)
        _line(entries, {"type": "client-seed", "player": name, "seed": "x"}, name)
    client_seed = ",".join("x" for _ in names)
    _line(entries, {"type": "hand-opened", "hand": 1, "client_seed": client_seed})
    roll = str(fair_throw(SEEDS[0], client_seed, 0))
    seq = _line(entries, {"type": "throw", "roll": roll}, names[0])
    hand = {"hand": 1, "commitment": commitment(SEEDS[0]), "server_seed": None, "client_seed": client_seed}
    return {
        "game": {"dice": "fair"},
        "entries": entries,
        "hands": [{**hand, "throws": [{"entry": seq, "nonce": 0, "roll": roll}]}],
        # The seat order is the order of sitting (each newcomer at the caster p0's right, last from him): read
        # from the entries, it is checked against the state's once, at the end.
        "state": {"players": [{"name": name} for name in names]},
    }


def test_many_seated_players_verify_in_linear_time() -> None:
    result = _verified_in_linear_time(_players_export, 2_500)
    assert result.ok, result.problem
    assert result.unrevealed == (1,)


def _newcomers_export(count: int) -> Export:
    """Ann and Bob sit, the dice pass to Bob, last in the seat order, and ``count`` newcomers each sit at his
    right: each newcomer's place, found by a scan of the seat order, is at its far end."""
    entries: list[dict[str, Any]] = []
    committed = commitment(SEEDS[0])
    _line(entries, {"type": "commit", "hand": 1, "commitment": committed})
    for name in ("Ann", "Bob"):
        _line(entries, {"type": "sit", "name": name}, name)
    _line(entries, {"type": "reveal", "hand": 1, "server_seed": SEEDS[0].hex()})
    _line(entries, {"type": "commit", "hand": 2, "commitment": committed})
    names = [f"p{i}" for i in range(count)]
    for name in names:
        _line(entries, {"type": "sit", "name": name}, name)
    hand = {"commitment": committed, "client_seed": None, "throws": []}
    return {
        "game": {"dice": "fair"},
        "entries": entries,
        "hands": [
            {**hand, "hand": 1, "server_seed": SEEDS[0].hex()},
            {**hand, "hand": 2, "server_seed": None},
        ],
        "state": {"players": [{"name": name} for name in ("Ann", *names, "Bob")]},
    }


def test_many_newcomers_at_the_casters_right_verify_in_linear_time() -> None:
    result = _verified_in_linear_time(_newcomers_export, 5_000)
    assert result.ok, result.problem
    assert result.unrevealed == (2,)


def _hands_export(count: int) -> Export:
    entries: list[dict[str, Any]] = []
    hands: list[dict[str, Any]] = []
    committed = commitment(SEEDS[0])
    _line(entries, {"type": "sit", "name": "Ann"}, "Ann")
    for number in range(1, count + 1):
        seed = f"s{number}"
        _line(entries, {"type": "commit", "hand": number, "commitment": committed})
        _line(entries, {"type": "client-seed", "player": "Ann", "seed": seed}, "Ann")
        _line(entries, {"type": "hand-opened", "hand": number, "client_seed": seed})
        roll = str(fair_throw(SEEDS[0], seed, 0))
        seq = _line(entries, {"type": "throw", "roll": roll}, "Ann")
        _line(entries, {"type": "reveal", "hand": number, "server_seed": SEEDS[0].hex()})
        hands.append(
            {
                "hand": number,
                "commitment": committed,
                "server_seed": SEEDS[0].hex(),
                "client_seed": seed,
                "throws": [{"entry": seq, "nonce": 0, "roll": roll}],
            }
        )
    return {
        "game": {"dice": "fair"},
        "entries": entries,
        "hands": hands,
        "state": {"players": [{"name": "Ann"}]},
    }


def test_many_hands_each_after_a_new_seed_verify_in_linear_time() -> None:
    small = 500
    result = _verified_in_linear_time(_hands_export, small)
    assert result.ok, result.problem
    assert (result.hands, result.throws) == (GROWTH * small, GROWTH * small)
    assert [tuple(seed.player for seed in hand.chosen) for hand in result.checked[:2]] == [("Ann",), ("Ann",)]
