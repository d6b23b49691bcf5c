"""``hazard drill``: the side-bet drill in the terminal, each proposition against a clock.

Each offer is printed with its stated odds and the seconds it gives; a line ``t`` (take) or ``r`` (refuse)
answers it, and no answer before the time is up refuses it. The clock is a deadline on reading standard
input, so the drill runs the same at a terminal (where the prompt counts the seconds down) and with its
answers piped in. The drill, its values and
its score are :mod:`hazard.analysis.drill`'s; the best scores, kept by name, the record's
(:func:`hazard.table.keep_drill_score`).
"""

from __future__ import annotations

import math
import os
import secrets
import select
import sys
import time
from collections.abc import Callable
from fractions import Fraction
from typing import Annotated, TextIO

import typer

from hazard.analysis.drill import MAX_ROUNDS, MAX_SECONDS, MAX_SEED, MIN_SECONDS, Answer, Drill, Judged, Offer
from hazard.cli.app import app, console, decimal_number, whole_number
from hazard.cli.record import DbOption
from hazard.core.errors import InvalidError
from hazard.table import GameStore, best_drill_scores, check_name, keep_drill_score

__all__ = ["AnswerReader", "drill", "value_text"]

_ANSWERS = {"t": Answer.TAKE, "take": Answer.TAKE, "r": Answer.REFUSE, "refuse": Answer.REFUSE}
_MAX_LINE = 1000
"""The most characters of an answer read; a longer line is no answer."""


def value_text(value: Fraction) -> str:
    """A value per unit staked: signed to four places, with the exact fraction where it is short.

    >>> value_text(Fraction(1, 16)), value_text(Fraction(0)), value_text(Fraction(-4711, 129600))
    ('+0.0625 (+1/16)', '0', '−0.0364 (−4711/129600)')
    """
    if value == 0:
        return "0"
    sign = "+" if value > 0 else "\N{MINUS SIGN}"
    exact = f"{abs(value.numerator)}/{value.denominator}" if value.denominator != 1 else str(abs(value))
    shown = f"{sign}{abs(float(value)):.4f}"
    return f"{shown} ({sign}{exact})" if len(exact) <= 13 else shown


class AnswerReader:
    """Lines of standard input read against a deadline, from its file descriptor (not Python's buffer, so
    that waiting on it sees every line typed or piped in)."""

    def __init__(self, stream: TextIO) -> None:
        try:
            self._fd: int | None = stream.fileno()
        except (AttributeError, OSError, ValueError):  # a stream of no file (a test's): read without a clock
            self._fd = None
        self._stream = stream
        self._buffer = b""
        self.ended = False
        self.tty = self._fd is not None and os.isatty(self._fd)

    def line(self, timeout: float, tick: Callable[[float], None] | None = None) -> str | None:
        """The next line, or None if none comes within ``timeout`` seconds (or the input has ended); at a
        terminal, ``tick`` is called with the seconds left at each whole second while nothing has come."""
        if self._fd is None:
            typed = self._stream.readline(_MAX_LINE)
            self.ended = not typed.endswith("\n")
            return typed.rstrip("\n") if typed else None
        deadline = time.monotonic() + timeout
        while b"\n" not in self._buffer and not self.ended:
            left = deadline - time.monotonic()
            if left <= 0:
                return None
            wait = min(left, left - math.floor(left - 1e-9)) if tick is not None and self.tty else left
            if not select.select([self._fd], [], [], wait)[0]:
                if wait >= left:
                    return None
                if tick is not None:
                    tick(deadline - time.monotonic())
                continue
            chunk = os.read(self._fd, 4096)
            self._buffer += chunk
            if b"\n" not in self._buffer:  # a line with no end: only its last part is kept
                self._buffer = self._buffer[-_MAX_LINE * 4 :]
            self.ended = not chunk
        if b"\n" not in self._buffer:
            rest, self._buffer = self._buffer, b""
            return rest.decode("utf-8", "replace") if rest else None
        line, _, self._buffer = self._buffer.partition(b"\n")
        return line.decode("utf-8", "replace")[:_MAX_LINE]


def _countdown(left: float) -> None:
    # Redrawn over the prompt at a terminal; a key typed on it already is still read.
    sys.stdout.write(f"\r{max(0, round(left)):>3} s · take or refuse [t/r]> ")
    sys.stdout.flush()


