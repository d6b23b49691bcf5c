"""The simulator's kernels in C (``native.c``), compiled into the package when it is installed, loaded with
ctypes.

setup.py builds ``native.c`` (with ``_module.c``, an empty module around it) as the extension
``hazard.sim._native``, so a wheel carries it for its platform and nothing is compiled, cached or checked
at run time. This module loads that file with ctypes and calls the kernels' C functions directly: they take
plain arrays and NumPy's ``bitgen_t``, never a Python object, and ctypes releases the GIL around each call,
so the worker threads run them on every core. Loading takes about a millisecond.

Every array is checked here before a call (the C code trusts its arguments), and the constants the C code
was built with are checked against :mod:`hazard.sim.stream` and :mod:`hazard.sim.tables` when it loads.
The tests hold the kernels, bit for bit, to a plain-Python reference of the same algorithms.
"""

from __future__ import annotations

import ctypes
import importlib.util
from functools import cache
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from hazard.core.errors import InvalidError
from hazard.sim.stream import DIGITS_PER_WORD, WORD_LIMIT, pair_tables
from hazard.sim.tables import CODE_SHIFT, HAND_BUCKETS, NEXT_MASK, TALLY_WAYS, THROW_BIT, THROW_BUCKETS

__all__ = ["EXTENSION", "NativeKernels", "NativeUnavailable", "library_file", "load"]

EXTENSION = "hazard.sim._native"
"""The extension module the build compiles the kernels into."""

_u64p = ctypes.POINTER(ctypes.c_uint64)
_VOID = ctypes.c_void_p
_I64 = ctypes.c_int64


class NativeUnavailable(InvalidError):
    """The C kernels are not in this installation, or cannot be loaded (a broken or foreign build)."""


def library_file() -> Path:
    """The file of the compiled kernels in this installation."""
    spec = importlib.util.find_spec(EXTENSION)
    if spec is None or spec.origin is None or not spec.has_location:
        raise NativeUnavailable(
            f"cannot find the simulator's C kernels ({EXTENSION}): this copy of hazard was installed without "
            "building them; install it again (pip install ., which compiles them with the C compiler)"
        )
    return Path(spec.origin)


@cache
def load() -> NativeKernels:
    """The C kernels of this installation (loaded once a process)."""
    path = library_file()
    try:
        library = ctypes.CDLL(str(path))
    except OSError as error:
        raise NativeUnavailable(f"cannot load the simulator's C kernels from {path}: {error}") from None
    return NativeKernels(library, path)


def _address(array: npt.NDArray[Any], dtype: type[np.generic], ndim: int) -> int:
    """The data address of ``array``, which must be C-contiguous, of ``dtype`` and of ``ndim`` dimensions:
    the C code trusts its arguments, so every one is checked here."""
    if array.dtype != dtype or array.ndim != ndim or not array.flags.c_contiguous:
        raise ValueError(f"expected a C-contiguous {np.dtype(dtype)} array of {ndim} dimensions")
    return int(array.__array_interface__["data"][0])


def _bitgen(bits: np.random.BitGenerator) -> int:
    """The address of a bit generator's ``bitgen_t`` (NumPy's C interface to it)."""
    return int(bits.ctypes.bit_generator.value)


