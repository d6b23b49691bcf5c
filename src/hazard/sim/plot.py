"""Pictures of a study, as PNG files (Matplotlib, drawn off screen with the Agg backend).

- :func:`plot_rounds`: how many throws a round takes, simulated beside exact; and each outcome's rate with
  its 95% interval beside the exact probability.
- :func:`plot_sessions`: the first player's final bankroll, the risk of ruin as the evening goes on, how
  many times the dice passed by the rule in a session, and the setters' take per session.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from hazard.core.errors import InvalidError, quoted
from hazard.extras import require
from hazard.sim.stats import Exact, GroupStats, RoundStats

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

    from hazard.sim.session import SessionTally
    from hazard.sim.tally import Replay, Tally

__all__ = ["plot_rounds", "plot_sessions", "sessions_figure"]

_SIM = "#1f5fa8"
_EXACT = "#d0542c"
_BINS = 40
"""Bars in a histogram of a session study's values."""


def _figure(rows: int, columns: int, size: tuple[float, float]) -> tuple[Figure, list[Axes]]:
    # Imported here: Matplotlib takes a third of a second to import, and most runs draw nothing.
    from matplotlib.figure import Figure  # noqa: PLC0415 - the Agg canvas: no display, no pyplot state

    figure = Figure(figsize=size, dpi=110, layout="constrained")
    axes = figure.subplots(rows, columns, squeeze=False)
    return figure, [ax for row in axes for ax in row]


def _save(figure: Figure, path: str | Path) -> Path:
    target = Path(path)
    if target.suffix.lower() != ".png":
        raise InvalidError(f"invalid plot file {str(target)!r}: expected a name ending in .png")
    try:
        figure.savefig(target, format="png")
    except OSError as error:
        raise InvalidError(f"cannot write plot file {str(target)!r}: {error.strerror or error}") from None
    return target


def check_plot_path(path: str | Path) -> Path:
    """Refuse, before any work, a plot path that is not a .png or whose folder does not exist."""
    target = Path(path)
    shown = quoted(str(target), limit=200)
    if target.suffix.lower() != ".png":
        raise InvalidError(f"invalid plot file {shown}: expected a name ending in .png")
    folder = target.parent if str(target.parent) else Path(".")
    try:
        if not folder.is_dir():
            raise InvalidError(f"cannot write plot file {shown}: no folder {quoted(str(folder), limit=200)}")
        if target.is_dir():
            raise InvalidError(f"cannot write plot file {shown}: it is a folder")
    except OSError as error:  # a name too long, a folder that cannot be searched
        raise InvalidError(f"cannot write plot file {shown}: {error.strerror}") from None
    return target


def plot_rounds(stats: RoundStats, path: str | Path, exact: Exact | None = None) -> Path:
    """Draw a round study to ``path`` (PNG); exact values, where given, are drawn beside the simulation."""
    require("matplotlib", what="a plot", extra="plot")
    import numpy as np  # noqa: PLC0415 - with Matplotlib, which needs it anyway: only to draw

    figure, (throws_ax, rates_ax, z_ax) = _figure(1, 3, (16.0, 5.0))
    group = stats.overall
    title = f"{stats.ruleset_id}" + ("" if stats.main is None else f", main {stats.main}")
    figure.suptitle(f"Simulated rounds of {title}: {group.rounds:,} rounds played, seed {stats.counts.seed}")

    counts = np.array(group.throw_counts[1:25], dtype=float)
    shown = np.arange(1, 1 + len(counts))
    share = counts / max(group.rounds, 1)
    throws_ax.bar(shown - 0.2, share, width=0.4, color=_SIM, label="simulated")
    if exact is not None and exact.throws_distribution:
        exact_share = np.array(exact.throws_distribution[: len(shown)])
        throws_ax.bar(shown[: len(exact_share)] + 0.2, exact_share, width=0.4, color=_EXACT, label="exact")
    throws_ax.set_xlabel("throws in the round")
    throws_ax.set_ylabel("share of rounds")
    throws_ax.set_title(f"Throws per round: mean {group.throws.value:.3f}")
    throws_ax.set_xticks(shown[::2])
    throws_ax.legend()

    names = ["win", "nick", "out", *(f"chance {c}" for c in group.chance_set)]
    estimates = [group.win, group.nick, group.out, *group.chance_set.values()]
    exacts: list[float | None] = [None] * len(names)
    if exact is not None:
        exacts = [exact.p_win, exact.p_nick, exact.p_out]
        exacts += [exact.p_chance_set.get(c, 0.0) for c in group.chance_set]
    y = np.arange(len(names))[::-1]
    values = np.array([e.value for e in estimates])
    errors = np.array([[e.value - e.low for e in estimates], [e.high - e.value for e in estimates]])
    rates_ax.barh(y, values, color=_SIM, alpha=0.35, label="simulated")
    rates_ax.errorbar(values, y, xerr=errors, fmt="none", ecolor=_SIM, capsize=3, label="95% interval")
    marked = [(yy, x) for yy, x in zip(y, exacts, strict=True) if x is not None]
    if marked:
        rates_ax.scatter(
            [x for _, x in marked],
            [yy for yy, _ in marked],
            marker="D",
            color=_EXACT,
            zorder=3,
            label="exact",
        )
    rates_ax.set_yticks(y, names)
    rates_ax.set_xlabel("share of rounds played")
    rates_ax.set_title("How rounds end")
    rates_ax.legend(loc="lower right")

    _agreement(z_ax, group, exact)
    return _save(figure, path)


