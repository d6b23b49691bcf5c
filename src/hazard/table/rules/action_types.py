"""Everything that can happen at a table, as value types that each carry their verb, usage, text and JSON.

An action is an input: a player sits down, a stake is laid, the caster calls, the dice show a throw, a side
bet is offered or taken, the dice are handed on. The caster's call and the throw are the rules engine's own
actions (:class:`~hazard.core.engine.Call` and :class:`~hazard.core.dice.Roll`); the rest belong to the table.
Every action is taken by an :class:`~hazard.table.rules.actors.Actor`, and the table decides whether that
actor may take it (:func:`hazard.table.rules.transitions.apply_action`, through one handler per type).

Each table action type is one :class:`ActionType`: as python-chess's ``Move`` carries ``uci()`` and
``from_uci()``, it carries its verb, its usage and help, its text form (:meth:`ActionType.text`), its parser
(:meth:`ActionType.parse`) and its JSON form. The printed form names every player (``stake Bob 5``); a player
typing for himself may leave his own name out (``stake 5``), and the parser fills it in from the actor.

>>> from hazard.table.rules.actors import REFEREE, Actor
>>> parse_action("stake 5", by=Actor.player("Ann"))
Stake(player='Ann', amount=Fraction(5, 1), consent=False)
>>> action_text(parse_action("offer Bob 2 on 4 or 10 before 7 at 2 to 1", by=REFEREE))
'offer Bob 2 on 4 or 10 before 7 at 2/1'
>>> action_from_json(action_to_json(Roll(3, 4)))
Roll(a=3, b=4)
"""

from __future__ import annotations

import typing
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING, Any, ClassVar, Self, cast

from hazard.core.dice import Roll
from hazard.core.engine import Call, Mover, to_move
from hazard.core.errors import InvalidError
from hazard.core.numbers import fraction_text
from hazard.table.rules.actors import Actor, BotPolicy
from hazard.table.rules.money import parse_money
from hazard.table.rules.reader import (
    AS_BOT,
    AT_ODDS,
    MAIN,
    MAX_TEXT,
    ON,
    ROLL_LIKE,
    THROW_WORDS,
    Reader,
    bet_number,
    name_text,
    parse_odds,
)
from hazard.table.rules.registry import (
    ActionForm,
    Amount,
    Fields,
    HelpLine,
    action_from_json,
    action_text,
    action_to_json,
    field_names,
    fields_json,
    form_for_verb,
    register_form,
    verbs,
)

if TYPE_CHECKING:
    from hazard.table.rules.state import Table

__all__ = [
    "ActionType",
    "CancelBet",
    "Leave",
    "OfferBet",
    "PassDice",
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
    "is_verb",
    "parse_action",
]


class ActionType:
    """The base of a table's own action types: the class holds what its words are, its instances the
    action. A subclass is a frozen dataclass that sets :attr:`VERB` and :attr:`USAGE`, writes
    :meth:`text` and :meth:`parse`, and is registered with its handler
    (:func:`hazard.table.register_action`)."""

    __slots__ = ()

    VERB: ClassVar[str]
    """The word its command begins with."""
    USAGE: ClassVar[str]
    """Its command, with an example, as a refusal of a malformed one shows it."""
    NAMED_USAGE: ClassVar[str | None] = None
    """Its usage where the player must be named (the referee's), if that differs."""
    JSON_TYPE: ClassVar[str | None] = None
    """Its ``type`` in the record (its verb, unless set)."""
    RECORDED: ClassVar[bool] = True
    """Whether the record holds it (a request such as a seed is asked of the dice, not of the table)."""
    PLAY_HELP: ClassVar[tuple[HelpLine, ...]] = ()
    REFEREE_HELP: ClassVar[tuple[HelpLine, ...]] = ()
    RULE: ClassVar[str] = "a player acts only for himself (this is {owner}'s)"
    """Why another player may not take it; ``{owner}`` is the player whose action it is."""
    BRINGS_MONEY: ClassVar[bool] = False
    """Whether it brings money or a bet to the table."""

    def text(self, amount: Amount) -> str:
        """The action as a command, its sums written by ``amount``."""
        raise NotImplementedError

    @classmethod
    def parse(cls, read: Reader) -> object:
        """The action a command of this verb writes (``read`` holds its words), or ``read.fail()``."""
        raise NotImplementedError

    def to_json(self) -> dict[str, Any]:
        """Its JSON fields besides ``type``: each dataclass field as it is (a sum as ``a/b``)."""
        return fields_json(self)

    @classmethod
    def from_json(cls, fields: Fields) -> Self:
        """The action its stored fields write: each field read as its declared type demands."""
        hints = typing.get_type_hints(cls)
        readers = {str: fields.text, int: fields.number, bool: fields.flag, Fraction: fields.money}
        values = {name: readers[hints[name]](name) for name in field_names(cls)}
        return cls(**values)

    def acting_for(self, table: Table) -> str | None:
        """Whose action this is at ``table``: its ``player``, where it has one; else the caster's."""
        player = getattr(self, "player", None)
        return player if isinstance(player, str) else table.caster

    @classmethod
    def offers(cls, table: Table, player: str) -> Iterable[Self]:
        """What of this type to offer the seated ``player`` at ``table`` now, each action whole (a front end
        sends its text form), offered where the table accepts it (``hazard.table.rules.choices``)."""
        return ()

    @classmethod
    def form(cls) -> ActionForm:
        """What the registry keeps of this type."""
        recorded = cls.RECORDED
        return ActionForm(
            type=cls,
            verb=cls.VERB,
            usage=cls.USAGE,
            parse=cls.parse,
            text=cls.text if recorded else None,
            json_type=(cls.JSON_TYPE or cls.VERB) if recorded else None,
            json_fields=field_names(cls),
            to_json=cls.to_json if recorded else None,
            from_json=cls.from_json if recorded else None,
            named_usage=cls.NAMED_USAGE,
            play_help=cls.PLAY_HELP,
            referee_help=cls.REFEREE_HELP,
            acting_for=cls.acting_for,
            rule=cls.RULE,
            brings_money=cls.BRINGS_MONEY,
            offers=cls.offers,
        )


