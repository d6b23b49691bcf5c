"""The table as a value: what each player has free and committed, the most a stake can win, whose turn it
is, the side bets and stakes it holds, a new table, and its JSON form with exact sums and floats beside them.

Every figure is worked out by hand: a setter covers his stake times the most the caster can win (2 to 1 on
the Wikipedia table, for a main of 7 and a chance of 4 or 10), a caster covers each stake once (he loses at
most what was staked), a backer his amount, a layer the amount times the odds.
"""

from __future__ import annotations

import json
from fractions import Fraction
from typing import Any

import pytest
from hypothesis import given, settings
from tests.strategies import played_tables
from tests.strategies import throw_of as t

from hazard.core.errors import IllegalError, InvalidError
from hazard.core.paytable import Paytable
from hazard.core.propositions import parse_proposition
from hazard.core.rules import MainMethod, MainRow, Ruleset, Source, StakeArrangement
from hazard.core.rulesets import find_paytable, find_ruleset, paytable_for
from hazard.core.state import Phase
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
from hazard.table.rules.money import MoneyStyle
from hazard.table.rules.state import (
    Need,
    Player,
    SideBet,
    Table,
    Transfer,
    Turn,
    Wager,
    new_table,
    table_json,
)
from hazard.table.rules.transitions import apply_action


def table_for(
    ruleset: str,
    *seats: tuple[str, int | Fraction] | tuple[str, int | Fraction, BotPolicy],
    paytable: str | None = None,
    stakes: StakeArrangement | None = None,
) -> Table:
    """A table for a built-in ruleset, each player sitting himself down in turn (the first holds the dice)."""
    rules = find_ruleset(ruleset)
    pays = find_paytable(paytable) if paytable else (paytable_for(rules) or find_paytable("even"))
    table = new_table(rules, pays, stakes)
    for seat in seats:
        bot = seat[2] if len(seat) == 3 else None
        table, _ = apply_action(table, Sit(seat[0], Fraction(seat[1]), bot), by=Actor.player(seat[0]))
    return table


def act(table: Table, *steps: tuple[str, TableAction] | TableAction) -> Table:
    """Take each step: ``(name, action)`` by that player, a bare call or throw by the caster."""
    for step in steps:
        if isinstance(step, tuple):
            name, action = step
            by = Actor.player(name)
        else:
            action = step
            assert table.caster is not None
            by = Actor.player(table.caster)
        table, _ = apply_action(table, action, by=by)
    return table


def bank() -> Table:
    return table_for("wikipedia", ("Cass", 100), ("Sam", 100), ("Sue", 100))


# --- what is committed and what is free ---------------------------------------------------------------------


def test_a_new_player_has_his_whole_bankroll_free() -> None:
    table = bank()
    for name in ("Cass", "Sam", "Sue"):
        assert (table.committed(name), table.available(name), table.staked_by(name)) == (0, 100, 0)


def test_a_setter_covers_his_stake_times_the_most_the_caster_can_win() -> None:
    # the Wikipedia paytable pays at most 2 to 1: Sam's 10 holds back 20 of his, and 10 of the caster's
    table = act(bank(), ("Sam", Stake("Sam", Fraction(10))))
    assert table.most_won == 2
    assert (table.committed("Sam"), table.available("Sam")) == (20, 80)
    assert (table.committed("Cass"), table.available("Cass")) == (10, 90)
    assert (table.committed("Sue"), table.available("Sue")) == (0, 100)


def test_stakes_add_up_per_setter_and_for_the_caster() -> None:
    table = act(
        bank(),
        ("Sam", Stake("Sam", Fraction(10))),
        ("Sue", Stake("Sue", Fraction(4))),
        ("Sam", Stake("Sam", Fraction(5, 2))),
    )
    assert table.wagers == (
        Wager("Sam", Fraction(10)),
        Wager("Sue", Fraction(4)),
        Wager("Sam", Fraction(5, 2)),
    )
    assert (table.staked_by("Sam"), table.staked_by("Sue"), table.staked_by("Cass")) == (
        Fraction(25, 2),
        4,
        0,
    )
    assert (table.committed("Sam"), table.available("Sam")) == (25, 75)
    assert (table.committed("Sue"), table.available("Sue")) == (8, 92)
    # the caster loses at most what was staked against him: 10 + 4 + 5/2
    assert (table.committed("Cass"), table.available("Cass")) == (Fraction(33, 2), Fraction(167, 2))


