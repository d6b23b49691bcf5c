"""``hazard play`` and ``hazard referee`` fuzzed: whatever value an option or a line at the prompt
holds, one error line and the game goes on."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from tests.commandline import feed, fuzz, fuzz_place, hostile_lines, hostile_paths, hostile_values, survives
from tests.terminal import exchanges

# --- fuzzing: whatever is typed, one error line and the game goes on ---------------------------------------


@pytest.fixture
def place(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capfd: pytest.CaptureFixture[str]) -> Path:
    """A folder for the fuzzers, with a record holding a played game (1) and a refereed one (2)."""
    folder = fuzz_place(tmp_path, monkeypatch)
    db = str(folder / "games.db")
    feed(monkeypatch, ["quit"])
    assert main_runs("play", "--seed", "1", "--db", db)
    feed(monkeypatch, ["quit"])
    assert main_runs("referee", "--player", "Ann:100", "--player", "Bob:100", "--db", db)
    capfd.readouterr()  # what the games printed is not the fuzzers' to read
    return folder


def main_runs(*args: str) -> bool:
    from hazard.cli import main

    try:
        main(list(args))
    except SystemExit as exit_:
        return not exit_.code
    return True


_PATHS = ("--ruleset", "--paytable", "--db")
_PLAY = (
    "--ruleset",
    "--paytable",
    "--stakes",
    "--name",
    "--bankroll",
    "--bots",
    "--unit",
    "--seed",
    "--money",
)
_REFEREE = ("--player", "--ruleset", "--paytable", "--stakes", "--money")


def _values_of(option: str, place: Path) -> st.SearchStrategy[str]:
    if option == "--db":
        return hostile_paths(place)
    return hostile_paths(place) if option in _PATHS else hostile_values()


def _with(base: dict[str, str], option: str, value: str) -> list[str]:
    given = {**base, option: value}
    return [word for pair in given.items() for word in pair]


@fuzz(120)
@given(data=st.data())
def test_fuzz_any_value_of_a_play_option_is_one_error_line_or_a_game(
    capfd: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, place: Path, data: st.DataObject
) -> None:
    db = str(place / "games.db")
    option = data.draw(st.sampled_from((*_PLAY, "--db", "GAME")), label="option")
    value = data.draw(_values_of(option, place), label="value")
    feed(monkeypatch, ["quit"])
    if option == "GAME":
        survives(capfd, "play", "--resume", value, "--db", db)
    else:
        survives(capfd, "play", *_with({"--seed": "1", "--db": db}, option, value))


@fuzz(80)
@given(data=st.data())
def test_fuzz_any_value_of_a_referee_option_is_one_error_line_or_a_game(
    capfd: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, place: Path, data: st.DataObject
) -> None:
    db = str(place / "games.db")
    option = data.draw(st.sampled_from((*_REFEREE, "--db", "GAME")), label="option")
    value = data.draw(_values_of(option, place), label="value")
    feed(monkeypatch, ["quit"])
    if option == "GAME":
        survives(capfd, "referee", "--resume", value, "--db", db)
    elif option == "--player":  # one bad seat beside a good one
        survives(capfd, "referee", "--player", "Ann:100", "--player", value, "--db", db)
    else:
        survives(capfd, "referee", *_with({"--player": "Ann:100", "--db": db}, option, value))


PLAY_LINES = (
    "",
    "throw",
    "stake 5",
    "stake 2.50",
    "stake 5/3",
    "stake £1 10s",
    "withdraw",
    "call 7",
    "7",
    "offer 2 on 4 or 10 before 7",
    "offer 2 on 4 before 7 at 2/1",
    "offer 1 on next odd",
    "offer 1 on 6 within 3 throws",
    "take 1",
    "take 2",
    "cancel 2",
    "pass",
    "help",
    "bets",
    "table",
)
REFEREE_LINES = (
    "",
    "3-4",
    "3 4",
    "throw 3-4",
    "call 7",
    "stake Bob 5",
    "stake Bob 5 consent",
    "withdraw Bob",
    "offer Bob 2 on 4 or 10 before 7",
    "offer Ann 2 on 4 before 7 at 2/1",
    "take 1 Ann",
    "cancel 1",
    "pass",
    "sit Cat 50",
    "undo",
    "void 3",
    "void 1",
    "fix 3 3-4",
    "fix 3 stake Bob 2",
    "log",
    "help",
    "bets",
    "table",
)
"""What each prompt understands, for the fuzzer to mutate: every verb, with its usual arguments."""


def _each_line_is_answered(out: str, prompt: str, lines: list[str]) -> None:
    """Each line typed was answered, an error with that one line alone, and the ``table`` after it worked."""
    turns = exchanges(out, prompt)
    assert len(turns) == 2 * len(lines) + 1, out[-2000:]  # each line and its probe, then quit
    for at, line in enumerate(lines):
        _, answer = turns[2 * at]
        errors = [said for said in answer if said.startswith("error:")]
        assert not errors or answer == errors[:1], (line[:200], answer)
        assert not errors or len(errors[0]) < 600, (line[:200], errors)
        _, probe = turns[2 * at + 1]
        assert probe, line[:200]
        assert probe[0].startswith("Round "), (line[:200], probe)
    assert "is saved: carry on with" in out.rsplit(prompt, 1)[1]


@fuzz(30)
@given(lines=st.lists(hostile_lines(PLAY_LINES), min_size=1, max_size=6))
def test_fuzz_any_line_at_the_play_prompt_is_one_error_line_and_the_game_goes_on(
    capfd: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, place: Path, lines: list[str]
) -> None:
    # After each line, a valid command ("table") that must still work; then quit, which must save the game.
    feed(monkeypatch, [*(said for line in lines for said in (line, "table")), "quit"])
    code, out, err = survives(capfd, "play", "--seed", "1", "--db", str(place / "games.db"))
    assert (code, err) == (0, "")
    _each_line_is_answered(out, "Ann> ", lines)


@fuzz(30)
@given(lines=st.lists(hostile_lines(REFEREE_LINES), min_size=1, max_size=6))
def test_fuzz_any_line_at_the_referee_prompt_is_one_error_line_and_the_game_goes_on(
    capfd: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, place: Path, lines: list[str]
) -> None:
    feed(monkeypatch, [*(said for line in lines for said in (line, "table")), "quit"])
    seats = ("--player", "Ann:100", "--player", "Bob:100")
    code, out, err = survives(capfd, "referee", *seats, "--db", str(place / "games.db"))
    assert (code, err) == (0, "")
    _each_line_is_answered(out, "referee> ", lines)
