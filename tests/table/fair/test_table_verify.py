"""Verifying a game of fair dice (:mod:`hazard.table.fair.verify`): whole exports verify; every tampering is
named by the first check it breaks; unrevealed hands are listed; anything not an export is refused.

The exports are built in ``verify_helpers`` with :mod:`hazard.table.fair.commit_reveal` alone, in the JSON
form of :func:`hazard.table.game_json` (:func:`fair_export`), and one is a real game played through the table
service.
"""

from __future__ import annotations

import itertools
import re
from fractions import Fraction
from pathlib import Path

import pytest
from tests.table.fair.verify_helpers import (
    DRAWN,
    SEEDS,
    TAMPERINGS,
    Export,
    _server_seed_everywhere,
    _throw_everywhere,
    _throw_in_hand,
    fair_export,
    other_roll,
    seq_of,
    tampered,
)

from hazard.core.errors import InvalidError
from hazard.table import TableSpec, load_game
from hazard.table.fair.commit_reveal import commitment
from hazard.table.fair.verify import FreshSeed, HandCheck, Verification, verify_game

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
