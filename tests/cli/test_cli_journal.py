"""A writer killed mid-commit leaves a hot SQLite journal: every reader (``hazard record list|show|export``,
``hazard verify``) rolls it back, or reads through a private copy where the file is read-only, says so, and
shows exactly what was committed (issue 19, finding 18).

The hot journal is real: a child process changes the record in a write transaction, with a cache so small
that SQLite writes the changed pages into the file before the commit, and is killed with SIGKILL.
"""

from __future__ import annotations

import os
import shutil
import sqlite3
import subprocess
import sys
import textwrap
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from tests.cli.test_cli_verify import _fair_game
from tests.commandline import run

from hazard.table.record.sqlite_file import RECOVERED

pytestmark = pytest.mark.slow  # a writer killed mid-commit, then every reader on copies of the file

_KILLED_MID_COMMIT = textwrap.dedent(
    """
    import os, signal, sqlite3, sys
    connection = sqlite3.connect(sys.argv[1], isolation_level=None)
    connection.execute("PRAGMA cache_size = 1")  # changed pages spill into the file before the commit
    connection.execute("BEGIN IMMEDIATE")
    connection.execute("UPDATE hazard_games SET label = ?", ("x" * 200_000,))
    connection.execute("DELETE FROM hazard_entries WHERE seq > 3")
    os.kill(os.getpid(), signal.SIGKILL)
    """
)
COMMANDS = (("record", "list"), ("record", "show", "1"), ("record", "export", "1"), ("verify", "1"))


def _journal(db: Path) -> Path:
    return db.with_name(db.name + "-journal")


def _refused_read_only(db: Path) -> bool:
    """Whether a read-only connection is refused the file (what every reader was, before issue 19)."""
    connection = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    try:
        connection.execute("SELECT count(*) FROM hazard_entries").fetchone()
    except sqlite3.OperationalError as error:
        return "readonly database" in str(error)
    finally:
        connection.close()
    return False


@pytest.fixture(scope="module")
def saved(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A record of a game of fair dice as committed (``committed/``), and as a writer killed mid-commit left
    it (``hot/``: the file and its hot journal). Built once: playing the game takes seconds."""
    folder = tmp_path_factory.mktemp("journal")
    db = folder / "games.db"
    with pytest.MonkeyPatch.context() as monkeypatch:
        _fair_game(db, monkeypatch)
    (folder / "committed").mkdir()
    shutil.copy2(db, folder / "committed" / db.name)
    child = subprocess.run([sys.executable, "-c", _KILLED_MID_COMMIT, str(db)], check=False)
    assert child.returncode == -9
    assert _journal(db).stat().st_size > 0
    assert _refused_read_only(db)  # a real hot journal
    (folder / "hot").mkdir()
    for path in (db, _journal(db)):
        shutil.move(path, folder / "hot" / path.name)
    return folder


def _put(saved: Path, which: str, folder: Path) -> Path:
    """The record as ``which`` (committed or hot) has it, copied into ``folder`` as ``games.db``."""
    for path in (saved / which).iterdir():
        shutil.copy2(path, folder / path.name)
    return folder / "games.db"


def _expected(saved: Path, folder: Path, capsys: pytest.CaptureFixture[str]) -> list[str]:
    """What each command prints of the record as committed, at ``folder/games.db`` (the listing names it)."""
    db = _put(saved, "committed", folder)
    outputs = []
    for command in COMMANDS:
        code, out, err = run(capsys, *command, "--db", str(db))
        assert (code, err) == (0, ""), command
        outputs.append(out)
    db.unlink()
    return outputs


def test_each_reader_rolls_a_hot_journal_back_and_says_so(
    saved: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    expected = _expected(saved, tmp_path, capsys)
    for command, shown in zip(COMMANDS, expected, strict=True):
        db = _put(saved, "hot", tmp_path)
        code, out, err = run(capsys, *command, "--db", str(db))
        assert code == 0, (command, err)
        assert out == shown, command
        assert err.startswith(f"note: {RECOVERED} (in {db}; every committed entry is kept)"), err
        assert not _refused_read_only(db)
        code, again, err = run(capsys, *command, "--db", str(db))  # rolled back: nothing more to say
        assert (code, again, err) == (0, out, ""), command


@contextmanager
def _read_only(paths: list[Path]) -> Iterator[None]:
    """The files made read-only to this user: by their mode, or where he is root (whom modes do not stop),
    immutable (chattr +i); skipped where neither can be done."""
    if os.geteuid() != 0:
        for path in paths:
            path.chmod(0o444)
        paths[0].parent.chmod(0o555)
        try:
            yield
        finally:
            paths[0].parent.chmod(0o755)
        return
    if shutil.which("chattr") is None:
        pytest.skip("no chattr: a file cannot be made read-only to root here")
    made = subprocess.run(["chattr", "+i", *map(str, paths)], capture_output=True, check=False)
    if made.returncode != 0:
        pytest.skip(f"chattr +i is refused here: {made.stderr.decode(errors='replace').strip()}")
    try:
        yield
    finally:
        subprocess.run(["chattr", "-i", *map(str, paths)], check=True)


def test_a_read_only_record_is_read_through_a_private_copy(
    saved: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    expected = _expected(saved, tmp_path, capsys)
    db = _put(saved, "hot", tmp_path)
    before = (db.read_bytes(), _journal(db).read_bytes())
    with _read_only([db, _journal(db)]):
        for command, shown in zip(COMMANDS, expected, strict=True):
            code, out, err = run(capsys, *command, "--db", str(db))
            assert code == 0, (command, err)
            assert out == shown, command
            assert err.startswith(f"note: {RECOVERED} (in a private copy: {db} is read-only"), err
    assert (db.read_bytes(), _journal(db).read_bytes()) == before  # untouched, for a writer to roll back
    assert _refused_read_only(db)
