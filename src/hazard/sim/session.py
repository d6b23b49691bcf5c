"""Session studies: a table of players with bankrolls, an evening of rounds, many evenings.

The model is the table's (:mod:`hazard.table`): a session settles every round as the table service
settles it, and the tests play the same throws through both and compare every bankroll after every round.
Where the table leaves a choice to its players, the study makes one, the same every round:

- The players sit in a ring, each with the same bankroll; the first casts first, and the dice travel round
  the ring (each player's left-hand neighbour is the next caster).
- The caster calls the main the table was compiled for (one main, or one at random each round), or throws
  for it where the ruleset says so.
- Stakes are laid before each round, by the setters (every other player left), asked in turn from the
  caster's left, under the ruleset's stake arrangement (:class:`~hazard.core.rules.StakeArrangement`):
  ``setter-sum``, one setter's sum a round (the first who can lay one); ``bank`` and ``all-against-caster``,
  every setter who can (a study lays no stake once the chance is set, so the two settle alike).
- A setter's stake follows his staking progression (:mod:`hazard.core.staking`) from the base stake and his
  own run of stakes settled the same way (as the table keeps it, and as its setter bots stake:
  :meth:`hazard.table.BotBrains.stake`): ``flat`` always the base; ``martingale`` a doubling more after each
  lost stake, back to the base after a win (at most ``cap`` doublings); ``paroli`` a doubling more after
  each win, back to the base after a loss or after ``cap`` wins in a row.
- The table takes a stake only where both sides can cover it: the setter what the caster could win on it
  (the stake times the most a unit stake can win, :meth:`Paytable.most_won`), the caster the stake, on top
  of the stakes laid against him already. A setter whose stake cannot be covered lays the largest smaller
  stake of his progression that can (halving it, down to the base), or none (the study's rule): so every
  stake is the base doubled, and every sum a whole number of a grain the kernel counts exactly, deciding
  each cover and ruin as the table's fractions do.
- A round settles each stake under the paytable: the caster wins the stake times the paytable's odds from
  that setter, or loses it to him. A throw for the main that passes the dice settles nothing.
- The dice pass by the ruleset's rule (counted losses in a row, or a thrown main out of range). A player
  whose bankroll falls below the base stake is ruined and leaves the table after the round (the study's
  rule); a caster who leaves hands the dice on, as at the table.
- A session ends after its rounds, or when fewer than two players are left.

>>> from hazard.core.rulesets import find_ruleset
>>> from hazard.sim.tables import compile_rules
>>> config = SessionConfig(sessions=4, rounds=50)
>>> study = simulate_sessions(compile_rules(find_ruleset("craps")), config, seed=7)
>>> study.sessions, study.all_bankrolls.count
(4, 16)
>>> study.all_bankrolls.total  # money only changes hands
1600.0
"""

from __future__ import annotations

import math
import os
import time
from array import array
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import numpy as np
import numpy.typing as npt

from hazard.core.paytable import Paytable
from hazard.core.rules import Ruleset, StakeArrangement
from hazard.core.rulesets import settling_paytable
from hazard.core.staking import Staking
from hazard.sim.backend import backend
from hazard.sim.config import MAX_SESSION_ROUNDS, SessionConfig
from hazard.sim.rounds import Progress, check_run
from hazard.sim.stats import Estimate, mean, rate
from hazard.sim.stream import SESSION_STREAM, block_sessions, check_seed
from hazard.sim.tables import CompiledRules, on_main
from hazard.sim.tally import Replay, Tally, joint_quantiles
from hazard.sim.workers import Pool, run_blocks

__all__ = [
    "MAX_SESSION_ROUNDS",
    "QUANTILES",
    "RUIN_POINTS",
    "SessionConfig",
    "SessionRows",
    "SessionTally",
    "Staking",
    "played_ruleset",
    "simulate_sessions",
]

