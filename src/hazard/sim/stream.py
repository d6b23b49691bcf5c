"""Where the dice come from: seeded, reproducible streams of throws.

The scheme, which fixes every result a seed gives whatever the chunk size or the number of workers:

- The work is cut into *blocks* of a fixed size (:data:`BLOCK_ROUNDS` rounds, or :data:`BLOCK_SESSIONS`
  sessions, fewer for long sessions: :func:`block_sessions`, a function of the rounds per session alone).
  Block ``b`` of kind ``k`` is played on :data:`LANES` lanes, lane ``j`` drawing from its own generator
  ``PCG64(SeedSequence(seed, spawn_key=(k, b, j)))``. Blocks are independent, so any worker may
  play any block, in any order, and the results are added up by block.
- A lane's 64-bit words become throws: a word ``w`` at or above :data:`WORD_LIMIT` (140 x 36^11, about one
  word in a thousand) is discarded, so that ``w mod 36^11`` is uniform, and its 11 base-36 digits, least
  significant first, are 11 independent uniform throws (digit ``d`` is ``Roll(d // 6 + 1, d % 6 + 1)``).
- A lane of a round block plays its rounds back to back from its throws, and stops after its share of the
  block's rounds (the first lane takes the odd round). A chunk is only how many rounds a lane plays per
  call of the kernel: a lane keeps its part-used word and its round in progress from one call to the
  next, so the throws it uses, and so every count, do not depend on it.

>>> digits_of_word(1234567)[:4]
[19, 21, 16, 26]
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

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
    "block_sessions",
    "check_seed",
    "digits_of_word",
    "lane_generator",
    "pair_tables",
    "reference_digits",
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


def lane_generator(seed: int, kind: int, block: int, lane: int) -> np.random.PCG64:
    """The bit generator of one lane of one block (see the module's description of the scheme)."""
    return np.random.PCG64(np.random.SeedSequence(check_seed(seed), spawn_key=(kind, block, lane)))


def pair_tables() -> tuple[npt.NDArray[np.uint64], npt.NDArray[np.uint64]]:
    """The low and high digit of each pair ``0 .. 1295`` (a pair is two base-36 digits), for the kernels."""
    pairs = np.arange(36 * 36, dtype=np.uint64)
    return pairs % np.uint64(36), pairs // np.uint64(36)


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
    raw = lane_generator(seed, kind, block, lane).random_raw(words)
    return [digit for word in raw.tolist() for digit in digits_of_word(int(word))]
