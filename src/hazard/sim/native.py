"""The simulator's kernels in C (``native.c``), compiled on first use and loaded with ctypes.

Why: importing Numba and loading its cached kernels costs a whole process about 0.3 s, more than the
simulation of 50 million rounds itself. The same loops in C, built once by the system compiler into a
shared library kept in the user's cache folder, load in about a millisecond, and ctypes releases the GIL
around each call, so the worker threads still use every core.

The C kernels are the Numba kernels (:mod:`hazard.sim.kernels`) step for step and draw the same 64-bit
words from each lane's PCG64 through NumPy's C interface to its bit generators, so results are
bit-identical; the tests compare the two on the same seeds.

The library is named after the SHA-256 of the C source, the compiler command, the Python version and the
platform, so an edited source or a new Python gets its own build. It is written under a temporary name and
moved into place with :func:`os.replace`, so concurrent processes never see half a file; and the SHA-256 of
the library is appended to it (the dynamic loader ignores trailing bytes) and checked before loading, so a
truncated or damaged file is rebuilt rather than loaded. :func:`load` raises :class:`NativeUnavailable`
when there is no compiler or the build fails; :mod:`hazard.sim.backend` then falls back to Numba.
"""

from __future__ import annotations

import ctypes
import hashlib
import os
import shlex
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from hazard.sim.stream import DIGITS_PER_WORD, WORD_LIMIT, pair_tables
from hazard.sim.tables import CODE_SHIFT, HAND_BUCKETS, NEXT_MASK, TALLY_WAYS, THROW_BIT, THROW_BUCKETS

__all__ = ["SOURCE", "NativeKernels", "NativeUnavailable", "cache_dir", "library_path", "load"]

SOURCE = Path(__file__).with_name("native.c")
"""The C source of the kernels."""

FLAGS = ("-O3", "-shared", "-fPIC", "-std=c11", "-Wall", "-Wextra", "-ffp-contract=off")
"""Compiler flags. No ``-march=native``, so that a build runs on any machine of the same kind; and no fused
multiply-adds (``-ffp-contract=off``), so that the session kernel rounds exactly as the Numba one."""

_DIGEST = 32  # bytes of SHA-256 appended to the library
_COMPILE_SECONDS = 120

_u64p = ctypes.POINTER(ctypes.c_uint64)
_VOID = ctypes.c_void_p
_I64 = ctypes.c_int64


class NativeUnavailable(RuntimeError):
    """The C kernels cannot be built or loaded here (no compiler, a failed build, a foreign platform)."""


def compiler() -> list[str]:
    """The C compiler command: ``$CC`` (which may carry options of its own) or ``cc``."""
    return shlex.split(os.environ.get("CC") or "cc")


def cache_dir() -> Path:
    """The per-user folder the built library is kept in (``platformdirs.user_cache_dir("hazard")``)."""
    import platformdirs  # noqa: PLC0415 - only needed when a study runs

    return Path(platformdirs.user_cache_dir("hazard"))


def library_path(folder: Path, source: bytes, command: list[str]) -> Path:
    """Where the library built from ``source`` with ``command`` is kept in ``folder``."""
    key = hashlib.sha256()
    for part in (source, "\0".join([*command, *FLAGS]).encode(), sys.version.encode(), sys.platform.encode()):
        key.update(hashlib.sha256(part).digest())
    key.update(os.uname().machine.encode() if hasattr(os, "uname") else b"")
    tag = sys.implementation.cache_tag or "python"
    return folder / f"hazard-sim-{tag}-{key.hexdigest()[:32]}.so"


def _intact(path: Path) -> bool:
    """Whether ``path`` is a library written whole: its last 32 bytes are the SHA-256 of the rest."""
    try:
        data = path.read_bytes()
    except OSError:
        return False
    return len(data) > _DIGEST and hashlib.sha256(data[:-_DIGEST]).digest() == data[-_DIGEST:]


