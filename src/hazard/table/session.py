"""A live game: a table, its record, its dice and its bots, kept in step.

Every action is checked against the pure table first, then written to the record and committed, and only
then does the live table move on. So the record never holds an action the rules refuse, and a process
killed at any instant leaves a record that replays to the last action it acknowledged.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime

from hazard.core.errors import IllegalError, InvalidError
from hazard.core.paytable import Paytable
from hazard.core.rules import Ruleset, StakeArrangement
from hazard.table.actions import TableAction, Throw
from hazard.table.bots import BotBrains
from hazard.table.dice import DiceSource, SecureDice, SeededDice
from hazard.table.record import Correction, Entry, GameInfo, GameStore, replay
from hazard.table.state import AnyEvent, Table, apply_action, new_table

__all__ = ["DICE_KINDS", "Session"]

DICE_KINDS = ("secure", "seeded", "typed")
"""Where a game's throws come from: the OS generator, a seeded generator, or real dice typed in."""


def _dice_for(kind: str, seed: int | None) -> DiceSource | None:
    if kind == "secure":
        return SecureDice()
    if kind == "seeded":
        if seed is None:
            raise InvalidError("invalid dice: seeded dice need a seed")
        return SeededDice(seed)
    if kind == "typed":
        return None
    raise InvalidError(f"invalid dice {kind!r}: expected one of {', '.join(DICE_KINDS)}")


@dataclass
class Session:
    """One game in play: build it with :meth:`start` or :meth:`resume`, act with :meth:`play`."""

    store: GameStore
    info: GameInfo
    table: Table
    entries: list[Entry]
    dice: DiceSource | None
    brains: BotBrains = field(default_factory=BotBrains)

    @classmethod
    def start(
        cls,
        store: GameStore,
        *,
        ruleset: Ruleset,
        paytable: Paytable,
        stakes: StakeArrangement | None = None,
        dice: str = "secure",
        seed: int | None = None,
        label: str = "",
        settings: Mapping[str, str] | None = None,
        brains: BotBrains | None = None,
    ) -> Session:
        """A new game, recorded in ``store``; ``settings`` are a front end's own, kept with the game."""
        source = _dice_for(dice, seed)
        table = new_table(ruleset, paytable, stakes)
        kept = dict(settings or {})
        game = store.create(
            ruleset=ruleset,
            paytable=paytable,
            stakes=table.stakes,
            dice=dice,
            seed=seed,
            label=label,
            settings=kept,
        )
        info = GameInfo(game, _now(), label, ruleset, paytable, table.stakes, dice, seed, kept)
        return cls(store, info, table, [], source, brains or BotBrains())

    @classmethod
    def resume(cls, store: GameStore, game: int, brains: BotBrains | None = None) -> Session:
        """Carry on a recorded game exactly where its record ends."""
        replayed = store.load(game)
        info = replayed.info
        source = _dice_for(info.dice, info.seed)
        return cls(store, info, replayed.table, list(replayed.entries), source, brains or BotBrains())

    @property
    def game(self) -> int:
        return self.info.id

    def play(self, action: TableAction) -> tuple[AnyEvent, ...]:
        """Check ``action``, record it, then make it: the events; on an error nothing is written."""
        table, events = apply_action(self.table, action)
        seq = self.store.append(self.game, action)
        self.entries.append(Entry(seq, _now(), action))
        self.table = table
        return events

    def throw(self) -> tuple[AnyEvent, ...]:
        """Throw the session's dice (not for typed-in dice: play a :class:`Throw` with the real roll)."""
        if self.dice is None:
            raise IllegalError(f"illegal throw in game {self.game}: its throws are typed in from real dice")
        return self.play(Throw(self.dice.throw(self.table.throws)))

    def correct(self, target: int, replacement: TableAction | None = None) -> Table:
        """Void or replace entry ``target`` by a correction entry; refused if the game would not replay."""
        correction = Correction(target, replacement)
        trial = [*self.entries, Entry(len(self.entries) + 1, _now(), correction)]
        try:
            replayed = replay(self.info, trial)
        except InvalidError as error:
            raise IllegalError(f"illegal correction of entry {target}: {error}") from None
        seq = self.store.append(self.game, correction)
        self.entries.append(Entry(seq, _now(), correction))
        self.table = replayed.table
        return self.table

    def bots_act(self, *, call: bool = True) -> list[tuple[TableAction, tuple[AnyEvent, ...]]]:
        """Let the bots do all they want to do now: lay stakes, offer and take side bets, call a main.

        With ``call`` False a bot caster holds back its call, so that people may still stake first.
        """
        done: list[tuple[TableAction, tuple[AnyEvent, ...]]] = []
        for _ in range(100):  # each pass makes progress; the bound only guards against a policy loop
            main = self.brains.call(self.table) if call else None
            wanted = [*self.brains.side_bets(self.table), *self.brains.stakes(self.table)]
            if main is not None and not wanted:
                wanted = [main]
            if not wanted:
                break
            action = wanted[0]
            done.append((action, self.play(action)))
        return done


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")
