"""Text forms: actions as people type them, and a round's record as JSON lines.

>>> parse_action("call 7"), parse_action("3-4")
(Call(main=7), Roll(a=3, b=4))
>>> format_action(Roll(6, 6))
'6-6'
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Sequence

from hazard.core.dice import Roll
from hazard.core.engine import Action, Call, apply, new_round
from hazard.core.errors import InvalidError
from hazard.core.events import Event
from hazard.core.rules import Ruleset
from hazard.core.state import Round

__all__ = ["RECORD_FORMAT", "dump_round", "format_action", "load_round", "parse_action", "replay"]

RECORD_FORMAT = "hazard-round/1"
"""The first line of a round's record names this format, so a foreign file is refused, not misread."""

_CALL = re.compile(r"^\s*(?:call|main)\s+([0-9]+)\s*$", re.IGNORECASE)


def format_action(action: Action) -> str:
    """``call 7`` for a call, ``3-4`` for a throw."""
    return str(action)


def parse_action(text: str) -> Action:
    """Read ``call 7`` (or ``main 7``) as a call, anything else as a throw such as ``3-4``."""
    match = _CALL.match(text)
    if match is not None:
        return Call(int(match.group(1)))
    try:
        return Roll.parse(text)
    except InvalidError:
        raise InvalidError(
            f"invalid action {text!r}: expected 'call N' for a main or a throw such as '3-4'"
        ) from None


def replay(ruleset: Ruleset, actions: Iterable[Action]) -> tuple[Round, list[Event]]:
    """Play ``actions`` from a new round; return the state reached and every event on the way."""
    state = new_round(ruleset)
    events: list[Event] = []
    for action in actions:
        state, new = apply(state, action)
        events.extend(new)
    return state, events


def dump_round(ruleset: Ruleset, actions: Sequence[Action]) -> str:
    """A round's record: a header line, then one JSON object per action.

    >>> from hazard.core.rulesets import find_ruleset
    >>> print(dump_round(find_ruleset("craps"), [Roll(3, 4)]), end="")
    {"format": "hazard-round/1", "ruleset": "craps"}
    {"action": "3-4"}
    """
    replay(ruleset, actions)  # never write a record that cannot be played back
    lines = [json.dumps({"format": RECORD_FORMAT, "ruleset": ruleset.id})]
    lines += [json.dumps({"action": format_action(action)}) for action in actions]
    return "\n".join(lines) + "\n"


def load_round(text: str) -> tuple[str, list[Action]]:
    """Read a round's record: the ruleset id it was played under, and its actions.

    Every line is checked before anything is returned, so a corrupt record is refused whole.
    """
    # Blank lines are skipped, but errors give the line's number in the text as an editor counts it.
    lines = [(number, line) for number, line in enumerate(text.splitlines(), start=1) if line.strip()]
    if not lines:
        raise InvalidError("invalid round record: it is empty; expected a header line")
    first, head = lines[0]
    header = _json_object(head, first)
    ruleset_id = header.get("ruleset")
    if (
        set(header) != {"format", "ruleset"}
        or header["format"] != RECORD_FORMAT
        or not isinstance(ruleset_id, str)
    ):
        raise InvalidError(
            f"invalid round record: line {first} is {head.strip()!r}; "
            f'expected {{"format": "{RECORD_FORMAT}", "ruleset": ID}}'
        )
    actions: list[Action] = []
    for number, line in lines[1:]:
        entry = _json_object(line, number)
        if set(entry) != {"action"} or not isinstance(entry["action"], str):
            raise InvalidError(
                f'invalid round record: line {number} is {line.strip()!r}; expected {{"action": TEXT}}'
            )
        try:
            actions.append(parse_action(entry["action"]))
        except InvalidError as error:
            raise InvalidError(f"invalid round record: line {number}: {error}") from None
    return ruleset_id, actions


def _json_object(line: str, number: int) -> dict[str, object]:
    try:
        value = json.loads(line)
    except json.JSONDecodeError:
        raise InvalidError(
            f"invalid round record: line {number} is not JSON: {line.strip()[:60]!r}"
        ) from None
    if not isinstance(value, dict):
        raise InvalidError(f"invalid round record: line {number} is not a JSON object")
    return value
