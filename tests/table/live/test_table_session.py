"""Live games: a session started, played and refused; its dice; and random games with bots that
conserve money and replay exactly."""

from __future__ import annotations

import contextlib
import re
from fractions import Fraction
from typing import Any

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st
from tests.strategies import throw_of as t
from tests.table.live.session_helpers import ANN, BEN, BOB, sit, start, stored

from hazard.core.engine import Mover, to_move
from hazard.core.errors import HazardError, IllegalError, InvalidError
from hazard.core.propositions import SOURCE_BETS, SOURCE_EXAMPLES
from hazard.core.rules import StakeArrangement
from hazard.core.rulesets import builtin_rulesets, find_paytable, find_ruleset
from hazard.table import TableSpec
from hazard.table.fair.dice import DiceKind, SeededDice
from hazard.table.live.session import Recorded, Session, check_seats, table_paytable
from hazard.table.live.timeline import GameKind, effective_actions, load_game
from hazard.table.record.store import GameStore
from hazard.table.rules.actions import (
    REFEREE,
    Actor,
    ActorError,
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
    ThrowDice,
    Withdraw,
    action_text,
)
from hazard.table.rules.bots import BotBrains
from hazard.table.rules.events import BetSettled, RoundSettled, Thrown
from hazard.table.rules.money import MoneyStyle
from hazard.table.rules.state import Table

WIKIPEDIA = find_ruleset("wikipedia")


# --- starting, playing, refusing ----------------------------------------------------------------------------


def test_a_refusal_shows_its_sums_as_the_table_shows_money(store: GameStore) -> None:
    session = start(store, dice=DiceKind.TYPED)
    session.play(Sit("Ann", Fraction(1, 2)), by=REFEREE)
    session.play(Sit("Bob", Fraction(1, 10)), by=REFEREE)
    refusals = {}
    for style in MoneyStyle:
        session.money = style
        for line in ("stake Bob 7s 6d", "offer Bob 15s on 4 or 10 before 7"):
            with pytest.raises(IllegalError) as caught:
                session.act(line, by=REFEREE)
            refusals[style, line.split()[0]] = str(caught.value)
    lsd = MoneyStyle.LSD
    assert (
        "stake of 7s 6d by 'Bob': Bob cannot cover it (the caster could win 15s; Bob has 2s free)"
        in (refusals[lsd, "stake"])
    )
    assert refusals[lsd, "offer"].endswith("15s is more than the 2s free")
    assert "stake of 3/8 by 'Bob'" in refusals[MoneyStyle.EXACT, "stake"]
    assert "stake of 3/8 by 'Bob'" in refusals[MoneyStyle.DECIMAL, "stake"]  # 0.38 would round
    assert "the caster could win 0.75; Bob has 0.10 free" in refusals[MoneyStyle.DECIMAL, "stake"]
    assert all(
        "/1680" not in text and "1/10" not in text for (style, _), text in refusals.items() if style is lsd
    )


def test_dice_kinds() -> None:
    assert [kind.value for kind in DiceKind] == ["secure", "seeded", "typed", "fair"]
    assert [kind.own for kind in DiceKind] == [True, True, False, True]
    assert DiceKind.SEEDED.describe(7) == "seeded dice (seed 7)"
    assert DiceKind.TYPED.describe() == "typed dice"
    assert [kind.label for kind in GameKind] == ["hazard play", "hazard referee", "hazard web"]
    assert GameKind.WEB.resume_text(3) == "open it at its table in hazard serve (table 3)"


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"dice": DiceKind.SEEDED}, "invalid dice: seeded dice need a seed"),
        (
            {"dice": DiceKind.SECURE, "seed": 3},
            "invalid seed 3: only seeded dice take a seed, not secure dice",
        ),
        ({"dice": DiceKind.SEEDED, "seed": -3}, "invalid seed -3"),
        ({"dice": DiceKind.SEEDED, "seed": 2**63}, "invalid seed 9223372036854775808"),
    ],
)
def test_a_session_needs_a_dice_source(store: GameStore, options: dict[str, Any], message: str) -> None:
    with pytest.raises(InvalidError, match=message):
        start(store, **options)
    assert store.games() == []  # nothing recorded for a game that never started


