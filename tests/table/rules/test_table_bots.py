"""Bots: what each policy would do at a table and who does it, that the table accepts it, the main a bot
caster calls (worked out by hand, and agreeing with the exact analysis), and a person alone against bots."""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from tests.strategies import rulesets
from tests.strategies import throw_of as t

from hazard.core.dice import ways
from hazard.core.errors import InvalidError
from hazard.core.paytable import Paytable
from hazard.core.propositions import SOURCE_BETS, parse_proposition
from hazard.core.rules import MainMethod, MainRow, Ruleset, Source
from hazard.core.rulesets import (
    builtin_paytables,
    builtin_rulesets,
    find_paytable,
    find_ruleset,
    paytable_for,
)
from hazard.core.staking import Staking, StakingPlan
from hazard.core.state import Outcome, Termination
from hazard.table import TableSpec, load_game
from hazard.table.fair.dice import DiceKind
from hazard.table.live.session import Session
from hazard.table.record.store import GameStore
from hazard.table.rules.actions import (
    REFEREE,
    Actor,
    BotPolicy,
    Call,
    CancelBet,
    OfferBet,
    Sit,
    Stake,
    TableAction,
    TakeBet,
)
from hazard.table.rules.bots import BotBrains, BotMove, MainChoice, best_main
from hazard.table.rules.events import CasterChanged, RoundSettled
from hazard.table.rules.state import Table, Transfer, new_table
from hazard.table.rules.transitions import apply_action

SETTER, BYSTANDER = BotPolicy.SETTER, BotPolicy.BYSTANDER


def seat(ruleset: str, *seats: tuple[str, int, BotPolicy | None], paytable: str | None = None) -> Table:
    rules = find_ruleset(ruleset)
    table = new_table(
        rules, find_paytable(paytable) if paytable else (paytable_for(rules) or find_paytable("even"))
    )
    for name, bankroll, bot in seats:
        table, _ = apply_action(table, Sit(name, Fraction(bankroll), bot), by=Actor.player(name))
    return table


def run(table: Table, *steps: BotMove | TableAction) -> Table:
    """Take each step: a bot's move by that bot; a bare action (a call, a throw, a person's stake, offer or
    cancel) by the caster or by the player it names, entered here by the referee for simplicity."""
    for step in steps:
        if isinstance(step, BotMove):
            table, _ = apply_action(table, step.action, by=step.by)
        else:
            table, _ = apply_action(table, step, by=REFEREE)
    return table


def by(name: str, action: TableAction) -> BotMove:
    return BotMove(action, Actor.player(name))


def test_policies() -> None:
    assert [policy.value for policy in BotPolicy] == ["setter", "bystander"]


@pytest.mark.parametrize("unit", [Fraction(0), Fraction(-1)])
def test_the_stake_unit_must_be_positive(unit: Fraction) -> None:
    with pytest.raises(InvalidError) as caught:
        BotBrains(unit=unit)
    assert str(caught.value) == f"invalid bot stake unit {unit}: expected more than 0"


# --- the main a bot caster calls ---------------------------------------------------------------------------

