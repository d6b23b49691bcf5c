"""A game as its record holds it: corrections, the replay, who acted for whom, the text and JSON forms (the
games written by the previous release are in ``test_table_game_legacy.py``).
"""

from __future__ import annotations

import json
from fractions import Fraction
from typing import Any

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st
from tests.strategies import actors, table_actions, texts
from tests.strategies import throw_of as t
from tests.table.live.game_helpers import ANN, BOB, WIKI_PAYS, WIKIPEDIA

from hazard.core.errors import IllegalError, InvalidError
from hazard.core.rules import StakeArrangement
from hazard.table.fair.dice import DiceKind
from hazard.table.live.timeline import (
    FORMAT,
    Correction,
    Entry,
    GameInfo,
    GameKind,
    Standing,
    check_correction,
    effective_actions,
    entry_from_json,
    entry_note,
    entry_text,
    entry_to_json,
    game_json,
    info_json,
    replay,
    replayed_further,
    standing,
)
from hazard.table.rules.actions import (
    REFEREE,
    Actor,
    BotPolicy,
    Call,
    CancelBet,
    OfferBet,
    PassDice,
    Roll,
    Sit,
    Stake,
    TableAction,
    TakeBet,
    Withdraw,
    action_to_json,
    check_name,
    parse_action,
)
from hazard.table.rules.events import Thrown, event_text
from hazard.table.rules.money import MoneyStyle
from hazard.table.rules.state import new_table, table_json
from hazard.table.rules.transitions import acting_for

INFO = GameInfo(
    1, "now", "", WIKIPEDIA, WIKI_PAYS, StakeArrangement.BANK, DiceKind.TYPED, None, GameKind.REFEREE
)


def entries(*items: TableAction | Correction | tuple[Actor, TableAction | Correction]) -> list[Entry]:
    """Entries numbered from 1; an item without an actor is entered by the referee."""
    made = []
    for seq, item in enumerate(items, start=1):
        actor, thing = item if isinstance(item, tuple) else (REFEREE, item)
        made.append(Entry(seq, "now", actor, thing))
    return made


# --- corrections: standing, check_correction, effective_actions -------------------------------------------

A, B, C, D = (Sit(name, Fraction(n)) for n, name in enumerate("ABCD", start=1))


def test_effective_actions_apply_voids_and_replacements() -> None:
    assert effective_actions(entries(A, B, C)) == [(1, REFEREE, A), (2, REFEREE, B), (3, REFEREE, C)]
    assert effective_actions(entries(A, B, Correction(1), C)) == [(2, REFEREE, B), (4, REFEREE, C)]
    assert effective_actions(entries(A, B, Correction(2, D))) == [(1, REFEREE, A), (2, REFEREE, D)]
    # a later correction of the same entry stands
    assert effective_actions(entries(A, B, Correction(2, D), Correction(2, C))) == [
        (1, REFEREE, A),
        (2, REFEREE, C),
    ]
    assert effective_actions(entries(A, B, Correction(2, D), Correction(2))) == [(1, REFEREE, A)]


def test_effective_actions_keep_each_actor_and_a_replacement_is_the_correctors() -> None:
    a, b = Actor.player("A"), Actor.player("B")
    kept = entries((a, A), (b, B), (REFEREE, Correction(2, D)), (a, C))
    assert effective_actions(kept) == [(1, a, A), (2, REFEREE, D), (4, a, C)]


def test_standing_says_what_became_of_each_entry() -> None:
    items = entries(A, B, C, Correction(2), Correction(3, D), Correction(1, C), Correction(1))
    assert standing(items) == {
        1: Standing.VOID,  # replaced, then voided: the last correction wins
        2: Standing.VOID,
        3: Standing.REPLACED,
        4: Standing.CORRECTION,
        5: Standing.CORRECTION,
        6: Standing.CORRECTION,
        7: Standing.CORRECTION,
    }
    assert standing(entries(A, B)) == {1: Standing.STANDS, 2: Standing.STANDS}
    assert standing([]) == {}
    assert [s.value for s in Standing] == ["stands", "void", "replaced", "correction", "note"]


