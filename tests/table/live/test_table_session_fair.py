"""Live games with fair dice: a commitment before each hand and its reveal after it, the seeds the
players set, a fair game killed and resumed, and a close that reveals the hand in play."""

from __future__ import annotations

import contextlib
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
from typing import Any

import pytest
from tests.paths import SRC
from tests.records import sql
from tests.table.live.session_helpers import ANN, BOB, CAT, _next_line, sit, start

from hazard.core.errors import HazardError, IllegalError, InvalidError
from hazard.table.fair.dice import DiceKind
from hazard.table.live.session import Session
from hazard.table.live.timeline import Entry, GameKind, load_game
from hazard.table.record.store import GameStore
from hazard.table.rules.actions import REFEREE, Actor, ActorError, BotPolicy, Roll, SetSeed, Sit
from hazard.table.rules.state import Need

# --- fair dice ---------------------------------------------------------------------------------------------


def fair_game(store: GameStore, ruleset: str = "wikipedia") -> Session:
    return start(
        store,
        ruleset,
        dice=DiceKind.FAIR,
        seats=[Sit("Ann", Fraction(1000)), Sit("Bob", Fraction(1000)), Sit("Cat", Fraction(1000))],
    )


def play_fair(session: Session, throws: int) -> None:
    """The caster calls 7 where he must, and throws: ``throws`` times."""
    for _ in range(throws):
        caster = Actor.player(session.table.caster or "")
        if session.table.turn.need is Need.CALL:
            session.act("call 7", by=caster)
        session.act("throw", by=caster)


def check_every_revealed_hand(session: Session) -> int:
    """Every revealed hand's seed hashes to its commitment and gives its throws: the throws checked."""
    from hazard.table import commitment, fair_ledger, fair_throw

    checked = 0
    for hand in fair_ledger(session.info, session.entries).hands:
        if hand.server_seed is None:
            continue
        seed = bytes.fromhex(hand.server_seed)
        assert commitment(seed) == hand.commitment
        assert hand.client_seed is not None
        for _, nonce, roll in hand.throws:
            assert fair_throw(seed, hand.client_seed, nonce) == roll
            checked += 1
    return checked


def test_fair_dice_commit_before_each_hand_and_reveal_after_it(store: GameStore) -> None:
    from hazard.table import ClientSeeded, Committed, HandOpened, Revealed, fair_ledger

    session = fair_game(store)
    # The players seated with the game, the seeds the dice draw for them, then the first hand's commitment:
    # the server chooses nothing once it has committed (issue 19, finding 8).
    opening = [entry.item for entry in session.entries]
    assert [type(item).__name__ for item in opening] == ["Sit"] * 3 + ["ClientSeeded"] * 3 + ["Committed"]
    assert [entry.actor.kind.value for entry in session.entries[3:]] == ["dice"] * 4
    session.act("seed ann's-own", by=ANN)
    for _ in range(3000):  # until the dice have passed twice (three lost rounds in a row pass them)
        play_fair(session, 1)
        if session.fair is not None and session.fair.hand is not None and session.fair.hand.number >= 3:
            break
    hands = fair_ledger(session.info, session.entries).hands
    assert len(hands) >= 3
    items = [entry.item for entry in session.entries]
    first_throw = next(i for i, item in enumerate(items) if isinstance(item, Roll))
    assert isinstance(items[first_throw - 1], HandOpened)
    drawn = [item for item in items[:first_throw] if isinstance(item, ClientSeeded)]
    assert [(s.player, len(s.seed)) for s in drawn] == [("Ann", 16), ("Bob", 16), ("Cat", 16), ("Ann", 9)]
    assert hands[0].client_seed == ",".join(s.seed for s in drawn[3:] + drawn[1:3])
    for before, after in itertools.pairwise(hands):
        assert before.server_seed is not None  # every hand but the last has ended and shown its seed
        reveal = next(
            i for i, item in enumerate(items) if item == Revealed(before.number, before.server_seed)
        )
        assert items[reveal + 1] == Committed(after.number, after.commitment)  # the next one at once
    assert check_every_revealed_hand(session) > 0
    assert load_game(store, session.game).table == session.table


