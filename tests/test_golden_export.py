"""A seed gives the same export, byte for byte: the record a set of actions writes, and what is read back
from it, are pinned by files written before the house was restructured (issue 20).

Two games are played through the table service, as the front ends play them: one against bots on seeded
dice (stakes against the bank, a side bet offered and taken, a leave, a withdrawal) and one refereed (typed
dice, a correction). Their times are then set to one fixed instant and the chain sealed again over them (the
only thing in a record that a seed does not fix), and ``hazard record export`` must print, in JSON and in
CSV, exactly the pinned files. ``HAZARD_WRITE_GOLDEN=1`` writes them afresh (only when a change of the
export is meant).
"""

from __future__ import annotations

import contextlib
import os
from fractions import Fraction
from pathlib import Path

import pytest
from tests.commandline import run
from tests.paths import FIXTURES
from tests.records import reseal, sql

from hazard.core.rulesets import find_ruleset
from hazard.table import (
    REFEREE,
    Actor,
    BotBrains,
    BotPolicy,
    DiceKind,
    GameKind,
    GameStore,
    HazardError,
    Need,
    Session,
    Sit,
    TableSpec,
    table_paytable,
)

GOLDEN = FIXTURES / "golden-export"
INSTANT = "2026-01-02T03:04:05+00:00"
ANN, DAN = Actor.player("Ann"), Actor.player("Dan")


def _played(store: GameStore) -> int:
    rules = find_ruleset("wikipedia")
    paytable, _ = table_paytable(rules)
    session = Session.start(
        store,
        TableSpec(
            rules, paytable, dice=DiceKind.SEEDED, seed=2026, kind=GameKind.PLAY, bots=BotBrains(Fraction(1))
        ),
        settings={"bot_unit": "1/1"},
    )
    for sit in (
        Sit("Ann", Fraction(100)),
        Sit("Bob", Fraction(100), BotPolicy.SETTER),
        Sit("Cat", Fraction(100), BotPolicy.BYSTANDER),
        Sit("Dan", Fraction(40)),
    ):
        session.play(sit, by=Actor.player(sit.name))
    session.bots_act(call=False)
    humans = {"Ann", "Dan"}
    for _ in range(40):  # Ann's and Dan's turns: a stake named and a side bet offered on each call
        turn = session.table.turn
        if turn.caster not in humans:
            if not session.bots_act():
                break
            continue
        by = Actor.player(turn.caster)
        texts = ["stake 5", "offer 2 on next 7 at 5", "call 7"] if turn.need is Need.CALL else ["throw"]
        for text in texts:
            with contextlib.suppress(HazardError):
                session.act(text, by=by)
        session.bots_act()
    with contextlib.suppress(HazardError):
        session.act("withdraw 5", by=DAN)
    session.act("leave", by=DAN)
    return session.game


def _refereed(store: GameStore) -> int:
    rules = find_ruleset("wikipedia")
    paytable, _ = table_paytable(rules)
    session = Session.start(store, TableSpec(rules, paytable, dice=DiceKind.TYPED, kind=GameKind.REFEREE))
    for text in (
        "sit Ann 100",
        "sit Bob £20 10s",
        "stake Bob 5",
        "offer Bob 1 on next odd at 3/2",
        "take 1 Ann",
        "call 7",
        "2 2",
        "3 3",
        "1 3",
        "call 6",
        "5 6",
    ):
        session.act(text, by=REFEREE)
    session.correct(len(session.entries))
    session.act("6 6", by=REFEREE)
    return session.game


def _exports(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> dict[str, str]:
    db = tmp_path / "games.db"
    store = GameStore.open(str(db))
    try:
        games = {"played": _played(store), "refereed": _refereed(store)}
    finally:
        store.close()
    sql(db, "UPDATE hazard_games SET created = ?", INSTANT)
    sql(db, "UPDATE hazard_entries SET at = ?", INSTANT)
    reseal(db)
    out: dict[str, str] = {}
    for name, game in games.items():
        for form in ("json", "csv"):
            code, text, err = run(capsys, "record", "export", str(game), "--db", str(db), "--format", form)
            assert (code, err) == (0, ""), err
            out[f"{name}.{form}"] = text
    return out


def test_a_seed_gives_the_pinned_export_byte_for_byte(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    exports = _exports(tmp_path, capsys)
    if os.environ.get("HAZARD_WRITE_GOLDEN"):
        GOLDEN.mkdir(parents=True, exist_ok=True)
        for name, text in exports.items():
            (GOLDEN / name).write_text(text, encoding="utf-8")
    for name, text in exports.items():
        assert text == (GOLDEN / name).read_text(encoding="utf-8"), name
