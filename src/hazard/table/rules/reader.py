"""Reading a typed command: the names of players, the reader of one command's words, and the odds.

A name is checked once here (:func:`check_name`), and a :class:`Reader` holds one command being read, for the
parser of its action type (:attr:`~hazard.table.rules.registry.ActionForm.parse`) to take apart.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from fractions import Fraction

from hazard.core.errors import InvalidError
from hazard.core.numbers import parse_fraction, parse_whole
from hazard.table.rules.actors import MAX_NAME, Actor
from hazard.table.rules.money import check_odds, parse_money
from hazard.table.rules.registry import form_for_verb, verbs

__all__ = [
    "AS_BOT",
    "AT_ODDS",
    "MAX_TEXT",
    "ON",
    "ROLL_LIKE",
    "THROW_WORDS",
    "Reader",
    "bet_number",
    "check_name",
    "name_key",
    "name_text",
    "odds_text",
    "parse_odds",
]

THROW_WORDS = frozenset({"throw", "t", "roll"})
ROLL_LIKE = re.compile(r"^[0-9]{2}$|^[0-9]\s*[-,+/x ]\s*[0-9]$")
MAIN = re.compile(r"^[0-9]{1,2}$")
_MAX_BET = 10**9 - 1
_NAME_TOKEN = re.compile(r'^\s*("([^"]*)"|(\S+))\s*(.*)$', re.DOTALL)
ON = re.compile(r"\s+on\s+", re.IGNORECASE)
AT_ODDS = re.compile(r"\s+at\s+(?P<odds>\S[^\n]*?)\s*$", re.IGNORECASE)
_ODDS_BETWEEN = re.compile(r"\s*(?:/|:|to)\s*", re.IGNORECASE)
_ODDS_SIDE = re.compile(r"[0-9]{1,12}(?:\.[0-9]{1,6})?")
AS_BOT = re.compile(r"\s+as\s+(?:an?\s+)?(?P<policy>\S+)(?:\s+bot)?\s*$", re.IGNORECASE)
MAX_TEXT = 400


class Reader:
    """One command being read: its verb, the rest, the actor and the names seated."""

    def __init__(self, text: str, by: Actor, players: Sequence[str]) -> None:
        self.text = " ".join(text.split())
        verb, _, rest = self.text.partition(" ")
        self.verb = verb.lower()
        self.rest = rest
        self.by = by
        self.players = players

    def fail(self) -> InvalidError:
        """The refusal of a command malformed for its verb: its usage (the referee's, who names players)."""
        form = form_for_verb(self.verb) or form_for_verb("throw")
        assert form is not None
        usage = form.named_usage if self.by.is_referee and form.named_usage is not None else form.usage
        return InvalidError(f"invalid command {self.text!r}: expected {usage}")

    def who(self, name: str) -> str:
        """The seated player ``name`` means, in any case; else the name as typed (the table then says)."""
        matches = [p for p in self.players if p.lower() == name.lower()]
        return matches[0] if len(matches) == 1 else name

    def me(self) -> str:
        """The actor's own name, for a command that leaves it out; the referee must always name the player."""
        if self.by.name is None:
            form = form_for_verb(self.verb)
            named = None if form is None else form.named_usage
            raise InvalidError(f"invalid command {self.text!r}: the referee names the player: {named}")
        return self.by.name

    def name_then(self, rest: str) -> tuple[str, str]:
        """The name at the start of ``rest`` (bare, or in double quotes), and what follows it."""
        match = _NAME_TOKEN.match(rest)
        if match is None:
            raise self.fail()
        name = match.group(2) if match.group(2) is not None else match.group(3)
        return self.who(check_name(name)), match.group(4)

    def only_name(self, rest: str) -> str:
        """The name that is the whole of ``rest`` (a name of several words is written in double quotes)."""
        name, left = self.name_then(rest)
        if left.strip():
            raise self.fail()
        return name

    def whose_sum(self, rest: str, what: str) -> tuple[str, Fraction]:
        """``[NAME] AMOUNT``: the actor's own sum where the whole is a sum, else a name and then a sum."""
        if not rest:
            raise self.fail()
        if not rest.startswith('"'):
            try:
                amount = parse_money(rest, what=what)
            except InvalidError:
                # One word that is no sum: the actor's own sum mistyped, or (for the referee, who names the
                # player) a sum where a name must come first; a word that starts as a number is no name.
                if " " not in rest and (self.by.name is not None or rest[:1] in "0123456789£$€.-"):
                    raise
            else:
                return self.me(), amount
        name, money = self.name_then(rest)
        if not money:
            raise self.fail()
        return name, parse_money(money, what=what)


def bet_number(text: str, what: str = "side bet number") -> int:
    """A side bet's number as typed (``3`` or ``#3``): the one reader of whole numbers, after the ``#``."""
    return parse_whole(text.removeprefix("#"), what=what, maximum=_MAX_BET, expected="a whole number")


_ODDS_FORMS = "odds above 0 such as 2/1, 5:2, 3 to 1 or evens"


def odds_text(odds: Fraction) -> str:
    """Odds as :func:`parse_odds` reads them back: ``evens``, or ``2 to 1`` (paid 2 for each 1 staked).

    >>> odds_text(Fraction(1)), odds_text(Fraction(5, 2)), parse_odds(odds_text(Fraction(5, 2)))
    ('evens', '5 to 2', Fraction(5, 2))
    """
    return "evens" if odds == 1 else f"{odds.numerator} to {odds.denominator}"


def parse_odds(text: str | None) -> Fraction:
    """Odds as people write them: ``2/1``, ``5:2``, ``3 to 1``, ``1.5`` or ``evens`` (None: even money).

    The two sides are read by the one reader of numbers; this adds only the forms of odds (the ``:`` or
    ``to`` between them, ``evens``), and refuses any text that is not one with one message.

    >>> parse_odds("5:2"), parse_odds("evens"), parse_odds("3 to 1")
    (Fraction(5, 2), Fraction(1, 1), Fraction(3, 1))
    """
    if text is None or text.lower() in ("evens", "even money", "even"):
        return Fraction(1)
    refusal = InvalidError(f"invalid odds {text[:40]!r}: expected {_ODDS_FORMS}")
    sides = _ODDS_BETWEEN.split(text, maxsplit=1)
    if not _ODDS_SIDE.fullmatch(sides[0]):  # a decimal or whole number, unsigned
        raise refusal
    try:
        top = parse_fraction(sides[0], what="odds", most=None, finest=None)
        bottom = 1 if len(sides) == 1 else parse_whole(sides[1], what="odds", low=1, expected=_ODDS_FORMS)
    except InvalidError:
        raise refusal from None
    return check_odds(top / bottom, text=text)


# --- names ------------------------------------------------------------------------------------------------

_BARE_NAME = re.compile(r"^[A-Za-z][A-Za-z0-9_'.-]*$")
_RESERVED = frozenset({"referee", "consent", "on", "at", "as", "evens", "even"})
# Code points that show nothing (Unicode's default-ignorable ones and fillers): a name holding one would look
# the same as another name without it.
_INVISIBLE = re.compile(
    "[\u00ad\u034f\u061c\u115f\u1160\u17b4\u17b5\u180b-\u180f\u200b-\u200f\u202a-\u202e"
    "\u2060-\u206f\u3164\ufe00-\ufe0f\ufeff\uffa0\U0001bca0-\U0001bca3\U0001d173-\U0001d17a"
    "\U000e0000-\U000e0fff]"
)


def check_name(name: str) -> str:
    """``name`` as a player's name, in one written form; else refused with an :class:`InvalidError`.

    A name is 1 to 40 printable characters, beginning with a letter (of any script), with no double quote and
    nothing that shows nothing (a zero-width space, a control character such as a terminal's escape), and is
    not a word that commands use (``consent``, ``referee`` ...) nor a verb. It is written in Unicode's
    compatibility form (NFKC: a full-width ``Ａｎｎ`` is ``Ann``), its spaces tidied as commands read it back
    (one between words, none around them). Two names are the same name whatever their case
    (``name_key``).

    >>> check_name("  Ann   Lee "), check_name("Ａｎｎ"), check_name("Zoë")
    ('Ann Lee', 'Ann', 'Zoë')
    """
    normal = unicodedata.normalize("NFKC", name[: MAX_NAME * 4])
    stripped = " ".join(normal.split())
    if (
        not stripped
        or len(name) > MAX_NAME * 4
        or len(stripped) > MAX_NAME
        or '"' in stripped
        or not stripped.isprintable()
        or _INVISIBLE.search(stripped)
        or not stripped[0].isalpha()
        or stripped.lower() in _RESERVED
        or stripped.lower() in verbs()
        or stripped.lower() in THROW_WORDS
    ):
        raise InvalidError(
            f"invalid player name {ascii(name[:60]) if not name[:60].isprintable() else repr(name[:60])}: "
            f"expected 1 to {MAX_NAME} printable characters beginning with a letter, no double quote or "
            "invisible character, and not a word commands use (a verb, or one of "
            f"{', '.join(sorted(_RESERVED))})"
        )
    return stripped


def name_key(name: str) -> str:
    """What makes two names the same name: ``Ann`` and ``ann`` cannot both sit at a table."""
    return check_name(name).casefold()


def name_text(name: str) -> str:
    """A name as commands write it: bare where it is one word beginning with a letter, else in quotes."""
    return name if _BARE_NAME.match(name) else f'"{name}"'
