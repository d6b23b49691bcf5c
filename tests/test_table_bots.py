"""Bots: what each policy would do at a table, that the table accepts it, and a person alone against bots."""

from __future__ import annotations

from fractions import Fraction

import pytest
from tests.strategies import throw_of as t

from hazard.core.errors import InvalidError
from hazard.core.propositions import SOURCE_BETS, parse_proposition
from hazard.core.rules import MainMethod, MainRow, Ruleset, Source
from hazard.core.rulesets import find_paytable, find_ruleset, paytable_for
from hazard.table.actions import Call, CancelBet, OfferBet, Sit, Stake, TableAction, TakeBet, Throw
from hazard.table.bots import BOT_POLICIES, BotBrains
from hazard.table.record import GameStore
from hazard.table.session import Session
from hazard.table.state import CasterChanged, RoundSettled, Table, Transfer, apply_action, new_table


def seat(ruleset: str, *seats: tuple[str, int, str | None], paytable: str | None = None) -> Table:
    rules = find_ruleset(ruleset)
    table = new_table(
        rules, find_paytable(paytable) if paytable else (paytable_for(rules) or find_paytable("even"))
    )
    for name, bankroll, bot in seats:
        table, _ = apply_action(table, Sit(name, Fraction(bankroll), bot))
    return table


def run(table: Table, *actions: TableAction) -> Table:
    for action in actions:
        table, _ = apply_action(table, action)
    return table


def test_policies() -> None:
    assert BOT_POLICIES == ("setter", "bystander")


@pytest.mark.parametrize("unit", [Fraction(0), Fraction(-1)])
def test_the_stake_unit_must_be_positive(unit: Fraction) -> None:
    with pytest.raises(InvalidError, match=f"invalid bot stake unit {unit}"):
        BotBrains(unit=unit)


# --- the caster's call ------------------------------------------------------------------------------------


def test_a_bot_caster_calls_seven_by_default_or_the_main_it_is_given() -> None:
    table = seat("wikipedia", ("Bot", 100, "setter"), ("Ann", 100, None))
    assert BotBrains().call(table) == Call(7)
    assert BotBrains(main=6).call(table) == Call(6)
    assert BotBrains(main=4).call(table) == Call(7)  # 4 is no main here: fall back on 7


def test_a_bot_calls_only_when_it_holds_the_dice_and_must_call() -> None:
    human_caster = seat("wikipedia", ("Ann", 100, None), ("Bot", 100, "setter"))
    assert BotBrains().call(human_caster) is None
    called = run(seat("wikipedia", ("Bot", 100, "setter")), Call(8))
    assert BotBrains().call(called) is None
    for thrown in ("ecws-1674", "sca-isenfir", "craps"):
        assert BotBrains().call(seat(thrown, ("Bot", 100, "setter"))) is None
    assert BotBrains().call(seat("wikipedia")) is None


def test_without_seven_among_the_mains_a_bot_calls_the_first_main() -> None:
    row = MainRow(9, nicks=frozenset({9}), outs=frozenset({2}), chances=frozenset({4}))
    row5 = MainRow(5, nicks=frozenset({5}), outs=frozenset({2}), chances=frozenset({4}))
    rules = Ruleset("odd-mains", "Odd mains", Source("test"), MainMethod.CALLED, (row, row5))
    table = run(new_table(rules, find_paytable("even")), Sit("Bot", Fraction(10), "bystander"))
    assert BotBrains().call(table) == Call(5)
    assert BotBrains(main=9).call(table) == Call(9)


# --- stakes -----------------------------------------------------------------------------------------------


def test_setter_bots_stake_the_unit_against_the_caster_before_the_round() -> None:
    table = seat(
        "wikipedia",
        ("Ann", 100, None),
        ("S1", 100, "setter"),
        ("By", 100, "bystander"),
        ("S2", 100, "setter"),
        ("Me", 100, None),
    )
    brains = BotBrains(unit=Fraction(5))
    assert brains.stakes(table) == [Stake("S1", Fraction(5)), Stake("S2", Fraction(5))]
    table = run(table, Stake("S1", Fraction(5)))
    assert brains.stakes(table) == [Stake("S2", Fraction(5))]
    table = run(table, Stake("S2", Fraction(5)))
    assert brains.stakes(table) == []
    assert brains.stakes(run(table, Call(7))) == []


def test_a_setter_bot_that_is_the_caster_does_not_stake_against_itself() -> None:
    table = seat("wikipedia", ("S1", 100, "setter"), ("S2", 100, "setter"))
    assert BotBrains().stakes(table) == [Stake("S2", Fraction(1))]


