"""Live games stopped and resumed: a resumed game carries on exactly, a stale or rival writer cannot
break it, and a game killed mid-round or at any statement keeps everything it acknowledged."""

from __future__ import annotations

import itertools
import json
import os
import queue
import signal
import subprocess
import sys
import textwrap
import threading
from fractions import Fraction
from pathlib import Path

import pytest
from tests.paths import SRC
from tests.strategies import throw_of as t
from tests.table.live.session_helpers import ANN, BOB, BOTS, _next_line, sit, start

from hazard.core.errors import IllegalError, InvalidError
from hazard.core.rulesets import builtin_rulesets
from hazard.table.fair.dice import DiceKind
from hazard.table.live.session import Session
from hazard.table.live.timeline import GameKind, load_game, replay
from hazard.table.record.store import GameStore, StaleError
from hazard.table.rules.actions import REFEREE, BotPolicy, Sit, action_text
from hazard.table.rules.bots import BotBrains
from hazard.table.rules.state import Need

# --- resuming -----------------------------------------------------------------------------------------------


def play_bots(session: Session, throws: int) -> None:
    for _ in range(throws):
        session.bots_act()
        session.throw(by=REFEREE)


@pytest.mark.parametrize("ruleset", [r.id for r in builtin_rulesets()])
def test_a_resumed_game_carries_on_exactly_as_if_never_stopped(tmp_path: Path, ruleset: str) -> None:
    brains = BotBrains(unit=Fraction(2))
    whole_store = GameStore.open(str(tmp_path / "whole.db"))
    whole = start(whole_store, ruleset, dice=DiceKind.SEEDED, seed=13, brains=brains)
    sit(whole, *BOTS)
    play_bots(whole, 60)

    store = GameStore.open(str(tmp_path / "stopped.db"))
    first = start(store, ruleset, dice=DiceKind.SEEDED, seed=13, brains=brains)
    sit(first, *BOTS)
    play_bots(first, 25)
    store.close()
    thrown = 25
    for stop in (20, 15):
        again = Session.resume(
            GameStore.open(str(tmp_path / "stopped.db")), first.game, kind=GameKind.PLAY, brains=brains
        )
        assert again.table.throws == thrown
        play_bots(again, stop)
        thrown += stop
        again.store.close()
    resumed = Session.resume(
        GameStore.open(str(tmp_path / "stopped.db")), first.game, kind=GameKind.PLAY, brains=brains
    )
    assert resumed.table == whole.table
    assert [(e.actor, e.item) for e in resumed.entries] == [(e.actor, e.item) for e in whole.entries]


def test_resume_refuses_a_record_it_cannot_replay(store: GameStore) -> None:
    session = start(store, dice=DiceKind.TYPED)
    sit(session, ("Ann", 50))
    store.append(session.game, ANN, t(7))  # written behind the session's back: a throw before the call
    with pytest.raises(InvalidError, match="does not replay: entry 2: illegal throw 1-6"):
        Session.resume(store, session.game, kind=GameKind.REFEREE)


def test_resume_refuses_a_game_of_the_other_kind(store: GameStore) -> None:
    play = start(store, dice=DiceKind.SEEDED, seed=4)
    referee = start(store, dice=DiceKind.TYPED)
    with pytest.raises(IllegalError) as caught:
        Session.resume(store, referee.game, kind=GameKind.PLAY)
    assert str(caught.value) == (
        f"illegal resume of game {referee.game} as a hazard play game: it is a hazard referee game "
        f"(typed dice); resume it with hazard referee --resume {referee.game}"
    )
    with pytest.raises(IllegalError) as caught:
        Session.resume(store, play.game, kind=GameKind.REFEREE)
    assert str(caught.value) == (
        f"illegal resume of game {play.game} as a hazard referee game: it is a hazard play game "
        f"(seeded dice (seed 4)); resume it with hazard play --resume {play.game}"
    )


def test_resume_without_a_game_picks_the_latest_of_its_kind(store: GameStore) -> None:
    with pytest.raises(IllegalError, match="holds no hazard referee game to resume"):
        Session.resume(store, None, kind=GameKind.REFEREE)
    first = start(store, dice=DiceKind.SEEDED, seed=4)
    referee = start(store, dice=DiceKind.TYPED)
    second = start(store, dice=DiceKind.SECURE)
    start(store, dice=DiceKind.SECURE, kind=GameKind.REFEREE)  # a kind is the game's, not its dice's
    assert first.game < referee.game < second.game
    assert Session.resume(store, None, kind=GameKind.PLAY).game == second.game
    assert Session.resume(store, kind=GameKind.REFEREE).game == second.game + 1
    resumed = Session.resume(store, None, kind=GameKind.PLAY)
    assert (resumed.info, resumed.dice is not None) == (second.info, True)