def test_side_bets_hold_back_the_backers_amount_and_the_layers_amount_times_the_odds() -> None:
    table = act(
        bank(),
        ("Sam", OfferBet("Sam", "next odd", Fraction(5))),
        ("Sue", OfferBet("Sue", "next 12", Fraction(3), Fraction(2))),
    )
    # an offer nobody has taken already holds back the backer's amount, and nothing of anyone else's
    assert [table.committed(name) for name in ("Cass", "Sam", "Sue")] == [0, 5, 3]
    table = act(table, ("Cass", TakeBet(2, "Cass")))
    assert [table.committed(name) for name in ("Cass", "Sam", "Sue")] == [6, 5, 3]
    table = act(table, ("Sam", Stake("Sam", Fraction(10))))
    assert [table.committed(name) for name in ("Cass", "Sam", "Sue")] == [16, 25, 3]
    assert [table.available(name) for name in ("Cass", "Sam", "Sue")] == [84, 75, 97]
    table = act(table, ("Sam", CancelBet(1)))
    assert [table.available(name) for name in ("Cass", "Sam", "Sue")] == [84, 80, 97]


def test_a_layer_at_fractional_odds_holds_back_a_fraction() -> None:
    table = act(
        bank(),
        ("Sam", OfferBet("Sam", "odd before even", Fraction(10), Fraction(5, 6))),
        ("Sue", TakeBet(1, "Sue")),
    )
    assert table.side_bets[0].winnings == Fraction(25, 3)
    assert (table.committed("Sue"), table.available("Sue")) == (Fraction(25, 3), Fraction(275, 3))


def test_the_free_sum_of_a_player_not_at_the_table_is_refused() -> None:
    with pytest.raises(IllegalError) as caught:
        bank().available("Zed")
    assert str(caught.value) == "illegal player 'Zed': not at the table (seated: Cass, Sam, Sue)"


# --- the most a unit stake can win the caster -------------------------------------------------------------

_NO_NICK = Ruleset(
    "no-nick",
    "No nick",
    Source("test"),
    MainMethod.CALLED,
    (MainRow(7, nicks=frozenset(), outs=frozenset({2}), chances=frozenset({4})),),
)


@pytest.mark.parametrize(
    ("ruleset", "paytable", "most"),
    [
        (find_ruleset("wikipedia"), find_paytable("wikipedia"), Fraction(2)),  # main 7, chance 4 or 10: 2/1
        (find_ruleset("wikipedia"), find_paytable("even"), Fraction(1)),
        # true odds: main 7 (6 ways) against a chance of 4 or 10 (3 ways) is the longest, 2 to 1
        (find_ruleset("wikipedia"), find_paytable("true-odds"), Fraction(2)),
        (find_ruleset("craps"), find_paytable("true-odds"), Fraction(2)),
        (find_ruleset("craps"), find_paytable("even"), Fraction(1)),
        (find_ruleset("ecws-1674"), Paytable("rich-nick", "Nick pays 2", nick=Fraction(2)), Fraction(2)),
        (find_ruleset("ecws-1674"), Paytable("flat", "3 to 2", flat=Fraction(3, 2)), Fraction(3, 2)),
        (find_ruleset("ecws-1674"), Paytable("half", "1 to 2", flat=Fraction(1, 2)), Fraction(1)),  # the nick
        (_NO_NICK, Paytable("rich-nick", "Nick pays 5", nick=Fraction(5)), Fraction(1)),  # no nick to pay
        (_NO_NICK, find_paytable("true-odds"), Fraction(2)),
    ],
    ids=lambda value: getattr(value, "id", str(value)),
)
def test_the_most_a_unit_stake_can_win_the_caster(
    ruleset: Ruleset, paytable: Paytable, most: Fraction
) -> None:
    assert new_table(ruleset, paytable).most_won == most