def test_a_setter_bot_stakes_only_what_it_can_cover() -> None:
    # the Wikipedia table's best odds are 2/1: a unit of 10 needs 20 free
    table = seat("wikipedia", ("Ann", 100, None), ("Poor", 19, "setter"), ("Rich", 20, "setter"))
    assert BotBrains(unit=Fraction(10)).stakes(table) == [Stake("Rich", Fraction(10))]
    # ... and what the caster can cover
    broke = seat("wikipedia", ("Ann", 9, None), ("Rich", 100, "setter"))
    assert BotBrains(unit=Fraction(10)).stakes(broke) == []


def test_under_a_setter_sum_only_one_bot_sets() -> None:
    table = seat("ecws-1674", ("Ann", 100, None), ("S1", 100, "setter"), ("S2", 100, "setter"))
    assert BotBrains().stakes(table) == [Stake("S1", Fraction(1))]
    table = run(table, Stake("S1", Fraction(1)))
    assert BotBrains().stakes(table) == []


def test_a_human_setter_keeps_the_bots_out_under_a_setter_sum() -> None:
    table = seat("ecws-1674", ("Ann", 100, None), ("Me", 100, None), ("S1", 100, "setter"))
    table = run(table, Stake("Me", Fraction(3)))
    assert BotBrains().stakes(table) == []


# --- side bets --------------------------------------------------------------------------------------------


def test_a_bystander_offers_one_source_bet_at_the_start_of_a_round() -> None:
    table = seat("wikipedia", ("Ann", 100, None), ("By", 100, "bystander"))
    offers = BotBrains(unit=Fraction(2)).side_bets(table)
    assert len(offers) == 1
    offer = offers[0]
    assert isinstance(offer, OfferBet)
    assert (offer.backer, offer.amount, offer.odds) == ("By", Fraction(2), Fraction(1))
    assert offer.proposition in SOURCE_BETS
    table = run(table, offer)
    assert BotBrains(unit=Fraction(2)).side_bets(table) == []  # one open bet at a time
    assert BotBrains().side_bets(run(table, Call(7))) == []


def test_bystanders_offer_different_source_bets_as_rounds_go_by() -> None:
    table = seat("wikipedia", ("Ann", 1000, None), ("By", 1000, "bystander"))
    offered = set()
    for _ in range(len(SOURCE_BETS)):
        (offer,) = BotBrains().side_bets(table)
        assert isinstance(offer, OfferBet)
        offered.add(offer.proposition)
        # nobody takes it; By withdraws it, and a round is played
        table = run(table, offer, CancelBet(table.next_bet), Call(7), t(7))
    assert offered == set(SOURCE_BETS)


def test_bots_take_the_source_even_money_bets_offered_by_anyone() -> None:
    table = seat(
        "wikipedia", ("Ann", 100, None), ("Me", 100, None), ("Poor", 1, "setter"), ("By", 100, "bystander")
    )
    table = run(table, OfferBet("Me", "the caster will throw 4 or 10 before throwing 7", Fraction(5)))
    actions = BotBrains().side_bets(table)
    # Poor cannot cover 5; By can, and also offers its own bet at the start of the round
    assert actions[0] == TakeBet(1, "By")
    assert all(not isinstance(a, TakeBet) or a.layer != "Poor" for a in actions)
    table = run(table, actions[0])
    # mid-round too
    table = run(table, Call(7), OfferBet("Me", "odd before even", Fraction(1)))
    assert BotBrains().side_bets(table) == [TakeBet(2, "Poor")]


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
    table = seat("wikipedia", ("Ann", 100, None), ("Me", 100, None), ("By", 100, "bystander"))
    table = run(table, Call(7), offer)
    assert BotBrains().side_bets(table) == []


def test_the_fair_bets_are_the_sixteen_of_the_source() -> None:
    assert len({parse_proposition(text) for text in SOURCE_BETS}) == 16


def test_bots_decide_the_same_way_every_time() -> None:
    table = seat(
        "sca-isenfir",
        ("B1", 50, "bystander"),
        ("S1", 50, "setter"),
        ("B2", 50, "bystander"),
        ("S2", 50, "setter"),
    )
    brains = BotBrains(unit=Fraction(3))
    assert brains.stakes(table) == brains.stakes(table)
    assert brains.side_bets(table) == brains.side_bets(table)


