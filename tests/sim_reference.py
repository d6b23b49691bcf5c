"""The simulator's kernels in plain Python: the reference the compiled C kernels are held to, bit for bit.

The same algorithms as ``src/hazard/sim/native.c``, written plainly (and slowly): the tests run both on the
same throws and require the same answer. They take their arrays positionally, as the C kernels are called
(hence the PLR0917 exceptions), and behave as :class:`hazard.sim.backend.Kernels` through
:class:`ReferenceKernels`.

- :func:`play_lanes` plays the rounds of the two lanes of a block side by side, one throw of each per step,
  without a branch on how a throw ends: each throw appends ``code << 32 | throws`` to its lane's log and
  moves the log's end on by one only when the round ended (code > 0).
- :func:`tally` reads a lane's log: counts by outcome code and by number of throws, the sums of throws and
  of their squares, and how many rounds each caster kept the dice.
- :func:`play_block` plays a block's two lanes to their quotas a chunk at a time, each chunk logged by
  :func:`play_lanes` and then tallied by :func:`tally` (what the C kernel does in one call).
- :func:`play_sessions` plays whole sessions at a table, round by round, with bankrolls and stakes.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from hazard.core.staking import StakingPlan
from hazard.sim.session import _STAKING_CODE, SessionRows, SessionTally, _joined
from hazard.sim.stream import DIGITS_PER_WORD, WORD_LIMIT, lane_generator, lane_words, pair_tables
from hazard.sim.tables import CODE_SHIFT, HAND_BUCKETS, NEXT_MASK, TALLY_WAYS, THROW_BIT, THROW_BUCKETS

__all__ = ["ReferenceKernels", "play_block", "play_lanes", "play_sessions", "session_rows", "tally"]

_LIMIT = np.uint64(WORD_LIMIT)
_M11 = np.uint64(36**DIGITS_PER_WORD)
_PAIR = np.uint64(36 * 36)
_SIX_SQUARED = np.uint64(36)
_PAIRS = (DIGITS_PER_WORD - 1) // 2
_MASK = np.uint64(NEXT_MASK)
_THROW = np.uint64(THROW_BIT)
_ONE = np.uint64(1)
_CODE = np.uint64(CODE_SHIFT)
_HIGH = np.uint64(32)
_LOW = np.uint64(0xFFFFFFFF)
_ZERO = np.uint64(0)
_LAST = THROW_BUCKETS - 1
_LAST_HAND = HAND_BUCKETS - 1


def _step(entries, offset, throws, end, digit, log):  # type: ignore[no-untyped-def]  # noqa: PLR0917
    entry = np.uint64(entries[offset + digit])
    offset = entry & _MASK
    code = entry >> _CODE
    throws += (entry >> _THROW) & _ONE
    log[end] = (code << _HIGH) | throws
    end += np.uint64(code != _ZERO)
    throws = throws if code == _ZERO else _ZERO
    return offset, throws, end


def _next(bits: Any) -> np.uint64:
    """The next 64-bit word of a lane's PCG64, stepped in Python (:func:`hazard.sim.stream.lane_words`)."""
    return np.uint64(lane_words(bits, 1)[0])


def _word(bits):  # type: ignore[no-untyped-def]
    """The next accepted word of a lane, reduced mod 36^11: 11 uniform base-36 digits."""
    word = _next(bits)
    while word >= _LIMIT:
        word = _next(bits)
    return word % _M11


def play_one(bits, target, entries, carry, lane, log, align):  # type: ignore[no-untyped-def]  # noqa: PLR0917
    """Play one lane, a throw at a time, until it has logged ``target`` rounds; return the rounds logged.

    ``carry[lane]`` is ``[state offset, throws in the round, word being used, digits left in it]``. With
    ``align``, stop as well at the end of the word being used.
    """
    offset = carry[lane, 0]
    throws = carry[lane, 1]
    x = carry[lane, 2]
    left = carry[lane, 3]
    end = _ZERO
    goal = np.uint64(target)
    while end < goal:
        if left == _ZERO:
            if align:
                break
            x = _word(bits)
            left = np.uint64(DIGITS_PER_WORD)
        digit = x % _SIX_SQUARED
        x = x // _SIX_SQUARED
        left -= _ONE
        offset, throws, end = _step(entries, offset, throws, end, digit, log)
    carry[lane, 0] = offset
    carry[lane, 1] = throws
    carry[lane, 2] = x
    carry[lane, 3] = left
    return np.int64(end)