# Two mains with nothing in common, worked out by hand. Main 5: a nick on 5 (4 ways), an out on 2 or 3
# (3 ways), a chance of 6 (5 ways): D = 12; P(win) = 4/12 + 5/12 * 5/9 = 61/108. Main 8: a nick on 8
# (5 ways), an out on 2 (1 way), a chance of 4 (3 ways): D = 9; P(win) = 5/9 + 3/9 * 3/8 = 49/72.
# At even money EV = 2 P(win) - 1: 7/54 and 13/36. At the true odds a chance is a fair bet, so EV is
# P(nick) - P(out): 1/3 - 1/4 = 1/12 and 5/9 - 1/9 = 4/9.
TWO_MAINS = Ruleset(
    "two-mains",
    "Two mains",
    Source("test"),
    MainMethod.CALLED,
    (
        MainRow(5, nicks=frozenset({5}), outs=frozenset({2, 3}), chances=frozenset({6})),
        MainRow(8, nicks=frozenset({8}), outs=frozenset({2}), chances=frozenset({4})),
    ),
)
# Equal EV at the true odds, 4/9 each, so P(win) decides. Main 7: nicks 7, 11, 3 (10 ways), outs 2, 12
# (2 ways), chances 4 and 10 (3 ways each): D = 18; P(win) = 10/18 + 2 * 3/18 * 3/9 = 2/3. Main 8: nick 8
# (5 ways), out 12 (1 way), chance 4 (3 ways): D = 9; P(win) = 5/9 + 3/9 * 3/8 = 49/72, the higher.
EQUAL_EV = Ruleset(
    "equal-ev",
    "Equal EV",
    Source("test"),
    MainMethod.CALLED,
    (
        MainRow(7, nicks=frozenset({7, 11, 3}), outs=frozenset({2, 12}), chances=frozenset({4, 10})),
        MainRow(8, nicks=frozenset({8}), outs=frozenset({12}), chances=frozenset({4})),
    ),
)
# Mains 5 and 9 have as many ways each, so the same rows give the same figures: the first main is called.
MIRRORED = Ruleset(
    "mirrored",
    "Mirrored mains",
    Source("test"),
    MainMethod.CALLED,
    (
        MainRow(9, nicks=frozenset({9}), outs=frozenset({2}), chances=frozenset({4})),
        MainRow(5, nicks=frozenset({5}), outs=frozenset({2}), chances=frozenset({4})),
    ),
)


@pytest.mark.parametrize(
    ("ruleset", "paytable", "choice"),
    [
        # main 7 on the Wikipedia table: every chance is paid its true odds, so EV = P(nick) - P(out) =
        # 8/36 - 4/36; P(win) is the craps figure, 244/495
        (
            find_ruleset("wikipedia"),
            find_paytable("wikipedia"),
            MainChoice(7, Fraction(1, 9), Fraction(244, 495), "wikipedia"),
        ),
        (
            find_ruleset("britannica-1911"),
            find_paytable("true-odds"),
            MainChoice(7, Fraction(1, 9), Fraction(244, 495), "true-odds"),
        ),
        # at even money the best P(win) is main 7's (main 6: 0.4883, main 5: 0.4924): EV 2 * 244/495 - 1
        (
            find_ruleset("britannica-1911"),
            find_paytable("even"),
            MainChoice(7, Fraction(-7, 495), Fraction(244, 495), "even"),
        ),
        (TWO_MAINS, find_paytable("even"), MainChoice(8, Fraction(13, 36), Fraction(49, 72), "even")),
        (TWO_MAINS, find_paytable("true-odds"), MainChoice(8, Fraction(4, 9), Fraction(49, 72), "true-odds")),
        (EQUAL_EV, find_paytable("true-odds"), MainChoice(8, Fraction(4, 9), Fraction(49, 72), "true-odds")),
        # main 9: nick 4 ways, out 1, chance 4 (3 ways) won 3/7: P(win) = 4/8 + 3/8 * 3/7 = 37/56
        (MIRRORED, find_paytable("even"), MainChoice(5, Fraction(9, 28), Fraction(37, 56), "even")),
    ],
    ids=lambda value: getattr(value, "id", ""),
)
def test_the_best_main_by_hand(ruleset: Ruleset, paytable: Paytable, choice: MainChoice) -> None:
    assert best_main(ruleset, paytable) == choice


def test_the_best_main_under_a_richer_nick() -> None:
    # nicks paying 3 to 1, chances even money: main 8's EV is 5/9 * 3 - 1/9 + 3/9 * (3/8 - 5/8) = 53/36,
    # main 5's 1/3 * 3 - 1/4 + 5/12 * (5/9 - 4/9) = 43/54; 53/36 is the more
    rich = Paytable("rich", "Rich nick", nick=Fraction(3))
    assert best_main(TWO_MAINS, rich) == MainChoice(8, Fraction(53, 36), Fraction(49, 72), "rich")


