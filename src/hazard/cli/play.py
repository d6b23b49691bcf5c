"""``hazard play`` and ``hazard referee``: a table in the terminal, on a game record that survives a crash.

``hazard play`` seats you with bots and throws the dice for you (secure, or seeded with ``--seed``);
``hazard referee`` records a game played with real dice, the referee typing in every stake, call and throw.
Both read one command a line. A bad line is answered with one ``error:`` line and the prompt again: nothing
already recorded is lost, and every action is committed to the record before the table moves on, so
``--resume`` carries on exactly where a game stopped, however it stopped.

This module parses and renders; the rules, the money, who may act and the bots' choices are
:mod:`hazard.table`'s.
"""

from __future__ import annotations

import contextlib
import enum
import shlex
import sys
from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import Annotated

import typer
from rich.console import RenderableType
from rich.text import Text

from hazard.cli.app import PaytableOption, app, console, one_line, refuse_with, whole_number
from hazard.cli.commands import Act, Fix, Meta, parse_line, play_help, referee_help
from hazard.cli.record import DbOption, MoneyOption, game_number
from hazard.cli.tableview import entries_view, info_text, round_line, rules_text, table_view
from hazard.core.errors import HazardError, IllegalError, InvalidError, quoted
from hazard.core.paytable import Paytable
from hazard.core.propositions import SOURCE_BETS
from hazard.core.rules import Ruleset, StakeArrangement
from hazard.core.rulesets import DEFAULT_RULESET, find_ruleset
from hazard.core.staking import Staking, StakingPlan
from hazard.table import (
    REFEREE,
    Access,
    Actor,
    AnyEvent,
    BotBrains,
    BotPolicy,
    Call,
    CasterChanged,
    ClientSeeded,
    Close,
    Committed,
    Correction,
    DiceKind,
    FairNote,
    GameKind,
    GameStore,
    LiveGame,
    MoneyStyle,
    Move,
    Need,
    Recorded,
    Revealed,
    RoundSettled,
    SeededDice,
    Session,
    Sit,
    StaleError,
    TableSpec,
    Thrown,
    best_main,
    check_name,
    entry_text,
    event_text,
    note_text,
    parse_money,
    table_paytable,
)

__all__ = ["parse_bots", "play", "referee"]