def play_lanes(bits0, bits1, target0, target1, entries, carry, log0, log1, low, high):  # type: ignore[no-untyped-def]  # noqa: PLR0917
    """Play the two lanes of a block until each has logged its target of rounds; return the rounds logged.

    ``bits0`` and ``bits1`` are the lanes' bit generators (``Generator.bit_generator``), whose state moves
    on; ``carry`` (``(2, 4)``, see :func:`play_one`) keeps where each lane stood, so a lane goes on from one
    call to the next as if never stopped. Each log must hold ``target + 1`` entries. While both lanes are
    far from their targets they move in step, a word (11 throws) of each at a time; each then finishes
    alone, a throw at a time.
    """
    e0 = np.int64(0)
    e1 = np.int64(0)
    if carry[0, 3] != _ZERO:  # finish the words left part-used by the last call, one lane at a time
        e0 = play_one(bits0, target0, entries, carry, 0, log0, True)
    if carry[1, 3] != _ZERO:
        e1 = play_one(bits1, target1, entries, carry, 1, log1, True)
    if carry[0, 3] == _ZERO and carry[1, 3] == _ZERO:
        o0 = carry[0, 0]
        t0 = carry[0, 1]
        o1 = carry[1, 0]
        t1 = carry[1, 1]
        u0 = np.uint64(e0)
        u1 = np.uint64(e1)
        # A word ends at most 11 rounds, so neither lane can pass its target within the word.
        stop0 = np.uint64(max(target0 - DIGITS_PER_WORD, 0))
        stop1 = np.uint64(max(target1 - DIGITS_PER_WORD, 0))
        while u0 < stop0 and u1 < stop1:
            x0 = _word(bits0)
            x1 = _word(bits1)
            for _ in range(_PAIRS):
                q0 = x0 % _PAIR
                x0 = x0 // _PAIR
                q1 = x1 % _PAIR
                x1 = x1 // _PAIR
                o0, t0, u0 = _step(entries, o0, t0, u0, low[q0], log0)
                o1, t1, u1 = _step(entries, o1, t1, u1, low[q1], log1)
                o0, t0, u0 = _step(entries, o0, t0, u0, high[q0], log0)
                o1, t1, u1 = _step(entries, o1, t1, u1, high[q1], log1)
            o0, t0, u0 = _step(entries, o0, t0, u0, x0, log0)
            o1, t1, u1 = _step(entries, o1, t1, u1, x1, log1)
        carry[0, 0] = o0
        carry[0, 1] = t0
        carry[1, 0] = o1
        carry[1, 1] = t1
        e0 = np.int64(u0)
        e1 = np.int64(u1)
    e0 += play_one(bits0, target0 - e0, entries, carry, 0, log0[e0:], False)
    e1 += play_one(bits1, target1 - e1, entries, carry, 1, log1[e1:], False)
    return e0, e1