def test_a_session_records_its_setup(store: GameStore) -> None:
    session = start(
        store, "ecws-1674", dice=DiceKind.SEEDED, seed=5, label="club", stakes=StakeArrangement.BANK
    )
    info = load_game(store, session.game).info
    assert (info.dice, info.seed, info.label, info.stakes, info.kind) == (
        DiceKind.SEEDED,
        5,
        "club",
        StakeArrangement.BANK,
        GameKind.PLAY,
    )
    assert session.table.stakes is StakeArrangement.BANK
    assert session.info == info
    referee = start(store, dice=DiceKind.TYPED, settings={"room": "back"})
    assert load_game(store, referee.game).info.label == "hazard referee"  # a kind's label when none is given
    assert load_game(store, referee.game).info.settings == {"room": "back"}


def test_the_paytable_a_table_settles_by() -> None:
    britannica = find_ruleset("britannica-1911")
    assert britannica.paytable is None
    assert table_paytable(britannica) == (find_paytable("even"), True)  # even money, and the flag says why
    assert table_paytable(WIKIPEDIA) == (find_paytable("wikipedia"), False)
    assert table_paytable(WIKIPEDIA, "true-odds") == (find_paytable("true-odds"), False)


def test_check_seats_tries_the_seats_at_an_empty_table() -> None:
    pays = find_paytable("wikipedia")
    check_seats(WIKIPEDIA, pays, None, [Sit("Ann", Fraction(3)), Sit("Bob", Fraction(3), BotPolicy.SETTER)])
    with pytest.raises(IllegalError, match="illegal seat for 'ann': someone of that name is already"):
        check_seats(WIKIPEDIA, pays, None, [Sit("Ann", Fraction(3)), Sit("ann", Fraction(3))])
    with pytest.raises(InvalidError, match="invalid player name 'referee'"):
        check_seats(WIKIPEDIA, pays, None, [Sit("referee", Fraction(3))])


def test_every_action_is_recorded_before_the_table_moves(store: GameStore) -> None:
    session = start(store, dice=DiceKind.TYPED)
    moves: list[tuple[Actor, TableAction]] = [
        (ANN, Sit("Ann", Fraction(50))),
        (REFEREE, Sit("Ben", Fraction(50))),
        (BEN, Stake("Ben", Fraction(5))),
    ]
    for actor, action in moves:
        done = session.play(action, by=actor)
        assert isinstance(done, Recorded)
        assert (done.entry.actor, done.entry.item) == (actor, action)
    assert stored(store, session) == moves
    assert [entry.seq for entry in session.entries] == [1, 2, 3]
    done = session.play(Call(7), by=ANN)
    assert [str(e) for e in done.events] == ["the caster calls 7 as the main"]
    assert done.entry == session.entries[-1]
    assert load_game(store, session.game).table == session.table
    assert session.people == ["Ann", "Ben"]
    assert session.replayed().table == session.table


@pytest.mark.parametrize(
    ("actor", "action", "error", "fragment"),
    [
        (REFEREE, t(7), IllegalError, "Ann must call a main first"),
        (REFEREE, Stake("Zed", Fraction(5)), IllegalError, "illegal player 'Zed'"),
        (BEN, Stake("Ben", Fraction(50)), IllegalError, "Ben cannot cover it"),
        (BEN, Stake("Ben", Fraction(0)), InvalidError, "above 0"),
        (
            BEN,
            OfferBet("Ben", "4 or 13 before 7", Fraction(1)),
            InvalidError,
            "invalid proposition '4 or 13 before 7'",
        ),
        (REFEREE, Sit("ANN", Fraction(5)), IllegalError, "already at the table"),
        (ANN, Call(3), IllegalError, "illegal main 3"),
        # who may act
        (BEN, Call(7), ActorError, "illegal call 7 by Ben at the wikipedia table of 2 players"),
        (ANN, Stake("Ben", Fraction(1)), ActorError, "a player stakes only for himself"),
        (BEN, Sit("Cat", Fraction(1)), ActorError, "a player sits only himself down"),
        (Actor.player("Zed"), PassDice(), ActorError, "Zed is not at the table (seated: Ann, Ben)"),
        (ANN, Stake("Ben", Fraction(1), consent=True), ActorError, "a player stakes only for himself"),
    ],
    ids=repr,
)
def test_a_refused_action_writes_nothing_and_changes_nothing(
    store: GameStore, actor: Actor, action: TableAction, error: type[HazardError], fragment: str
) -> None:
    session = start(store, dice=DiceKind.TYPED)
    sit(session, ("Ann", 50), ("Ben", 50))
    before = session.table
    with pytest.raises(error) as caught:
        session.play(action, by=actor)
    assert type(caught.value) is error
    assert fragment in str(caught.value)
    assert session.table is before
    assert len(session.entries) == 2
    assert len(stored(store, session)) == 2


