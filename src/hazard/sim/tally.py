"""Exact figures of more values than a study keeps: their count, mean, least and greatest, quantiles and
histograms, in memory that does not grow with the values.

A :class:`Tally` counts each distinct value while there are at most :data:`DISTINCT_LIMIT` of them, which is
what a study's final bankrolls usually come to: then every figure is read off those counts. Past the limit
it keeps only how many values fall in each of 65,536 buckets of the values' order (the top 16 bits of an
order-preserving 64-bit key); an order statistic is then found exactly by looking at the values again
(``replay``, which a study does by playing its blocks again from the same seed): each look either collects
the few values of the bucket that holds the rank, or counts the next 16 bits inside it, so at most three
looks find any value, and each holds at most :data:`COLLECT_LIMIT` values.

Quantiles are NumPy's default (``linear``) to the bit:

>>> tally = Tally()
>>> tally.add(np.array([3.0, 1.0, 2.0, 2.0]))
>>> tally.quantiles([0.0, 0.5, 0.9], replay=None), tally.mean
([1.0, 2.0, 2.7], 2.0)
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

__all__ = [
    "COLLECT_LIMIT",
    "DISTINCT_LIMIT",
    "JointReplay",
    "Replay",
    "Tally",
    "joint_order_statistics",
    "joint_quantiles",
]

Values = npt.NDArray[np.float64]
Replay = Callable[[Callable[[Values], None]], None]
"""Looks at the values again: calls the function it is given with every piece of them, in the same order
as they were added (any pieces: only the values matter)."""

DISTINCT_LIMIT = 1 << 18
"""The most distinct values a tally counts one by one (4 MiB of values and counts)."""
COLLECT_LIMIT = 1 << 20
"""The most values one look collects to find an order statistic (8 MiB)."""
_CHUNK = 1 << 16
"""Values gathered before they are counted: a block's few values at a time would cost more to count."""
_LEVEL_BITS = 16
_LEVELS = 64 // _LEVEL_BITS
_BUCKETS = 1 << _LEVEL_BITS
_SIGN = np.uint64(1 << 63)


