"""Hostile sizes: verifying an export takes time linear in its size (many throws, players, newcomers
and hands)."""

from __future__ import annotations

import gc
import time
from collections.abc import Callable
from typing import Any

from tests.table.fair.verify_helpers import SEEDS, Export, _actor

from hazard.table.fair.commit_reveal import commitment, fair_throw
from hazard.table.fair.verify import Verification, verify_game

# --- hostile sizes: time linear in the file's size ----------------------------------------------------------

GROWTH = 4
"""Each export below is verified at a size and at ``GROWTH`` times it: a linear verifier takes about
``GROWTH`` times as long, a quadratic one ``GROWTH**2``."""
LINEAR_RATIO = 8.0
"""The most the larger export may take over the smaller (the geometric mean of 4 and 16). With a scan of a
list per entry (as before issue 19) these exports took 139 s (150,000 throws), 205 s (100,000 players) and
233 s (20,000 hands) where a linear verifier takes about 1 s: at the sizes below such a verifier's ratio is
13 to 15, a linear one's about 4. Paired runs compared in the process's own CPU time, the best of
``REPEATS`` each, interleaved, hold on a slow or loaded machine where a limit in seconds did not."""
REPEATS = 3


def _line(entries: list[dict[str, Any]], entry: dict[str, Any], by: str | None = None) -> int:
    seq = len(entries) + 1
    entries.append({"seq": seq, "actor": _actor(by), "entry": entry})
    return seq


def _cpu_time(data: Export) -> tuple[Verification, float]:
    """The verification, and the CPU time it took (the garbage collector held off: its passes over the whole
    heap, as large as the suite has made it, would count the heap, not the verifier)."""
    gc.disable()
    try:
        began = time.process_time()
        result = verify_game(data)
        return result, time.process_time() - began
    finally:
        gc.enable()


def _verified_in_linear_time(export: Callable[[int], Export], small: int) -> Verification:
    """``export(small)`` and ``export(GROWTH * small)`` verified ``REPEATS`` times each, in turn; asserts the
    larger took at most ``LINEAR_RATIO`` times the smaller's best, and returns the larger's verification."""
    little, large = export(small), export(GROWTH * small)
    best = {"little": float("inf"), "large": float("inf")}
    result = None
    for _ in range(REPEATS):
        _, took = _cpu_time(little)
        best["little"] = min(best["little"], took)
        result, took = _cpu_time(large)
        best["large"] = min(best["large"], took)
    assert result is not None
    ratio = best["large"] / max(best["little"], 1e-6)
    assert ratio < LINEAR_RATIO, f"{GROWTH} times the size took {ratio:.1f} times as long: {best}"
    return result


def _throws_export(count: int) -> Export:
    """One open hand of ``count + 1`` throws, its last missing from the hand's list."""
    entries: list[dict[str, Any]] = []
    _line(entries, {"type": "commit", "hand": 1, "commitment": commitment(SEEDS[0])})
    _line(entries, {"type": "sit", "name": "Ann"}, "Ann")
    _line(entries, {"type": "client-seed", "player": "Ann", "seed": "s"}, "Ann")
    _line(entries, {"type": "hand-opened", "hand": 1, "client_seed": "s"})
    throws = [
        {"entry": _line(entries, {"type": "throw", "roll": "3-4"}, "Ann"), "nonce": n, "roll": "3-4"}
        for n in range(count + 1)
    ]
    hand = {"hand": 1, "commitment": commitment(SEEDS[0]), "server_seed": None, "client_seed": "s"}
    return {
        "game": {"dice": "fair"},
        "entries": entries,
        "hands": [{**hand, "throws": throws[:-1]}],
        "state": {"players": [{"name": "Ann"}]},
    }


def test_a_hand_missing_its_last_of_many_throws_is_found_in_linear_time() -> None:
    small = 5_000
    result = _verified_in_linear_time(_throws_export, small)
    last = GROWTH * small + 5  # after the commitment, the sitting, the seed and the opening
    assert result.problem == f"hand 1: throw entry {last} is not among the hand's throws"