def test_act_reads_what_a_person_typed(store: GameStore) -> None:
    session = start(store, dice=DiceKind.TYPED)
    assert [r.entry.item for r in session.act("sit Ann 50", by=ANN)] == [Sit("Ann", Fraction(50))]
    session.act("sit Ben £20 10s", by=REFEREE)
    (done,) = session.act("stake 5/2", by=BEN)  # his own stake, his name left out
    assert (done.entry.actor, done.entry.item) == (BEN, Stake("Ben", Fraction(5, 2)))
    assert [str(e) for e in done.events] == ["Ben stakes 2.50 against Ann"]
    session.act("offer ben 1 on next odd at 3/2", by=REFEREE)  # any case names the seated player
    session.act("take 1", by=ANN)
    session.act("7", by=ANN)  # a call
    (thrown,) = session.act("3 4", by=REFEREE)  # the referee types the real dice
    assert thrown.entry.item == Roll(3, 4)
    assert isinstance(thrown.events[0], Thrown)
    assert [entry.item for entry in session.entries[2:]] == [
        Stake("Ben", Fraction(5, 2)),
        OfferBet("Ben", "next odd", Fraction(1), Fraction(3, 2)),
        TakeBet(1, "Ann"),
        Call(7),
        Roll(3, 4),
    ]
    assert load_game(store, session.game).table == session.table
    with pytest.raises(InvalidError, match="invalid command 'stake 5': the referee names the player"):
        session.act("stake 5", by=REFEREE)
    with pytest.raises(InvalidError, match="unknown command 'dance'"):
        session.act("dance", by=ANN)
    assert len(session.entries) == 7


def test_typed_in_throws_are_played_not_thrown(store: GameStore) -> None:
    session = start(store, dice=DiceKind.TYPED)
    sit(session, ("Ann", 50))
    session.play(Call(7), by=ANN)
    with pytest.raises(
        IllegalError, match=f"illegal throw by Ann in game {session.game}: its throws are real dice, typed in"
    ):
        session.throw(by=ANN)
    with pytest.raises(IllegalError, match="its throws are real dice"):
        session.act("throw", by=ANN)
    session.play(t(11), by=ANN)
    assert session.table.rounds_played == 1


def test_a_game_with_its_own_dice_refuses_a_named_roll(store: GameStore) -> None:
    session = start(store, dice=DiceKind.SEEDED, seed=5)
    sit(session, ("Ann", 50), ("Bob", 50))
    session.act("call 7", by=ANN)
    before = session.table
    for text in ("3-4", "throw 3-4", "34"):
        with pytest.raises(IllegalError) as caught:
            session.act(text, by=ANN)
        message = str(caught.value)
        assert message.startswith(f"illegal throw 3-4 by Ann in game {session.game}: "), message
        assert "its own seeded dice (seed 5)" in message
        assert "ask for a throw" in message
    with pytest.raises(
        IllegalError, match=r"by the referee in game \d+: the game throws its own seeded dice"
    ):
        session.play(Roll(3, 4), by=REFEREE)
    assert session.table is before
    assert len(session.entries) == 3
    (done,) = session.act(ThrowDice(), by=ANN)
    assert done.entry.item == SeededDice(5).throw(0)