def _help(command: str, meaning: str) -> tuple[HelpLine, ...]:
    return (HelpLine(command, meaning),)


@dataclass(frozen=True, slots=True)
class Sit(ActionType):
    """``name`` sits down at the caster's right (last in the order the dice travel) with ``bankroll``."""

    VERB = "sit"
    USAGE = "sit NAME BANKROLL, e.g. sit Dan 100"
    REFEREE_HELP = _help("sit NAME BANKROLL", "someone joins the table")
    BRINGS_MONEY = True

    name: str
    bankroll: Fraction
    bot: BotPolicy | None = None
    """The policy of the bot playing this seat, or None for a person."""

    def text(self, amount: Amount) -> str:
        bot = "" if self.bot is None else f" as a {self.bot.value} bot"
        return f"sit {name_text(self.name)} {amount(self.bankroll)}{bot}"

    @classmethod
    def parse(cls, read: Reader) -> Sit:
        rest, bot = read.rest, None
        match = AS_BOT.search(rest)
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

    @classmethod
    def from_json(cls, fields: Fields) -> Sit:
        bot = fields.data["bot"]
        try:
            policy = None if bot is None else BotPolicy(bot)
        except ValueError:
            raise InvalidError(f"invalid sit action: bot = {bot!r}, expected a bot policy or null") from None
        return Sit(fields.text("name"), fields.money("bankroll"), policy)

    def acting_for(self, table: Table) -> str | None:
        return " ".join(self.name.split())


@dataclass(frozen=True, slots=True)
class Stake(ActionType):
    """``player`` stakes ``amount`` against the caster (the caster's stake unit for the paytable)."""

    VERB = "stake"
    USAGE = "stake [NAME] AMOUNT [consent], e.g. stake 5 or stake Bob 5"
    NAMED_USAGE = "stake NAME AMOUNT [consent], e.g. stake Bob 5"
    PLAY_HELP = _help(
        "stake AMOUNT",
        "stake against the caster before the round begins, e.g. stake 5, stake 2.50,\n"
        "stake 5/3, stake £1 10s; holding the dice against a bank, name your stake",
    )
    REFEREE_HELP = _help(
        "stake NAME AMOUNT [consent]",
        "NAME stakes against the caster ('consent': the caster agreed, once the\n"
        "chance is set, where everyone bets against the caster)",
    )
    RULE = "a player stakes only for himself (this is {owner}'s)"
    BRINGS_MONEY = True

    player: str
    amount: Fraction
    consent: bool = False
    """The caster agreed to a bet laid once the chance is set (needed where every player bets)."""

    def text(self, amount: Amount) -> str:
        consent = " consent" if self.consent else ""
        return f"stake {name_text(self.player)} {amount(self.amount)}{consent}"

    @classmethod
    def parse(cls, read: Reader) -> Stake:
        rest = read.rest
        consent = rest.lower().endswith(" consent") or rest.lower() == "consent"
        if consent:
            rest = rest[: -len("consent")].rstrip()
        player, amount = read.whose_sum(rest, "stake")
        return Stake(player, amount, consent)


