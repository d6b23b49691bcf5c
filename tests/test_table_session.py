"""Live games: the table, its record, its dice and its bots kept in step, corrected, killed and resumed."""

from __future__ import annotations

import contextlib
import os
import queue
import signal
import subprocess
import sys
import textwrap
import threading
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st
from tests.strategies import throw_of as t

from hazard.core.engine import Mover, to_move
from hazard.core.errors import HazardError, IllegalError, InvalidError
from hazard.core.propositions import SOURCE_BETS, SOURCE_EXAMPLES
from hazard.core.rules import StakeArrangement
from hazard.core.rulesets import builtin_rulesets, find_paytable, find_ruleset, paytable_for
from hazard.table.actions import (
    Call,
    CancelBet,
    OfferBet,
    PassDice,
    Sit,
    Stake,
    TableAction,
    TakeBet,
    Throw,
    Withdraw,
)
from hazard.table.bots import BotBrains
from hazard.table.dice import SeededDice
from hazard.table.record import Correction, GameStore, effective_actions, replay
from hazard.table.session import DICE_KINDS, Session
from hazard.table.state import BetSettled, RoundSettled, Table

WIKIPEDIA = find_ruleset("wikipedia")


def start(store: GameStore, ruleset: str = "wikipedia", **options: Any) -> Session:
    rules = find_ruleset(ruleset)
    pays = paytable_for(rules) or find_paytable("even")
    return Session.start(store, ruleset=rules, paytable=pays, **options)


@pytest.fixture
def store(tmp_path: Path) -> GameStore:
    return GameStore.open(str(tmp_path / "games.db"))


def stored(store: GameStore, session: Session) -> list[object]:
    return [entry.item for entry in store.load(session.game).entries]


# --- starting, playing, refusing ----------------------------------------------------------------------------


def test_dice_kinds() -> None:
    assert DICE_KINDS == ("secure", "seeded", "typed")


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"dice": "seeded"}, "invalid dice: seeded dice need a seed"),
        ({"dice": "loaded"}, "invalid dice 'loaded': expected one of secure, seeded, typed"),
        ({"dice": "seeded", "seed": -3}, "invalid seed -3"),
    ],
)
def test_a_session_needs_a_dice_source(store: GameStore, options: dict[str, Any], message: str) -> None:
    with pytest.raises(InvalidError, match=message):
        start(store, **options)
    assert store.games() == []  # nothing recorded for a game that never started


def test_a_session_records_its_setup(store: GameStore) -> None:
    session = start(store, "ecws-1674", dice="seeded", seed=5, label="club", stakes=StakeArrangement.BANK)
    info = store.load(session.game).info
    assert (info.dice, info.seed, info.label, info.stakes) == ("seeded", 5, "club", StakeArrangement.BANK)
    assert session.table.stakes is StakeArrangement.BANK
    assert session.info.ruleset == info.ruleset


def test_every_action_is_recorded_before_the_table_moves(store: GameStore) -> None:
    session = start(store, dice="typed")
    actions: list[TableAction] = [
        Sit("Ann", Fraction(50)),
        Sit("Ben", Fraction(50)),
        Stake("Ben", Fraction(5)),
    ]
    for action in actions:
        session.play(action)
    assert stored(store, session) == actions
    assert [entry.seq for entry in session.entries] == [1, 2, 3]
    events = session.play(Call(7))
    assert str(events[0]) == "the caster calls 7 as the main"
    assert store.load(session.game).table == session.table


@pytest.mark.parametrize(
    ("action", "error", "fragment"),
    [
        (Throw(t(7).roll), IllegalError, "Ann must call a main first"),
        (Stake("Zed", Fraction(5)), IllegalError, "illegal player 'Zed'"),
        (Stake("Ben", Fraction(50)), IllegalError, "Ben cannot cover it"),
        (Stake("Ben", Fraction(0)), InvalidError, "above 0"),
        (
            OfferBet("Ben", "4 or 13 before 7", Fraction(1)),
            InvalidError,
            "invalid proposition '4 or 13 before 7'",
        ),
        (Sit("ANN", Fraction(5)), IllegalError, "already at the table"),
        (Call(3), IllegalError, "illegal main 3"),
    ],
    ids=repr,
)
def test_a_refused_action_writes_nothing_and_changes_nothing(
    store: GameStore, action: TableAction, error: type[HazardError], fragment: str
) -> None:
    session = start(store, dice="typed")
    session.play(Sit("Ann", Fraction(50)))
    session.play(Sit("Ben", Fraction(50)))
    before = session.table
    with pytest.raises(error) as caught:
        session.play(action)
    assert type(caught.value) is error
    assert fragment in str(caught.value)
    assert session.table is before
    assert len(session.entries) == 2
    assert len(stored(store, session)) == 2