def _flip(bits: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
    """A negative float's magnitude bits turned over, so that signed integer order is the floats' order
    (its own inverse)."""
    return bits ^ ((bits >> 63) & np.int64(0x7FFF_FFFF_FFFF_FFFF))


def _keys(values: Values) -> npt.NDArray[np.uint64]:
    """Order-preserving 64-bit keys: ``a < b`` exactly when ``key(a) < key(b)`` (no NaN, no -0.0)."""
    return _flip(values.view(np.int64)).view(np.uint64) ^ _SIGN


def _value(key: int) -> float:
    """The value whose key is ``key`` (the inverse of :func:`_keys`)."""
    signed = (np.array([key], dtype=np.uint64) ^ _SIGN).view(np.int64)
    return float(_flip(signed).view(np.float64)[0])


def _bucket(keys: npt.NDArray[np.uint64], level: int) -> npt.NDArray[np.uint64]:
    """The keys' prefix of ``level + 1`` times 16 bits: the bucket each falls in at that level."""
    return keys >> np.uint64(64 - _LEVEL_BITS * (level + 1))


def _clean(values: npt.ArrayLike) -> Values:
    found = np.asarray(values, dtype=np.float64).ravel()
    if np.isnan(found).any():
        raise ValueError("a tally counts numbers, and was given NaN")
    return found + 0.0  # -0.0 + 0.0 is 0.0: one key for one value


class _Gather:
    """Pieces of values gathered until there are enough to count at once (a block's few values at a time
    would cost more to count than to gather)."""

    def __init__(self, count: Callable[[Values], None]) -> None:
        self._count = count
        self._pieces: list[Values] = []
        self._waiting = 0

    def add(self, values: Values, enough: int) -> None:
        self._pieces.append(values)
        self._waiting += len(values)
        if self._waiting >= enough:
            self.flush()

    def flush(self) -> None:
        if self._pieces:
            chunk = np.concatenate(self._pieces)
            self._pieces, self._waiting = [], 0
            self._count(chunk)


@dataclass
class _Target:
    """Where the search for one order statistic stands: the rank-th value (from 0) among those whose key
    starts with ``prefix`` (``level + 1`` times 16 bits), of which there are ``count``."""

    prefix: int
    level: int
    rank: int
    count: int
    value: float | None = None


class Tally:
    """Exact figures of a stream of values (see the module): add values with :meth:`add`, read them with
    :attr:`count`, :attr:`mean`, :attr:`low`, :attr:`high`, :meth:`quantiles` and :meth:`histogram`."""

    def __init__(self, limit: int | None = None) -> None:
        self._limit = DISTINCT_LIMIT if limit is None else limit
        self._gathered = _Gather(self._count_in)
        self._values: Values = np.empty(0)
        """The distinct values so far, in order, while they are few (see :attr:`exact`)."""
        self._counts: npt.NDArray[np.int64] = np.empty(0, dtype=np.int64)
        self._buckets: npt.NDArray[np.int64] | None = None
        """Past the limit: how many values fall in each bucket of level 0."""
        self._count = 0
        self._sum = 0.0
        self._low = math.inf
        self._high = -math.inf

    def add(self, values: npt.ArrayLike) -> None:
        """Count ``values`` (any shape) in."""
        found = _clean(values)
        if not len(found):
            return
        # waiting for as many values as are held keeps the merging of counts linear in all
        self._gathered.add(found, max(_CHUNK, len(self._values)))

    def _flush(self) -> None:
        self._gathered.flush()

    def _count_in(self, chunk: Values) -> None:
        self._count += len(chunk)
        with np.errstate(over="ignore"):  # a sum past the largest float is inf, and so is the mean
            self._sum += float(chunk.sum())
        self._low = min(self._low, float(chunk.min()))
        self._high = max(self._high, float(chunk.max()))
        if self._buckets is not None:
            self._buckets += np.bincount(_bucket(_keys(chunk), 0), minlength=_BUCKETS)
            return
        values, counts = np.unique(chunk, return_counts=True)
        if len(self._values):
            merged, where = np.unique(np.concatenate([self._values, values]), return_inverse=True)
            both = np.concatenate([self._counts, counts])
            counts = np.bincount(where, weights=both, minlength=len(merged)).astype(np.int64)
            values = merged
        if len(values) > self._limit:
            self._buckets = np.bincount(_bucket(_keys(values), 0), weights=counts, minlength=_BUCKETS).astype(
                np.int64
            )
            self._values, self._counts = np.empty(0), np.empty(0, dtype=np.int64)
        else:
            self._values, self._counts = values, counts.astype(np.int64)

    @property
    def count(self) -> int:
        """How many values were added."""
        self._flush()
        return self._count

    @property
    def total(self) -> float:
        """Their sum."""
        self._flush()
        return self._sum

    @property
    def mean(self) -> float | None:
        """Their mean (None without values)."""
        self._flush()
        return self._sum / self._count if self._count else None

    @property
    def low(self) -> float | None:
        """The least value (None without values)."""
        self._flush()
        return self._low if self._count else None

    @property
    def high(self) -> float | None:
        """The greatest value (None without values)."""
        self._flush()
        return self._high if self._count else None

    @property
    def exact(self) -> bool:
        """Whether every figure is read off counts held here, with no second look at the values."""
        self._flush()
        return self._buckets is None

    def distribution(self) -> tuple[Values, npt.NDArray[np.int64]] | None:
        """Each distinct value, in order, with how many times it came: while the tally is :attr:`exact`
        (else None)."""
        self._flush()
        return None if self._buckets is not None else (self._values.copy(), self._counts.copy())

    def quantiles(self, qs: Sequence[float], replay: Replay | None) -> list[float]:
        """The ``qs`` quantiles (each from 0 to 1), as :func:`numpy.quantile` gives them for all the values;
        ``replay`` is needed only where the tally is not :attr:`exact`. Empty without values."""
        joint = None if replay is None else _alone(replay)
        return joint_quantiles([self], qs, joint)[0]

    def order_statistics(self, ranks: Iterable[int], replay: Replay | None) -> dict[int, float]:
        """The value of each rank (from 0: the least value) in the sorted values."""
        joint = None if replay is None else _alone(replay)
        return joint_order_statistics([self], [ranks], joint)[0]

    def _search(self, ranks: list[int]) -> tuple[dict[int, float], dict[int, _Target]]:
        """The ranks' values where the tally holds its values, else where each search for one begins."""
        self._flush()
        if self._buckets is None:
            at = np.searchsorted(np.cumsum(self._counts), np.array(ranks, dtype=np.int64), side="right")
            return {rank: float(self._values[i]) for rank, i in zip(ranks, at.tolist(), strict=True)}, {}
        return {}, {rank: _descend(self._buckets, 0, 0, rank) for rank in ranks}

    def histogram(self, edges: npt.NDArray[np.float64], replay: Replay | None) -> npt.NDArray[np.int64]:
        """How many values fall between each pair of ``edges``, as :func:`numpy.histogram` counts them."""
        self._flush()
        if self._buckets is None:
            counts: npt.NDArray[np.float64] = np.histogram(self._values, bins=edges, weights=self._counts)[0]
            return np.rint(counts).astype(np.int64)
        if replay is None:
            raise ValueError("this tally holds too many distinct values to answer without a replay")
        total = np.zeros(len(edges) - 1, dtype=np.int64)

        def count(values: Values) -> None:
            total[:] += np.histogram(_clean(values), bins=edges)[0]

        replay(count)
        return total


JointReplay = Callable[[Callable[[Sequence[Values]], None]], None]
"""Looks at the values of several tallies again, together: calls the function it is given with a piece of
each tally's values (in the order of the tallies), every piece in the order the values were added."""


def _alone(replay: Replay) -> JointReplay:
    return lambda visit: replay(lambda values: visit([values]))


def joint_quantiles(
    tallies: Sequence[Tally], qs: Sequence[float], replay: JointReplay | None
) -> list[list[float]]:
    """:meth:`Tally.quantiles` of several tallies at once, whose values one ``replay`` gives together: each
    look at the values serves them all, so they cost the looks of one."""
    wanted: list[list[tuple[int, int, float]]] = []
    for tally in tallies:
        n = tally.count
        rows = []
        for q in qs:
            if not 0.0 <= q <= 1.0:
                raise ValueError(f"invalid quantile {q!r}: expected a number from 0 to 1")
            at = (n - 1) * q
            below = math.floor(at)
            rows.append((below, min(below + 1, n - 1), at - below))
        wanted.append(rows if n else [])
    ranks = [{rank for below, above, _ in rows for rank in (below, above)} for rows in wanted]
    found = joint_order_statistics(tallies, ranks, replay)
    return [
        [_between(values[a], values[b], t) for a, b, t in rows]
        for rows, values in zip(wanted, found, strict=True)
    ]


def _between(low: float, high: float, t: float) -> float:
    """What :func:`numpy.quantile` gives at ``t`` of the two values ``low <= high`` (its linear method's
    ``_lerp``, step for step, so that each result is its result): written out, because ``np.quantile``
    imports ``numpy.ma``, some 40 ms of a study's start."""
    diff = high - low
    return high - diff * (1 - t) if t >= 0.5 else low + diff * t


def joint_order_statistics(
    tallies: Sequence[Tally], ranks: Sequence[Iterable[int]], replay: JointReplay | None
) -> list[dict[int, float]]:
    """:meth:`Tally.order_statistics` of several tallies at once (see :func:`joint_quantiles`)."""
    found: list[dict[int, float]] = []
    searches: dict[int, dict[int, _Target]] = {}
    for i, (tally, wanted) in enumerate(zip(tallies, ranks, strict=True)):
        chosen = sorted(set(wanted))
        n = tally.count
        if any(not 0 <= rank < n for rank in chosen):
            raise ValueError(f"invalid rank: expected ranks from 0 to {n - 1}, got {chosen}")
        known, sought = tally._search(chosen)
        found.append(known)
        if sought:
            searches[i] = sought
    if searches and replay is None:
        raise ValueError("this tally holds too many distinct values to answer without a replay")
    for _ in range(_LEVELS):
        looks = {
            i: _Look([t for t in targets.values() if t.value is None]) for i, targets in searches.items()
        }
        looks = {i: look for i, look in looks.items() if look.targets}
        if not looks:
            break
        assert replay is not None

        def visit(pieces: Sequence[Values], looks: dict[int, _Look] = looks) -> None:
            for i, look in looks.items():
                look.take(pieces[i])

        replay(visit)
        for look in looks.values():
            look.finish()
    for i, targets in searches.items():
        found[i] = {rank: t.value for rank, t in targets.items() if t.value is not None}
    return found


def _descend(counts: npt.NDArray[np.int64], prefix: int, level: int, rank: int) -> _Target:
    """The target for ``rank`` within bucket ``prefix`` of ``level - 1``, given the counts of its
    sub-buckets at ``level``."""
    reached = np.cumsum(counts)
    sub = int(np.searchsorted(reached, rank, side="right"))
    before = int(reached[sub - 1]) if sub else 0
    target = _Target((prefix << _LEVEL_BITS) | sub, level, rank - before, int(counts[sub]))
    if level == _LEVELS - 1:  # the whole key: one value
        target.value = _value(target.prefix)
    return target


class _Look:
    """One look at the values for the targets still sought: each bucket sought is collected if small
    enough, else counted one level finer."""

    def __init__(self, targets: list[_Target]) -> None:
        self.targets = targets
        self._buckets = {(t.level, t.prefix): t.count for t in targets}
        self._collected: dict[tuple[int, int], list[Values]] = {
            b: [] for b, n in self._buckets.items() if n <= COLLECT_LIMIT
        }
        self._finer = {
            b: np.zeros(_BUCKETS, dtype=np.int64) for b in self._buckets if b not in self._collected
        }
        self._gathered = _Gather(self._look)

    def take(self, values: Values) -> None:
        self._gathered.add(_clean(values), _CHUNK)

    def _look(self, chunk: Values) -> None:
        keys = _keys(chunk)
        for level, prefix in self._buckets:
            inside = _bucket(keys, level) == np.uint64(prefix)
            if (level, prefix) in self._collected:
                self._collected[level, prefix].append(chunk[inside])
            else:
                below = keys[inside] >> np.uint64(64 - _LEVEL_BITS * (level + 2))
                self._finer[level, prefix] += np.bincount(below & np.uint64(_BUCKETS - 1), minlength=_BUCKETS)

    def finish(self) -> None:
        self._gathered.flush()
        for target in self.targets:
            bucket = (target.level, target.prefix)
            if bucket in self._collected:
                parts = self._collected[bucket]
                values = np.sort(np.concatenate(parts) if parts else np.empty(0))
                if len(values) != target.count:
                    raise RuntimeError(f"the values looked at again are not the values tallied: {bucket}")
                target.value = float(values[target.rank])
            else:
                counts = self._finer[bucket]
                if int(counts.sum()) != target.count:
                    raise RuntimeError(f"the values looked at again are not the values tallied: {bucket}")
                found = _descend(counts, target.prefix, target.level + 1, target.rank)
                target.prefix, target.level, target.rank, target.count = (
                    found.prefix,
                    found.level,
                    found.rank,
                    found.count,
                )
                target.value = found.value
