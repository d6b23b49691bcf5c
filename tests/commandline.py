"""Running the ``hazard`` command in-process from tests, and checking how it refuses bad input.

:func:`run` and :func:`fails` run one command line; :func:`survives` is the fuzzers' check, that whatever was
typed the command ends cleanly (status 0, or 2 with one ``error:`` line) and never with a traceback; the
strategies give the hostile values and prompt lines the fuzzers try.
"""

from __future__ import annotations

import io
import os
from collections.abc import Sequence
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st

from hazard.cli import main

__all__ = [
    "FUZZ",
    "fails",
    "feed",
    "files_in",
    "fuzz",
    "fuzz_place",
    "hostile_lines",
    "hostile_paths",
    "hostile_values",
    "run",
    "survives",
]

FUZZ = settings(
    derandomize=True,
    database=None,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
"""The fuzzers' settings: the same examples every run (no seed, no database), no deadline for a command's
first run (which loads its modules), and the fixtures (a capture, a temporary folder) shared by the examples
of one test, which is what they are for here."""


def fuzz(examples: int) -> settings:
    """:data:`FUZZ` for a test of ``examples`` examples, sized so that each fuzzer takes a second or two.

    ``HAZARD_FUZZ_EXAMPLES=N`` in the environment runs N examples instead, as the other fuzzers of the
    project do (docs/reliability.md): the longer run by hand.
    """
    return settings(FUZZ, max_examples=int(os.environ.get("HAZARD_FUZZ_EXAMPLES", "") or examples))


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


def feed(monkeypatch: pytest.MonkeyPatch, lines: Sequence[str]) -> None:
    """What the next in-process run reads at its prompts: ``lines``, then the end of input."""
    monkeypatch.setattr("sys.stdin", io.StringIO("".join(f"{line}\n" for line in lines)))


def survives(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    """Run any command line, however bad: it ends with status 0, or with status 2 and one ``error:`` line.

    Never a traceback, never another status (1 is an exception no layer turned into an error), never an
    error line beside a success. An exception that escapes :func:`hazard.cli.main` fails the test as it is.
    """
    code, out, err = run(capsys, *args)
    shown = (args[:1], [arg[:80] for arg in args[1:]], out[-400:], err[-400:])
    assert "Traceback" not in out + err, shown
    assert code in (0, 2), shown
    lines = err.splitlines()
    if code == 2:
        assert len(lines) == 1, shown
        assert lines[0].startswith("error: "), shown
        assert len(lines[0]) < 600, shown  # a long value is quoted by its start and length, never whole
    else:
        assert not any(line.startswith("error:") for line in lines), shown
    return code, out, err


# --- hostile values -----------------------------------------------------------------------------------------

_HOSTILE = (
    "",
    " ",
    "0",
    "-0",
    "-1",
    "+1",
    "1.5",
    "1e9",
    "1_000",
    "0x10",
    "nan",
    "inf",
    "-inf",
    "1/0",
    "½",
    "٣",  # an Arabic-Indic three: a digit to str.isdigit() and int(), not to a person typing a game number
    "７",  # a full-width seven
    "²",
    "9" * 19,
    str(2**63 - 1),
    str(2**63),
    str(2**64),
    str(2**128),
    "9" * 4300,
    "9" * 4301,  # one digit past what int() converts
    "9" * 5000,
    "0" * 5000 + "1",
    "-" + "9" * 5000,
    "x" * 5000,
    "é" * 300,
    "\t",
    "\x1b[2J",  # a terminal escape
    "\x7f",
    "a\nb",
    "\u2028",
    "\udcff",  # what a byte that is not UTF-8 becomes in sys.argv (surrogateescape)
    "--help",
    "-",
    "Ann:100",
    "Bob:setter:50",
    "::",
    "referee",
)
"""Values every option is tried with. Not NUL: a command line cannot hold one (every string of sys.argv is
a C string)."""


def hostile_values() -> st.SearchStrategy[str]:
    """The fixed hostile values above, and random text and numbers around them."""
    no_nul = st.characters(blacklist_characters="\x00")
    return st.one_of(
        st.sampled_from(_HOSTILE),
        st.text(no_nul, max_size=30),
        st.integers(min_value=-(2**70), max_value=2**70).map(str),
        st.from_regex(r"\A[0-9 .+/-]{0,12}\Z"),
    ).filter(lambda value: "\x00" not in value)


def hostile_paths(folder: Path) -> st.SearchStrategy[str]:
    """Paths to name as a file: devices, folders, missing folders, names too long, files that are not ours."""
    inside = str(folder)
    fixed = [
        "/dev/zero",
        "/dev/null",
        "/dev/urandom",
        "/",
        inside,
        inside + "/",
        f"{inside}/missing/x.png",
        f"{inside}/missing.toml",
        f"{inside}/{'x' * 300}.png",
        f"{inside}/{'x' * 300}.toml",
        f"{inside}/{'d' * 200}/{'e' * 200}/{'f' * 200}/x.png",
        f"{inside}/plain.txt",
        f"{inside}/plain.txt/x.png",
        "/proc/x.png",
        "/proc/self/status",
        "/sys/x.png",
        "/etc/passwd",
        "x.png",
        ".png",
        "x.PNG",
        "x.toml",
        "~/x.png",
        "file:x.db",
        "~nosuchuser/games.db",
        "sqlite://",
        "sqlite:///" + inside,
        "postgresql://nobody@127.0.0.1:1/none",
    ]
    return st.one_of(st.sampled_from(fixed), hostile_values())


def fuzz_place(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A folder of its own for a fuzzer: the working folder (a relative path lands there), the user data
    folder (a record named by no --db), and the ordinary file some hostile paths name, as a file or as if it
    were a folder."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("HOME", str(tmp_path))  # ~/x.db
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    (tmp_path / "plain.txt").write_text("not a ruleset, a record or a picture\n", encoding="utf-8")
    return tmp_path


def files_in(folder: Path) -> set[str]:
    """Every file under ``folder``, to see that a refused command left nothing behind."""
    return {os.path.join(root, name) for root, _, names in os.walk(folder) for name in names}


# --- hostile prompt lines ----------------------------------------------------------------------------------

_TOKENS = (
    "9" * 5000,
    "9" * 4301,
    str(2**63),
    str(2**31),
    "99999999999",
    "-1",
    "0",
    "00",
    "٣",
    "７",
    "1e9",
    "nan",
    "1/0",
    "0/0",
    "5/0",
    "½",
    "£",
    "£1 99s",
    "7s 99d",
    "1.999999999999",
    "x" * 500,
    "é" * 50,
    "\x1b[31m",
    "\x7f",
    "\u2028",
    "\x0b",
    "\udcff",
    '"',
    "'",
    "referee",
    "on",
    "at",
    "before",
    "within",
)
"""Words that make a command line hostile wherever they go in it."""


def hostile_lines(valid: Sequence[str]) -> st.SearchStrategy[str]:
    """Lines typed at a prompt: ``valid`` commands with a word swapped, added or dropped, and random text.

    Never a line that ends the session (``quit``), that holds a line break (a line is what is read), or that
    holds ``>`` (which could fake a prompt in the transcript the test reads).
    """

    @st.composite
    def mutated(draw: st.DrawFn) -> str:
        words = draw(st.sampled_from(valid)).split()
        token = draw(st.one_of(st.sampled_from(_TOKENS), st.text(max_size=12)))
        at = draw(st.integers(min_value=0, max_value=len(words)))
        how = draw(st.sampled_from(["swap", "add", "drop"]))
        if how == "swap" and words:
            words[min(at, len(words) - 1)] = token
        elif how == "drop" and words:
            del words[min(at, len(words) - 1)]
        else:
            words.insert(at, token)
        return " ".join(words)

    lines = st.one_of(mutated(), st.text(max_size=60), st.sampled_from(valid))
    return lines.filter(_keeps_the_session)


_LINE_BREAKS = frozenset("\n\r")
_QUITS = frozenset(("quit", "q", "exit"))


def _keeps_the_session(line: str) -> bool:
    words = line.split()
    return (
        not (_LINE_BREAKS & set(line))
        and ">" not in line
        and "\x00" not in line
        and not (words and words[0].lower() in _QUITS)
    )
