"""The optional extras: each command that needs one names it when it is missing, and the base install's
commands run without any of them.

An extra's absence is simulated in a subprocess whose import system refuses its packages (a meta-path finder
ahead of every other), so no venv is built: each test is one start of ``hazard``, under half a second.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
from tests.paths import ROOT

from hazard.extras import EXTRAS

# Refuses every module whose top-level package is named in HAZARD_TEST_REFUSE (comma-separated), as an
# install without it would, then runs the hazard program on the arguments given.
_REFUSING = """
import sys

REFUSED = frozenset(sys.argv[1].split(","))


class Refuse:
    def find_spec(self, name, path=None, target=None):
        if name.partition(".")[0] in REFUSED:
            raise ModuleNotFoundError(f"No module named {name!r}", name=name)
        return None


sys.meta_path.insert(0, Refuse())
sys.argv = ["hazard", *sys.argv[2:]]
from hazard.cli import run

run()
"""


def hazard_without(refused: str, *args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    """``hazard ARGS`` in a process that cannot import the packages ``refused`` names."""
    env = {**os.environ, "XDG_DATA_HOME": str(cwd), "COLUMNS": "200"}  # no record of the user's
    return subprocess.run(
        [sys.executable, "-c", _REFUSING, refused, *args],
        capture_output=True,
        text=True,
        check=False,
        cwd=cwd,
        env=env,
        timeout=60,
    )


def one_error_naming(result: subprocess.CompletedProcess[str], extra: str, missing: str) -> str:
    assert result.returncode == 2, result.stderr
    lines = result.stderr.splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("error: "), lines[0]
    assert f"pip install 'hazard[{extra}]'" in lines[0]
    assert f"({missing} is missing)" in lines[0]
    return lines[0]


@pytest.mark.parametrize(
    ("refused", "args", "extra", "missing"),
    [
        ("matplotlib", ["simulate", "--rounds", "1000", "--plot", "rounds.png"], "plot", "matplotlib"),
        (
            "matplotlib",
            ["simulate", "--sessions", "2", "--rounds", "5", "--plot", "sessions.png"],
            "plot",
            "matplotlib",
        ),
        ("numpy,matplotlib", ["simulate", "--sessions", "2", "--rounds", "5"], "sessions", "numpy"),
        ("fastapi", ["serve", "--port", "65000"], "web", "fastapi"),
        ("uvicorn", ["serve", "--port", "65000"], "web", "uvicorn"),
        ("websockets", ["serve", "--port", "65000"], "web", "websockets"),
        (
            "psycopg",
            ["record", "list", "--db", "postgresql+psycopg://nobody@localhost/games"],
            "postgres",
            "psycopg",
        ),
        (
            "distributed",
            ["simulate", "--rounds", "1000", "--cluster", "tcp://127.0.0.1:1"],
            "distributed",
            "distributed",
        ),
        ("fpdf", ["card", "-r", "craps", "-o", "card.pdf"], "card", "fpdf"),
    ],
)
def test_a_command_names_the_extra_it_needs_when_it_is_missing(
    tmp_path: Path, refused: str, args: list[str], extra: str, missing: str
) -> None:
    result = hazard_without(refused, *args, cwd=tmp_path)
    one_error_naming(result, extra, missing)
    assert result.stdout == ""  # refused before any work: nothing simulated, no plot written
    assert not list(tmp_path.glob("*.png"))
    assert not list(tmp_path.glob("*.pdf"))


def test_the_base_commands_run_without_any_extra(tmp_path: Path) -> None:
    every = "numpy,matplotlib,fastapi,uvicorn,websockets,psycopg,distributed"
    rounds = hazard_without(every, "simulate", "--rounds", "2000", "--format", "json", cwd=tmp_path)
    assert rounds.returncode == 0, rounds.stderr
    assert '"rounds": 2000' in rounds.stdout
    odds = hazard_without(every, "odds", "--format", "json", cwd=tmp_path)
    assert odds.returncode == 0, odds.stderr
    version = hazard_without(every, "--version", cwd=tmp_path)
    assert version.returncode == 0, version.stderr


def test_the_extras_named_are_the_packages_extras() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    assert set(EXTRAS) == set(project["optional-dependencies"])
    base = " ".join(project["dependencies"])
    for heavy in ("numpy", "matplotlib", "uvicorn", "fastapi", "psycopg", "distributed", "fpdf"):
        assert heavy not in base, f"{heavy} belongs to an extra, not the base install"
    assert all("[standard]" not in spec for spec in project["optional-dependencies"]["web"])


_LIBRARY = """
import sys


class Refuse:
    def find_spec(self, name, path=None, target=None):
        if name.partition(".")[0] in ("numpy", "matplotlib"):
            raise ModuleNotFoundError(f"No module named {name!r}", name=name)
        return None


sys.meta_path.insert(0, Refuse())
from hazard.extras import MissingExtra
from hazard.sim.plot import plot_rounds
from hazard.study import study_rounds, study_sessions

study = study_rounds("craps", 1000, workers=1)  # no extra needed
for attempt in (
    lambda: study_sessions("craps"),
    lambda: plot_rounds(study.stats, "rounds.png"),
    lambda: __import__("hazard.sim", fromlist=["SessionTally"]).SessionTally,
):
    try:
        attempt()
    except MissingExtra as error:
        print(error)
"""


def test_the_library_names_the_extra_too(tmp_path: Path) -> None:
    result = subprocess.run(
        [sys.executable, "-c", _LIBRARY],
        capture_output=True,
        text=True,
        check=False,
        cwd=tmp_path,
        timeout=60,
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines() == [
        "a session study needs the sessions extra (numpy is missing): pip install 'hazard[sessions]'",
        "a plot needs the plot extra (matplotlib is missing): pip install 'hazard[plot]'",
        "hazard.sim.SessionTally needs the sessions extra (numpy is missing): pip install 'hazard[sessions]'",
    ]
