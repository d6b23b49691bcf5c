"""What a verification of a game of fair dice found (:func:`hazard.table.fair.verify.verify_game`): each hand
that passed its checks, in the line a player compares with what he was shown, with a warning where no seed was
set after the hand's commitment, and the verdict in one line."""

from __future__ import annotations

from dataclasses import dataclass

from hazard.core.errors import quoted
from hazard.table.fair.dice import DiceKind
from hazard.table.fair.seed_order import FreshSeed

__all__ = ["HandCheck", "Verification", "plural"]

_SEED_SHOWN = 200
"""The most characters of a client seed a hand's line quotes (a seed of ten players is about 650)."""


def plural(count: int, word: str) -> str:
    return f"{count} {word}{'' if count == 1 else 's'}"


@dataclass(frozen=True, slots=True)
class HandCheck:
    """One hand that passed every check: what a player compares with what he was shown at the table."""

    number: int
    commitment: str
    revealed: bool
    """Whether its server seed is revealed, and so its throws recomputed."""
    client_seed: str | None
    """None where the hand has no throw yet."""
    throws: int
    chosen: tuple[FreshSeed, ...] = ()
    """The parts of its client seed set after the hand's commitment, each with its entry and who set it
    (never one the dice drew: that fails the check): what keeps the server from having chosen its seed, or
    its throws, to suit itself (``docs/fairness.md``). Empty where every part was known to the server when
    it committed."""

    def line(self) -> str:
        """The hand in one line: ``hand 1: commitment 630d...; ...; 4 throws verified``."""
        seed = "no client seed yet" if self.client_seed is None else f"client seed {self._seed()}"
        if self.client_seed is not None:
            seed += (
                f" (seeds set after the commitment: {', '.join(map(str, self.chosen))})"
                if self.chosen
                else " (no seed set after the commitment)"
            )
        if self.revealed:
            return (
                f"hand {self.number}: commitment {self.commitment}; server seed revealed, matching it; "
                f"{seed}; {plural(self.throws, 'throw')} verified"
            )
        return (
            f"hand {self.number}: commitment {self.commitment}; server seed not yet revealed; {seed}; "
            f"{plural(self.throws, 'throw') + ' to check when it ends' if self.throws else 'no throw yet'}"
        )

    def warning(self) -> str | None:
        """Where the hand's dice were thrown and no player set a seed after its commitment, the plain warning
        that the proof then rests on the server alone; else None."""
        if self.client_seed is None or self.chosen:
            return None
        return (
            f"hand {self.number}: no player set a seed after the server's commitment: the server could have "
            "chosen these throws"
        )

    def _seed(self) -> str:
        assert self.client_seed is not None
        return quoted(self.client_seed, limit=_SEED_SHOWN)


@dataclass(frozen=True, slots=True)
class Verification:
    """What :func:`verify_game` found: how much it verified, what it cannot check yet, the first mismatch."""

    throws: int
    """Throws recomputed from their revealed hand's seeds and found equal to the record."""
    hands: int
    """Hands verified: revealed, and every one of their throws matching."""
    unrevealed: tuple[int, ...] = ()
    """Hands whose server seed is not yet revealed (at most the last, of a game still open): pending, listed,
    not passed."""
    problem: str | None = None
    """The first mismatch found, in words; None where everything checked matches."""
    checked: tuple[HandCheck, ...] = ()
    """Each hand that passed its checks, in order (those before the problem, where there is one)."""
    game: int | None = None
    """The game's number, where the export gives one."""

    @property
    def warnings(self) -> tuple[str, ...]:
        """Each checked hand's warning (:meth:`HandCheck.warning`), in order."""
        return tuple(w for w in (hand.warning() for hand in self.checked) if w is not None)

    def heading(self) -> str:
        """What was verified, in one line: ``game 3: provably fair dice``."""
        game = "the game" if self.game is None else f"game {self.game}"
        return f"{game}: {DiceKind.FAIR.fairness} dice"

    @property
    def ok(self) -> bool:
        """Whether nothing failed (unrevealed hands do not fail: they are not checked yet)."""
        return self.problem is None

    def text(self) -> str:
        """The verdict in one line: ``all 12 throws of 3 hands verified``, with each unrevealed hand after it,
        or the problem.

        >>> Verification(throws=5, hands=2, unrevealed=(3,), checked=(HandCheck(3, "ab", False, "x", 1),)).text()
        'all 5 throws of 2 hands verified; hand 3 pending, not yet revealed (its 1 throw cannot be checked until it ends)'
        """  # noqa: E501
        if self.problem is not None:
            return self.problem
        line = f"all {plural(self.throws, 'throw')} of {plural(self.hands, 'hand')} verified"
        waiting = {hand.number: hand.throws for hand in self.checked if not hand.revealed}
        for number in self.unrevealed:
            count = waiting.get(number, 0)
            why = f"its {plural(count, 'throw')} cannot be checked until it ends" if count else "no throw yet"
            line += f"; hand {number} pending, not yet revealed ({why})"
        return line
