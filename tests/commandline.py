"""Running the ``hazard`` command in-process from tests, and checking how it refuses bad input."""

from __future__ import annotations

import pytest

from hazard.cli import main


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    """Run ``hazard ARGS``: its exit status, standard output and standard error."""
    try:
        main(list(args))
        code = 0
    except SystemExit as exit_:
        code = int(exit_.code or 0)
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def fails(capsys: pytest.CaptureFixture[str], *args: str) -> str:
    """Run a bad command line: status 2, nothing on stdout, one ``error:`` line on stderr, no traceback."""
    code, out, err = run(capsys, *args)
    assert code == 2, (args, out, err)
    assert out == ""
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert err.endswith("\n")
    assert lines[0].startswith("error: ")
    assert "Traceback" not in err
    return lines[0]