def test_a_stale_session_cannot_write_over_the_game(store: GameStore) -> None:
    """Two sessions on one game: once one has written, the other's table is stale and its action is refused,
    so the record stays one order that replays; the loser is told so, and catches up."""
    session = start(store, dice=DiceKind.TYPED)
    sit(session, ("Ann", 50), ("Bob", 50))
    one = Session.resume(store, session.game, kind=GameKind.REFEREE)
    other = Session.resume(store, session.game, kind=GameKind.REFEREE)
    one.act("stake Bob 20", by=REFEREE)
    with pytest.raises(StaleError) as caught:
        other.act("stake Bob 20", by=REFEREE)  # Bob cannot cover both: only the stale table thinks he can
    assert str(caught.value) == (
        f"illegal entry 3 of game {session.game}: the game has moved on (its record ends at entry 3, written "
        "by "
        "another session); nothing was written; this session has caught up: the table is now as the record "
        "has it, so look, then try again"
    )
    assert load_game(store, session.game).table == one.table == other.table  # caught up
    with pytest.raises(IllegalError, match="cannot cover"):
        other.act("stake Bob 20", by=REFEREE)  # now refused for the real reason
    other.act("stake Bob 1", by=REFEREE)
    with pytest.raises(StaleError):
        one.correct()  # a correction from a stale table is refused the same way
    assert one.table == other.table == load_game(store, session.game).table
    assert [entry.seq for entry in load_game(store, session.game).entries] == [1, 2, 3, 4]


def test_a_game_is_started_with_all_its_players_or_not_at_all(store: GameStore) -> None:
    seats = [Sit("Ann", Fraction(50)), Sit("Bob", Fraction(50), BotPolicy.SETTER)]
    session = start(store, seats=seats)
    assert [(r.entry.seq, r.entry.actor, r.entry.item) for r in session.opening] == [
        (1, ANN, seats[0]),
        (2, BOB, seats[1]),
    ]
    assert [str(event) for r in session.opening for event in r.events] == [
        "Ann sits down with 50.00",
        "Ann takes the dice",
        "Bob (setter bot) sits down with 50.00",
    ]
    assert load_game(store, session.game).entries == tuple(session.entries)
    refereed = start(store, dice=DiceKind.TYPED, seats=seats, seated_by=REFEREE)
    assert [entry.actor for entry in refereed.entries] == [REFEREE, REFEREE]
    games = len(store.games())
    with pytest.raises(IllegalError, match="Ann"):  # a second Ann: nothing is written, not even the game
        start(store, seats=[*seats, Sit("Ann", Fraction(5))])
    assert len(store.games()) == games


# Two processes play one refereed game at once, each as fast as it can; each writes down every entry the
# record acknowledged to it.
_RIVAL = textwrap.dedent(
    """
    import json, random, sys
    from hazard.table import REFEREE, GameKind, GameStore, Session, StaleError, IllegalError

    path, game, name, rounds = sys.argv[1], int(sys.argv[2]), sys.argv[3], int(sys.argv[4])
    store = GameStore.open(path)
    session = Session.resume(store, game, kind=GameKind.REFEREE)
    dice = random.Random(name)
    acknowledged, refused = [], 0
    for _ in range(rounds):
        turn = session.table.turn
        line = "call 7" if turn.need.value == "call" else f"{dice.randint(1, 6)}-{dice.randint(1, 6)}"
        try:
            for done in session.act(line, by=REFEREE):
                acknowledged.append([done.entry.seq, done.entry.at, line])
        except StaleError:
            refused += 1  # caught up: the next line is chosen from the table as the record has it
        except IllegalError:
            session.catch_up()
    print(json.dumps({"acknowledged": acknowledged, "refused": refused}))
    """
)