@pytest.mark.parametrize("ruleset", ["ecws-1674", "cotton-1674", "sca-isenfir", "craps"])
def test_there_is_no_best_main_where_the_caster_does_not_call(ruleset: str) -> None:
    assert best_main(find_ruleset(ruleset), find_paytable("even")) is None


def test_why_a_main_in_words() -> None:
    choice = best_main(find_ruleset("wikipedia"), find_paytable("wikipedia"))
    assert choice is not None
    assert choice.reason() == (
        "the best main by exact analysis (expected value +1/9 = +0.1111 a unit staked under paytable "
        "wikipedia; P(win) 0.4929)"
    )
    losing = best_main(find_ruleset("britannica-1911"), find_paytable("even"))
    assert losing is not None
    assert losing.reason() == (
        "the best main by exact analysis (expected value -7/495 = -0.0141 a unit staked under paytable "
        "even; P(win) 0.4929)"
    )


def _covering(ruleset: Ruleset) -> list[Paytable]:
    covering = []
    for paytable in builtin_paytables():
        try:
            paytable.check(ruleset)
        except InvalidError:
            continue
        covering.append(paytable)
    return covering


def _closed_form(ruleset: Ruleset, paytable: Paytable) -> MainChoice:
    """The best main by a second, independent route: a called round has a closed form, since throws that
    decide nothing are thrown again. With ``D`` the ways of the decisive opening totals, a nick comes with
    probability ``ways(nicks) / D``, an out ``ways(outs) / D``, and each chance ``c`` is set with
    ``ways(c) / D`` and then won with ``ways(c) / (ways(c) + ways(main))``."""
    choices = []
    for row in ruleset.rows:
        main = row.main
        decisive = sum(ways(total) for total in row.nicks | row.outs | row.chances)
        p_nick = Fraction(sum(ways(total) for total in row.nicks), decisive)
        p_out = Fraction(sum(ways(total) for total in row.outs), decisive)
        p_win = p_nick
        ev = p_nick * paytable.caster_net(Outcome(Termination.NICK, main))
        ev += p_out * paytable.caster_net(Outcome(Termination.OUT, main))
        for chance in sorted(row.chances):
            p_set = Fraction(ways(chance), decisive)
            p_first = Fraction(ways(chance), ways(chance) + ways(main))
            p_win += p_set * p_first
            ev += p_set * p_first * paytable.caster_net(Outcome(Termination.CHANCE, main, chance))
            ev += p_set * (1 - p_first) * paytable.caster_net(Outcome(Termination.MAIN, main, chance))
        choices.append(MainChoice(main, ev, p_win, paytable.id))
    return max(choices, key=lambda choice: (choice.ev, choice.p_win))


CALLED_BUILTINS = [
    (ruleset, paytable)
    for ruleset in builtin_rulesets()
    if ruleset.method is MainMethod.CALLED
    for paytable in _covering(ruleset)
]


def test_every_called_builtin_is_paired_with_every_builtin_paytable_that_covers_it() -> None:
    assert {(r.id, p.id) for r, p in CALLED_BUILTINS} == {
        (ruleset, paytable)
        for ruleset in ("britannica-1911", "wikipedia")
        for paytable in ("even", "true-odds", "wikipedia")
    }


@pytest.mark.parametrize(
    ("ruleset", "paytable"), CALLED_BUILTINS, ids=[f"{r.id}-{p.id}" for r, p in CALLED_BUILTINS]
)
def test_the_best_main_agrees_with_the_closed_form(ruleset: Ruleset, paytable: Paytable) -> None:
    assert best_main(ruleset, paytable) == _closed_form(ruleset, paytable)


@settings(derandomize=True, max_examples=40, deadline=None)
@given(
    ruleset=rulesets(methods=[MainMethod.CALLED]),
    paytable=st.sampled_from([find_paytable("even"), find_paytable("true-odds")]),
)
def test_the_best_main_agrees_with_the_closed_form_on_any_called_ruleset(
    ruleset: Ruleset, paytable: Paytable
) -> None:
    assert best_main(ruleset, paytable) == _closed_form(ruleset, paytable)


# --- the caster's call ------------------------------------------------------------------------------------