# --- whose turn it is -------------------------------------------------------------------------------------

TURNS: list[tuple[str, int, list[object], Turn, str]] = [
    ("wikipedia", 0, [], Turn(None, Need.PLAYERS, False), "the table waits for players"),
    ("wikipedia", 1, [], Turn("Ann", Need.CALL, False), "Ann to call a main"),  # nobody to stake against Ann
    ("wikipedia", 2, [], Turn("Ann", Need.CALL, True), "Ann to call a main; stakes may be laid"),
    ("wikipedia", 2, [Call(7)], Turn("Ann", Need.THROW, False), "Ann to throw"),
    ("wikipedia", 2, [Call(7), t(4)], Turn("Ann", Need.THROW, False), "Ann to throw"),
    ("wikipedia", 2, [Call(7), t(7)], Turn("Ann", Need.CALL, True), "Ann to call a main; stakes may be laid"),
    ("craps", 2, [], Turn("Ann", Need.THROW, True), "Ann to throw; stakes may be laid"),  # the main is fixed
    ("craps", 2, [t(4)], Turn("Ann", Need.THROW, False), "Ann to throw"),
    ("craps", 2, [t(4), t(7)], Turn("Bob", Need.THROW, True), "Bob to throw; stakes may be laid"),  # 7 out
    ("ecws-1674", 2, [], Turn("Ann", Need.THROW, True), "Ann to throw; stakes may be laid"),
    ("ecws-1674", 2, [t(2)], Turn("Ann", Need.THROW, False), "Ann to throw"),  # no main, but begun
    # every player against the caster: stakes until the chance is set, then only with his consent
    ("sca-isenfir", 2, [], Turn("Ann", Need.THROW, True), "Ann to throw; stakes may be laid"),
    ("sca-isenfir", 2, [t(8)], Turn("Ann", Need.THROW, True), "Ann to throw; stakes may be laid"),
    ("sca-isenfir", 2, [t(8), t(4)], Turn("Ann", Need.THROW, False), "Ann to throw"),
    ("sca-isenfir", 2, [t(12)], Turn("Bob", Need.THROW, True), "Bob to throw; stakes may be laid"),  # no main
    ("sca-isenfir", 1, [t(8)], Turn("Ann", Need.THROW, False), "Ann to throw"),
]


@pytest.mark.parametrize(
    ("ruleset", "seated", "steps", "turn", "text"),
    TURNS,
    ids=[f"{r} {n} {'-'.join(map(str, s)) or 'new'}" for r, n, s, _, _ in TURNS],
)
def test_whose_turn_it_is(ruleset: str, seated: int, steps: list[Any], turn: Turn, text: str) -> None:
    table = table_for(ruleset, *[(name, 100) for name in ("Ann", "Bob")[:seated]])
    table = act(table, *steps)
    assert table.turn == turn
    assert str(table.turn) == text


def test_the_turn_under_another_stake_arrangement_follows_that_arrangement() -> None:
    # ecws's own setter's sum closes stakes once the round begins; every player against the caster does not
    table = table_for("ecws-1674", ("Ann", 100), ("Bob", 100), stakes=StakeArrangement.ALL_AGAINST_CASTER)
    assert act(table, t(8)).turn == Turn("Ann", Need.THROW, True)
    assert act(table, t(8), t(4)).turn == Turn("Ann", Need.THROW, False)
    sca = table_for("sca-isenfir", ("Ann", 100), ("Bob", 100), stakes=StakeArrangement.BANK)
    assert act(sca, t(8)).turn == Turn("Ann", Need.THROW, False)