def test_typed_in_throws_are_played_not_thrown(store: GameStore) -> None:
    session = start(store, dice="typed")
    session.play(Sit("Ann", Fraction(50)))
    session.play(Call(7))
    with pytest.raises(IllegalError, match=f"illegal throw in game {session.game}: its throws are typed in"):
        session.throw()
    session.play(Throw(t(11).roll))
    assert session.table.rounds_played == 1


def test_seeded_dice_throw_the_seeds_throws_in_order(store: GameStore) -> None:
    session = start(store, "ecws-1674", dice="seeded", seed=77)
    session.play(Sit("Ann", Fraction(50)))
    for _ in range(30):
        session.throw()
    throws = [entry.item for entry in session.entries[1:]]
    assert throws == [Throw(SeededDice(77).throw(i)) for i in range(30)]


def test_secure_dice_play_a_game(store: GameStore) -> None:
    session = start(store, "sca-isenfir", dice="secure")
    session.play(Sit("Ann", Fraction(50)))
    session.play(Sit("Ben", Fraction(50)))
    for _ in range(20):
        session.throw()
    assert session.table.throws == 20
    assert Session.resume(store, session.game).table == session.table


# --- resuming -----------------------------------------------------------------------------------------------


def play_bots(session: Session, throws: int) -> None:
    for _ in range(throws):
        session.bots_act()
        session.throw()


def seat_bots(session: Session) -> None:
    for name, bot in (("Cas", "bystander"), ("Sam", "setter"), ("Bea", "bystander"), ("Sue", "setter")):
        session.play(Sit(name, Fraction(40), bot))


@pytest.mark.parametrize("ruleset", [r.id for r in builtin_rulesets()])
def test_a_resumed_game_carries_on_exactly_as_if_never_stopped(tmp_path: Path, ruleset: str) -> None:
    brains = BotBrains(unit=Fraction(2))
    whole_store = GameStore.open(str(tmp_path / "whole.db"))
    whole = start(whole_store, ruleset, dice="seeded", seed=13, brains=brains)
    seat_bots(whole)
    play_bots(whole, 60)

    store = GameStore.open(str(tmp_path / "stopped.db"))
    first = start(store, ruleset, dice="seeded", seed=13, brains=brains)
    seat_bots(first)
    play_bots(first, 25)
    store.close()
    thrown = 25
    for stop in (20, 15):
        again = Session.resume(GameStore.open(str(tmp_path / "stopped.db")), first.game, brains)
        assert again.table.throws == thrown
        play_bots(again, stop)
        thrown += stop
        again.store.close()
    resumed = Session.resume(GameStore.open(str(tmp_path / "stopped.db")), first.game, brains)
    assert resumed.table == whole.table
    assert [e.item for e in resumed.entries] == [e.item for e in whole.entries]


def test_resume_refuses_a_record_it_cannot_replay(store: GameStore) -> None:
    session = start(store, dice="typed")
    session.play(Sit("Ann", Fraction(50)))
    store.append(session.game, t(7))  # written behind the session's back: a throw before the call
    with pytest.raises(InvalidError, match="does not replay: entry 2: illegal throw 1-6"):
        Session.resume(store, session.game)


# --- corrections --------------------------------------------------------------------------------------------


def referee_game(store: GameStore) -> Session:
    session = start(store, dice="typed")
    for action in (Sit("Ann", Fraction(100)), Sit("Ben", Fraction(100)), Stake("Ben", Fraction(10)), Call(7)):
        session.play(action)
    session.play(t(2))  # entry 5: typed by mistake; the dice showed 11
    return session