@pytest.mark.parametrize(
    ("target", "seq", "message"),
    [
        (3, 3, "illegal correction of entry 3: it can only correct entries 1 to 2"),  # of itself
        (4, 3, "illegal correction of entry 4: it can only correct entries 1 to 2"),  # of a later one
        (9, 3, "illegal correction of entry 9: it can only correct entries 1 to 2"),  # of nothing
        (0, 3, "illegal correction of entry 0: it can only correct entries 1 to 2"),
        (1, 1, "illegal correction of entry 1: it can only correct no entries"),
        (2, 3, "illegal correction of entry 2: it is a correction itself; correct entry 1 instead"),
    ],
)
def test_a_correction_must_name_an_earlier_action(target: int, seq: int, message: str) -> None:
    items = entries(A, Correction(1))
    with pytest.raises(IllegalError) as caught:
        check_correction(items, target, seq, REFEREE)
    assert str(caught.value) == message
    check_correction(items, 1, 3, REFEREE)  # an earlier action: allowed


def test_only_the_referee_corrects_a_record() -> None:
    items = entries(A)
    with pytest.raises(IllegalError) as caught:
        check_correction(items, 1, 2, ANN)
    assert str(caught.value) == "illegal correction of entry 1 by Ann: only the referee corrects the record"
    with pytest.raises(InvalidError, match=r"invalid correction in entry 2: .* by Ann: only the referee"):
        effective_actions(entries(A, (ANN, Correction(1))))


@pytest.mark.parametrize(
    ("items", "fragment"),
    [
        ((A, Correction(1), Correction(2)), "it is a correction itself; correct entry 1 instead"),
        ((A, Correction(3), B), "it can only correct entries 1 to 1"),  # of a later entry
        ((A, Correction(2)), "it can only correct entries 1 to 1"),  # of itself
        ((A, Correction(9)), "it can only correct entries 1 to 1"),  # of nothing
    ],
    ids=["correction", "later", "itself", "missing"],
)
def test_a_bad_correction_in_a_record_is_refused(
    items: tuple[TableAction | Correction, ...], fragment: str
) -> None:
    with pytest.raises(
        InvalidError, match=r"invalid correction in entry \d: illegal correction of entry \d"
    ) as caught:
        effective_actions(entries(*items))
    assert fragment in str(caught.value)
    with pytest.raises(
        InvalidError, match=r"record of game 1 does not replay: invalid correction in entry \d"
    ):
        replay(INFO, entries(*items))


# --- the replay ---------------------------------------------------------------------------------------------


def test_replay_tags_each_event_with_its_entry() -> None:
    game = replay(INFO, entries(Sit("A", Fraction(10)), Sit("B", Fraction(10)), Call(7), t(7)))
    assert [seq for seq, _ in game.events] == [1, 1, 2, 3, 4, 4, 4]
    assert [str(event) for event in game.events_of(4)] == [
        "A throws 1-6",  # a throw's first event says what the dice showed
        "7 with a main of 7 is a nick: the caster wins",
        "no stakes change hands",
    ]
    assert isinstance(game.events_of(4)[0], Thrown)
    assert game.events_of(9) == []
    assert game.table == replay(INFO, game.entries).table


def test_replay_says_whose_action_each_standing_entry_was() -> None:
    game = replay(
        INFO,
        entries(
            (ANN, Sit("Ann", Fraction(100))),
            (REFEREE, Sit("Bob", Fraction(100))),
            (REFEREE, Stake("Bob", Fraction(1))),
            (BOB, OfferBet("Bob", "next odd", Fraction(1))),
            (REFEREE, CancelBet(1)),
            (REFEREE, Call(7)),
            (REFEREE, t(3)),  # voided below
            (REFEREE, Correction(7)),
            (REFEREE, Correction(6, Call(6))),
        ),
    )
    assert game.acting_for == {1: "Ann", 2: "Bob", 3: "Bob", 4: "Bob", 5: "Bob", 6: "Ann"}
    assert [entry_note(e.actor, game.acting_for.get(e.seq)) for e in game.entries[:6]] == [
        "by Ann",
        "entered by the referee for Bob",
        "entered by the referee for Bob",
        "by Bob",
        "entered by the referee for Bob",
        "entered by the referee for Ann",
    ]
    assert entry_note(REFEREE, None) == "entered by the referee"
    assert game.table.round.main == 6