def test_a_bot_caster_calls_the_best_main() -> None:
    table = seat("wikipedia", ("Bot", 100, SETTER), ("Ann", 100, None))
    assert BotBrains().call(table) == by("Bot", Call(7))
    assert BotBrains().wanted(table) == by("Bot", Call(7))
    two = run(new_table(TWO_MAINS, find_paytable("even")), Sit("Bot", Fraction(10), BYSTANDER))
    assert BotBrains().call(two) == by("Bot", Call(8))
    mirrored = run(new_table(MIRRORED, find_paytable("even")), Sit("Bot", Fraction(10), BYSTANDER))
    assert BotBrains().call(mirrored) == by("Bot", Call(5))


def test_a_bot_calls_only_when_it_holds_the_dice_and_must_call() -> None:
    human_caster = seat("wikipedia", ("Ann", 100, None), ("Bot", 100, SETTER))
    assert BotBrains().call(human_caster) is None
    called = run(seat("wikipedia", ("Bot", 100, SETTER)), Call(8))
    assert BotBrains().call(called) is None
    for thrown in ("ecws-1674", "sca-isenfir", "craps"):
        assert BotBrains().call(seat(thrown, ("Bot", 100, SETTER))) is None
    assert BotBrains().call(seat("wikipedia")) is None


def test_a_bot_caster_may_hold_back_its_call() -> None:
    table = seat("wikipedia", ("Bot", 100, SETTER), ("Ann", 100, None))
    assert BotBrains().wanted(table, call=False) is None


# --- stakes -----------------------------------------------------------------------------------------------


def test_setter_bots_stake_the_unit_against_the_caster_before_the_round() -> None:
    table = seat(
        "wikipedia",
        ("Ann", 100, None),
        ("S1", 100, SETTER),
        ("By", 100, BYSTANDER),
        ("S2", 100, SETTER),
        ("Me", 100, None),
    )
    brains = BotBrains(unit=Fraction(5))
    assert brains.stakes(table) == [by("S1", Stake("S1", Fraction(5))), by("S2", Stake("S2", Fraction(5)))]
    table = run(table, by("S1", Stake("S1", Fraction(5))))
    assert brains.stakes(table) == [by("S2", Stake("S2", Fraction(5)))]
    table = run(table, by("S2", Stake("S2", Fraction(5))))
    assert brains.stakes(table) == []
    assert brains.stakes(run(table, Call(7))) == []


def test_a_setter_bot_that_is_the_caster_does_not_stake_against_itself() -> None:
    table = seat("wikipedia", ("S1", 100, SETTER), ("S2", 100, SETTER))
    assert BotBrains().stakes(table) == [by("S2", Stake("S2", Fraction(1)))]
    # a bot caster stakes first and calls after
    assert BotBrains().wanted(table) == by("S2", Stake("S2", Fraction(1)))


def test_a_setter_bot_stakes_only_what_it_can_cover() -> None:
    # the Wikipedia table's best odds are 2/1: a unit of 10 needs 20 free
    table = seat("wikipedia", ("Ann", 100, None), ("Poor", 19, SETTER), ("Rich", 20, SETTER))
    assert BotBrains(unit=Fraction(10)).stakes(table) == [by("Rich", Stake("Rich", Fraction(10)))]
    # ... and what the caster can cover
    broke = seat("wikipedia", ("Ann", 9, None), ("Rich", 100, SETTER))
    assert BotBrains(unit=Fraction(10)).stakes(broke) == []


def test_under_a_setter_sum_only_one_bot_sets() -> None:
    table = seat("ecws-1674", ("Ann", 100, None), ("S1", 100, SETTER), ("S2", 100, SETTER))
    assert BotBrains().stakes(table) == [by("S1", Stake("S1", Fraction(1)))]
    table = run(table, by("S1", Stake("S1", Fraction(1))))
    assert BotBrains().stakes(table) == []