_STAKING_CODE = {Staking.FLAT: 0, Staking.MARTINGALE: 1, Staking.PAROLI: 2}
"""How the kernels name each progression of :mod:`hazard.core.staking` (whose rules they implement)."""
_ARRANGEMENT_CODE = {
    StakeArrangement.BANK: 0,
    StakeArrangement.SETTER_SUM: 1,
    StakeArrangement.ALL_AGAINST_CASTER: 2,
}
"""How the kernels name each stake arrangement (1: one setter a round; else every setter who can)."""


QUANTILES = (0.05, 0.25, 0.5, 0.75, 0.95)
"""The quantiles of the final bankrolls a study reports."""
RUIN_POINTS = 100
"""Rounds at which a study counts how many first players were ruined by then (for the ruin curve)."""
_FOLD_SESSIONS = 4096
"""Sessions gathered from blocks before they are counted in: a block's few rows at a time would cost more."""
_CALL_ROUNDS = 1 << 18
"""Session rounds the kernel plays in one call, about (a run of blocks): a call for each of a study's short
blocks cost more, in Python, than the kernel's work on it."""


@dataclass(frozen=True, eq=False)
class SessionRows:
    """The sessions of one or more blocks in a row, one row a session, from session number ``first``."""

    first: int
    bankrolls: npt.NDArray[np.float64]
    """Final bankrolls, ``(sessions, players)``."""
    ruined_in: npt.NDArray[np.int64]
    """The round each player was ruined in (from 0), or -1, ``(sessions, players)``."""
    played: npt.NDArray[np.int64]
    """Rounds played in each session."""
    hands: npt.NDArray[np.int64]
    """Hands that ended by the passing rule, per session."""
    hand_rounds: npt.NDArray[np.float64]
    """Rounds kept in those hands, and their squares: ``(sessions, 2)``."""
    setters_take: npt.NDArray[np.float64]
    """What the setters won from the casters, per session (negative: the casters won)."""
    staked: npt.NDArray[np.float64]
    """What the setters staked against the casters in the rounds settled, per session."""
    throws: int

    @property
    def sessions(self) -> int:
        return int(self.bankrolls.shape[0])

    @property
    def take_per_unit(self) -> npt.NDArray[np.float64]:
        """The setters' take per unit staked in each session (0 where nothing was staked)."""
        out = np.zeros_like(self.setters_take)
        return np.divide(self.setters_take, self.staked, out=out, where=self.staked > 0)


def _joined(blocks: list[SessionRows]) -> SessionRows:
    if len(blocks) == 1:
        return blocks[0]
    return SessionRows(
        first=blocks[0].first,
        bankrolls=np.concatenate([b.bankrolls for b in blocks]),
        ruined_in=np.concatenate([b.ruined_in for b in blocks]),
        played=np.concatenate([b.played for b in blocks]),
        hands=np.concatenate([b.hands for b in blocks]),
        hand_rounds=np.concatenate([b.hand_rounds for b in blocks]),
        setters_take=np.concatenate([b.setters_take for b in blocks]),
        staked=np.concatenate([b.staked for b in blocks]),
        throws=sum(b.throws for b in blocks),
    )


