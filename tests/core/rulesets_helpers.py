"""What the ruleset tests share: a user's minimal ruleset and paytable files, and writing them out."""

from __future__ import annotations

from pathlib import Path

# --- A user's ruleset file ---

MINIMAL = """\
id = "mine"
name = "My rules"

[source]
citation = "my own"

[main]
method = "called"
mains = [6, 7]

[opening]
chances = [4, 5, 6, 7, 8, 9, 10]
"""
ROW6 = """
[opening.6]
nicks = [6, 12]
outs = [2, 3, 11]
"""
ROW7 = """
[opening.7]
nicks = [7, 11]
outs = [2, 3, 12]
"""
ROW4 = """
[opening.4]
nicks = [4]
outs = [2, 3]
"""


def _text(head: str = MINIMAL, *rows: str, tail: str = "") -> str:
    return head + "".join(rows or (ROW6, ROW7)) + tail


def _write(tmp_path: Path, text: str, name: str = "mine.toml") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


# --- A user's paytable file ---

PAYTABLE = """\
id = "mine"
name = "My odds"
nick = "1/1"
chance = "3/2"
"""
TABLE_PAYTABLE = """\
id = "mine"
name = "My odds"
nick = "1/1"
chance = "table"

[odds.7]
4 = "2/1"
7 = "-"
10 = 2
"""


def _craps_file(extra: str = "", opening_key: str = "7") -> str:
    return (
        f'id = "mine"\nname = "Mine"\n{extra}[source]\ncitation = "house"\n'
        '[main]\nmethod = "fixed"\nmains = [7]\n[opening]\nchances = [4, 5, 6, 8, 9, 10]\n'
        f"[opening.{opening_key}]\nnicks = [7, 11]\nouts = [2, 3, 12]\n"
    )
