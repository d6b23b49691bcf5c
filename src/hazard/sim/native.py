"""The simulator's kernels in C (``native.c``, with the tally in ``tally.c``; ``session.c`` for sessions;
``seed.c`` for a lane's seeding; ``simd.c``, ``simd256.c``, ``simd512.c`` and ``simdneon.c`` for the vector
paths),
compiled into the package when it is installed, loaded with ctypes.

setup.py builds the C files (with ``_module.c``, an empty module around them) as the
extension ``hazard.sim._native``, so a wheel carries it for its platform and nothing is compiled, cached or
checked at run time. This module loads that file with ctypes and calls the kernels' C functions directly:
they take plain arrays and each lane's generator (:class:`~hazard.sim.stream.Lane`), never a Python object,
and ctypes releases the GIL around each call, so the worker threads run them on every core. Loading takes
about a millisecond.

Every array is checked here before a call (the C code trusts its arguments), and the constants the C code
was built with are checked against :mod:`hazard.sim.stream` and :mod:`hazard.sim.tables` when it loads.
The tests hold the kernels, bit for bit, to a plain-Python reference of the same algorithms.

A study of rounds plays on the best of the kernel's paths (:data:`KERNEL_PATHS`) that this CPU offers,
unless :data:`PATH_VARIABLE` forces one; every path gives the same counts.
"""

from __future__ import annotations

import ctypes
import importlib.util
import os
from collections.abc import Sequence
from functools import cache
from pathlib import Path
from typing import Any

from hazard.core.errors import InvalidError
from hazard.sim.stream import DIGITS_PER_WORD, WORD_LIMIT, Lane, check_seed, pair_tables
from hazard.sim.tables import CODE_SHIFT, HAND_BUCKETS, NEXT_MASK, TALLY_WAYS, THROW_BIT, THROW_BUCKETS

__all__ = [
    "BLOCKS_PER_CALL",
    "EXTENSION",
    "KERNEL_PATHS",
    "PATH_VARIABLE",
    "SESSION_MAX_PLAYERS",
    "Buffer",
    "NativeKernels",
    "NativeUnavailable",
    "library_file",
    "load",
]

EXTENSION = "hazard.sim._native"
"""The extension module the build compiles the kernels into."""

Buffer = Any
"""What the kernels read and write: any C-contiguous, writable buffer of 8-byte items (an ``array.array``
of ``q``, ``Q`` or ``d``; a NumPy array of int64, uint64 or float64), checked before each call."""

SESSION_MAX_PLAYERS = 64
"""The most players the session kernel seats (``MAX_PLAYERS`` in session.c; SessionConfig's most)."""

KERNEL_PATHS = ("portable", "avx2", "avx512", "neon")
"""The kernel's paths for a block of rounds, by number as simd.c has them: the portable C, always built,
the vector paths for x86-64 CPUs with AVX2 or AVX-512, and the NEON (Advanced SIMD) path for aarch64 CPUs
(each built under GCC and Clang)."""

PATH_VARIABLE = "HAZARD_KERNEL_PATH"
"""The environment variable that forces a path (one of :data:`KERNEL_PATHS`); unset, the best this CPU
has is used."""

BLOCKS_PER_CALL = {"portable": 1, "avx2": 8, "avx512": 32, "neon": 8}
"""Blocks a study of rounds hands the kernel at a time on each path: a vector path plays two lanes a
block, eight (AVX2) or sixteen (AVX-512) lanes to a vector, two vectors in step (AVX-512: up to four), or
four lanes to a vector, four vectors in step (NEON)."""

_MASK64 = (1 << 64) - 1
_u64p = ctypes.POINTER(ctypes.c_uint64)
_VOID = ctypes.c_void_p
_I64 = ctypes.c_int64
_KINDS = {"Q": "uint64", "L": "uint64", "q": "int64", "l": "int64", "d": "float64"}


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


def _view(buffer: Buffer) -> memoryview:
    try:
        return memoryview(buffer)
    except TypeError:
        raise ValueError(
            f"expected a C-contiguous buffer of 8-byte items, got {type(buffer).__name__}"
        ) from None