class _Summary:
    """What a study keeps of its sessions: counts, sums and tallies, the same size however many sessions."""

    def __init__(self, config: SessionConfig) -> None:
        self.sessions = self.throws = self.first_ruined = self.any_ruined = 0
        self.rounds_played = self.hands_passed = 0
        self.hand_rounds = self.hand_squares = self.setters_take = self.staked = 0.0
        self.first_bankroll, self.all_bankrolls = Tally(), Tally()
        self.hands, self.take_per_unit = Tally(), Tally()
        points = np.linspace(0, config.rounds, RUIN_POINTS).astype(np.int64)  # in order: drop repeats
        # (not np.unique: without counts it imports numpy.ma, some 40 ms of a study's start)
        self.ruin_rounds = points[np.concatenate([[True], points[1:] != points[:-1]])]
        self._ruin_at = np.zeros(len(self.ruin_rounds) + 1, dtype=np.int64)
        self._waiting: list[SessionRows] = []
        self._waiting_sessions = 0

    def add(self, rows: SessionRows) -> None:
        self._waiting.append(rows)
        self._waiting_sessions += rows.sessions
        if self._waiting_sessions >= _FOLD_SESSIONS:
            self.flush()

    def flush(self) -> None:
        if not self._waiting:
            return
        rows = _joined(self._waiting)
        self._waiting, self._waiting_sessions = [], 0
        self.sessions += rows.sessions
        self.throws += rows.throws
        ruined = rows.ruined_in >= 0
        self.first_ruined += int(ruined[:, 0].sum())
        self.any_ruined += int(ruined.any(axis=1).sum())
        self.rounds_played += int(rows.played.sum())
        self.hands_passed += int(rows.hands.sum())
        self.hand_rounds += float(rows.hand_rounds[:, 0].sum())
        self.hand_squares += float(rows.hand_rounds[:, 1].sum())
        self.setters_take += float(rows.setters_take.sum())
        self.staked += float(rows.staked.sum())
        self.first_bankroll.add(rows.bankrolls[:, 0])
        self.all_bankrolls.add(rows.bankrolls)
        self.hands.add(rows.hands)
        self.take_per_unit.add(rows.take_per_unit)
        first = rows.ruined_in[:, 0]
        # a first player ruined in round r counts at every point after r
        at = np.searchsorted(self.ruin_rounds, first[first >= 0], side="right")
        self._ruin_at += np.bincount(at, minlength=len(self._ruin_at))

    @property
    def ruined_by(self) -> npt.NDArray[np.int64]:
        return np.cumsum(self._ruin_at)[: len(self.ruin_rounds)]


