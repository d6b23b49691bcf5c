"""Plays whole games, bots and two people, through the facade alone, importing nothing from hazard.cli.

A front end needs only :mod:`hazard.table` (and :mod:`hazard.core.rulesets`, to find a ruleset): this module
imports nothing else of hazard's, and plays (a) a person against two bots with seeded dice, (b) two people and
a referee at real dice, with corrections, and (c) a game where everyone bets against the caster, with stakes
laid late by consent. After each: the money is all still there, the record replays to the live table, every
entry names its actor, and the text of every entry reads back to its action.

The facade does not export the error classes, so a refusal is caught here as the ``ValueError`` every one of
them is, and told apart by its class's name.
"""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import pytest

from hazard.core.rulesets import find_ruleset
from hazard.table import (
    REFEREE,
    Actor,
    BotBrains,
    Correction,
    DiceKind,
    Entry,
    GameKind,
    GameStore,
    MoneyStyle,
    OfferBet,
    Roll,
    SeededDice,
    Session,
    Sit,
    Stake,
    TableSpec,
    ThrowDice,
    Thrown,
    effective_actions,
    entry_text,
    game_json,
    load_game,
    parse_action,
    standing,
    table_paytable,
)

ANN, BOB = Actor.player("Ann"), Actor.player("Bob")


def refused(kind: str, call: object, *args: object, **kwargs: object) -> str:
    """Call ``call``, which must be refused with the facade's error ``kind``; the message."""
    assert callable(call)
    with pytest.raises(ValueError, match=r".") as caught:
        call(*args, **kwargs)
    assert type(caught.value).__name__ == kind, caught.value
    return str(caught.value)


# --- what every finished game must show ---------------------------------------------------------------------


def brought(session: Session) -> Fraction:
    """The money brought to the table: the bankrolls of the seats that stand in the record."""
    return sum(
        (action.bankroll for _, _, action in effective_actions(session.entries) if isinstance(action, Sit)),
        Fraction(0),
    )


def check_game(store: GameStore, session: Session) -> None:
    table = session.table
    assert table.total_money == brought(session)  # money is only ever moved, never made or lost
    for player in table.players:
        assert player.bankroll >= 0
        assert table.available(player.name) >= 0
    loaded = load_game(store, session.game)
    assert loaded.table == session.table
    assert loaded.entries == tuple(session.entries)
    assert Session.resume(store, session.game, kind=session.info.kind).table == session.table

    data = json.loads(json.dumps(game_json(loaded)))
    assert len(data["entries"]) == len(session.entries)
    for item, entry in zip(data["entries"], session.entries, strict=True):
        actor = item["actor"]
        assert actor == (
            {"kind": "referee"} if entry.actor.is_referee else {"kind": "player", "name": entry.actor.name}
        )
    assert sum(Fraction(p["bankroll"]) for p in data["state"]["players"]) == brought(session)

    names = [action.name for entry in session.entries for action in [entry.item] if isinstance(action, Sit)]
    for entry in session.entries:
        item = entry.item
        action = item.replacement if isinstance(item, Correction) else item
        if action is None:
            continue
        for money in MoneyStyle:
            text = entry_text(Entry(entry.seq, entry.at, entry.actor, action), money)
            for by in (entry.actor, REFEREE):
                assert parse_action(text, by=by, players=names) == action, (text, by)


def by_whom(session: Session) -> set[tuple[str | None, str]]:
    """Who took which kind of action: (the actor's name, or None for the referee; the action's class)."""
    return {(entry.actor.name, type(entry.item).__name__) for entry in session.entries}


# --- (a) one person against two bots ------------------------------------------------------------------------

SEED = 7


