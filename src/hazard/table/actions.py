"""Everything that can happen at a table, who does it, and the two forms each action is written in.

An action is an input: a player sits down, a stake is laid, the caster calls, the dice show a throw, a side
bet is offered or taken, the dice are handed on. The caster's call and the throw are the rules engine's own
actions (:class:`~hazard.core.engine.Call` and :class:`~hazard.core.dice.Roll`); the rest belong to the table.
Every action is taken by an :class:`Actor`, a seated player or the referee, and the table decides whether
that actor may take it (:func:`hazard.table.transitions.apply_action`).

Each action has one text form, printed by :func:`action_text` and read back by :func:`parse_action`, as
python-chess's ``Move.uci()`` and ``Move.from_uci()`` are one notation. The printed form names every player
(``stake Bob 5``); a player typing for himself may leave his own name out (``stake 5``), and the parser fills
it in from the actor. The game record stores the JSON form (:func:`action_to_json`).

>>> ann = Actor.player("Ann")
>>> parse_action("stake 5", by=ann)
Stake(player='Ann', amount=Fraction(5, 1), consent=False)
>>> action_text(parse_action("offer Bob 2 on 4 or 10 before 7 at 2 to 1", by=REFEREE))
'offer Bob 2 on 4 or 10 before 7 at 2/1'
>>> action_from_json(action_to_json(Roll(3, 4)))
Roll(a=3, b=4)
"""

from __future__ import annotations

import enum
import re
import unicodedata
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from hazard.core.dice import Roll
from hazard.core.engine import Call
from hazard.core.errors import IllegalError, InvalidError, quoted
from hazard.core.numbers import fraction_text
from hazard.table.money import MoneyStyle, check_odds, format_money, parse_money

__all__ = [
    "DICE",
    "FIX_USAGE",
    "REFEREE",
    "Actor",
    "ActorError",
    "ActorKind",
    "BotPolicy",
    "Call",
    "CancelBet",
    "Fix",
    "Leave",
    "OfferBet",
    "PassDice",
    "Roll",
    "SetSeed",
    "Sit",
    "Stake",
    "TableAction",
    "TakeBet",
    "ThrowDice",
    "Withdraw",
    "action_from_json",
    "action_text",
    "action_to_json",
    "actor_from_json",
    "actor_to_json",
    "check_name",
    "is_verb",
    "name_key",
    "name_text",
    "parse_action",
    "parse_fix",
    "parse_odds",
]

MAX_NAME = 40
"""The longest name a player may have."""


class ActorKind(enum.Enum):
    """Who takes an action: a player seated at the table, or the referee who enters it for a player."""

    PLAYER = "player"
    REFEREE = "referee"
    DICE = "dice"
    """The game's own fair dice, writing their commitments, reveals and the seeds they draw."""


class ActorError(IllegalError):
    """An action its actor may not take at any moment: another player's, or by one who is not at the table."""


@dataclass(frozen=True, slots=True)
class Actor:
    """Who takes an action: ``Actor.player("Ann")``, or :data:`REFEREE`."""

    kind: ActorKind
    name: str | None = None

    def __post_init__(self) -> None:
        if (self.kind is ActorKind.PLAYER) != (self.name is not None):
            raise InvalidError(
                f"invalid actor {self.kind.value} {self.name!r}: a player has a name, the referee none"
            )

    @classmethod
    def player(cls, name: str) -> Actor:
        """The seated player ``name``."""
        return cls(ActorKind.PLAYER, name)

    @property
    def is_referee(self) -> bool:
        return self.kind is ActorKind.REFEREE

    def __str__(self) -> str:
        if self.kind is ActorKind.DICE:
            return "the dice"
        return "the referee" if self.name is None else self.name


REFEREE = Actor(ActorKind.REFEREE)
"""The referee, who may enter any player's action (and whose entries the record marks as such)."""
DICE = Actor(ActorKind.DICE)
"""The game's fair dice (:mod:`hazard.table.fair`): they act for nobody at the table."""