class NativeKernels:
    """The C kernels behind the calls :class:`~hazard.sim.backend.Kernels` names (arrays checked first)."""

    name = "native"

    def __init__(self, library: ctypes.CDLL, path: Path) -> None:
        self.path = path
        constants = (ctypes.c_uint64 * 7)()
        library.hazard_constants.argtypes = [_u64p]
        library.hazard_constants.restype = None
        library.hazard_constants(constants)
        expected = [
            DIGITS_PER_WORD,
            WORD_LIMIT,
            NEXT_MASK,
            THROW_BIT,
            CODE_SHIFT,
            THROW_BUCKETS,
            HAND_BUCKETS,
        ]
        if list(constants) != expected:
            raise NativeUnavailable(
                f"the C kernels in {path} were built from another version of hazard (their constants differ "
                "from hazard.sim's): install it again"
            )
        self._play_lanes = library.hazard_play_lanes
        self._play_lanes.argtypes = [_VOID, _VOID, _I64, _I64, _VOID, _I64, *[_VOID] * 6]
        self._play_lanes.restype = None
        self._tally = library.hazard_tally
        self._tally.argtypes = [_VOID, _I64, _VOID, _I64, _VOID, _VOID, _VOID]
        self._tally.restype = None
        self._sessions = library.hazard_play_sessions
        self._sessions.argtypes = [_VOID, _VOID, _I64, *[_VOID] * 4, _I64, _I64, *[_VOID] * 3]
        self._sessions.restype = _I64

    @staticmethod
    def pair_tables() -> tuple[npt.NDArray[np.uint64], npt.NDArray[np.uint64]]:
        """The low and high digit of each pair of base-36 digits (:func:`~hazard.sim.stream.pair_tables`)."""
        return pair_tables()

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
        """Play the two lanes of a block until each has logged its target of rounds; the rounds logged.

        ``bits0`` and ``bits1`` are the lanes' bit generators, whose state moves on; ``carry`` (2 by 4: each
        lane's state offset, throws in the round, word being used, digits left in it) keeps where each lane
        stood, so a lane goes on from one call to the next as if never stopped. Each log holds its target +
        1 entries, each round logged as ``code << 32 | throws``."""
        if carry.shape != (2, 4) or len(log0) <= target0 or len(log1) <= target1 or min(target0, target1) < 0:
            raise ValueError("play_lanes: carry must be (2, 4) and each log hold its target + 1 entries")
        if len(low) != 36 * 36 or len(high) != 36 * 36:
            raise ValueError("play_lanes: the pair tables must have 36 * 36 entries")
        logged = np.zeros(2, dtype=np.int64)
        self._play_lanes(
            _bitgen(bits0),
            _bitgen(bits1),
            int(target0),
            int(target1),
            _address(entries, np.uint64, 1),
            len(entries),
            _address(carry, np.uint64, 2),
            _address(log0, np.uint64, 1),
            _address(log1, np.uint64, 1),
            _address(low, np.uint64, 1),
            _address(high, np.uint64, 1),
            _address(logged, np.int64, 1),
        )
        return int(logged[0]), int(logged[1])

    def tally(  # noqa: PLR0917
        self,
        log: npt.NDArray[np.uint64],
        n: int,
        rule: npt.NDArray[np.int64],
        counts: npt.NDArray[np.int64],
        hands: npt.NDArray[np.int64],
        carry: npt.NDArray[np.int64],
    ) -> None:
        """Add the first ``n`` rounds of a lane's ``log`` to the counts by outcome code and number of throws,
        and to the hands (rounds a caster kept the dice) by the dice-passing ``rule``; ``carry`` holds the
        losing streak and the hand in progress."""
        codes = len(rule)
        if counts.shape != (TALLY_WAYS, codes, THROW_BUCKETS + 2) or hands.shape != (
            TALLY_WAYS,
            HAND_BUCKETS + 2,
        ):
            raise ValueError("tally: counts and hands do not have the kernels' shapes")
        if not 0 <= n <= len(log) or len(carry) != 2:
            raise ValueError("tally: n must be within the log, and carry hold 2 entries")
        self._tally(
            _address(log, np.uint64, 1),
            int(n),
            _address(rule, np.int64, 1),
            codes,
            _address(counts, np.int64, 3),
            _address(hands, np.int64, 2),
            _address(carry, np.int64, 1),
        )

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
    ) -> int:
        """Play the sessions of a block, round by round, with bankrolls and stakes (``settings``: rounds,
        staking, base stake, progression cap, the most a stake can win), their throws drawn from ``bits``
        as they are needed; the throws drawn."""
        sessions, players = out_bank.shape
        if out_ruin.shape != (sessions, players) or out_stats.shape != (sessions, 7):
            raise ValueError("play_sessions: the outputs must be (sessions, players) and (sessions, 7)")
        if len(bankrolls) != players or len(settings) != 5 or len(net) != len(rule):
            raise ValueError("play_sessions: bankrolls, settings, net and rule do not fit together")
        used = int(
            self._sessions(
                _bitgen(bits),
                _address(entries, np.uint64, 1),
                int(start),
                _address(net, np.float64, 1),
                _address(rule, np.int64, 1),
                _address(settings, np.float64, 1),
                _address(bankrolls, np.float64, 1),
                players,
                sessions,
                _address(out_bank, np.float64, 2),
                _address(out_ruin, np.int64, 2),
                _address(out_stats, np.float64, 2),
            )
        )
        if used == -2:
            raise MemoryError("play_sessions: out of memory")
        return used
