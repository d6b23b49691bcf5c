"""Plots are written as PNG files; a path that cannot be written is refused with a clear error."""

from __future__ import annotations

from pathlib import Path

import pytest
from tests.sim_reference import session_rows

from hazard.core.errors import InvalidError
from hazard.core.rulesets import find_ruleset
from hazard.sim import Exact, SessionConfig, compile_rules, round_stats, simulate_rounds, simulate_sessions
from hazard.sim.plot import check_plot_path, plot_rounds, plot_sessions, sessions_figure

PNG = b"\x89PNG\r\n\x1a\n"


@pytest.mark.slow
def test_a_round_study_is_drawn(tmp_path: Path) -> None:
    stats = round_stats(simulate_rounds(compile_rules(find_ruleset("craps")), 20_000, seed=1))
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
        compile_rules(find_ruleset("sca")), SessionConfig(sessions=30, rounds=60), seed=1
    )
    target = plot_sessions(study, tmp_path / "sessions.png")
    assert target.stat().st_size > 10_000
    assert target.read_bytes().startswith(PNG)


def test_the_dice_passing_panel_says_what_it_draws() -> None:
    """Title, axis and bars all count how often the dice passed by the rule in a session."""
    study = simulate_sessions(
        compile_rules(find_ruleset("wikipedia"), 7), SessionConfig(sessions=40, rounds=120), seed=2
    )
    panel = sessions_figure(study).axes[2]
    hands = session_rows(study).hands
    passed = float(hands.mean())
    assert panel.get_xlabel() == "times the dice passed by the rule in a session"
    assert panel.get_ylabel() == "sessions"
    assert panel.get_title() == f"Dice passing: the dice passed {passed:.2f} times a session by the rule"
    assert "kept" not in panel.get_title()
    heights = [patch.get_height() for patch in panel.patches]
    assert heights == [float((hands == k).sum()) for k in range(len(heights))]
    (mean_line,) = panel.get_lines()
    assert mean_line.get_xdata()[0] == pytest.approx(passed)


def test_a_panel_for_dice_that_never_passed() -> None:
    study = simulate_sessions(
        compile_rules(find_ruleset("ecws")), SessionConfig(sessions=5, rounds=30), seed=2
    )
    panel = sessions_figure(study).axes[2]
    assert panel.get_title() == "Dice passing: the dice never passed by the rule"
    assert panel.get_xlabel() == "times the dice passed by the rule in a session"


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
    stats = round_stats(simulate_rounds(compile_rules(find_ruleset("craps")), 1_000, seed=1))
    (tmp_path / "taken.png").mkdir()
    with pytest.raises(InvalidError, match="cannot write plot file"):
        plot_rounds(stats, tmp_path / "taken.png")
