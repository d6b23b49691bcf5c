"""``hazard play`` and ``hazard referee``: a table in the terminal, on a game record that survives a crash.

``hazard play`` seats you with bots and throws the dice for you (secure, or seeded with ``--seed``);
``hazard referee`` records a game played with real dice, the referee typing in every stake, call and throw.
Both read one command a line. A bad line is answered with one ``error:`` line and the prompt again: nothing
already recorded is lost, and every action is committed to the record before the table moves on, so
``--resume`` carries on exactly where a game stopped, however it stopped.

This module parses and formats; the rules, the money and the bots' choices are :mod:`hazard.table`'s, the
best main for a bot caster is :mod:`hazard.analysis`'s.
"""

from __future__ import annotations

import contextlib
import shlex
import sys
from collections.abc import Mapping, Sequence
from dataclasses import replace
from fractions import Fraction
from typing import Annotated

import typer
from rich.console import RenderableType
from rich.text import Text

from hazard.analysis import MainOdds, analyse
from hazard.cli.app import PaytableOption, app, console
from hazard.cli.commands import PLAY_HELP, REFEREE_HELP, Act, Fix, Meta, ThrowDice, parse_play, parse_referee
from hazard.cli.record import DbOption, open_store
from hazard.cli.tableview import (
    BOT_UNIT,
    action_text,
    entries_view,
    entry_text,
    info_text,
    round_line,
    stakes_text,
    table_view,
)
from hazard.core.engine import Mover, to_move
from hazard.core.errors import HazardError, IllegalError, InvalidError
from hazard.core.numbers import fraction_text
from hazard.core.paytable import Paytable
from hazard.core.propositions import SOURCE_BETS
from hazard.core.rules import MainMethod, Ruleset, StakeArrangement
from hazard.core.rulesets import DEFAULT_RULESET, find_ruleset, paytable_for
from hazard.table.actions import (
    Call,
    CancelBet,
    PassDice,
    Sit,
    Stake,
    TableAction,
    Throw,
)
from hazard.table.bots import BOT_POLICIES, BotBrains
from hazard.table.dice import SeededDice
from hazard.table.money import format_money, parse_money
from hazard.table.record import Correction, GameStore, effective_actions, replay
from hazard.table.session import Session
from hazard.table.state import AnyEvent, CasterChanged, RoundSettled, apply_action, new_table

__all__ = ["best_main", "parse_bots", "play", "referee"]