def _players_export(count: int) -> Export:
    entries: list[dict[str, Any]] = []
    _line(entries, {"type": "commit", "hand": 1, "commitment": commitment(SEEDS[0])})
    names = [f"p{i}" for i in range(count)]
    for name in names:
        _line(entries, {"type": "sit", "name": name}, name)
        _line(entries, {"type": "client-seed", "player": name, "seed": "x"}, name)
    client_seed = ",".join("x" for _ in names)
    _line(entries, {"type": "hand-opened", "hand": 1, "client_seed": client_seed})
    roll = str(fair_throw(SEEDS[0], client_seed, 0))
    seq = _line(entries, {"type": "throw", "roll": roll}, names[0])
    hand = {"hand": 1, "commitment": commitment(SEEDS[0]), "server_seed": None, "client_seed": client_seed}
    return {
        "game": {"dice": "fair"},
        "entries": entries,
        "hands": [{**hand, "throws": [{"entry": seq, "nonce": 0, "roll": roll}]}],
        # The seat order is the order of sitting (each newcomer at the caster p0's right, last from him): read
        # from the entries, it is checked against the state's once, at the end.
        "state": {"players": [{"name": name} for name in names]},
    }


def test_many_seated_players_verify_in_linear_time() -> None:
    result = _verified_in_linear_time(_players_export, 2_500)
    assert result.ok, result.problem
    assert result.unrevealed == (1,)


def _newcomers_export(count: int) -> Export:
    """Ann and Bob sit, the dice pass to Bob, last in the seat order, and ``count`` newcomers each sit at his
    right: each newcomer's place, found by a scan of the seat order, is at its far end."""
    entries: list[dict[str, Any]] = []
    committed = commitment(SEEDS[0])
    _line(entries, {"type": "commit", "hand": 1, "commitment": committed})
    for name in ("Ann", "Bob"):
        _line(entries, {"type": "sit", "name": name}, name)
    _line(entries, {"type": "reveal", "hand": 1, "server_seed": SEEDS[0].hex()})
    _line(entries, {"type": "commit", "hand": 2, "commitment": committed})
    names = [f"p{i}" for i in range(count)]
    for name in names:
        _line(entries, {"type": "sit", "name": name}, name)
    hand = {"commitment": committed, "client_seed": None, "throws": []}
    return {
        "game": {"dice": "fair"},
        "entries": entries,
        "hands": [
            {**hand, "hand": 1, "server_seed": SEEDS[0].hex()},
            {**hand, "hand": 2, "server_seed": None},
        ],
        "state": {"players": [{"name": name} for name in ("Ann", *names, "Bob")]},
    }


def test_many_newcomers_at_the_casters_right_verify_in_linear_time() -> None:
    result = _verified_in_linear_time(_newcomers_export, 5_000)
    assert result.ok, result.problem
    assert result.unrevealed == (2,)


def _hands_export(count: int) -> Export:
    entries: list[dict[str, Any]] = []
    hands: list[dict[str, Any]] = []
    committed = commitment(SEEDS[0])
    _line(entries, {"type": "sit", "name": "Ann"}, "Ann")
    for number in range(1, count + 1):
        seed = f"s{number}"
        _line(entries, {"type": "commit", "hand": number, "commitment": committed})
        _line(entries, {"type": "client-seed", "player": "Ann", "seed": seed}, "Ann")
        _line(entries, {"type": "hand-opened", "hand": number, "client_seed": seed})
        roll = str(fair_throw(SEEDS[0], seed, 0))
        seq = _line(entries, {"type": "throw", "roll": roll}, "Ann")
        _line(entries, {"type": "reveal", "hand": number, "server_seed": SEEDS[0].hex()})
        hands.append(
            {
                "hand": number,
                "commitment": committed,
                "server_seed": SEEDS[0].hex(),
                "client_seed": seed,
                "throws": [{"entry": seq, "nonce": 0, "roll": roll}],
            }
        )
    return {
        "game": {"dice": "fair"},
        "entries": entries,
        "hands": hands,
        "state": {"players": [{"name": "Ann"}]},
    }


def test_many_hands_each_after_a_new_seed_verify_in_linear_time() -> None:
    small = 500
    result = _verified_in_linear_time(_hands_export, small)
    assert result.ok, result.problem
    assert (result.hands, result.throws) == (GROWTH * small, GROWTH * small)
    assert [tuple(seed.player for seed in hand.chosen) for hand in result.checked[:2]] == [("Ann",), ("Ann",)]