@pytest.mark.parametrize(
    ("ruleset", "steps", "begun"),
    [
        ("wikipedia", [], False),
        ("wikipedia", [Call(7)], True),  # a call begins the round
        ("wikipedia", [Call(7), t(7)], False),  # a nick ends it: a new round
        ("craps", [], False),  # the fixed main begins nothing
        ("craps", [t(4)], True),
        ("ecws-1674", [t(2)], True),  # no main, thrown again: the round has begun
        ("ecws-1674", [t(7)], True),
        ("sca-isenfir", [t(12)], False),  # no main passes the dice: a new round
    ],
    ids=str,
)
def test_a_round_begins_with_a_call_or_a_throw(ruleset: str, steps: list[Any], begun: bool) -> None:
    assert act(table_for(ruleset, ("Ann", 100), ("Bob", 100)), *steps).round_begun is begun


# --- players, seats and bets ------------------------------------------------------------------------------


def test_players_are_found_by_their_exact_name() -> None:
    table = table_for("wikipedia", ("Cass", 100), ("Bot", Fraction(5, 2), BotPolicy.BYSTANDER))
    assert table.player("Bot") == Player("Bot", Fraction(5, 2), BotPolicy.BYSTANDER)
    assert (table.seated("Cass"), table.seated("cass"), table.seated("Zed")) == (True, False, False)
    with pytest.raises(IllegalError) as caught:
        table.player("cass")
    assert str(caught.value) == "illegal player 'cass': not at the table (seated: Cass, Bot)"
    with pytest.raises(IllegalError) as caught:
        table_for("wikipedia").player("Ann")
    assert str(caught.value) == "illegal player 'Ann': not at the table (seated: nobody)"


def test_the_dice_travel_to_each_players_left_and_round_again() -> None:
    table = table_for("wikipedia", ("Ann", 1), ("Bob", 1), ("Cat", 1))
    assert [table.next_after(name) for name in ("Ann", "Bob", "Cat")] == ["Bob", "Cat", "Ann"]
    assert table_for("wikipedia", ("Ann", 1)).next_after("Ann") == "Ann"


def test_the_next_after_a_player_not_at_the_table_is_refused() -> None:
    with pytest.raises(IllegalError, match="'Zed'"):
        table_for("wikipedia", ("Ann", 1), ("Bob", 1)).next_after("Zed")


def test_the_total_money_is_every_bankroll_together() -> None:
    table = table_for("wikipedia", ("Ann", Fraction(305, 3)), ("Bob", Fraction(5, 2)), ("Cat", 0))
    assert table.total_money == Fraction(305, 3) + Fraction(5, 2)


def test_a_bet_is_found_by_its_number_offered_or_taken() -> None:
    table = act(
        bank(),
        ("Sam", OfferBet("Sam", "next odd", Fraction(5))),
        ("Sue", OfferBet("Sue", "next 12", Fraction(3), Fraction(2))),
        ("Cass", TakeBet(2, "Cass")),
    )
    assert table.bet(1) == SideBet(1, "Sam", parse_proposition("next odd"), Fraction(5), Fraction(1))
    taken = table.bet(2)
    assert (taken.backer, taken.layer, taken.amount, taken.odds, taken.winnings) == ("Sue", "Cass", 3, 2, 6)
    assert taken.tracker is not None
    assert table.next_bet == 3
    with pytest.raises(IllegalError) as caught:
        table.bet(3)
    assert str(caught.value) == "illegal side bet #3: no such bet is open"


@pytest.mark.parametrize(
    ("bet", "texts"),
    [
        (
            SideBet(1, "Ann", parse_proposition("next odd"), Fraction(10), Fraction(1)),
            (
                "#1 Ann backs 'next odd' for 10.00 at even money",
                "#1 Ann backs 'next odd' for 10 at even money",
                "#1 Ann backs 'next odd' for £10 at even money",
            ),
        ),
        (
            SideBet(7, "Bob", parse_proposition("4 or 10 before 7"), Fraction(305, 3), Fraction(5, 6)),
            (
                "#7 Bob backs '4 or 10 before 7' for 101.67 at odds 5 to 6",
                "#7 Bob backs '4 or 10 before 7' for 305/3 at odds 5 to 6",
                "#7 Bob backs '4 or 10 before 7' for £101 13s 4d at odds 5 to 6",
            ),
        ),
        (
            SideBet(2, "Cat", parse_proposition("next 12"), Fraction(3, 8), Fraction(30), layer="Ann"),
            (
                "#2 Cat backs 'next 12' for 0.38 at odds 30 to 1",
                "#2 Cat backs 'next 12' for 3/8 at odds 30 to 1",
                "#2 Cat backs 'next 12' for 7s 6d at odds 30 to 1",
            ),
        ),
    ],
    ids=lambda value: str(getattr(value, "number", "")),
)
def test_a_side_bet_in_words_in_each_money_style(bet: SideBet, texts: tuple[str, str, str]) -> None:
    styles = (MoneyStyle.DECIMAL, MoneyStyle.EXACT, MoneyStyle.LSD)
    assert tuple(bet.text(style) for style in styles) == texts
    assert str(bet) == texts[0]