def test_every_bot_suggestion_is_accepted_by_the_table() -> None:
    table = seat(
        "sca-isenfir",
        ("B1", 20, "bystander"),
        ("S1", 20, "setter"),
        ("B2", 3, "bystander"),
        ("S2", 2, "setter"),
        ("Me", 10, None),
    )
    brains = BotBrains(unit=Fraction(2))
    for throw in [7, 5, 6, 5, 9, 11, 2, 8, 8, 6, 4, 6, 12, 7, 7, 3]:
        for _ in range(50):
            wanted = [*brains.side_bets(table), *brains.stakes(table)]
            if not wanted:
                break
            table, _ = apply_action(table, wanted[0])  # raises if the bots asked for anything refused
        table, _ = apply_action(table, t(throw))
        assert table.total_money == 55
        assert all(p.bankroll >= 0 for p in table.players)


# --- a person alone against bots --------------------------------------------------------------------------


def test_a_person_plays_a_whole_round_alone_against_bots() -> None:
    store = GameStore.open("sqlite://")
    rules = find_ruleset("wikipedia")
    session = Session.start(
        store, ruleset=rules, paytable=paytable_for(rules) or find_paytable("even"), dice="typed"
    )
    for name, bot in (("Me", None), ("Sam", "setter"), ("Bea", "bystander")):
        session.play(Sit(name, Fraction(100), bot))
    brains = BotBrains(unit=Fraction(10))
    session.brains = brains
    done = session.bots_act()
    kinds = sorted(type(action).__name__ for action, _ in done)
    # Bea offers a source bet and Sam takes it; Sam stakes against me
    assert kinds == ["OfferBet", "Stake", "TakeBet"]
    assert session.bots_act() == []  # nothing more to do until I call
    session.play(Call(7))
    assert session.bots_act() == []  # a human caster is never called for
    events = session.play(Throw(t(5).roll))
    events = session.play(Throw(t(5).roll))
    settlement = next(e for e in events if isinstance(e, RoundSettled))
    assert settlement.transfers == (Transfer("Sam", "Me", Fraction(15)),)  # main 7, chance 5: 3/2 on 10
    assert session.table.player("Me").bankroll == 115
    # the next round: Sam stakes again without being asked
    assert [type(a).__name__ for a, _ in session.bots_act()] == ["Stake"]
    store.close()


def test_a_table_of_bots_plays_itself() -> None:
    store = GameStore.open("sqlite://")
    rules = find_ruleset("wikipedia")
    session = Session.start(store, ruleset=rules, paytable=find_paytable("wikipedia"), dice="seeded", seed=3)
    for name, bot in (("Cas", "bystander"), ("Sam", "setter"), ("Bea", "bystander")):
        session.play(Sit(name, Fraction(50), bot))
    rounds = passes = 0
    for _ in range(200):
        session.bots_act()
        events = session.throw()
        rounds += sum(isinstance(e, RoundSettled) for e in events)
        passes += sum(isinstance(e, CasterChanged) for e in events)
        assert session.table.total_money == 150
        assert all(p.bankroll >= 0 for p in session.table.players)
    assert rounds > 20
    assert passes > 0  # three losses in a row happen in 200 throws of these seeded dice
    assert store.load(session.game).table == session.table
    store.close()


def test_a_bot_caster_consents_to_a_late_bet_it_can_cover() -> None:
    # Isenfir: once the chance is set, bets against the caster need his consent.
    table = seat("sca-isenfir", ("Bot", 20, "setter"), ("Ann", 50, None))
    table = run(table, Throw(t(6).roll), Throw(t(4).roll))  # main 6, chance 4
    brains = BotBrains()
    assert brains.consents(table, Stake("Ann", Fraction(10)))
    assert not brains.consents(table, Stake("Ann", Fraction(30)))  # more than the bot caster can cover
    before = run(seat("sca-isenfir", ("Bot", 20, "setter"), ("Ann", 50, None)), Throw(t(6).roll))
    assert not brains.consents(before, Stake("Ann", Fraction(10)))  # no consent needed before the chance
    people = seat("sca-isenfir", ("Cas", 20, None), ("Ann", 50, None))
    people = run(people, Throw(t(6).roll), Throw(t(4).roll))
    assert not brains.consents(people, Stake("Ann", Fraction(10)))  # a person consents for himself


def test_the_bank_that_covers_a_casters_stake() -> None:
    # Wikipedia pays up to 2/1 on a chance: the bank must have twice the stake free. Setters are asked first.
    table = seat("wikipedia", ("Ann", 100, None), ("Cat", 100, "bystander"), ("Bob", 30, "setter"))
    brains = BotBrains()
    assert brains.cover(table, Fraction(15)) == "Bob"
    assert brains.cover(table, Fraction(20)) == "Cat"  # more than Bob can cover
    assert brains.cover(table, Fraction(60)) is None
    assert (
        BotBrains().cover(seat("ecws-1674", ("Ann", 100, None), ("Bob", 100, "setter")), Fraction(5)) is None
    )
