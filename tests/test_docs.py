"""The figures and grids in the documentation are generated from the code; this checks they still agree.

Regenerate the marked sections after changing a ruleset or the analyser with:
``.venv/bin/python tests/test_docs.py --write``
"""

from __future__ import annotations

import contextlib
import io
import os
import re
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

from hazard.analysis import analyse, compare_rulesets
from hazard.analysis.bets import analyse_bet
from hazard.core.numbers import fraction_text
from hazard.core.passing import passing_text
from hazard.core.propositions import SOURCE_BETS, SOURCE_EXAMPLES
from hazard.core.rules import Opening
from hazard.core.rulesets import builtin_rulesets, paytable_for, settling_paytable

DOCS = Path(__file__).resolve().parent.parent / "docs"
"""Not tests.paths.DOCS: this file is also run as a script (``--write``), where tests.paths is not found."""
README = DOCS.parent / "README.md"
_LETTER = {Opening.NICK: "nick", Opening.OUT: "out", Opening.CHANCE: "chance", Opening.AGAIN: "again"}


def _f(value: Fraction | None, digits: int = 4) -> str:
    return "—" if value is None else f"{float(value):.{digits}f}"


def _x(value: Fraction | None) -> str:
    return "—" if value is None else fraction_text(value)


def rules_grid() -> str:
    """What each opening total does on each main, per ruleset, where the rulesets differ (11 and 12)."""
    rulesets = builtin_rulesets()
    lines = [
        "| ruleset | main chosen | "
        + " | ".join(f"11 on {m}" for m in range(5, 10))
        + " | "
        + " | ".join(f"12 on {m}" for m in range(5, 10))
        + " | dice pass |",
        "|---" * 13 + "|",
    ]
    for ruleset in rulesets:
        cells = []
        for total in (11, 12):
            for main in range(5, 10):
                cells.append(_LETTER[ruleset.row(main).opening(total)] if main in ruleset.mains else "·")
        lines.append(
            f"| `{ruleset.id}` | {ruleset.method.value} | "
            + " | ".join(cells)
            + f" | {passing_text(ruleset)} |"
        )
    return "\n".join(lines)


