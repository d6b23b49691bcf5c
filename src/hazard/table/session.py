"""A live game: a table, its record, its dice and its bots, kept in step; what every front end drives.

Every action is checked against the pure table first, then written to the record and committed, and only
then does the live table move on. So the record never holds an action the rules refuse, and a process
killed at any instant leaves a record that replays to the last action it acknowledged.

A front end hands :meth:`Session.act` what a person typed (or the action it built) and who typed it; the
session does the rest: a throw of the game's own dice, a stake the caster names against the bank, a late bet
a bot caster accepts, the bots' own moves (:meth:`Session.bots_act`), and corrections by the referee.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime

from hazard.core.dice import Roll
from hazard.core.errors import HazardError, IllegalError, InvalidError
from hazard.core.paytable import Paytable
from hazard.core.rules import Ruleset, StakeArrangement
from hazard.core.rulesets import paytable_for
from hazard.table.actions import (
    DICE,
    REFEREE,
    Actor,
    ActorError,
    SetSeed,
    Sit,
    Stake,
    TableAction,
    ThrowDice,
    action_text,
    check_name,
    parse_action,
)
from hazard.table.bots import BotBrains, BotMove
from hazard.table.dice import DiceKind, DiceSource, dice_for
from hazard.table.events import AnyEvent, CasterChanged
from hazard.table.fair import (
    ClientSeeded,
    Committed,
    FairNote,
    FairState,
    HandOpened,
    Revealed,
    check_client_seed,
    client_seed_of,
    commitment,
    fair_throw,
    new_client_seed,
    new_server_seed,
)
from hazard.table.game import (
    MARK_EVERY,
    Correction,
    Entry,
    GameInfo,
    GameKind,
    ReplayedGame,
    Timeline,
    check_correction,
    effective_actions,
    fair_ledger,
    replay,
)
from hazard.table.record import GameStore, StaleError
from hazard.table.state import Table, new_table
from hazard.table.transitions import apply_action, check_throw

__all__ = ["Recorded", "Session", "check_seats", "table_paytable"]

EVEN = "even"
"""The paytable a table settles by when its ruleset gives none."""


def table_paytable(ruleset: Ruleset, name: str | None = None) -> tuple[Paytable, bool]:
    """The paytable a table of ``ruleset`` settles by: ``name``, else the ruleset's own, else even money.

    The flag says whether even money was chosen because the ruleset gives no paytable (front ends say so).
    """
    chosen = paytable_for(ruleset, name)
    if chosen is not None:
        return chosen, False
    even = paytable_for(ruleset, EVEN)
    assert even is not None
    return even, True


def check_seats(
    ruleset: Ruleset, paytable: Paytable, stakes: StakeArrangement | None, seats: list[Sit]
) -> None:
    """Try ``seats`` at an empty table, so that a bad name or bankroll starts no game in the record."""
    table = new_table(ruleset, paytable, stakes)
    for sit in seats:
        table, _ = apply_action(table, sit, by=REFEREE)


@dataclass(frozen=True, slots=True)
class Recorded:
    """An entry just written to the record, and what it did."""

    entry: Entry
    events: tuple[AnyEvent, ...]


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
    """Tables along the game, kept so that a correction replays only the entries after the one it corrects."""
    fair: FairState | None = None
    """Where the fair dice stand (None unless the game's dice are fair)."""
    secret: bytes | None = None
    """The server seed of the fair hand committed and not yet revealed: kept from everything that shows."""
    missed: list[Recorded] = field(default_factory=list)
    """Entries other writers made, read by :meth:`catch_up`, until a front end takes them to show."""

    def __post_init__(self) -> None:
        if self.timeline is None:
            self.timeline = Timeline.of(self.info, self.entries)
        if self.info.dice is DiceKind.FAIR and self.fair is None:
            self.fair = fair_ledger(self.info, self.entries).state

    @classmethod
    def start(
        cls,
        store: GameStore,
        *,
        ruleset: Ruleset,
        paytable: Paytable,
        stakes: StakeArrangement | None = None,
        dice: DiceKind = DiceKind.SECURE,
        seed: int | None = None,
        kind: GameKind = GameKind.PLAY,
        label: str | None = None,
        settings: Mapping[str, str] | None = None,
        brains: BotBrains | None = None,
        seats: Sequence[Sit] = (),
        seated_by: Actor | None = None,
        keys: Mapping[str, str | None] | None = None,
    ) -> Session:
        """A new game, recorded in ``store``; ``settings`` are a front end's own, kept with the game.

        ``seats`` are the players at the table from the start, each seated by ``seated_by`` (None: himself).
        They are written with the game in one transaction, so the record holds the game with every one of
        them or not at all; :attr:`opening` says what each did. ``keys`` are digests of tokens to the game
        and whose they are (None: its host's), written in that transaction too (:meth:`GameStore.holder`).
        """
        source = None if dice is DiceKind.FAIR else dice_for(dice, seed)
        table = new_table(ruleset, paytable, stakes)
        moves: list[tuple[Actor, TableAction | FairNote]] = []
        opened: list[tuple[Actor, TableAction | FairNote, tuple[AnyEvent, ...]]] = []
        secret = None
        if dice is DiceKind.FAIR and seed is not None:
            raise InvalidError(f"invalid seed {seed}: fair dice take no seed; each hand draws its own")
        for sit in seats:
            by = seated_by or Actor.player(sit.name)
            table, events = apply_action(table, sit, by=by)
            moves.append((by, sit))
            opened.append((by, sit, events))
        if dice is DiceKind.FAIR:
            # The first hand's seed is drawn and committed when the game starts: after the seeds drawn for
            # the players seated with it, so that the server chooses nothing once it has committed.
            notes: list[FairNote] = [ClientSeeded(p.name, new_client_seed()) for p in table.players]
            secret = new_server_seed()
            notes.append(Committed(1, commitment(secret)))
            for note in notes:
                moves.append((DICE, note))
                opened.append((DICE, note, ()))
        info = store.create(
            ruleset=ruleset,
            paytable=paytable,
            stakes=table.stakes,
            dice=dice,
            kind=kind,
            seed=seed,
            label=kind.label if label is None else label,
            settings=settings,
            entries=moves,
            secrets=None if secret is None else {1: secret},
            keys=keys,
        )
        entries = [Entry(seq, info.created, by, item) for seq, (by, item, _) in enumerate(opened, start=1)]
        opening = tuple(
            Recorded(entry, events) for entry, (_, _, events) in zip(entries, opened, strict=True)
        )
        session = cls(store, info, table, entries, source, brains or BotBrains(), opening)
        session.secret = secret
        return session

    @classmethod
    def resume(
        cls, store: GameStore, game: int | None = None, *, kind: GameKind, brains: BotBrains | None = None
    ) -> Session:
        """Carry on game ``game`` (default: the latest of ``kind``) exactly where its record ends.

        A game of another kind is refused: a game that throws its own dice cannot go on with typed dice, nor
        the other way round.
        """
        replayed = store.load(store.latest(kind) if game is None else game)
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
        )
        session.secret = session._kept_secret()
        return session

    def _kept_secret(self) -> bytes | None:
        """The seed of the fair hand committed and not yet revealed, from the record's keeping."""
        hand = None if self.fair is None else self.fair.current
        if hand is None:
            return None
        secret = self.store.secret(self.game, hand.number)
        if secret is None or commitment(secret) != hand.commitment:
            raise InvalidError(
                f"record of game {self.game} is corrupt: the seed of hand {hand.number}, committed to and "
                "not yet revealed, is not kept (or is not the one committed to), so its dice cannot go on"
            )
        return secret

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

    def act(
        self,
        command: TableAction | ThrowDice | SetSeed | str,
        *,
        by: Actor,
        client: str | None = None,
        key: str | None = None,
    ) -> list[Recorded]:
        """Take what ``by`` typed (text in the actions' text form) or chose: check it, record it, make it.

        Returns every entry it wrote (a throw for a bot caster that must call first writes the call too).
        ``client`` is the sender's own number for the action, kept with the entry that makes it (the throw
        itself, for a throw); ``key`` the digest of the token that a ``sit`` gives its player. Both are
        written in that entry's transaction (:meth:`GameStore.append`).

        - ``throw`` (:class:`ThrowDice`) throws the game's own dice (:meth:`throw`);
        - a caster's stake under the bank arrangement is covered by the first bot that can;
        - a bet laid once the chance is set, against a bot caster who can cover it, carries its consent.
        """
        if isinstance(command, str):
            command = parse_action(command, by=by, players=[p.name for p in self.table.players])
        if isinstance(command, ThrowDice):
            return self.throw(by=by, client=client)
        if isinstance(command, SetSeed):
            return [self.set_seed(command, by=by, client=client)]
        table = self.table
        if (
            isinstance(command, Stake)
            and command.player == table.caster
            and table.stakes is StakeArrangement.BANK
            and by.name == table.caster
        ):
            # The caster names his stake against the bank: the first bot that can cover it takes it.
            if table.round_begun:
                raise IllegalError(
                    f"illegal {action_text(command)} by {by} in round ({table.round}): stakes are laid "
                    "before the round begins"
                )
            bank = self.brains.cover(table, command.amount)
            if bank is None:
                raise IllegalError(
                    f"illegal {action_text(command)} by {by}: no one at the table can cover it as the bank"
                )
            return [self.play(replace(command, player=bank), by=Actor.player(bank), client=client)]
        if (
            isinstance(command, Stake)
            and (by.is_referee or by.name == command.player)
            and self.brains.consents(table, command)
        ):
            assert table.caster is not None
            return [self.play(replace(command, consent=True), by=Actor.player(table.caster), client=client)]
        if key is not None and not isinstance(command, Sit):
            raise IllegalError(f"illegal {action_text(command)} by {by}: only a sit gives a seat its key")
        return [self.play(command, by=by, client=client, key=key)]

    def play(
        self, action: TableAction, *, by: Actor, client: str | None = None, key: str | None = None
    ) -> Recorded:
        """Check ``action`` by ``by``, record it, then make it; on an error nothing is written."""
        if isinstance(action, Roll) and self.info.dice.own:
            raise IllegalError(
                f"illegal {action_text(action)} by {by} in game {self.game}: the game throws its own "
                f"{self.info.dice.describe(self.info.seed)}: ask for a throw ('throw') instead of naming one"
            )
        seat = None if key is None or not isinstance(action, Sit) else (key, check_name(action.name))
        return self._record(action, by, client=client, key=seat)

    def throw(self, *, by: Actor, client: str | None = None) -> list[Recorded]:
        """Throw the game's own dice, for the caster: by the caster, the referee, or anyone for a bot caster.

        A bot caster that must call a main calls it first.
        """
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
        """Throw the fair dice: the hand's client seed fixed at its first throw, then the throw its seeds and
        nonce give.

        The client seed is the seeds the players seated now have, in seat order. Nothing is drawn here, after
        the commitment: a seed the server drew now could be tried against its committed seed until the
        throws suited it. Seeds are drawn before each commitment (:meth:`_draw_seeds`); a newcomer seated
        since this hand's commitment who set none has no part in it.
        """
        assert self.fair is not None
        hand = self.fair.current
        if hand is None or self.secret is None:
            raise InvalidError(
                f"record of game {self.game} is corrupt: no hand of the fair dice is committed"
            )
        done = []
        if hand.client_seed is None:
            seeds = [self.fair.seed_of(player.name) for player in self.table.players]
            parts = [seed for seed in seeds if seed is not None]
            done.append(self._note(HandOpened(hand.number, client_seed_of(parts)), DICE))
            hand = self.fair.current
            assert hand is not None
            assert hand.client_seed is not None
        roll = fair_throw(self.secret, hand.client_seed, len(hand.throws))
        return [*done, self._record(roll, thrower, client=client)]

    def _draw_seeds(self) -> None:
        """Before a commitment: a seed drawn by the dice for each seated player who has none yet."""
        for player in self.table.players:
            assert self.fair is not None
            if self.fair.seed_of(player.name) is None:
                self._note(ClientSeeded(player.name, new_client_seed()), DICE)

    def set_seed(self, request: SetSeed, *, by: Actor, client: str | None = None) -> Recorded:
        """Set a player's own seed for the fair dice, from the hand committed now on: by him, or by the
        referee; once a hand, before its first throw (``request.hand``, where given, must be that hand)."""
        if self.fair is None:
            raise IllegalError(
                f"illegal seed for {request.player} in game {self.game}: its dice are "
                f"{self.info.dice.describe(self.info.seed)}, not fair dice, and take no seed of a player's"
            )
        player = self.table.player(request.player).name
        if not by.is_referee and by.name != player:
            raise ActorError(f"illegal seed for {player} by {by}: a player sets only his own seed")
        seed = check_client_seed(request.seed)
        hand = self.fair.current
        if hand is None:
            raise InvalidError(
                f"record of game {self.game} is corrupt: no hand of the fair dice is committed"
            )
        what = f"illegal seed for {player} in hand {hand.number}"
        if request.hand is not None and request.hand != hand.number:
            when = "is over" if request.hand < hand.number else "is not committed yet"
            raise IllegalError(
                f"illegal seed for {player} for hand {request.hand}: that hand {when}; the dice are "
                f"committed to hand {hand.number} now"
            )
        if hand.client_seed is not None:
            raise IllegalError(
                f"{what}: its dice have been thrown with the seeds fixed at its first throw; set a seed "
                "between hands, once the dice pass"
            )
        already = self.fair.fresh_entry(player)
        if already is not None:
            raise IllegalError(
                f"{what}: {player}'s seed for this hand is set already (entry {already}); a seat sets one "
                "seed a hand"
            )
        return self._note(ClientSeeded(player, seed), by, client=client)

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
        return Recorded(entry, ())

    def _record(
        self,
        action: TableAction,
        by: Actor,
        *,
        client: str | None = None,
        key: tuple[str, str] | None = None,
    ) -> Recorded:
        table, events = apply_action(self.table, action, by=by)
        fair = None if self.fair is None else self.fair.after(len(self.entries) + 1, action)
        entry = self._append(by, action, client=client, key=key)
        self.table = table
        assert self.timeline is not None
        self.timeline.moved_on(entry, table)
        if self.fair is not None:
            assert fair is not None
            self.fair = fair
            if any(isinstance(event, CasterChanged) and event.old is not None for event in events):
                self._next_hand()
        return Recorded(entry, events)

    def _next_hand(self) -> None:
        """The dice have passed: the hand ends, its seed is shown, a seed is drawn for each player who has
        none, and the next hand's seed is committed."""
        assert self.fair is not None
        assert self.secret is not None
        hand = self.fair.current
        assert hand is not None
        self._note(Revealed(hand.number, self.secret.hex()), DICE)
        self._draw_seeds()
        secret = new_server_seed()
        self._note(Committed(hand.number + 1, commitment(secret)), DICE, secret=(hand.number + 1, secret))
        self.secret = secret

    def _append(
        self,
        by: Actor,
        item: TableAction | Correction | FairNote,
        *,
        secret: tuple[int, bytes] | None = None,
        client: str | None = None,
        key: tuple[str, str] | None = None,
    ) -> Entry:
        """Write an entry after the last this session knows of; where another session has written since, catch
        up with the record (so this one never writes from a stale table) and say so."""
        seq = len(self.entries) + 1
        try:
            entry = self.store.append(self.game, by, item, seq=seq, secret=secret, key=key, request=client)
        except StaleError:
            self.catch_up()
            raise StaleError(self.game, seq, len(self.entries), caught_up=True) from None
        self.entries.append(entry)
        return entry

    def catch_up(self) -> list[Recorded]:
        """Reload the game from its record: the table as the record now has it, whoever wrote it.

        Returns the entries this session had not seen, with their events; they are also kept in
        :attr:`missed` until a front end takes them (a catch-up inside :meth:`act` returns nothing else).
        """
        known = len(self.entries)
        if known:
            try:
                caught = self._follow(self.store.entries_after(self.game, known))
            except HazardError:
                caught = None  # a correction, or something that does not follow: replay the whole game
            if caught is not None:
                self.missed.extend(caught)
                return caught
        replayed = self.store.load(self.game)
        self.table = replayed.table
        self.entries = list(replayed.entries)
        self.timeline = replayed.timeline
        if self.fair is not None:
            self.fair = replayed.ledger.state
            self.secret = self._kept_secret()
        caught = [Recorded(entry, tuple(replayed.events_of(entry.seq))) for entry in self.entries[known:]]
        self.missed.extend(caught)
        return caught

    def _follow(self, entries: Sequence[Entry]) -> list[Recorded] | None:
        """Play the entries another writer made onto this session's table, one by one, as the record's replay
        would; None where one is a correction (which replays from a kept table instead). Nothing changes
        unless every entry plays."""
        if any(isinstance(entry.item, Correction) for entry in entries):
            return None
        table, fair = self.table, self.fair
        assert self.timeline is not None
        marks = dict(self.timeline.marks)
        done = []
        for entry in entries:
            item = entry.item
            events: tuple[AnyEvent, ...] = ()
            if isinstance(item, FairNote) or (fair is not None and isinstance(item, Roll)):
                if fair is None:
                    raise InvalidError(f"record of game {self.game}: entry {entry.seq} is a fair dice note")
                fair = fair.after(entry.seq, item)
            if not isinstance(item, FairNote | Correction):
                table, events = apply_action(table, item, by=entry.actor)
            if (
                entry.seq + 1
            ) % MARK_EVERY == 1:  # the table before the next entry is kept, as replay keeps it
                marks[entry.seq + 1] = table
            done.append(Recorded(entry, events))
        self.table, self.fair = table, fair
        self.entries.extend(entries)
        self.timeline = Timeline(self.info, marks)
        if fair is not None:
            self.secret = self._kept_secret()  # another writer may have committed the next hand's seed
        return done

    def bots_act(self, *, call: bool = True) -> list[Recorded]:
        """Let the bots do all they want to do now: lay stakes, offer and take side bets, call a main.

        With ``call`` False a bot caster holds back its call, so that people may still stake first.
        """
        done: list[Recorded] = []
        for _ in range(100):  # each move makes progress; the bound only guards against a policy loop
            move: BotMove | None = self.brains.wanted(self.table, call=call)
            if move is None:
                break
            done.append(self._record(move.action, move.by))
        return done

    # --- corrections --------------------------------------------------------------------------------------

    def correct(
        self, target: int | None = None, replacement: TableAction | None = None, *, by: Actor = REFEREE
    ) -> tuple[Entry, Entry, Table]:
        """Void entry ``target`` (None: the last action that stands), or replace it, by a correction entry.

        Only the referee corrects the record. A correction that would leave a game that does not replay is
        refused and nothing is written. Returns the entry corrected, the correction, and the new table.
        """
        if target is None:
            standing = effective_actions(self.entries)
            if not standing:
                raise IllegalError("illegal undo: no action stands in the record yet")
            target = standing[-1][0]
        seq = len(self.entries) + 1
        check_correction(self.entries, target, seq, by)
        if self.fair is not None and isinstance(self.entries[target - 1].item, Roll):
            raise IllegalError(
                f"illegal correction of entry {target}: it is a throw of the fair dice, which stand as "
                "thrown (every later throw of its hand comes from the nonce after it)"
            )
        if isinstance(replacement, Roll) and self.info.dice.own:
            raise IllegalError(
                f"illegal correction of entry {target}: game {self.game} throws its own "
                f"{self.info.dice.describe(self.info.seed)}, so no throw can be named for it"
            )
        correction = Correction(target, replacement)
        trial = [*self.entries, Entry(seq, _now(), by, correction)]
        assert self.timeline is not None
        try:
            table, timeline = self.timeline.corrected(trial, target)
        except InvalidError as error:
            raise IllegalError(f"illegal correction of entry {target}: {error}") from None
        entry = self._append(by, correction)
        self.table, self.timeline = table, timeline
        return self.entries[target - 1], entry, self.table


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")