def test_seeded_dice_throw_the_seeds_throws_in_order(store: GameStore) -> None:
    session = start(store, "ecws-1674", dice=DiceKind.SEEDED, seed=77)
    sit(session, ("Ann", 50))
    for _ in range(30):
        (done,) = session.throw(by=ANN)
        assert done.entry.actor == ANN
    throws = [entry.item for entry in session.entries[1:]]
    assert throws == [SeededDice(77).throw(i) for i in range(30)]


def test_secure_dice_play_a_game(store: GameStore) -> None:
    session = start(store, "sca-isenfir", dice=DiceKind.SECURE)
    sit(session, ("Ann", 50), ("Ben", 50))
    for _ in range(20):
        session.throw(by=REFEREE)
    assert session.table.throws == 20
    assert Session.resume(store, session.game, kind=GameKind.PLAY).table == session.table


class CountingDice:
    """Seeded dice that note every throw asked of them."""

    def __init__(self, seed: int) -> None:
        self.inner = SeededDice(seed)
        self.asked: list[int] = []

    def throw(self, index: int) -> Roll:
        self.asked.append(index)
        return self.inner.throw(index)


def test_a_refused_throw_reveals_nothing(store: GameStore) -> None:
    """A throw that is refused (the caster must call first; not the caster's throw) never asks the dice: its
    message shows no roll, and the next allowed throw shows what it would have shown anyway."""
    session = start(store, dice=DiceKind.SEEDED, seed=5)
    sit(session, ("Ann", 50), ("Bob", 50))
    dice = CountingDice(5)
    session.dice = dice
    refusals = []
    for actor in (ANN, REFEREE, BOB):
        with pytest.raises(IllegalError) as caught:
            session.act("throw", by=actor)
        refusals.append(str(caught.value))
    assert refusals[0].startswith("illegal throw by Ann in round (no main yet): Ann must call a main first")
    session.act("call 7", by=ANN)
    with pytest.raises(IllegalError) as caught:
        session.throw(by=BOB)  # Bob is not the caster
    refusals.append(str(caught.value))
    assert "only the caster, Ann, throws the dice" in refusals[-1]
    for message in refusals:
        assert re.search(r"[1-6]\s*-\s*[1-6]", message) is None, message
    assert dice.asked == []
    assert len(session.entries) == 3
    (done,) = session.throw(by=ANN)
    assert dice.asked == [0]
    assert done.entry.item == SeededDice(5).throw(0) == Roll(4, 6)


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
        (a.bankroll for _, _, a in effective_actions(session.entries) if isinstance(a, Sit)),
        Fraction(0),
    )


def check(session: Session) -> None:
    table = session.table
    assert table.total_money == sat_money(session)
    for player in table.players:
        assert player.bankroll >= 0, player
        assert table.available(player.name) >= 0, player


def person_action(data: st.DataObject, table: Table) -> tuple[Actor, TableAction]:
    names = [p.name for p in table.players]
    who = data.draw(st.sampled_from([*names, "Nobody"]))
    actor = data.draw(
        st.sampled_from([Actor.player(who), Actor.player(who), REFEREE, *map(Actor.player, names)])
    )
    amount = data.draw(st.sampled_from(AMOUNTS))
    numbers = [b.number for b in table.side_bets] or [1]
    kind = data.draw(st.sampled_from(["stake", "withdraw", "offer", "take", "cancel", "pass", "call", "sit"]))
    if kind == "stake":
        return actor, Stake(who, amount, consent=data.draw(st.booleans()))
    if kind == "withdraw":
        return actor, Withdraw(who)
    if kind == "offer":
        odds = data.draw(
            st.sampled_from([Fraction(1), Fraction(1), Fraction(3, 2), Fraction(5), Fraction(1, 3)])
        )
        return actor, OfferBet(who, data.draw(st.sampled_from(PROPOSITIONS)), amount, odds)
    if kind == "take":
        return actor, TakeBet(data.draw(st.sampled_from(numbers)), who)
    if kind == "cancel":
        return actor, CancelBet(data.draw(st.sampled_from(numbers)))
    if kind == "pass":
        return actor, PassDice()
    if kind == "call":
        return actor, Call(data.draw(st.sampled_from([*table.ruleset.mains, 4])))
    late = f"Late{len(names)}"
    bot = data.draw(st.sampled_from([None, BotPolicy.SETTER, BotPolicy.BYSTANDER]))
    return data.draw(st.sampled_from([Actor.player(late), REFEREE])), Sit(late, amount * 3, bot)