class BotPolicy(enum.Enum):
    """How a bot seated at a table plays (see :mod:`hazard.table.bots`)."""

    SETTER = "setter"
    BYSTANDER = "bystander"


@dataclass(frozen=True, slots=True)
class Sit:
    """``name`` sits down at the caster's right (last in the order the dice travel) with ``bankroll``."""

    name: str
    bankroll: Fraction
    bot: BotPolicy | None = None
    """The policy of the bot playing this seat, or None for a person."""


@dataclass(frozen=True, slots=True)
class Stake:
    """``player`` stakes ``amount`` against the caster (the caster's stake unit for the paytable)."""

    player: str
    amount: Fraction
    consent: bool = False
    """The caster agreed to a bet laid once the chance is set (needed where every player bets)."""


@dataclass(frozen=True, slots=True)
class Withdraw:
    """``player`` takes back the stakes laid against the caster before the round has begun."""

    player: str


@dataclass(frozen=True, slots=True)
class Leave:
    """``player`` gets up from the table, taking his bankroll with him (his stakes and open offers withdrawn;
    the dice handed on if he holds them): not in a round he casts, nor while a stake of his is at risk."""

    player: str


@dataclass(frozen=True, slots=True)
class OfferBet:
    """``backer`` offers to back ``proposition`` for ``amount`` at ``odds`` (1 is even money)."""

    backer: str
    proposition: str
    amount: Fraction
    odds: Fraction = Fraction(1)


@dataclass(frozen=True, slots=True)
class TakeBet:
    """``layer`` takes side bet number ``bet``, laying against it."""

    bet: int
    layer: str


@dataclass(frozen=True, slots=True)
class CancelBet:
    """The backer withdraws side bet number ``bet`` before anyone has taken it."""

    bet: int


@dataclass(frozen=True, slots=True)
class PassDice:
    """The caster hands the dice on between rounds, by choice."""


@dataclass(frozen=True, slots=True)
class ThrowDice:
    """A request to throw the game's own dice: not an action until the dice say what they show."""


@dataclass(frozen=True, slots=True)
class SetSeed:
    """``player`` sets his own seed for the fair dice's next hand (asked of the dice, not of the table)."""

    player: str
    seed: str
    hand: int | None = None
    """The hand whose commitment the sender saw (a page's seed names it): refused for any other hand. None:
    whichever hand is committed now."""


TableAction = Sit | Stake | Withdraw | Leave | Call | Roll | OfferBet | TakeBet | CancelBet | PassDice
"""Any action at a table."""


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
    (:func:`name_key`).

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
        or stripped.lower() in _USAGE
        or stripped.lower() in _THROW_WORDS
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


# --- the text form ----------------------------------------------------------------------------------------


def action_text(action: TableAction, money: MoneyStyle = MoneyStyle.EXACT) -> str:
    """``action`` as a command (``stake Bob 5``, ``throw 3-4``); sums in ``money`` where it is exact.

    Whatever the style, the text reads back to the same action with :func:`parse_action`.

    >>> action_text(Sit("Ann Lee", Fraction(305, 3)), MoneyStyle.LSD)
    'sit "Ann Lee" £101 13s 4d'
    """

    def amount(value: Fraction) -> str:
        text = format_money(value, money)
        try:
            exact = parse_money(text, allow_zero=True) == value
        except InvalidError:  # a sum no command may carry (below zero): written exactly, for the message
            exact = False
        return text if exact else format_money(value, MoneyStyle.EXACT)

    if isinstance(action, Sit):
        bot = "" if action.bot is None else f" as a {action.bot.value} bot"
        return f"sit {name_text(action.name)} {amount(action.bankroll)}{bot}"
    if isinstance(action, Stake):
        consent = " consent" if action.consent else ""
        return f"stake {name_text(action.player)} {amount(action.amount)}{consent}"
    if isinstance(action, Withdraw):
        return f"withdraw {name_text(action.player)}"
    if isinstance(action, Leave):
        return f"leave {name_text(action.player)}"
    if isinstance(action, Call):
        return str(action)
    if isinstance(action, Roll):
        return f"throw {action}"
    if isinstance(action, OfferBet):
        odds = "" if action.odds == 1 else f" at {fraction_text(action.odds)}"
        return f"offer {name_text(action.backer)} {amount(action.amount)} on {action.proposition}{odds}"
    if isinstance(action, TakeBet):
        return f"take {action.bet} {name_text(action.layer)}"
    if isinstance(action, CancelBet):
        return f"cancel {action.bet}"
    return "pass"