def test_a_transfer_in_words_in_each_money_style() -> None:
    transfer = Transfer("Sam", "Cass", Fraction(16, 5))
    assert [transfer.text(style) for style in (MoneyStyle.DECIMAL, MoneyStyle.EXACT, MoneyStyle.LSD)] == [
        "Sam pays Cass 3.20",
        "Sam pays Cass 16/5",
        "Sam pays Cass £3 4s",
    ]
    assert str(transfer) == "Sam pays Cass 3.20"


def test_a_table_in_words_names_its_ruleset_seats_caster_and_round() -> None:
    assert str(table_for("wikipedia")) == "wikipedia table of 0 players, caster None, round: no main yet"
    assert (
        str(act(bank(), Call(7))) == "wikipedia table of 3 players, caster Cass, round: main 7, no chance yet"
    )
    assert (
        str(act(bank(), Call(7), t(4)))
        == "wikipedia table of 3 players, caster Cass, round: main 7, chance 4"
    )
    assert (
        str(table_for("craps", ("Ann", 1)))
        == "craps table of 1 player, caster Ann, round: main 7, no chance yet"
    )


# --- a new table -----------------------------------------------------------------------------------------


def test_a_new_table_is_empty_with_the_rulesets_arrangement_unless_overridden() -> None:
    rules, pays = find_ruleset("ecws-1674"), find_paytable("even")
    table = new_table(rules, pays)
    assert (table.ruleset, table.paytable, table.stakes) == (rules, pays, StakeArrangement.SETTER_SUM)
    assert (table.players, table.caster, table.wagers, table.side_bets) == ((), None, (), ())
    assert (
        table.next_bet,
        table.rounds_played,
        table.throws,
        table.throws_this_round,
        table.losses_in_row,
    ) == (
        1,
        0,
        0,
        0,
        0,
    )
    assert table.round.phase is Phase.MAIN
    assert new_table(rules, pays, StakeArrangement.BANK).stakes is StakeArrangement.BANK


def test_a_new_table_refuses_a_paytable_without_odds_for_a_chance_the_ruleset_can_set() -> None:
    partial = Paytable("partial", "Partial", table={(7, 4): Fraction(2)})
    with pytest.raises(InvalidError) as caught:
        new_table(find_ruleset("wikipedia"), partial)
    assert str(caught.value) == (
        "paytable 'partial' has no odds for a chance of 4 on a main of 5, which ruleset 'wikipedia' can set"
    )


# --- the JSON form ----------------------------------------------------------------------------------------


def test_an_empty_table_as_json() -> None:
    assert table_json(table_for("craps")) == {
        "caster": None,
        "phase": "opening",
        "main": 7,
        "chance": None,
        "turn": {"caster": None, "need": "players", "stakes_open": False},
        "rounds_played": 0,
        "throws": 0,
        "throws_this_round": 0,
        "losses_in_row": 0,
        "players": [],
        "stakes": [],
        "side_bets": [],
    }