def tally(log, n, rule, counts, hands, carry):  # type: ignore[no-untyped-def]  # noqa: PLR0917
    """Add the first ``n`` rounds of a lane's ``log`` to the counts.

    ``rule`` is :meth:`~hazard.sim.tables.CompiledRules.passing_rule`, compiled from
    :mod:`hazard.core.passing`: an int64 array by outcome code, bit 0 a win (the count of losses starts
    again), bit 1 a loss that counts towards passing the dice, bit 2 no main (the dice pass at once);
    ``rule[0]`` is the number of counted losses in a row that pass the dice (0: never). ``counts`` is
    ``(4, codes, THROW_BUCKETS + 2)``: four copies (to be added up) of the rounds by number of throws (the
    last bucket for every longer round), then the sum of the throws and of their squares of those longer
    rounds. ``hands`` is ``(4, HAND_BUCKETS + 2)``, the same for the rounds
    each caster kept the dice. ``carry`` holds the losing streak and the rounds of the hand in progress.
    """
    # Unsigned indices throughout, as the C kernel has them.
    after = np.uint64(rule[0])
    streak = np.uint64(carry[0])
    kept = np.uint64(carry[1])
    # Four copies of each tally, taken in turn, so that repeated outcomes do not wait on each other.
    flat = counts.ravel()
    width = np.uint64(counts.shape[2])
    copy = np.uint64(counts.shape[1]) * width
    hand_copy = np.uint64(hands.shape[1])
    hand_flat = hands.ravel()
    last = np.uint64(_LAST)
    last_hand = np.uint64(_LAST_HAND)
    one = np.uint64(1)
    for i in range(n):
        value = log[i]
        code = value >> _HIGH
        throws = value & _LOW
        row = np.uint64(i & 3) * copy + code * width
        flat[row + min(throws, last)] += 1
        if throws >= last:  # rare: exact sums for the long rounds the last bucket lumps together
            flat[row + np.uint64(THROW_BUCKETS)] += np.int64(throws)
            flat[row + np.uint64(THROW_BUCKETS + 1)] += np.int64(throws * throws)
    passes = after > _ZERO
    for code in range(1, rule.shape[0]):
        passes |= (rule[code] & 4) != 0
    if not passes:
        return
    # Masks, not branches: a win clears the streak, a counted loss adds to it, no main passes at once.
    # Where one counted loss passes the dice the streak is not needed, and the loop carries less.
    for i in range(n):
        flags = np.uint64(rule[log[i] >> _HIGH])
        win = flags & one
        counted = (flags >> one) & one
        no_main = (flags >> np.uint64(2)) & one
        kept += one - no_main
        if after <= one:
            passed = no_main | counted
        else:
            streak = (streak + counted) & (win - one)
            passed = no_main | (counted & np.uint64(streak >= after))
        hand_row = np.uint64(i & 3) * hand_copy
        hand_flat[hand_row + min(kept, last_hand)] += np.int64(passed)
        if kept >= last_hand:
            hand_flat[hand_row + np.uint64(HAND_BUCKETS)] += np.int64(kept * passed)
            hand_flat[hand_row + np.uint64(HAND_BUCKETS + 1)] += np.int64(kept * kept * passed)
        keep = passed - one
        streak &= keep
        kept &= keep
    carry[0] = np.int64(streak)
    carry[1] = np.int64(kept)


def play_block(bits0, bits1, quota0, quota1, chunk, entries, start, low, high, rule, counts, hands):  # type: ignore[no-untyped-def]  # noqa: PLR0917
    """Play a block's two lanes from their first throw to their quotas of rounds, ``chunk`` rounds a lane at a
    time: each chunk logged by :func:`play_lanes`, then each lane's log added to the counts by :func:`tally`,
    each lane with its own hand carry (starting at no hand in progress)."""
    quotas = [quota0, quota1]
    done = [0, 0]
    carry = np.zeros((2, 4), dtype=np.uint64)
    carry[:, 0] = start
    hand_carry = [np.zeros(2, dtype=np.int64) for _ in range(2)]
    logs = [np.zeros(min(chunk, max(quotas)) + 1, dtype=np.uint64) for _ in range(2)]
    while done != quotas:
        targets = [min(chunk, q - d) for q, d in zip(quotas, done, strict=True)]
        logged = play_lanes(bits0, bits1, targets[0], targets[1], entries, carry, logs[0], logs[1], low, high)
        for lane in range(2):
            tally(logs[lane], int(logged[lane]), rule, counts, hands, hand_carry[lane])
            done[lane] += int(logged[lane])


def _throws(bits: Any) -> Any:
    """A block's throws, drawn as they are needed: 11 of each accepted word, lowest base-36 digit first."""
    while True:
        x = _word(bits)
        for _ in range(DIGITS_PER_WORD):
            yield x % _SIX_SQUARED
            x = x // _SIX_SQUARED


