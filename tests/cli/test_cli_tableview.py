"""How a table and its record look in the terminal and in CSV (``hazard.cli.tableview``), in each money style.

A small refereed game is built in an in-memory record: Ann sits with 305/3 (101.67, £101 13s 4d), Bob the
setter bot stakes 7s 6d against her, offers a side bet nobody takes and takes one of Ann's.
"""

from __future__ import annotations

import csv
import io
import json
import re
from collections.abc import Iterator

import pytest
from rich.console import Console, RenderableType

from hazard.cli.tableview import (
    entries_view,
    game_csv,
    info_text,
    round_line,
    rules_text,
    table_view,
)
from hazard.core.rules import StakeArrangement
from hazard.core.rulesets import find_ruleset
from hazard.table import (
    REFEREE,
    Actor,
    DiceKind,
    GameKind,
    GameStore,
    MoneyStyle,
    Session,
    TableSpec,
    table_paytable,
)


def _text(renderable: RenderableType) -> str:
    out = io.StringIO()
    Console(width=120, file=out, highlight=False, color_system=None).print(renderable)
    return out.getvalue()


@pytest.fixture
def session() -> Iterator[Session]:
    store = GameStore.open("sqlite://", in_memory=True)
    rules = find_ruleset("wikipedia")
    paytable, _ = table_paytable(rules)
    game = Session.start(
        store,
        TableSpec(rules, paytable, dice=DiceKind.TYPED, kind=GameKind.REFEREE),
        settings={"bot_unit": "1/3"},
    )
    for line in (
        "sit Ann 305/3",
        "sit Bob 100 as a setter bot",
        "stake Bob 7s 6d",
        "offer Bob 1 on 4 before 7 at 2/1",
        "offer Ann 2 on 6 before 8",
        "take 2 Bob",
    ):
        game.act(line, by=REFEREE)
    yield game
    store.close()


def _played_on(session: Session) -> None:
    """Ann calls 7; a 3-4 typed by mistake is undone; 1-1 throws out, so Ann loses Bob's 7s 6d."""
    session.act("call 7", by=REFEREE)
    session.act("3-4", by=REFEREE)
    session.correct(None)
    session.act("1-1", by=REFEREE)


def test_round_line(session: Session) -> None:
    assert round_line(session.table) == "Round 1 · Ann has the dice · no main yet · 0 throws this round"
    _played_on(session)
    assert round_line(session.table) == (
        "Round 2 · Ann has the dice · no main yet · 0 throws this round · 1 of 3 losses before the dice pass"
    )


def test_an_empty_table_is_its_round_line_alone() -> None:
    store = GameStore.open("sqlite://", in_memory=True)
    try:
        rules = find_ruleset("craps")
        paytable, _ = table_paytable(rules)
        table = Session.start(store, TableSpec(rules, paytable)).table
    finally:
        store.close()
    assert (
        round_line(table) == "Round 1 · nobody has the dice yet · main 7, no chance yet · 0 throws this round"
    )
    assert _text(table_view(table)) == round_line(table) + "\n"


def test_info_text_gives_the_bot_unit_in_the_money_style(session: Session) -> None:
    texts = {style: info_text(session.info, style) for style in MoneyStyle}
    assert texts[MoneyStyle.DECIMAL].startswith(
        "Game 1 · hazard referee · bot unit 0.33 · wikipedia, paytable wikipedia, stakes bank · typed dice · "
        "started "
    )
    assert " · bot unit 1/3 · " in texts[MoneyStyle.EXACT]
    assert " · bot unit 6s 8d · " in texts[MoneyStyle.LSD]
    assert info_text(session.info) == texts[MoneyStyle.DECIMAL]


def test_table_view_in_each_money_style(session: Session) -> None:
    views = {style: _text(table_view(session.table, you="Ann", money=style)) for style in MoneyStyle}
    assert _text(table_view(session.table, you="Ann")) == views[MoneyStyle.DECIMAL]
    for view in views.values():
        assert view.startswith("Round 1 · Ann has the dice · no main yet · 0 throws this round\n")
        assert re.search(r"player\s+bankroll\s+free\s+stake", view)
    decimal, exact, lsd = views[MoneyStyle.DECIMAL], views[MoneyStyle.EXACT], views[MoneyStyle.LSD]
    # Ann's free money: 305/3, less the 3/8 she covers and the 2 she backs.
    assert re.search(r"Ann\s+101\.67\s+99\.29\s+covers 0\.38\s+you, caster\s*\n", decimal)
    assert re.search(r"Bob\s+100\.00\s+96\.25\s+0\.38 against Ann\s+setter bot\s*\n", decimal)
    assert re.search(r"Ann\s+305/3\s+2383/24\s+covers 3/8\s+you, caster\s*\n", exact)
    assert re.search(r"Bob\s+100\s+385/4\s+3/8 against Ann\s+setter bot\s*\n", exact)
    assert re.search(r"Ann\s+£101 13s 4d\s+£99 5s 10d\s+covers 7s 6d\s+you, caster\s*\n", lsd)
    assert re.search(r"Bob\s+£100\s+£96 5s\s+7s 6d against Ann\s+setter bot\s*\n", lsd)
    assert (
        "side bet #1 Bob backs '4 before 7' for 1.00 at odds 2 to 1 — open: take it with 'take 1'\n"
        "side bet #2 Ann backs '6 before 8' for 2.00 at even money — taken by Bob\n"
    ) in decimal
    assert "side bet #1 Bob backs '4 before 7' for £1 at odds 2 to 1 — open" in lsd
    assert "side bet #2 Ann backs '6 before 8' for 2 at even money — taken by Bob" in exact


