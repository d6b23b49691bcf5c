"""Session studies: money only changes hands, nobody goes below zero, the same seed gives the same evening."""

from __future__ import annotations

import json

import numpy as np
import pytest
from tests.sim_reference import session_rows

from hazard.core.errors import InvalidError
from hazard.core.rules import Ruleset
from hazard.core.rulesets import (
    builtin_paytables,
    builtin_rulesets,
    find_paytable,
    find_ruleset,
    paytable_for,
)
from hazard.sim import SessionConfig, SessionTally, Staking, compile_rules, simulate_sessions
from hazard.sim.session import QUANTILES, _in_grains
from hazard.sim.stream import BLOCK_SESSIONS


def _study(name: str = "wikipedia", main: int | None = 7, **config: object) -> SessionTally:
    ruleset = find_ruleset(name)
    return simulate_sessions(
        compile_rules(ruleset, main),
        SessionConfig(**config),
        seed=12,
        paytable=paytable_for(ruleset),  # type: ignore[arg-type]
    )


@pytest.mark.parametrize("staking", list(Staking))
def test_money_only_changes_hands_and_never_goes_below_zero(staking: Staking) -> None:
    rows = session_rows(_study(sessions=40, rounds=300, players=3, bankroll=30, staking=staking))
    assert np.allclose(rows.bankrolls.sum(axis=1), 90.0)
    assert (rows.bankrolls >= -1e-9).all()
    ruined = rows.ruined_in >= 0
    assert (rows.bankrolls[ruined] < 1.0).all()


def test_the_setters_take_matches_the_exact_edge() -> None:
    ruleset = find_ruleset("craps")
    study = simulate_sessions(
        compile_rules(ruleset),
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
            compile_rules(find_ruleset("sca")),
            SessionConfig(sessions=3 * BLOCK_SESSIONS + 5, rounds=120, staking=Staking.PAROLI),
            seed=99,
            workers=workers,
        )
        data = study.to_json_dict()
        data.pop("seconds")
        return json.dumps(data, sort_keys=True) + repr(session_rows(study).bankrolls.tolist())

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
            table = compile_rules(ruleset, main)
            _, nets, most_won = _in_grains(table, paytable)  # both in grains per base stake
            assert most_won == max(*nets)
            assert all(net == int(net) for net in nets)  # whole grains: exact, as the table's fractions
    on_six = compile_rules(find_ruleset("wikipedia"), 6)
    grain, _, most_won = _in_grains(on_six, find_paytable("true-odds"))
    assert most_won / grain == 5 / 3  # only main 6's chances: 4 or 10, 5 to 3


def test_long_sessions_are_blocks_of_their_own_and_the_workers_change_nothing() -> None:
    from hazard.sim.stream import BLOCK_SESSION_ROUNDS, block_sessions

    rounds = BLOCK_SESSION_ROUNDS  # one session a block
    assert block_sessions(rounds) == 1
    assert block_sessions(200) == BLOCK_SESSIONS
    config = SessionConfig(sessions=3, rounds=rounds, bankroll=1e9)
    table = compile_rules(find_ruleset("craps"))
    one = simulate_sessions(table, config, seed=5, workers=1)
    two = simulate_sessions(table, config, seed=5, workers=2)
    assert two.workers == 2  # three blocks: both threads at work
    assert one.first_bankroll.distribution() is not None
    assert repr(one.all_bankrolls.distribution()) == repr(two.all_bankrolls.distribution())
    assert session_rows(one).played.tolist() == [rounds] * 3 == session_rows(two).played.tolist()
    assert one.rounds_played == 3 * rounds


@pytest.mark.parametrize("staking", [Staking.FLAT, Staking.MARTINGALE])
def test_a_study_with_too_many_bankrolls_to_count_finds_the_same_figures_again(
    staking: Staking, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Past a tally's limit the quantiles come from replays of the sessions: the same figures, to the bit,
    as counting every bankroll, and as NumPy over every session's row."""
    from hazard.sim import tally

    config = SessionConfig(sessions=5 * BLOCK_SESSIONS + 1, rounds=90, staking=staking)
    counted = _study(**_fields(config))
    monkeypatch.setattr(tally, "DISTINCT_LIMIT", 3)
    monkeypatch.setattr(tally, "COLLECT_LIMIT", 4)
    replayed = _study(**_fields(config))
    assert counted.all_bankrolls.exact
    assert not replayed.all_bankrolls.exact
    assert replayed.to_json_dict() | {"seconds": 0} == counted.to_json_dict() | {"seconds": 0}
    rows = session_rows(counted)
    first = replayed.to_json_dict()["final_bankroll_all_players"]
    assert first["quantiles"] == {str(q): float(np.quantile(rows.bankrolls, q)) for q in QUANTILES}  # type: ignore[index]
    edges = np.linspace(0, 300, 13)
    assert (
        replayed.first_bankroll.histogram(edges, replayed.tally_replay(lambda r: r.bankrolls[:, 0])).tolist()
        == np.histogram(rows.bankrolls[:, 0], edges)[0].tolist()
    )


def _fields(config: SessionConfig) -> dict[str, object]:
    return {name: getattr(config, name) for name in ("sessions", "rounds", "staking")}


@pytest.mark.slow
def test_what_a_study_keeps_does_not_grow_with_its_sessions() -> None:
    """Four times the sessions, the same memory at its peak: no row is kept per session."""
    import tracemalloc

    table = compile_rules(find_ruleset("craps"))

    def peak(sessions: int) -> int:
        tracemalloc.start()
        try:
            simulate_sessions(table, SessionConfig(sessions=sessions, rounds=20), seed=1, workers=2)
            return tracemalloc.get_traced_memory()[1]
        finally:
            tracemalloc.stop()

    small, large = peak(25_000), peak(100_000)
    # a row a session would be 100,000 x 112 bytes (11 MB) at the larger size
    assert large < 1.5 * small + 1_000_000, (small, large)
    assert large < 8_000_000