def test_acting_for_is_the_player_whose_action_it_is() -> None:
    table = replay(INFO, entries(Sit("Ann", Fraction(9)), Sit("Bob", Fraction(9)))).table
    assert acting_for(table, Sit(" Cat ", Fraction(1))) == "Cat"
    assert acting_for(table, Stake("Bob", Fraction(1))) == "Bob"
    assert acting_for(table, Withdraw("Bob")) == "Bob"
    assert acting_for(table, OfferBet("Bob", "next 7", Fraction(1))) == "Bob"
    assert acting_for(table, TakeBet(1, "Ann")) == "Ann"
    assert acting_for(table, CancelBet(1)) is None  # no such bet
    assert [acting_for(table, a) for a in (Call(7), Roll(3, 4), PassDice())] == ["Ann"] * 3
    assert acting_for(new_table(WIKIPEDIA, WIKI_PAYS), Call(7)) is None


def test_a_record_that_does_not_replay_names_the_entry() -> None:
    with pytest.raises(InvalidError) as caught:
        replay(INFO, entries(Sit("Ann", Fraction(9)), (ANN, Sit("Bob", Fraction(9)))))
    assert str(caught.value) == (
        "record of game 1 does not replay: entry 2: illegal sit Bob 9 by Ann at the wikipedia table "
        "of 1 player, "
        "caster Ann, round: no main yet: a player sits only himself down; the referee seats others"
    )


# --- the text forms -----------------------------------------------------------------------------------------


def test_entry_text_is_the_action_or_what_a_correction_did() -> None:
    sit = Entry(1, "now", ANN, Sit("Ann", Fraction(305, 3)))
    assert entry_text(sit) == "sit Ann 305/3"
    assert entry_text(sit, MoneyStyle.LSD) == "sit Ann £101 13s 4d"
    assert entry_text(sit, MoneyStyle.DECIMAL) == "sit Ann 305/3"  # 101.67 would not read back exactly
    assert entry_text(Entry(2, "now", REFEREE, Correction(1))) == "correction: entry 1 is void"
    assert (
        entry_text(
            Entry(2, "now", REFEREE, Correction(1, Stake("Ann Lee", Fraction(5, 2)))), MoneyStyle.DECIMAL
        )
        == "correction: entry 1 now reads 'stake \"Ann Lee\" 2.50'"
    )


@settings(max_examples=300, deadline=None, derandomize=True)
@given(
    texts(max_size=14),
    st.sampled_from(["sit", "stake", "withdraw", "offer", "take"]),
    st.sampled_from(MoneyStyle),
)
@example("Ann  Lee", "sit", MoneyStyle.EXACT)  # two spaces inside a name
@example("Ann  Lee", "stake", MoneyStyle.EXACT)
def test_every_name_the_table_seats_reads_back_from_an_entrys_text(
    raw: str, kind: str, money: MoneyStyle
) -> None:
    """Any name ``check_name`` accepts (the table seats it) is written in an entry's text so it reads back."""
    try:
        name = check_name(raw)
    except InvalidError:
        return
    actions: dict[str, TableAction] = {
        "sit": Sit(name, Fraction(5, 2)),
        "stake": Stake(name, Fraction(5, 2)),
        "withdraw": Withdraw(name),
        "offer": OfferBet(name, "next 7", Fraction(1)),
        "take": TakeBet(1, name),
    }
    action = actions[kind]
    text = entry_text(Entry(1, "now", REFEREE, action), money)
    assert parse_action(text, by=REFEREE, players=[name]) == action, text


# --- the JSON forms -----------------------------------------------------------------------------------------


def stored(data: dict[str, Any]) -> object:
    """What the record holds: the JSON text, read back."""
    return json.loads(json.dumps(data, sort_keys=True))


@settings(max_examples=200, deadline=None, derandomize=True)
@given(actors(), table_actions())
def test_an_action_entry_round_trips_with_its_actor(actor: Actor, action: TableAction) -> None:
    data = entry_to_json(actor, action)
    assert set(data) == {"actor", "action"}
    assert data["action"] == action_to_json(action)
    assert entry_from_json(stored(data)) == (actor, action)


@settings(max_examples=100, deadline=None, derandomize=True)
@given(actors(), st.integers(1, 2**31), st.none() | table_actions())
def test_a_correction_entry_round_trips_with_its_actor(
    actor: Actor, target: int, replacement: TableAction | None
) -> None:
    correction = Correction(target, replacement)
    data = entry_to_json(actor, correction)
    assert set(data) == {"actor", "correction"}
    assert entry_from_json(stored(data)) == (actor, correction)


