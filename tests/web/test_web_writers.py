"""The hub's writer: the writes waiting are committed together, each answered only once its batch has
committed, each refused on its own, and all of a batch answered as lost when its commit fails."""

from __future__ import annotations

import asyncio
import threading
from fractions import Fraction

from hazard.core.rules import StakeArrangement
from hazard.core.rulesets import find_ruleset
from hazard.table import (
    Actor,
    DiceKind,
    GameKind,
    GameStore,
    IllegalError,
    RecordUnavailable,
    Sit,
    table_paytable,
)
from hazard.web.writers import MAX_BATCH, Uncommitted, Writer

RULES = find_ruleset("wikipedia")
ANN = Actor.player("Ann")


def new_game(store: GameStore) -> int:
    return store.create(
        ruleset=RULES,
        paytable=table_paytable(RULES)[0],
        stakes=StakeArrangement.BANK,
        dice=DiceKind.TYPED,
        kind=GameKind.WEB,
    ).id


def test_the_writes_waiting_are_committed_together_and_answered_after(store: GameStore) -> None:
    games = [new_game(store) for _ in range(MAX_BATCH + 6)]
    reader = GameStore.open(store.url)  # another connection: it sees what is committed, no more
    gate = threading.Event()
    committed_when_written: list[int] = []
    committed_when_answered: list[int] = []

    def hold() -> None:
        gate.wait(timeout=10)  # the first job holds the writer while the others queue up

    def sit(game: int) -> int:
        store.append(game, ANN, Sit("Ann", Fraction(5)), seq=1)
        committed_when_written.append(sum(reader.heads(games).values()))
        return game

    async def main() -> None:
        writer = Writer(store)
        first = asyncio.ensure_future(writer.run(hold))
        await asyncio.sleep(0.05)
        sits = [asyncio.ensure_future(writer.run(sit, game)) for game in games]
        await asyncio.sleep(0.05)
        gate.set()
        await first
        for done in asyncio.as_completed(sits):
            game = await done
            committed_when_answered.append(reader.heads([game])[game])
        writer.stop()

    asyncio.run(asyncio.wait_for(main(), timeout=30))
    reader.close()
    # the first MAX_BATCH writes were one transaction, the rest the next
    assert committed_when_written == [0] * MAX_BATCH + [MAX_BATCH] * (len(games) - MAX_BATCH)
    assert committed_when_answered == [1] * len(games)  # nothing was answered before it was committed


def test_a_refused_job_is_answered_alone(store: GameStore) -> None:
    game = new_game(store)

    def refused() -> None:
        raise IllegalError("illegal call 13: expected a main of 5 to 9")

    def sit() -> int:
        return store.append(game, ANN, Sit("Ann", Fraction(5)), seq=1).seq

    async def main() -> tuple[BaseException | int, ...]:
        writer = Writer(store)
        try:
            return tuple(await asyncio.gather(writer.run(refused), writer.run(sit), return_exceptions=True))
        finally:
            writer.stop()

    bad, seq = asyncio.run(asyncio.wait_for(main(), timeout=30))
    assert isinstance(bad, IllegalError)
    assert "call 13" in str(bad)
    assert seq == 1
    assert store.heads([game]) == {game: 1}


def test_every_job_of_a_batch_that_does_not_commit_is_answered_lost(store: GameStore) -> None:
    game, other = new_game(store), new_game(store)
    store.append(game, ANN, Sit("Ann", Fraction(5)), seq=1, request="taken")
    gate = threading.Event()

    def hold() -> None:
        gate.wait(timeout=10)

    def sit(on: int, seq: int, request: str | None = None) -> int:
        return store.append(on, ANN, Sit("Ann", Fraction(5)), seq=seq, request=request).seq

    async def main() -> list[BaseException | int]:
        writer = Writer(store)
        try:
            first = asyncio.ensure_future(writer.run(hold))
            await asyncio.sleep(0.05)
            jobs = [writer.run(sit, other, 1), writer.run(sit, game, 2, "taken")]
            batch = asyncio.gather(*jobs, return_exceptions=True)
            await asyncio.sleep(0.05)
            gate.set()
            await first
            return list(await batch)
        finally:
            writer.stop()

    answers = asyncio.run(asyncio.wait_for(main(), timeout=30))
    assert all(isinstance(answer, Uncommitted) for answer in answers), answers
    assert all(isinstance(answer, RecordUnavailable) for answer in answers)  # answered 503: send again
    assert "send it again" in str(answers[0])
    assert store.heads([game, other]) == {game: 1, other: 0}


def test_stopping_finishes_the_jobs_given(store: GameStore) -> None:
    games = [new_game(store) for _ in range(5)]

    async def main() -> list[int]:
        writer = Writer(store)
        sit = Sit("Ann", Fraction(5))
        jobs = [asyncio.ensure_future(writer.run(store.append, game, ANN, sit)) for game in games]
        await asyncio.sleep(0)
        await asyncio.to_thread(writer.stop)
        return [(await job).seq for job in jobs]

    assert asyncio.run(asyncio.wait_for(main(), timeout=30)) == [1] * 5
    assert store.heads(games) == dict.fromkeys(games, 1)