def _address(buffer: Buffer, kind: str, size: int | None = None) -> int:
    """The data address of ``buffer``, which must be a C-contiguous, writable buffer of 8-byte ``kind``
    items (of ``size`` items, where given): the C code trusts its arguments, so every one is checked here."""
    with _view(buffer) as view:
        fits = view.itemsize == 8 and _KINDS.get(view.format.lstrip("@=<")) == kind
        if not fits or not view.c_contiguous or view.readonly:
            raise ValueError(f"expected a C-contiguous, writable {kind} buffer (got format {view.format!r})")
        count = view.nbytes // 8
    if size is not None and count != size:
        raise ValueError(f"expected a buffer of {size} {kind} items, got {count}")
    return ctypes.addressof(ctypes.c_char.from_buffer(buffer)) if count else 0


def _items(buffer: Buffer) -> int:
    """How many 8-byte items ``buffer`` holds."""
    with _view(buffer) as view:
        return view.nbytes // 8


def _lane(lane: Lane) -> int:
    """The address of a lane's generator (:class:`~hazard.sim.stream.Lane`, ``hazard_lane`` in C)."""
    if not isinstance(lane, Lane):
        raise ValueError(f"expected a lane's generator (hazard.sim.stream.Lane), got {type(lane).__name__}")
    return ctypes.addressof(lane)


def _chosen_path(offered: tuple[str, ...]) -> str:
    """The path :data:`PATH_VARIABLE` names (refused where it is no path, or one this CPU lacks), else the
    best one ``offered``."""
    wanted = os.environ.get(PATH_VARIABLE, "").strip()
    if not wanted:
        return offered[-1]
    if wanted not in KERNEL_PATHS:
        raise InvalidError(
            f"invalid {PATH_VARIABLE} {wanted!r}: expected one of {', '.join(KERNEL_PATHS)} (or unset, for "
            "the best this CPU has)"
        )
    if wanted not in offered:
        raise InvalidError(
            f"invalid {PATH_VARIABLE} {wanted!r}: this CPU (or this build) has only {', '.join(offered)}"
        )
    return wanted


def _foreign(library: ctypes.CDLL, name: str, argtypes: list[Any], restype: Any = None) -> Any:
    """The library's function ``name``, declared with its arguments' and its result's C types; a library
    without it is refused as a build of another version."""
    try:
        function = getattr(library, name)
    except AttributeError:
        raise NativeUnavailable(
            f"the C kernels in {library._name} were built from another version of hazard (they have no "
            f"{name}): install it again"
        ) from None
    function.argtypes = argtypes
    function.restype = restype
    return function


def _check_constants(library: ctypes.CDLL, path: Path) -> None:
    """Refuse a build whose constants are not hazard.sim's: a stale or mismatched install."""
    constants = (ctypes.c_uint64 * 7)()
    _foreign(library, "hazard_constants", [_u64p])(constants)
    expected = [DIGITS_PER_WORD, WORD_LIMIT, NEXT_MASK, THROW_BIT, CODE_SHIFT, THROW_BUCKETS, HAND_BUCKETS]
    if list(constants) != expected:
        raise NativeUnavailable(
            f"the C kernels in {path} were built from another version of hazard (their constants differ "
            "from hazard.sim's): install it again"
        )
    session_constants = (ctypes.c_uint64 * 6)()
    _foreign(library, "hazard_session_constants", [_u64p])(session_constants)
    if list(session_constants) != [*expected[:5], SESSION_MAX_PLAYERS]:
        raise NativeUnavailable(
            f"the session kernel in {path} was built from another version of hazard (its constants "
            "differ from hazard.sim's): install it again"
        )