@dataclass(frozen=True, slots=True)
class Withdraw(ActionType):
    """``player`` takes back the stakes laid against the caster before the round has begun."""

    VERB = "withdraw"
    USAGE = "withdraw [NAME]"
    NAMED_USAGE = "withdraw NAME, e.g. withdraw Bob"
    PLAY_HELP = _help("withdraw", "take back your stakes before the round begins")
    REFEREE_HELP = _help("withdraw NAME", "NAME takes back their stakes before the round begins")
    RULE = "a player withdraws only his own stakes (this is {owner}'s)"

    player: str

    def text(self, amount: Amount) -> str:
        return f"withdraw {name_text(self.player)}"

    @classmethod
    def parse(cls, read: Reader) -> Withdraw:
        return Withdraw(read.only_name(read.rest) if read.rest else read.me())

    @classmethod
    def offers(cls, table: Table, player: str) -> tuple[Withdraw, ...]:
        return (Withdraw(player),)


@dataclass(frozen=True, slots=True)
class Leave(ActionType):
    """``player`` gets up from the table, taking his bankroll with him (his stakes and open offers withdrawn;
    the dice handed on if he holds them): not in a round he casts, nor while a stake of his is at risk."""

    VERB = "leave"
    USAGE = "leave [NAME], e.g. leave, or leave Bob for the referee"
    NAMED_USAGE = "leave NAME, e.g. leave Bob"
    REFEREE_HELP = _help("leave NAME", "NAME gets up from the table with his bankroll, between his rounds")
    RULE = (
        "a player gets only himself up from the table; the referee or host removes others (this is {owner}'s)"
    )

    player: str

    def text(self, amount: Amount) -> str:
        return f"leave {name_text(self.player)}"

    @classmethod
    def parse(cls, read: Reader) -> Leave:
        return Leave(read.only_name(read.rest) if read.rest else read.me())

    @classmethod
    def offers(cls, table: Table, player: str) -> tuple[Leave, ...]:
        return (Leave(player),)


@dataclass(frozen=True, slots=True)
class OfferBet(ActionType):
    """``backer`` offers to back ``proposition`` for ``amount`` at ``odds`` (1 is even money)."""

    VERB = "offer"
    JSON_TYPE = "offer-bet"
    USAGE = "offer [NAME] AMOUNT on BET [at ODDS], e.g. offer 2 on 4 or 10 before 7"
    NAMED_USAGE = "offer NAME AMOUNT on BET [at ODDS], e.g. offer Cat 2 on 4 or 10 before 7"
    PLAY_HELP = _help(
        "offer AMOUNT on BET [at ODDS]", "offer a side bet, e.g. offer 2 on 4 or 10 before 7, or ... at 2/1"
    )
    REFEREE_HELP = _help(
        "offer NAME AMOUNT on BET [at ODDS]", "a side bet, e.g. offer Cat 2 on 4 or 10 before 7"
    )
    RULE = "a player offers only his own side bets (this is {owner}'s)"
    BRINGS_MONEY = True

    backer: str
    proposition: str
    amount: Fraction
    odds: Fraction = Fraction(1)

    def text(self, amount: Amount) -> str:
        odds = "" if self.odds == 1 else f" at {fraction_text(self.odds)}"
        return f"offer {name_text(self.backer)} {amount(self.amount)} on {self.proposition}{odds}"

    @classmethod
    def parse(cls, read: Reader) -> OfferBet:
        parts = ON.split(read.rest, maxsplit=1)
        if len(parts) != 2:
            raise read.fail()
        head, bet = parts
        odds = None
        match = AT_ODDS.search(bet)
        if match is not None:
            odds, bet = match["odds"], bet[: match.start()]
        if not bet.strip():
            raise read.fail()
        backer, amount = read.whose_sum(head, "side bet amount")
        return OfferBet(backer, bet.strip(), amount, parse_odds(odds))

    def acting_for(self, table: Table) -> str | None:
        return self.backer


