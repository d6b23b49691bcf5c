"""Who may act at a table, by role: the rules a front end used to write for itself, written once.

A person comes to a table in one of three roles (:class:`Role`): a seated player, who acts for himself; the
referee, who enters everything the dice and the players do (the terminal's ``hazard referee``, the host of a
web table of real dice); and the host of a table of fair dice, who only seats, takes back stakes, removes and
closes. A front end maps its credentials to a role (the web: a token to a :class:`~hazard.table.keys.Holder`)
and hands the table the action; the table checks the role here, and the action's own rules in
:func:`~hazard.table.transitions.apply_action`.
"""

from __future__ import annotations

import enum
from collections.abc import Sequence

from hazard.core.errors import IllegalError, InvalidError, quoted
from hazard.core.rules import StakeArrangement
from hazard.table.actions import REFEREE, Actor, ActorError, Call, Leave, PassDice, Roll, Sit, Withdraw
from hazard.table.dice import DiceKind
from hazard.table.game import Correction, Entry, entry_text
from hazard.table.keys import Holder
from hazard.table.money import MoneyStyle
from hazard.table.state import Table

__all__ = [
    "HOST_ACTIONS",
    "Role",
    "actor_of",
    "acts_for",
    "check_based_on",
    "check_closer",
    "check_role",
    "check_seater",
    "check_seeder",
    "check_spectator",
    "keeps_bank",
    "names_stake_against_bank",
    "role_of",
]


class Role(enum.Enum):
    """What a person at a table may do there."""

    PLAYER = "player"
    """A seated player: he acts for himself."""
    REFEREE = "referee"
    """Enters everything the dice and the players do (real dice, typed in)."""
    HOST = "host"
    """The host of a table of fair dice: seats players, takes back their stakes, removes them, closes."""


HOST_ACTIONS = (Sit, Withdraw, Leave)
"""What the host of a table with fair dice may do for others: seat someone, take back someone's stakes,
remove someone from the table."""


def role_of(holder: Holder, dice: DiceKind) -> Role:
    """The role of the holder of a key to a table whose dice are ``dice``: a host of real dice referees."""
    if not holder.is_host:
        return Role.PLAYER
    return Role.REFEREE if dice is DiceKind.TYPED else Role.HOST


def actor_of(holder: Holder) -> Actor:
    """Whom the record names for what ``holder`` does: the referee for a host, else the player."""
    return REFEREE if holder.is_host else Actor.player(holder.player or "")


def acts_for(by: Actor, player: str) -> bool:
    """Whether ``by`` may act for ``player``: he himself, or the referee."""
    return by.is_referee or by.name == player


def check_spectator(game: int, text: str, holder: Holder | None) -> Holder:
    """Refuse an action by nobody's key (a spectator); the holder otherwise."""
    if holder is None:
        raise ActorError(
            f"illegal action {quoted(text)} at table {game}: a spectator acts for nobody; join the table "
            "to play"
        )
    return holder


def check_role(role: Role, game: int, command: object, text: str) -> None:
    """The host of a table with fair dice seats and removes; the host of a table with real dice is its
    referee, entering everything the dice and the players do."""
    if role is Role.HOST and not isinstance(command, HOST_ACTIONS):
        raise ActorError(
            f"illegal {quoted(text)} by the host of table {game}: at a table of fair dice the host only "
            "seats players (sit NAME BANKROLL), takes back a player's stakes (withdraw NAME) and removes a "
            "player (leave NAME); each player acts for himself"
        )


def check_seater(by: Holder | None, *, bot: bool) -> None:
    """A player sits himself down (``by`` None); only the host seats others, bots included."""
    if by is not None and not by.is_host:
        raise ActorError(f"illegal sit by {by.player}: {by.player} is seated; only the host seats others")
    if bot and by is None:
        raise ActorError("illegal sit of a bot: only the table's host seats a bot")


def check_closer(game: int, by: Holder | None) -> None:
    """Only a table's host closes it."""
    if by is None or not by.is_host:
        raise ActorError(f"illegal close of table {game}: only its host closes a table")


def check_seeder(game: int, hand: int, by: Holder | None) -> str:
    """Only a seated player sets a seed, his own: the player."""
    if by is None or by.is_host or by.player is None:
        raise ActorError(
            f"illegal seed for hand {hand} at table {game}: only a seated player sets a seed, his own"
        )
    return by.player


def check_based_on(entries: Sequence[Entry], based_on: int, money: MoneyStyle) -> None:
    """Refuse an action sent from a view of the table (at entry ``based_on``) that the dice (or a
    correction) have since changed: it may mean something else now."""
    head = len(entries)
    if based_on > head or based_on < 0:
        raise InvalidError(f"invalid based_on {based_on}: expected an entry number from 0 to {head}")
    for entry in entries[based_on:]:
        if isinstance(entry.item, Roll | Call | PassDice | Correction):
            raise IllegalError(
                f"illegal action from a view of entry {based_on}: the table has moved on since (entry "
                f"{entry.seq}: {entry_text(entry, money)}), so it may mean something else now; look, "
                "then send it again"
            )


def names_stake_against_bank(table: Table, player: str | None) -> bool:
    """Whether ``player`` is the caster under the bank arrangement, who names his own stake and has the
    bank (a bot at the table) cover it, rather than staking against himself."""
    return player is not None and table.stakes is StakeArrangement.BANK and player == table.caster


def keeps_bank(table: Table, player: str) -> bool:
    """Whether someone at the table but ``player`` could keep the bank against him: a bot."""
    return any(p.bot is not None for p in table.players if p.name != player)
