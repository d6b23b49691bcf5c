"""``hazard simulate``: Monte Carlo rounds and session studies, beside the exact odds."""

from __future__ import annotations

import csv
import io
import json
import math
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.console import Console

from hazard.analysis import MainOdds, analyse, analyse_random_main, as_float
from hazard.cli.app import (
    PaytableOption,
    RulesetOption,
    TextFormat,
    app,
    check_output_file,
    console,
    decimal_number,
    refuse_with,
    refuse_without,
    whole_number,
)
from hazard.core.passing import passing_text
from hazard.core.paytable import Paytable
from hazard.core.rules import MainMethod, Ruleset
from hazard.core.rulesets import DEFAULT_RULESET, find_paytable, find_ruleset, paytable_for
from hazard.sim import (
    Estimate,
    Exact,
    GroupStats,
    RoundStats,
    SessionConfig,
    SessionStudy,
    Staking,
    compile_table,
    round_stats,
    simulate_rounds,
    simulate_sessions,
)
from hazard.sim.plot import check_plot_path, plot_rounds, plot_sessions
from hazard.sim.rounds import DEFAULT_CHUNK_ROUNDS, MAX_ROUNDS, check_run
from hazard.sim.stream import MAX_SEED

if TYPE_CHECKING:
    from rich.console import Group

__all__ = ["ExactFigures", "simulate"]

_DEFAULT_ROUNDS = 1_000_000
_DEFAULT_SESSION_ROUNDS = 200
_DEFAULT_PLAYERS = 4
_DEFAULT_BANKROLL = 100.0
_DEFAULT_STAKE = 1.0
_SEEDS = "a whole number from 0 to 2**128 - 1"


def _exact(odds: MainOdds) -> Exact:
    return Exact(
        p_win=float(odds.p_win),
        p_nick=float(odds.p_nick),
        p_out=float(odds.p_out),
        expected_throws=float(odds.expected_throws),
        throws_variance=float(odds.throws_variance),
        p_chance_set={c: float(p) for c, p in odds.p_chance_set.items()},
        p_win_by_chance={c: float(p) for c, p in odds.p_win_by_chance.items()},
        p_main=float(odds.p_main),
        expected_rounds_kept=as_float(odds.expected_rounds_kept),
        throws_distribution=tuple(float(p) for p in odds.throws_distribution),
    )


class ExactFigures:
    """The analyser's figures for what is simulated: overall, per main, the edge and rounds kept.

    With ``main``, every round is played on it (called, or as if thrown): the analyser's row for that main.
    Without, a thrown main's overall figures count from the throw for the main, and so do the simulator's
    groups by main, so each main's exact figures beside them are the analyser's row with the throws for the
    main added (:meth:`~hazard.analysis.OddsReport.from_throw_for_main`). A main called at random is
    :func:`~hazard.analysis.analyse_random_main`, each main's share 1 / the number of mains.
    """

    def __init__(self, ruleset: Ruleset, main: int | None, paytable: Paytable) -> None:
        report = analyse(ruleset, paytable, main=main)
        self.mains: dict[int, Exact] = {}
        self.p_no_round = float(report.p_no_round)
        self.dice_passing = passing_text(ruleset)
        if main is not None or ruleset.method is MainMethod.FIXED:
            overall = report.mains[0]
        elif report.overall is not None:  # a thrown main
            overall = report.overall
            self.mains = {row.main or 0: _exact(report.from_throw_for_main(row)) for row in report.mains}
        else:  # a called main, called at random
            overall = analyse_random_main(ruleset, paytable)
            share = 1 / len(report.mains)
            self.mains = {row.main or 0: replace(_exact(row), p_main=share) for row in report.mains}
        self.overall = _exact(overall)
        self.edge = as_float(overall.edge)