def test_a_human_setter_keeps_the_bots_out_under_a_setter_sum() -> None:
    table = seat("ecws-1674", ("Ann", 100, None), ("Me", 100, None), ("S1", 100, SETTER))
    table = run(table, Stake("Me", Fraction(3)))
    assert BotBrains().stakes(table) == []


# --- side bets --------------------------------------------------------------------------------------------


def test_a_bystander_offers_one_source_bet_at_the_start_of_a_round() -> None:
    table = seat("wikipedia", ("Ann", 100, None), ("By", 100, BYSTANDER))
    offers = BotBrains(unit=Fraction(2)).side_bets(table)
    assert len(offers) == 1
    offer = offers[0]
    assert offer.by == Actor.player("By")
    assert isinstance(offer.action, OfferBet)
    assert (offer.action.backer, offer.action.amount, offer.action.odds) == ("By", Fraction(2), Fraction(1))
    assert offer.action.proposition in SOURCE_BETS
    table = run(table, offer)
    assert BotBrains(unit=Fraction(2)).side_bets(table) == []  # one open bet at a time
    assert BotBrains().side_bets(run(table, Call(7))) == []


def test_bystanders_offer_different_source_bets_as_rounds_go_by() -> None:
    table = seat("wikipedia", ("Ann", 1000, None), ("By", 1000, BYSTANDER))
    offered = set()
    for _ in range(len(SOURCE_BETS)):
        (offer,) = BotBrains().side_bets(table)
        assert isinstance(offer.action, OfferBet)
        offered.add(offer.action.proposition)
        # nobody takes it; By withdraws it, and a round is played
        table = run(table, offer, by("By", CancelBet(table.next_bet)), Call(7), t(7))
    assert offered == set(SOURCE_BETS)


def test_bots_take_the_source_even_money_bets_offered_by_anyone() -> None:
    table = seat(
        "wikipedia", ("Ann", 100, None), ("Me", 100, None), ("Poor", 1, SETTER), ("By", 100, BYSTANDER)
    )
    table = run(table, OfferBet("Me", "the caster will throw 4 or 10 before throwing 7", Fraction(5)))
    moves = BotBrains().side_bets(table)
    # Poor cannot cover 5; By can, and also offers its own bet at the start of the round
    assert moves[0] == by("By", TakeBet(1, "By"))
    assert all(not isinstance(m.action, TakeBet) or m.action.layer != "Poor" for m in moves)
    table = run(table, moves[0])
    # mid-round too
    table = run(table, Call(7), OfferBet("Me", "odd before even", Fraction(1)))
    assert BotBrains().side_bets(table) == [by("Poor", TakeBet(2, "Poor"))]


@pytest.mark.parametrize(
    "offer",
    [
        OfferBet("Me", "next 7", Fraction(1)),  # not one of the source's even-money bets
        OfferBet("Me", "4 or 10 before 7", Fraction(1), Fraction(2)),  # not at even money
        OfferBet("By", "4 or 10 before 7", Fraction(1)),  # its own bet
    ],
    ids=repr,
)
def test_bots_leave_other_bets_alone(offer: OfferBet) -> None:
    table = seat("wikipedia", ("Ann", 100, None), ("Me", 100, None), ("By", 100, BYSTANDER))
    table = run(table, Call(7), offer)
    assert BotBrains().side_bets(table) == []


def test_the_fair_bets_are_the_sixteen_of_the_source() -> None:
    assert len({parse_proposition(text) for text in SOURCE_BETS}) == 16


def test_bots_decide_the_same_way_every_time() -> None:
    table = seat(
        "sca-isenfir",
        ("B1", 50, BYSTANDER),
        ("S1", 50, SETTER),
        ("B2", 50, BYSTANDER),
        ("S2", 50, SETTER),
    )
    brains = BotBrains(unit=Fraction(3))
    assert brains.stakes(table) == brains.stakes(table)
    assert brains.side_bets(table) == brains.side_bets(table)
    assert brains.wanted(table) == brains.wanted(table)


