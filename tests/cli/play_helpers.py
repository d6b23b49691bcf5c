"""What the ``hazard play`` and ``hazard referee`` tests share: a game played or refereed as its own
process from a typed script, its record loaded or exported, and parts of a transcript checked in order."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from tests.commandline import run
from tests.terminal import run_hazard

from hazard.table import GameStore, ReplayedGame, load_game


def _play(tmp_path: Path, *lines: str, seed: int = 97, args: tuple[str, ...] = ()) -> tuple[str, Path]:
    db = tmp_path / "games.db"
    done = run_hazard(tmp_path, "play", "--seed", str(seed), "--db", str(db), *args, lines=lines)
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stderr == ""
    assert "Traceback" not in done.stdout
    return done.stdout, db


def _referee(
    tmp_path: Path, *lines: str, players: tuple[str, ...] = ("Ann:100", "Bob:100"), args: tuple[str, ...] = ()
) -> tuple[str, Path]:
    db = tmp_path / "games.db"
    seats = [arg for player in players for arg in ("--player", player)]
    done = run_hazard(tmp_path, "referee", *seats, "--db", str(db), *args, lines=lines)
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stderr == ""
    assert "Traceback" not in done.stdout
    return done.stdout, db


def _load(db: Path, game: int = 1) -> ReplayedGame:
    store = GameStore.open(str(db))
    try:
        return load_game(store, game)
    finally:
        store.close()


def _export(capsys: pytest.CaptureFixture[str], db: Path, game: int = 1) -> dict[str, Any]:
    code, out, err = run(capsys, "record", "export", str(game), "--db", str(db), "--format", "json")
    assert (code, err) == (0, ""), err
    data: dict[str, Any] = json.loads(out)
    return data


def _in_order(text: str, *parts: str) -> None:
    at = 0
    for part in parts:
        found = text.find(part, at)
        assert found >= 0, f"{part!r} missing (after position {at}) in:\n{text}"
        at = found + len(part)
