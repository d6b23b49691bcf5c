"""Where the dice come from: seeded, reproducible streams of throws.

The scheme, which fixes every result a seed gives whatever the chunk size or the number of workers:

- The work is cut into *blocks* of a fixed size (:data:`BLOCK_ROUNDS` rounds, or :data:`BLOCK_SESSIONS`
  sessions, fewer for long sessions: :func:`block_sessions`, a function of the rounds per session alone).
  Block ``b`` of kind ``k`` is played on :data:`LANES` lanes, lane ``j`` drawing from its own generator,
  NumPy's ``PCG64(SeedSequence(seed, spawn_key=(k, b, j)))`` to the bit: :func:`lane_generator` seeds it
  the way NumPy's ``SeedSequence`` and ``PCG64`` do (written out here, so that a study of rounds needs no
  NumPy), and the kernels step it in C (the tests hold both to NumPy's own). Blocks are independent, so
  any worker may play any block, in any order, and the results are added up by block.
- A lane's 64-bit words become throws: a word ``w`` at or above :data:`WORD_LIMIT` (140 x 36^11, about one
  word in a thousand) is discarded, so that ``w mod 36^11`` is uniform, and its 11 base-36 digits, least
  significant first, are 11 independent uniform throws (digit ``d`` is ``Roll(d // 6 + 1, d % 6 + 1)``).
- A lane of a round block plays its rounds back to back from its throws, and stops after its share of the
  block's rounds (the first lane takes the odd round). A chunk is only how many rounds a lane plays per
  call of the kernel: a lane keeps its part-used word and its round in progress from one call to the
  next, so the throws it uses, and so every count, do not depend on it.

>>> digits_of_word(1234567)[:4]
[19, 21, 16, 26]
>>> lane_words(lane_generator(0, 0, 0, 0), 1)  # NumPy's first word for this lane
[11118994801665663401]
"""

from __future__ import annotations

import ctypes
from array import array

from hazard.core.errors import InvalidError

__all__ = [
    "BLOCK_ROUNDS",
    "BLOCK_SESSIONS",
    "BLOCK_SESSION_ROUNDS",
    "DIGITS_PER_WORD",
    "LANES",
    "MAX_SEED",
    "ROUND_STREAM",
    "SESSION_STREAM",
    "WORD_LIMIT",
    "Lane",
    "block_sessions",
    "check_seed",
    "digits_of_word",
    "lane_generator",
    "lane_words",
    "pair_tables",
    "reference_digits",
    "seed_words",
]

DIGITS_PER_WORD = 11
"""Throws taken from one accepted 64-bit word."""
WORD_LIMIT = 140 * 36**DIGITS_PER_WORD
"""Words at or above this are discarded: below it, ``w mod 36^11`` is exactly uniform."""
LANES = 2
"""Independent streams per block, played side by side by one worker."""
BLOCK_ROUNDS = 1 << 18
"""Rounds in a block of a round study."""
BLOCK_SESSIONS = 16
"""Sessions in a block of a session study, at most: fewer where they are long (:func:`block_sessions`)."""
BLOCK_SESSION_ROUNDS = 1 << 16
"""Rounds a block of sessions holds before it holds fewer sessions: long sessions are blocks of their own, so
a study of a few long sessions still uses every core."""
ROUND_STREAM = 0
"""First spawn key of the streams of a round study."""
SESSION_STREAM = 1
"""First spawn key of the streams of a session study."""
MAX_SEED = 2**128 - 1
"""The largest seed accepted."""


def check_seed(seed: int) -> int:
    """``seed`` if it is a whole number from 0 to :data:`MAX_SEED`; else an :class:`InvalidError`."""
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed <= MAX_SEED:
        raise InvalidError(f"invalid seed {seed!r}: expected a whole number from 0 to 2**128 - 1")
    return seed