def test_a_table_in_play_as_json_with_every_sum_exact_and_a_float_beside_it() -> None:
    table = table_for("wikipedia", ("Cass", Fraction(305, 3)), ("Sam", 100), ("Bot", 50, BotPolicy.BYSTANDER))
    table = act(
        table,
        ("Sam", Stake("Sam", Fraction(5, 2))),
        ("Sam", OfferBet("Sam", "the next number is odd", Fraction(1), Fraction(5, 6))),
        ("Bot", TakeBet(1, "Bot")),
        ("Bot", OfferBet("Bot", "next 7", Fraction(2))),
        Call(7),
        t(4),
    )
    # 4 is even: Sam's side bet fails and he pays Bot his 1; main 7, chance 4 is set. Cass holds back the
    # 5/2 staked against him; Sam twice his 5/2 (the 2 to 1 on a chance of 4) and nothing for the settled
    # bet; Bot the 2 he offers.
    assert table_json(table) == {
        "caster": "Cass",
        "phase": "chance",
        "main": 7,
        "chance": 4,
        "turn": {"caster": "Cass", "need": "throw", "stakes_open": False},
        "rounds_played": 0,
        "throws": 1,
        "throws_this_round": 1,
        "losses_in_row": 0,
        "players": [
            {
                "name": "Cass",
                "bot": None,
                "bankroll": "305/3",
                "bankroll_float": 101.66666666666667,
                "free": "595/6",
                "free_float": 99.16666666666667,
            },
            {
                "name": "Sam",
                "bot": None,
                "bankroll": "99/1",
                "bankroll_float": 99.0,
                "free": "94/1",
                "free_float": 94.0,
            },
            {
                "name": "Bot",
                "bot": "bystander",
                "bankroll": "51/1",
                "bankroll_float": 51.0,
                "free": "49/1",
                "free_float": 49.0,
            },
        ],
        "stakes": [{"player": "Sam", "amount": "5/2", "amount_float": 2.5}],
        "side_bets": [
            {
                "number": 2,
                "backer": "Bot",
                "layer": None,
                "proposition": "next 7",
                "amount": "2/1",
                "amount_float": 2.0,
                "odds": "1/1",
            }
        ],
    }


def test_an_open_side_bet_at_fractional_odds_as_json() -> None:
    table = act(
        bank(),
        ("Sam", OfferBet("Sam", "odd before even", Fraction(10), Fraction(5, 6))),
        ("Sue", TakeBet(1, "Sue")),
    )
    data = table_json(table)
    assert data["side_bets"] == [
        {
            "number": 1,
            "backer": "Sam",
            "layer": "Sue",
            "proposition": "odd before even",
            "amount": "10/1",
            "amount_float": 10.0,
            "odds": "5/6",
        }
    ]
    sue = data["players"][2]
    assert (sue["free"], sue["free_float"]) == ("275/3", 91.66666666666667)


@settings(derandomize=True, max_examples=150, deadline=None)
@given(table=played_tables())
def test_the_json_form_is_plain_json_whose_floats_are_its_exact_sums(table: Table) -> None:
    data = table_json(table)
    assert json.loads(json.dumps(data)) == data
    players = {p.name: p for p in table.players}
    assert [entry["name"] for entry in data["players"]] == list(players)
    for entry in data["players"]:
        assert Fraction(entry["bankroll"]) == players[entry["name"]].bankroll
        assert Fraction(entry["free"]) == table.available(entry["name"])
    for entry in [*data["players"], *data["stakes"], *data["side_bets"]]:
        for key in [k for k in entry if f"{k}_float" in entry]:
            assert entry[key].count("/") == 1
            assert entry[f"{key}_float"] == float(Fraction(entry[key]))
    turn = table.turn
    assert data["turn"] == {"caster": turn.caster, "need": turn.need.value, "stakes_open": turn.stakes_open}
    assert (data["caster"], data["phase"], data["main"], data["chance"]) == (
        table.caster,
        table.round.phase.value,
        table.round.main,
        table.round.chance,
    )


def test_the_referee_and_the_player_make_the_same_table() -> None:
    # what the table holds does not say who entered an action
    mine = act(bank(), ("Sam", Stake("Sam", Fraction(3))))
    entered, _ = apply_action(bank(), Stake("Sam", Fraction(3)), by=REFEREE)
    assert mine == entered
    assert table_json(mine) == table_json(entered)