def test_the_seed_of_a_hand_in_play_is_shown_nowhere(store: GameStore, tmp_path: Path) -> None:
    from hazard.cli.tableview import entries_view, table_view
    from hazard.table import game_json

    session = fair_game(store)
    play_fair(session, 3)
    hand = session.fair.current if session.fair else None
    assert hand is not None
    assert session.secret is not None
    secret = session.secret.hex()
    assert store.secret(session.game, hand.number) == session.secret  # kept, for a resume
    loaded = load_game(store, session.game)
    shown = [
        json.dumps(game_json(loaded)),
        "\n".join(entry_text_of(entry) for entry in loaded.entries),
        render(entries_view(loaded)),
        render(table_view(loaded.table, hand=hand)),
        subprocess.run(
            [
                sys.executable,
                "-m",
                "hazard",
                "record",
                "show",
                str(session.game),
                "--db",
                str(tmp_path / "games.db"),
            ],
            capture_output=True,
            text=True,
            check=True,
        ).stdout,
    ]
    for text in shown:
        assert secret not in text
    assert any(hand.commitment in text for text in shown)
    assert game_json(loaded)["hands"][-1]["server_seed"] is None


def entry_text_of(entry: Entry) -> str:
    from hazard.table.live.timeline import entry_text

    return entry_text(entry)


def render(renderable: object) -> str:
    from rich.console import Console

    console = Console(width=200, record=True, file=open(os.devnull, "w"))  # noqa: SIM115
    console.print(renderable)
    return console.export_text()


def test_a_seed_is_set_between_hands_by_its_player_in_a_fair_game_only(store: GameStore) -> None:
    session = fair_game(store)
    with pytest.raises(IllegalError, match="a player sets only his own seed"):
        session.set_seed(SetSeed("Bob", "mine"), by=ANN)
    with pytest.raises(InvalidError, match="invalid client seed"):
        session.act("seed " + "x" * 65, by=ANN)
    session.act("seed Cat cat's", by=REFEREE)  # the referee sets anyone's
    play_fair(session, 1)
    with pytest.raises(IllegalError, match="set a seed between hands"):
        session.act("seed later", by=ANN)
    other = start(store, dice=DiceKind.SEEDED, seed=3, seats=[Sit("Ann", Fraction(10))])
    with pytest.raises(IllegalError, match="not fair dice"):
        other.act("seed mine", by=ANN)


def test_a_seat_sets_one_seed_a_hand_before_its_first_throw(store: GameStore) -> None:
    """Issue 19, finding 8: a page sets its seat's seed once a hand; a second one for the same hand, one for a
    hand that is over or not yet committed, and one after the hand's first throw are refused, each saying
    why, and write nothing."""
    session = fair_game(store)
    assert session.fair is not None
    first = session.set_seed(SetSeed("Ann", "a1", 1), by=ANN)
    assert session.fair.fresh_entry("Ann") == first.entry.seq
    written = len(session.entries)
    with pytest.raises(
        IllegalError, match=rf"Ann's seed for this hand is set already \(entry {first.entry.seq}\)"
    ):
        session.act("seed a2", by=ANN)
    with pytest.raises(IllegalError, match="set already"):
        session.set_seed(SetSeed("Ann", "a3"), by=REFEREE)  # the referee sets it for him no second time
    with pytest.raises(
        IllegalError, match="for hand 2: that hand is not committed yet; the dice are committed to hand 1"
    ):
        session.set_seed(SetSeed("Bob", "b1", 2), by=BOB)
    assert len(session.entries) == written
    session.set_seed(SetSeed("Bob", "b1", 1), by=BOB)  # each seat sets its own
    play_fair(session, 1)
    with pytest.raises(IllegalError, match="illegal seed for Cat in hand 1: its dice have been thrown"):
        session.set_seed(SetSeed("Cat", "c1", 1), by=CAT)
    for _ in range(3000):  # until the dice pass
        if session.fair.current is not None and session.fair.current.number > 1:
            break
        play_fair(session, 1)
    hand = session.fair.current
    assert hand is not None
    assert hand.number == 2
    assert session.fair.fresh == ()  # a new hand: every seat may set a seed again
    with pytest.raises(IllegalError, match="for hand 1: that hand is over; the dice are committed to hand 2"):
        session.set_seed(SetSeed("Ann", "late", 1), by=ANN)
    session.set_seed(SetSeed("Ann", "a-2", 2), by=ANN)
    assert session.fair.seed_of("Ann") == "a-2"


