"""One TableSpec sets up every table (issue 20, item 8): checked when made, taken whole by Session.start."""

from __future__ import annotations

from fractions import Fraction

import pytest

from hazard.core.rulesets import EVEN_MONEY, find_paytable, find_ruleset, settling_paytable
from hazard.table import (
    BotBrains,
    DiceKind,
    GameKind,
    GameStore,
    InvalidError,
    Session,
    Sit,
    TableSpec,
    table_paytable,
)

RULES = find_ruleset("wikipedia")
PAYS = table_paytable(RULES)[0]


def test_fair_dice_take_no_seed() -> None:
    with pytest.raises(InvalidError, match="invalid seed 3: fair dice take no seed"):
        TableSpec(RULES, PAYS, dice=DiceKind.FAIR, seed=3)


@pytest.mark.parametrize("dice", [DiceKind.SEEDED, DiceKind.SECURE])
def test_a_web_table_has_fair_or_typed_dice(dice: DiceKind) -> None:
    with pytest.raises(InvalidError, match="a web table has the server's fair dice"):
        TableSpec(RULES, PAYS, dice=dice, seed=1 if dice is DiceKind.SEEDED else None, kind=GameKind.WEB)
    assert TableSpec(RULES, PAYS, dice=DiceKind.TYPED, kind=GameKind.WEB).kind is GameKind.WEB


def test_a_spec_checks_seats_before_anything_is_written() -> None:
    spec = TableSpec(RULES, PAYS, dice=DiceKind.SEEDED, seed=1)
    spec.check_seats([Sit("Ann", Fraction(10))])
    with pytest.raises(InvalidError):
        spec.check_seats([Sit("Ann", Fraction(-1))])


def test_session_start_takes_the_spec_whole() -> None:
    store = GameStore.open("sqlite://", in_memory=True)
    spec = TableSpec(
        RULES,
        PAYS,
        dice=DiceKind.SEEDED,
        seed=5,
        kind=GameKind.REFEREE,
        label="back room",
        bots=BotBrains(Fraction(2)),
    )
    session = Session.start(store, spec, settings={"room": "back"})
    info = session.info
    assert (info.ruleset.id, info.paytable.id, info.dice, info.seed, info.kind, info.label) == (
        RULES.id,
        PAYS.id,
        DiceKind.SEEDED,
        5,
        GameKind.REFEREE,
        "back room",
    )
    assert info.settings == {"room": "back"}
    assert session.brains == BotBrains(Fraction(2))
    unlabelled = Session.start(store, TableSpec(RULES, PAYS))
    assert unlabelled.info.label == GameKind.PLAY.label


def test_no_paytable_means_even_money_said_once_in_the_core() -> None:
    even = find_paytable(EVEN_MONEY)
    assert settling_paytable(None) == even
    assert settling_paytable(PAYS) is PAYS
    britannica = find_ruleset("britannica-1911")  # it names no paytable
    assert table_paytable(britannica) == (even, True)
