"""What may be typed at the ``hazard play`` and ``hazard referee`` prompts, read into commands.

A line becomes a table action (:mod:`hazard.table.actions`), a throw of the game's own dice, a correction of
the record, or something for the screen. Anything else is an :class:`InvalidError` naming the line and what
was expected; whether an action is allowed now is the table's to say, not the parser's.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from hazard.core.dice import Roll
from hazard.core.errors import InvalidError
from hazard.table.actions import (
    Call,
    CancelBet,
    OfferBet,
    PassDice,
    Sit,
    Stake,
    TableAction,
    TakeBet,
    Throw,
    Withdraw,
)
from hazard.table.money import parse_money
from hazard.table.state import Table

__all__ = [
    "PLAY_HELP",
    "REFEREE_HELP",
    "Act",
    "Command",
    "Fix",
    "Meta",
    "ThrowDice",
    "parse_play",
    "parse_referee",
]

# --- commands ----------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Act:
    """Record this action."""

    action: TableAction


@dataclass(frozen=True, slots=True)
class ThrowDice:
    """Throw the game's own dice."""


@dataclass(frozen=True, slots=True)
class Meta:
    """Something for the screen: ``help``, ``table``, ``bets``, ``log`` or ``quit``."""

    word: str


@dataclass(frozen=True, slots=True)
class Fix:
    """Correct the record: entry ``target`` (None: the last action standing) is void, or replaced."""

    target: int | None
    replacement: TableAction | None = None


Command = Act | ThrowDice | Meta | Fix

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
}
_THROW_WORDS = ("throw", "t", "roll")
_ROLL_LIKE = re.compile(r"^[0-9][0-9\s,\-]*$")
_OFFER = re.compile(
    r"^(?P<amount>\S+)\s+(?:on\s+)?(?P<bet>.+?)"
    r"(?:\s+at\s+(?P<odds>evens|even money|[0-9.]+(?:\s*(?:/|:|to)\s*[0-9]+)?))?$",
    re.IGNORECASE,
)

PLAY_USAGE = {
    "stake": "stake AMOUNT, e.g. stake 5",
    "withdraw": "withdraw",
    "call": "call MAIN, e.g. call 7",
    "offer": "offer AMOUNT on BET [at ODDS], e.g. offer 2 on 4 or 10 before 7",
    "take": "take N, e.g. take 1",
    "cancel": "cancel N, e.g. cancel 1",
    "pass": "pass",
}
REFEREE_USAGE = {
    "sit": "sit NAME BANKROLL, e.g. sit Dan 100",
    "stake": "stake NAME AMOUNT [consent], e.g. stake Bob 5",
    "withdraw": "withdraw NAME",
    "call": "call MAIN, e.g. call 7",
    "throw": "throw ROLL (or just the roll), e.g. 3-4 or 3 4",
    "offer": "offer NAME AMOUNT on BET [at ODDS], e.g. offer Cat 2 on 4 or 10 before 7",
    "take": "take N NAME, e.g. take 1 Bob",
    "cancel": "cancel N",
    "pass": "pass",
    "undo": "undo",
    "void": "void N, e.g. void 7",
    "fix": "fix N COMMAND, e.g. fix 7 3-4",
}


def _usage(usages: dict[str, str], verb: str) -> InvalidError:
    return InvalidError(f"invalid command {verb!r}: expected {usages[verb]}")


def _split(line: str) -> tuple[str, str]:
    parts = line.strip().split(maxsplit=1)
    if not parts:
        return "", ""
    return parts[0].lower(), parts[1].strip() if len(parts) > 1 else ""


def _number(text: str, what: str) -> int:
    if not text.isascii() or not text.isdigit():
        raise InvalidError(f"invalid {what} {text!r}: expected a whole number")
    return int(text)


def _odds(text: str | None) -> Fraction:
    if text is None or text.lower() in ("evens", "even money"):
        return Fraction(1)
    return parse_money(re.sub(r"\s*(?::|to)\s*", "/", text), what="odds")


