"""Malformed exports are refused by name, not verified; fuzzed exports verify or are refused."""

from __future__ import annotations

import copy
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from tests.commandline import fuzz
from tests.table.fair.verify_helpers import Export, entry, fair_export

from hazard.core.errors import InvalidError
from hazard.table.fair.verify import Verification, verify_game

# --- malformed input: refused, not verified --------------------------------------------------------------


def _set(path: tuple[Any, ...], value: object) -> Callable[[Export], None]:
    def change(data: Export) -> None:
        target: Any = data
        for key in path[:-1]:
            target = target[key]
        if value is _DELETE:
            del target[path[-1]]
        else:
            target[path[-1]] = value

    return change


_DELETE = object()
MALFORMED: list[tuple[Callable[[Export], None], str]] = [
    (_set(("game",), _DELETE), "the game has no 'game'"),
    (_set(("game",), []), r"game is \[\]: expected a JSON object"),
    (_set(("game", "dice"), _DELETE), "game has no 'dice'"),
    (_set(("hands",), _DELETE), "the game has no 'hands'"),
    (_set(("hands",), {}), r"hands is \{\}: expected a JSON list"),
    (_set(("entries",), "x"), "entries is 'x': expected a JSON list"),
    (_set(("state",), _DELETE), "the game has no 'state'"),
    (_set(("state", "players"), None), "state.players is None: expected a JSON list"),
    (_set(("state", "players", 0, "name"), 7), r"state.players\[0\].name is 7: expected a text"),
    (_set(("hands", 0), 1), r"hands\[0\] is 1: expected a JSON object"),
    (_set(("hands", 0, "hand"), True), r"hands\[0\].hand is True: expected a whole number from 1"),
    (_set(("hands", 0, "hand"), 0), r"hands\[0\].hand is 0: expected a whole number from 1"),
    (
        _set(("hands", 0, "commitment"), "AB" * 32),
        r"hands\[0\].commitment is 'ABAB.*: expected 64 lowercase hex",
    ),
    (
        _set(("hands", 0, "commitment"), "ab"),
        r"hands\[0\].commitment is 'ab': expected 64 lowercase hex digits",
    ),
    (
        _set(("hands", 0, "server_seed"), 12),
        r"hands\[0\].server_seed is 12: expected 64 lowercase hex digits",
    ),
    (_set(("hands", 0, "client_seed"), 5), r"hands\[0\].client_seed is 5: expected a text"),
    (_set(("hands", 0, "throws"), None), r"hands\[0\].throws is None: expected a JSON list"),
    (
        _set(("hands", 0, "throws", 0, "nonce"), -1),
        r"throws\[0\].nonce is -1: expected a whole number from 0",
    ),
    (
        _set(("hands", 0, "throws", 0, "nonce"), "0"),
        r"throws\[0\].nonce is '0': expected a whole number from 0",
    ),
    (
        _set(("hands", 0, "throws", 0, "entry"), 1.0),
        r"throws\[0\].entry is 1.0: expected a whole number from 1",
    ),
    (
        _set(("hands", 0, "throws", 0, "roll"), "7-1"),
        r"throws\[0\].roll is '7-1': expected a throw such as '3-4'",
    ),
    (_set(("hands", 0, "throws", 0, "roll"), "3 4"), r"throws\[0\].roll is '3 4': expected a throw"),
    (_set(("hands", 0, "throws", 0, "roll"), _DELETE), r"hands\[0\].throws\[0\] has no 'roll'"),
    (_set(("entries", 0, "seq"), "1"), r"entries\[0\].seq is '1': expected a whole number from 1"),
    (
        _set(("entries", 1, "seq"), 1),
        r"entries\[1\].seq is 1: expected a number above the entry before it \(1\)",
    ),
    (_set(("entries", 0, "entry"), _DELETE), r"entries\[0\] has no 'entry'"),
    (_set(("entries", 0, "entry", "type"), None), r"entries\[0\].entry.type is None: expected a text"),
    (
        _set(("entries", 3, "entry", "commitment"), "z" * 64),
        r"entries\[3\].entry.commitment is 'zzz.*: expected 64",
    ),
    (
        _set(("entries", 3, "entry", "hand"), -3),
        r"entries\[3\].entry.hand is -3: expected a whole number from 1",
    ),
    (_set(("closed",), "yes"), r"closed is 'yes': expected true or false"),
    (_set(("entries", 1, "entry", "name"), _DELETE), r"entries\[1\].entry has no 'name'"),
    (_set(("entries", 2, "entry", "seed"), ["x"]), r"entries\[2\].entry.seed is \['x'\]: expected a text"),
    (_set(("entries", 2, "actor"), _DELETE), r"entries\[2\] has no 'actor'"),
    (_set(("entries", 7, "entry", "roll"), "0-3"), r"entries\[7\].entry.roll is '0-3': expected a throw"),
    (
        _set(("entries", 5, "entry", "client_seed"), 5),
        r"entries\[5\].entry.client_seed is 5: expected a text",
    ),
]


