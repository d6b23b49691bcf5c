"""The writer: a ruleset or paytable back to TOML text, in the format of the built-in files.

What it writes reads back, through the schema reader, to an equal value.
"""

from __future__ import annotations

from collections.abc import Iterable

from hazard.core.numbers import fraction_text
from hazard.core.paytable import ChanceOdds, Paytable
from hazard.core.rules import Ruleset

_ESCAPES = {'"': '\\"', "\\": "\\\\", "\b": "\\b", "\t": "\\t", "\n": "\\n", "\f": "\\f", "\r": "\\r"}


def _toml_string(text: str) -> str:
    """A TOML basic string holding exactly ``text``."""
    out = []
    for char in text:
        if char in _ESCAPES:
            out.append(_ESCAPES[char])
        elif ord(char) < 0x20 or ord(char) == 0x7F:
            out.append(f"\\u{ord(char):04X}")
        else:
            out.append(char)
    return '"' + "".join(out) + '"'


def _strings(items: Iterable[str], *, one_per_line: bool = False) -> str:
    quoted = [_toml_string(item) for item in items]
    if one_per_line and quoted:
        return "[\n" + "".join(f"  {item},\n" for item in quoted) + "]"
    return "[" + ", ".join(quoted) + "]"


def _ints(items: Iterable[int]) -> str:
    return "[" + ", ".join(str(item) for item in sorted(items)) + "]"


def ruleset_to_toml(ruleset: Ruleset) -> str:
    """Write ``ruleset`` in the format of ``src/hazard/core/rulesets/data/*.toml``.

    Where several rows share their chances the writer puts them in ``[opening] chances`` and leaves them out
    of the rows, as the built-in files do; empty nick and out lists are left out. Both are what the loader
    fills in, so the text reads back to an equal ruleset. A built-in default paytable is named by id; one the
    ruleset carries by value (read from a paytable file) is written in full as a ``[paytable]`` table, so the
    text reads back without any file.
    """
    lines = [f"id = {_toml_string(ruleset.id)}", f"name = {_toml_string(ruleset.name)}"]
    if ruleset.aliases:
        lines.append(f"aliases = {_strings(ruleset.aliases)}")
    if isinstance(ruleset.paytable, str):
        lines.append(f"paytable = {_toml_string(ruleset.paytable)}")
    lines.append(f"stakes = {_toml_string(ruleset.stakes.value)}")
    lines.append(f"notes = {_strings(ruleset.notes, one_per_line=True)}")

    lines += ["", "[source]", f"citation = {_toml_string(ruleset.source.citation)}"]
    if ruleset.source.file is not None:
        lines.append(f"file = {_toml_string(ruleset.source.file)}")
    if ruleset.source.url is not None:
        lines.append(f"url = {_toml_string(ruleset.source.url)}")

    lines += [
        "",
        "[main]",
        f"method = {_toml_string(ruleset.method.value)}",
        f"mains = {_ints(ruleset.mains)}",
    ]

    shared: frozenset[int] = frozenset().union(*(row.chances for row in ruleset.rows))
    inherits = {row.main: shared - row.nicks - row.outs == row.chances for row in ruleset.rows}
    lines += ["", "[opening]"]
    if any(inherits.values()):
        lines.append(f"chances = {_ints(shared)}")
    for row in ruleset.rows:
        lines += ["", f"[opening.{row.main}]"]
        if row.nicks:
            lines.append(f"nicks = {_ints(row.nicks)}")
        if row.outs:
            lines.append(f"outs = {_ints(row.outs)}")
        if not inherits[row.main]:
            lines.append(f"chances = {_ints(row.chances)}")

    lines += [
        "",
        "[dice_passing]",
        f"after_losses = {ruleset.passing.after_losses}",
        f"losses = {_toml_string(ruleset.passing.losses.value)}",
    ]
    if isinstance(ruleset.paytable, Paytable):
        lines += ["", "[paytable]", *_paytable_lines(ruleset.paytable, "paytable.")]
    return "\n".join(lines) + "\n"


def paytable_to_toml(paytable: Paytable) -> str:
    """Write ``paytable`` in the format of ``src/hazard/core/rulesets/paytables/*.toml``."""
    return "\n".join(_paytable_lines(paytable, "")) + "\n"


def _paytable_lines(paytable: Paytable, prefix: str) -> list[str]:
    """A paytable's keys, then its tables named ``[{prefix}source]`` and ``[{prefix}odds.MAIN]``: a file's
    top level with no prefix, a ruleset's ``[paytable]`` table with ``"paytable."``."""
    lines = [f"id = {_toml_string(paytable.id)}", f"name = {_toml_string(paytable.name)}"]
    lines.append(f"notes = {_strings(paytable.notes, one_per_line=True)}")
    lines.append(f"nick = {_toml_string(fraction_text(paytable.nick))}")
    if paytable.flat is not None:
        lines.append(f"chance = {_toml_string(fraction_text(paytable.flat))}")
    elif paytable.true_odds:
        lines.append(f"chance = {_toml_string(ChanceOdds.TRUE)}")
    else:
        lines.append(f"chance = {_toml_string(ChanceOdds.TABLE)}")
    if paytable.source is not None:
        lines += ["", f"[{prefix}source]", f"citation = {_toml_string(paytable.source.citation)}"]
        if paytable.source.file is not None:
            lines.append(f"file = {_toml_string(paytable.source.file)}")
        if paytable.source.url is not None:
            lines.append(f"url = {_toml_string(paytable.source.url)}")
    mains = sorted({main for main, _ in paytable.table})
    for main in mains:
        lines += ["", f"[{prefix}odds.{main}]"]
        for (row, chance), odds in sorted(paytable.table.items()):
            if row == main:
                lines.append(f"{chance} = {_toml_string(fraction_text(odds))}")
    return lines
