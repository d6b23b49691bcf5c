"""Which kernels play the rounds: the C ones (:mod:`hazard.sim.native`) or, failing them, Numba's.

Both give bit-identical results (the tests compare them on the same seeds), so the choice only changes the
speed. ``HAZARD_SIM_BACKEND`` picks it:

- unset or ``auto``: the C kernels, built on first use; Numba's if they cannot be built (no C compiler).
- ``native``: the C kernels, or an error (:class:`~hazard.sim.native.NativeUnavailable`) if they cannot be.
- ``numba``: Numba's kernels.

Numba is imported only when its kernels are chosen: importing it costs a process a quarter of a second.
"""

from __future__ import annotations

import os
import threading
from functools import cache
from pathlib import Path
from typing import Protocol

import numpy as np
import numpy.typing as npt

__all__ = ["ENV", "Kernels", "NumbaKernels", "backend", "choose"]

ENV = "HAZARD_SIM_BACKEND"
"""The environment variable that picks the kernels: ``auto`` (the default), ``native`` or ``numba``."""

_CHOICES = ("auto", "native", "numba")


class Kernels(Protocol):
    """The calls the simulator makes of its kernels (see :mod:`hazard.sim.kernels` for what each does)."""

    name: str

    def pair_tables(self) -> tuple[npt.NDArray[np.uint64], npt.NDArray[np.uint64]]: ...

    def play_lanes(  # noqa: PLR0917
        self,
        bits0: np.random.BitGenerator,
        bits1: np.random.BitGenerator,
        target0: int,
        target1: int,
        entries: npt.NDArray[np.uint64],
        carry: npt.NDArray[np.uint64],
        log0: npt.NDArray[np.uint64],
        log1: npt.NDArray[np.uint64],
        low: npt.NDArray[np.uint64],
        high: npt.NDArray[np.uint64],
    ) -> tuple[int, int]: ...

    def extract_digits(self, words: npt.NDArray[np.uint64], out: npt.NDArray[np.uint8]) -> int: ...

    def tally(  # noqa: PLR0917
        self,
        log: npt.NDArray[np.uint64],
        n: int,
        rule: npt.NDArray[np.int64],
        counts: npt.NDArray[np.int64],
        hands: npt.NDArray[np.int64],
        carry: npt.NDArray[np.int64],
    ) -> None: ...

    def play_sessions(  # noqa: PLR0917
        self,
        digits: npt.NDArray[np.uint8],
        entries: npt.NDArray[np.uint64],
        start: int,
        net: npt.NDArray[np.float64],
        rule: npt.NDArray[np.int64],
        settings: npt.NDArray[np.float64],
        bankrolls: npt.NDArray[np.float64],
        out_bank: npt.NDArray[np.float64],
        out_ruin: npt.NDArray[np.int64],
        out_stats: npt.NDArray[np.float64],
    ) -> int: ...

    def warm_up(self, sessions: bool = False) -> None: ...


class NumbaKernels:
    """Numba's kernels (:mod:`hazard.sim.kernels`, imported on first use) behind :class:`Kernels`."""

    name = "numba"

    def __init__(self) -> None:
        from hazard.sim import kernels  # noqa: PLC0415 - importing Numba costs a quarter of a second

        self._kernels = kernels

    def pair_tables(self) -> tuple[npt.NDArray[np.uint64], npt.NDArray[np.uint64]]:
        """The low and high digit of each pair of base-36 digits."""
        return self._kernels.pair_tables()

    def play_lanes(  # noqa: PLR0917
        self,
        bits0: np.random.BitGenerator,
        bits1: np.random.BitGenerator,
        target0: int,
        target1: int,
        entries: npt.NDArray[np.uint64],
        carry: npt.NDArray[np.uint64],
        log0: npt.NDArray[np.uint64],
        log1: npt.NDArray[np.uint64],
        low: npt.NDArray[np.uint64],
        high: npt.NDArray[np.uint64],
    ) -> tuple[int, int]:
        """Play both lanes of a block to their targets; the rounds each logged."""
        e0, e1 = self._kernels.play_lanes(
            bits0, bits1, target0, target1, entries, carry, log0, log1, low, high
        )
        return int(e0), int(e1)

    def extract_digits(self, words: npt.NDArray[np.uint64], out: npt.NDArray[np.uint8]) -> int:
        """The throws of ``words`` into ``out``; how many."""
        return int(self._kernels.extract_digits(words, out))

    def tally(  # noqa: PLR0917
        self,
        log: npt.NDArray[np.uint64],
        n: int,
        rule: npt.NDArray[np.int64],
        counts: npt.NDArray[np.int64],
        hands: npt.NDArray[np.int64],
        carry: npt.NDArray[np.int64],
    ) -> None:
        """Add the first ``n`` rounds of ``log`` to the counts."""
        self._kernels.tally(log, n, rule, counts, hands, carry)

    def play_sessions(  # noqa: PLR0917
        self,
        digits: npt.NDArray[np.uint8],
        entries: npt.NDArray[np.uint64],
        start: int,
        net: npt.NDArray[np.float64],
        rule: npt.NDArray[np.int64],
        settings: npt.NDArray[np.float64],
        bankrolls: npt.NDArray[np.float64],
        out_bank: npt.NDArray[np.float64],
        out_ruin: npt.NDArray[np.int64],
        out_stats: npt.NDArray[np.float64],
    ) -> int:
        """Play the sessions of a block from its throws; the throws used, or -1 if too few."""
        return int(
            self._kernels.play_sessions(
                digits, entries, start, net, rule, settings, bankrolls, out_bank, out_ruin, out_stats
            )
        )

    def warm_up(self, sessions: bool = False) -> None:
        """Compile or load the kernels a study needs."""
        self._kernels.warm_up(sessions)


def choose(setting: str | None = None, folder: Path | None = None) -> Kernels:
    """The kernels for ``setting`` (default: ``$HAZARD_SIM_BACKEND``), the C library kept in ``folder``
    (default: the user's cache folder). Not cached: see :func:`backend`."""
    from hazard.sim import native  # noqa: PLC0415 - ctypes and platformdirs only for a study

    choice = (os.environ.get(ENV, "") if setting is None else setting).strip().lower() or "auto"
    if choice not in _CHOICES:
        raise ValueError(f"{ENV}={choice!r}: expected one of {', '.join(_CHOICES)}")
    if choice == "numba":
        return NumbaKernels()
    try:
        return native.load(folder)
    except native.NativeUnavailable:
        if choice == "native":
            raise
        return NumbaKernels()


_lock = threading.Lock()


@cache
def _backend() -> Kernels:
    return choose()


def backend() -> Kernels:
    """The kernels this process uses, chosen (and the C ones built, if need be) on the first call."""
    with _lock:  # the warm-up thread and the first block may ask at once: build once
        return _backend()
