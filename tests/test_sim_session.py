"""Session studies: money only changes hands, nobody goes below zero, the same seed gives the same evening."""

from __future__ import annotations

import json

import numpy as np
import pytest

from hazard.core.errors import InvalidError
from hazard.core.rules import Ruleset
from hazard.core.rulesets import (
    builtin_paytables,
    builtin_rulesets,
    find_paytable,
    find_ruleset,
    paytable_for,
)
from hazard.sim import SessionConfig, Staking, compile_table, simulate_sessions
from hazard.sim.session import _most_won, _nets
from hazard.sim.stream import BLOCK_SESSIONS


def _study(name: str = "wikipedia", main: int | None = 7, **config: object) -> object:
    ruleset = find_ruleset(name)
    return simulate_sessions(
        compile_table(ruleset, main),
        SessionConfig(**config),
        seed=12,
        paytable=paytable_for(ruleset),  # type: ignore[arg-type]
    )


@pytest.mark.parametrize("staking", list(Staking))
def test_money_only_changes_hands_and_never_goes_below_zero(staking: Staking) -> None:
    study = _study(sessions=40, rounds=300, players=3, bankroll=30, staking=staking)
    assert np.allclose(study.bankrolls.sum(axis=1), 90.0)  # type: ignore[attr-defined]
    assert (study.bankrolls >= -1e-9).all()  # type: ignore[attr-defined]
    ruined = study.ruined_in >= 0  # type: ignore[attr-defined]
    assert (study.bankrolls[ruined] < 1.0).all()  # type: ignore[attr-defined]


def test_the_setters_take_matches_the_exact_edge() -> None:
    ruleset = find_ruleset("craps")
    study = simulate_sessions(
        compile_table(ruleset),
        SessionConfig(sessions=400, rounds=500, bankroll=10_000),
        seed=3,
        paytable=find_paytable("even"),
    )
    # craps at even money: the setters' edge is 7/495 per unit staked; 200,000 rounds of one unit
    se = 1 / np.sqrt(200_000)
    assert abs(study.take_per_unit - 7 / 495) < 4 * se
    assert study.ruin.value == 0


def test_the_same_seed_gives_the_same_sessions_whatever_the_workers() -> None:
    def run(workers: int) -> str:
        study = simulate_sessions(
            compile_table(find_ruleset("sca")),
            SessionConfig(sessions=3 * BLOCK_SESSIONS + 5, rounds=120, staking=Staking.PAROLI),
            seed=99,
            workers=workers,
        )
        data = study.to_json_dict()
        data.pop("seconds")
        return json.dumps(data, sort_keys=True) + repr(study.bankrolls.tolist())

    assert run(1) == run(2) == run(3)


def test_the_dice_pass_by_the_rule() -> None:
    never = _study("ecws", None, sessions=10, rounds=100)
    assert never.rounds_kept is None  # type: ignore[attr-defined]
    every_loss = _study("sca", None, sessions=200, rounds=200, bankroll=1000)
    kept = every_loss.rounds_kept  # type: ignore[attr-defined]
    assert kept is not None
    assert 0.5 < kept.value < 1.5  # a throw out of 5 to 9 passes the dice with no round, a third of the time


def test_a_martingale_ruins_more_often_than_flat_stakes() -> None:
    flat = _study(sessions=300, rounds=400, bankroll=40, staking=Staking.FLAT)
    doubling = _study(sessions=300, rounds=400, bankroll=40, staking=Staking.MARTINGALE, cap=8)
    assert doubling.any_ruin.value > flat.any_ruin.value  # type: ignore[attr-defined]


@pytest.mark.parametrize(
    ("config", "message"),
    [
        ({"sessions": 0}, "invalid number of sessions 0"),
        ({"rounds": 0}, "invalid number of rounds per session 0"),
        ({"players": 1}, "invalid number of players 1"),
        ({"stake": 0.0}, "invalid stake"),
        ({"bankroll": 0.5}, "invalid bankroll"),
        ({"cap": 0}, "invalid progression cap 0"),
    ],
)
def test_bad_configurations_are_refused(config: dict[str, object], message: str) -> None:
    with pytest.raises(InvalidError, match=message):
        SessionConfig(**config)  # type: ignore[arg-type]


def test_json_form() -> None:
    study = _study(sessions=20, rounds=50)
    data = study.to_json_dict(exact_edge=-1 / 9)  # type: ignore[attr-defined]
    assert data["sessions"] == 20
    assert data["staking"] == "flat"
    assert data["paytable"] == "wikipedia"
    assert data["exact_edge"] == pytest.approx(-1 / 9)
    json.dumps(data, allow_nan=False)


@pytest.mark.parametrize("ruleset", builtin_rulesets(), ids=lambda r: r.id)
def test_the_cover_is_the_paytables_most_won_of_what_is_played(ruleset: Ruleset) -> None:
    """The one definition (Paytable.most_won) gives what the best net of the compiled outcomes gave."""
    for paytable in (None, *builtin_paytables()):
        if paytable is not None:
            paytable.check(ruleset)  # every built-in paytable covers every built-in ruleset
        for main in (None, *ruleset.mains):
            table = compile_table(ruleset, main)
            assert _most_won(table, paytable) == max(float(_nets(table, paytable).max()), 1e-9)
    on_six = compile_table(find_ruleset("wikipedia"), 6)
    assert _most_won(on_six, find_paytable("true-odds")) == 5 / 3  # only main 6's chances: 4 or 10, 5 to 3


def test_long_sessions_are_blocks_of_their_own_and_the_workers_change_nothing() -> None:
    from hazard.sim.stream import BLOCK_SESSION_ROUNDS, block_sessions

    rounds = BLOCK_SESSION_ROUNDS  # one session a block
    assert block_sessions(rounds) == 1
    assert block_sessions(200) == BLOCK_SESSIONS
    config = SessionConfig(sessions=3, rounds=rounds, bankroll=1e9)
    table = compile_table(find_ruleset("craps"))
    one = simulate_sessions(table, config, seed=5, workers=1)
    two = simulate_sessions(table, config, seed=5, workers=2)
    assert two.workers == 2  # three blocks: both threads at work
    assert one.bankrolls.tolist() == two.bankrolls.tolist()
    assert int(one.played.sum()) == 3 * rounds