def test_a_correction_replaces_an_entry_and_keeps_it(store: GameStore) -> None:
    session = referee_game(store)
    assert session.table.player("Ann").bankroll == 90
    table = session.correct(5, Throw(t(11).roll))
    assert table is session.table
    assert session.table.player("Ann").bankroll == 110
    assert stored(store, session)[4] == t(2)
    assert stored(store, session)[5] == Correction(5, t(11))
    assert Session.resume(store, session.game).table == session.table
    # and play goes on from the corrected state
    session.play(Call(6))
    assert Session.resume(store, session.game).table == session.table


def test_a_correction_voids_an_entry(store: GameStore) -> None:
    session = referee_game(store)
    session.correct(3)
    assert session.table.player("Ann").bankroll == 100
    assert len(stored(store, session)) == 6
    assert Session.resume(store, session.game).table == session.table


@pytest.mark.parametrize(
    ("target", "replacement", "fragment"),
    [
        (1, None, "entry 3: illegal stake of 10 by 'Ben': the caster cannot stake against himself"),
        (4, Call(4), "illegal main 4"),
        (5, Stake("Ben", Fraction(1)), "before the round begins"),
        (9, None, "entry 9 is not an earlier action"),
        (6, None, "entry 6 is not an earlier action"),
    ],
    ids=repr,
)
def test_a_correction_that_would_not_replay_is_refused_and_nothing_is_written(
    store: GameStore, target: int, replacement: TableAction | None, fragment: str
) -> None:
    session = referee_game(store)
    before = session.table
    with pytest.raises(IllegalError) as caught:
        session.correct(target, replacement)
    assert f"illegal correction of entry {target}" in str(caught.value)
    assert fragment in str(caught.value)
    assert session.table is before
    assert len(session.entries) == 5
    assert len(stored(store, session)) == 5


def test_a_correction_cannot_target_a_correction(store: GameStore) -> None:
    session = referee_game(store)
    session.correct(5, Throw(t(11).roll))
    with pytest.raises(IllegalError, match="entry 6 is not an earlier action"):
        session.correct(6)
    assert len(stored(store, session)) == 6


# --- bots in a session --------------------------------------------------------------------------------------


def test_bots_act_until_they_have_nothing_to_do(store: GameStore) -> None:
    session = start(store, dice="seeded", seed=1, brains=BotBrains(unit=Fraction(3), main=6))
    seat_bots(session)
    done = session.bots_act()
    assert [action for action, _ in done] == [
        OfferBet("Cas", "8 or 12 before 7", Fraction(3)),  # bystanders offer the source's bets, each its own
        TakeBet(1, "Sam"),  # and any bot takes them
        OfferBet("Bea", "9 or 11 before 7", Fraction(3)),
        TakeBet(2, "Cas"),
        Stake("Sam", Fraction(3)),  # setters stake the unit against the caster
        Stake("Sue", Fraction(3)),
        Call(6),  # the bot caster calls the main it was given, once nobody wants anything else
    ]
    assert session.bots_act() == []
    assert stored(store, session)[4:] == [action for action, _ in done]


# --- a game killed with kill -9 -----------------------------------------------------------------------------

_CHILD = textwrap.dedent(
    """
    import sys, time
    from fractions import Fraction
    from hazard.core.rulesets import find_ruleset, paytable_for
    from hazard.table.actions import Sit
    from hazard.table.bots import BotBrains
    from hazard.table.record import GameStore
    from hazard.table.session import Session

    path, mode = sys.argv[1], sys.argv[2]
    rules = find_ruleset("wikipedia")
    session = Session.start(
        GameStore.open(path), ruleset=rules, paytable=paytable_for(rules), dice="seeded", seed=21,
        brains=BotBrains(unit=Fraction(2)),
    )
    for name, bot in (("Cas", "bystander"), ("Sam", "setter"), ("Bea", "bystander"), ("Sue", "setter")):
        session.play(Sit(name, Fraction(40), bot))
    print(session.game, flush=True)
    for step in range(20000):
        session.bots_act()
        session.throw()
        if mode == "mid-round" and len(session.entries) > 60 and session.table.round_begun:
            print("mid-round", flush=True)
            time.sleep(120)  # killed here; the bound only matters if the test itself died
            sys.exit(3)
        if mode == "busy" and step == 30:
            print("busy", flush=True)  # and it plays on, writing, until it is killed
    """
)


