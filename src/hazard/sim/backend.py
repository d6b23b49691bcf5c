"""The kernels the simulator calls: the C ones compiled into the package (:mod:`hazard.sim.native`).

:class:`Kernels` is what the simulator asks of them, so that the tests can hand it their plain-Python
reference instead and compare whole studies.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from collections.abc import Sequence

    from hazard.sim.native import Buffer
    from hazard.sim.stream import Lane

__all__ = ["Kernels", "backend"]


class Kernels(Protocol):
    """The calls the simulator makes of its kernels (:class:`~hazard.sim.native.NativeKernels` says what each
    does)."""

    name: str
    blocks_per_call: int

    def pair_tables(self) -> tuple[Buffer, Buffer]: ...

    def play_lanes(  # noqa: PLR0917
        self,
        bits0: Lane,
        bits1: Lane,
        target0: int,
        target1: int,
        entries: Buffer,
        carry: Buffer,
        log0: Buffer,
        log1: Buffer,
        low: Buffer,
        high: Buffer,
    ) -> tuple[int, int]: ...

    def play_block(  # noqa: PLR0917
        self,
        bits0: Lane,
        bits1: Lane,
        quota0: int,
        quota1: int,
        chunk: int,
        entries: Buffer,
        start: int,
        low: Buffer,
        high: Buffer,
        rule: Buffer,
        counts: Buffer,
        hands: Buffer,
    ) -> None: ...

    def play_blocks(  # noqa: PLR0917
        self,
        lanes: Sequence[Lane],
        quotas: Sequence[int],
        chunk: int,
        entries: Buffer,
        start: int,
        low: Buffer,
        high: Buffer,
        rule: Buffer,
        counts: Buffer,
        hands: Buffer,
        *,
        path: str | None = None,
    ) -> None: ...

    def tally(  # noqa: PLR0917
        self, log: Buffer, n: int, rule: Buffer, counts: Buffer, hands: Buffer, carry: Buffer
    ) -> None: ...

    def add(self, into: Buffer, counts: Buffer, ways: int) -> None: ...

    def seeded_lane(self, seed: int, kind: int, block: int, lane: int) -> Lane: ...

    def play_sessions(  # noqa: PLR0917
        self,
        bits: Lane,
        entries: Buffer,
        start: int,
        net: Buffer,
        rule: Buffer,
        settings: Buffer,
        bankrolls: Buffer,
        out_bank: Buffer,
        out_ruin: Buffer,
        out_stats: Buffer,
    ) -> int: ...

    def play_session_blocks(  # noqa: PLR0917
        self,
        seed: int,
        kind: int,
        first_block: int,
        per_block: int,
        entries: Buffer,
        start: int,
        net: Buffer,
        rule: Buffer,
        settings: Buffer,
        bankrolls: Buffer,
        out_bank: Buffer,
        out_ruin: Buffer,
        out_stats: Buffer,
    ) -> None: ...


def backend() -> Kernels:
    """The kernels this process uses: the compiled ones, loaded on the first call."""
    from hazard.sim import native  # noqa: PLC0415 - ctypes only once a study runs

    return native.load()