def test_two_processes_writing_one_game_keep_it_whole(database: str) -> None:
    db = database
    store = GameStore.open(db)
    game = start(
        store, dice=DiceKind.TYPED, seats=[Sit("Ann", Fraction(10**6)), Sit("Bob", Fraction(10**6))]
    ).game
    env = {**os.environ, "PYTHONPATH": str(SRC)}
    rivals = [
        subprocess.Popen(
            [sys.executable, "-c", _RIVAL, str(db), str(game), name, "150"],
            stdout=subprocess.PIPE,
            text=True,
            env=env,
        )
        for name in ("one", "two")
    ]
    outputs = [rival.communicate(timeout=120)[0] for rival in rivals]
    assert [rival.returncode for rival in rivals] == [0, 0]
    results = [json.loads(output) for output in outputs]
    loaded = load_game(store, game)  # replays: one order of entries, each from the table before it
    by_seq = {entry.seq: entry for entry in loaded.entries}
    acknowledged = [seq for result in results for seq, _, _ in result["acknowledged"]]
    assert len(acknowledged) == len(set(acknowledged))  # no entry was acknowledged to both
    assert sorted(acknowledged) == list(range(3, len(loaded.entries) + 1))  # and every one is in the record
    for result in results:
        for seq, at, line in result["acknowledged"]:
            assert by_seq[seq].at == at
            assert action_text(by_seq[seq].item) == (line if line == "call 7" else f"throw {line}")
    assert len(loaded.entries) > 150  # both got to write


# --- a game killed with kill -9 -----------------------------------------------------------------------------

_CHILD = textwrap.dedent(
    """
    import sys, time
    from fractions import Fraction
    from hazard.core.rulesets import find_ruleset
    from hazard.table import REFEREE, Actor, BotBrains, BotPolicy, DiceKind, GameStore, Session, Sit
    from hazard.table import TableSpec, table_paytable

    path, mode = sys.argv[1], sys.argv[2]
    rules = find_ruleset("wikipedia")
    session = Session.start(
        GameStore.open(path),
        TableSpec(
            rules, table_paytable(rules)[0], dice=DiceKind.SEEDED, seed=21, bots=BotBrains(unit=Fraction(2))
        ),
    )
    for name, bot in (("Cas", "bystander"), ("Sam", "setter"), ("Bea", "bystander"), ("Sue", "setter")):
        session.play(Sit(name, Fraction(40), BotPolicy(bot)), by=Actor.player(name))
    print(session.game, flush=True)
    for step in range(20000):
        session.bots_act()
        session.throw(by=REFEREE)
        if mode == "mid-round" and len(session.entries) > 60 and session.table.round_begun:
            print("mid-round", flush=True)
            time.sleep(120)  # killed here; the bound only matters if the test itself died
            sys.exit(3)
        if mode == "busy" and step == 30:
            print("busy", flush=True)  # and it plays on, writing, until it is killed
    """
)


def reference(length: int) -> Session:
    """The same game as the child's, played here without interruption to at least ``length`` entries."""
    session = start(
        GameStore.open("sqlite://", in_memory=True),
        dice=DiceKind.SEEDED,
        seed=21,
        brains=BotBrains(unit=Fraction(2)),
    )
    sit(session, *BOTS)
    for _ in range(length):  # each step writes at least one entry
        if len(session.entries) >= length:
            break
        session.bots_act()
        session.throw(by=REFEREE)
    return session


@pytest.mark.parametrize("mode", ["mid-round", "busy"])
def test_a_game_killed_mid_round_resumes_with_identical_state(tmp_path: Path, mode: str) -> None:
    db = tmp_path / "killed.db"
    env = {**os.environ, "PYTHONPATH": str(SRC)}
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
    resumed = Session.resume(store, game, kind=GameKind.PLAY, brains=BotBrains(unit=Fraction(2)))
    count = len(resumed.entries)
    assert count > 60 if mode == "mid-round" else count >= 30
    if mode == "mid-round":
        assert resumed.table.round_begun
    whole = reference(count + 40)
    assert [(e.actor, e.item) for e in resumed.entries] == [(e.actor, e.item) for e in whole.entries[:count]]
    assert resumed.table == replay(whole.info, whole.entries[:count]).table
    # and it carries on exactly as the uninterrupted game did
    for _ in range(30):
        resumed.bots_act()
        resumed.throw(by=REFEREE)
    more = len(resumed.entries)
    assert [(e.actor, e.item) for e in resumed.entries] == [
        (e.actor, e.item) for e in reference(more).entries[:more]
    ]
    store.close()


