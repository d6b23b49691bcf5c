"""Studies on a Dask cluster: a LocalCluster of worker processes gives the same results as this machine."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from contextlib import AbstractContextManager
from typing import Any

import pytest
from tests.commandline import fails, run

from hazard.core.errors import InvalidError
from hazard.core.rulesets import find_ruleset, paytable_for
from hazard.sim import SessionConfig, Staking, compile_rules, round_stats, simulate_rounds, simulate_sessions
from hazard.sim.cluster import connect
from hazard.sim.stream import BLOCK_ROUNDS, BLOCK_SESSIONS

distributed = pytest.importorskip("distributed")


@pytest.fixture(scope="module")
def scheduler() -> Iterator[str]:
    """A cluster of two worker processes on loopback, one thread each: its scheduler's address."""
    with distributed.LocalCluster(
        n_workers=2,
        threads_per_worker=1,
        processes=True,
        host="127.0.0.1",
        dashboard_address=None,
        worker_dashboard_address=None,
    ) as cluster:
        yield cluster.scheduler_address


def _enter(context: AbstractContextManager[object]) -> None:
    with context:
        pass


def _without_time(data: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in data.items() if k != "seconds"}


def test_rounds_on_the_cluster_equal_rounds_here(scheduler: str) -> None:
    table = compile_rules(find_ruleset("ecws-1674"))
    rounds = 3 * BLOCK_ROUNDS + 11  # several blocks, the last short
    here = round_stats(simulate_rounds(table, rounds, seed=21, workers=2)).to_json_dict()
    with connect(scheduler) as pool:
        assert pool.width == 2
        counts = simulate_rounds(table, rounds, seed=21, pool=pool)
    assert counts.workers == 2
    assert _without_time(round_stats(counts).to_json_dict()) == _without_time(here)


@pytest.mark.parametrize("staking", [Staking.FLAT, Staking.MARTINGALE])
def test_sessions_on_the_cluster_equal_sessions_here(scheduler: str, staking: Staking) -> None:
    ruleset = find_ruleset("wikipedia")
    config = SessionConfig(sessions=5 * BLOCK_SESSIONS + 3, rounds=80, staking=staking)
    table = compile_rules(ruleset)
    here = simulate_sessions(table, config, seed=4, paytable=paytable_for(ruleset))
    with connect(scheduler) as pool:
        there = simulate_sessions(table, config, seed=4, paytable=paytable_for(ruleset), pool=pool)
    assert _without_time(there.to_json_dict()) == _without_time(here.to_json_dict())
    # what the cluster's blocks held, session by session, counted in the same
    for tally in ("first_bankroll", "all_bankrolls", "hands", "take_per_unit_session"):
        assert repr(getattr(there, tally).distribution()) == repr(getattr(here, tally).distribution())


def test_hazard_simulate_on_a_cluster_gives_what_it_gives_here(
    scheduler: str, capsys: pytest.CaptureFixture[str]
) -> None:
    options = ["simulate", "-r", "craps", "--rounds", str(2 * BLOCK_ROUNDS + 5), "--seed", "9", "-f", "json"]
    code, here, err = run(capsys, *options)
    assert code == 0, err
    code, there, err = run(capsys, *options, "--cluster", scheduler)
    assert code == 0, err
    assert _without_time(json.loads(there)) == _without_time(json.loads(here))


@pytest.mark.slow
def test_a_cluster_that_cannot_be_reached_or_named_is_refused(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from hazard.sim import cluster

    monkeypatch.setattr(cluster, "CONNECT_SECONDS", 1)  # nobody listens there: no need to wait 10 s
    with pytest.raises(InvalidError, match=re.escape("cannot reach the cluster at 'tcp://127.0.0.1:1'")):
        _enter(connect("tcp://127.0.0.1:1"))
    for bad in ("", "tcp://a b", "x" * 400):
        with pytest.raises(InvalidError, match="invalid --cluster"):
            _enter(connect(bad))
    line = fails(capsys, "simulate", "--rounds", "10", "--cluster", "tcp://127.0.0.1:1")
    assert line.startswith("error: cannot reach the cluster at 'tcp://127.0.0.1:1'"), line
    line = fails(capsys, "simulate", "--rounds", "10", "--cluster", "tcp://127.0.0.1:1", "--workers", "2")
    assert "invalid option --workers with --cluster" in line


def test_without_the_extra_the_cluster_option_says_what_to_install(monkeypatch: pytest.MonkeyPatch) -> None:
    import builtins

    real_import = builtins.__import__

    def no_distributed(name: str, *args: Any, **kwargs: Any) -> Any:
        if name == "distributed" or name.startswith("distributed."):
            raise ImportError(f"No module named {name!r}", name=name)
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_distributed)
    with pytest.raises(InvalidError, match=r"pip install 'hazard\[distributed\]'"):
        _enter(connect("tcp://127.0.0.1:8786"))


def test_a_block_that_fails_on_the_cluster_is_one_clear_error(scheduler: str) -> None:
    from hazard.sim.workers import PoolFailed, run_blocks

    def broken(block: int) -> int:  # nested: sent to the workers by value, as the study's blocks are
        raise RuntimeError(f"the worker lost block {block}")

    with (
        connect(scheduler) as pool,
        pytest.raises(PoolFailed, match="block 0 of the study failed on the cluster"),
    ):
        run_blocks(3, broken, lambda _: None, threads=1, pool=pool)