def test_every_bot_move_is_the_bots_own_and_accepted_by_the_table() -> None:
    table = seat(
        "sca-isenfir",
        ("B1", 20, BYSTANDER),
        ("S1", 20, SETTER),
        ("B2", 3, BYSTANDER),
        ("S2", 2, SETTER),
        ("Me", 10, None),
    )
    brains = BotBrains(unit=Fraction(2))
    moves = 0
    for throw in [7, 5, 6, 5, 9, 11, 2, 8, 8, 6, 4, 6, 12, 7, 7, 3]:
        for _ in range(50):
            move = brains.wanted(table)
            if move is None:
                break
            # each bot acts for itself, and the table accepts it from that bot (it raises otherwise)
            assert move.by.name is not None
            assert table.player(move.by.name).bot is not None
            table, _ = apply_action(table, move.action, by=move.by)
            moves += 1
        assert table.caster is not None
        table, _ = apply_action(table, t(throw), by=Actor.player(table.caster))
        assert table.total_money == 55
        assert all(p.bankroll >= 0 for p in table.players)
    assert moves > 10


# --- a bot caster's consent, a bot bank ---------------------------------------------------------------


def test_a_bot_caster_consents_to_a_late_bet_it_can_cover() -> None:
    # Isenfir: once the chance is set, bets against the caster need his consent.
    table = seat("sca-isenfir", ("Bot", 20, SETTER), ("Ann", 50, None))
    table = run(table, t(6), t(4))  # main 6, chance 4
    brains = BotBrains()
    assert brains.consents(table, Stake("Ann", Fraction(10)))
    assert not brains.consents(table, Stake("Ann", Fraction(30)))  # more than the bot caster can cover
    assert not brains.consents(table, Stake("Ann", Fraction(10), consent=True))  # consented already
    before = run(seat("sca-isenfir", ("Bot", 20, SETTER), ("Ann", 50, None)), t(6))
    assert not brains.consents(before, Stake("Ann", Fraction(10)))  # no consent needed before the chance
    people = seat("sca-isenfir", ("Cas", 20, None), ("Ann", 50, None))
    people = run(people, t(6), t(4))
    assert not brains.consents(people, Stake("Ann", Fraction(10)))  # a person consents for himself


def test_the_bank_that_covers_a_casters_stake() -> None:
    # Wikipedia pays up to 2/1 on a chance: the bank must have twice the stake free. Setters are asked first.
    table = seat("wikipedia", ("Ann", 100, None), ("Cat", 100, BYSTANDER), ("Bob", 30, SETTER))
    brains = BotBrains()
    assert brains.cover(table, Fraction(15)) == "Bob"
    assert brains.cover(table, Fraction(20)) == "Cat"  # more than Bob can cover
    assert brains.cover(table, Fraction(60)) is None
    assert BotBrains().cover(seat("ecws-1674", ("Ann", 100, None), ("Bob", 100, SETTER)), Fraction(5)) is None


# --- a person alone against bots --------------------------------------------------------------------------


def test_a_person_plays_a_whole_round_alone_against_bots() -> None:
    store = GameStore.open("sqlite://", in_memory=True)
    rules = find_ruleset("wikipedia")
    session = Session.start(
        store, TableSpec(rules, paytable_for(rules) or find_paytable("even"), dice=DiceKind.TYPED)
    )
    me = Actor.player("Me")
    for name, bot in (("Me", None), ("Sam", SETTER), ("Bea", BYSTANDER)):
        session.play(Sit(name, Fraction(100), bot), by=Actor.player(name))
    session.brains = BotBrains(unit=Fraction(10))
    done = session.bots_act()
    # Bea offers a source bet and Sam takes it; Sam stakes against me; each bot in its own name
    assert sorted((type(r.entry.item).__name__, str(r.entry.actor)) for r in done) == [
        ("OfferBet", "Bea"),
        ("Stake", "Sam"),
        ("TakeBet", "Sam"),
    ]
    assert session.bots_act() == []  # nothing more to do until I call
    session.play(Call(7), by=me)
    assert session.bots_act() == []  # a human caster is never called for
    session.play(t(5), by=me)
    events = session.play(t(5), by=me).events
    settlement = next(e for e in events if isinstance(e, RoundSettled))
    assert settlement.transfers == (Transfer("Sam", "Me", Fraction(15)),)  # main 7, chance 5: 3/2 on 10
    assert session.table.player("Me").bankroll == 115
    # the next round: Sam stakes again without being asked
    assert [type(r.entry.item).__name__ for r in session.bots_act()] == ["Stake"]
    store.close()