# A game killed at the n-th SQL statement it sends: inside the transaction that starts it and seats its
# players,
# and inside each of the first appends after it. One process imports the table once and forks a game of its
# own for each point (the imports were most of each process's time); each game is a process of its own,
# killed with kill -9 as before, its output in a file of its own, and the parent says how each one ended.
_KILLED_AT = textwrap.dedent(
    """
    import os, random, signal, sys, traceback
    from fractions import Fraction
    from sqlalchemy import event
    from hazard.core.rulesets import find_ruleset
    from hazard.table import REFEREE, DiceKind, GameKind, GameStore, Session, Sit, TableSpec, table_paytable

    def play(path, statements):
        store = GameStore.open(path)
        sent = 0

        def count(statement):
            nonlocal sent
            sent += 1
            if sent == statements:
                os.kill(os.getpid(), signal.SIGKILL)

        @event.listens_for(store._engine, "connect")
        def trace(connection, record):
            connection.set_trace_callback(count)

        store._engine.dispose()  # new connections from here on, each traced
        rules = find_ruleset("wikipedia")
        seats = [Sit(name, Fraction(100)) for name in ("Ann", "Bob", "Cat")]
        session = Session.start(
            store, TableSpec(rules, table_paytable(rules)[0], dice=DiceKind.TYPED, kind=GameKind.REFEREE),
            seats=seats, seated_by=REFEREE,
        )
        print(f"started {session.game}", flush=True)
        dice = random.Random(7)
        for _ in range(40):
            roll = f"{dice.randint(1, 6)}-{dice.randint(1, 6)}"
            line = "call 7" if session.table.turn.need.value == "call" else roll
            for done in session.act(line, by=REFEREE):
                print(f"acknowledged {done.entry.seq}", flush=True)
        print("finished", flush=True)

    folder = sys.argv[1]
    children = {}
    for point in map(int, sys.argv[2:]):
        pid = os.fork()
        if pid == 0:
            for fd, name in ((1, "out"), (2, "err")):
                os.dup2(os.open(f"{folder}/{point}.{name}", os.O_WRONLY | os.O_CREAT | os.O_TRUNC), fd)
            code = 0
            try:
                play(f"{folder}/{point}.db", point)
            except BaseException:
                traceback.print_exc()
                code = 1
            sys.stdout.flush()
            sys.stderr.flush()
            os._exit(code)
        children[pid] = point
    for pid, point in children.items():
        print(point, os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1]), flush=True)
    """
)


@pytest.mark.slow
def test_a_game_killed_at_any_statement_keeps_everything_it_acknowledged(tmp_path: Path) -> None:
    """kill -9 at each of the first statements: setup is whole or absent; every acknowledged entry is kept."""
    env = {**os.environ, "PYTHONPATH": str(SRC)}
    points = [*range(1, 25), *range(25, 120, 10), 10**9]  # the last: never killed
    parent = subprocess.run(
        [sys.executable, "-c", _KILLED_AT, str(tmp_path), *map(str, points)],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
        check=False,
    )
    assert parent.returncode == 0, parent.stderr
    ended = {int(point): int(code) for point, code in (line.split() for line in parent.stdout.splitlines())}
    assert sorted(ended) == sorted(points), parent.stdout
    outcomes = set()
    for point in points:
        out = (tmp_path / f"{point}.out").read_text()
        err = (tmp_path / f"{point}.err").read_text()
        lines = out.split()
        killed = ended[point] == -signal.SIGKILL
        assert killed or (ended[point] == 0 and "finished" in lines), (point, err)
        store = GameStore.open(str(tmp_path / f"{point}.db"))
        games = store.games()
        if "started" not in out:
            outcomes.add("killed while starting")
            assert games == [] or [g.entries for g in games] == [3], point  # all three seated, or no game
            if not games:
                continue
        (game,) = games
        loaded = load_game(store, game.id)  # whatever was cut short, the record replays
        assert [player.name for player in loaded.table.players] == ["Ann", "Bob", "Cat"]
        acknowledged = [int(n) for word, n in itertools.pairwise(lines) if word == "acknowledged"]
        assert acknowledged == list(range(4, 4 + len(acknowledged))), point
        last = acknowledged[-1] if acknowledged else 3
        assert len(loaded.entries) in (last, last + 1), point  # at most one written but not yet acknowledged
        outcomes.add("killed in play" if killed else "finished")
        resumed = Session.resume(store, game.id, kind=GameKind.REFEREE)
        resumed.act("call 7" if resumed.table.turn.need is Need.CALL else "2-2", by=REFEREE)
        store.close()
    assert outcomes == {"killed while starting", "killed in play", "finished"}
