"""The kernels the simulator calls: the C ones compiled into the package (:mod:`hazard.sim.native`).

:class:`Kernels` is what the simulator asks of them, so that the tests can hand it their plain-Python
reference instead and compare whole studies.
"""

from __future__ import annotations

from typing import Protocol

import numpy as np
import numpy.typing as npt

__all__ = ["Kernels", "backend"]


class Kernels(Protocol):
    """The calls the simulator makes of its kernels (:class:`~hazard.sim.native.NativeKernels` says what each
    does)."""

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
        bits: np.random.BitGenerator,
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


def backend() -> Kernels:
    """The kernels this process uses: the compiled ones, loaded on the first call."""
    from hazard.sim import native  # noqa: PLC0415 - ctypes only once a study runs

    return native.load()