@dataclass(frozen=True, slots=True)
class TakeBet(ActionType):
    """``layer`` takes side bet number ``bet``, laying against it."""

    VERB = "take"
    JSON_TYPE = "take-bet"
    USAGE = "take N [NAME], e.g. take 1"
    NAMED_USAGE = "take N NAME, e.g. take 1 Bob"
    PLAY_HELP = _help("take N", "take side bet #N, laying against it")
    REFEREE_HELP = _help("take N NAME", "NAME takes side bet #N")
    RULE = "a player takes a side bet only for himself (this is {owner}'s)"
    BRINGS_MONEY = True

    bet: int
    layer: str

    def text(self, amount: Amount) -> str:
        return f"take {self.bet} {name_text(self.layer)}"

    @classmethod
    def parse(cls, read: Reader) -> TakeBet:
        words = read.rest.split(maxsplit=1)
        if not words:
            raise read.fail()
        number = bet_number(words[0])
        return TakeBet(number, read.only_name(words[1]) if len(words) > 1 else read.me())

    def acting_for(self, table: Table) -> str | None:
        return self.layer

    @classmethod
    def offers(cls, table: Table, player: str) -> Iterable[TakeBet]:
        return (TakeBet(b.number, player) for b in table.side_bets if b.layer is None and b.backer != player)


@dataclass(frozen=True, slots=True)
class CancelBet(ActionType):
    """The backer withdraws side bet number ``bet`` before anyone has taken it."""

    VERB = "cancel"
    JSON_TYPE = "cancel-bet"
    USAGE = "cancel N, e.g. cancel 1"
    PLAY_HELP = _help("cancel N", "withdraw your side bet #N before anyone takes it")
    REFEREE_HELP = _help("cancel N", "side bet #N is withdrawn before anyone takes it")
    RULE = "a player withdraws only his own side bets (this is {owner}'s)"

    bet: int

    def text(self, amount: Amount) -> str:
        return f"cancel {self.bet}"

    @classmethod
    def parse(cls, read: Reader) -> CancelBet:
        words = read.rest.split(maxsplit=1)
        if not words:
            raise read.fail()
        number = bet_number(words[0])
        if len(words) > 1:
            raise read.fail()
        return CancelBet(number)

    def acting_for(self, table: Table) -> str | None:
        return next((bet.backer for bet in table.side_bets if bet.number == self.bet), None)

    @classmethod
    def offers(cls, table: Table, player: str) -> Iterable[CancelBet]:
        return (CancelBet(b.number) for b in table.side_bets if b.layer is None and b.backer == player)


@dataclass(frozen=True, slots=True)
class PassDice(ActionType):
    """The caster hands the dice on between rounds, by choice."""

    VERB = "pass"
    JSON_TYPE = "pass-dice"
    USAGE = "pass"
    PLAY_HELP = _help("pass", "give up the dice between rounds")
    REFEREE_HELP = _help("pass", "the caster gives up the dice between rounds")
    RULE = "only the caster, {owner}, passes the dice"

    def text(self, amount: Amount) -> str:
        return "pass"

    @classmethod
    def parse(cls, read: Reader) -> PassDice:
        if read.rest:
            raise read.fail()
        return PassDice()

    @classmethod
    def offers(cls, table: Table, player: str) -> tuple[PassDice, ...]:
        return (PassDice(),) if table.caster == player else ()


@dataclass(frozen=True, slots=True)
class ThrowDice:
    """A request to throw the game's own dice: not an action until the dice say what they show."""


@dataclass(frozen=True, slots=True)
class SetSeed(ActionType):
    """``player`` sets his own seed for the fair dice's next hand (asked of the dice, not of the table)."""

    VERB = "seed"
    USAGE = "seed TEXT, your own seed for the fair dice's next hand, e.g. seed lucky-ann"
    NAMED_USAGE = "seed NAME TEXT, e.g. seed Ann lucky-ann"
    RECORDED = False
    PLAY_HELP = _help(
        "seed TEXT",
        "your own seed for the fair dice from the next hand on (before its first\n"
        "throw): the dice's seed is committed first, so nobody can fit it to yours",
    )

    player: str
    seed: str
    hand: int | None = None
    """The hand whose commitment the sender saw (a page's seed names it): refused for any other hand. None:
    whichever hand is committed now."""

    @classmethod
    def parse(cls, read: Reader) -> SetSeed:
        if not read.rest:
            raise read.fail()
        if read.by.is_referee:
            name, seed = read.name_then(read.rest)
            if not seed:
                raise read.fail()
            return SetSeed(name, seed)
        return SetSeed(read.me(), read.rest)


