"""A referee's correction of a live game, tried before it is written: the entry it voids or replaces, and the
game as it would then replay. A correction that would leave a game that does not replay is refused, so
nothing is written for it."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from hazard.core.dice import Roll
from hazard.core.errors import IllegalError, InvalidError
from hazard.table.live.timeline import Correction, Entry, Timeline, check_correction, effective_actions
from hazard.table.record.keys import now_text
from hazard.table.rules.actions import Actor, TableAction
from hazard.table.rules.closing import check_open
from hazard.table.rules.state import Table

if TYPE_CHECKING:
    from hazard.table.live.session import Session

__all__ = ["Tried", "try_correction"]


@dataclass(frozen=True, slots=True)
class Tried:
    """A correction checked and replayed, not yet written: what it corrects, and the game after it."""

    target: int
    correction: Correction
    table: Table
    timeline: Timeline


def try_correction(
    session: Session, target: int | None, replacement: TableAction | None, *, by: Actor
) -> Tried:
    """Void entry ``target`` (None: the last action that stands), or replace it, as ``by`` asks, at
    ``session``'s game: checked and replayed, nothing written. Only the referee corrects the record, and
    neither a throw of the fair dice nor a throw at a game of its own dice is named or corrected."""
    if target is None:
        standing = effective_actions(session.entries)
        if not standing:
            raise IllegalError("illegal undo: no action stands in the record yet")
        target = standing[-1][0]
    check_open(session.closed, session.game, f"correction of entry {target}")
    seq = len(session.entries) + 1
    check_correction(session.entries, target, seq, by)
    if session.fair is not None and isinstance(session.entries[target - 1].item, Roll):
        raise IllegalError(
            f"illegal correction of entry {target}: it is a throw of the fair dice, which stand as "
            "thrown (every later throw of its hand comes from the nonce after it)"
        )
    info = session.info
    if isinstance(replacement, Roll) and info.dice.own:
        raise IllegalError(
            f"illegal correction of entry {target}: game {session.game} throws its own "
            f"{info.dice.describe(info.seed)}, so no throw can be named for it"
        )
    correction = Correction(target, replacement)
    trial = [*session.entries, Entry(seq, now_text(), by, correction)]
    assert session.timeline is not None
    try:
        table, timeline = session.timeline.corrected(trial, target)
    except InvalidError as error:
        raise IllegalError(f"illegal correction of entry {target}: {error}") from None
    return Tried(target, correction, table, timeline)