_USAGE = {
    "sit": "sit NAME BANKROLL, e.g. sit Dan 100",
    "stake": "stake [NAME] AMOUNT [consent], e.g. stake 5 or stake Bob 5",
    "withdraw": "withdraw [NAME]",
    "leave": "leave [NAME], e.g. leave, or leave Bob for the referee",
    "call": "call MAIN, e.g. call 7",
    "throw": "throw [ROLL], e.g. throw, or throw 3-4 for real dice",
    "offer": "offer [NAME] AMOUNT on BET [at ODDS], e.g. offer 2 on 4 or 10 before 7",
    "take": "take N [NAME], e.g. take 1",
    "cancel": "cancel N, e.g. cancel 1",
    "pass": "pass",
    "seed": "seed TEXT, your own seed for the fair dice's next hand, e.g. seed lucky-ann",
}
_NAMED = {
    "stake": "stake NAME AMOUNT [consent], e.g. stake Bob 5",
    "withdraw": "withdraw NAME, e.g. withdraw Bob",
    "leave": "leave NAME, e.g. leave Bob",
    "offer": "offer NAME AMOUNT on BET [at ODDS], e.g. offer Cat 2 on 4 or 10 before 7",
    "take": "take N NAME, e.g. take 1 Bob",
    "seed": "seed NAME TEXT, e.g. seed Ann lucky-ann",
}
VERBS: tuple[str, ...] = tuple(_USAGE)
"""The verbs of the text form, in the order help lists them."""

_THROW_WORDS = frozenset({"throw", "t", "roll"})
_ROLL_LIKE = re.compile(r"^[0-9]{2}$|^[0-9]\s*[-,+/x ]\s*[0-9]$")
_MAIN = re.compile(r"^[0-9]{1,2}$")
_BET_NUMBER = re.compile(r"^#?([0-9]{1,9})$")
_NAME_TOKEN = re.compile(r'^\s*("([^"]*)"|(\S+))\s*(.*)$', re.DOTALL)
_ON = re.compile(r"\s+on\s+", re.IGNORECASE)
_AT_ODDS = re.compile(r"\s+at\s+(?P<odds>\S[^\n]*?)\s*$", re.IGNORECASE)
_ODDS = re.compile(
    r"(?P<a>[0-9]{1,12}(?:\.[0-9]{1,6})?)(?:\s*(?:/|:|to)\s*(?P<b>[0-9]{1,12}))?", re.IGNORECASE
)
_AS_BOT = re.compile(r"\s+as\s+(?:an?\s+)?(?P<policy>\S+)(?:\s+bot)?\s*$", re.IGNORECASE)
_MAX_TEXT = 400


def _usage(verb: str, text: str) -> InvalidError:
    return InvalidError(f"invalid command {text!r}: expected {_USAGE[verb]}")


class _Reader:
    """One command being read: its verb, the rest, the actor and the names seated."""

    def __init__(self, text: str, by: Actor, players: Sequence[str]) -> None:
        self.text = " ".join(text.split())
        verb, _, rest = self.text.partition(" ")
        self.verb = verb.lower()
        self.rest = rest
        self.by = by
        self.players = players

    def fail(self) -> InvalidError:
        if self.by.is_referee and self.verb in _NAMED:
            return InvalidError(f"invalid command {self.text!r}: expected {_NAMED[self.verb]}")
        return _usage(self.verb if self.verb in _USAGE else "throw", self.text)

    def who(self, name: str) -> str:
        """The seated player ``name`` means, in any case; else the name as typed (the table then says)."""
        matches = [p for p in self.players if p.lower() == name.lower()]
        return matches[0] if len(matches) == 1 else name

    def me(self) -> str:
        """The actor's own name, for a command that leaves it out; the referee must always name the player."""
        if self.by.name is None:
            named = _NAMED[self.verb]
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