def _offer_terms(rest: str, usages: dict[str, str]) -> tuple[Fraction, str, Fraction]:
    match = _OFFER.match(rest)
    if match is None:
        raise _usage(usages, "offer")
    amount = parse_money(match["amount"], what="side bet amount")
    return amount, match["bet"], _odds(match["odds"])


def _meta(verb: str, rest: str, allowed: Sequence[str]) -> Meta | None:
    word = _META.get(verb)
    if word is None or word not in allowed:
        return None
    if rest:
        raise InvalidError(f"invalid command {verb + ' ' + rest!r}: {verb} takes nothing after it")
    return Meta(word)


def parse_play(line: str, you: str) -> Command:
    """Read one line typed at ``hazard play`` by ``you``; an :class:`InvalidError` for anything else.

    >>> parse_play("stake 5", "Ann")
    Act(action=Stake(player='Ann', amount=Fraction(5, 1), consent=False))
    >>> parse_play("", "Ann"), parse_play("7", "Ann")
    (ThrowDice(), Act(action=Call(main=7)))
    """
    verb, rest = _split(line)
    text = line.strip()
    if not verb:
        return ThrowDice()
    meta = _meta(verb, rest, ("help", "table", "bets", "quit"))
    if meta is not None:
        return meta
    if verb in _THROW_WORDS:
        if rest:
            raise InvalidError(
                f"invalid command {text!r}: hazard play throws its own dice; type throw alone "
                "(real dice are typed in with hazard referee)"
            )
        return ThrowDice()
    if verb.isascii() and verb.isdigit() and not rest:
        return Act(Call(int(verb)))
    if verb == "call":
        if not rest or " " in rest:
            raise _usage(PLAY_USAGE, verb)
        return Act(Call(_number(rest, "main")))
    if verb == "stake":
        if not rest or " " in rest:
            raise _usage(PLAY_USAGE, verb)
        return Act(Stake(you, parse_money(rest, what="stake")))
    if verb in ("withdraw", "pass"):
        if rest:
            raise _usage(PLAY_USAGE, verb)
        return Act(Withdraw(you) if verb == "withdraw" else PassDice())
    if verb == "offer":
        amount, bet, odds = _offer_terms(rest, PLAY_USAGE)
        return Act(OfferBet(you, bet, amount, odds))
    if verb in ("take", "cancel"):
        if not rest or " " in rest:
            raise _usage(PLAY_USAGE, verb)
        number = _number(rest.removeprefix("#"), "side bet number")
        return Act(TakeBet(number, you) if verb == "take" else CancelBet(number))
    if _ROLL_LIKE.match(text):
        raise InvalidError(
            f"invalid command {text!r}: hazard play throws its own dice; type throw or press Enter "
            "(real dice are typed in with hazard referee)"
        )
    raise InvalidError(f"unknown command {text!r}: type help for the commands")


def _who(table: Table, name: str) -> str:
    """The seated player ``name`` means, in any case; unchanged if nobody (the table then says who sits)."""
    matches = [p.name for p in table.players if p.name.lower() == name.lower()]
    return matches[0] if len(matches) == 1 else name