@pytest.mark.parametrize(("change", "message"), MALFORMED)
def test_malformed_exports_are_refused_by_name(change: Callable[[Export], None], message: str) -> None:
    data = fair_export()
    change(data)
    with pytest.raises(InvalidError, match=f"^invalid game to verify: .*{message}"):
        verify_game(data)


@pytest.mark.parametrize("data", [None, [], "game", 7, {"entries": []}])
def test_what_is_no_export_at_all_is_refused(data: Any) -> None:
    with pytest.raises(InvalidError, match=r"^invalid game to verify: the game"):
        verify_game(data)


def test_the_malformed_cases_touch_what_they_mean_to() -> None:
    data = fair_export()
    assert entry(data, 2)["type"] == "sit"
    assert entry(data, 3)["type"] == "client-seed"
    assert entry(data, 4)["type"] == "commit"
    assert entry(data, 6)["type"] == "hand-opened"
    assert entry(data, 8)["type"] == "throw"


_HOSTILE_JSON: st.SearchStrategy[Any] = st.one_of(
    st.sampled_from(
        [
            None,
            True,
            False,
            0,
            -1,
            1,
            2**70,
            -(2**70),
            1.5,
            float("inf"),
            "",
            "x",
            "3-4",
            "fair",
            "00" * 32,
            [],
            {},
        ]
    ),
    st.text(max_size=20),
    st.integers(),
    st.lists(st.integers(), max_size=3),
    st.dictionaries(st.text(max_size=5), st.integers(), max_size=3),
)


def _paths(value: Any, path: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    yield path
    if isinstance(value, dict):
        for key, inner in value.items():
            yield from _paths(inner, (*path, key))
    elif isinstance(value, list):
        for index, inner in enumerate(value):
            yield from _paths(inner, (*path, index))


_BASE = fair_export()
_ALL_PATHS = [path for path in _paths(_BASE) if path]


@fuzz(300)
@given(
    changes=st.lists(
        st.tuples(st.sampled_from(_ALL_PATHS), _HOSTILE_JSON | st.just(_DELETE)), min_size=1, max_size=3
    )
)
def test_fuzzed_exports_verify_or_are_refused(changes: list[tuple[tuple[Any, ...], object]]) -> None:
    data = copy.deepcopy(_BASE)
    for path, value in changes:
        try:
            _set(path, value)(data)
        except (KeyError, IndexError, TypeError):  # the path is gone since an earlier change
            continue
    try:
        result: Verification | InvalidError = verify_game(data)
    except InvalidError as error:
        result = error
    if isinstance(result, InvalidError):
        assert str(result).startswith("invalid game to verify: ")
        assert len(str(result)) < 400
        assert "\n" not in str(result)
    else:
        assert result.problem is None or "\n" not in result.problem
        assert result.text()