def _session_arrays(  # noqa: PLR0917
    call: str,
    entries: Buffer,
    start: int,
    net: Buffer,
    rule: Buffer,
    settings: Buffer,
    bankrolls: Buffer,
    out_bank: Buffer,
    out_ruin: Buffer,
    out_stats: Buffer,
) -> tuple[Any, ...]:
    """The session kernels' arguments from the table on, checked, as both C functions take them after
    their lane or their seed; ``call`` names the caller in a refusal."""
    players = _items(bankrolls)
    sessions = _items(out_bank) // max(players, 1)
    if not 1 <= players <= SESSION_MAX_PLAYERS:
        raise ValueError(f"{call}: expected 1 to {SESSION_MAX_PLAYERS} players")
    if _items(out_bank) != sessions * players or _items(net) != _items(rule):
        raise ValueError(f"{call}: bankrolls, outputs, net and rule do not fit together")
    return (
        _address(entries, "uint64"),
        int(start),
        _address(net, "float64"),
        _address(rule, "int64"),
        _address(settings, "float64", 7),
        _address(bankrolls, "float64"),
        players,
        sessions,
        _address(out_bank, "float64"),
        _address(out_ruin, "int64", sessions * players),
        _address(out_stats, "float64", sessions * 7),
        _items(net),
    )