def ann_between_rounds(session: Session, passed: list[int]) -> None:
    """Ann holds the dice between rounds: she stakes against the bank, offers a bet, and calls; or passes."""
    table = session.table
    if table.rounds_played >= 2 and not passed:
        passed.append(table.rounds_played)
        session.act("pass", by=ANN)
        return
    if not table.wagers:
        (covered,) = session.act("stake 2", by=ANN)  # under the bank arrangement: a bot covers it
        assert covered.entry.actor != ANN
        assert covered.entry.item == Stake(covered.entry.actor.name or "", Fraction(2))
    if not any(bet.backer == "Ann" for bet in table.side_bets):
        session.act("offer 1 on 4 or 10 before 7", by=ANN)
    session.bots_act(call=False)
    session.act("call 7", by=ANN)


def ann_against_a_bot(session: Session) -> None:
    """A bot holds the dice: Ann takes the bet a bot offers before another bot can, and stakes."""
    for _ in range(20):  # the bots' moves one at a time, as the facade's brains choose them
        move = session.brains.wanted(session.table, call=False)
        if move is None:
            break
        session.play(move.action, by=move.by)
        if isinstance(move.action, OfferBet) and session.table.available("Ann") >= move.action.amount:
            session.act(f"take {session.table.side_bets[-1].number}", by=ANN)
    table = session.table
    if not table.round_begun and table.staked_by("Ann") == 0 and table.available("Ann") >= 2:
        session.act("stake 1", by=ANN)


def play_against_bots(store: GameStore, throws: int = 36) -> Session:
    rules = find_ruleset("wikipedia")
    pays, _ = table_paytable(rules)
    session = Session.start(
        store,
        TableSpec(rules, pays, dice=DiceKind.SEEDED, seed=SEED, bots=BotBrains(unit=Fraction(1))),
        settings={"bot_unit": "1"},
    )
    session.act("sit Ann 100", by=ANN)
    session.act("sit Bob 100 as a setter bot", by=BOB)
    session.act("sit Cat 100 as a bystander bot", by=Actor.player("Cat"))
    assert session.people == ["Ann"]
    passed: list[int] = []
    for _ in range(throws * 3):  # each pass through the loop throws or hands on the dice
        if session.table.throws >= throws:
            break
        table = session.table
        if table.caster == "Ann" and not table.round_begun:
            ann_between_rounds(session, passed)
            if session.table.caster != "Ann":
                continue
        elif table.caster != "Ann":
            ann_against_a_bot(session)
        for done in session.act("throw", by=ANN):  # Ann's own throw, or one she asks of a bot caster
            if isinstance(done.entry.item, Roll):
                assert done.entry.item == SeededDice(SEED).throw(session.table.throws - 1)
                assert isinstance(done.events[0], Thrown)
    return session


def test_a_person_plays_two_bots_through_the_facade(tmp_path: Path) -> None:
    store = GameStore.open(str(tmp_path / "games.db"))
    session = play_against_bots(store)
    table = session.table
    assert table.throws >= 30
    assert table.rounds_played >= 5
    done = by_whom(session)
    for kind in ("Sit", "Stake", "OfferBet", "TakeBet", "Call", "Roll", "PassDice"):
        assert ("Ann", kind) in done, kind  # the person staked, offered, took, called, threw, passed
    assert {("Bob", "Stake"), ("Bob", "TakeBet"), ("Cat", "OfferBet")} <= done  # the bots play too
    assert ("Bob", "Call") in done or ("Cat", "Call") in done  # and call when they hold the dice
    assert all(name is not None for name, _ in done)  # nobody referees a game of hazard play
    assert any(type(e).__name__ == "BetSettled" for _, e in session.replayed().events)
    check_game(store, session)
    store.close()


# --- (b) two people and a referee, at real dice -------------------------------------------------------------

SCRIPT: list[tuple[Actor, str]] = [
    (ANN, "sit Ann 100"),
    (BOB, "sit Bob 100"),
    (BOB, "stake 5"),
    (BOB, "withdraw"),
    (BOB, "stake 4"),
    (BOB, "offer 2 on next odd at 3/2"),
    (ANN, "take 1"),
    (ANN, "offer 1 on 4 or 10 before 7"),
    (ANN, "cancel 2"),
    (ANN, "call 7"),
    (REFEREE, "5-6"),  # 11 nicks on a main of 7; the odd total wins Bob's side bet
    (REFEREE, "stake Bob 3"),  # entered by the referee for Bob
    (ANN, "call 6"),
    (REFEREE, "1 1"),  # a mistake: the dice showed 3-3 (fixed below)
]


