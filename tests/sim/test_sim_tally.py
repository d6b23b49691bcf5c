"""Tallies: every figure exactly what NumPy gives for all the values, whether the tally could count each
distinct value or had to look at the values again."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import numpy.typing as npt
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hazard.sim import tally as tally_module
from hazard.sim.tally import Tally

Values = npt.NDArray[np.float64]
QS = [0.0, 0.05, 0.25, 0.5, 0.75, 0.95, 1.0, 1 / 3]


def _replay(values: Values, pieces: int) -> Callable[[Callable[[Values], None]], None]:
    def replay(visit: Callable[[Values], None]) -> None:
        for piece in np.array_split(values, pieces):
            visit(piece)

    return replay


def _tallied(values: Values, pieces: int, limit: int | None = None) -> Tally:
    tally = Tally(limit)
    for piece in np.array_split(values, pieces):
        tally.add(piece)
    return tally


# values with many repeats, wide ranges, both signs, zeros of both signs, and runs of near neighbours
_numbers = st.one_of(
    st.floats(allow_nan=False, allow_infinity=False, width=64),
    st.integers(-4, 4).map(float),
    st.sampled_from([0.0, -0.0, 100.0, 100.0 + 1e-13, 5e-324, -5e-324]),
)


@settings(max_examples=300, deadline=None, derandomize=True)
@given(
    values=st.lists(_numbers, min_size=1, max_size=400),
    limit=st.integers(1, 40),
    collect=st.integers(1, 60),
    pieces=st.integers(1, 9),
)
def test_quantiles_and_histograms_are_numpys(
    values: list[float], limit: int, collect: int, pieces: int
) -> None:
    data = np.array(values)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(tally_module, "COLLECT_LIMIT", collect)  # looks that collect, and looks that refine
        for tally in (_tallied(data, pieces), _tallied(data, pieces, limit)):
            got = tally.quantiles(QS, _replay(data, 4))
            assert got == [float(np.quantile(data, q)) for q in QS]
            edges = np.unique(data)[::3]  # edges on the values themselves: each value counts in one bar
            if len(edges) < 2:
                edges = np.array([data.min() - 1, data.max() + 1])
            assert tally.histogram(edges, _replay(data, 3)).tolist() == np.histogram(data, edges)[0].tolist()
            assert (tally.count, tally.low, tally.high) == (len(data), data.min(), data.max())
    assert _tallied(data, pieces).exact


def test_a_tally_past_its_limit_keeps_no_values_and_says_so() -> None:
    data = np.arange(1000.0)
    tally = _tallied(data, 10, limit=100)
    assert not tally.exact
    assert tally.distribution() is None
    assert tally.mean == pytest.approx(499.5)
    with pytest.raises(ValueError, match="replay"):
        tally.quantiles([0.5], None)
    exact = _tallied(data, 10)
    assert exact.quantiles([0.5], None) == [499.5]
    values, counts = exact.distribution()  # type: ignore[misc]
    assert values.tolist() == data.tolist()
    assert set(counts.tolist()) == {1}


def test_many_equal_values_are_found_without_collecting_them(monkeypatch: pytest.MonkeyPatch) -> None:
    """A bucket too full to collect is counted finer, down to the one value every key in it shares."""
    monkeypatch.setattr(tally_module, "COLLECT_LIMIT", 10)
    data = np.concatenate([np.full(5000, 7.25), np.arange(300.0)])
    tally = _tallied(data, 5, limit=50)
    looks: list[int] = []

    def replay(visit: Callable[[Values], None]) -> None:
        looks.append(1)
        visit(data)

    assert tally.quantiles([0.5, 0.99], replay) == [float(np.quantile(data, q)) for q in (0.5, 0.99)]
    assert len(looks) <= 3


def test_a_replay_that_differs_from_what_was_tallied_is_an_error() -> None:
    data = np.arange(500.0)
    tally = _tallied(data, 2, limit=10)
    with pytest.raises(RuntimeError, match="not the values tallied"):
        tally.quantiles([0.5], _replay(data + 1000.0, 2))


def test_bad_values_and_quantiles_are_refused() -> None:
    tally = Tally()
    with pytest.raises(ValueError, match="NaN"):
        tally.add(np.array([1.0, np.nan]))
    tally.add([1.0, 2.0])
    with pytest.raises(ValueError, match=r"quantile 1\.5"):
        tally.quantiles([1.5], None)
    with pytest.raises(ValueError, match="rank"):
        tally.order_statistics([2], None)
    assert Tally().quantiles([0.5], None) == []
    assert Tally().mean is None
    assert Tally().low is None


def test_several_tallies_share_their_looks_at_the_values(monkeypatch: pytest.MonkeyPatch) -> None:
    """Tallies whose values one replay gives together (a session's first bankroll and every bankroll) are
    searched in the same looks: as few as one of them alone needs."""
    monkeypatch.setattr(tally_module, "COLLECT_LIMIT", 20)
    rng = np.random.default_rng(4)
    first, every = rng.normal(size=3000), rng.integers(0, 50, size=12000).astype(float)
    tallies = [_tallied(first, 3, limit=30), _tallied(every, 5, limit=30)]
    looks: list[int] = []

    def replay(visit: Callable[[list[Values]], None]) -> None:
        looks.append(1)
        for a, b in zip(np.array_split(first, 7), np.array_split(every, 7), strict=True):
            visit([a, b])

    found = tally_module.joint_quantiles(tallies, QS, replay)
    assert found == [[float(np.quantile(x, q)) for q in QS] for x in (first, every)]
    assert 1 <= len(looks) <= 3
    empty_first = tally_module.joint_quantiles(
        [Tally(), tallies[0]], [0.5], lambda visit: visit([np.empty(0), first])
    )
    assert empty_first == [[], [float(np.quantile(first, 0.5))]]
