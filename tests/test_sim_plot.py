"""Plots are written as PNG files; a path that cannot be written is refused with a clear error."""

from __future__ import annotations

from pathlib import Path

import pytest

from hazard.core.errors import InvalidError
from hazard.core.rulesets import find_ruleset
from hazard.sim import Exact, SessionConfig, compile_table, round_stats, simulate_rounds, simulate_sessions
from hazard.sim.plot import check_plot_path, plot_rounds, plot_sessions

PNG = b"\x89PNG\r\n\x1a\n"


def test_a_round_study_is_drawn(tmp_path: Path) -> None:
    stats = round_stats(simulate_rounds(compile_table(find_ruleset("craps")), 20_000, seed=1))
    exact = Exact(
        p_win=244 / 495,
        p_nick=2 / 9,
        p_out=1 / 9,
        expected_throws=557 / 165,
        throws_variance=9.0,
        throws_distribution=(1 / 3, 0.2),
    )
    for figures in (exact, None):
        target = plot_rounds(stats, tmp_path / "rounds.png", figures)
        assert target.read_bytes().startswith(PNG)


def test_a_session_study_is_drawn(tmp_path: Path) -> None:
    study = simulate_sessions(
        compile_table(find_ruleset("sca")), SessionConfig(sessions=30, rounds=60), seed=1
    )
    target = plot_sessions(study, tmp_path / "sessions.png")
    assert target.stat().st_size > 10_000
    assert target.read_bytes().startswith(PNG)


def test_bad_plot_paths_are_refused(tmp_path: Path) -> None:
    with pytest.raises(InvalidError, match=r"expected a name ending in \.png"):
        check_plot_path(tmp_path / "plot.jpg")
    with pytest.raises(InvalidError, match="no folder"):
        check_plot_path(tmp_path / "missing" / "plot.png")
    (tmp_path / "dir.png").mkdir()
    with pytest.raises(InvalidError, match="it is a folder"):
        check_plot_path(tmp_path / "dir.png")
    assert check_plot_path(tmp_path / "fine.png") == tmp_path / "fine.png"


def test_a_failed_write_is_an_invalid_error(tmp_path: Path) -> None:
    stats = round_stats(simulate_rounds(compile_table(find_ruleset("craps")), 1_000, seed=1))
    (tmp_path / "taken.png").mkdir()
    with pytest.raises(InvalidError, match="cannot write plot file"):
        plot_rounds(stats, tmp_path / "taken.png")