def _read_call(read: Reader) -> Call:
    if not MAIN.match(read.rest):
        raise read.fail()
    return Call(int(read.rest))


def _read_throw(read: Reader) -> Roll | ThrowDice:
    return ThrowDice() if not read.rest else Roll.parse(read.rest)


def _offer_calls(table: Table, player: str) -> tuple[Call, ...]:
    calls = table.caster == player and to_move(table.round) is Mover.CASTER
    return tuple(Call(main) for main in table.ruleset.mains) if calls else ()


# The engine's own actions are the core's types, which know nothing of the table: their forms are written
# here, beside the table's, in the order the verbs are listed.
register_form(Sit.form())
register_form(Stake.form())
register_form(Withdraw.form())
register_form(Leave.form())
register_form(
    ActionForm(
        type=Call,
        verb="call",
        usage="call MAIN, e.g. call 7",
        parse=_read_call,
        text=lambda action, _: str(action),
        json_type="call",
        json_fields=frozenset({"main"}),
        to_json=lambda action: {"main": action.main},
        from_json=lambda fields: Call(fields.number("main")),
        play_help=_help("call MAIN  (or just MAIN)", "call the main when you hold the dice, e.g. call 7"),
        referee_help=_help("call MAIN", "the caster calls the main, e.g. call 7"),
        rule="only the caster, {owner}, calls the main",
        offers=_offer_calls,
    )
)
register_form(
    ActionForm(
        type=Roll,
        verb="throw",
        usage="throw [ROLL], e.g. throw, or throw 3-4 for real dice",
        parse=_read_throw,
        text=lambda action, _: f"throw {action}",
        json_type="throw",
        json_fields=frozenset({"roll"}),
        to_json=lambda action: {"roll": str(action)},
        from_json=lambda fields: Roll.parse(fields.text("roll")),
        play_help=_help(
            "throw  (or Enter)", "throw the dice when you hold them, or let the bot holding them throw"
        ),
        referee_help=_help("3-4  or  3 4  or  throw 3-4", "the dice as they fell"),
        rule="only the caster, {owner}, throws the dice",
    )
)
register_form(OfferBet.form())
register_form(TakeBet.form())
register_form(CancelBet.form())
register_form(PassDice.form())
register_form(SetSeed.form())

TableAction = Sit | Stake | Withdraw | Leave | Call | Roll | OfferBet | TakeBet | CancelBet | PassDice
"""Any built-in action at a table (an action type registered later is one too, though no union names it)."""


def parse_action(text: str, *, by: Actor, players: Sequence[str] = ()) -> TableAction | ThrowDice | SetSeed:
    """Read a command typed by ``by``; ``players`` are the names seated, matched in any case.

    ``throw`` alone asks for the game's own dice (:class:`ThrowDice`); a roll such as ``3-4`` or ``34`` is the
    throw of real dice; a single digit is a call; any other command is read by the action type its verb
    names (:meth:`ActionType.parse`). Whether the action is allowed now is the table's to say: this refuses
    only what is no action at all, with an :class:`InvalidError` naming the text.

    >>> from hazard.table.rules.actors import REFEREE, Actor
    >>> parse_action("take #3", by=Actor.player("Cat")), parse_action("3 4", by=REFEREE)
    (TakeBet(bet=3, layer='Cat'), Roll(a=3, b=4))
    """
    if len(text) > MAX_TEXT:
        raise InvalidError(
            f"invalid command {text[:40]!r} (and {len(text) - 40} more characters): "
            f"expected at most {MAX_TEXT} characters"
        )
    read = Reader(text, by, players)
    verb, rest = read.verb, read.rest
    if not verb:
        return ThrowDice()
    if verb in THROW_WORDS:
        return _read_throw(read)
    if not rest and MAIN.match(verb) and len(verb) == 1:
        return Call(int(verb))
    if ROLL_LIKE.match(read.text):
        return Roll.parse(read.text)
    form = form_for_verb(verb)
    if form is None:
        raise InvalidError(
            f"unknown command {read.text[:60]!r}: expected one of {', '.join(verbs())}, or a roll"
        )
    return cast("TableAction | ThrowDice | SetSeed", form.parse(read))


def is_verb(word: str) -> bool:
    """Whether ``word`` begins a command of the text form (a verb, a roll or a main).

    >>> is_verb("Stake"), is_verb("3-4"), is_verb("dance")
    (True, True, False)
    """
    word = word.lower()
    return form_for_verb(word) is not None or word in THROW_WORDS or not word or word[0].isdigit()