def parse_referee(line: str, table: Table) -> Command | None:
    """Read one line typed at ``hazard referee``; None for an empty line.

    >>> from hazard.core.rulesets import find_ruleset, paytable_for
    >>> from hazard.table.state import new_table
    >>> rules = find_ruleset("wikipedia")
    >>> table = new_table(rules, paytable_for(rules))
    >>> parse_referee("3 4", table), parse_referee("fix 7 2-5", table)
    (Act(action=Throw(roll=Roll(a=3, b=4))), Fix(target=7, replacement=Throw(roll=Roll(a=2, b=5))))
    """
    verb, rest = _split(line)
    text = line.strip()
    if not verb:
        return None
    meta = _meta(verb, rest, ("help", "table", "bets", "log", "quit"))
    if meta is not None:
        return meta
    words = rest.split()
    if verb == "undo":
        if rest:
            raise _usage(REFEREE_USAGE, verb)
        return Fix(None)
    if verb == "void":
        if len(words) != 1:
            raise _usage(REFEREE_USAGE, verb)
        return Fix(_number(words[0], "entry number"))
    if verb == "fix":
        if len(words) < 2:
            raise _usage(REFEREE_USAGE, verb)
        target = _number(words[0], "entry number")
        replacement = parse_referee(rest.split(maxsplit=1)[1], table)
        if not isinstance(replacement, Act):
            raise InvalidError(f"invalid command {text!r}: an entry can only be replaced by an action")
        return Fix(target, replacement.action)
    if verb == "sit":
        if len(words) != 2:
            raise _usage(REFEREE_USAGE, verb)
        return Act(Sit(words[0], parse_money(words[1], what="bankroll", allow_zero=True)))
    if verb == "stake":
        consent = len(words) == 3 and words[2].lower() == "consent"
        if len(words) != 2 and not consent:
            raise _usage(REFEREE_USAGE, verb)
        return Act(Stake(_who(table, words[0]), parse_money(words[1], what="stake"), consent))
    if verb == "withdraw":
        if len(words) != 1:
            raise _usage(REFEREE_USAGE, verb)
        return Act(Withdraw(_who(table, words[0])))
    if verb == "call":
        if len(words) != 1:
            raise _usage(REFEREE_USAGE, verb)
        return Act(Call(_number(words[0], "main")))
    if verb in _THROW_WORDS:
        if not rest:
            raise _usage(REFEREE_USAGE, "throw")
        return Act(Throw(Roll.parse(rest)))
    if verb == "offer":
        if len(words) < 3:
            raise _usage(REFEREE_USAGE, verb)
        amount, bet, odds = _offer_terms(rest.split(maxsplit=1)[1], REFEREE_USAGE)
        return Act(OfferBet(_who(table, words[0]), bet, amount, odds))
    if verb == "take":
        if len(words) != 2:
            raise _usage(REFEREE_USAGE, verb)
        return Act(TakeBet(_number(words[0].removeprefix("#"), "side bet number"), _who(table, words[1])))
    if verb == "cancel":
        if len(words) != 1:
            raise _usage(REFEREE_USAGE, verb)
        return Act(CancelBet(_number(words[0].removeprefix("#"), "side bet number")))
    if verb == "pass":
        if rest:
            raise _usage(REFEREE_USAGE, verb)
        return Act(PassDice())
    if _ROLL_LIKE.match(text):
        return Act(Throw(Roll.parse(text)))
    raise InvalidError(f"unknown command {text!r}: type help for the commands")


PLAY_HELP = """\
Commands (Enter alone throws the dice):
  stake AMOUNT                    stake against the caster before the round begins, e.g. stake 5
  withdraw                        take back your stakes before the round begins
  call MAIN  (or just MAIN)       call the main when you hold the dice, e.g. call 7
  throw  (or Enter)               throw the dice when you hold them, or let the bot holding them throw
  offer AMOUNT on BET [at ODDS]   offer a side bet, e.g. offer 2 on 4 or 10 before 7, or ... at 2/1
  take N                          take side bet #N, laying against it
  cancel N                        withdraw your side bet #N before anyone takes it
  pass                            give up the dice between rounds
  bets                            the even-money side bets of the 1674 source
  table                           show the table
  quit                            leave; the game is saved (hazard play --resume)"""

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
  undo                            void the last action standing (a correction entry; nothing is deleted)
  void N                          void entry N
  fix N COMMAND                   entry N should have been COMMAND, e.g. fix 7 3-4
  log                             every entry of the record, with its standing and what it did
  bets                            the even-money side bets of the 1674 source
  table                           show the table
  quit                            leave; the game is saved (hazard referee --resume)"""