def _next_line(lines: queue.Queue[str]) -> str:
    """The child's next line; a guard, not a timing check, so a broken child cannot hang the suite."""
    try:
        return lines.get(timeout=120)
    except queue.Empty:
        pytest.fail("the game process stopped talking")


def reference(length: int) -> Session:
    """The same game as the child's, played here without interruption to at least ``length`` entries."""
    rules = find_ruleset("wikipedia")
    session = Session.start(
        GameStore.open("sqlite://"),
        ruleset=rules,
        paytable=paytable_for(rules) or find_paytable("even"),
        dice="seeded",
        seed=21,
        brains=BotBrains(unit=Fraction(2)),
    )
    for name, bot in (("Cas", "bystander"), ("Sam", "setter"), ("Bea", "bystander"), ("Sue", "setter")):
        session.play(Sit(name, Fraction(40), bot))
    while len(session.entries) < length:
        session.bots_act()
        session.throw()
    return session


@pytest.mark.parametrize("mode", ["mid-round", "busy"])
def test_a_game_killed_mid_round_resumes_with_identical_state(tmp_path: Path, mode: str) -> None:
    db = tmp_path / "killed.db"
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).parents[1] / "src")}
    child = subprocess.Popen(
        [sys.executable, "-c", _CHILD, str(db), mode], stdout=subprocess.PIPE, text=True, env=env
    )
    lines: queue.Queue[str] = queue.Queue()

    def pump() -> None:
        assert child.stdout is not None
        for line in child.stdout:
            lines.put(line.strip())

    threading.Thread(target=pump, daemon=True).start()
    try:
        game = int(_next_line(lines))
        assert _next_line(lines) == mode
    finally:
        child.send_signal(signal.SIGKILL)
        child.wait()
    assert child.returncode == -signal.SIGKILL

    store = GameStore.open(str(db))
    resumed = Session.resume(store, game, BotBrains(unit=Fraction(2)))
    count = len(resumed.entries)
    assert count > 60 if mode == "mid-round" else count >= 30
    if mode == "mid-round":
        assert resumed.table.round_begun
    whole = reference(count + 40)
    assert [e.item for e in resumed.entries] == [e.item for e in whole.entries[:count]]
    assert resumed.table == replay(whole.info, whole.entries[:count]).table
    # and it carries on exactly as the uninterrupted game did
    while len(resumed.entries) < count + 30:
        resumed.bots_act()
        resumed.throw()
    more = len(resumed.entries)
    assert [e.item for e in resumed.entries] == [e.item for e in reference(more).entries[:more]]
    store.close()


# --- the property: random games with bots conserve money and replay exactly ---------------------------------

BUILTINS = [r.id for r in builtin_rulesets()]
PROPOSITIONS = [
    *SOURCE_BETS,
    *SOURCE_EXAMPLES,
    "next 7",
    "doublets within 2 throws",
    "not 6 before 8",
    "purple",
]
AMOUNTS = [Fraction(1), Fraction(2), Fraction(5, 2), Fraction(4, 5), Fraction(10), Fraction(50)]


def sat_money(session: Session) -> Fraction:
    """The money brought to the table: the standing Sit entries' bankrolls."""
    return sum(
        (a.bankroll for _, a in effective_actions(session.entries) if isinstance(a, Sit)),
        Fraction(0),
    )


def check(session: Session) -> None:
    table = session.table
    assert table.total_money == sat_money(session)
    for player in table.players:
        assert player.bankroll >= 0, player
        assert table.available(player.name) >= 0, player


def person_action(data: st.DataObject, table: Table) -> TableAction:
    names = [p.name for p in table.players]
    who = data.draw(st.sampled_from([*names, "Nobody"]))
    amount = data.draw(st.sampled_from(AMOUNTS))
    numbers = [b.number for b in table.side_bets] or [1]
    kind = data.draw(st.sampled_from(["stake", "withdraw", "offer", "take", "cancel", "pass", "call", "sit"]))
    if kind == "stake":
        return Stake(who, amount, consent=data.draw(st.booleans()))
    if kind == "withdraw":
        return Withdraw(who)
    if kind == "offer":
        odds = data.draw(
            st.sampled_from([Fraction(1), Fraction(1), Fraction(3, 2), Fraction(5), Fraction(1, 3)])
        )
        return OfferBet(who, data.draw(st.sampled_from(PROPOSITIONS)), amount, odds)
    if kind == "take":
        return TakeBet(data.draw(st.sampled_from(numbers)), who)
    if kind == "cancel":
        return CancelBet(data.draw(st.sampled_from(numbers)))
    if kind == "pass":
        return PassDice()
    if kind == "call":
        return Call(data.draw(st.sampled_from([*table.ruleset.mains, 4])))
    return Sit(f"Late{len(names)}", amount * 3, data.draw(st.sampled_from([None, "setter", "bystander"])))


@settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(st.data())
def test_random_games_with_bots_conserve_money_and_replay_exactly(data: st.DataObject) -> None:
    rules = find_ruleset(data.draw(st.sampled_from(BUILTINS), label="ruleset"))
    paytable = data.draw(st.sampled_from([None, "even", "true-odds"]), label="paytable")
    pays = find_paytable(paytable) if paytable else (paytable_for(rules) or find_paytable("even"))
    stakes = data.draw(st.none() | st.sampled_from(StakeArrangement), label="stakes")
    seed = data.draw(st.integers(0, 2**32), label="seed")
    unit = data.draw(st.sampled_from([Fraction(1), Fraction(2), Fraction(5, 2)]), label="unit")
    bots_only = data.draw(st.booleans(), label="bots only")
    policies = ["setter", "bystander"] if bots_only else ["setter", "bystander", None]
    seats = data.draw(
        st.lists(st.tuples(st.integers(0, 60), st.sampled_from(policies)), min_size=2, max_size=5),
        label="seats",
    )
    if bots_only:
        assert seats[0][1] is not None  # the first to sit holds the dice: a bot caster

    store = GameStore.open("sqlite://")
    session = Session.start(
        store,
        ruleset=rules,
        paytable=pays,
        stakes=stakes,
        dice="seeded",
        seed=seed,
        brains=BotBrains(unit=unit),
    )
    for index, (bankroll, bot) in enumerate(seats):
        session.play(Sit(f"P{index}", Fraction(bankroll), bot))
    check(session)

    steps = data.draw(st.integers(30, 80), label="steps")
    moved: list[Fraction] = []
    bets: list[Fraction] = []
    for _ in range(steps):
        move = data.draw(st.sampled_from(["throw", "throw", "throw", "bots", "person", "correct"]))
        if move == "bots":
            session.bots_act()
        elif move == "throw" and session.table.caster is None:
            # Corrections have voided every seat: the table refuses to play, and records nothing.
            written = len(session.entries)
            with pytest.raises(IllegalError, match="nobody is at the table yet"):
                session.throw()
            assert len(session.entries) == written
        elif move == "throw":
            session.bots_act()  # as a game loop does: the bots, then the caster's call, then the dice
            table = session.table
            if to_move(table.round) is Mover.CASTER:
                caster = table.player(table.caster or "")
                if caster.bot is not None:
                    session.bots_act()
                else:
                    session.play(Call(data.draw(st.sampled_from(table.ruleset.mains))))
            if to_move(session.table.round) is Mover.DICE:
                events = session.throw()
                for happened in events:
                    if isinstance(happened, RoundSettled):
                        assert all(transfer.amount > 0 for transfer in happened.transfers)
                        moved.append(sum((transfer.amount for transfer in happened.transfers), Fraction(0)))
                    if isinstance(happened, BetSettled):
                        bets.append(happened.transfer.amount)
        elif move == "person" and not bots_only:
            before, written = session.table, len(session.entries)
            try:
                session.play(person_action(data, session.table))
            except HazardError:
                assert session.table is before
                assert len(session.entries) == written
        elif move == "correct" and not bots_only and session.entries:
            target = data.draw(st.integers(1, len(session.entries)))
            with contextlib.suppress(IllegalError):  # a correction that would not replay
                session.correct(target)
        check(session)

    event(f"rounds played: {min(session.table.rounds_played, 5)}")
    event(f"rounds where money changed hands: {min(sum(1 for m in moved if m), 3)}")
    event(f"side bets settled: {min(len(bets), 3)}")
    event(f"entries: {min(len(session.entries) // 20 * 20, 60)}+")
    loaded = store.load(session.game)
    assert loaded.table == session.table
    assert [e.item for e in loaded.entries] == [e.item for e in session.entries]
    assert Session.resume(store, session.game).table == session.table
    store.close()