def analysis_numbers() -> str:
    """The headline figures of every built-in ruleset under its own paytable."""
    out = []
    for ruleset in builtin_rulesets():
        paytable = paytable_for(ruleset)
        report = analyse(ruleset, paytable)
        named = "no paytable (the source gives none)" if paytable is None else f"paytable `{paytable.id}`"
        out.append(f"### `{ruleset.id}` — {named}\n")
        if report.throws_for_main:
            said = (
                f"Throws for the main per round played: {_x(report.throws_for_main)}, in the `all` row only"
            )
            if report.p_no_round:
                said += f"; a throw for the main passes the dice with probability {_x(report.p_no_round)}"
            out.append(f"{said}.\n")
        out.append("| main | P(main) | P(win) | ≈ | P(nick) | P(out) | E[throws] | EV | rounds kept |")
        out.append("|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
        rows = [*report.mains, *([report.overall] if report.overall else [])]
        for odds in rows:
            out.append(
                f"| {'all' if odds.main is None else odds.main} | {_x(odds.p_main)} | {_x(odds.p_win)} | "
                f"{_f(odds.p_win)} | {_x(odds.p_nick)} | {_x(odds.p_out)} | {_x(odds.expected_throws)} | "
                f"{_x(odds.ev)} | {_f(odds.expected_rounds_kept, 2)} |"
            )
        out.append("")
    return "\n".join(out).rstrip()


def side_bets() -> str:
    """The bets listed in 002_e25665f301869517.txt, with their exact values."""
    lines = ["| proposition | probability | fair odds (against) | EV at even money |", "|---|---:|---:|---:|"]
    for text in (*SOURCE_BETS, *SOURCE_EXAMPLES):
        bet = analyse_bet(text)
        lines.append(f"| {bet.text} | {_x(bet.probability)} | {bet.fair_odds} | {_x(bet.ev_even_money)} |")
    return "\n".join(lines)


def compare_example() -> str:
    """What ``hazard compare cotton-1674 craps`` prints (its lines' trailing spaces left off)."""
    from hazard.cli import main  # the command line, for this section only

    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        main(["compare", "cotton-1674", "craps"])
    lines = [line.rstrip() for line in printed.getvalue().strip("\n").splitlines()]
    return "```console\n$ hazard compare cotton-1674 craps\n" + "\n".join(lines).rstrip() + "\n```"


def compare_largest() -> str:
    """For every pair of built-in rulesets, how many rules differ and which one moves the edge most."""
    lines = [
        "| first | second | rules that differ | the one that moves the edge most | Δ edge | edge then |",
        "|---|---|---:|---|---:|---:|",
    ]
    rulesets = builtin_rulesets()
    for first in rulesets:
        for second in rulesets:
            if first is second:
                continue
            pays = (settling_paytable(paytable_for(first)), settling_paytable(paytable_for(second)))
            comparison = compare_rulesets(first, second, pays)
            largest, count = comparison.largest, len(comparison.differences)
            if largest is None or largest.effect is None:
                lines.append(f"| `{first.id}` | `{second.id}` | {count} | none moves it alone | | |")
                continue
            lines.append(
                f"| `{first.id}` | `{second.id}` | {count} | `{largest.rule}`: "
                f"{largest.first} → {largest.second} | {float(largest.effect.edge):+.4f} | "
                f"{float(largest.effect.figures.edge):+.4f} |"
            )
    return "\n".join(lines)


SECTIONS = {
    (DOCS / "rules.md", "rules-grid"): rules_grid,
    (DOCS / "analysis.md", "numbers"): analysis_numbers,
    (DOCS / "analysis.md", "side-bets"): side_bets,
    (DOCS / "analysis.md", "compare-example"): compare_example,
    (DOCS / "analysis.md", "compare-largest"): compare_largest,
}


def _section(text: str, name: str) -> re.Match[str]:
    match = re.search(rf"(<!-- {name}:start -->\n)(.*?)(\n<!-- {name}:end -->)", text, re.DOTALL)
    assert match is not None, f"no section {name!r}"
    return match


def write() -> None:
    for (path, name), make in SECTIONS.items():
        text = path.read_text(encoding="utf-8")
        match = _section(text, name)
        path.write_text(text[: match.start(2)] + make() + text[match.end(2) :], encoding="utf-8")


def test_generated_sections_are_current() -> None:
    for (path, name), make in SECTIONS.items():
        assert _section(path.read_text(encoding="utf-8"), name).group(2) == make(), (
            f"{path.name} section {name} is stale: run .venv/bin/python tests/test_docs.py --write"
        )


def test_the_certain_and_impossible_bets_are_refused_as_docs_analysis_shows() -> None:
    """Each command of docs/analysis.md's certain-bets section prints the error line shown under it."""
    shown = _section((DOCS / "analysis.md").read_text(encoding="utf-8"), "certain-bets").group(2)
    pairs = re.findall(r'^\$ hazard bet "(.+)"\n(error: .+)$', shown, re.MULTILINE)
    assert len(pairs) == 4
    for bet, error in pairs:
        result = subprocess.run(
            [sys.executable, "-m", "hazard", "bet", bet], capture_output=True, text=True, check=False
        )
        assert (result.returncode, result.stdout, result.stderr) == (2, "", f"{error}\n")


def test_the_rounds_kept_fall_short_as_docs_simulation_says() -> None:
    """docs/simulation.md: the default session study's rounds kept, 7.8 standard errors under the exact
    figure, and the renewal estimate (mu - sigma^2 / T) that accounts for it."""
    from hazard.analysis import analyse_random_main, effect_probabilities
    from hazard.core.passing import PassingEffect
    from hazard.core.rulesets import find_ruleset
    from hazard.sim import SessionConfig
    from hazard.study import study_sessions

    text = " ".join((DOCS / "simulation.md").read_text(encoding="utf-8").split())
    config = SessionConfig()
    kept = study_sessions("wikipedia", config, seed=0, workers=1).tally.rounds_kept
    assert kept is not None
    ruleset = find_ruleset("wikipedia")
    caster = analyse_random_main(ruleset)
    assert caster.expected_rounds_kept is not None
    exact = float(caster.expected_rounds_kept)
    z = (kept.value - exact) / kept.se
    interval = f"[{kept.low:.3f}, {kept.high:.3f}]"
    assert f"reports {kept.value:.3f}, interval {interval}, against the exact {exact:.3f}" in text
    assert f"about **{z:.1f} standard errors**" in text.replace("−", "-")
    p = effect_probabilities(ruleset.passing, caster.outcomes)[PassingEffect.COUNT]
    mean = (1 - p**3) / ((1 - p) * p**3)
    variance = (1 - 7 * (1 - p) * p**3 - p**7) / ((1 - p) ** 2 * p**6)
    assert float(mean) == exact
    assert f"p = {float(p):.5f}" in text
    assert f"σ² = (1 − 7(1 − p)p³ − p⁷) / ((1 − p)² p⁶) = {float(variance):.1f}" in text
    assert f"= **{exact - float(variance) / config.rounds:.3f}** for T = {config.rounds}" in text


def test_readme_web_example_runs(tmp_path: Path) -> None:
    """The README's first example, the JSON API, against a fresh ``hazard serve``: it prints what it says."""
    from tests.servers import Server

    text = README.read_text(encoding="utf-8")
    code = re.search(r"```python\n(.*?)```", text, re.DOTALL)
    assert code is not None
    assert "HAZARD_URL" in code.group(1)
    server = Server(str(tmp_path / "games.db"), tmp_path)
    try:
        result = subprocess.run(
            [sys.executable, "-c", code.group(1)],
            capture_output=True,
            text=True,
            check=False,
            env={**os.environ, "HAZARD_URL": server.url},
            timeout=60,
        )
    finally:
        server.stop()
    assert result.returncode == 0, result.stderr
    expected = re.search(r"```text\n(.*?)```", text[code.end() :], re.DOTALL)
    assert expected is not None
    assert result.stdout == expected.group(1).replace("http://127.0.0.1:8000", server.url)


def test_readme_example_runs() -> None:
    """The engine's example in the README does what it says."""
    text = README.read_text(encoding="utf-8")
    text = text[text.index("## The rules engine by hand") :]
    code = re.search(r"```python\n(.*?)```", text, re.DOTALL)
    assert code is not None
    result = subprocess.run(
        [sys.executable, "-c", code.group(1)], capture_output=True, text=True, check=False
    )
    assert result.returncode == 0, result.stderr
    expected = re.search(r"```text\n(.*?)```", text[code.end() :], re.DOTALL)
    assert expected is not None
    assert result.stdout == expected.group(1)


def test_the_table_example_runs(tmp_path: Path) -> None:
    """The example at the top of docs/table.md runs against the facade alone and says what a round did."""
    text = (DOCS / "table.md").read_text(encoding="utf-8")
    code = re.search(r"```python\n(.*?)```", text, re.DOTALL)
    assert code is not None
    result = subprocess.run(
        [sys.executable, "-c", code.group(1)], capture_output=True, text=True, check=False, cwd=tmp_path
    )
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[:2] == ["Bob stakes 5.00 against Ann", "the caster calls 7 as the main"]
    assert re.fullmatch(r"Ann throws [1-6]-[1-6]", lines[2])
    assert (tmp_path / "club.db").is_file()


def test_the_readme_referee_transcript_is_what_the_referee_sees(tmp_path: Path) -> None:
    """Typing the README's referee lines into ``hazard referee`` prints every line it shows, in order."""
    text = README.read_text(encoding="utf-8")
    command = re.search(r"^(hazard referee --player .*)$", text, re.MULTILINE)
    transcript = re.search(r"```text\n(referee> .*?)```", text, re.DOTALL)
    assert command is not None
    assert transcript is not None
    shown = transcript.group(1).splitlines()
    typed = [line.removeprefix("referee> ") for line in shown if line.startswith("referee> ")]
    args = command.group(1).split()[1:]
    result = subprocess.run(
        [sys.executable, "-m", "hazard", *args, "--db", str(tmp_path / "games.db")],
        input="".join(f"{line}\n" for line in typed),
        capture_output=True,
        text=True,
        check=False,
        timeout=60,
        env={"PATH": "/usr/bin:/bin", "NO_COLOR": "1", "XDG_DATA_HOME": str(tmp_path)},
    )
    assert result.returncode == 0, result.stderr
    printed = iter(line.rstrip() for line in result.stdout.splitlines())
    for line in shown:
        assert any(out == line for out in printed), f"{line!r} is not printed (in order): {result.stdout}"


if __name__ == "__main__":
    if sys.argv[1:] == ["--write"]:
        write()
    else:
        print(__doc__)
