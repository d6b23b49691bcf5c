"""Session studies: a table of players with bankrolls, an evening of rounds, many evenings.

The model, kept simple and stated in full:

- The players sit in a ring, each with the same bankroll; the first casts first. Every other player still
  at the table is a setter: the caster's stake is covered by the setters in equal shares.
- The caster calls the main the table was compiled for (one main, or one at random each round), or throws
  for it where the ruleset says so.
- The caster's stake follows the staking progression (:mod:`hazard.core.staking`, where each is defined),
  from a base stake: ``flat`` always the base; ``martingale``
  doubles after each lost round and returns to the base after a win (at most ``cap`` doublings);
  ``paroli`` doubles after each win and returns to the base after a loss or after ``cap`` wins in a row.
  The stake is then cut to what the caster has and to what the setters can pay if the caster wins at the
  best odds on offer, so no bankroll goes below zero.
- A round settles under the paytable: the caster wins the stake times the paytable's odds, or loses it;
  each setter takes the opposite side of an equal share. A throw for the main that passes the dice settles
  nothing.
- The dice pass by the ruleset's rule (counted losses in a row, or a thrown main out of range), and also
  when the caster is ruined. A player whose bankroll falls below the base stake is ruined and leaves.
- A session ends after its rounds, or when fewer than two players are left.

>>> from hazard.core.rulesets import find_ruleset
>>> from hazard.sim.tables import compile_table
>>> config = SessionConfig(sessions=4, rounds=50)
>>> study = simulate_sessions(compile_table(find_ruleset("craps")), config, seed=7)
>>> study.bankrolls.shape
(4, 4)
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from hazard.core.errors import InvalidError, quoted
from hazard.core.paytable import Paytable
from hazard.core.rulesets import find_paytable
from hazard.core.staking import Staking, StakingPlan
from hazard.sim.backend import backend
from hazard.sim.rounds import Progress, check_run
from hazard.sim.stats import Estimate, mean, rate
from hazard.sim.stream import SESSION_STREAM, block_sessions, check_seed, lane_generator
from hazard.sim.tables import RoundTable, on_main
from hazard.sim.workers import Pool, run_blocks

__all__ = ["MAX_SESSION_ROUNDS", "SessionConfig", "SessionStudy", "Staking", "simulate_sessions"]

MAX_SESSION_ROUNDS = 10**7
"""The most rounds in one session."""
_MAX_SESSIONS = 10**8
_MAX_PLAYERS = 64


_STAKING_CODE = {Staking.FLAT: 0, Staking.MARTINGALE: 1, Staking.PAROLI: 2}
"""How the kernels name each progression of :mod:`hazard.core.staking` (whose rules they implement)."""


@dataclass(frozen=True, slots=True)
class SessionConfig:
    """A session study: how many sessions of how many rounds, at what table, staking how."""

    sessions: int = 1000
    rounds: int = 200
    """Rounds per session, at most (a session ends early when fewer than two players are left)."""
    players: int = 4
    bankroll: float = 100.0
    """Each player's bankroll at the start, in units."""
    stake: float = 1.0
    """The base stake; a player with less than this is ruined."""
    staking: Staking = Staking.FLAT
    cap: int | None = None
    """Martingale: the most doublings (default 6); paroli: the wins before going back (default 3)."""

    def __post_init__(self) -> None:
        _whole("number of sessions", self.sessions, 1, _MAX_SESSIONS)
        _whole("number of rounds per session", self.rounds, 1, MAX_SESSION_ROUNDS)
        _whole("number of players", self.players, 2, _MAX_PLAYERS)
        if not (math.isfinite(self.stake) and self.stake > 0):
            raise InvalidError(f"invalid stake {self.stake!r}: expected a number above 0")
        if not (math.isfinite(self.bankroll) and self.bankroll >= self.stake):
            raise InvalidError(
                f"invalid bankroll {self.bankroll!r}: expected at least the stake ({self.stake:g})"
            )
        StakingPlan(self.staking, self.cap)  # a bad cap is refused as the core defines it

    @property
    def progression_cap(self) -> int:
        """The cap in force: the one given, or the progression's default (:class:`StakingPlan`)."""
        return StakingPlan(self.staking, self.cap).limit


def _whole(what: str, value: object, low: int, high: int) -> None:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise InvalidError(f"invalid {what} {quoted(value)}: expected a whole number from {low} to {high}")