def test_the_entry_forms() -> None:
    assert entry_to_json(ANN, Call(7)) == {
        "actor": {"kind": "player", "name": "Ann"},
        "action": {"type": "call", "main": 7},
    }
    assert entry_to_json(REFEREE, Correction(3, Roll(3, 4))) == {
        "actor": {"kind": "referee"},
        "correction": {"target": 3, "replacement": {"type": "throw", "roll": "3-4"}},
    }
    assert entry_to_json(REFEREE, Correction(3))["correction"] == {"target": 3, "replacement": None}


@settings(max_examples=100, deadline=None, derandomize=True)
@given(table_actions(), st.integers(1, 99), st.booleans())
def test_a_legacy_entry_reads_as_entered_by_the_referee(action: TableAction, target: int, void: bool) -> None:
    """An entry from before actors existed: the bare action, or a correction typed ``"correction"``."""
    assert entry_from_json(stored(action_to_json(action))) == (REFEREE, action)
    replacement = None if void else action_to_json(action)
    legacy = {"type": "correction", "target": target, "replacement": replacement}
    assert entry_from_json(legacy) == (REFEREE, Correction(target, None if void else action))


@pytest.mark.parametrize(
    ("data", "fragment"),
    [
        ({"actor": {"kind": "referee"}}, "expected an actor with an action or a correction"),
        ({"actor": {"kind": "referee"}, "action": {"type": "pass-dice"}, "x": 1}, "expected an actor with"),
        ({"actor": {"kind": "player", "name": ""}, "action": {"type": "pass-dice"}}, "invalid actor"),
        ({"actor": {"kind": "referee", "name": "Ann"}, "action": {"type": "pass-dice"}}, "invalid actor"),
        ({"actor": "Ann", "action": {"type": "pass-dice"}}, "invalid actor 'Ann'"),
        (
            {"actor": {"kind": "referee"}, "action": {"type": "correction"}},
            "invalid action type 'correction'",
        ),
        ({"actor": {"kind": "referee"}, "correction": {"target": True, "replacement": None}}, "target True"),
        ({"actor": {"kind": "referee"}, "correction": [1]}, "expected a target and a replacement"),
        ({"type": "correction", "target": 1}, "expected a target and a replacement"),
        ({"type": "correction", "target": -1, "replacement": None}, "invalid correction target -1"),
        ([], "expected a JSON object with a 'type'"),
        ("stake Ann 5", "expected a JSON object with a 'type'"),
    ],
    ids=repr,
)
def test_a_malformed_entry_is_refused(data: object, fragment: str) -> None:
    with pytest.raises(InvalidError) as caught:
        entry_from_json(data)
    assert type(caught.value) is InvalidError
    assert fragment in str(caught.value)


def fraction_game() -> list[Entry]:
    """Ann wins a chance of 4 on a main of 6 at 5/3 from Bob, and loses him 3/2 on a side bet."""
    return entries(
        (ANN, Sit("Ann", Fraction(100))),
        (BOB, Sit("Bob", Fraction(100))),
        (BOB, Stake("Bob", Fraction(1))),
        (ANN, Call(6)),
        (REFEREE, Roll(2, 2)),
        (BOB, OfferBet("Bob", "next even", Fraction(1), Fraction(3, 2))),
        (ANN, TakeBet(1, "Ann")),
        (REFEREE, Roll(3, 1)),
        (REFEREE, Sit("Cat", Fraction(1, 3), BotPolicy.BYSTANDER)),
        (REFEREE, Correction(9, Sit("Cat", Fraction(2, 3), BotPolicy.BYSTANDER))),
    )


