"""``hazard simulate``: Monte Carlo rounds and session studies, beside the exact odds."""

from __future__ import annotations

import contextlib
import json
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

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
from hazard.core.paytable import Paytable
from hazard.core.rules import Ruleset
from hazard.core.rulesets import DEFAULT_RULESET, find_ruleset, paytable_for
from hazard.extras import require
from hazard.sim import Pool, SessionConfig, Staking
from hazard.sim.cluster import connect
from hazard.sim.plot import check_plot_path, plot_rounds, plot_sessions
from hazard.sim.rounds import DEFAULT_CHUNK_ROUNDS, MAX_ROUNDS, check_run
from hazard.sim.stream import MAX_SEED
from hazard.study import (
    FIGURE_COLUMNS,
    MAIN_COLUMNS,
    RoundsStudy,
    SessionsStudy,
    figure_cells,
    interval_text,
    number_text,
    study_rounds,
    study_sessions,
)

if TYPE_CHECKING:
    from rich.console import Group

__all__ = ["simulate"]

_DEFAULT_ROUNDS = 1_000_000
_DEFAULT_SESSION_ROUNDS = 200
_DEFAULT_PLAYERS = 4
_DEFAULT_BANKROLL = 100.0
_DEFAULT_STAKE = 1.0
_SEEDS = "a whole number from 0 to 2**128 - 1"


@contextmanager
def _progress(total: int, what: str, doing: str = "simulating") -> Iterator[Callable[[int], None]]:
    """A progress bar on standard error, shown only where it is a terminal (and not for a ``total`` of 0)."""
    if not total or not sys.stderr.isatty():
        yield lambda done: None
        return
    from rich.console import Console  # noqa: PLC0415 - see below

    err = Console(stderr=True)
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
        TextColumn(f"{doing} {what}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
        console=err,
        transient=True,
        # what a command prints goes where it was sent (a file, a pipe), never into the bar's terminal
        redirect_stdout=False,
        redirect_stderr=False,
    )
    with bar:
        task = bar.add_task(what, total=total)
        yield lambda done: bar.update(task, completed=done)


def _rounds_view(study: RoundsStudy) -> Group:
    from rich import box  # noqa: PLC0415 - see _progress
    from rich.console import Group  # noqa: PLC0415
    from rich.table import Table  # noqa: PLC0415
    from rich.text import Text  # noqa: PLC0415

    stats, exact = study.stats, study.exact
    counts = stats.counts
    head = Text(study.heading(), style="bold")
    grid = Table(box=box.SIMPLE_HEAD, title="Each figure beside the exact analyser's", title_justify="left")
    for column in FIGURE_COLUMNS:
        grid.add_column(column, justify="left" if column == "figure" else "right")
    for figure in study.figures():
        grid.add_row(*figure_cells(figure))
    parts: list[Any] = [head, grid]
    if stats.mains:
        per_main = Table(box=box.SIMPLE_HEAD, title="By main", title_justify="left")
        for column in MAIN_COLUMNS:
            per_main.add_column(column, justify="right")
        for row in study.main_rows():
            per_main.add_row(*row)
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


