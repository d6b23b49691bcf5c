"""The prompt loops of ``hazard play`` and ``hazard referee``: one command a line, the table and the events
of each action shown, a bad line answered with one ``error:`` line and the prompt again."""

from __future__ import annotations

import shlex
from collections.abc import Sequence

from hazard.cli.commands import Act, Fix, Meta, parse_line, play_help, referee_help
from hazard.cli.screen import Screen
from hazard.cli.tableview import entries_view, round_line, table_view
from hazard.core.errors import HazardError
from hazard.core.propositions import SOURCE_BETS
from hazard.core.rules import Ruleset, StakeArrangement
from hazard.table import (
    REFEREE,
    Actor,
    AnyEvent,
    Call,
    CasterChanged,
    ClientSeeded,
    Close,
    Committed,
    Correction,
    FairNote,
    GameKind,
    LiveGame,
    MoneyStyle,
    Move,
    Need,
    Recorded,
    Revealed,
    RoundSettled,
    Session,
    StaleError,
    Thrown,
    best_main,
    entry_text,
    event_text,
    note_text,
)

__all__ = ["PlayLoop", "RefereeLoop", "TableLoop", "command_money"]


def mains_text(ruleset: Ruleset) -> str:
    """The ruleset's mains as a hint says them: 5, 6, 7, 8 or 9."""
    mains = [str(m) for m in ruleset.mains]
    return ", ".join(mains[:-1]) + " or " + mains[-1] if len(mains) > 1 else mains[0]


def resume_hint(kind: GameKind, game: int, db: str | None) -> str:
    """The command that carries the game on."""
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
        live.session.money = command_money(money)  # the sums in its refusals, as its commands show them
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
        hint = resume_hint(self.session.info.kind, self.session.game, self.db)
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
                mains = mains_text(table.ruleset)
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
        self.screen.say(f"[{entry.seq}] {entry_text(entry, command_money(self.money))}")

    def correct(self, fix: Fix) -> None:
        answer = self.live.act(Move(fix, REFEREE, based_on=self.seen))
        self.live.take_stream()  # the correction alone, said here with what it corrected
        self.seen = self.live.seq
        correction = self.session.entries[answer.seq - 1]
        assert isinstance(correction.item, Correction)
        before = self.session.entries[correction.item.target - 1]
        money = command_money(self.money)
        self.screen.say(
            f"[{correction.seq}] {entry_text(correction, money)} (was '{entry_text(before, money)}')"
        )
        self.changed = True


def command_money(money: MoneyStyle) -> MoneyStyle:
    """Commands echo sums in the chosen style where it is exact (lsd, exact); decimal echoes exactly."""
    return MoneyStyle.EXACT if money is MoneyStyle.DECIMAL else money