class NativeKernels:
    """The C kernels behind the calls :class:`~hazard.sim.backend.Kernels` names (arrays checked first)."""

    name = "native"

    def __init__(self, library: ctypes.CDLL, path: Path) -> None:
        self.path = path
        _check_constants(library, path)
        bits = int(_foreign(library, "hazard_kernel_paths", [], _I64)())
        self.kernel_paths = tuple(name for n, name in enumerate(KERNEL_PATHS) if bits >> n & 1)
        """The paths this build and CPU offer, the portable one first and the best last."""
        self.kernel_path = _chosen_path(self.kernel_paths)
        """The path a block of rounds is played on (:data:`PATH_VARIABLE`, else the best offered)."""
        self.blocks_per_call = BLOCKS_PER_CALL[self.kernel_path]
        """How many blocks a study of rounds hands :meth:`play_blocks` at a time."""
        self._play_lanes = _foreign(
            library, "hazard_play_lanes", [_VOID, _VOID, _I64, _I64, _VOID, _I64, *[_VOID] * 6]
        )
        self._play_block = _foreign(
            library,
            "hazard_play_block",
            [_VOID, _VOID, _I64, _I64, _I64, _VOID, _I64, _I64, *[_VOID] * 3, _I64, _VOID, _VOID],
            _I64,
        )
        self._play_blocks = _foreign(
            library,
            "hazard_play_blocks",
            [_VOID, _I64, _VOID, _I64, _VOID, _I64, _I64, *[_VOID] * 3, _I64, _VOID, _VOID, _I64],
            _I64,
        )
        self._tally = _foreign(library, "hazard_tally", [_VOID, _I64, _VOID, _I64, _VOID, _VOID, _VOID])
        self._sessions = _foreign(
            library,
            "hazard_play_sessions",
            [_VOID, _VOID, _I64, *[_VOID] * 4, _I64, _I64, *[_VOID] * 3, _I64],
            _I64,
        )
        self._session_blocks = _foreign(
            library,
            "hazard_play_session_blocks",
            [*[ctypes.c_uint64] * 4, _I64, _VOID, _I64, *[_VOID] * 4, _I64, _I64, *[_VOID] * 3, _I64],
            _I64,
        )
        self._seeded_lane = _foreign(library, "hazard_seed_lane", [*[ctypes.c_uint64] * 5, _VOID])
        self._add = _foreign(library, "hazard_add", [_VOID, _VOID, _I64, _I64])
        self._words = _foreign(library, "hazard_lane_words", [_VOID, _VOID, _I64])

    @staticmethod
    def pair_tables() -> tuple[Buffer, Buffer]:
        """The low and high digit of each pair of base-36 digits (:func:`~hazard.sim.stream.pair_tables`)."""
        return pair_tables()

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
    ) -> tuple[int, int]:
        """Play the two lanes of a block until each has logged its target of rounds; the rounds logged.

        ``bits0`` and ``bits1`` are the lanes' generators, whose state moves on; ``carry`` (2 by 4: each
        lane's state offset, throws in the round, word being used, digits left in it) keeps where each lane
        stood, so a lane goes on from one call to the next as if never stopped. Each log holds its target +
        1 entries, each round logged as ``code << 32 | throws``."""
        if _items(log0) <= target0 or _items(log1) <= target1 or min(target0, target1) < 0:
            raise ValueError("play_lanes: each log must hold its target + 1 entries")
        logged = (ctypes.c_int64 * 2)()
        self._play_lanes(
            _lane(bits0),
            _lane(bits1),
            int(target0),
            int(target1),
            _address(entries, "uint64"),
            _items(entries),
            _address(carry, "uint64", 8),
            _address(log0, "uint64"),
            _address(log1, "uint64"),
            _address(low, "uint64", 36 * 36),
            _address(high, "uint64", 36 * 36),
            ctypes.addressof(logged),
        )
        return int(logged[0]), int(logged[1])

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
    ) -> None:
        """Play a block's two lanes from their first throw until each has logged its quota of rounds, and
        add them to ``counts`` and ``hands`` (as :meth:`tally` has them) as they go, in one call: the same
        counts as :meth:`play_lanes` and :meth:`tally` called ``chunk`` rounds a lane at a time (the size of
        the logs held), each lane starting at the entry offset ``start`` with no hand in progress."""
        if min(quota0, quota1) < 0 or chunk < 1 or not 0 <= start < _items(entries):
            raise ValueError("play_block: quotas of 0 or more, a chunk of 1 or more, a start within entries")
        codes = _items(rule)
        result = self._play_block(
            _lane(bits0),
            _lane(bits1),
            int(quota0),
            int(quota1),
            int(chunk),
            _address(entries, "uint64"),
            _items(entries),
            int(start),
            _address(low, "uint64", 36 * 36),
            _address(high, "uint64", 36 * 36),
            _address(rule, "int64"),
            codes,
            _address(counts, "int64", TALLY_WAYS * codes * (THROW_BUCKETS + 2)),
            _address(hands, "int64", TALLY_WAYS * (HAND_BUCKETS + 2)),
        )
        if result == -2:
            raise MemoryError("play_block: out of memory for the logs")

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
    ) -> None:
        """Play several blocks as :meth:`play_block` plays one (block ``b``'s lanes ``lanes[2b]`` and
        ``lanes[2b + 1]``, with quotas ``quotas[2b]`` and ``quotas[2b + 1]``), all added to the one
        ``counts`` and ``hands``: on :attr:`kernel_path`, or ``path`` (one of :attr:`kernel_paths`). Every
        path gives the same counts, added up over their four copies."""
        path = self.kernel_path if path is None else path
        if path not in self.kernel_paths:
            raise ValueError(
                f"play_blocks: no path {path!r} here (this CPU has {', '.join(self.kernel_paths)})"
            )
        if len(lanes) != len(quotas) or len(lanes) % 2:
            raise ValueError("play_blocks: two lanes a block, and a quota for each")
        if min(quotas, default=0) < 0 or chunk < 1 or not 0 <= start < _items(entries):
            raise ValueError("play_blocks: quotas of 0 or more, a chunk of 1 or more, a start within entries")
        bits = (Lane * len(lanes))(*lanes)
        wanted = (ctypes.c_int64 * len(quotas))(*quotas)  # held here: the call reads it
        codes = _items(rule)
        result = self._play_blocks(
            ctypes.addressof(bits),
            len(lanes) // 2,
            ctypes.addressof(wanted),
            int(chunk),
            _address(entries, "uint64"),
            _items(entries),
            int(start),
            _address(low, "uint64", 36 * 36),
            _address(high, "uint64", 36 * 36),
            _address(rule, "int64"),
            codes,
            _address(counts, "int64", TALLY_WAYS * codes * (THROW_BUCKETS + 2)),
            _address(hands, "int64", TALLY_WAYS * (HAND_BUCKETS + 2)),
            KERNEL_PATHS.index(path),
        )
        if result == -2:
            raise MemoryError("play_blocks: out of memory")
        if result != 0:  # pragma: no cover - the path was checked above
            raise NativeUnavailable(f"play_blocks: the kernels refused the path {path!r}")
        for lane, played in zip(lanes, bits, strict=True):  # the lanes move on, as play_block's do
            ctypes.pointer(lane)[0] = played

    def tally(  # noqa: PLR0917
        self,
        log: Buffer,
        n: int,
        rule: Buffer,
        counts: Buffer,
        hands: Buffer,
        carry: Buffer,
    ) -> None:
        """Add the first ``n`` rounds of a lane's ``log`` to the counts by outcome code and number of throws,
        and to the hands (rounds a caster kept the dice) by the dice-passing ``rule``; ``carry`` holds the
        losing streak and the hand in progress. ``counts`` is (ways, codes, throw buckets + 2) and ``hands``
        (ways, hand buckets + 2), flat or not."""
        codes = _items(rule)
        if not 0 <= n <= _items(log):
            raise ValueError("tally: n must be within the log")
        self._tally(
            _address(log, "uint64"),
            int(n),
            _address(rule, "int64"),
            codes,
            _address(counts, "int64", TALLY_WAYS * codes * (THROW_BUCKETS + 2)),
            _address(hands, "int64", TALLY_WAYS * (HAND_BUCKETS + 2)),
            _address(carry, "int64", 2),
        )

    def add(self, into: Buffer, counts: Buffer, ways: int) -> None:
        """``into[i] +=`` the sum of ``counts[w * n + i]`` over the ``ways`` copies of ``n`` counts."""
        n = _items(into)
        self._add(_address(into, "int64"), _address(counts, "int64", n * ways), n, int(ways))

    def seeded_lane(self, seed: int, kind: int, block: int, lane: int) -> Lane:
        """The generator of one lane of one block, seeded in C: the same as
        :func:`~hazard.sim.stream.lane_generator` gives, in a fraction of the time."""
        check_seed(seed)
        if not all(0 <= key < 2**64 for key in (kind, block, lane)):
            raise ValueError("seeded_lane: each spawn key must be from 0 to 2**64 - 1")
        out = Lane()
        self._seeded_lane(seed >> 64, seed & _MASK64, kind, block, lane, ctypes.addressof(out))
        return out

    def lane_words(self, lane: Lane, n: int) -> list[int]:
        """The next ``n`` words of a lane's generator, drawn in C."""
        out = (ctypes.c_uint64 * max(n, 0))()
        self._words(_lane(lane), ctypes.addressof(out), max(n, 0))
        return list(out)

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
    ) -> int:
        """Play the sessions of a block, round by round, with bankrolls and stakes, their throws drawn from
        ``bits`` as they are needed (session.c); the throws drawn. Money goes in as grains (``bankrolls``;
        ``net``, the caster's net by outcome code, in grains per base stake), and comes out in units.
        ``settings``: rounds, staking, the grain (grains in the base stake), progression cap, the most a
        base stake can win the caster (in grains), the stake arrangement, the base stake (in units).
        ``out_bank`` and ``out_ruin`` are (sessions, players), ``out_stats`` (sessions, 7)."""
        arrays = (entries, start, net, rule, settings, bankrolls, out_bank, out_ruin, out_stats)
        used = int(self._sessions(_lane(bits), *_session_arrays("play_sessions", *arrays)))
        if used == -2:
            raise MemoryError("play_sessions: out of memory")
        return used

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
    ) -> None:
        """Play blocks of ``per_block`` sessions from block ``first_block`` of stream ``kind``, each from its
        own lane seeded from ``seed`` (:meth:`seeded_lane`), as many as the outputs hold (the last block may
        be shorter): what :meth:`play_sessions` gives block by block, in one call (session.c)."""
        check_seed(seed)
        if per_block < 1:
            raise ValueError("play_session_blocks: expected blocks of 1 or more sessions")
        arrays = (entries, start, net, rule, settings, bankrolls, out_bank, out_ruin, out_stats)
        checked = _session_arrays("play_session_blocks", *arrays)
        blocks = -(-(_items(out_bank) // _items(bankrolls)) // per_block)
        if not (0 <= kind < 2**64 and first_block >= 0 and first_block + blocks <= 2**64):
            raise ValueError("play_session_blocks: each spawn key must be from 0 to 2**64 - 1")
        refused = self._session_blocks(seed >> 64, seed & _MASK64, kind, first_block, per_block, *checked)
        if refused == -2:
            raise MemoryError("play_session_blocks: out of memory")