DEFAULT_NAME = "Ann"
DEFAULT_BANKROLL = "100"
DEFAULT_BOTS = "2"
BOT_NAMES = ("Bob", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jon")
"""Names for bots given by number (``--bots 3``), in seating order; one that is yours is skipped."""
MAX_BOTS = len(BOT_NAMES)
_SEEDS = "a whole number from 0 to 2**63 - 1"
"""The seeds seeded dice take (:class:`hazard.table.SeededDice`), as an error says it."""


class Screen:
    """Rich for what is shown, ``input()`` for the prompts.

    A line read from a pipe is echoed after its prompt, so that a transcript reads like the session.
    """

    def __init__(self) -> None:
        self.console = console()
        self.echo = not sys.stdin.isatty()
        if not self.echo:
            with contextlib.suppress(ImportError):  # not every platform has it
                import readline  # noqa: F401, PLC0415 - line editing at a real terminal only

    def say(self, text: str, style: str | None = None) -> None:
        self.console.print(Text(text, style=style or ""), soft_wrap=True)

    def show(self, renderable: RenderableType, *, soft_wrap: bool = False) -> None:
        self.console.print(renderable, soft_wrap=soft_wrap)

    def error(self, message: str) -> None:
        self.say("error: " + one_line(message), style="red")

    def ask(self, prompt: str) -> str | None:
        """A line from the keyboard, or None at the end of input."""
        self.console.file.flush()
        try:
            line = input(prompt)
        except EOFError:
            self.say("")
            return None
        if self.echo:
            self.say(line)
        return line


def _mains_text(ruleset: Ruleset) -> str:
    mains = [str(m) for m in ruleset.mains]
    return ", ".join(mains[:-1]) + " or " + mains[-1] if len(mains) > 1 else mains[0]


def _resume_hint(kind: GameKind, game: int, db: str | None) -> str:
    where = "" if db is None else f" --db {shlex.quote(db)}"
    return f"{kind.label} --resume {game}{where}"


class TableLoop:
    """What ``play`` and ``referee`` share: the prompt loop, the table, the events of each action."""

    prompt = "> "

    def help_text(self) -> str:
        """The help this prompt shows: generated from the action types registered now."""
        return ""

    def __init__(self, live: LiveGame, screen: Screen, db: str | None, money: MoneyStyle) -> None:
        self.live = live
        self.screen = screen
        self.db = db
        self.money = money
        live.session.money = _command_money(money)  # the sums in its refusals, as its commands show them
        self.changed = True
        self.shown: object = None
        self.seen = live.seq
        """The last entry the person at the prompt has been shown: what his next line is based on."""

    @property
    def session(self) -> Session:
        return self.live.session

    @property
    def by(self) -> Actor:  # pragma: no cover - each front end has its own
        raise NotImplementedError

    def run(self) -> None:
        try:
            self.live.open()  # the bots do what they want before the first prompt, then after each action
            while True:
                self.before_prompt()
                line = self.screen.ask(self.prompt)
                if line is None:
                    break
                try:
                    if not self.handle(line):
                        break
                except StaleError as error:  # another program wrote first: show the table as it now is
                    self.screen.error(str(error))
                    self.shown, self.changed = None, True
                except HazardError as error:
                    self.screen.error(str(error))
        except KeyboardInterrupt:
            self.screen.say("")
        if self.session.closed:
            self.screen.say(f"Game {self.session.game} is closed: its record is kept; nothing more is played")
            return
        hint = _resume_hint(self.session.info.kind, self.session.game, self.db)
        self.screen.say(f"Game {self.session.game} is saved: carry on with {hint}")

    def before_prompt(self) -> None:
        self.tell()
        if self.changed:
            self.show_state()
            self.changed = False

    def tell(self) -> None:
        """Show what the game's actor has written or read since the last prompt: each entry once, in order."""
        news = self.live.take_stream()
        if news is not None:
            self.recorded(news.entries)
            if news.whole:  # more than the stream keeps: the table as it now is
                self.shown, self.changed = None, True
        self.seen = self.live.seq

    def show_state(self) -> None:
        """The whole table when money, stakes, bets or the caster changed; else the round's line alone."""
        table = self.session.table
        seen = (
            table.caster,
            table.players,
            table.wagers,
            tuple((b.number, b.layer) for b in table.side_bets),
        )
        if seen != self.shown:
            self.show_table()
        else:
            self.screen.say(round_line(table), style="bold")
        self.shown = seen

    def handle(self, line: str) -> bool:
        command = parse_line(
            line,
            by=self.by,
            players=[p.name for p in self.session.table.players],
            referee=self.by.is_referee,
        )
        if command is None:
            return True
        if isinstance(command, Meta):
            return self.meta(command.word)
        if isinstance(command, Fix):
            self.correct(command)
            return True
        assert isinstance(command, Act)
        self.act(command)
        return True

    def act(self, command: Act) -> None:
        self.live.act(Move(command.action, self.by, based_on=self.seen))
        self.tell()

    def correct(self, fix: Fix) -> None:  # pragma: no cover - only the referee corrects
        raise NotImplementedError

    def you(self) -> str | None:
        return None

    def show_table(self) -> None:
        fair = self.session.fair
        hand = None if fair is None else fair.current
        self.screen.show(table_view(self.session.table, you=self.you(), money=self.money, hand=hand))

    def recorded(self, done: Sequence[Recorded]) -> None:
        for recorded in done:
            if isinstance(recorded.entry.item, FairNote):
                self.note_line(recorded.entry.item)
                continue
            self.entry_line(recorded)
            self.events(recorded)

    def note_line(self, note: FairNote) -> None:
        """What the fair dice say: a hand's seed shown as it ends, the next one's commitment, a seed set."""
        if isinstance(note, Revealed):
            self.screen.say(f"  {note_text(note)}: check it with hazard verify {self.session.game}")
        elif isinstance(note, Committed | ClientSeeded):
            self.screen.say(f"  {note_text(note)}")

    def entry_line(self, recorded: Recorded) -> None:
        """What the front end says of an entry before its events."""

    def events(self, recorded: Recorded) -> None:
        for event in recorded.events:
            self.event_line(event)
        if recorded.events:
            self.changed = True

    def event_line(self, event: AnyEvent) -> None:
        style = "bold" if isinstance(event, RoundSettled | CasterChanged) else None
        self.screen.say(f"  {event_text(event, self.money)}", style=style)

    def meta(self, word: str) -> bool:
        if word == "quit":
            return False
        if word == "close":  # by the terminal's owner, who is the game's referee
            self.live.act(Move(Close(), REFEREE))
            self.tell()
            return False
        if word == "help":
            self.screen.say(self.help_text())
        elif word == "bets":
            self.screen.say("Even-money side bets from 002_e25665f301869517.txt: " + "; ".join(SOURCE_BETS))
        elif word == "log":
            self.screen.show(entries_view(self.session.replayed(), self.money), soft_wrap=True)
        else:
            self.show_table()
        return True


class PlayLoop(TableLoop):
    """``hazard play``: you, bots, and dice the game throws."""

    def help_text(self) -> str:
        return play_help()

    def __init__(self, live: LiveGame, screen: Screen, db: str | None, money: MoneyStyle, you: str) -> None:
        super().__init__(live, screen, db, money)
        self.player = you
        self.prompt = f"{you}> "
        self.hinted = ""

    @property
    def by(self) -> Actor:
        return Actor.player(self.player)

    def you(self) -> str:
        return self.player

    def before_prompt(self) -> None:
        # The bots act after each action (a bot caster calls only when told to throw, so you may stake first).
        self.tell()
        if self.changed:
            self.show_state()
            hint = self.hint()
            if hint != self.hinted:
                self.screen.say(hint, style="italic")
                self.hinted = hint
            self.changed = False

    def hint(self) -> str:
        table = self.session.table
        turn = table.turn
        caster = turn.caster
        if caster == self.player:
            if turn.need is Need.CALL:
                bank = table.stakes is StakeArrangement.BANK
                stake = "stake against the bank (e.g. stake 5), " if bank else ""
                mains = _mains_text(table.ruleset)
                return f"You hold the dice: {stake}call a main ({mains}), e.g. call 7. help: commands"
            return "You hold the dice: press Enter to throw. help: commands"
        if not table.round_begun:
            return (
                f"{caster} holds the dice: stake against {caster} (e.g. stake 5), offer or take a side bet, "
                f"or press Enter to let {caster} throw. help: commands"
            )
        return f"Press Enter to let {caster} throw. help: commands"

    def entry_line(self, recorded: Recorded) -> None:
        action = recorded.entry.item
        if isinstance(action, Call) and not recorded.entry.actor.is_referee:
            choice = best_main(self.session.info.ruleset, self.session.info.paytable)
            if choice is not None and recorded.entry.actor.name != self.player:
                self.screen.say(f"{recorded.entry.actor} calls {action.main}, {choice.reason()}")

    def event_line(self, event: AnyEvent) -> None:
        # What the dice showed heads the events of a throw, on a line of its own.
        if isinstance(event, Thrown):
            self.screen.say(event_text(event, self.money))
        else:
            super().event_line(event)


class RefereeLoop(TableLoop):
    """``hazard referee``: people at a table with real dice; the referee types in what happens."""

    prompt = "referee> "

    def help_text(self) -> str:
        return referee_help()

    @property
    def by(self) -> Actor:
        return REFEREE

    def entry_line(self, recorded: Recorded) -> None:
        entry = recorded.entry
        self.screen.say(f"[{entry.seq}] {entry_text(entry, _command_money(self.money))}")

    def correct(self, fix: Fix) -> None:
        answer = self.live.act(Move(fix, REFEREE, based_on=self.seen))
        self.live.take_stream()  # the correction alone, said here with what it corrected
        self.seen = self.live.seq
        correction = self.session.entries[answer.seq - 1]
        assert isinstance(correction.item, Correction)
        before = self.session.entries[correction.item.target - 1]
        money = _command_money(self.money)
        self.screen.say(
            f"[{correction.seq}] {entry_text(correction, money)} (was '{entry_text(before, money)}')"
        )
        self.changed = True


def _command_money(money: MoneyStyle) -> MoneyStyle:
    """Commands echo sums in the chosen style where it is exact (lsd, exact); decimal echoes exactly."""
    return MoneyStyle.EXACT if money is MoneyStyle.DECIMAL else money


# --- setting up -------------------------------------------------------------------------------------------


def parse_bots(spec: str, you: str, bankroll: Fraction) -> list[Sit]:
    """The bots of ``--bots``: a number, or ``NAME[:POLICY[:BANKROLL]]`` separated by commas.

    A name must have a letter in it: ``-1``, ``2.5`` or ``٣`` is a number mistyped, not a bot called so.

    >>> [(s.name, s.bot.value) for s in parse_bots("2", "Ann", Fraction(100))]
    [('Bob', 'setter'), ('Cat', 'bystander')]
    >>> [(s.name, s.bot.value, s.bankroll) for s in parse_bots("Zed:bystander:50", "Ann", Fraction(100))]
    [('Zed', 'bystander', Fraction(50, 1))]
    """
    text = spec.strip()
    policies = list(BotPolicy)
    names = [name for name in BOT_NAMES if name.lower() != you.lower()]
    expected = (
        f"expected a number of bots from 0 to {len(names)}, or NAME[:POLICY[:BANKROLL]] separated by commas, "
        "with a letter in each NAME, e.g. Bob:setter,Cat:bystander"
    )
    if text.isascii() and text.isdigit():
        count = _bots_by_number(text, spec, len(names), expected)
        return [Sit(name, bankroll, policies[i % len(policies)]) for i, name in enumerate(names[:count])]
    sits = []
    for part in text.split(","):
        terms = [term.strip() for term in part.split(":")]
        if len(terms) > 3 or not any(char.isalpha() for char in terms[0]):
            raise InvalidError(f"invalid --bots {quoted(spec)}: {expected}")
        try:
            policy = BotPolicy(terms[1].lower()) if len(terms) > 1 and terms[1] else BotPolicy.SETTER
        except ValueError:
            policies_text = " or ".join(p.value for p in BotPolicy)
            raise InvalidError(
                f"invalid bot policy {quoted(terms[1])} in --bots {quoted(spec)}: expected {policies_text}"
            ) from None
        money = parse_money(terms[2], what="bankroll", allow_zero=True) if len(terms) > 2 else bankroll
        sits.append(Sit(check_name(terms[0]), money, policy))
    return sits


def _bots_by_number(text: str, spec: str, most: int, expected: str) -> int:
    """``--bots N``: from 0 to the bots there are names for; the digits are counted before ``int()``."""
    digits = text.lstrip("0") or "0"
    if len(digits) > 1 or int(digits) > most:
        raise InvalidError(f"invalid --bots {quoted(spec)}: {expected}")
    return int(digits)


def _parse_player(spec: str) -> Sit:
    name, colon, money = spec.rpartition(":")
    if not colon or not name.strip():
        raise InvalidError(f"invalid --player {quoted(spec)}: expected NAME:BANKROLL, e.g. Ann:100")
    name = check_name(name)
    return Sit(name, parse_money(money, what=f"bankroll for {name}", allow_zero=True))


def _game_to_resume(game: str | None, resume: bool) -> int | None:
    number = None if game is None else game_number(game)
    if number is not None and not resume:
        raise InvalidError(f"invalid game {number}: a game number is given only with --resume")
    return number


def _refuse_setup_with_resume(given: Mapping[str, object]) -> None:
    refuse_with("--resume", given, "a resumed game keeps the setup in its record")


def _intro(screen: Screen, session: Session, money: MoneyStyle, *, resumed: bool) -> None:
    info = session.info
    verb = "Resuming" if resumed else "Starting"
    screen.say(f"{verb} {info_text(info, money)}", style="bold")
    screen.say(rules_text(info))
    if resumed:
        screen.say(f"{len(session.entries)} entries replayed from the record")


def _announce_main(screen: Screen, session: Session) -> None:
    choice = best_main(session.info.ruleset, session.info.paytable)
    if choice is not None:
        screen.say(f"Bots holding the dice call {choice.main}, {choice.reason()}")


StakesOption = Annotated[
    StakeArrangement | None,
    typer.Option("--stakes", help="The stake arrangement, if not the ruleset's own."),
]
RulesetChoice = Annotated[
    str | None,
    typer.Option(
        "--ruleset", "-r", help=f"A ruleset id or alias, or a .toml file (default {DEFAULT_RULESET})."
    ),
]
ResumeOption = Annotated[
    bool,
    typer.Option("--resume", help="Carry on a recorded game: the one numbered, else the latest."),
]
GameArgument = Annotated[
    str | None,
    typer.Argument(metavar="[GAME]", help="With --resume: the game to carry on (default: the latest)."),
]


@app.command()
def play(
    game: GameArgument = None,
    *,
    ruleset: RulesetChoice = None,
    paytable: PaytableOption = None,
    stakes: StakesOption = None,
    name: Annotated[str | None, typer.Option("--name", help=f"Your name (default {DEFAULT_NAME}).")] = None,
    bankroll: Annotated[
        str | None,
        typer.Option("--bankroll", help=f"Your bankroll, and each bot's (default {DEFAULT_BANKROLL})."),
    ] = None,
    bots: Annotated[
        str | None,
        typer.Option(
            "--bots",
            help="How many bots (default 2: a setter and a bystander), or NAME[:POLICY[:BANKROLL]],... "
            f"with POLICY {' or '.join(p.value for p in BotPolicy)}, e.g. Bob:setter,Cat:bystander.",
        ),
    ] = None,
    unit: Annotated[
        str | None, typer.Option("--unit", help="What a setter bot stakes, a bystander bets (default 1).")
    ] = None,
    bot_staking: Annotated[
        Staking | None,
        typer.Option(
            "--bot-staking",
            help="How a setter bot sets its stake from the unit: flat (the default), martingale (doubled "
            "after each stake it lost, at most 6 times) or paroli (doubled after each it won, 3 at most).",
        ),
    ] = None,
    dice: Annotated[
        PlayDice | None,
        typer.Option(
            "--dice",
            help="fair (the default): each hand's seed committed before it and shown after it, to check with "
            "hazard verify; secure: the system's generator; seeded: with --seed, the same game again.",
        ),
    ] = None,
    seed: Annotated[
        str | None,
        typer.Option("--seed", help="Seeded dice: the same seed and choices replay the same game."),
    ] = None,
    money: MoneyOption = MoneyStyle.DECIMAL,
    db: DbOption = None,
    resume: ResumeOption = False,
) -> None:
    """Play Hazard in the terminal against bots; the dice are provably fair, or seeded with --seed."""
    setup = {
        "--ruleset": ruleset,
        "--paytable": paytable,
        "--stakes": stakes,
        "--name": name,
        "--bankroll": bankroll,
        "--bots": bots,
        "--unit": unit,
        "--bot-staking": bot_staking,
        "--dice": dice,
        "--seed": seed,
    }
    number = _game_to_resume(game, resume)
    screen = Screen()
    if resume:
        _refuse_setup_with_resume(setup)
        store = GameStore.open(db, access=Access.WRITE)
        try:
            _resume_play(store, number, screen, db, money).run()
        finally:
            store.close()
        return
    # Everything is checked before the record is opened: a bad option leaves no trace in it.
    found, chosen = _rules(screen, ruleset, paytable)
    you = check_name(name if name is not None else DEFAULT_NAME)
    # An option given empty is refused by its parser, never taken for the default.
    stake = parse_money(DEFAULT_BANKROLL if bankroll is None else bankroll, what="bankroll")
    robots = parse_bots(DEFAULT_BOTS if bots is None else bots, you, stake)
    if not robots:
        refuse_with(
            "--bots 0",
            {"--unit": unit, "--bot-staking": bot_staking},
            "it is what the bots stake and bet, and there are none",
        )
    sits = [Sit(you, stake), *robots]
    brains = BotBrains(
        parse_money("1" if unit is None else unit, what="bot stake unit"),
        StakingPlan(bot_staking or Staking.FLAT),
    )
    seed_number = None if seed is None else whole_number(seed, what="--seed", expected=_SEEDS)
    if seed_number is not None:
        SeededDice(seed_number)  # the table's own refusal of a seed its dice cannot take
    spec = TableSpec(
        found, chosen, stakes, _dice_kind(dice, seed_number), seed_number, GameKind.PLAY, bots=brains
    )
    spec.check_seats(sits)
    store = GameStore.open(db, access=Access.CREATE)
    try:
        session = Session.start(store, spec, settings=brains.settings(), seats=sits)
        _intro(screen, session, money, resumed=False)
        loop = PlayLoop(LiveGame(session), screen, db, money, you)
        loop.tell()  # the players seated with it
        _announce_main(screen, session)
        loop.run()
    finally:
        store.close()


class PlayDice(enum.Enum):
    """The dice ``hazard play`` may throw."""

    FAIR = "fair"
    SECURE = "secure"
    SEEDED = "seeded"


def _rules(screen: Screen, ruleset: str | None, paytable: str | None) -> tuple[Ruleset, Paytable]:
    """The ruleset and paytable of a new table of ``hazard play`` or ``hazard referee`` (the terminal's
    names: built-in ids or files' paths), saying so where its stakes settle at even money."""
    found = find_ruleset(ruleset or DEFAULT_RULESET, paths=True)
    chosen, even = table_paytable(found, paytable, paths=True)
    if even:
        screen.say(
            f"{found.id} has no paytable of its own: stakes settle at even money (choose one with --paytable)"
        )
    return found, chosen


def _dice_kind(dice: PlayDice | None, seed: int | None) -> DiceKind:
    """The dice of ``--dice`` and ``--seed``: seeded with a seed, fair by default."""
    if dice is None:
        return DiceKind.FAIR if seed is None else DiceKind.SEEDED
    if (dice is PlayDice.SEEDED) != (seed is not None):
        if seed is None:
            raise InvalidError("invalid option --dice seeded without --seed: seeded dice need a seed")
        raise InvalidError(f"invalid option --seed with --dice {dice.value}: only seeded dice take a seed")
    return DiceKind(dice.value)


def _open(session: Session) -> Session:
    """A resumed game, unless it is closed (:mod:`hazard.table.rules.closing`), which nothing carries on."""
    if session.closed:
        raise IllegalError(
            f"illegal resume of game {session.game}: it is closed, and nothing more may be done; its record "
            f"is kept (hazard record show {session.game})"
        )
    return session


def _resume_play(
    store: GameStore, game: int | None, screen: Screen, db: str | None, money: MoneyStyle
) -> PlayLoop:
    session = _open(Session.resume(store, game, kind=GameKind.PLAY))
    people = session.people
    if len(people) != 1:
        raise InvalidError(
            f"invalid resume of game {session.game} with hazard play: it needs exactly one person "
            f"at the table, and it has {len(people)}"
        )
    session.brains = BotBrains.from_settings(session.info.settings)
    _intro(screen, session, money, resumed=True)
    _announce_main(screen, session)
    return PlayLoop(LiveGame.resume(session), screen, db, money, people[0])


@app.command()
def referee(
    game: GameArgument = None,
    *,
    player: Annotated[
        list[str] | None,
        typer.Option("--player", help="A player and bankroll, NAME:BANKROLL, e.g. Ann:100; repeat for each."),
    ] = None,
    ruleset: RulesetChoice = None,
    paytable: PaytableOption = None,
    stakes: StakesOption = None,
    money: MoneyOption = MoneyStyle.DECIMAL,
    db: DbOption = None,
    resume: ResumeOption = False,
) -> None:
    """Referee a game played with real dice: type in the stakes, calls and throws; correct any mistake."""
    number = _game_to_resume(game, resume)
    screen = Screen()
    if resume:
        _refuse_setup_with_resume(
            {"--player": player, "--ruleset": ruleset, "--paytable": paytable, "--stakes": stakes}
        )
        store = GameStore.open(db, access=Access.WRITE)
        try:
            session = _open(Session.resume(store, number, kind=GameKind.REFEREE))
            _intro(screen, session, money, resumed=True)
            screen.say(_REFEREE_START, style="italic")
            RefereeLoop(LiveGame.resume(session), screen, db, money).run()
        finally:
            store.close()
        return
    if not player:
        raise InvalidError("invalid table: name the players, e.g. --player Ann:100 --player Bob:100")
    sits = [_parse_player(spec) for spec in player]
    found, chosen = _rules(screen, ruleset, paytable)
    spec = TableSpec(found, chosen, stakes, DiceKind.TYPED, kind=GameKind.REFEREE)
    spec.check_seats(sits)
    store = GameStore.open(db, access=Access.CREATE)
    try:
        session = Session.start(store, spec, seats=sits, seated_by=REFEREE)
        _intro(screen, session, money, resumed=False)
        loop = RefereeLoop(LiveGame(session), screen, db, money)
        loop.tell()  # the players seated with it
        screen.say(_REFEREE_START, style="italic")
        loop.run()
    finally:
        store.close()


_REFEREE_START = "Type the dice as they fell (3-4 or 3 4); help lists every command."