def _number(text: str, what: str, pattern: re.Pattern[str] = _BET_NUMBER) -> int:
    match = pattern.match(text)
    if match is None:
        raise InvalidError(f"invalid {what} {text[:60]!r}: expected a whole number")
    return int(match.group(1) if match.groups() else match.group(0))


def parse_odds(text: str | None) -> Fraction:
    """Odds as people write them: ``2/1``, ``5:2``, ``3 to 1``, ``1.5`` or ``evens`` (None: even money).

    >>> parse_odds("5:2"), parse_odds("evens")
    (Fraction(5, 2), Fraction(1, 1))
    """
    if text is None or text.lower() in ("evens", "even money", "even"):
        return Fraction(1)
    match = _ODDS.fullmatch(text)
    if match is None or (match["b"] is not None and int(match["b"]) == 0):
        raise InvalidError(
            f"invalid odds {text[:40]!r}: expected odds above 0 such as 2/1, 5:2, 3 to 1 or evens"
        )
    odds = Fraction(match["a"]) / (1 if match["b"] is None else int(match["b"]))
    return check_odds(odds, text=text)


def parse_action(text: str, *, by: Actor, players: Sequence[str] = ()) -> TableAction | ThrowDice | SetSeed:
    """Read a command typed by ``by``; ``players`` are the names seated, matched in any case.

    ``throw`` alone asks for the game's own dice (:class:`ThrowDice`); a roll such as ``3-4`` or ``34`` is the
    throw of real dice; a single digit is a call. Whether the action is allowed now is the table's to say:
    this refuses only what is no action at all, with an :class:`InvalidError` naming the text.

    >>> parse_action("take #3", by=Actor.player("Cat")), parse_action("3 4", by=REFEREE)
    (TakeBet(bet=3, layer='Cat'), Roll(a=3, b=4))
    """
    if len(text) > _MAX_TEXT:
        raise InvalidError(
            f"invalid command {text[:40]!r} (and {len(text) - 40} more characters): "
            f"expected at most {_MAX_TEXT} characters"
        )
    read = _Reader(text, by, players)
    verb, rest = read.verb, read.rest
    if not verb:
        return ThrowDice()
    if verb in _THROW_WORDS:
        return ThrowDice() if not rest else Roll.parse(rest)
    if not rest and _MAIN.match(verb) and len(verb) == 1:
        return Call(int(verb))
    if _ROLL_LIKE.match(read.text):
        return Roll.parse(read.text)
    if verb == "call":
        if not _MAIN.match(rest):
            raise read.fail()
        return Call(int(rest))
    if verb == "seed":
        if not rest:
            raise read.fail()
        if by.is_referee:
            name, seed = read.name_then(rest)
            if not seed:
                raise read.fail()
            return SetSeed(name, seed)
        return SetSeed(read.me(), rest)
    if verb == "pass":
        if rest:
            raise read.fail()
        return PassDice()
    if verb == "withdraw":
        return Withdraw(read.only_name(rest) if rest else read.me())
    if verb == "leave":
        return Leave(read.only_name(rest) if rest else read.me())
    if verb == "stake":
        consent = rest.lower().endswith(" consent") or rest.lower() == "consent"
        if consent:
            rest = rest[: -len("consent")].rstrip()
        player, amount = read.whose_sum(rest, "stake")
        return Stake(player, amount, consent)
    if verb == "sit":
        return _sit(read)
    if verb == "offer":
        return _offer(read)
    if verb in ("take", "cancel"):
        words = rest.split(maxsplit=1)
        if not words:
            raise read.fail()
        number = _number(words[0], "side bet number")
        if verb == "cancel":
            if len(words) > 1:
                raise read.fail()
            return CancelBet(number)
        return TakeBet(number, read.only_name(words[1]) if len(words) > 1 else read.me())
    raise InvalidError(f"unknown command {read.text[:60]!r}: expected one of {', '.join(VERBS)}, or a roll")


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