def play_a_refereed_game(store: GameStore) -> Session:
    rules = find_ruleset("wikipedia")
    pays, _ = table_paytable(rules)
    session = Session.start(store, TableSpec(rules, pays, dice=DiceKind.TYPED, kind=GameKind.REFEREE))
    for actor, text in SCRIPT:
        done = session.act(text, by=actor)
        assert [d.entry.actor for d in done] == [actor]
    # Ann won 4 on the nick and paid Bob 3 on his side bet; then 2 threw her out, losing Bob's 3.
    assert [p.bankroll for p in session.table.players] == [98, 102]
    # The referee fixes the mistaken throw: 3-3 nicks 6, and Ann wins Bob's 3 instead.
    mistaken = session.entries[-1]
    before, correction, table = session.correct(mistaken.seq, Roll(3, 3))
    assert (before, correction.item) == (mistaken, Correction(mistaken.seq, Roll(3, 3)))
    assert [p.bankroll for p in table.players] == [104, 96]
    # Bob stakes again, thinks better of it; the referee undoes it.
    (late,) = session.act("stake 2", by=BOB)
    undone, _, _ = session.correct()
    assert undone == late.entry
    assert session.table.wagers == ()
    assert "only the referee corrects" in refused("IllegalError", session.correct, by=ANN)
    assert "real dice" in refused("IllegalError", session.act, ThrowDice(), by=ANN)
    assert "only the caster, Ann, calls" in refused("ActorError", session.act, "call 7", by=BOB)
    assert "stakes only for himself" in refused("ActorError", session.act, "stake Bob 1", by=ANN)
    assert "unknown command" in refused("InvalidError", session.act, "bet everything", by=ANN)
    # Ann hands on the dice; Bob casts and types his own throw; Ann stakes twice.
    session.act("pass", by=ANN)
    session.act("stake 2", by=ANN)
    session.act("stake 1", by=ANN)
    session.act("call 5", by=BOB)
    session.act("2-3", by=BOB)  # a nick: Bob wins 3 from Ann
    return session


def test_two_people_and_a_referee_play_at_real_dice_through_the_facade(tmp_path: Path) -> None:
    store = GameStore.open(str(tmp_path / "games.db"))
    session = play_a_refereed_game(store)
    kinds = {type(entry.item).__name__ for entry in session.entries}
    assert kinds == {
        "Sit",
        "Stake",
        "Withdraw",
        "Call",
        "Roll",
        "OfferBet",
        "TakeBet",
        "CancelBet",
        "PassDice",
        "Correction",
    }
    assert {entry.actor for entry in session.entries} == {ANN, BOB, REFEREE}
    standings = standing(session.entries)
    assert sorted({s.value for s in standings.values()}) == ["correction", "replaced", "stands", "void"]
    assert session.table.caster == "Bob"
    assert [(p.name, p.bankroll) for p in session.table.players] == [
        ("Ann", Fraction(101)),
        ("Bob", Fraction(99)),
    ]
    check_game(store, session)
    store.close()


# --- (c) all against the caster, with late stakes by consent ------------------------------------------------


