"""Who may act at a table, by role: the rules a front end used to write for itself, written once.

A person comes to a table in one of three roles (:class:`Role`): a seated player, who acts for himself; the
referee, who enters everything the dice and the players do (the terminal's ``hazard referee``, the host of a
web table of real dice); and the host of a table of fair dice, who only seats, takes back stakes, removes and
closes. A front end maps its credentials to a role (the web: a token to a
:class:`~hazard.table.rules.actors.SeatKey`) and hands the table the action; the table checks the role here,
and the action's own rules in :func:`~hazard.table.rules.transitions.apply_action`.
"""

from __future__ import annotations

import enum
from typing import TYPE_CHECKING

from hazard.core.errors import quoted
from hazard.core.rules import StakeArrangement
from hazard.core.state import Phase
from hazard.table.fair.dice import DiceKind
from hazard.table.rules.actions import (
    REFEREE,
    Actor,
    ActorError,
    Leave,
    Sit,
    Stake,
    TableAction,
    Withdraw,
    action_text,
)
from hazard.table.rules.money import MoneyStyle, command_style
from hazard.table.rules.registry import form_of
from hazard.table.rules.state import Table

if TYPE_CHECKING:  # a key's holder is only read here; keys.py sits above the rules of the table
    from hazard.table.rules.actors import SeatKey

__all__ = [
    "HOST_ACTIONS",
    "Role",
    "acting_for",
    "actor_of",
    "acts_for",
    "check_actor",
    "check_closer",
    "check_role",
    "check_seater",
    "check_seeder",
    "check_spectator",
    "keeps_bank",
    "names_stake_against_bank",
    "needs_consent",
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


def role_of(holder: SeatKey, dice: DiceKind) -> Role:
    """The role of the holder of a key to a table whose dice are ``dice``: a host of real dice referees."""
    if not holder.is_host:
        return Role.PLAYER
    return Role.REFEREE if dice is DiceKind.TYPED else Role.HOST


def actor_of(holder: SeatKey) -> Actor:
    """Whom the record names for what ``holder`` does: the referee for a host, else the player."""
    return REFEREE if holder.is_host else Actor.player(holder.player or "")


def acts_for(by: Actor, player: str) -> bool:
    """Whether ``by`` may act for ``player``: he himself, or the referee."""
    return by.is_referee or by.name == player


def acting_for(table: Table, action: TableAction) -> str | None:
    """The player whose action ``action`` is: the one who sits, stakes, offers or takes, or the caster who
    calls, throws or passes; None where nobody is (no caster yet, no such bet)."""
    form = form_of(action)
    return table.caster if form.acting_for is None else form.acting_for(action, table)


def check_actor(table: Table, action: TableAction, by: Actor, money: MoneyStyle = MoneyStyle.EXACT) -> None:
    """Refuse ``action`` unless ``by`` may take it at ``table`` at all: a player acts only for himself, only
    the caster calls, throws and passes, a late bet is the caster's to accept; the referee enters anything.
    Sums in a refusal are in ``money``, where that is exact."""
    if by.is_referee:
        return
    assert by.name is not None

    def refused(why: str) -> ActorError:
        # The action's text is written only for a refusal: most actions pass.
        return ActorError(
            f"illegal {action_text(action, command_style(money))} by {by} at the {table}: {why}"
        )

    if isinstance(action, Sit):
        if " ".join(action.name.split()) != by.name:
            raise refused("a player sits only himself down; the referee seats others")
        return
    if not table.seated(by.name):
        seated = ", ".join(p.name for p in table.players) or "nobody"
        raise refused(f"{by} is not at the table (seated: {seated})")
    owner = acting_for(table, action)
    if isinstance(action, Stake) and action.consent and needs_consent(table):
        if by.name != table.caster:
            raise refused(
                "a bet laid once the chance is set is the caster's to accept; "
                f"{table.caster}, the caster, enters it with consent"
            )
        return
    if owner is None or owner == by.name:
        return
    raise refused(form_of(action).rule.format(owner=owner))


def needs_consent(table: Table) -> bool:
    """Whether a stake laid now needs the caster's consent: once the chance is set, where all bet."""
    return table.stakes is StakeArrangement.ALL_AGAINST_CASTER and table.round.phase is Phase.CHANCE


def check_spectator(game: int, text: str, holder: SeatKey | None) -> SeatKey:
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


def check_seater(by: SeatKey | None, *, bot: bool) -> None:
    """A player sits himself down (``by`` None); only the host seats others, bots included."""
    if by is not None and not by.is_host:
        raise ActorError(f"illegal sit by {by.player}: {by.player} is seated; only the host seats others")
    if bot and by is None:
        raise ActorError("illegal sit of a bot: only the table's host seats a bot")


def check_closer(game: int, by: SeatKey | None) -> None:
    """Only a table's host closes it."""
    if by is None or not by.is_host:
        raise ActorError(f"illegal close of table {game}: only its host closes a table")


def check_seeder(game: int, hand: int, by: SeatKey | None) -> str:
    """Only a seated player sets a seed, his own: the player."""
    if by is None or by.is_host or by.player is None:
        raise ActorError(
            f"illegal seed for hand {hand} at table {game}: only a seated player sets a seed, his own"
        )
    return by.player


def names_stake_against_bank(table: Table, player: str | None) -> bool:
    """Whether ``player`` is the caster under the bank arrangement, who names his own stake and has the
    bank (a bot at the table) cover it, rather than staking against himself."""
    return player is not None and table.stakes is StakeArrangement.BANK and player == table.caster


def keeps_bank(table: Table, player: str) -> bool:
    """Whether someone at the table but ``player`` could keep the bank against him: a bot."""
    return any(p.bot is not None for p in table.players if p.name != player)