@dataclass(frozen=True, eq=False)
class SessionStudy:
    """What the sessions came to, one row per session (in order of the session's number)."""

    table: RoundTable
    config: SessionConfig
    paytable_id: str | None
    seed: int
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
    """What the casters staked, per session."""
    throws: int
    seconds: float
    workers: int
    interrupted: bool

    @property
    def sessions(self) -> int:
        """Sessions completed."""
        return int(self.bankrolls.shape[0])

    @property
    def ruin(self) -> Estimate:
        """The risk of ruin: the share of sessions in which the first player was ruined."""
        return rate(int((self.ruined_in[:, 0] >= 0).sum()), self.sessions)

    @property
    def any_ruin(self) -> Estimate:
        """The share of sessions in which some player was ruined."""
        return rate(int((self.ruined_in >= 0).any(axis=1).sum()), self.sessions)

    @property
    def rounds_kept(self) -> Estimate | None:
        """Rounds a caster kept the dice, over the hands that ended by the passing rule (None if none did)."""
        hands = int(self.hands.sum())
        if hands == 0:
            return None
        return mean(float(self.hand_rounds[:, 0].sum()), float(self.hand_rounds[:, 1].sum()), hands)

    @property
    def take_per_unit(self) -> float:
        """The setters' take per unit the casters staked: the edge the table saw."""
        staked = float(self.staked.sum())
        return float(self.setters_take.sum()) / staked if staked else math.nan

    def ruin_curve(self, points: int = 100) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.float64]]:
        """The share of sessions in which the first player was ruined by each round (for a plot)."""
        rounds = np.unique(np.linspace(0, self.config.rounds, points).astype(np.int64))
        ruined = self.ruined_in[:, 0]
        shares = np.array([((ruined >= 0) & (ruined < r)).mean() if len(ruined) else 0.0 for r in rounds])
        return rounds, shares

    def to_json_dict(
        self, exact_edge: float | None = None, exact_kept: float | None = None
    ) -> dict[str, object]:
        """The stable JSON form of the session study (documented in docs/simulation.md)."""
        config = self.config
        final = self.bankrolls.ravel()
        first = self.bankrolls[:, 0]
        quantiles = [0.05, 0.25, 0.5, 0.75, 0.95]
        kept = self.rounds_kept
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
            "rounds_played": int(self.played.sum()),
            "risk_of_ruin": _json_estimate(self.ruin),
            "risk_any_ruined": _json_estimate(self.any_ruin),
            "final_bankroll_first_player": {
                "mean": float(first.mean()) if len(first) else None,
                "quantiles": {str(q): float(np.quantile(first, q)) for q in quantiles} if len(first) else {},
            },
            "final_bankroll_all_players": {
                "mean": float(final.mean()) if len(final) else None,
                "quantiles": {str(q): float(np.quantile(final, q)) for q in quantiles} if len(final) else {},
            },
            "rounds_kept": None if kept is None else {**_json_estimate(kept), "exact": exact_kept},
            "setters_take": float(self.setters_take.sum()),
            "staked": float(self.staked.sum()),
            "take_per_unit_staked": _nan_none(self.take_per_unit),
            "exact_edge": exact_edge,
            "seconds": self.seconds,
        }


def _nan_none(value: float) -> float | None:
    return value if math.isfinite(value) else None


def _json_estimate(estimate: Estimate) -> dict[str, object]:
    return {"value": _nan_none(estimate.value), "ci": [_nan_none(estimate.low), _nan_none(estimate.high)]}


def _even() -> Paytable:
    """What a round settles at without a paytable: the built-in even-money paytable, as at the table."""
    return find_paytable("even")


def _nets(table: RoundTable, paytable: Paytable | None) -> npt.NDArray[np.float64]:
    """The caster's net per unit staked, by outcome code (even money without a paytable)."""
    chosen = _even() if paytable is None else paytable
    return table.code_values({outcome: float(chosen.caster_net(outcome)) for outcome in table.outcomes})


def _most_won(table: RoundTable, paytable: Paytable | None) -> float:
    """What a setter must cover per unit the caster stakes: :meth:`Paytable.most_won` of what is played.

    A table compiled for one main plays only that main's row, so only its odds count. Never 0: the
    kernels divide by it (a ruleset in which the caster can win nothing needs no cover at all).
    """
    chosen = _even() if paytable is None else paytable
    played = table.ruleset if table.main is None else on_main(table.ruleset, table.main)
    return max(float(chosen.most_won(played)), 1e-9)


