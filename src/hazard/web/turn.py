"""Whose turn it is, for one viewer: the line a table's page shows in large type, and the buttons beside it.

The table decides it: what :func:`hazard.table.choices` lets the viewer's seat do now, and whom the table's
:attr:`~hazard.table.Table.turn` waits for. A seat the table waits on reads "Your turn: call a main" with the
mains to call beside it; everybody else reads whom it waits for ("Waiting for Ann to throw"), so no seat is
told it may move when it may not.
"""

from __future__ import annotations

from dataclasses import dataclass

from hazard.table import Choices, Need, Table

__all__ = ["Move", "TurnLine", "turn_line"]


@dataclass(frozen=True, slots=True)
class Move:
    """A button of the turn line: it sends ``action``, the terminal's text form of it."""

    action: str
    label: str
    primary: bool = False
    """The one a keyboard player's focus goes to after an update (Enter plays it)."""


@dataclass(frozen=True, slots=True)
class TurnLine:
    """What the viewer can do now (``mine``), or whom the table waits for, with the buttons that do it."""

    text: str
    mine: bool
    moves: tuple[Move, ...] = ()
    also: str = ""
    """What else the viewer may do while he waits (lay a stake), or empty."""


def turn_line(table: Table, seat: str | None, can: Choices | None, *, closed: bool) -> TurnLine:
    """The turn line of ``table`` for the viewer at ``seat`` (None: a spectator), whose ``choices`` are
    ``can`` (None: no buttons, as on the big screen and the referee's page)."""
    if closed:
        return TurnLine("This table is closed.", mine=False)
    if can is not None and can.mains:
        primary = 7 if 7 in can.mains else can.mains[len(can.mains) // 2]
        moves = tuple(Move(f"call {main}", f"Call {main}", main == primary) for main in can.mains)
        return TurnLine("Your turn: call a main", mine=True, moves=moves)
    if can is not None and can.throw:
        return TurnLine(
            "Your turn: throw the dice", mine=True, moves=(Move("throw", "Throw the dice", True),)
        )
    if can is not None and can.throw_for is not None:
        bot = can.throw_for
        return TurnLine(
            f"Your turn: let {bot} throw", mine=True, moves=(Move("throw", f"Let {bot} throw", True),)
        )
    turn = table.turn
    if turn.need is Need.PLAYERS or turn.caster is None:
        return TurnLine("Waiting for players to sit down", mine=False)
    who = "you" if turn.caster == seat else turn.caster
    if turn.caster != seat and table.player(turn.caster).bot is not None:
        who = f"{turn.caster} (a bot)"
    verb = "call a main" if turn.need is Need.CALL else "throw"
    also = "You may lay a stake now." if can is not None and can.stake else ""
    return TurnLine(f"Waiting for {who} to {verb}", mine=False, also=also)