def _agreement(z_ax: Axes, group: GroupStats, exact: Exact | None) -> None:
    """The panel of z-scores: each simulated figure against its exact value, in standard errors."""
    import numpy as np  # noqa: PLC0415 - see plot_rounds

    if exact is not None:
        compared = [(name, z) for name, (_, _, z) in group.comparisons(exact).items() if z is not None]
        zy = np.arange(len(compared))[::-1]
        zs = np.array([max(-6.0, min(6.0, z)) for _, z in compared])
        colours = [_EXACT if abs(z) > 4 else _SIM for z in zs]
        z_ax.barh(zy, zs, color=colours)
        for limit in (-4, 4):
            z_ax.axvline(limit, color=_EXACT, linestyle="--", linewidth=1)
        z_ax.axvline(0, color="grey", linewidth=1)
        z_ax.set_xlim(-6, 6)
        z_ax.set_yticks(zy, [name.replace("_", " ") for name, _ in compared])
        z_ax.set_xlabel("simulated minus exact, in standard errors")
        z_ax.set_title("Agreement with the exact analyser (|z| < 4)")
    else:
        z_ax.text(0.5, 0.5, "no exact values given", ha="center", va="center")
        z_ax.set_axis_off()


def plot_sessions(study: SessionTally, path: str | Path) -> Path:
    """Draw a session study to ``path`` (PNG)."""
    return _save(sessions_figure(study), path)


def sessions_figure(study: SessionTally) -> Figure:
    """The four panels of a session study: final bankrolls, ruin, the dice passing, the setters' take."""
    require("matplotlib", what="a plot", extra="plot")
    import numpy as np  # noqa: PLC0415 - with Matplotlib, which needs it anyway: only to draw

    figure, (bank_ax, ruin_ax, hands_ax, take_ax) = _figure(2, 2, (12.0, 8.0))
    config = study.config
    figure.suptitle(
        f"{study.sessions:,} sessions of {study.table.ruleset.id}: {config.players} players, "
        f"{config.rounds} rounds, bankroll {config.bankroll:g}, {config.staking.value} stakes of "
        f"{config.stake:g}"
    )
    first = study.first_bankroll
    _bars(bank_ax, first, study.tally_replay(lambda rows: rows.bankrolls[:, 0]))
    bank_ax.axvline(config.bankroll, color=_EXACT, linestyle="--", label=f"start ({config.bankroll:g})")
    bank_ax.set_xlabel("first player's final bankroll")
    bank_ax.set_ylabel("sessions")
    median = study.bankroll_quantiles(first=True)[2:3]
    bank_ax.set_title(f"Final bankroll: median {median[0]:.1f}" if median else "Final bankroll")
    bank_ax.legend()

    rounds, shares = study.ruin_curve()
    ruin_ax.plot(rounds, shares, color=_SIM)
    ruin_ax.set_xlabel("round")
    ruin_ax.set_ylabel("share of sessions")
    ruin_ax.set_ylim(0, max(0.05, float(shares.max()) * 1.1) if len(shares) else 1)
    ruin_ax.set_title(f"First player ruined by each round: {study.ruin.value:.1%} by the end")

    # What is drawn is how many times the dice passed by the rule in each session; the title says the same.
    hands = study.hands
    most = int(hands.high or 0)
    # one bar per number of hands while they fit, else bars as wide as a histogram of 40 makes them
    edges = np.arange(most + 2, dtype=np.float64) - 0.5 if most < _BINS * 5 else None
    _bars(hands_ax, hands, study.tally_replay(lambda rows: rows.hands.astype(np.float64)), edges)
    hands_ax.set_xlabel("times the dice passed by the rule in a session")
    hands_ax.set_ylabel("sessions")
    if study.hands_passed:
        passed = float(hands.mean or 0.0)
        hands_ax.axvline(passed, color=_EXACT, linestyle="--", label=f"mean ({passed:.2f})")
        hands_ax.legend()
        hands_ax.set_title(f"Dice passing: the dice passed {passed:.2f} times a session by the rule")
    else:
        hands_ax.set_title("Dice passing: the dice never passed by the rule")

    _bars(take_ax, study.take_per_unit_session, study.tally_replay(lambda rows: rows.take_per_unit))
    take_ax.axvline(0, color="grey", linewidth=1)
    take_ax.set_xlabel("setters' take per unit staked, per session")
    take_ax.set_ylabel("sessions")
    take_ax.set_title(f"Setters' take: {study.take_per_unit:+.4f} per unit staked overall")
    return figure


def _bars(axes: Axes, tally: Tally, replay: Replay, edges: npt.NDArray[np.float64] | None = None) -> None:
    """A histogram of a tally's values, as ``axes.hist`` draws the values themselves (40 bins from the least
    to the greatest, unless ``edges`` are given), counted without holding the values."""
    import numpy as np  # noqa: PLC0415 - see plot_rounds

    if tally.low is None or tally.high is None:
        return
    if edges is None:
        edges = np.histogram_bin_edges(np.array([tally.low, tally.high]), bins=_BINS)
    # each bar's count as the weight of its left edge: the bars Matplotlib draws for the values themselves
    axes.hist(edges[:-1], bins=edges.tolist(), weights=tally.histogram(edges, replay), color=_SIM)
