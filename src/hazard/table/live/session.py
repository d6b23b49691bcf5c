"""A live game: a table, its record, its dice and its bots, kept in step; what every front end drives.

Every action is checked against the pure table first, then written to the record and committed, and only
then does the live table move on. So the record never holds an action the rules refuse, and a process
killed at any instant leaves a record that replays to the last action it acknowledged.

A front end hands :meth:`Session.act` what a person typed (or the action it built) and who typed it; the
session does the rest: a throw of the game's own dice, a stake the caster names against the bank, a late bet
a bot caster accepts, the bots' own moves (:meth:`Session.bots_act`), and corrections by the referee.

What the fair dice write, hand by hand, is decided in :mod:`hazard.table.live.fair_hands`, and a correction
is tried in :mod:`hazard.table.live.corrections` before it is written; the session writes them.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace

from hazard.core.dice import Roll
from hazard.core.errors import HazardError, IllegalError
from hazard.table.fair.commit_reveal import FairNote, FairState, Revealed
from hazard.table.fair.dice import DiceKind, DiceSource, dice_for
from hazard.table.live.corrections import try_correction
from hazard.table.live.fair_hands import (
    first_hand,
    hand_in_play,
    hand_opening,
    kept_secret,
    next_commitment,
    seed_note,
    seeds_to_draw,
    throw_of,
)
from hazard.table.live.timeline import (
    Correction,
    Entry,
    GameInfo,
    GameKind,
    Recorded,
    ReplayedGame,
    Timeline,
    fair_ledger,
    load_game,
    replay,
)
from hazard.table.record.keys import check_seating
from hazard.table.record.store import GameStore, StaleError
from hazard.table.rules.actions import (
    DICE,
    REFEREE,
    Actor,
    ActorError,
    Leave,
    SetSeed,
    Sit,
    Stake,
    TableAction,
    ThrowDice,
    action_text,
    check_name,
    parse_action,
)
from hazard.table.rules.bots import BotBrains, BotMove
from hazard.table.rules.closing import Close, check_open
from hazard.table.rules.entries import item_text
from hazard.table.rules.events import AnyEvent, CasterChanged
from hazard.table.rules.lookalike import check_sit
from hazard.table.rules.money import MoneyStyle, command_style
from hazard.table.rules.roles import acts_for, names_stake_against_bank
from hazard.table.rules.setup import check_seats, table_paytable
from hazard.table.rules.spec import TableSpec
from hazard.table.rules.state import Table, new_table
from hazard.table.rules.transitions import apply_action, check_throw

__all__ = ["NEWS", "Recorded", "Session", "check_seats", "table_paytable"]

NEWS = 1024
"""How many of the latest entries :attr:`Session.news` keeps (a front end letting more pile up shows all)."""


@dataclass
class Session:
    """One game in play: build it with :meth:`start` or :meth:`resume`, act with :meth:`act`."""

    store: GameStore
    info: GameInfo
    table: Table
    entries: list[Entry]
    dice: DiceSource | None
    brains: BotBrains = field(default_factory=BotBrains)
    opening: tuple[Recorded, ...] = ()
    """The players seated when the game was started, as :meth:`start` recorded them."""
    timeline: Timeline | None = None
    """The game as played (``Timeline``): a correction replays from it only
    what follows the entry corrected, and a catch-up plays on from it what other writers added."""
    fair: FairState | None = None
    """Where the fair dice stand (None unless the game's dice are fair)."""
    secret: bytes | None = None
    """The server seed of the fair hand committed and not yet revealed: kept from everything that shows."""
    closed: bool = False
    """Whether the table is closed (``hazard.table.rules.closing``): nothing more may be done at it."""
    news: deque[Recorded] = field(default_factory=lambda: deque(maxlen=NEWS))
    """Every entry this session has written (the fair dice's notes of a hand's end too) or read from other
    writers, with its events, in order, until a front end takes them (:meth:`take_news`) to tell others."""
    money: MoneyStyle = MoneyStyle.EXACT
    """How the front end shows money: every sum a refusal shows is in it (where that is exact)."""

    def _text(self, action: TableAction) -> str:
        """``action`` as a refusal names it: its sums as the front end shows money."""
        return action_text(action, command_style(self.money))

    def __post_init__(self) -> None:
        if self.timeline is None:
            self.timeline = Timeline.of(self.info, self.entries)
        if self.info.dice is DiceKind.FAIR and self.fair is None:
            self.fair = fair_ledger(self.info, self.entries).state

    @classmethod
    def start(
        cls,
        store: GameStore,
        spec: TableSpec,
        *,
        settings: Mapping[str, str] | None = None,
        seats: Sequence[Sit] = (),
        seated_by: Actor | None = None,
        keys: Mapping[str, str | None] | None = None,
    ) -> Session:
        """A new game set up as ``spec`` says, recorded in ``store``; ``settings`` are a front end's own,
        kept with the game.

        ``seats`` are the players at the table from the start, each seated by ``seated_by`` (None: himself).
        They are written with the game in one transaction, so the record holds the game with every one of
        them or not at all; :attr:`opening` says what each did. ``keys`` are digests of tokens to the game
        and whose they are (None: its host's), written in that transaction too (:meth:`GameStore.holder`).
        """
        dice, seed, kind = spec.dice, spec.seed, spec.kind
        source = None if dice is DiceKind.FAIR else dice_for(dice, seed)
        table = new_table(spec.ruleset, spec.paytable, spec.stakes)
        moves: list[tuple[Actor, TableAction | FairNote]] = []
        opened: list[tuple[Actor, TableAction | FairNote, tuple[AnyEvent, ...]]] = []
        secret = None
        for sit in seats:
            by = seated_by or Actor.player(sit.name)
            check_sit(table, sit)
            table, events = apply_action(table, sit, by=by, seq=len(moves) + 1)
            moves.append((by, sit))
            opened.append((by, sit, events))
        if dice is DiceKind.FAIR:
            # The first hand's seed is drawn and committed when the game starts, after the players' seeds.
            notes, secret = first_hand(table.players)
            for note in notes:
                moves.append((DICE, note))
                opened.append((DICE, note, ()))
        info = store.create(
            ruleset=spec.ruleset,
            paytable=spec.paytable,
            stakes=table.stakes,
            dice=dice,
            kind=kind,
            seed=seed,
            label=kind.label if spec.label is None else spec.label,
            settings=settings,
            entries=moves,
            secrets=None if secret is None else {1: secret},
            keys=keys,
        )
        entries = [Entry(seq, info.created, by, item) for seq, (by, item, _) in enumerate(opened, start=1)]
        opening = tuple(
            Recorded(entry, events) for entry, (_, _, events) in zip(entries, opened, strict=True)
        )
        session = cls(store, info, table, entries, source, spec.bots, opening)
        session.secret = secret
        session.news.extend(opening)
        return session

    @classmethod
    def resume(
        cls, store: GameStore, game: int | None = None, *, kind: GameKind, brains: BotBrains | None = None
    ) -> Session:
        """Carry on game ``game`` (default: the latest of ``kind``) exactly where its record ends.

        A game of another kind is refused: a game that throws its own dice cannot go on with typed dice, nor
        the other way round.
        """
        replayed = load_game(store, store.latest(kind) if game is None else game)
        return cls.of_replayed(store, replayed, kind=kind, brains=brains)

    @classmethod
    def of_replayed(
        cls, store: GameStore, replayed: ReplayedGame, *, kind: GameKind, brains: BotBrains | None = None
    ) -> Session:
        """Carry on the game ``replayed``, as :func:`load_game` has just read it from ``store``, where its
        record ends: for a caller that has read the record already (one replay, not two)."""
        info = replayed.info
        if info.kind is not kind:
            raise IllegalError(
                f"illegal resume of game {info.id} as a {kind.label} game: it is a {info.kind.label} game "
                f"({info.dice.describe(info.seed)}); {info.kind.resume_text(info.id)}"
            )
        source = None if info.dice is DiceKind.FAIR else dice_for(info.dice, info.seed)
        session = cls(
            store,
            info,
            replayed.table,
            list(replayed.entries),
            source,
            brains or BotBrains(),
            timeline=replayed.timeline,
            fair=replayed.ledger.state if info.dice is DiceKind.FAIR else None,
            closed=replayed.closed,
        )
        session.secret = kept_secret(session)
        return session

    @property
    def game(self) -> int:
        return self.info.id

    @property
    def people(self) -> list[str]:
        """The players at the table who are people, not bots, in seating order."""
        return [p.name for p in self.table.players if p.bot is None]

    def replayed(self) -> ReplayedGame:
        """The whole game as its record rebuilds it: every entry, its standing and its events."""
        return replay(self.info, self.entries)

    # --- acting -------------------------------------------------------------------------------------------

    def take_news(self) -> list[Recorded]:
        """The entries written or read since a front end last took them (:attr:`news`), in order."""
        news = list(self.news)
        self.news.clear()
        return news

    def _since(self, known: int) -> list[Recorded]:
        """What :attr:`news` holds after entry ``known``: what an act or the bots' moves just wrote."""
        return [recorded for recorded in self.news if recorded.entry.seq > known]

    def act(
        self,
        command: TableAction | ThrowDice | SetSeed | str,
        *,
        by: Actor,
        client: str | None = None,
        key: str | None = None,
        claim: tuple[str, str] | None = None,
        seating: int | None = None,
    ) -> list[Recorded]:
        """Take what ``by`` typed (text in the actions' text form) or chose: check it, record it, make it.

        Returns every entry it wrote, in order: a throw for a bot caster that must call first writes the call
        too, and an action that ends a hand of the fair dice is followed by the hand's reveal and the next
        hand's commitment.
        ``client`` is the sender's own number for the action, kept with the entry that makes it (the throw
        itself, for a throw); ``key`` the digest of the token that a ``sit`` gives its player, and ``claim``
        the digest and expiry of the claim code that a ``sit`` by the host gives a late arrival. All are
        written in that entry's transaction (:meth:`GameStore.append`).

        ``seating`` is the seating the sender's key opens: refused unless its player holds it now (a table
        behind the record is caught up by the append, which is never made from a stale table).

        - ``throw`` (:class:`ThrowDice`) throws the game's own dice (:meth:`throw`);
        - a caster's stake under the bank arrangement is covered by the first bot that can;
        - a bet laid once the chance is set, against a bot caster who can cover it, carries its consent.
        """
        check_open(self.closed, self.game, command if isinstance(command, str) else "action")
        if seating is not None:
            check_seating(self.table, by, seating)
        known = len(self.entries)
        self._act(command, by=by, client=client, key=key, claim=claim)
        return self._since(known)

    def _act(
        self,
        command: TableAction | ThrowDice | SetSeed | str,
        *,
        by: Actor,
        client: str | None,
        key: str | None,
        claim: tuple[str, str] | None,
    ) -> list[Recorded]:
        if isinstance(command, str):
            command = parse_action(command, by=by, players=[p.name for p in self.table.players])
        if isinstance(command, ThrowDice):
            return self.throw(by=by, client=client)
        if isinstance(command, SetSeed):
            return [self.set_seed(command, by=by, client=client)]
        table = self.table
        if (
            isinstance(command, Stake)
            and command.player == by.name
            and names_stake_against_bank(table, by.name)
        ):
            # The caster names his stake against the bank: the first bot that can cover it takes it.
            if table.round_begun:
                raise IllegalError(
                    f"illegal {self._text(command)} by {by} in round ({table.round}): stakes "
                    "are laid before the round begins"
                )
            bank = self.brains.cover(table, command.amount)
            if bank is None:
                raise IllegalError(
                    f"illegal {self._text(command)} by {by}: no one at the table can cover it as the bank"
                )
            return [self.play(replace(command, player=bank), by=Actor.player(bank), client=client)]
        if (
            isinstance(command, Stake)
            and acts_for(by, command.player)
            and self.brains.consents(table, command)
        ):
            assert table.caster is not None
            return [self.play(replace(command, consent=True), by=Actor.player(table.caster), client=client)]
        if (key is not None or claim is not None) and not isinstance(command, Sit):
            raise IllegalError(f"illegal {self._text(command)} by {by}: only a sit gives a seat its key")
        return [self.play(command, by=by, client=client, key=key, claim=claim)]

    def play(
        self,
        action: TableAction,
        *,
        by: Actor,
        client: str | None = None,
        key: str | None = None,
        claim: tuple[str, str] | None = None,
    ) -> Recorded:
        """Check ``action`` by ``by``, record it, then make it; on an error nothing is written."""
        check_open(self.closed, self.game, action_text(action))
        if isinstance(action, Roll) and self.info.dice.own:
            raise IllegalError(
                f"illegal {self._text(action)} by {by} in game {self.game}: the game throws its "
                f"own {self.info.dice.describe(self.info.seed)}: ask for a throw ('throw') instead of naming "
                "one"
            )
        name = check_name(action.name) if isinstance(action, Sit) else None
        seat = None if key is None or name is None else (key, name)
        code = None if claim is None or name is None else (claim[0], name, claim[1])
        return self._record(action, by, client=client, key=seat, claim=code)

    def throw(self, *, by: Actor, client: str | None = None) -> list[Recorded]:
        """Throw the game's own dice, for the caster: by the caster, the referee, or anyone for a bot caster.

        A bot caster that must call a main calls it first.
        """
        check_open(self.closed, self.game, "throw")
        if not self.info.dice.own:
            raise IllegalError(
                f"illegal throw by {by} in game {self.game}: its throws are real dice, typed in as they fell"
            )
        caster = self.table.caster
        if caster is None:
            raise IllegalError(f"illegal throw by {by}: nobody is at the table yet")
        if by.name is not None and not self.table.seated(by.name):
            raise ActorError(f"illegal throw by {by}: {by} is not at the table, and acts for nobody")
        thrower, done = by, []
        if self.table.player(caster).bot is not None:
            call = self.brains.call(self.table)
            if call is not None:
                done.append(self._record(call.action, call.by))
            thrower = Actor.player(caster)
        check_throw(self.table, by=thrower)
        if self.fair is None:
            assert self.dice is not None
            return [*done, self._record(self.dice.throw(self.table.throws), thrower, client=client)]
        return [*done, *self._fair_throw(thrower, client)]

    def _fair_throw(self, thrower: Actor, client: str | None) -> list[Recorded]:
        """Throw the fair dice (:mod:`hazard.table.live.fair_hands`): the hand's client seed fixed at its
        first throw, then the throw its seeds and nonce give. Seeds are drawn before each commitment, never
        here (:meth:`_next_hand`)."""
        assert self.fair is not None
        hand_in_play(self)
        # The seed held must be this hand's (one SHA-256): a catch-up that could not open the next hand's
        # seed (another process's key) must not leave the last hand's seed to throw with.
        self.secret = kept_secret(self)
        assert self.secret is not None
        opening = hand_opening(self.fair, self.table)
        done = [] if opening is None else [self._note(opening, DICE)]
        hand = self.fair.current
        assert hand is not None
        return [*done, self._record(throw_of(self.secret, hand), thrower, client=client)]

    def set_seed(self, request: SetSeed, *, by: Actor, client: str | None = None) -> Recorded:
        """Set a player's own seed for the fair dice, from the hand committed now on: by him, or by the
        referee; once a hand, before its first throw (``request.hand``, where given, must be that hand)."""
        check_open(self.closed, self.game, f"seed for {request.player}")
        return self._note(seed_note(self, request, by=by), by, client=client)

    def _note(
        self,
        note: FairNote,
        by: Actor,
        secret: tuple[int, bytes] | None = None,
        *,
        client: str | None = None,
    ) -> Recorded:
        assert self.fair is not None
        fair = self.fair.after(len(self.entries) + 1, note)
        entry = self._append(by, note, secret=secret, client=client)
        self.fair = fair
        assert self.timeline is not None
        self.timeline.moved_on(entry, self.table)
        done = Recorded(entry, ())
        self.news.append(done)
        return done

    def _record(
        self,
        action: TableAction,
        by: Actor,
        *,
        client: str | None = None,
        key: tuple[str, str] | None = None,
        claim: tuple[str, str, str] | None = None,
    ) -> Recorded:
        table, events = apply_action(self.table, action, by=by, money=self.money, seq=len(self.entries) + 1)
        check_sit(self.table, action)  # a newcomer's name, new to the table, may not pass for another's
        fair = None if self.fair is None else self.fair.after(len(self.entries) + 1, action)
        # A seat's keys go with the entry that ends its seating (a leave, or the host's removal).
        ends = self.table.player(action.player).seating if isinstance(action, Leave) else None
        entry = self._append(by, action, client=client, key=key, claim=claim, revoke=ends)
        self.table = table
        assert self.timeline is not None
        self.timeline.moved_on(entry, table, events)
        done = Recorded(entry, events)
        self.news.append(done)  # before the notes of a hand's end, which follow it in the record
        if self.fair is not None:
            assert fair is not None
            self.fair = fair
            if any(isinstance(event, CasterChanged) and event.old is not None for event in events):
                self._next_hand()
        return done

    def _next_hand(self) -> None:
        """The dice have passed: the hand ends, its seed is shown, a seed is drawn for each player who has
        none, and the next hand's seed is committed."""
        assert self.fair is not None
        assert self.secret is not None
        hand = self.fair.current
        assert hand is not None
        self._note(Revealed(hand.number, self.secret.hex()), DICE)
        for seed in seeds_to_draw(self.fair, self.table.players):
            self._note(seed, DICE)
        committed, secret = next_commitment(hand.number + 1)
        self._note(committed, DICE, secret=(hand.number + 1, secret))
        self.secret = secret

    def _append(
        self,
        by: Actor,
        item: TableAction | Correction | FairNote | Close,
        *,
        secret: tuple[int, bytes] | None = None,
        client: str | None = None,
        key: tuple[str, str] | None = None,
        claim: tuple[str, str, str] | None = None,
        revoke: int | None = None,
    ) -> Entry:
        """Write an entry after the last this session knows of; where another session has written since, catch
        up with the record (so this one never writes from a stale table) and say so. Nothing is written at a
        closed table: the one place every entry passes."""
        check_open(self.closed, self.game, item_text(item))
        seq = len(self.entries) + 1
        try:
            entry = self.store.append(
                self.game,
                by,
                item,
                seq=seq,
                secret=secret,
                key=key,
                claim=claim,
                revoke=revoke,
                request=client,
            )
        except StaleError:
            self.catch_up()
            raise StaleError(self.game, seq, len(self.entries), caught_up=True) from None
        self.entries.append(entry)
        return entry

    def catch_up(self) -> list[Recorded]:
        """Bring the game up to its record: the table as the record now has it, whoever wrote it.

        The entries another writer added are read (each checked to follow the chain) and played on by the
        session's ``Timeline``, as a load plays a whole game; where they do
        not follow, the whole game is read again. Returns the entries this session had not seen, with their
        events; they are also kept in :attr:`news` until a front end takes them (a catch-up inside
        :meth:`act` returns nothing else).
        """
        known = len(self.entries)
        assert self.timeline is not None
        caught: list[Recorded] | None = None
        if known:
            try:
                caught = self.timeline.extend(self.store.entries_after(self.game, known))
            except HazardError:
                caught = None  # something that does not follow: read the whole game again
        if caught is None:
            replayed = load_game(self.store, self.game)
            self.timeline = replayed.timeline
            self.entries = list(replayed.entries)
            self.closed = replayed.closed
            caught = self.timeline.recorded(replayed.entries[known:])
        else:
            self.entries.extend(recorded.entry for recorded in caught)
            self.closed = self.closed or self.timeline.closed  # or closed beside the chain, in an old record
        self.table = self.timeline.table
        if self.fair is not None:
            self.fair = self.timeline.fair
            self.secret = kept_secret(self)  # another writer may have committed the next hand's seed
        self.news.extend(caught)
        return caught

    def bots_act(self, *, call: bool = True) -> list[Recorded]:
        """Let the bots do all they want to do now: lay stakes, offer and take side bets, call a main.

        With ``call`` False a bot caster holds back its call, so that people may still stake first. Returns
        every entry written (a bot's pass that ends a hand of the fair dice writes its reveal and the next
        commitment too); at a closed table the bots do nothing.
        """
        if self.closed:
            return []
        known = len(self.entries)
        for _ in range(100):  # each move makes progress; the bound only guards against a policy loop
            move: BotMove | None = self.brains.wanted(self.table, call=call)
            if move is None:
                break
            self._record(move.action, move.by)
        return self._since(known)

    def close(self, *, by: Actor = REFEREE) -> list[Recorded]:
        """Close the table, by its referee (at the web, its host): nothing more may be done at it after this.

        At a table of fair dice the hand in play is revealed first, in the close's transaction, so that its
        server seed is shown though the hand never ends. Returns the reveal, if any, and the close."""
        if not by.is_referee:
            raise ActorError(f"illegal close of table {self.game} by {by}: only its host closes the table")
        check_open(self.closed, self.game, "close")
        known, fair, secret = len(self.entries), self.fair, self.secret
        assert self.timeline is not None
        timeline = self.timeline.copy()
        try:
            with self.store.batch():
                hand = None if fair is None else fair.current
                if hand is not None and secret is not None:
                    self._note(Revealed(hand.number, secret.hex()), DICE)
                entry = self._append(by, Close())
        except StaleError:
            raise  # nothing was written, and the session has caught up with the record
        except BaseException:  # the transaction did not commit: the session is as the record is
            del self.entries[known:]
            while self.news and self.news[-1].entry.seq > known:
                self.news.pop()
            self.fair, self.secret, self.timeline = fair, secret, timeline
            raise
        self.timeline.moved_on(entry, self.table)
        self.closed, self.secret = True, None
        self.news.append(Recorded(entry, ()))
        return self._since(known)

    # --- corrections --------------------------------------------------------------------------------------

    def correct(
        self, target: int | None = None, replacement: TableAction | None = None, *, by: Actor = REFEREE
    ) -> tuple[Entry, Entry, Table]:
        """Void entry ``target`` (None: the last action that stands), or replace it, by a correction entry.

        Only the referee corrects the record. A correction that would leave a game that does not replay is
        refused and nothing is written. Returns the entry corrected, the correction, and the new table.
        """
        tried = try_correction(self, target, replacement, by=by)
        entry = self._append(by, tried.correction)
        tried.timeline.entries[-1] = entry  # as written: its time is the record's
        self.table, self.timeline = tried.table, tried.timeline
        self.news.append(Recorded(entry, ()))
        return self.entries[tried.target - 1], entry, self.table