DEFAULT_NAME = "Ann"
DEFAULT_BANKROLL = "100"
DEFAULT_BOTS = "2"
BOT_NAMES = ("Bob", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jon")
"""Names for bots given by number (``--bots 3``), in seating order; one that is yours is skipped."""

PLAY_LABEL = "hazard play"
REFEREE_LABEL = "hazard referee"

# --- the bots' main ----------------------------------------------------------------------------------------


def best_main(ruleset: Ruleset, paytable: Paytable) -> MainOdds | None:
    """The main a bot caster calls: the highest expected value under ``paytable``, then the highest P(win).

    None where the caster does not call the main.
    """
    if ruleset.method is not MainMethod.CALLED:
        return None
    report = analyse(ruleset, paytable)
    return max(report.mains, key=lambda odds: (odds.ev if odds.ev is not None else 0, odds.p_win))


def _best_main_text(odds: MainOdds, paytable: Paytable) -> str:
    ev = odds.ev if odds.ev is not None else Fraction(0)
    sign = "+" if ev >= 0 else "-"
    return (
        f"the best main by exact analysis (expected value {sign}{abs(ev)} = {float(ev):+.4f} a unit staked "
        f"under paytable {paytable.id}; P(win) {float(odds.p_win):.4f})"
    )


# --- the terminal ------------------------------------------------------------------------------------------


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

    def show(self, renderable: RenderableType) -> None:
        self.console.print(renderable)

    def error(self, message: str) -> None:
        self.say("error: " + " ".join(message.split()), style="red")

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


def _resume_hint(command: str, game: int, db: str | None) -> str:
    where = "" if db is None else f" --db {shlex.quote(db)}"
    return f"{command} --resume {game}{where}"


class TableLoop:
    """What ``play`` and ``referee`` share: the prompt loop, the table, the events of each action."""

    prompt = "> "
    command = ""

    def __init__(self, session: Session, screen: Screen, db: str | None) -> None:
        self.session = session
        self.screen = screen
        self.db = db
        self.changed = True
        self.shown: object = None

    def run(self) -> None:
        try:
            while True:
                self.before_prompt()
                line = self.screen.ask(self.prompt)
                if line is None:
                    break
                try:
                    if not self.handle(line):
                        break
                except HazardError as error:
                    self.screen.error(str(error))
        except KeyboardInterrupt:
            self.screen.say("")
        hint = _resume_hint(self.command, self.session.game, self.db)
        self.screen.say(f"Game {self.session.game} is saved: carry on with {hint}")

    def before_prompt(self) -> None:
        if self.changed:
            self.show_state()
            self.changed = False

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

    def handle(self, line: str) -> bool:  # pragma: no cover - each front end has its own
        raise NotImplementedError

    def you(self) -> str | None:
        return None

    def show_table(self) -> None:
        self.screen.show(table_view(self.session.table, you=self.you()))

    def events(self, events: Sequence[AnyEvent]) -> None:
        for event in events:
            style = "bold" if isinstance(event, RoundSettled | CasterChanged) else None
            self.screen.say(f"  {event}", style=style)
        if events:
            self.changed = True

    def meta(self, word: str, help_text: str) -> bool:
        if word == "quit":
            return False
        if word == "help":
            self.screen.say(help_text)
        elif word == "bets":
            self.screen.say("Even-money side bets from 002_e25665f301869517.txt: " + "; ".join(SOURCE_BETS))
        elif word == "log":
            self.screen.show(entries_view(replay(self.session.info, self.session.entries)))
        else:
            self.show_table()
        return True


class PlayLoop(TableLoop):
    """``hazard play``: you, bots, and dice the game throws."""

    command = "hazard play"

    def __init__(
        self, session: Session, screen: Screen, db: str | None, you: str, main: MainOdds | None
    ) -> None:
        super().__init__(session, screen, db)
        self.player = you
        self.prompt = f"{you}> "
        self.main = main
        self.hinted = ""

    def you(self) -> str:
        return self.player

    def bots(self, *, call: bool) -> None:
        """Let the bots act; a bot caster calls only when told to throw, so that you may stake first."""
        for action, events in self.session.bots_act(call=call):
            caster = self.session.table.caster
            if isinstance(action, Call) and self.main is not None and self.main.main == action.main:
                self.screen.say(f"{caster} calls {action.main}, {_best_main_text(self.main, self.paytable)}")
            self.events(events)

    @property
    def paytable(self) -> Paytable:
        return self.session.info.paytable

    def before_prompt(self) -> None:
        self.bots(call=False)
        if self.changed:
            self.show_state()
            hint = self.hint()
            if hint != self.hinted:
                self.screen.say(hint, style="italic")
                self.hinted = hint
            self.changed = False

    def hint(self) -> str:
        table = self.session.table
        caster = table.caster
        if caster == self.player:
            if to_move(table.round) is Mover.CASTER:
                mains = _mains_text(table.ruleset)
                stake = (
                    "stake against the bank (e.g. stake 5), " if table.stakes is StakeArrangement.BANK else ""
                )
                return f"You hold the dice: {stake}call a main ({mains}), e.g. call 7. help: commands"
            return "You hold the dice: press Enter to throw. help: commands"
        if not table.round_begun:
            return (
                f"{caster} holds the dice: stake against {caster} (e.g. stake 5), offer or take a side bet, "
                f"or press Enter to let {caster} throw. help: commands"
            )
        return f"Press Enter to let {caster} throw. help: commands"

    def handle(self, line: str) -> bool:
        command = parse_play(line, self.player)
        if isinstance(command, Meta):
            return self.meta(command.word, PLAY_HELP)
        if isinstance(command, ThrowDice):
            self.throw()
            return True
        assert isinstance(command, Act)
        action = command.action
        self.check_turn(action)
        table = self.session.table
        if (
            isinstance(action, Stake)
            and action.player == table.caster
            and table.stakes is StakeArrangement.BANK
        ):
            # The caster names his stake against the bank: the first bot that can cover it takes it.
            bank = self.session.brains.cover(table, action.amount)
            if bank is None:
                raise IllegalError(
                    f"illegal stake of {format_money(action.amount)} by {action.player!r}: "
                    "no one at the table can cover it as the bank"
                )
            action = replace(action, player=bank)
        if isinstance(action, Stake) and self.session.brains.consents(self.session.table, action):
            action = replace(action, consent=True)  # a bot caster agrees to a late bet it can cover
        self.events(self.session.play(action))
        return True

    def check_turn(self, action: TableAction) -> None:
        """Refuse what only another may do: call or pass for a caster you are not, withdraw another's bet."""
        table = self.session.table
        if isinstance(action, PassDice) and table.caster != self.player:
            raise IllegalError(f"illegal pass of the dice: {table.caster} holds them, not you")
        if isinstance(action, Call) and table.caster != self.player:
            raise IllegalError(
                f"illegal call of main {action.main}: {table.caster} holds the dice and calls, not you"
            )
        if isinstance(action, CancelBet):
            for bet in table.side_bets:
                if bet.number == action.bet and bet.backer != self.player:
                    raise IllegalError(
                        f"illegal withdrawal of side bet #{bet.number}: it is {bet.backer}'s to withdraw"
                    )

    def throw(self) -> None:
        table = self.session.table
        caster = table.caster
        if caster is not None and caster != self.player:
            self.bots(call=True)  # a bot caster calls its main now, if it must
            table = self.session.table
        if to_move(table.round) is Mover.CASTER:
            raise IllegalError(
                f"illegal throw: {caster} must call a main first ({_mains_text(table.ruleset)}), e.g. call 7"
            )
        events = self.session.throw()
        thrown = self.session.entries[-1].item
        assert isinstance(thrown, Throw)
        self.screen.say(f"{caster} throws {thrown.roll}")
        self.events(events)


class RefereeLoop(TableLoop):
    """``hazard referee``: people at a table with real dice; the referee types in what happens."""

    command = "hazard referee"
    prompt = "referee> "

    def handle(self, line: str) -> bool:
        command = parse_referee(line, self.session.table)
        if command is None:
            return True
        if isinstance(command, Meta):
            return self.meta(command.word, REFEREE_HELP)
        if isinstance(command, Fix):
            self.correct(command)
            return True
        assert isinstance(command, Act)
        events = self.session.play(command.action)
        self.screen.say(f"[{self.session.entries[-1].seq}] {action_text(command.action)}")
        self.events(events)
        return True

    def correct(self, fix: Fix) -> None:
        entries = self.session.entries
        target = fix.target
        if target is None:
            standing = effective_actions(entries)
            if not standing:
                raise IllegalError("illegal undo: no action stands in the record yet")
            target = standing[-1][0]
        before = next((entry for entry in entries if entry.seq == target), None)
        if before is None:
            raise IllegalError(
                f"illegal correction of entry {target}: the record has entries 1 to {len(entries)}"
            )
        if isinstance(before.item, Correction):
            raise IllegalError(
                f"illegal correction of entry {target}: it is a correction itself; correct entry "
                f"{before.item.target} instead"
            )
        self.session.correct(target, fix.replacement)
        correction = self.session.entries[-1]
        self.screen.say(f"[{correction.seq}] {entry_text(correction)} (was '{entry_text(before)}')")
        self.changed = True


# --- setting up -------------------------------------------------------------------------------------------


def parse_bots(spec: str, you: str, bankroll: Fraction) -> list[Sit]:
    """The bots of ``--bots``: a number, or ``NAME[:POLICY[:BANKROLL]]`` separated by commas.

    >>> [(s.name, s.bot) for s in parse_bots("2", "Ann", Fraction(100))]
    [('Bob', 'setter'), ('Cat', 'bystander')]
    >>> [(s.name, s.bot, s.bankroll) for s in parse_bots("Zed:bystander:50", "Ann", Fraction(100))]
    [('Zed', 'bystander', Fraction(50, 1))]
    """
    text = spec.strip()
    if text.isascii() and text.isdigit():
        count = int(text)
        names = [name for name in BOT_NAMES if name.lower() != you.lower()]
        if count > len(names):
            raise InvalidError(f"invalid bots {spec!r}: at most {len(names)} bots by number; name more")
        return [
            Sit(name, bankroll, BOT_POLICIES[i % len(BOT_POLICIES)]) for i, name in enumerate(names[:count])
        ]
    sits = []
    for part in text.split(","):
        terms = [term.strip() for term in part.split(":")]
        if not terms[0] or len(terms) > 3:
            raise InvalidError(
                f"invalid bots {spec!r}: expected a number, or NAME[:POLICY[:BANKROLL]] separated by "
                "commas, e.g. Bob:setter,Cat:bystander"
            )
        policy = terms[1].lower() if len(terms) > 1 and terms[1] else BOT_POLICIES[0]
        if policy not in BOT_POLICIES:
            raise InvalidError(
                f"invalid bot policy {terms[1]!r} in --bots {spec!r}: expected {' or '.join(BOT_POLICIES)}"
            )
        money = parse_money(terms[2], what="bankroll", allow_zero=True) if len(terms) > 2 else bankroll
        sits.append(Sit(terms[0], money, policy))
    return sits


def _parse_player(spec: str) -> Sit:
    name, colon, money = spec.rpartition(":")
    name = name.strip()
    if not colon or not name:
        raise InvalidError(f"invalid player {spec!r}: expected NAME:BANKROLL, e.g. Ann:100")
    if len(name.split()) != 1:
        raise InvalidError(
            f"invalid player {spec!r}: a name is one word, so that commands can name the player"
        )
    return Sit(name, parse_money(money, what=f"bankroll for {name}", allow_zero=True))


def _paytable(ruleset: Ruleset, name: str | None, screen: Screen) -> Paytable:
    chosen = paytable_for(ruleset, name)
    if chosen is None:
        screen.say(
            f"{ruleset.id} has no paytable of its own: stakes settle at even money "
            "(choose one with --paytable)"
        )
        even = paytable_for(ruleset, "even")
        assert even is not None
        return even
    return chosen


def _seat_check(
    ruleset: Ruleset, paytable: Paytable, stakes: StakeArrangement | None, sits: list[Sit]
) -> None:
    """Try the seats at an empty table first, so that a bad name starts no game in the record."""
    table = new_table(ruleset, paytable, stakes)
    for sit in sits:
        table, _ = apply_action(table, sit)


def _refuse_setup_with_resume(given: Mapping[str, object]) -> None:
    named = [option for option, value in given.items() if value not in (None, [])]
    if named:
        raise InvalidError(
            f"invalid option {named[0]} with --resume: a resumed game keeps the setup in its record"
        )


def _latest(store: GameStore, label: str) -> int:
    for game, _created, game_label, _ruleset, _count in store.games():
        if game_label.startswith(label):
            return game
    raise IllegalError(f"illegal --resume: the record at {store.url!r} holds no {label} game to resume")


def _resume(store: GameStore, game: int | None, label: str) -> Session:
    session = Session.resume(store, _latest(store, label) if game is None else game)
    typed = session.info.dice == "typed"
    if label == PLAY_LABEL and typed:
        raise IllegalError(
            f"illegal resume of game {session.game} with hazard play: its dice are real ones typed in; "
            f"resume it with hazard referee --resume {session.game}"
        )
    if label == REFEREE_LABEL and not typed:
        raise IllegalError(
            f"illegal resume of game {session.game} with hazard referee: the game throws its own dice; "
            f"resume it with hazard play --resume {session.game}"
        )
    return session


def _intro(screen: Screen, session: Session, resumed: bool) -> None:
    info = session.info
    verb = "Resuming" if resumed else "Starting"
    screen.say(f"{verb} {info_text(info)}", style="bold")
    rules = info.ruleset
    screen.say(
        f"{rules.name}: the main is {rules.method.value}; stakes: {stakes_text(info.stakes)}; "
        f"a won chance pays {info.paytable.describe_chance()}; {rules.passing.describe()}"
    )
    if resumed:
        screen.say(f"{len(session.entries)} entries replayed from the record")


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
    int | None, typer.Argument(help="With --resume: the game to carry on (default: the latest).")
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
            f"with POLICY {' or '.join(BOT_POLICIES)}, e.g. Bob:setter,Cat:bystander.",
        ),
    ] = None,
    unit: Annotated[
        str | None, typer.Option("--unit", help="What a setter bot stakes, a bystander bets (default 1).")
    ] = None,
    seed: Annotated[
        int | None,
        typer.Option("--seed", help="Seeded dice: the same seed and choices replay the same game."),
    ] = None,
    db: DbOption = None,
    resume: ResumeOption = False,
) -> None:
    """Play Hazard in the terminal against bots; the dice are secure, or seeded with --seed."""
    setup = {
        "--ruleset": ruleset,
        "--paytable": paytable,
        "--stakes": stakes,
        "--name": name,
        "--bankroll": bankroll,
        "--bots": bots,
        "--unit": unit,
        "--seed": seed,
    }
    if game is not None and not resume:
        raise InvalidError(f"invalid game {game}: a game number is given only with --resume")
    screen = Screen()
    if resume:
        _refuse_setup_with_resume(setup)
        store = open_store(db, create=False)
        try:
            loop = _resume_play(store, game, screen, db)
            loop.run()
        finally:
            store.close()
        return
    # Everything is checked before the record is opened: a bad option leaves no trace in it.
    found = find_ruleset(ruleset or DEFAULT_RULESET)
    chosen = _paytable(found, paytable, screen)
    you = (name if name is not None else DEFAULT_NAME).strip()
    money = parse_money(bankroll or DEFAULT_BANKROLL, what="bankroll")
    sits = [Sit(you, money), *parse_bots(bots or DEFAULT_BOTS, you, money)]
    stake_unit = parse_money(unit or "1", what="bot stake unit")
    if seed is not None:
        SeededDice(seed)  # refuses a seed below 0
    _seat_check(found, chosen, stakes, sits)
    main = best_main(found, chosen)
    store = open_store(db, create=True)
    try:
        session = Session.start(
            store,
            ruleset=found,
            paytable=chosen,
            stakes=stakes,
            dice="secure" if seed is None else "seeded",
            seed=seed,
            label=PLAY_LABEL,
            settings={BOT_UNIT: fraction_text(stake_unit)},
            brains=BotBrains(stake_unit, None if main is None else main.main),
        )
        _intro(screen, session, resumed=False)
        loop = PlayLoop(session, screen, db, you, main)
        for sit in sits:
            loop.events(session.play(sit))
        _announce_main(screen, session, main)
        loop.run()
    finally:
        store.close()