def test_a_table_of_bots_plays_itself() -> None:
    store = GameStore.open("sqlite://", in_memory=True)
    rules = find_ruleset("wikipedia")
    session = Session.start(store, TableSpec(rules, find_paytable("wikipedia"), dice=DiceKind.SEEDED, seed=3))
    for name, bot in (("Cas", BYSTANDER), ("Sam", SETTER), ("Bea", BYSTANDER)):
        session.play(Sit(name, Fraction(50), bot), by=Actor.player(name))
    rounds = passes = 0
    for _ in range(200):
        session.bots_act()
        done = session.throw(by=REFEREE)
        events = [event for recorded in done for event in recorded.events]
        rounds += sum(isinstance(e, RoundSettled) for e in events)
        passes += sum(isinstance(e, CasterChanged) for e in events)
        assert session.table.total_money == 150
        assert all(p.bankroll >= 0 for p in session.table.players)
    assert rounds > 20
    assert passes > 0  # three losses in a row happen in 200 throws of these seeded dice
    # every entry is a bot's own, or a throw of the game's dice for the bot caster
    assert all(entry.actor.name in ("Cas", "Sam", "Bea") for entry in session.entries)
    assert load_game(store, session.game).table == session.table
    store.close()


# --- staking by a progression ----------------------------------------------------------------------------


def test_a_players_run_of_stakes_is_kept_by_the_table() -> None:
    """Bob stakes against Ann at wikipedia's table (main 7: nick 7 and 11, out 2, 3 and 12)."""
    table = seat("wikipedia", ("Ann", 1000, None), ("Bob", 1000, SETTER))
    stake = Stake("Bob", Fraction(1))
    runs = []
    for roll in (t(7), t(11), t(2), t(3), t(7)):
        table = run(table, by("Bob", stake), Call(7), roll)
        runs.append(table.player("Bob").run)
    assert runs == [-1, -2, 1, 2, -1]  # the caster nicks twice, is out twice, nicks again
    assert table.player("Ann").run == 0  # a caster's own stake is not a setter's


@pytest.mark.parametrize(
    ("staking", "runs", "stakes"),
    [
        (Staking.FLAT, [0, -1, -3, 2], [2, 2, 2, 2]),
        (Staking.MARTINGALE, [0, -1, -3, 2], [2, 4, 16, 2]),
        (Staking.PAROLI, [0, 1, 2, 3, -1], [2, 4, 8, 2, 2]),
    ],
)
def test_a_setter_bot_stakes_its_unit_by_its_progression(
    staking: Staking, runs: list[int], stakes: list[int]
) -> None:
    brains = BotBrains(Fraction(2), StakingPlan(staking))
    table = seat("wikipedia", ("Ann", 1000, None), ("Bob", 1000, SETTER))
    laid = []
    for bob_run in runs:
        players = tuple(replace(p, run=bob_run) if p.name == "Bob" else p for p in table.players)
        (move,) = brains.stakes(replace(table, players=players))
        assert isinstance(move.action, Stake)
        laid.append(move.action.amount)
    assert laid == stakes


def test_the_brains_are_kept_in_a_games_settings_and_read_back() -> None:
    for brains in (BotBrains(), BotBrains(Fraction(5, 2), StakingPlan(Staking.MARTINGALE))):
        assert BotBrains.from_settings(brains.settings()) == brains
    assert BotBrains().settings() == {"bot_unit": "1/1"}  # flat, as every game before progressions
    assert BotBrains.from_settings({}) == BotBrains()
    with pytest.raises(InvalidError, match="invalid bot staking 'doubling' in the game's settings"):
        BotBrains.from_settings({"bot_unit": "1", "bot_staking": "doubling"})