def is_verb(word: str) -> bool:
    """Whether ``word`` begins a command of the text form (a verb, a roll or a main).

    >>> is_verb("Stake"), is_verb("3-4"), is_verb("dance")
    (True, True, False)
    """
    word = word.lower()
    return word in _USAGE or word in _THROW_WORDS or not word or word[0].isdigit()


def _sit(read: _Reader) -> Sit:
    rest, bot = read.rest, None
    match = _AS_BOT.search(rest)
    if match is not None:
        try:
            bot = BotPolicy(match["policy"].lower())
        except ValueError:
            policies = " or ".join(policy.value for policy in BotPolicy)
            raise InvalidError(
                f"invalid bot {match['policy']!r} in {read.text!r}: expected {policies}"
            ) from None
        rest = rest[: match.start()]
    name, money = read.name_then(rest)
    if not money:
        raise read.fail()
    return Sit(name, parse_money(money, what=f"bankroll for {name}", allow_zero=True), bot)


def _offer(read: _Reader) -> OfferBet:
    parts = _ON.split(read.rest, maxsplit=1)
    if len(parts) != 2:
        raise read.fail()
    head, bet = parts
    odds = None
    match = _AT_ODDS.search(bet)
    if match is not None:
        odds, bet = match["odds"], bet[: match.start()]
    if not bet.strip():
        raise read.fail()
    backer, amount = read.whose_sum(head, "side bet amount")
    return OfferBet(backer, bet.strip(), amount, parse_odds(odds))


# --- the JSON form ----------------------------------------------------------------------------------------


def actor_to_json(actor: Actor) -> dict[str, Any]:
    """The JSON object the game record stores for ``actor``."""
    if actor.name is None:
        return {"kind": actor.kind.value}
    return {"kind": actor.kind.value, "name": actor.name}


def actor_from_json(data: object) -> Actor:
    """Read a stored actor back; an :class:`InvalidError` for anything else."""
    if data == {"kind": ActorKind.REFEREE.value}:
        return REFEREE
    if data == {"kind": ActorKind.DICE.value}:
        return DICE
    if (
        isinstance(data, dict)
        and set(data) == {"kind", "name"}
        and data["kind"] == ActorKind.PLAYER.value
        and isinstance(data["name"], str)
        and data["name"]
    ):
        return Actor.player(data["name"])
    raise InvalidError(
        f"invalid actor {str(data)[:80]!r}: expected a player with a name, the referee or the dice"
    )


def action_to_json(action: TableAction) -> dict[str, Any]:
    """The JSON object the game record stores for ``action``."""
    if isinstance(action, Sit):
        bot = None if action.bot is None else action.bot.value
        return {"type": "sit", "name": action.name, "bankroll": fraction_text(action.bankroll), "bot": bot}
    if isinstance(action, Stake):
        return {
            "type": "stake",
            "player": action.player,
            "amount": fraction_text(action.amount),
            "consent": action.consent,
        }
    if isinstance(action, Withdraw):
        return {"type": "withdraw", "player": action.player}
    if isinstance(action, Leave):
        return {"type": "leave", "player": action.player}
    if isinstance(action, Call):
        return {"type": "call", "main": action.main}
    if isinstance(action, Roll):
        return {"type": "throw", "roll": str(action)}
    if isinstance(action, OfferBet):
        return {
            "type": "offer-bet",
            "backer": action.backer,
            "proposition": action.proposition,
            "amount": fraction_text(action.amount),
            "odds": fraction_text(action.odds),
        }
    if isinstance(action, TakeBet):
        return {"type": "take-bet", "bet": action.bet, "layer": action.layer}
    if isinstance(action, CancelBet):
        return {"type": "cancel-bet", "bet": action.bet}
    return {"type": "pass-dice"}


