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
    SetSeed,
    TableAction,
    ThrowDice,
    is_verb,
    parse_action,
    parse_fix,
)

__all__ = ["PLAY_HELP", "REFEREE_HELP", "Act", "Command", "Fix", "Meta", "parse_line"]


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


PLAY_HELP = """\
Commands (Enter alone throws the dice):
  stake AMOUNT                    stake against the caster before the round begins, e.g. stake 5, stake 2.50,
                                  stake 5/3, stake £1 10s; holding the dice against a bank, name your stake
  withdraw                        take back your stakes before the round begins
  call MAIN  (or just MAIN)       call the main when you hold the dice, e.g. call 7
  throw  (or Enter)               throw the dice when you hold them, or let the bot holding them throw
  offer AMOUNT on BET [at ODDS]   offer a side bet, e.g. offer 2 on 4 or 10 before 7, or ... at 2/1
  take N                          take side bet #N, laying against it
  cancel N                        withdraw your side bet #N before anyone takes it
  pass                            give up the dice between rounds
  seed TEXT                       your own seed for the fair dice from the next hand on (before its first
                                  throw): the dice's seed is committed first, so nobody can fit it to yours
  bets                            the even-money side bets of the 1674 source
  table                           show the table
  quit                            leave; the game is saved (hazard play --resume)
  close                           end the game for good: nothing more may be done, the hand's seed is shown"""

REFEREE_HELP = """\
Commands (names in any case; entry numbers are the [N] before each recorded line):
  3-4  or  3 4  or  throw 3-4     the dice as they fell
  call MAIN                       the caster calls the main, e.g. call 7
  stake NAME AMOUNT [consent]     NAME stakes against the caster ('consent': the caster agreed, once the
                                  chance is set, where everyone bets against the caster)
  withdraw NAME                   NAME takes back their stakes before the round begins
  offer NAME AMOUNT on BET [at ODDS]   a side bet, e.g. offer Cat 2 on 4 or 10 before 7
  take N NAME                     NAME takes side bet #N
  cancel N                        side bet #N is withdrawn before anyone takes it
  pass                            the caster gives up the dice between rounds
  sit NAME BANKROLL               someone joins the table
  leave NAME                      NAME gets up from the table with his bankroll, between his rounds
  undo                            void the last action standing (a correction entry; nothing is deleted)
  void N                          void entry N
  fix N COMMAND                   entry N should have been COMMAND, e.g. fix 7 3-4
  log                             every entry of the record, with its standing and what it did
  bets                            the even-money side bets of the 1674 source
  table                           show the table
  quit                            leave; the game is saved (hazard referee --resume)
  close                           end the game for good: nothing more may be done
Sums may be written 5, 2.50, 5/3, £1 10s or 7s 6d."""