def _ask(reader: AnswerReader, offer: Offer) -> tuple[Answer, bool]:
    """The answer to ``offer`` and whether the time ran out first."""
    out = console()
    deadline = time.monotonic() + offer.seconds
    while True:
        out.print("take or refuse \\[t/r]> ", end="", markup=True, highlight=False)
        line = reader.line(deadline - time.monotonic(), tick=_countdown)
        if line is None:
            out.print("")
            out.print("time! no answer in time refuses the bet" if not reader.ended else "input ended")
            return Answer.REFUSE, True
        if not reader.tty:  # a terminal echoes what is typed; piped answers are shown as read
            out.print(line, markup=False, highlight=False)
        if time.monotonic() > deadline:
            out.print("too late: an answer after the time refuses the bet")
            return Answer.REFUSE, True
        answer = _ANSWERS.get(line.strip().lower())
        if answer is not None:
            return answer, False
        out.print(f"answer t (take) or r (refuse), within {max(0.0, deadline - time.monotonic()):.0f} s")


def _offer_view(offer: Offer, drill: Drill) -> str:
    where = "one of 002's even-money bets" if offer.source == "002" else "a proposition"
    pays = f"staking {offer.odds.denominator} wins {offer.odds.numerator}"
    return (
        f"\n[bold]Round {offer.round} of {drill.rounds}[/bold] · level {offer.level} · {offer.seconds:g} s\n"
        f"  At [bold]{offer.stated}[/bold]: [bold]{offer.proposition}[/bold]  ({where}; {pays} if it comes)"
    )


def _judged_view(judged: Judged, score: Fraction) -> str:
    offer = judged.offer
    mark = "[green]right[/green]" if judged.right else "[red]wrong[/red]"
    return (
        f"  {mark}: {'take' if offer.right is Answer.TAKE else 'refuse'}. Fair odds {offer.fair_odds} "
        f"(P = {offer.analysis.probability}); taking is worth {value_text(offer.value)} a unit.\n"
        f"  You {'took' if judged.answer is Answer.TAKE else 'refused'}: {value_text(judged.points)}"
        f" (missed {value_text(judged.missed)}). Score {value_text(score)}"
    )


@app.command()
def drill(
    seed: Annotated[
        str | None, typer.Option("--seed", "-s", help="The seed: the same seed, the same offers.")
    ] = None,
    rounds: Annotated[str, typer.Option("--rounds", "-n", help=f"Propositions, 1 to {MAX_ROUNDS}.")] = "10",
    seconds: Annotated[
        str, typer.Option("--seconds", help="Seconds to answer at the first level (less at each level up).")
    ] = "10",
    name: Annotated[
        str | None,
        typer.Option("--name", help="Your name: your score is kept in the record, your best shown."),
    ] = None,
    db: DbOption = None,
) -> None:
    """The side-bet drill: take or refuse propositions at stated odds against the clock, scored exactly.

    Each decision scores its exact value per unit staked: taking a bet scores its expected gain at the stated
    odds, refusing it (or no answer in time) scores 0. The drill grows harder as the score rises.
    """
    seed_number = (
        secrets.randbelow(10**9) if seed is None else whole_number(seed, what="--seed", high=MAX_SEED)
    )
    count = whole_number(rounds, what="--rounds", low=1, high=MAX_ROUNDS)
    time_given = decimal_number(seconds, what="--seconds")
    if not MIN_SECONDS <= time_given <= MAX_SECONDS:
        raise InvalidError(f"invalid --seconds {seconds!r}: expected {MIN_SECONDS:g} to {MAX_SECONDS:g}")
    player = None if name is None else check_name(name)
    store = None if player is None else GameStore.open(db)  # opened first: a bad record is refused at once
    try:
        _play(Drill(seed_number, count, time_given), player, store)
    finally:
        if store is not None:
            store.close()


def _play(drill: Drill, player: str | None, store: GameStore | None) -> None:
    out = console()
    out.print(
        f"The side-bet drill: {drill.rounds} propositions, seed {drill.seed}. Answer t to take a bet "
        "(back it at the odds stated), r to refuse it. Each scores its exact value a unit staked.",
        highlight=False,
    )
    reader = AnswerReader(sys.stdin)
    while not drill.over:
        offer = drill.offer()
        out.print(_offer_view(offer, drill), highlight=False)
        answer, late = _ask(reader, offer)
        drill, judged = drill.answer(answer, timed_out=late)
        out.print(_judged_view(judged, drill.score), highlight=False)
        if reader.ended and not drill.over:
            out.print(f"The drill stops at round {drill.round - 1}: the input has ended; nothing is kept.")
            return
    right = sum(j.right for j in drill.judged)
    out.print(
        f"\n[bold]Score {value_text(drill.score)}[/bold] (the best possible {value_text(drill.best)}); "
        f"{right} of {drill.rounds} right. Seed {drill.seed}.",
        highlight=False,
    )
    if player is None or store is None:
        return
    keep_drill_score(store, player, drill.score, drill.rounds, drill.seed)
    out.print(f"Kept for {player}. {player}'s best:", highlight=False)
    for place, kept in enumerate(best_drill_scores(store, player), start=1):
        out.print(f"  {place}. {value_text(kept.score)}  ({kept.rounds} rounds, seed {kept.seed}, {kept.at})")