class _Fields:
    """Reads one stored action's fields, refusing anything missing, extra or of the wrong type."""

    def __init__(self, data: Mapping[str, Any], kind: str, names: set[str]) -> None:
        extra = sorted(set(data) - names - {"type"})
        missing = sorted(names - set(data))
        if extra or missing:
            problem = f"unknown field {extra[0]!r}" if extra else f"missing field {missing[0]!r}"
            raise InvalidError(f"invalid {kind} action: {problem}")
        self.data = data
        self.kind = kind

    def text(self, name: str) -> str:
        value = self.data[name]
        if not isinstance(value, str) or not value:
            raise InvalidError(f"invalid {self.kind} action: {name} = {value!r}, expected text")
        return value

    def number(self, name: str) -> int:
        value = self.data[name]
        if not isinstance(value, int) or isinstance(value, bool):
            raise InvalidError(f"invalid {self.kind} action: {name} = {value!r}, expected a whole number")
        return value

    def flag(self, name: str) -> bool:
        value = self.data[name]
        if not isinstance(value, bool):
            raise InvalidError(f"invalid {self.kind} action: {name} = {value!r}, expected true or false")
        return value

    def money(self, name: str) -> Fraction:
        value = self.text(name)
        if not re.fullmatch(r"-?[0-9]{1,40}/[0-9]{1,40}", value):
            raise InvalidError(
                f"invalid {self.kind} action: {name} = {value[:60]!r}, expected a fraction a/b"
            )
        try:
            amount = Fraction(value)
        except ZeroDivisionError:
            raise InvalidError(
                f"invalid {self.kind} action: {name} = {value!r}, expected a fraction a/b"
            ) from None
        if amount < 0:
            raise InvalidError(f"invalid {self.kind} action: {name} = {value!r}, expected 0 or more")
        return amount


def action_from_json(data: object) -> TableAction:
    """Read one stored action back; an :class:`InvalidError` for anything that is not exactly one."""
    if not isinstance(data, dict) or not isinstance(data.get("type"), str):
        raise InvalidError(f"invalid action {str(data)[:80]!r}: expected a JSON object with a 'type'")
    kind = data["type"]
    if kind == "sit":
        f = _Fields(data, kind, {"name", "bankroll", "bot"})
        bot = data["bot"]
        try:
            policy = None if bot is None else BotPolicy(bot)
        except ValueError:
            raise InvalidError(f"invalid sit action: bot = {bot!r}, expected a bot policy or null") from None
        return Sit(f.text("name"), f.money("bankroll"), policy)
    if kind == "stake":
        f = _Fields(data, kind, {"player", "amount", "consent"})
        return Stake(f.text("player"), f.money("amount"), f.flag("consent"))
    if kind == "withdraw":
        return Withdraw(_Fields(data, kind, {"player"}).text("player"))
    if kind == "leave":
        return Leave(_Fields(data, kind, {"player"}).text("player"))
    if kind == "call":
        return Call(_Fields(data, kind, {"main"}).number("main"))
    if kind == "throw":
        return Roll.parse(_Fields(data, kind, {"roll"}).text("roll"))
    if kind == "offer-bet":
        f = _Fields(data, kind, {"backer", "proposition", "amount", "odds"})
        return OfferBet(f.text("backer"), f.text("proposition"), f.money("amount"), f.money("odds"))
    if kind == "take-bet":
        f = _Fields(data, kind, {"bet", "layer"})
        return TakeBet(f.number("bet"), f.text("layer"))
    if kind == "cancel-bet":
        return CancelBet(_Fields(data, kind, {"bet"}).number("bet"))
    if kind == "pass-dice":
        _Fields(data, kind, set())
        return PassDice()
    raise InvalidError(
        f"invalid action type {kind[:40]!r}: expected sit, stake, withdraw, call, throw, offer-bet, "
        "take-bet, cancel-bet or pass-dice"
    )
