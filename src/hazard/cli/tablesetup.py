"""Setting up a game of ``hazard play`` or ``hazard referee``: the bots, players, rules and dice its options
name, each checked before the record is opened (a bad option leaves no trace in it)."""

from __future__ import annotations

import enum
from collections.abc import Mapping
from fractions import Fraction

from hazard.cli.app import refuse_with
from hazard.cli.record import game_number
from hazard.cli.screen import Screen
from hazard.core.errors import IllegalError, InvalidError, quoted
from hazard.core.paytable import Paytable
from hazard.core.rules import Ruleset
from hazard.core.rulesets import DEFAULT_RULESET, find_ruleset
from hazard.table import BotPolicy, DiceKind, Session, Sit, check_name, parse_money, table_paytable

__all__ = [
    "BOT_NAMES",
    "DEFAULT_BANKROLL",
    "DEFAULT_BOTS",
    "DEFAULT_NAME",
    "MAX_BOTS",
    "SEEDS",
    "PlayDice",
    "dice_kind",
    "game_to_resume",
    "parse_bots",
    "parse_player",
    "refuse_setup_with_resume",
    "resumable",
    "table_rules",
]

DEFAULT_NAME = "Ann"
DEFAULT_BANKROLL = "100"
DEFAULT_BOTS = "2"
BOT_NAMES = ("Bob", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jon")
"""Names for bots given by number (``--bots 3``), in seating order; one that is yours is skipped."""
MAX_BOTS = len(BOT_NAMES)
SEEDS = "a whole number from 0 to 2**63 - 1"
"""The seeds seeded dice take (:class:`hazard.table.SeededDice`), as an error says it."""


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


def parse_player(spec: str) -> Sit:
    """A player of ``--player NAME:BANKROLL``."""
    name, colon, money = spec.rpartition(":")
    if not colon or not name.strip():
        raise InvalidError(f"invalid --player {quoted(spec)}: expected NAME:BANKROLL, e.g. Ann:100")
    name = check_name(name)
    return Sit(name, parse_money(money, what=f"bankroll for {name}", allow_zero=True))


def game_to_resume(game: str | None, resume: bool) -> int | None:
    """The game numbered to resume, if any: a number is given only with ``--resume``."""
    number = None if game is None else game_number(game)
    if number is not None and not resume:
        raise InvalidError(f"invalid game {number}: a game number is given only with --resume")
    return number


def refuse_setup_with_resume(given: Mapping[str, object]) -> None:
    """Refuse a set-up option given with ``--resume``."""
    refuse_with("--resume", given, "a resumed game keeps the setup in its record")


class PlayDice(enum.Enum):
    """The dice ``hazard play`` may throw."""

    FAIR = "fair"
    SECURE = "secure"
    SEEDED = "seeded"


def table_rules(screen: Screen, ruleset: str | None, paytable: str | None) -> tuple[Ruleset, Paytable]:
    """The ruleset and paytable of a new table of ``hazard play`` or ``hazard referee`` (the terminal's
    names: built-in ids or files' paths), saying so where its stakes settle at even money."""
    found = find_ruleset(ruleset or DEFAULT_RULESET, paths=True)
    chosen, even = table_paytable(found, paytable, paths=True)
    if even:
        screen.say(
            f"{found.id} has no paytable of its own: stakes settle at even money (choose one with --paytable)"
        )
    return found, chosen


def dice_kind(dice: PlayDice | None, seed: int | None) -> DiceKind:
    """The dice of ``--dice`` and ``--seed``: seeded with a seed, fair by default."""
    if dice is None:
        return DiceKind.FAIR if seed is None else DiceKind.SEEDED
    if (dice is PlayDice.SEEDED) != (seed is not None):
        if seed is None:
            raise InvalidError("invalid option --dice seeded without --seed: seeded dice need a seed")
        raise InvalidError(f"invalid option --seed with --dice {dice.value}: only seeded dice take a seed")
    return DiceKind(dice.value)


def resumable(session: Session) -> Session:
    """A resumed game, unless it is closed (:mod:`hazard.table.rules.closing`), which nothing carries on."""
    if session.closed:
        raise IllegalError(
            f"illegal resume of game {session.game}: it is closed, and nothing more may be done; its record "
            f"is kept (hazard record show {session.game})"
        )
    return session