def block_sessions(rounds: int) -> int:
    """How many sessions of ``rounds`` rounds a block holds: :data:`BLOCK_SESSIONS`, or fewer so that a block
    holds about :data:`BLOCK_SESSION_ROUNDS` rounds, and at least one session.

    >>> block_sessions(200), block_sessions(10_000), block_sessions(10_000_000)
    (16, 6, 1)
    """
    return max(1, min(BLOCK_SESSIONS, BLOCK_SESSION_ROUNDS // max(rounds, 1)))


class Lane(ctypes.Structure):
    """A lane's generator, PCG64, as the kernels step it (``hazard_lane`` in ``native.c``): the 128-bit
    state and increment, each as two 64-bit halves, high first."""

    _fields_ = (
        ("state_high", ctypes.c_uint64),
        ("state_low", ctypes.c_uint64),
        ("inc_high", ctypes.c_uint64),
        ("inc_low", ctypes.c_uint64),
    )


_MASK32 = 0xFFFF_FFFF
_MASK64 = (1 << 64) - 1
_MASK128 = (1 << 128) - 1
# NumPy's SeedSequence (numpy/random/bit_generator.pyx): its hash constants and pool size
_INIT_A, _MULT_A, _INIT_B, _MULT_B = 0x43B0D7E5, 0x931E8875, 0x8B51F9DD, 0x58F38DED
_MIX_LEFT, _MIX_RIGHT, _XSHIFT, _POOL = 0xCA01F9DD, 0x4973F715, 16, 4
# PCG64's multiplier (numpy/random/src/pcg64)
_PCG_MULTIPLIER = (2549297995355413924 << 64) + 4865540595714422341


def _words32(n: int) -> list[int]:
    """A whole number as 32-bit words, lowest first (0 is one word), as SeedSequence reads its entropy."""
    words = [n & _MASK32]
    n >>= 32
    while n:
        words.append(n & _MASK32)
        n >>= 32
    return words


def seed_words(seed: int, spawn_key: tuple[int, ...]) -> list[int]:
    """The four 64-bit words ``SeedSequence(seed, spawn_key=spawn_key).generate_state(4, uint64)`` gives.

    >>> [hex(w) for w in seed_words(0, (0, 0, 0))][:1]
    ['0x3a231f3ddb40f5fe']
    """
    run = _words32(check_seed(seed))
    spawn = [word for key in spawn_key for word in _words32(key)]
    if spawn and len(run) < _POOL:
        run += [0] * (_POOL - len(run))
    entropy = run + spawn
    hash_const = _INIT_A

    def hashmix(value: int) -> int:
        nonlocal hash_const
        value = (value ^ hash_const) & _MASK32
        hash_const = (hash_const * _MULT_A) & _MASK32
        value = (value * hash_const) & _MASK32
        return value ^ (value >> _XSHIFT)

    def mix(x: int, y: int) -> int:
        result = (_MIX_LEFT * x - _MIX_RIGHT * y) & _MASK32
        return result ^ (result >> _XSHIFT)

    pool = [hashmix(entropy[i] if i < len(entropy) else 0) for i in range(_POOL)]
    for source in range(_POOL):
        for target in range(_POOL):
            if source != target:
                pool[target] = mix(pool[target], hashmix(pool[source]))
    for source in range(_POOL, len(entropy)):
        for target in range(_POOL):
            pool[target] = mix(pool[target], hashmix(entropy[source]))
    hash_const = _INIT_B
    out = []
    for i in range(8):
        value = (pool[i % _POOL] ^ hash_const) & _MASK32
        hash_const = (hash_const * _MULT_B) & _MASK32
        value = (value * hash_const) & _MASK32
        out.append(value ^ (value >> _XSHIFT))
    return [out[2 * i] | (out[2 * i + 1] << 32) for i in range(4)]


def lane_generator(seed: int, kind: int, block: int, lane: int) -> Lane:
    """The generator of one lane of one block (see the module's description of the scheme): PCG64 seeded
    as NumPy seeds it from ``SeedSequence(seed, spawn_key=(kind, block, lane))``."""
    words = seed_words(seed, (kind, block, lane))
    start, sequence = (words[0] << 64) | words[1], (words[2] << 64) | words[3]
    increment = ((sequence << 1) | 1) & _MASK128
    state = (increment + start) & _MASK128  # PCG's seeding: a step from 0, the start added, a step
    state = (state * _PCG_MULTIPLIER + increment) & _MASK128
    return Lane(state >> 64, state & _MASK64, increment >> 64, increment & _MASK64)


def lane_words(lane: Lane, n: int) -> list[int]:
    """The next ``n`` words of ``lane``, stepped here in Python (slowly: a check on the kernels)."""
    state = (lane.state_high << 64) | lane.state_low
    increment = (lane.inc_high << 64) | lane.inc_low
    words = []
    for _ in range(n):
        state = (state * _PCG_MULTIPLIER + increment) & _MASK128
        x = ((state >> 64) ^ state) & _MASK64
        rot = state >> 122
        words.append(((x >> rot) | (x << (64 - rot))) & _MASK64)
    lane.state_high, lane.state_low = state >> 64, state & _MASK64
    return words


def pair_tables() -> tuple[array[int], array[int]]:
    """The low and high digit of each pair ``0 .. 1295`` (a pair is two base-36 digits), for the kernels."""
    pairs = range(36 * 36)
    return array("Q", [p % 36 for p in pairs]), array("Q", [p // 36 for p in pairs])


def digits_of_word(word: int) -> list[int]:
    """The 11 throws (digits 0 to 35) in an accepted word, or none for a discarded one."""
    if word >= WORD_LIMIT:
        return []
    rest = word % 36**DIGITS_PER_WORD
    digits = []
    for _ in range(DIGITS_PER_WORD):
        rest, digit = divmod(rest, 36)
        digits.append(digit)
    return digits


def reference_digits(seed: int, kind: int, block: int, lane: int, words: int) -> list[int]:
    """The throws of a lane's first ``words`` words, computed slowly in Python: a check on the kernels."""
    raw = lane_words(lane_generator(seed, kind, block, lane), words)
    return [digit for word in raw for digit in digits_of_word(word)]