def test_game_json_names_every_entrys_actor_and_standing() -> None:
    game = replay(INFO, fraction_game())
    data = game_json(game)
    assert json.loads(json.dumps(data)) == data  # plain JSON values
    assert data["game"] == info_json(INFO)
    assert (data["game"]["format"], data["game"]["kind"]) == (FORMAT, "referee")
    assert [e["seq"] for e in data["entries"]] == list(range(1, 11))
    for item, entry in zip(data["entries"], game.entries, strict=True):
        assert {"seq", "at", "actor", "for", "entry", "text", "standing", "events"} <= set(item)
        assert item["actor"] == entry_to_json(entry.actor, entry.item)["actor"]
        assert item["text"] == entry_text(entry)
        # an entry shows its item as the record of the previous release stored it, with no actor
        assert entry_from_json(item["entry"]) == (REFEREE, entry.item)
    assert [e["actor"] for e in data["entries"][:5]] == [
        {"kind": "player", "name": "Ann"},
        {"kind": "player", "name": "Bob"},
        {"kind": "player", "name": "Bob"},
        {"kind": "player", "name": "Ann"},
        {"kind": "referee"},
    ]
    assert [e["for"] for e in data["entries"]] == [
        "Ann",
        "Bob",
        "Bob",
        "Ann",
        "Ann",
        "Bob",
        "Ann",
        "Ann",
        "Cat",
        None,  # a correction is nobody's action
    ]
    last, fixed = data["entries"][-1], data["entries"][-2]
    assert (last["standing"], last["text"], last["events"]) == (
        "correction",
        "correction: entry 9 now reads 'sit Cat 2/3 as a bystander bot'",
        [],
    )
    assert (fixed["standing"], fixed["text"]) == ("replaced", "sit Cat 1/3 as a bystander bot")
    assert fixed["events"] == [event_text(e, MoneyStyle.EXACT) for e in game.events_of(9)]
    assert "2/3" in fixed["events"][0]  # the replacement's sum, exactly
    thrown = data["entries"][7]["events"]
    assert thrown[:2] == ["Ann throws 3-1", "4 is the chance, thrown before the main 6: the caster wins"]
    assert any("Ann pays Bob 3/2" in text for text in thrown), thrown  # every sum exact: never 1.50
    assert any("Bob pays Ann 5/3" in text for text in thrown), thrown  # nor 1.67
    assert [str(e) for e in game.events_of(8)][2:] == [  # the events' own text: two decimals
        "side bet #1 'next even' comes true: Ann pays Bob 1.50",
        "the caster Ann wins 1.67 (Bob pays Ann 1.67)",
    ]


def test_game_json_keeps_every_sum_exact_with_a_float_beside_it() -> None:
    game = replay(INFO, fraction_game())
    state = game_json(game)["state"]
    assert state == table_json(game.table)
    ann, bob, cat = state["players"]
    # 100 + 5/3 - 3/2 and 100 - 5/3 + 3/2
    assert (ann["bankroll"], ann["free"], bob["bankroll"], cat["bankroll"]) == (
        "601/6",
        "601/6",
        "599/6",
        "2/3",
    )
    assert ann["bankroll_float"] == pytest.approx(100 + 1 / 6)
    assert bob["bankroll_float"] == float(Fraction(599, 6))
    assert cat["free_float"] == float(Fraction(2, 3))
    total = sum(Fraction(p["bankroll"]) for p in state["players"])
    assert total == Fraction(200) + Fraction(2, 3)  # exactly: the floats alone would not say so
    assert state["turn"] == {"caster": "Ann", "need": "call", "stakes_open": True}


def _played(count: int) -> list[Entry]:
    """A refereed game of ``count`` entries: two players, a stake and a main each round, a fixed sequence
    of throws, and now and then a correction (voiding the last throw, or replacing it)."""
    numbers = iter([(2, 5), (3, 3), (6, 6), (1, 1), (4, 3), (5, 5), (2, 2), (6, 1), (4, 4), (3, 1)] * 100)
    items: list[TableAction | Correction] = [Sit("Ann", Fraction(10**6)), Sit("Bob", Fraction(10**6))]
    table = replay(INFO, entries(*items)).table
    while len(items) < count:
        if table.turn.need.value == "call":
            item: TableAction | Correction = Call(7)
        elif len(items) % 17 == 0 and isinstance(items[-1], Roll):
            item = Correction(len(items), Roll(*next(numbers)) if len(items) % 2 else None)
        else:
            item = Roll(*next(numbers))
        items.append(item)
        table = replay(INFO, entries(*items)).table
    return entries(*items)


def test_a_game_replayed_further_is_the_game_replayed_whole() -> None:
    """``replayed_further`` (a game played on by its new entries alone, as the web table's record stream
    does) gives what replaying all the entries gives: the table, every event, whose each action was, the
    fair ledger; with a correction among the new entries as well."""
    played = _played(120)
    assert any(isinstance(entry.item, Correction) for entry in played)
    whole = replay(INFO, played)
    for cut in (2, 3, 10, 33, 34, 35, 60, 119, 120):
        further = replayed_further(replay(INFO, played[:cut]), played[cut:])
        assert further.entries == whole.entries
        assert further.table == whole.table
        assert further.events == whole.events
        assert dict(further.acting_for) == dict(whole.acting_for)
        assert game_json(further) == game_json(whole)