def _sessions_view(report: SessionsStudy, json_dict: dict[str, Any]) -> Group:
    from rich import box  # noqa: PLC0415 - see _progress
    from rich.console import Group  # noqa: PLC0415
    from rich.table import Table  # noqa: PLC0415
    from rich.text import Text  # noqa: PLC0415

    study = report.tally
    config = study.config
    head = Text(report.heading(), style="bold")
    grid = Table(box=box.SIMPLE_HEAD, caption=f"Dice passing: {json_dict['dice_passing']}.")
    grid.add_column("figure")
    grid.add_column("value", justify="right")
    grid.add_column("95% interval / spread", justify="right")
    ruin = study.ruin
    grid.add_row("risk of ruin (first player)", f"{ruin.value:.4f}", interval_text(ruin, 4))
    anyone = study.any_ruin
    grid.add_row("some player ruined", f"{anyone.value:.4f}", interval_text(anyone, 4))
    first = json_dict["final_bankroll_first_player"]
    if first["mean"] is not None:
        q = first["quantiles"]
        grid.add_row(
            "final bankroll (first player)",
            f"{first['mean']:.2f}",
            f"5%: {q['0.05']:.1f}  median: {q['0.5']:.1f}  95%: {q['0.95']:.1f}",
        )
    kept = study.rounds_kept
    exact_kept = json_dict["rounds_kept"]["exact"] if json_dict["rounds_kept"] else None
    if kept is not None:
        grid.add_row(
            "rounds a caster kept the dice",
            f"{kept.value:.3f}",
            interval_text(kept, 3)
            + ("" if exact_kept is None else f"  (exact, every hand played out: {exact_kept:.3f})"),
        )
    else:
        grid.add_row("rounds a caster kept the dice", "—", "the dice never passed by the rule")
    edge = json_dict["exact_edge"]
    grid.add_row(
        "setters' take per unit staked",
        number_text(study.take_per_unit),
        "" if edge is None else f"exact edge {edge:+.5f}",
    )
    grid.add_row("setters' take, all sessions", f"{study.setters_take:,.2f}", "")
    parts: list[Any] = [head, grid]
    parts.append(Text(f"{study.throws:,} throws in {study.seconds:.2f} s on {study.workers} worker(s)."))
    if study.interrupted:
        parts.append(
            Text(f"Interrupted: {study.sessions:,} of {config.sessions:,} sessions played.", style="bold")
        )
    return Group(*parts)


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
        typer.Option(
            "--staking",
            help="Sessions: how each setter stakes from his own results: flat, martingale or paroli "
            "(default flat).",
        ),
    ] = None,
    cap: Annotated[
        str | None, _number_option("--cap", "Sessions: most doublings (martingale) or wins (paroli).")
    ] = None,
    workers: Annotated[str | None, _number_option("--workers", "Threads; default: one per core.")] = None,
    cluster: Annotated[
        str | None,
        typer.Option(
            "--cluster",
            metavar="ADDRESS",
            help="Run the blocks on the Dask cluster whose scheduler is at ADDRESS (e.g. tcp://host:8786): "
            "the same results as here. Needs hazard[distributed].",
        ),
    ] = None,
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
    if cluster is not None:
        refuse_with("--cluster", {"--workers": workers}, "the cluster's workers run the blocks")
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
    # an extra that is not installed is named before any work, not after the study
    if sessions is not None:
        require("numpy", what="--sessions", extra="sessions")
    if plot is not None:
        require("matplotlib", what="--plot", extra="plot")
    found = find_ruleset(ruleset, paths=True)
    if main_number is not None:
        found.row(main_number)  # an unknown main is refused before any work
    chosen = paytable_for(found, paytable, paths=True)
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
    with contextlib.ExitStack() as stack:
        pool = None if cluster is None else stack.enter_context(connect(cluster))
        if config is not None:
            _sessions(found, config, seed_number, main_number, chosen, thread_count, pool, output, plot)
        else:
            _rounds(found, total, seed_number, main_number, chunk_rounds, thread_count, pool, output, plot)


def _sessions(  # noqa: PLR0917
    found: Ruleset,
    config: SessionConfig,
    seed: int,
    main: int | None,
    paytable: Paytable | None,
    workers: int | None,
    pool: Pool | None,
    output: TextFormat,
    plot: Path | None,
) -> None:
    with _progress(config.sessions, "sessions") as update:
        report = study_sessions(
            found, config, seed, main=main, paytable=paytable, workers=workers, progress=update, pool=pool
        )
    study = report.tally
    if study.needs_replay:  # too many bankrolls differ to count them: the replays of the sessions get a bar
        with _progress(study.sessions, "sessions for exact quantiles", "replaying") as update:
            study.bankroll_quantiles(first=True, progress=update)
    data = report.to_json_dict()
    if output is TextFormat.JSON:
        print(json.dumps(data, indent=2))
    elif output is TextFormat.CSV:
        # no bar where the lines themselves go to the terminal
        shown = 0 if sys.stdout.isatty() else study.sessions
        with _progress(shown, "sessions to write them", "replaying") as update:
            report.write_csv(sys.stdout, update)
    else:
        console().print(_sessions_view(report, data))
    if plot is not None:
        plot_sessions(report.tally, plot)
    _interrupted(report.interrupted)


def _rounds(  # noqa: PLR0917
    found: Ruleset,
    total: int,
    seed: int,
    main: int | None,
    chunk_rounds: int,
    workers: int | None,
    pool: Pool | None,
    output: TextFormat,
    plot: Path | None,
) -> None:
    with _progress(total, "rounds") as update:
        study = study_rounds(
            found,
            total,
            seed,
            main=main,
            chunk_rounds=chunk_rounds,
            workers=workers,
            progress=update,
            pool=pool,
        )
    if output is TextFormat.JSON:
        print(json.dumps(study.to_json_dict(), indent=2))
    elif output is TextFormat.CSV:
        print(study.to_csv(), end="")
    else:
        console().print(_rounds_view(study))
    if plot is not None:
        plot_rounds(study.stats, plot, study.exact.overall)
    _interrupted(study.interrupted)


def _interrupted(interrupted: bool) -> None:
    if interrupted:
        print("interrupted: the results above are for the part finished", file=sys.stderr)
        raise SystemExit(130)
