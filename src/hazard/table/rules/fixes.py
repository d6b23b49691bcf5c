"""The referee's corrections of the record, in their text form: ``undo``, ``void N``, ``fix N COMMAND``."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from hazard.core.errors import InvalidError, quoted
from hazard.table.rules.action_types import SetSeed, TableAction, ThrowDice, parse_action
from hazard.table.rules.actors import Actor

__all__ = ["FIX_USAGE", "Fix", "parse_fix"]


@dataclass(frozen=True, slots=True)
class Fix:
    """The referee's correction of the record: entry ``target`` (None: the last action standing) is void, or
    should have been ``replacement``."""

    target: int | None
    replacement: TableAction | None = None


FIX_USAGE = {
    "undo": "undo",
    "void": "void N, e.g. void 7",
    "fix": "fix N COMMAND, e.g. fix 7 3-4",
}
"""The referee's corrections in their text form, each with its usage."""
_MAX_ENTRY = 2**63 - 1


def parse_fix(text: str, *, by: Actor, players: Sequence[str] = ()) -> Fix | None:
    """Read a referee's correction (``undo``, ``void N``, ``fix N COMMAND``); None where ``text`` is none.

    >>> from hazard.table.rules.actors import REFEREE
    >>> parse_fix("fix 7 2-5", by=REFEREE), parse_fix("void 3", by=REFEREE), parse_fix("throw", by=REFEREE)
    (Fix(target=7, replacement=Roll(a=2, b=5)), Fix(target=3, replacement=None), None)
    """
    text = " ".join(text.split())
    verb, _, rest = text.partition(" ")
    verb = verb.lower()
    if verb not in FIX_USAGE:
        return None
    shown = quoted(text)
    words = rest.split(maxsplit=1)
    if verb == "undo":
        if rest:
            raise InvalidError(f"invalid command {shown}: expected {FIX_USAGE[verb]}")
        return Fix(None)
    if verb == "void":
        if len(words) != 1:
            raise InvalidError(f"invalid command {shown}: expected {FIX_USAGE[verb]}")
        return Fix(_entry_number(words[0]))
    if len(words) != 2:
        raise InvalidError(f"invalid command {shown}: expected {FIX_USAGE[verb]}")
    replacement = parse_action(words[1], by=by, players=players)
    if isinstance(replacement, ThrowDice | SetSeed):
        raise InvalidError(f"invalid command {shown}: an entry can only be replaced by an action")
    return Fix(_entry_number(words[0]), replacement)


def _entry_number(text: str) -> int:
    # The digits are counted before int(), so no length of text reaches it.
    digits = text.lstrip("0") or "0"
    if not (text.isascii() and text.isdigit() and len(digits) <= len(str(_MAX_ENTRY))) or not (
        1 <= int(digits) <= _MAX_ENTRY
    ):
        raise InvalidError(
            f"invalid entry number {quoted(text)}: expected an entry number, the [N] before a recorded line "
            "(see log)"
        )
    return int(digits)