@dataclass(frozen=True, eq=False)
class SessionTally:
    """What the sessions came to: counts, sums and exact tallies, which do not grow with the sessions.

    Each session's own row is not kept: :meth:`replay` plays the study's sessions again from its seed, the
    same sessions to the bit, and hands their rows over a run of blocks at a time (for the CSV, or a figure
    of your own). The tallies' quantiles and histograms take the replay where they need it.
    """

    table: CompiledRules
    config: SessionConfig
    paytable: Paytable | None
    seed: int
    sessions: int
    """Sessions completed."""
    blocks: int
    """Blocks completed: the sessions are theirs, from the first."""
    first_ruined: int
    """Sessions in which the first player was ruined."""
    any_ruined: int
    """Sessions in which some player was ruined."""
    rounds_played: int
    hands_passed: int
    """Hands that ended by the passing rule, in all sessions."""
    hand_rounds: tuple[float, float]
    """Rounds kept in those hands, and the sum of their squares."""
    setters_take: float
    """What the setters won from the casters, in all (negative: the casters won)."""
    staked: float
    """What the setters staked against the casters in the rounds settled, in all."""
    first_bankroll: Tally
    """The first player's final bankroll, a value per session."""
    all_bankrolls: Tally
    """Every player's final bankroll, ``players`` values per session."""
    hands: Tally
    """Hands that ended by the passing rule, a value per session."""
    take_per_unit_session: Tally
    """The setters' take per unit staked, a value per session (0 where nothing was staked)."""
    ruin_rounds: npt.NDArray[np.int64]
    ruined_by: npt.NDArray[np.int64]
    """Sessions in which the first player was ruined before each of ``ruin_rounds``."""
    throws: int
    seconds: float
    workers: int
    interrupted: bool
    _quantiles: dict[str, list[float]] = field(default_factory=dict, repr=False)

    @property
    def paytable_id(self) -> str | None:
        return None if self.paytable is None else self.paytable.id

    @property
    def ruin(self) -> Estimate:
        """The risk of ruin: the share of sessions in which the first player was ruined."""
        return rate(self.first_ruined, self.sessions)

    @property
    def any_ruin(self) -> Estimate:
        """The share of sessions in which some player was ruined."""
        return rate(self.any_ruined, self.sessions)

    @property
    def rounds_kept(self) -> Estimate | None:
        """Rounds a caster kept the dice, over the hands that ended by the passing rule (None if none did)."""
        if self.hands_passed == 0:
            return None
        return mean(self.hand_rounds[0], self.hand_rounds[1], self.hands_passed)

    @property
    def take_per_unit(self) -> float:
        """The setters' take per unit staked: the edge the table saw."""
        return self.setters_take / self.staked if self.staked else math.nan

    def ruin_curve(self) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.float64]]:
        """The share of sessions in which the first player was ruined by each round (for a plot)."""
        shares = self.ruined_by / self.sessions if self.sessions else np.zeros(len(self.ruin_rounds))
        return self.ruin_rounds, shares.astype(np.float64)

    def replay(
        self,
        fold: Callable[[SessionRows], None],
        *,
        workers: int | None = None,
        progress: Progress | None = None,
    ) -> None:
        """Play the study's sessions again, as they were played, and hand their rows to ``fold`` a run of
        blocks at a time, in order of the sessions' numbers (on this machine's threads, whatever ran the
        study). ``progress`` gets the sessions played again so far."""
        threads = check_run(1, 1, workers if workers is not None else min(self.workers, os.cpu_count() or 1))
        group = _blocks_a_call(self.config, self.blocks, threads)
        play = _player(self.table, self.config, self.paytable, self.seed, blocks=self.blocks, group=group)
        calls = -(-self.blocks // group)
        done = 0

        def count(rows: SessionRows) -> None:
            nonlocal done
            fold(rows)
            done += rows.sessions

        report = None if progress is None else (lambda: progress(done))
        _, interrupted = run_blocks(
            calls,
            play,
            count,
            threads=min(threads, max(calls, 1)),
            progress=report,
            name="hazard-replay",
        )
        if interrupted:
            raise KeyboardInterrupt

    def tally_replay(
        self, take: Callable[[SessionRows], npt.NDArray[np.float64]], progress: Progress | None = None
    ) -> Replay:
        """A ``Replay`` of one tally's values (``take`` picks them from the rows)."""
        return lambda visit: self.replay(lambda rows: visit(take(rows)), progress=progress)

    @property
    def needs_replay(self) -> bool:
        """Whether the bankrolls' quantiles take a replay of the sessions (too many differ to count them one
        by one): :meth:`bankroll_quantiles` then plays the sessions again, up to three times."""
        return not (self.first_bankroll.exact and self.all_bankrolls.exact)

    def bankroll_quantiles(self, *, first: bool, progress: Progress | None = None) -> list[float]:
        """The ``QUANTILES`` of the final bankrolls, the first player's or everyone's: exact, as
        :func:`numpy.quantile` gives them. Where too many bankrolls differ to count one by one, a replay of
        the sessions finds them, both at once (``progress`` is told how far each replay has gone)."""
        if not self._quantiles:

            def replay(visit: Callable[[Sequence[npt.NDArray[np.float64]]], None]) -> None:
                self.replay(lambda rows: visit([rows.bankrolls[:, 0], rows.bankrolls]), progress=progress)

            tallies = [self.first_bankroll, self.all_bankrolls]
            self._quantiles["first"], self._quantiles["all"] = joint_quantiles(tallies, QUANTILES, replay)
        return self._quantiles["first" if first else "all"]

    def to_json_dict(
        self, exact_edge: float | None = None, exact_kept: float | None = None
    ) -> dict[str, object]:
        """The stable JSON form of the session study (documented in docs/simulation.md)."""
        config = self.config
        kept = self.rounds_kept

        def bankrolls(tally: Tally, *, first: bool) -> dict[str, object]:
            found = self.bankroll_quantiles(first=first)
            return {
                "mean": tally.mean,
                "quantiles": {str(q): v for q, v in zip(QUANTILES, found, strict=True)} if found else {},
            }

        return {
            "sessions": self.sessions,
            "requested_sessions": config.sessions,
            "interrupted": self.interrupted,
            "rounds_per_session": config.rounds,
            "players": config.players,
            "bankroll": config.bankroll,
            "stake": config.stake,
            "staking": config.staking.value,
            "cap": config.progression_cap if config.staking is not Staking.FLAT else None,
            "paytable": self.paytable_id,
            "seed": self.seed,
            "throws": self.throws,
            "rounds_played": self.rounds_played,
            "risk_of_ruin": _json_estimate(self.ruin),
            "risk_any_ruined": _json_estimate(self.any_ruin),
            "final_bankroll_first_player": bankrolls(self.first_bankroll, first=True),
            "final_bankroll_all_players": bankrolls(self.all_bankrolls, first=False),
            "rounds_kept": None if kept is None else {**_json_estimate(kept), "exact": exact_kept},
            "setters_take": self.setters_take,
            "staked": self.staked,
            "take_per_unit_staked": _nan_none(self.take_per_unit),
            "exact_edge": exact_edge,
            "seconds": self.seconds,
        }


def _nan_none(value: float) -> float | None:
    return value if math.isfinite(value) else None


def _json_estimate(estimate: Estimate) -> dict[str, object]:
    return {"value": _nan_none(estimate.value), "ci": [_nan_none(estimate.low), _nan_none(estimate.high)]}


def _in_grains(table: CompiledRules, paytable: Paytable | None) -> tuple[int, array[float], float]:
    """The grain the kernels count money in, and the caster's net and the most he can win, by outcome code
    and in all, in grains per base stake: every odds' denominator divides the grain, so every sum a stake
    of the base doubled pays is a whole number of grains (exact in a float), as the table's fractions are.
    """
    chosen = settling_paytable(paytable)
    nets = {outcome: chosen.caster_net(outcome) for outcome in table.outcomes}
    most = chosen.most_won(played_ruleset(table))
    grain = math.lcm(most.denominator, *(net.denominator for net in nets.values()))
    return grain, table.code_values({o: float(net * grain) for o, net in nets.items()}), float(most * grain)


def played_ruleset(table: CompiledRules) -> Ruleset:
    """The ruleset a session at ``table`` plays: a table compiled for one main plays that main every round
    (:func:`on_main`), else the ruleset itself. A table of :mod:`hazard.table` playing it settles the same."""
    return table.ruleset if table.main is None else on_main(table.ruleset, table.main)


def _blocks_a_call(config: SessionConfig, blocks: int, threads: int) -> int:
    """How many blocks the kernel plays in one call: about :data:`_CALL_ROUNDS` rounds, at most
    :data:`_FOLD_SESSIONS` sessions (the memory a call holds does not grow with the study), and at least four
    calls a thread where the study has the blocks (the results are the same however many)."""
    per_block = block_sessions(config.rounds)
    per_call = min(_CALL_ROUNDS // (per_block * config.rounds), _FOLD_SESSIONS // per_block)
    return max(1, min(per_call, -(-blocks // (4 * max(threads, 1)))))


def _player(
    table: CompiledRules,
    config: SessionConfig,
    paytable: Paytable | None,
    seed: int,
    *,
    blocks: int | None = None,
    group: int = 1,
) -> Callable[[int], SessionRows]:
    """What plays call ``c`` of a study: its ``group`` blocks from block ``c * group`` (of its first
    ``blocks``, all by default), one call of the kernel: the same rows, to the bit, every time."""
    entries = table.entries
    rule = table.passing_rule()
    grain, net, cover = _in_grains(table, paytable)
    settings = np.array(
        [
            config.rounds,
            _STAKING_CODE[config.staking],
            grain,
            config.progression_cap,
            cover,
            _ARRANGEMENT_CODE[table.ruleset.stakes],
            config.stake,
        ],
        dtype=np.float64,
    )
    # each bankroll in grains: the base stake is `grain` of them
    bankrolls = np.full(config.players, config.bankroll / config.stake * grain, dtype=np.float64)
    per_block = block_sessions(config.rounds)
    last_block = -(-config.sessions // per_block) if blocks is None else blocks

    def play(call: int) -> SessionRows:
        kernels = backend()  # here, not around: a cluster's workers load their own
        first = call * group
        last = min(first + group, last_block)
        sessions = min(last * per_block, config.sessions) - first * per_block
        bank = np.zeros((sessions, config.players), dtype=np.float64)
        ruin = np.zeros((sessions, config.players), dtype=np.int64)
        stats = np.zeros((sessions, 7), dtype=np.float64)
        # The throws are drawn as the sessions need them, each block's from its own stream: memory does not
        # grow with the rounds, and each block is played once.
        kernels.play_session_blocks(
            seed, SESSION_STREAM, first, per_block, entries, table.start * 36, net, rule, settings, bankrolls,
            bank, ruin, stats,
        )  # fmt: skip
        return SessionRows(
            first=first * per_block,
            bankrolls=bank,
            ruined_in=ruin,
            played=stats[:, 0].astype(np.int64),
            hands=stats[:, 1].astype(np.int64),
            hand_rounds=stats[:, 2:4].copy(),
            setters_take=stats[:, 4].copy(),
            staked=stats[:, 5].copy(),
            throws=int(stats[:, 6].sum()),
        )

    return play


def simulate_sessions(
    table: CompiledRules,
    config: SessionConfig,
    seed: int,
    *,
    paytable: Paytable | None = None,
    workers: int | None = None,
    progress: Progress | None = None,
    pool: Pool | None = None,
) -> SessionTally:
    """Play ``config.sessions`` sessions of ``table`` from ``seed`` (even money without a paytable).

    Sessions come in blocks (``block_sessions``), each from its own stream, so the
    results depend on the seed only, not on the workers. ``progress`` gets the sessions finished so far; a
    Ctrl-C returns the sessions of the blocks finished, with ``interrupted`` set. With ``pool`` (a
    cluster's) the blocks run there instead, with the same results. What is kept of the sessions does not
    grow with them (:class:`SessionTally`).
    """
    check_seed(seed)
    workers = check_run(1, 1, workers)
    if paytable is not None:
        paytable.check(table.ruleset)
    began = time.perf_counter()
    blocks = -(-config.sessions // block_sessions(config.rounds))
    width = workers if pool is None else pool.width
    group = _blocks_a_call(config, blocks, width)
    calls = -(-blocks // group)
    play = _player(table, config, paytable, seed, blocks=blocks, group=group)
    summary = _Summary(config)
    done = 0

    def fold(rows: SessionRows) -> None:
        nonlocal done
        summary.add(rows)
        done += rows.sessions

    threads = min(workers, calls) if pool is None else pool.width
    report = None if progress is None else (lambda: progress(done))
    called, interrupted = run_blocks(
        calls, play, fold, threads=threads, progress=report, name="hazard-sessions", pool=pool
    )
    folded = min(called * group, blocks)
    summary.flush()  # a study cut short is the sessions of the blocks folded, from the first
    return SessionTally(
        table=table,
        config=config,
        paytable=paytable,
        seed=seed,
        sessions=summary.sessions,
        blocks=folded,
        first_ruined=summary.first_ruined,
        any_ruined=summary.any_ruined,
        rounds_played=summary.rounds_played,
        hands_passed=summary.hands_passed,
        hand_rounds=(summary.hand_rounds, summary.hand_squares),
        setters_take=summary.setters_take,
        staked=summary.staked,
        first_bankroll=summary.first_bankroll,
        all_bankrolls=summary.all_bankrolls,
        hands=summary.hands,
        take_per_unit_session=summary.take_per_unit,
        ruin_rounds=summary.ruin_rounds,
        ruined_by=summary.ruined_by,
        throws=summary.throws,
        seconds=time.perf_counter() - began,
        workers=threads,
        interrupted=interrupted or folded < blocks,
    )