def play_sessions(  # type: ignore[no-untyped-def]  # noqa: PLR0917
    bits, entries, start, net, rule, settings, bankrolls, out_bank, out_ruin, out_stats
):
    """Play the sessions of a block, their throws drawn from ``bits`` as needed; return the throws drawn.

    Money is counted in grains, the base stake being ``grain`` of them: ``bankrolls`` (each player's at the
    start) and ``net`` (the caster's net by outcome code, per base stake) are in grains; what comes out is
    in units. ``rule`` is as for :func:`tally`. ``settings`` is ``[rounds, staking, grain, progression cap,
    most won (grains per base stake), arrangement, base stake]`` (staking: 0 flat, 1 martingale, 2 paroli;
    arrangement 1: one setter's sum a round, else every setter who can). For session ``s``:
    ``out_bank[s]`` the final bankrolls, ``out_ruin[s]`` the round each player was ruined in (-1: never),
    and ``out_stats[s]`` ``[rounds played, hands passed by the rule, rounds in them, their squares,
    setters' take, total staked, throws]``. The model is hazard.sim.session's, written plainly: the seats
    left a list in turn, each stake as a multiple of the base.
    """
    rounds = int(settings[0])
    staking = {code: kind for kind, code in _STAKING_CODE.items()}[int(settings[1])]
    grain = float(settings[2])
    plan = StakingPlan(staking, int(settings[3]) or None)  # flat has no cap: its own default, 0
    most_won = float(settings[4])
    one_setter = settings[5] == 1
    unit = float(settings[6])
    after = rule[0]
    players = bankrolls.shape[0]
    throws_drawn = _throws(bits)
    pos = 0
    for s in range(out_bank.shape[0]):
        bank = [float(b) for b in bankrolls]
        run = [0] * players
        seats = list(range(players))
        at = 0
        for p in range(players):
            out_ruin[s, p] = -1
        streak = kept = played = hands = throws = 0
        hand_rounds = hand_squares = take = staked = 0.0
        for r in range(rounds):
            if len(seats) < 2:
                break
            caster = seats[at]
            free = bank[caster]
            wagers: list[tuple[int, float]] = []  # (setter, his stake as a multiple of the base)
            for k in range(1, len(seats)):
                if one_setter and wagers:
                    break
                p = seats[(at + k) % len(seats)]
                # his progression's stake, or the largest smaller one both sides can cover, or none
                for steps in range(min(plan.steps(run[p]), plan.limit), -1, -1):
                    times = float(plan.multiple(steps))
                    if most_won * times <= bank[p] and grain * times <= free:
                        wagers.append((p, times))
                        free -= grain * times
                        break
            offset = np.uint64(start)
            code = np.int64(0)
            while code == 0:
                entry = np.uint64(entries[offset + next(throws_drawn)])
                pos += 1
                throws += int((entry >> _THROW) & _ONE)
                offset = entry & _MASK
                code = np.int64(entry >> _CODE)
            flags = int(rule[code])
            passed = False
            if flags & 4:
                passed = True
            else:
                played += 1
                kept += 1
                for p, times in wagers:
                    won = float(net[code]) * times
                    bank[caster] += won
                    bank[p] -= won
                    take -= won
                    staked += grain * times
                    # the setter's run as the table keeps it: he won what the caster lost
                    if won < 0:
                        run[p] = run[p] + 1 if run[p] > 0 else 1
                    elif won > 0:
                        run[p] = run[p] - 1 if run[p] < 0 else -1
                if flags & 1:
                    streak = 0
                elif flags & 2:
                    streak += 1
                    passed = streak >= after
            if passed:
                hands += 1
                hand_rounds += kept
                hand_squares += kept * kept
            for p in seats:
                if bank[p] < grain:
                    out_ruin[s, p] = r
            left = [p for p in seats if bank[p] >= grain]
            gone = bank[caster] < grain
            if passed or gone:
                streak = kept = 0
            if left:
                # the dice go to the next player left after the caster: they pass, or he leaves
                behind = sum(1 for p in seats[:at] if bank[p] >= grain)
                at = behind % len(left) if gone else (behind + passed) % len(left)
            seats = left
        for p in range(players):
            out_bank[s, p] = bank[p] / grain * unit
        out_stats[s] = [
            played,
            hands,
            hand_rounds,
            hand_squares,
            take / grain * unit,
            staked / grain * unit,
            throws,
        ]
    return pos


def _view(buffer: Any, dtype: Any, *shape: int) -> Any:
    """A NumPy view of a buffer the simulator hands its kernels (an ``array.array`` or a NumPy array), in
    the shape the functions above index it by: what they write goes to the caller's buffer."""
    return np.frombuffer(buffer, dtype=dtype).reshape(shape or (-1,))


