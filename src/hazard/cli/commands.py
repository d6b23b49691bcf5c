"""What may be typed at the ``hazard play`` and ``hazard referee`` prompts, read into commands.

A line is a table action in the actions' own text form (read by :func:`hazard.table.parse_action`, the same
parser every front end uses), a referee's correction of the record, or something for the screen. Whether an
action is allowed now, and for whom, is the table's to say, not the parser's.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from hazard.core.errors import InvalidError, quoted
from hazard.table import (
    FIX_USAGE,
    Actor,
    Fix,
    HelpLine,
    SetSeed,
    TableAction,
    ThrowDice,
    action_forms,
    is_verb,
    parse_action,
    parse_fix,
)

__all__ = [
    "PLAY_HELP",
    "REFEREE_HELP",
    "Act",
    "Command",
    "Fix",
    "Meta",
    "parse_line",
    "play_help",
    "referee_help",
]


@dataclass(frozen=True, slots=True)
class Act:
    """Hand this to the table: an action, or a throw of the game's own dice."""

    action: TableAction | ThrowDice | SetSeed


@dataclass(frozen=True, slots=True)
class Meta:
    """Something for the screen: ``help``, ``table``, ``bets``, ``log`` or ``quit``; or ``close``, which ends
    the game for good."""

    word: str


Command = Act | Meta | Fix

_META = {
    "help": "help",
    "?": "help",
    "h": "help",
    "table": "table",
    "show": "table",
    "bets": "bets",
    "log": "log",
    "history": "log",
    "quit": "quit",
    "q": "quit",
    "exit": "quit",
    "close": "close",
}


def parse_line(line: str, *, by: Actor, players: Sequence[str], referee: bool) -> Command | None:
    """Read one line typed at the prompt by ``by``; None for a line that asks nothing (the referee's Enter).

    ``referee``: the referee's prompt, where corrections (``undo``, ``void N``, ``fix N COMMAND``) and
    ``log`` are understood too.

    >>> parse_line("stake 5", by=Actor.player("Ann"), players=["Ann"], referee=False)
    Act(action=Stake(player='Ann', amount=Fraction(5, 1), consent=False))
    >>> from hazard.table import REFEREE
    >>> parse_line("fix 7 2-5", by=REFEREE, players=[], referee=True)
    Fix(target=7, replacement=Roll(a=2, b=5))
    """
    text = " ".join(line.split())
    verb, _, rest = text.partition(" ")
    verb = verb.lower()
    word = _META.get(verb)
    if word is not None and (word != "log" or referee):
        if rest:
            raise InvalidError(f"invalid command {quoted(text)}: {verb} takes nothing after it")
        return Meta(word)
    if referee:
        if not text:
            return None
        if verb in FIX_USAGE:
            return _fix(text, by, players)
    if not is_verb(verb):
        raise InvalidError(f"unknown command {quoted(text)}: type help for the commands")
    return Act(parse_action(text, by=by, players=players))


def _fix(text: str, by: Actor, players: Sequence[str]) -> Fix:
    fix = parse_fix(text, by=by, players=players)
    assert fix is not None
    return fix


# The order each help lists the actions in (what a player does most, first); an action type registered later
# comes after them, in the order it was registered.
_PLAY_ORDER = ("stake", "withdraw", "call", "throw", "offer", "take", "cancel", "pass", "seed")
_REFEREE_ORDER = ("throw", "call", "stake", "withdraw", "offer", "take", "cancel", "pass", "sit", "leave")
_SCREEN = (
    HelpLine("bets", "the even-money side bets of the 1674 source"),
    HelpLine("table", "show the table"),
)
_PLAY_END = (
    *_SCREEN,
    HelpLine("quit", "leave; the game is saved (hazard play --resume)"),
    HelpLine("close", "end the game for good: nothing more may be done, the hand's seed is shown"),
)
_REFEREE_END = (
    HelpLine("undo", "void the last action standing (a correction entry; nothing is deleted)"),
    HelpLine("void N", "void entry N"),
    HelpLine("fix N COMMAND", "entry N should have been COMMAND, e.g. fix 7 3-4"),
    HelpLine("log", "every entry of the record, with its standing and what it did"),
    *_SCREEN,
    HelpLine("quit", "leave; the game is saved (hazard referee --resume)"),
    HelpLine("close", "end the game for good: nothing more may be done"),
)
_COLUMN = 32


def _lines(lines: Sequence[HelpLine]) -> list[str]:
    out = []
    for line in lines:
        first, *more = line.meaning.split("\n")
        command = line.command.ljust(_COLUMN) if len(line.command) < _COLUMN else f"{line.command}   "
        out.append(f"  {command}{first}")
        out.extend(f"  {' ' * _COLUMN}{rest}" for rest in more)
    return out


def _ordered(order: Sequence[str]) -> list[str]:
    verbs = [*order, *(form.verb for form in action_forms() if form.verb not in order)]
    return [form.verb for verb in verbs for form in action_forms() if form.verb == verb]


def play_help() -> str:
    """The player's help: each action's lines as its type gives them (``PLAY_HELP`` for the built-in ones)."""
    by_verb = {form.verb: form for form in action_forms()}
    actions = [line for verb in _ordered(_PLAY_ORDER) for line in by_verb[verb].play_help]
    return "\n".join(["Commands (Enter alone throws the dice):", *_lines([*actions, *_PLAY_END])])


def referee_help() -> str:
    """The referee's help: each action's lines as its type gives them, then the corrections."""
    by_verb = {form.verb: form for form in action_forms()}
    actions = [line for verb in _ordered(_REFEREE_ORDER) for line in by_verb[verb].referee_help]
    return "\n".join(
        [
            "Commands (names in any case; entry numbers are the [N] before each recorded line):",
            *_lines([*actions, *_REFEREE_END]),
            "Sums may be written 5, 2.50, 5/3, £1 10s or 7s 6d.",
        ]
    )


PLAY_HELP = play_help()
"""The player's help for the built-in actions."""
REFEREE_HELP = referee_help()
"""The referee's help for the built-in actions."""