def test_a_server_grinding_a_bots_seed_has_nothing_left_to_grind_against(
    store: GameStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 19, finding 8, the attack: a server that, whenever it draws a seed for a seat that has none (a
    bot here), tries seeds until the hand committed now begins with four 7s. When the dice drew those seeds at
    a hand's first throw, after its commitment and after Ann's own seed, it always found one (276 tries in the
    issue's run); now they are drawn before the commitment they serve, and before the players' own seeds for
    that hand, so there is nothing to try them against: the grinder's aim is met in no hand, and the record
    shows every drawn seed before the commitment of every hand it is part of."""
    import hashlib

    from hazard.table import game_json, verify_game
    from hazard.table.fair.commit_reveal import ClientSeeded, Committed, HandOpened, fair_throw
    from hazard.table.live import fair_hands

    servers = (hashlib.sha256(f"server {n}".encode()).digest() for n in itertools.count())
    monkeypatch.setattr(fair_hands, "new_server_seed", lambda: next(servers))
    session = start(store, dice=DiceKind.FAIR)
    sit(session, ("Ann", 1000), ("Bob", 1000, BotPolicy.BYSTANDER))
    tries: list[int] = []

    def grind() -> str:
        # Every seed known now, and the seed the dice are committed to now: the best a server can do.
        assert session.fair is not None
        assert session.secret is not None
        parts = [session.fair.seed_of(p.name) for p in session.table.players]
        for n in range(100_000):
            candidate = f"{n:016x}"
            client = ",".join(candidate if part is None else part for part in parts)
            if all(fair_throw(session.secret, client, k).total == 7 for k in range(4)):
                tries.append(n)
                return candidate
        raise AssertionError("no seed found")

    monkeypatch.setattr(fair_hands, "new_client_seed", grind)
    seeded: set[int] = set()
    for _ in range(3000):  # until hand 3 is committed
        assert session.fair is not None
        hand = session.fair.current
        assert hand is not None
        if hand.number >= 3:
            break
        if hand.number not in seeded:  # Ann sets a seed of her own after each commitment
            seeded.add(hand.number)
            session.act(f"seed ann-{hand.number}", by=ANN)
        play_fair(session, 1)
    assert tries  # the grinder was asked, and found what it looked for
    loaded = load_game(store, session.game)
    for hand in loaded.ledger.hands:
        first = [roll.total for _, _, roll in hand.throws[:4]]
        assert first != [7, 7, 7, 7], f"hand {hand.number} begins as the grinder chose"
    committed = {e.item.hand: e.seq for e in loaded.entries if isinstance(e.item, Committed)}
    opened = {e.item.hand: e.seq for e in loaded.entries if isinstance(e.item, HandOpened)}
    drawn = [
        e.seq for e in loaded.entries if isinstance(e.item, ClientSeeded) and e.actor.kind.value == "dice"
    ]
    assert drawn
    for number, start_at in committed.items():
        assert not any(start_at < seq < opened.get(number, len(loaded.entries) + 1) for seq in drawn)
    result = verify_game(game_json(loaded))
    assert result.ok, result.problem
    assert result.warnings == ()  # Ann's own seed, set after each commitment, is in each hand
    assert all([seed.player for seed in hand.chosen] == ["Ann"] for hand in result.checked if hand.throws)


def test_a_throw_of_the_fair_dice_cannot_be_corrected(store: GameStore) -> None:
    session = fair_game(store)
    play_fair(session, 2)
    throw = next(entry.seq for entry in session.entries if isinstance(entry.item, Roll))
    with pytest.raises(IllegalError, match="a throw of the fair dice, which stand as thrown"):
        session.correct(throw)
    commit = next(entry.seq for entry in session.entries if entry.actor.kind.value == "dice")
    with pytest.raises(IllegalError, match="a note of the fair dice"):
        session.correct(commit)


def test_a_fair_game_whose_kept_seed_is_lost_is_refused_on_resume(store: GameStore, db: Path) -> None:
    session = fair_game(store)
    play_fair(session, 2)
    sql(db, "DELETE FROM hazard_secrets")
    with pytest.raises(InvalidError, match="is not kept"):
        Session.resume(store, session.game, kind=GameKind.PLAY)


_FAIR_CHILD = textwrap.dedent(
    """
    import sys
    from fractions import Fraction
    from hazard.core.rulesets import find_ruleset
    from hazard.table import Actor, DiceKind, GameStore, Session, Sit, TableSpec, table_paytable

    rules = find_ruleset("wikipedia")
    session = Session.start(
        GameStore.open(sys.argv[1]), TableSpec(rules, table_paytable(rules)[0], dice=DiceKind.FAIR),
        seats=[Sit(name, Fraction(1000)) for name in ("Ann", "Bob")],
    )
    print(session.game, flush=True)
    for _ in range(10000):
        caster = Actor.player(session.table.caster)
        if session.table.turn.need.value == "call":
            session.act("call 7", by=caster)
        session.act("throw", by=caster)
        hand = session.fair.current
        if hand is not None and len(hand.throws) >= 3 and hand.number >= 2:
            print("mid-hand", flush=True)
            sys.stdin.readline()  # killed here
    """
)


def test_fair_dice_killed_mid_hand_resume_and_every_throw_verifies(tmp_path: Path) -> None:
    db = tmp_path / "fair.db"
    env = {**os.environ, "PYTHONPATH": str(SRC)}
    child = subprocess.Popen(
        [sys.executable, "-c", _FAIR_CHILD, str(db)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
        env=env,
    )
    lines: queue.Queue[str] = queue.Queue()

    def pump() -> None:
        assert child.stdout is not None
        for line in child.stdout:
            lines.put(line.strip())

    threading.Thread(target=pump, daemon=True).start()
    try:
        game = int(_next_line(lines))
        assert _next_line(lines) == "mid-hand"
    finally:
        child.send_signal(signal.SIGKILL)
        child.wait()
    store = GameStore.open(str(db))
    session = Session.resume(store, game, kind=GameKind.PLAY)
    assert session.fair is not None
    hand = session.fair.current
    assert hand is not None
    assert len(hand.throws) >= 3  # mid-hand, its seed still secret
    number = hand.number
    for _ in range(500):  # finish the hand: the dice pass, its seed is shown
        play_fair(session, 1)
        if session.fair.current is None or session.fair.current.number > number:
            break
    assert check_every_revealed_hand(session) >= 3
    again = Session.resume(store, game, kind=GameKind.PLAY)
    assert check_every_revealed_hand(again) == check_every_revealed_hand(session)
    store.close()


# --- closing (issue 19, finding 5 and the close's half of 9) ------------------------------------------------


def _fair_mid_hand(store: GameStore) -> Session:
    """A table of fair dice in the middle of its first hand: seats set, the dice thrown once."""
    session = start(store, dice=DiceKind.FAIR, kind=GameKind.WEB)
    for name in ("Ann", "Bob"):
        session.act(f"sit {name} 50", by=Actor.player(name))
    session.act("call 7", by=ANN)
    while session.fair is not None and session.fair.current is not None and not session.fair.current.throws:
        session.act("throw", by=ANN)
    return session


def test_a_close_is_an_entry_and_reveals_the_hand_in_play(store: GameStore) -> None:
    from hazard.table.fair.commit_reveal import Revealed, commitment
    from hazard.table.live.timeline import game_json
    from hazard.table.rules.closing import Close

    session = _fair_mid_hand(store)
    hand = session.fair.current if session.fair is not None else None
    assert hand is not None
    assert hand.server_seed is None  # mid-hand: its seed is still secret
    with pytest.raises(ActorError, match="only its host closes"):
        session.close(by=ANN)
    before = len(session.entries)
    done = session.close()
    reveal, close = (recorded.entry for recorded in done)
    assert (reveal.seq, close.seq) == (before + 1, before + 2)
    assert isinstance(reveal.item, Revealed)
    assert commitment(bytes.fromhex(reveal.item.server_seed)) == hand.commitment
    assert isinstance(close.item, Close)
    assert close.actor == REFEREE
    loaded = load_game(store, session.game)
    assert loaded.closed
    assert [entry.item for entry in loaded.entries[-2:]] == [reveal.item, Close()]
    exported = game_json(loaded)
    assert exported["closed"] is True
    assert exported["hands"][0]["server_seed"] == reveal.item.server_seed
    assert exported["entries"][-1]["entry"] == {"type": "close"}
    assert exported["entries"][-1]["text"] == "the table is closed: nothing more may be done"
    assert game_json(load_game(store, start(store).game))["closed"] is False
    assert store.closed() >= {session.game}


@pytest.mark.parametrize(
    "attempt",
    [
        lambda s: s.act("sit Cat 10", by=CAT),
        lambda s: s.act("stake 1", by=BOB),
        lambda s: s.act("throw", by=ANN),
        lambda s: s.act("seed lucky", by=BOB),
        lambda s: s.act("leave", by=BOB),
        lambda s: s.play(Sit("Cat", Fraction(10)), by=CAT),
        lambda s: s.throw(by=ANN),
        lambda s: s.correct(3),
        lambda s: s.close(),
    ],
)
def test_nothing_more_may_be_done_at_a_closed_table_here_resumed_or_at_another_writer(
    store: GameStore, db: Path, attempt: Any
) -> None:
    session = _fair_mid_hand(store)
    other = Session.resume(GameStore.open(str(db)), session.game, kind=GameKind.WEB)  # another process
    session.close()
    head = len(load_game(store, session.game).entries)
    with pytest.raises(IllegalError, match="closed"):
        attempt(session)
    with pytest.raises(IllegalError, match="closed"):
        attempt(Session.resume(store, session.game, kind=GameKind.WEB))
    with contextlib.suppress(HazardError):  # stale, or refused by its table before it learns of the close
        attempt(other)
    other.catch_up()  # what a writer does on either (the hub, on a refusal, where the head has moved)
    assert other.closed
    with pytest.raises(IllegalError, match="closed"):
        attempt(other)
    assert session.bots_act() == []
    assert len(load_game(store, session.game).entries) == head  # nothing was written


def test_a_close_at_a_table_between_hands_or_of_other_dice_reveals_nothing(store: GameStore) -> None:
    from hazard.table.rules.closing import Close

    session = start(store, dice=DiceKind.SEEDED, seed=3)
    session.act("sit Ann 10", by=ANN)
    (done,) = session.close()
    assert isinstance(done.entry.item, Close)
    resumed = Session.resume(store, session.game, kind=GameKind.PLAY)
    assert resumed.closed
    assert resumed.bots_act() == []


def test_an_action_that_ends_a_hand_returns_its_reveal_and_the_next_commitment(store: GameStore) -> None:
    from hazard.table.fair.commit_reveal import ClientSeeded, Committed, Revealed

    session = start(store, dice=DiceKind.FAIR, kind=GameKind.WEB)
    for name in ("Ann", "Bob"):
        session.act(f"sit {name} 50", by=Actor.player(name))
    session.take_news()
    session.act("call 7", by=ANN)
    for _ in range(100):
        if session.table.turn.need is Need.CALL:
            break
        session.act("throw", by=ANN)
    done = session.act("pass", by=Actor.player(session.table.caster or ""))
    kinds = [type(recorded.entry.item) for recorded in done]
    # The pass, then the hand's end: its reveal, the seeds drawn for the players who have none (Ann and Bob
    # sat after the first commitment), the next commitment; returned, not only written.
    assert kinds[1:] == [Revealed, ClientSeeded, ClientSeeded, Committed]
    news = [recorded.entry.seq for recorded in session.take_news()]
    assert news == list(range(news[0], len(session.entries) + 1))  # every entry, in order, once
    assert news[0] == 4  # from the commitment, the two sits: the call on
