"""Look-alike names (issue 19, finding 4): a newcomer may not pass for a seated player, at any front end.

Table-driven: each case is the players seated, the newcomer's name, and what the table says. The refusal
names the seated player the name resembles (or the scripts it mixes); a record written before the check,
holding such names, still loads.
"""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import pytest

from hazard.core.errors import IllegalError
from hazard.core.rules import StakeArrangement
from hazard.core.rulesets import find_paytable, find_ruleset
from hazard.table import (
    REFEREE,
    Actor,
    DiceKind,
    GameKind,
    GameStore,
    Session,
    Sit,
    TableSpec,
    check_seats,
    load_game,
)

RULES = find_ruleset("wikipedia")
PAYS = find_paytable("wikipedia")

REFUSED = [
    # (seated, newcomer, what the refusal says)
    (["Ann"], "\u0410nn", "more than one script (Cyrillic, Latin)"),  # Cyrillic А: the case
    (["Ann"], "\u00c1nn", "looks like 'Ann'"),  # Á: the case (an accent, which TR39 keeps)
    (["Ann"], "A\u0301nn", "looks like 'Ann'"),  # the same, decomposed (NFKC composes it)
    (["Ann"], "ÀNN", "looks like 'Ann'"),  # accents and case
    (["Zoe"], "Zoë", "looks like 'Zoe'"),
    (["Zoë"], "Zoe", "looks like 'Zoë'"),
    (["Cox"], "\u0421\u043e\u0445", "looks like 'Cox'"),  # all Cyrillic (С о х): one script, same skeleton
    (["Ian"], "lan", "looks like 'Ian'"),  # a small L for a capital I
    (["Ian"], "\u0399an", "more than one script (Greek, Latin)"),  # Greek Iota
    (["Tom"], "Torn", "looks like 'Tom'"),  # r n for m
    (["Ann", "Bob"], "B\u043eb", "more than one script (Latin, Cyrillic)"),  # a Cyrillic о inside
    (["Ann", "Bill"], "Bi11", "looks like 'Bill'"),  # the digit one for l
    (["Ann", "LEO"], "LE0", "looks like 'LEO'"),  # the digit zero for O
    (["Ann"], "ann", "already at the table"),  # the same name, as before
    (["Bob"], "\uff22ob", "already at the table"),  # full-width: NFKC writes it Bob
]

ALLOWED = [
    (["Ann"], "Anne"),
    (["Ann"], "Ann Lee"),
    (["Ann"], "\u0418\u0432\u0430\u043d"),  # Иван: Cyrillic throughout
    (["Ann"], "山田たろう"),  # Han with Hiragana: Japanese, one script to TR39
    (["Ann"], "김민준"),  # Hangul
    (["Bob"], "Björn"),
    (["Ann"], "Ann2"),  # digits go with any script
    (["Jo"], "Joe"),
]


def session(tmp_path: Path, seated: list[str]) -> Session:
    store = GameStore.open(str(tmp_path / "games.db"))
    started = Session.start(
        store, TableSpec(RULES, PAYS, stakes=StakeArrangement.BANK, dice=DiceKind.SEEDED, seed=1)
    )
    for name in seated:
        started.act(Sit(name, Fraction(10)), by=Actor.player(name))
    return started


@pytest.mark.parametrize(("seated", "name", "said"), REFUSED, ids=ascii)
def test_a_look_alike_newcomer_is_refused_naming_whom_he_resembles(
    tmp_path: Path, seated: list[str], name: str, said: str
) -> None:
    table = session(tmp_path, seated)
    before = len(table.entries)
    for by in (Actor.player(name), REFEREE):  # sitting himself down, or seated by the referee (the host)
        with pytest.raises(IllegalError, match="illegal seat") as refused:
            table.act(Sit(name, Fraction(10)), by=by)
        assert said in str(refused.value)
    assert len(table.entries) == before  # nothing written
    # the terminal's players, seated when a game starts, obey it too
    with pytest.raises(IllegalError, match="illegal seat"):
        check_seats(RULES, PAYS, None, [Sit(n, Fraction(10)) for n in [*seated, name]])


@pytest.mark.parametrize(("seated", "name"), ALLOWED, ids=ascii)
def test_a_name_of_its_own_sits_down(tmp_path: Path, seated: list[str], name: str) -> None:
    table = session(tmp_path, seated)
    table.act(Sit(name, Fraction(10)), by=Actor.player(name))
    assert table.table.seated(name)


def test_skeletons_are_unicodes_and_scripts_resolve_as_tr39_says() -> None:
    from hazard.table.rules.lookalike import mixed_scripts, resembles, skeleton

    assert skeleton("\u0410nn") == skeleton("Ann") == "Ann"
    assert skeleton("\u00c1nn") != skeleton("Ann")  # TR39 keeps accents: the folded form catches them
    assert skeleton("rn") == skeleton("m")
    assert resembles("\u00c1nn", ["Bob", "Ann"]) == "Ann"
    assert resembles("Anne", ["Ann"]) is None
    assert mixed_scripts("Ann") == []
    assert mixed_scripts("山田たろう") == []
    assert mixed_scripts("\u0410nn") == ["Cyrillic", "Latin"]


def test_a_record_written_before_the_check_still_loads(tmp_path: Path) -> None:
    store = GameStore.open(str(tmp_path / "games.db"))
    info = store.create(
        ruleset=RULES,
        paytable=PAYS,
        stakes=StakeArrangement.BANK,
        dice=DiceKind.SEEDED,
        seed=1,
        kind=GameKind.PLAY,
        entries=[(REFEREE, Sit("Ann", Fraction(10))), (REFEREE, Sit("\u0410nn", Fraction(10)))],
    )
    loaded = load_game(store, info.id)
    assert [p.name for p in loaded.table.players] == ["Ann", "\u0410nn"]
    resumed = Session.resume(store, info.id, kind=GameKind.PLAY)
    with pytest.raises(IllegalError, match="looks like 'Ann'"):  # but nobody new sits so
        resumed.act(Sit("\u00c1nn", Fraction(10)), by=REFEREE)