def play_all_against_the_caster(store: GameStore, throws: int = 30) -> Session:
    """Seed 3 throws 6-1 (main 7), 5-1 (chance 6), 6-1 (lost: the dice pass), then on."""
    rules = find_ruleset("sca-isenfir")
    pays, _ = table_paytable(rules)
    session = Session.start(store, TableSpec(rules, pays, dice=DiceKind.SEEDED, seed=3))
    assert session.table.stakes.value == "all-against-caster"
    session.act("sit Ann 60", by=ANN)
    session.act("sit Cas 60 as a setter bot", by=Actor.player("Cas"))
    session.act("sit Bob 60", by=BOB)
    for _ in range(throws * 2):
        if session.table.throws >= throws:
            break
        table = session.table
        late = table.round.phase.value == "chance"
        caster = table.caster or ""
        if caster != "Cas":  # a person casts: the other person stakes once the chance is set
            other = "Bob" if caster == "Ann" else "Ann"
            if late and table.staked_by(other) == 0:
                # the caster enters the late stake with his consent
                session.act(f"stake {other} 1 consent", by=Actor.player(caster))
        elif late and table.staked_by("Ann") == 0:
            (done,) = session.act("stake 1", by=ANN)  # the bot caster consents
            assert (done.entry.actor, done.entry.item) == (
                Actor.player("Cas"),
                Stake("Ann", Fraction(1), True),
            )
        elif not table.round_begun and table.staked_by("Bob") == 0:
            session.act("stake 1", by=BOB)
        session.bots_act()
        session.act("throw", by=Actor.player(session.table.caster or ""))
    return session


def test_all_against_the_caster_with_late_stakes_through_the_facade(tmp_path: Path) -> None:
    store = GameStore.open(str(tmp_path / "games.db"))
    session = play_all_against_the_caster(store)
    consented = [
        (entry.actor.name, entry.item.player)
        for entry in session.entries
        if isinstance(entry.item, Stake) and entry.item.consent
    ]
    assert ("Cas", "Ann") in consented  # entered by the bot caster
    assert any(caster in ("Ann", "Bob") for caster, _ in consented)  # entered by a person caster
    casters = {entry.actor.name for entry in session.entries if isinstance(entry.item, Roll)}
    assert casters == {"Ann", "Cas", "Bob"}
    assert session.table.throws >= 30
    check_game(store, session)
    store.close()


# --- the facade is all a front end needs --------------------------------------------------------------------

ALLOWED = ("hazard.table", "hazard.core.rulesets")


def test_this_module_imports_only_the_facade() -> None:
    tree = ast.parse(Path(__file__).read_text())
    imported = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module:
            imported.add(node.module)
        elif isinstance(node, ast.Import):
            imported.update(alias.name for alias in node.names)
    ours = {name for name in imported if name == "hazard" or name.startswith(("hazard.", "tests"))}
    assert ours == set(ALLOWED)


_CHILD = """
import importlib.util, sys
spec = importlib.util.spec_from_file_location("service", sys.argv[1])
module = importlib.util.module_from_spec(spec)
spec.loader.exec_module(module)
store = module.GameStore.open("sqlite://", in_memory=True)
module.play_against_bots(store, throws=12)
module.play_a_refereed_game(store)
module.play_all_against_the_caster(store, throws=12)
print("\\n".join(sorted(name for name in sys.modules if name.startswith("hazard"))))
"""


def test_playing_through_the_facade_loads_nothing_of_the_command_line() -> None:
    """In a fresh interpreter: importing this module and playing all three games never imports hazard.cli."""
    result = subprocess.run(
        [sys.executable, "-c", _CHILD, __file__],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    loaded = result.stdout.split()
    assert "hazard.table" in loaded
    assert [name for name in loaded if name == "hazard.cli" or name.startswith("hazard.cli.")] == []


def test_importing_the_facade_loads_no_cryptography_and_no_database_driver() -> None:
    """The signing key, the provenance check and the claims are in the facade: each loads its library when
    first used, so a front end that only renders (the terminal's help, a page) pays for neither."""
    code = "import sys, hazard.table; print(' '.join(sorted(sys.modules)))"
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=False
    )
    assert result.returncode == 0, result.stderr
    loaded = result.stdout.split()
    assert "hazard.table.fair.signing" in loaded
    assert [name for name in loaded if name.split(".")[0] in {"cryptography", "sqlalchemy", "psycopg"}] == []