def _announce_main(screen: Screen, session: Session, main: MainOdds | None) -> None:
    if main is not None:
        reason = _best_main_text(main, session.info.paytable)
        screen.say(f"Bots holding the dice call {main.main}, {reason}")


def _resume_play(store: GameStore, game: int | None, screen: Screen, db: str | None) -> PlayLoop:
    session = _resume(store, game, PLAY_LABEL)
    people = [p.name for p in session.table.players if p.bot is None]
    if len(people) != 1:
        raise IllegalError(
            f"illegal resume of game {session.game} with hazard play: it needs exactly one person "
            f"at the table, and it has {len(people)}"
        )
    stake_unit = parse_money(session.info.settings.get(BOT_UNIT, "1"), what="bot stake unit")
    main = best_main(session.info.ruleset, session.info.paytable)
    session.brains = BotBrains(stake_unit, None if main is None else main.main)
    _intro(screen, session, resumed=True)
    _announce_main(screen, session, main)
    return PlayLoop(session, screen, db, people[0], main)


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
    db: DbOption = None,
    resume: ResumeOption = False,
) -> None:
    """Referee a game played with real dice: type in the stakes, calls and throws; correct any mistake."""
    if game is not None and not resume:
        raise InvalidError(f"invalid game {game}: a game number is given only with --resume")
    screen = Screen()
    if resume:
        _refuse_setup_with_resume(
            {"--player": player, "--ruleset": ruleset, "--paytable": paytable, "--stakes": stakes}
        )
        store = open_store(db, create=False)
        try:
            session = _resume(store, game, REFEREE_LABEL)
            _intro(screen, session, resumed=True)
            screen.say(_REFEREE_START, style="italic")
            RefereeLoop(session, screen, db).run()
        finally:
            store.close()
        return
    if not player:
        raise InvalidError("invalid table: name the players, e.g. --player Ann:100 --player Bob:100")
    sits = [_parse_player(spec) for spec in player]
    found = find_ruleset(ruleset or DEFAULT_RULESET)
    chosen = _paytable(found, paytable, screen)
    _seat_check(found, chosen, stakes, sits)
    store = open_store(db, create=True)
    try:
        session = Session.start(
            store, ruleset=found, paytable=chosen, stakes=stakes, dice="typed", label=REFEREE_LABEL
        )
        _intro(screen, session, resumed=False)
        loop = RefereeLoop(session, screen, db)
        for sit in sits:
            events = session.play(sit)
            screen.say(f"[{session.entries[-1].seq}] {action_text(sit)}")
            loop.events(events)
        screen.say(_REFEREE_START, style="italic")
        loop.run()
    finally:
        store.close()


_REFEREE_START = "Type the dice as they fall (3-4 or 3 4); help lists every command."