def _build(source_path: Path, target: Path, command: list[str]) -> None:
    """Compile to a temporary file beside ``target``, seal it with its digest, move it into place."""
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, temp_name = tempfile.mkstemp(prefix=target.stem + ".", suffix=".tmp.so", dir=target.parent)
    os.close(fd)
    temp = Path(temp_name)
    try:
        try:
            result = subprocess.run(
                [*command, *FLAGS, "-o", str(temp), str(source_path)],
                capture_output=True,
                text=True,
                timeout=_COMPILE_SECONDS,
                check=False,
            )
        except (OSError, subprocess.SubprocessError) as error:
            raise NativeUnavailable(f"cannot run the C compiler {command!r}: {error}") from error
        if result.returncode != 0:
            raise NativeUnavailable(f"the C compiler failed ({result.returncode}): {result.stderr.strip()}")
        data = temp.read_bytes()
        with temp.open("ab") as sealed:
            sealed.write(hashlib.sha256(data).digest())
        os.replace(temp, target)  # atomic: another process sees the old file, none, or this one, whole
    finally:
        temp.unlink(missing_ok=True)


def load(folder: Path | None = None) -> NativeKernels:
    """The C kernels: the cached library if it is intact, else a fresh build (:class:`NativeUnavailable`
    if none can be made)."""
    command = compiler()
    source = SOURCE.read_bytes()
    path = library_path(cache_dir() if folder is None else folder, source, command)
    if not _intact(path):
        try:
            _build(SOURCE, path, command)
        except OSError as error:  # an unwritable cache folder, a full disk
            raise NativeUnavailable(f"cannot build the C kernels in {path.parent}: {error}") from error
    try:
        library = ctypes.CDLL(str(path))
    except OSError as error:
        raise NativeUnavailable(f"cannot load the C kernels from {path}: {error}") from error
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
    """The C kernels behind the same calls as :mod:`hazard.sim.kernels` (arrays checked before each call)."""

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
            raise NativeUnavailable(f"the C kernels in {path} disagree with hazard.sim's constants")
        self._play_lanes = library.hazard_play_lanes
        self._play_lanes.argtypes = [_VOID, _VOID, _I64, _I64, _VOID, _I64, *[_VOID] * 6]
        self._play_lanes.restype = None
        self._extract = library.hazard_extract_digits
        self._extract.argtypes = [_VOID, _I64, _VOID]
        self._extract.restype = _I64
        self._tally = library.hazard_tally
        self._tally.argtypes = [_VOID, _I64, _VOID, _I64, _VOID, _VOID, _VOID]
        self._tally.restype = None
        self._sessions = library.hazard_play_sessions
        self._sessions.argtypes = [
            _VOID,
            _I64,
            _VOID,
            _I64,
            _VOID,
            _VOID,
            _VOID,
            _VOID,
            _I64,
            _I64,
            *[_VOID] * 3,
        ]
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
        """As :func:`hazard.sim.kernels.play_lanes`: play both lanes to their targets; the rounds logged."""
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

    def extract_digits(self, words: npt.NDArray[np.uint64], out: npt.NDArray[np.uint8]) -> int:
        """As :func:`hazard.sim.kernels.extract_digits`: the throws of ``words`` into ``out``; how many."""
        if len(out) < DIGITS_PER_WORD * len(words):
            raise ValueError("extract_digits: out must hold 11 throws per word")
        return int(self._extract(_address(words, np.uint64, 1), len(words), _address(out, np.uint8, 1)))

    def tally(  # noqa: PLR0917
        self,
        log: npt.NDArray[np.uint64],
        n: int,
        rule: npt.NDArray[np.int64],
        counts: npt.NDArray[np.int64],
        hands: npt.NDArray[np.int64],
        carry: npt.NDArray[np.int64],
    ) -> None:
        """As :func:`hazard.sim.kernels.tally`: add the first ``n`` rounds of ``log`` to the counts."""
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
        """As :func:`hazard.sim.kernels.play_sessions`: the throws used, or -1 if there were too few."""
        sessions, players = out_bank.shape
        if out_ruin.shape != (sessions, players) or out_stats.shape != (sessions, 7):
            raise ValueError("play_sessions: the outputs must be (sessions, players) and (sessions, 7)")
        if len(bankrolls) != players or len(settings) != 5 or len(net) != len(rule):
            raise ValueError("play_sessions: bankrolls, settings, net and rule do not fit together")
        used = int(
            self._sessions(
                _address(digits, np.uint8, 1),
                len(digits),
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

    def warm_up(self, sessions: bool = False) -> None:
        """Nothing to do: the library was loaded (or built) when these kernels were made."""