@contextmanager
def _progress(total: int, what: str) -> Iterator[Callable[[int], None]]:
    """A progress bar on standard error, shown only where it is a terminal."""
    err = Console(stderr=True)
    if not err.is_terminal:
        yield lambda done: None
        return
    # Rich's progress bar, tables and text are imported only where they are drawn: a run whose output is
    # JSON or CSV for a pipe (the benchmark's) does not pay for them.
    from rich.progress import (  # noqa: PLC0415
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeRemainingColumn,
    )

    bar = Progress(
        TextColumn(f"simulating {what}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
        console=err,
        transient=True,
    )
    with bar:
        task = bar.add_task(what, total=total)
        yield lambda done: bar.update(task, completed=done)


def _fmt(value: float | None, digits: int = 5) -> str:
    return "—" if value is None or not math.isfinite(value) else f"{value:.{digits}f}"


def _z(value: float | None) -> str:
    return "—" if value is None or not math.isfinite(value) else f"{value:+.2f}"


def _ci(estimate: Estimate, digits: int = 5) -> str:
    return f"[{_fmt(estimate.low, digits)}, {_fmt(estimate.high, digits)}]"


def _rounds_view(stats: RoundStats, exact: ExactFigures) -> Group:
    from rich import box  # noqa: PLC0415 - see _progress
    from rich.console import Group  # noqa: PLC0415
    from rich.table import Table  # noqa: PLC0415
    from rich.text import Text  # noqa: PLC0415

    counts = stats.counts
    main_text = _main_text(counts.table.ruleset, stats.main)
    head = Text(
        f"Simulated {counts.rounds:,} rounds of {stats.ruleset_id} (main {main_text}), seed {counts.seed}: "
        f"{counts.throws:,} throws in {counts.seconds:.2f} s on {counts.workers} worker(s)",
        style="bold",
    )
    table = Table(box=box.SIMPLE_HEAD, title="Each figure beside the exact analyser's", title_justify="left")
    for column in ("figure", "simulated", "95% interval", "exact", "z"):
        table.add_column(column, justify="left" if column == "figure" else "right")
    for name, (estimate, value, z) in stats.overall.comparisons(exact.overall).items():
        table.add_row(name.replace("_", " "), _fmt(estimate.value), _ci(estimate), _fmt(value), _z(z))
    if stats.no_round.n and exact.p_no_round:
        nr = stats.no_round
        table.add_row(
            "no round (dice pass)",
            _fmt(nr.value),
            _ci(nr),
            _fmt(exact.p_no_round),
            _z(nr.z_rate(exact.p_no_round)),
        )
    if stats.rounds_kept is not None:
        kept = stats.rounds_kept
        table.add_row(
            "rounds kept", _fmt(kept.value, 3), _ci(kept, 3), _fmt(exact.overall.expected_rounds_kept, 3), "—"
        )
    parts: list[Any] = [head, table]
    if stats.mains:
        per_main = Table(box=box.SIMPLE_HEAD, title="By main", title_justify="left")
        for column in ("main", "rounds", "share", "exact", "win rate", "exact", "z", "throws", "exact"):
            per_main.add_column(column, justify="right")
        for group in stats.mains:
            e = exact.mains.get(group.main or 0)
            per_main.add_row(
                str(group.main),
                f"{group.rounds:,}",
                _fmt(group.share.value, 4),
                _fmt(None if e is None else e.p_main, 4),
                _fmt(group.win.value),
                _fmt(None if e is None else e.p_win),
                _z(None if e is None else group.win.z_rate(e.p_win)),
                _fmt(group.throws.value, 3),
                _fmt(None if e is None else e.expected_throws, 3),
            )
        parts.append(per_main)
    parts.append(
        Text(
            "z: the deviation from the exact value in standard errors (|z| above 3 or 4 would be suspect). "
            "Rates are over rounds played; throws count from the first throw of a round, the throws for a "
            "thrown main included (by main too: there the exact value is the analyser's row, which starts "
            "at the opening throw, plus the expected throws for the main)."
        )
    )
    parts.append(Text(f"Dice passing: {exact.dice_passing}."))
    if counts.interrupted:
        parts.append(
            Text(f"Interrupted: {counts.rounds:,} of {counts.requested:,} rounds played.", style="bold")
        )
    return Group(*parts)


def _main_text(ruleset: Ruleset, main: int | None) -> str:
    """How the main of a study was chosen, for its heading."""
    if main is None:
        return "thrown" if ruleset.method.is_thrown else "called at random"
    return f"{main}, every round as if thrown" if ruleset.method.is_thrown else str(main)


def _rounds_csv(stats: RoundStats, exact: ExactFigures) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(
        ["ruleset", "main", "seed", "group", "figure", "value", "ci_low", "ci_high", "exact", "z"]
    )
    groups: list[tuple[str, GroupStats, Exact | None]] = [("all", stats.overall, exact.overall)]
    groups += [(str(g.main), g, exact.mains.get(g.main or 0)) for g in stats.mains]
    for label, group, figures in groups:
        if figures is None:
            continue
        for name, (estimate, value, z) in group.comparisons(figures).items():
            writer.writerow(
                [
                    stats.ruleset_id,
                    "" if stats.main is None else stats.main,
                    stats.counts.seed,
                    label,
                    name,
                    estimate.value,
                    estimate.low,
                    estimate.high,
                    value,
                    "" if z is None else z,
                ]
            )
    return out.getvalue()


def _sessions_view(study: SessionStudy, json_dict: dict[str, Any]) -> Group:
    from rich import box  # noqa: PLC0415 - see _progress
    from rich.console import Group  # noqa: PLC0415
    from rich.table import Table  # noqa: PLC0415
    from rich.text import Text  # noqa: PLC0415

    config = study.config
    head = Text(
        f"{study.sessions:,} sessions of {study.table.ruleset.id} "
        f"(main {_main_text(study.table.ruleset, study.table.main)}), {config.rounds} rounds each: "
        f"{config.players} players with {config.bankroll:g} units, {config.staking.value} stakes of "
        f"{config.stake:g}, paytable {study.paytable_id or 'even money'}, seed {study.seed}",
        style="bold",
    )
    table = Table(box=box.SIMPLE_HEAD, caption=f"Dice passing: {json_dict['dice_passing']}.")
    table.add_column("figure")
    table.add_column("value", justify="right")
    table.add_column("95% interval / spread", justify="right")
    ruin = study.ruin
    table.add_row("risk of ruin (first player)", f"{ruin.value:.4f}", _ci(ruin, 4))
    anyone = study.any_ruin
    table.add_row("some player ruined", f"{anyone.value:.4f}", _ci(anyone, 4))
    first = json_dict["final_bankroll_first_player"]
    if first["mean"] is not None:
        q = first["quantiles"]
        table.add_row(
            "final bankroll (first player)",
            f"{first['mean']:.2f}",
            f"5%: {q['0.05']:.1f}  median: {q['0.5']:.1f}  95%: {q['0.95']:.1f}",
        )
    kept = study.rounds_kept
    exact_kept = json_dict["rounds_kept"]["exact"] if json_dict["rounds_kept"] else None
    if kept is not None:
        table.add_row(
            "rounds a caster kept the dice",
            f"{kept.value:.3f}",
            _ci(kept, 3) + ("" if exact_kept is None else f"  (exact, no ruin: {exact_kept:.3f})"),
        )
    else:
        table.add_row("rounds a caster kept the dice", "—", "the dice never passed by the rule")
    edge = json_dict["exact_edge"]
    table.add_row(
        "setters' take per unit staked",
        _fmt(study.take_per_unit),
        "" if edge is None else f"exact edge {edge:+.5f}",
    )
    table.add_row("setters' take, all sessions", f"{float(study.setters_take.sum()):,.2f}", "")
    parts: list[Any] = [head, table]
    parts.append(Text(f"{study.throws:,} throws in {study.seconds:.2f} s on {study.workers} worker(s)."))
    if study.interrupted:
        parts.append(
            Text(f"Interrupted: {study.sessions:,} of {config.sessions:,} sessions played.", style="bold")
        )
    return Group(*parts)


def _sessions_csv(study: SessionStudy) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    players = study.config.players
    writer.writerow(
        [
            "session",
            *(f"bankroll_{p}" for p in range(players)),
            *(f"ruined_in_{p}" for p in range(players)),
            "rounds_played",
            "hands_passed",
            "setters_take",
            "staked",
        ]
    )
    for s in range(study.sessions):
        writer.writerow(
            [
                s,
                *(round(float(x), 6) for x in study.bankrolls[s]),
                *(int(x) for x in study.ruined_in[s]),
                int(study.played[s]),
                int(study.hands[s]),
                round(float(study.setters_take[s]), 6),
                round(float(study.staked[s]), 6),
            ]
        )
    return out.getvalue()


def _number_option(name: str, help: str, *short: str) -> Any:
    # Numbers are taken as text and read by hazard.cli.app, which bounds them before int() or float().
    return typer.Option(name, *short, metavar="N", help=help)


@app.command()
def simulate(
    *,
    ruleset: RulesetOption = DEFAULT_RULESET,
    main: Annotated[
        str | None,
        _number_option(
            "--main",
            "Play every round on this main: called as it, or for a thrown main as if it had been thrown "
            "(from the opening throw). Default: thrown as the rules say, or called at random.",
            "-m",
        ),
    ] = None,
    rounds: Annotated[
        str | None,
        _number_option(
            "--rounds",
            f"Rounds to simulate (default {_DEFAULT_ROUNDS:,}); with --sessions, rounds per session "
            f"(default {_DEFAULT_SESSION_ROUNDS}).",
            "-n",
        ),
    ] = None,
    sessions: Annotated[
        str | None, _number_option("--sessions", "Run a session study of this many sessions.")
    ] = None,
    seed: Annotated[
        str | None, _number_option("--seed", "The seed: the same seed, the same results (default 0).", "-s")
    ] = None,
    output: Annotated[
        TextFormat, typer.Option("--format", "-f", help="table, json or csv.")
    ] = TextFormat.TABLE,
    plot: Annotated[
        Path | None, typer.Option("--plot", help="Also draw the results to this PNG file.")
    ] = None,
    paytable: PaytableOption = None,
    players: Annotated[
        str | None,
        _number_option("--players", f"Sessions: players at the table (default {_DEFAULT_PLAYERS})."),
    ] = None,
    bankroll: Annotated[
        str | None,
        _number_option("--bankroll", f"Sessions: each player's bankroll (default {_DEFAULT_BANKROLL:g})."),
    ] = None,
    stake: Annotated[
        str | None, _number_option("--stake", f"Sessions: the base stake (default {_DEFAULT_STAKE:g}).")
    ] = None,
    staking: Annotated[
        Staking | None,
        typer.Option("--staking", help="Sessions: flat, martingale or paroli (default flat)."),
    ] = None,
    cap: Annotated[
        str | None, _number_option("--cap", "Sessions: most doublings (martingale) or wins (paroli).")
    ] = None,
    workers: Annotated[str | None, _number_option("--workers", "Threads; default: one per core.")] = None,
    chunk: Annotated[
        str | None,
        _number_option(
            "--chunk",
            "Rounds per lane per step, without --sessions: memory only, the results do not change "
            f"(default {DEFAULT_CHUNK_ROUNDS:,}).",
        ),
    ] = None,
) -> None:
    """Simulate rounds throw by throw, or whole sessions at a table, beside the exact odds."""
    # An option that means something only in one kind of study is refused in the other, not ignored.
    if sessions is None:
        refuse_without(
            "--sessions",
            {
                "--players": players,
                "--bankroll": bankroll,
                "--stake": stake,
                "--staking": staking,
                "--cap": cap,
                "--paytable": paytable,
            },
            "it sets up a session study; add --sessions N (a study of rounds counts throws and outcomes, "
            "not money)",
        )
    else:
        refuse_with("--sessions", {"--chunk": chunk}, "it sizes the steps of a study of rounds only")
        if staking in (None, Staking.FLAT):
            refuse_without(
                "--staking martingale or paroli",
                {"--cap": cap},
                "it caps a progression of stakes, and flat stakes have none",
            )
    # Each number is read before any work; the layers then say what they allow (rounds per session, the
    # players at a table, a cap, the workers).
    seed_number = 0 if seed is None else whole_number(seed, what="--seed", high=MAX_SEED, expected=_SEEDS)
    main_number = None if main is None else whole_number(main, what="--main")
    round_count = None if rounds is None else whole_number(rounds, what="--rounds", low=1, high=MAX_ROUNDS)
    if plot is not None:
        check_output_file(plot, what="--plot", suffix=".png")
        check_plot_path(plot)
    found = find_ruleset(ruleset)
    if main_number is not None:
        found.row(main_number)  # an unknown main is refused before any work
    chosen = paytable_for(found, paytable)
    config = None
    if sessions is not None:
        config = SessionConfig(
            sessions=whole_number(sessions, what="--sessions", low=1),
            rounds=_DEFAULT_SESSION_ROUNDS if round_count is None else round_count,
            players=_DEFAULT_PLAYERS if players is None else whole_number(players, what="--players"),
            bankroll=_DEFAULT_BANKROLL if bankroll is None else decimal_number(bankroll, what="--bankroll"),
            stake=_DEFAULT_STAKE if stake is None else decimal_number(stake, what="--stake"),
            staking=Staking.FLAT if staking is None else staking,
            cap=None if cap is None else whole_number(cap, what="--cap"),
        )
    total = _DEFAULT_ROUNDS if round_count is None else round_count
    chunk_rounds = DEFAULT_CHUNK_ROUNDS if chunk is None else whole_number(chunk, what="--chunk")
    thread_count = None if workers is None else whole_number(workers, what="--workers")
    check_run(total, chunk_rounds, thread_count)
    exact = ExactFigures(found, main_number, chosen if chosen is not None else find_paytable("even"))
    table = compile_table(found, main_number)
    if config is not None:
        with _progress(config.sessions, "sessions") as update:
            study = simulate_sessions(
                table, config, seed_number, paytable=chosen, workers=thread_count, progress=update
            )
        data: dict[str, Any] = {"ruleset": found.id, "main": table.main, "mode": "sessions"}
        data["dice_passing"] = exact.dice_passing
        data.update(study.to_json_dict(exact.edge, exact.overall.expected_rounds_kept))
        if output is TextFormat.JSON:
            print(json.dumps(data, indent=2))
        elif output is TextFormat.CSV:
            print(_sessions_csv(study), end="")
        else:
            console().print(_sessions_view(study, data))
        if plot is not None:
            plot_sessions(study, plot)
        _interrupted(study.interrupted)
        return
    with _progress(total, "rounds") as update:
        counts = simulate_rounds(
            table, total, seed_number, chunk_rounds=chunk_rounds, workers=thread_count, progress=update
        )
    stats = round_stats(counts)
    if output is TextFormat.JSON:
        data = stats.to_json_dict(exact.overall, exact.mains)
        data = {"ruleset": data["ruleset"], "main": data["main"], "dice_passing": exact.dice_passing, **data}
        print(json.dumps(data, indent=2))
    elif output is TextFormat.CSV:
        print(_rounds_csv(stats, exact), end="")
    else:
        console().print(_rounds_view(stats, exact))
    if plot is not None:
        plot_rounds(stats, plot, exact.overall)
    _interrupted(counts.interrupted)


def _interrupted(interrupted: bool) -> None:
    if interrupted:
        print("interrupted: the results above are for the part finished", file=sys.stderr)
        raise SystemExit(130)