def test_table_view_without_you(session: Session) -> None:
    view = _text(table_view(session.table))
    assert re.search(r"Ann\s+101\.67\s+99\.29\s+covers 0\.38\s+caster\s*\n", view)
    assert "you" not in view


def test_entries_view_says_who_entered_each_entry_and_its_standing(session: Session) -> None:
    _played_on(session)
    shown = _text(entries_view(session.replayed()))
    assert shown.startswith("Entries of game 1:\n[1] sit Ann 305/3 · entered by the referee for Ann · ")
    # Commands are exact where decimal would lose something, so that they read back the same.
    assert re.search(
        r"\n\[3\] stake Bob 3/8 · entered by the referee for Bob · \S+\n"
        r"      Bob stakes 0\.38 against Ann\n",
        shown,
    )
    assert "\n[4] offer Bob 1 on 4 before 7 at 2/1 · entered by the referee for Bob · " in shown
    assert "\n[8] throw 3-4 · entered by the referee · void · " in shown
    assert "\n[9] correction: entry 8 is void · entered by the referee · " in shown
    assert re.search(
        r"\n\[10\] throw 1-1 · entered by the referee for Ann · \S+\n"
        r"      Ann throws 1-1\n"
        r"      2 with a main of 7 throws out: the caster loses\n"
        r"      the caster Ann loses 0\.38 \(Ann pays Bob 0\.38\)\n",
        shown,
    )
    lsd = _text(entries_view(session.replayed(), MoneyStyle.LSD))
    assert "\n[1] sit Ann £101 13s 4d · entered by the referee for Ann · " in lsd
    assert "\n[3] stake Bob 7s 6d · " in lsd
    assert "the caster Ann loses 7s 6d (Ann pays Bob 7s 6d)" in lsd
    exact = _text(entries_view(session.replayed(), MoneyStyle.EXACT))
    assert "\n      Bob stakes 3/8 against Ann\n" in exact


def test_a_played_game_names_each_player_who_acted() -> None:
    store = GameStore.open("sqlite://", in_memory=True)
    try:
        rules = find_ruleset("craps")
        paytable, _ = table_paytable(rules)
        game = Session.start(store, TableSpec(rules, paytable, dice=DiceKind.SEEDED, seed=1))
        for name in ("Ann", "Bob"):
            game.act(f"sit {name} 20", by=Actor.player(name))
        game.act("stake 5", by=Actor.player("Bob"))
        shown = _text(entries_view(game.replayed()))
    finally:
        store.close()
    assert "\n[1] sit Ann 20 · by Ann · " in shown
    assert "\n[3] stake Bob 5 · by Bob · " in shown
    assert "entered by the referee" not in shown


def test_game_csv_has_a_row_per_entry(session: Session) -> None:
    _played_on(session)
    rows = list(csv.DictReader(io.StringIO(game_csv(session.replayed()))))
    assert list(rows[0]) == ["seq", "at", "actor", "for", "type", "entry", "standing", "events", "data"]
    assert [row["seq"] for row in rows] == [str(n) for n in range(1, 11)]
    assert [row["type"] for row in rows] == [
        "sit",
        "sit",
        "stake",
        "offer-bet",
        "offer-bet",
        "take-bet",
        "call",
        "throw",
        "correction",
        "throw",
    ]
    assert {row["actor"] for row in rows} == {"the referee"}
    assert [row["for"] for row in rows] == ["Ann", "Bob", "Bob", "Bob", "Ann", "Bob", "Ann", "", "", "Ann"]
    assert rows[2]["entry"] == "stake Bob 3/8"  # exact, whatever the screen's style
    assert [row["standing"] for row in rows][7:9] == ["void", "correction"]
    assert rows[0]["events"] == "Ann sits down with 305/3 | Ann takes the dice"  # exact, as in JSON
    assert json.loads(rows[2]["data"]) == {
        "type": "stake",
        "player": "Bob",
        "amount": "3/8",
        "consent": False,
    }
    assert json.loads(rows[8]["data"]) == {"type": "correction", "target": 8, "replacement": None}


def test_rules_and_stakes_in_words(session: Session) -> None:
    assert rules_text(session.info) == (
        "Hazard after the Wikipedia article: the main is called; stakes: each setter against the caster; "
        "a won chance pays odds by main and chance, from a table; the dice pass after 3 lost rounds in a row"
    )
    assert [stakes.text for stakes in StakeArrangement] == [
        "each setter against the caster",
        "one setter's sum, accepted by the caster",
        "everyone against the caster",
    ]