def a_throw(data: st.DataObject, session: Session, moved: list[Fraction], bets: list[Fraction]) -> None:
    """As a game loop does: the bots, then the caster's call, then the dice."""
    session.bots_act()
    table = session.table
    if to_move(table.round) is Mover.CASTER:
        caster = table.player(table.caster or "")
        if caster.bot is not None:
            session.bots_act()
        else:
            session.play(Call(data.draw(st.sampled_from(table.ruleset.mains))), by=Actor.player(caster.name))
    if to_move(session.table.round) is not Mover.DICE:
        return
    thrower = data.draw(st.sampled_from([REFEREE, Actor.player(session.table.caster or "")]))
    for done in session.throw(by=thrower):
        for happened in done.events:
            if isinstance(happened, RoundSettled):
                assert all(transfer.amount > 0 for transfer in happened.transfers)
                moved.append(sum((transfer.amount for transfer in happened.transfers), Fraction(0)))
            if isinstance(happened, BetSettled):
                bets.append(happened.transfer.amount)


@pytest.mark.slow
@settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    derandomize=True,
)
@given(st.data())
def test_random_games_with_bots_conserve_money_and_replay_exactly(data: st.DataObject) -> None:
    rules = find_ruleset(data.draw(st.sampled_from(BUILTINS), label="ruleset"))
    paytable = data.draw(st.sampled_from([None, "even", "true-odds"]), label="paytable")
    pays = find_paytable(paytable) if paytable else table_paytable(rules)[0]
    stakes = data.draw(st.none() | st.sampled_from(StakeArrangement), label="stakes")
    seed = data.draw(st.integers(0, 2**32), label="seed")
    unit = data.draw(st.sampled_from([Fraction(1), Fraction(2), Fraction(5, 2)]), label="unit")
    bots_only = data.draw(st.booleans(), label="bots only")
    policies = [BotPolicy.SETTER, BotPolicy.BYSTANDER] + ([] if bots_only else [None])
    seats = data.draw(
        st.lists(st.tuples(st.integers(0, 60), st.sampled_from(policies)), min_size=2, max_size=5),
        label="seats",
    )
    if bots_only:
        assert seats[0][1] is not None  # the first to sit holds the dice: a bot caster

    store = GameStore.open("sqlite://", in_memory=True)
    session = Session.start(
        store,
        TableSpec(rules, pays, stakes=stakes, dice=DiceKind.SEEDED, seed=seed, bots=BotBrains(unit=unit)),
    )
    for index, (bankroll, bot) in enumerate(seats):
        session.play(Sit(f"P{index}", Fraction(bankroll), bot), by=Actor.player(f"P{index}"))
    check(session)

    steps = data.draw(st.integers(30, 80), label="steps")
    moved: list[Fraction] = []
    bets: list[Fraction] = []
    for _ in range(steps):
        move = data.draw(st.sampled_from(["throw", "throw", "throw", "bots", "person", "typed", "correct"]))
        if move == "bots":
            session.bots_act()
        elif move == "throw" and session.table.caster is None:
            # Corrections have voided every seat: the table refuses to play, and records nothing.
            written = len(session.entries)
            with pytest.raises(IllegalError, match="nobody is at the table yet"):
                session.throw(by=REFEREE)
            assert len(session.entries) == written
        elif move == "throw":
            a_throw(data, session, moved, bets)
        elif move in ("person", "typed") and not bots_only:
            before, written = session.table, len(session.entries)
            actor, action = person_action(data, session.table)
            try:
                if move == "typed":  # the same, as the text a person types
                    session.act(action_text(action), by=actor)
                else:
                    session.play(action, by=actor)
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
    loaded = load_game(store, session.game)
    assert loaded.table == session.table
    assert [(e.actor, e.item) for e in loaded.entries] == [(e.actor, e.item) for e in session.entries]
    assert Session.resume(store, session.game, kind=GameKind.PLAY).table == session.table
    store.close()