@dataclass
class _Block:
    rows: int
    bank: npt.NDArray[np.float64]
    ruin: npt.NDArray[np.int64]
    stats: npt.NDArray[np.float64]


def _play_block(
    table: RoundTable,
    config: SessionConfig,
    *,
    net: npt.NDArray[np.float64],
    cover: float,
    seed: int,
    block: int,
    sessions: int,
) -> _Block:
    kernels = backend()
    entries = table.entries.astype(np.uint64)
    rule = table.passing_rule()
    settings = np.array(
        [config.rounds, _STAKING_CODE[config.staking], config.stake, config.progression_cap, cover],
        dtype=np.float64,
    )
    bankrolls = np.full(config.players, config.bankroll, dtype=np.float64)
    bank = np.zeros((sessions, config.players), dtype=np.float64)
    ruin = np.zeros((sessions, config.players), dtype=np.int64)
    stats = np.zeros((sessions, 7), dtype=np.float64)
    bits = lane_generator(seed, SESSION_STREAM, block, 0)
    # The throws are drawn as the sessions need them, from the block's own stream: memory does not grow
    # with the rounds, and the block is played once.
    kernels.play_sessions(bits, entries, table.start * 36, net, rule, settings, bankrolls, bank, ruin, stats)
    return _Block(sessions, bank, ruin, stats)


def simulate_sessions(
    table: RoundTable,
    config: SessionConfig,
    seed: int,
    *,
    paytable: Paytable | None = None,
    workers: int | None = None,
    progress: Progress | None = None,
    pool: Pool | None = None,
) -> SessionStudy:
    """Play ``config.sessions`` sessions of ``table`` from ``seed`` (even money without a paytable).

    Sessions come in blocks (:func:`~hazard.sim.stream.block_sessions`), each from its own stream, so the
    results depend on the seed only, not on the workers. ``progress`` gets the sessions finished so far; a
    Ctrl-C returns the sessions of the blocks finished, with ``interrupted`` set. With ``pool`` (a
    cluster's) the blocks run there instead, with the same results.
    """
    check_seed(seed)
    workers = check_run(1, 1, workers)
    if paytable is not None:
        paytable.check(table.ruleset)
    began = time.perf_counter()
    net = _nets(table, paytable)
    cover = _most_won(table, paytable)
    per_block = block_sessions(config.rounds)
    blocks = -(-config.sessions // per_block)
    # Every session's figures go straight into arrays made once for the whole study: a block's own arrays
    # are let go as soon as they are folded in, so a study holds its sessions once, and a few blocks more.
    rows, players = config.sessions, config.players
    bank = np.zeros((rows, players))
    ruin = np.zeros((rows, players), dtype=np.int64)
    played = np.zeros(rows, dtype=np.int64)
    hands = np.zeros(rows, dtype=np.int64)
    hand_rounds = np.zeros((rows, 2))
    take = np.zeros(rows)
    staked = np.zeros(rows)
    done = throws = 0

    def play(block: int) -> _Block:
        size = min(per_block, config.sessions - block * per_block)
        return _play_block(table, config, net=net, cover=cover, seed=seed, block=block, sessions=size)

    def fold(result: _Block) -> None:
        nonlocal done, throws
        at = slice(done, done + result.rows)
        bank[at] = result.bank
        ruin[at] = result.ruin
        played[at] = result.stats[:, 0]
        hands[at] = result.stats[:, 1]
        hand_rounds[at] = result.stats[:, 2:4]
        take[at] = result.stats[:, 4]
        staked[at] = result.stats[:, 5]
        throws += int(result.stats[:, 6].sum())
        done += result.rows

    threads = min(workers, blocks) if pool is None else pool.width
    report = None if progress is None else (lambda: progress(done))
    folded, interrupted = run_blocks(
        blocks, play, fold, threads=threads, progress=report, name="hazard-sessions", pool=pool
    )
    kept = slice(0, done)  # a study cut short is the sessions of the blocks folded, from the first
    return SessionStudy(
        table=table,
        config=config,
        paytable_id=None if paytable is None else paytable.id,
        seed=seed,
        bankrolls=bank[kept],
        ruined_in=ruin[kept],
        played=played[kept],
        hands=hands[kept],
        hand_rounds=hand_rounds[kept],
        setters_take=take[kept],
        staked=staked[kept],
        throws=throws,
        seconds=time.perf_counter() - began,
        workers=threads,
        interrupted=interrupted or folded < blocks,
    )
