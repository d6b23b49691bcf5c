"""Studies as a library: the same results, JSON and CSV as ``hazard simulate``, and a table in Jupyter."""

from __future__ import annotations

import json
from html.parser import HTMLParser
from typing import Any

import pytest
from tests.commandline import run

from hazard.core.errors import InvalidError
from hazard.core.rulesets import find_paytable, find_ruleset
from hazard.sim import SessionConfig, Staking
from hazard.study import RoundsStudy, SessionsStudy, main_text, study_rounds, study_sessions


def _without_time(data: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in data.items() if k != "seconds"}


def _command(capsys: pytest.CaptureFixture[str], *args: str) -> str:
    code, out, err = run(capsys, "simulate", *args)
    assert code == 0, err
    return out


@pytest.mark.parametrize(
    ("ruleset", "main"), [("craps", None), ("ecws-1674", None), ("wikipedia", 6), ("sca-isenfir", None)]
)
def test_a_study_of_rounds_is_what_hazard_simulate_reports(
    capsys: pytest.CaptureFixture[str], ruleset: str, main: int | None
) -> None:
    study = study_rounds(ruleset, 30_000, seed=3, main=main)
    options = [
        "-r",
        ruleset,
        "--rounds",
        "30000",
        "--seed",
        "3",
        *([] if main is None else ["--main", str(main)]),
    ]
    command = json.loads(_command(capsys, *options, "--format", "json"))
    assert _without_time(study.to_json_dict()) == _without_time(command)
    assert study.to_csv() == _command(capsys, *options, "--format", "csv")
    assert not study.interrupted


@pytest.mark.parametrize("staking", list(Staking))
def test_a_study_of_sessions_is_what_hazard_simulate_reports(
    capsys: pytest.CaptureFixture[str], staking: Staking
) -> None:
    config = SessionConfig(sessions=40, rounds=60, players=3, bankroll=25, staking=staking)
    study = study_sessions("wikipedia", config, seed=8, paytable="wikipedia")
    options = ["-r", "wikipedia", "--sessions", "40", "--rounds", "60", "--players", "3", "--bankroll", "25"]
    options += ["--staking", staking.value, "--paytable", "wikipedia", "--seed", "8"]
    command = json.loads(_command(capsys, *options, "--format", "json"))
    assert _without_time(study.to_json_dict()) == _without_time(command)
    assert study.to_csv() == _command(capsys, *options, "--format", "csv")


def test_a_ruleset_and_a_paytable_may_be_given_by_id_or_as_objects() -> None:
    by_id = study_sessions("wikipedia", SessionConfig(sessions=20, rounds=30), seed=2, paytable="even")
    by_object = study_sessions(
        find_ruleset("wikipedia"),
        SessionConfig(sessions=20, rounds=30),
        seed=2,
        paytable=find_paytable("even"),
    )
    assert _without_time(by_id.to_json_dict()) == _without_time(by_object.to_json_dict())
    assert _without_time(study_rounds(find_ruleset("craps"), 5_000).to_json_dict()) == _without_time(
        study_rounds("craps", 5_000).to_json_dict()
    )


class _Cells(HTMLParser):
    """The text of every table cell, caption and paragraph of a page, and whether its tags balance."""

    def __init__(self) -> None:
        super().__init__()
        self.texts: list[str] = []
        self.open: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.open.append(tag)

    def handle_endtag(self, tag: str) -> None:
        assert self.open.pop() == tag

    def handle_data(self, data: str) -> None:
        self.texts.append(data)


def _cells(html: str) -> list[str]:
    parser = _Cells()
    parser.feed(html)
    parser.close()
    assert parser.open == []
    return parser.texts


def test_a_study_renders_as_a_table_in_jupyter() -> None:
    study = study_rounds("ecws-1674", 20_000, seed=1)
    cells = _cells(study._repr_html_())
    assert study.heading() in cells
    for figure in study.figures():
        assert figure.name in cells
    assert "By main" in cells  # a thrown main: the figures of each main too
    sessions = study_sessions("craps", SessionConfig(sessions=16, rounds=20), seed=1)
    cells = _cells(sessions._repr_html_())
    assert sessions.heading() in cells
    assert "risk of ruin (first player)" in cells


def test_what_is_shown_is_escaped(monkeypatch: pytest.MonkeyPatch) -> None:
    study = study_rounds("craps", 2_000)
    monkeypatch.setattr(RoundsStudy, "heading", lambda self: "<script>alert(1)</script>")
    html = study._repr_html_()
    assert "<script>" not in html
    assert "&lt;script&gt;" in html
    monkeypatch.setattr(SessionsStudy, "heading", lambda self: "a & b")
    assert "a &amp; b" in study_sessions("craps", SessionConfig(sessions=4, rounds=5))._repr_html_()


def test_bad_input_is_refused_before_any_work() -> None:
    with pytest.raises(InvalidError, match="invalid main 13"):
        study_rounds("craps", 1000, main=13)
    with pytest.raises(InvalidError, match="invalid number of rounds"):
        study_rounds("craps", 0)
    with pytest.raises(InvalidError, match="no-such"):
        study_rounds("no-such", 10)
    with pytest.raises(InvalidError, match="no-such"):
        study_sessions("craps", paytable="no-such")


def test_the_main_is_named_as_the_heading_says() -> None:
    assert main_text(find_ruleset("wikipedia"), None) == "called at random"
    assert main_text(find_ruleset("ecws-1674"), None) == "thrown"
    assert main_text(find_ruleset("ecws-1674"), 7) == "7, every round as if thrown"


@pytest.mark.parametrize("ruleset", ["craps", "cotton-1674", "sca-isenfir"])
def test_a_session_study_says_how_its_stakes_are_laid(ruleset: str) -> None:
    """The session model follows the ruleset's stake arrangement, so the heading names it."""
    arrangement = find_ruleset(ruleset).stakes
    heading = study_sessions(ruleset, SessionConfig(sessions=2, rounds=2), seed=1).heading()
    assert f"flat stakes of 1 ({arrangement.text})" in heading


def test_a_study_prints_as_one_short_line_of_what_it_studied_and_its_headline_figures() -> None:
    # Its tallies hold every throw's count and every session's bankroll: some 110 KB as a dataclass's repr.
    rounds = study_rounds("britannica-1911", 20_000, seed=1, workers=1)
    text = repr(rounds)
    assert len(text) < 300, text
    assert "\n" not in text
    assert text.startswith("<RoundsStudy 20,000 rounds of britannica-1911 (main called at random), seed 1: ")
    for headline in ("win rate", "exact", "throws per round"):
        assert headline in text
    assert "<table" in rounds._repr_html_()  # Jupyter's table stays
    sessions = study_sessions("britannica-1911", SessionConfig(sessions=40, rounds=50), seed=2, workers=1)
    text = repr(sessions)
    assert len(text) < 300, text
    assert "\n" not in text
    assert text.startswith("<SessionsStudy 40 sessions of britannica-1911 (main called at random), 50 rounds")
    for headline in ("risk of ruin", "setters' take per unit staked", "exact"):
        assert headline in text
    assert "<table" in sessions._repr_html_()