class ReferenceKernels:
    """The functions above behind the calls the simulator makes of its kernels (:class:`Kernels`)."""

    name = "reference"
    blocks_per_call = 3
    """Blocks a study hands :meth:`play_blocks` at a time: several, as a vector path takes them."""

    @staticmethod
    def pair_tables() -> tuple[Any, Any]:
        return pair_tables()

    @staticmethod
    def play_lanes(bits0: Any, bits1: Any, target0: int, target1: int, *arrays: Any) -> tuple[int, int]:
        entries, carry, log0, log1, low, high = arrays
        e0, e1 = play_lanes(
            bits0, bits1, target0, target1, _view(entries, np.uint64), _view(carry, np.uint64, 2, 4),
            _view(log0, np.uint64), _view(log1, np.uint64), _view(low, np.uint64), _view(high, np.uint64),
        )  # fmt: skip
        return int(e0), int(e1)

    @staticmethod
    def play_block(bits0: Any, bits1: Any, quota0: int, quota1: int, chunk: int, *arrays: Any) -> None:
        entries, start, low, high, rule, counts, hands = arrays
        codes = len(_view(rule, np.int64))
        with np.errstate(over="ignore"):  # the masks wrap round in uint64, as C's unsigned arithmetic does
            play_block(
                bits0, bits1, quota0, quota1, chunk, _view(entries, np.uint64), start, _view(low, np.uint64),
                _view(high, np.uint64), _view(rule, np.int64),
                _view(counts, np.int64, TALLY_WAYS, codes, THROW_BUCKETS + 2),
                _view(hands, np.int64, TALLY_WAYS, HAND_BUCKETS + 2),
            )  # fmt: skip

    @staticmethod
    def play_blocks(lanes: Any, quotas: Any, chunk: int, *arrays: Any, path: str | None = None) -> None:
        """Each block as :meth:`play_block` plays it, into the same counts (the reference has one path)."""
        for block in range(len(lanes) // 2):
            a, b = 2 * block, 2 * block + 1
            ReferenceKernels.play_block(lanes[a], lanes[b], quotas[a], quotas[b], chunk, *arrays)

    @staticmethod
    def tally(log: Any, n: int, rule: Any, counts: Any, hands: Any, carry: Any) -> None:  # noqa: PLR0917
        codes = len(_view(rule, np.int64))
        with np.errstate(over="ignore"):  # the masks wrap round in uint64, as C's unsigned arithmetic does
            tally(
                _view(log, np.uint64), n, _view(rule, np.int64),
                _view(counts, np.int64, TALLY_WAYS, codes, THROW_BUCKETS + 2),
                _view(hands, np.int64, TALLY_WAYS, HAND_BUCKETS + 2), _view(carry, np.int64),
            )  # fmt: skip

    @staticmethod
    def add(into: Any, counts: Any, ways: int) -> None:
        total = _view(into, np.int64)
        total += _view(counts, np.int64, ways, len(total)).sum(axis=0)

    @staticmethod
    def seeded_lane(seed: int, kind: int, block: int, lane: int) -> Any:
        return lane_generator(seed, kind, block, lane)

    @staticmethod
    def play_sessions(bits: Any, entries: Any, start: int, *arrays: Any) -> int:
        net, rule, settings, bankrolls, out_bank, out_ruin, out_stats = arrays
        players = len(_view(bankrolls, np.float64))
        return int(
            play_sessions(
                bits,
                _view(entries, np.uint64),
                start,
                _view(net, np.float64),
                _view(rule, np.int64),
                _view(settings, np.float64),
                _view(bankrolls, np.float64),
                _view(out_bank, np.float64, -1, players),
                _view(out_ruin, np.int64, -1, players),
                _view(out_stats, np.float64, -1, 7),
            )
        )

    @staticmethod
    def play_session_blocks(  # noqa: PLR0917
        seed: int, kind: int, first_block: int, per_block: int, entries: Any, start: int, *arrays: Any
    ) -> None:
        """The blocks one at a time, each from its own lane (what the C kernel does in one call)."""
        net, rule, settings, bankrolls, out_bank, out_ruin, out_stats = arrays
        players = len(_view(bankrolls, np.float64))
        bank, ruin = _view(out_bank, np.float64, -1, players), _view(out_ruin, np.int64, -1, players)
        stats = _view(out_stats, np.float64, -1, 7)
        for at in range(0, len(bank), per_block):
            rows = slice(at, at + per_block)
            block = first_block + at // per_block
            play_sessions(
                lane_generator(seed, kind, block, 0), _view(entries, np.uint64), start,
                _view(net, np.float64), _view(rule, np.int64), _view(settings, np.float64),
                _view(bankrolls, np.float64), bank[rows], ruin[rows], stats[rows],
            )  # fmt: skip


def session_rows(study: SessionTally) -> SessionRows:
    """Every session of a study, a row each, played again from its seed (:meth:`SessionTally.replay`)."""
    blocks: list[SessionRows] = []
    study.replay(blocks.append)
    return _joined(blocks)
