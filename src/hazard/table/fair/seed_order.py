"""When each seed of a game of fair dice was set, checked: what keeps the server from choosing the throws.

A hand's throws follow from its server seed, committed before the hand, and its client seed, fixed at its
first throw. The commitment stops the server from changing its seed; only the order of the seeds stops it
from *choosing* one. So :mod:`hazard.table.fair.verify` checks, hand by hand, with :class:`SeedOrder`:

- no seed the dice drew (for a bot, or a player who had none) lies between the hand's commitment and its end:
  the dice draw seeds only before a commitment, since a seed the server draws once it knows its committed
  seed (and the players' seeds) is one it could try again and again until the throws suited it;
- no seed at all lies between the hand's first throw and its end: the table refuses one then;
- no seed holds the ``,`` that joins the seeds into a hand's client seed (:func:`seed_text_problem`);

and names the seeds set after the commitment (:class:`FreshSeed`): those the server could not know when it
committed. Each check gives the problem in words, naming the entry, or None.
"""

from __future__ import annotations

import bisect
from collections.abc import Sequence
from dataclasses import dataclass

from hazard.core.errors import InvalidError, quoted
from hazard.table.fair.commit_reveal import SEED_JOIN, check_client_seed

__all__ = ["DICE", "FreshSeed", "SeedEntry", "SeedOrder", "seed_text_problem", "shown"]

DICE = "the dice"
"""Who entered a seed the dice drew, as :attr:`SeedEntry.by` says it."""


def shown(text: str) -> str:
    """A name or entry type from an export as a message shows it: as it is where it is a plain short word,
    else quoted (an export may hold anything: a line break, a megabyte)."""
    plain = text.isprintable() and 0 < len(text) <= 40 and text == text.strip()
    return text if plain else quoted(text)


@dataclass(frozen=True, slots=True)
class SeedEntry:
    """A ``client-seed`` entry: its number, whose seed it sets, the seed, and who entered it (the player's
    name, ``the referee``, or :data:`DICE`)."""

    seq: int
    player: str
    seed: str
    by: str


@dataclass(frozen=True, slots=True)
class FreshSeed:
    """A part of a hand's client seed set after the hand's commitment: the player's, at that entry, by him
    (or, where ``by`` names another, by the referee for him)."""

    player: str
    entry: int
    by: str | None = None
    """Who entered it where it is not the player himself (the referee); None where it is he."""

    def __str__(self) -> str:
        by = "" if self.by is None else f", by {shown(self.by)}"
        return f"{shown(self.player)} at entry {self.entry}{by}"


def seed_text_problem(seeds: Sequence[SeedEntry]) -> str | None:
    """The first seed the table would refuse, in words; above all one holding the ``,`` that joins the
    players' seeds into a hand's client seed (which could then not be split back into them)."""
    for entry in seeds:
        try:
            check_client_seed(entry.seed)
        except InvalidError as error:
            why = (
                f"it holds a {SEED_JOIN!r}, which joins the players' seeds, so a hand's client seed made "
                "with it cannot be split back into them"
                if SEED_JOIN in entry.seed
                else str(error)
            )
            return (
                f"entry {entry.seq} sets {shown(entry.player)}'s seed to {quoted(entry.seed)}, which the "
                f"table refuses: {why}"
            )
    return None


class SeedOrder:
    """A game's ``client-seed`` entries in order (their numbers rise), each hand's found by bisection: the
    whole game is looked at once, whatever the number of hands."""

    def __init__(self, seeds: Sequence[SeedEntry]) -> None:
        self.seeds = list(seeds)
        self.numbers = [entry.seq for entry in self.seeds]

    def problem(self, hand: int, committed: int, opened: int | None, end: int | None) -> str | None:
        """The first seed entry of hand ``hand`` that is not a player's own set after its commitment (entry
        ``committed``) and before its first throw (``opened``, its ``hand-opened`` entry, None where none),
        up to its end (its reveal, None where it is not revealed), in words; None where there is none."""
        first = bisect.bisect_right(self.numbers, committed)
        stop = len(self.numbers) if end is None else bisect.bisect_left(self.numbers, end)
        for entry in self.seeds[first:stop]:
            if opened is not None and entry.seq > opened:
                return (
                    f"hand {hand}: entry {entry.seq} sets {shown(entry.player)}'s seed after the hand's "
                    f"first throw (its client seed was fixed at entry {opened}): the table refuses a seed "
                    "until the dice pass"
                )
            if entry.by == DICE:
                return (
                    f"hand {hand}: entry {entry.seq} is a seed the dice drew for {shown(entry.player)} after "
                    f"the hand's commitment (entry {committed}): the server could have chosen it to suit its "
                    "committed seed (the dice draw seeds only before a commitment)"
                )
        return None
