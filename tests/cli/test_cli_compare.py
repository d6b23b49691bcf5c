"""``hazard compare``: its table, its JSON (the analysis layer's figures), a ruleset file, and bad input."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from tests.commandline import fails, run

from hazard.analysis import compare_rulesets
from hazard.core.rulesets import find_ruleset, paytable_for, settling_paytable

MINE = (
    'id = "mine"\nname = "Mine"\n[source]\ncitation = "house rules"\n'
    '[main]\nmethod = "fixed"\nmains = [7]\n[opening]\nchances = [4, 5, 6, 8, 9, 10]\n'
    "[opening.7]\nnicks = [7, 11]\nouts = [2, 3, 12]\n"
)


def test_the_table_lists_each_rule_that_differs_and_the_one_that_moves_the_edge_most(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out, err = run(capsys, "compare", "cotton", "ecws")
    assert (code, err) == (0, "")
    assert "cotton-1674 compared with ecws-1674" in out
    assert "main 7, opening 11" in out
    assert "nick" in out
    assert "thrown again" in out
    assert "The rule that moves the edge most: main 7, opening 11 (nick → thrown again), +0.0149" in out


def test_a_refused_change_says_why(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "compare", "craps", "wikipedia")
    assert code == 0
    assert "refused [1]" in out
    assert "[1] main.mains: invalid ruleset 'craps': a fixed main needs exactly one main, not 5" in out


def test_a_ruleset_with_itself_differs_in_nothing(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "compare", "wikipedia", "wiki")
    assert code == 0
    assert "No rule differs." in out
    code, out, _ = run(capsys, "compare", "wikipedia", "wiki", "--format", "json")
    assert json.loads(out)["differences"] == []
    assert json.loads(out)["largest"] is None


def test_the_json_is_the_comparisons_exact_figures(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "compare", "sca-isenfir", "britannica-1911", "-f", "json")
    assert code == 0
    shown = json.loads(out)
    a, b = find_ruleset("sca-isenfir"), find_ruleset("britannica-1911")
    comparison = compare_rulesets(
        a, b, (settling_paytable(paytable_for(a)), settling_paytable(paytable_for(b)))
    )
    assert shown == comparison.to_json_dict()
    assert shown["first"]["ruleset"] == "sca-isenfir"
    assert shown["first"]["edge"] == "31/672"
    rules = {d["rule"]: d for d in shown["differences"]}
    cell = rules["main 7, opening 11"]
    assert (cell["kind"], cell["main"], cell["total"], cell["first"], cell["second"]) == (
        "opening",
        7,
        11,
        "out",
        "nick",
    )
    difference = next(d for d in comparison.differences if d.rule == "main 7, opening 11")
    assert difference.effect is not None
    assert (
        cell["change"]["edge"] == f"{difference.effect.edge.numerator}/{difference.effect.edge.denominator}"
    )
    assert cell["change"]["edge_float"] == pytest.approx(float(difference.effect.edge))
    assert cell["refused"] is None
    assert shown["largest"] == "main 7, opening 11"


def test_a_ruleset_file_is_compared_as_hazard_odds_reads_it(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "mine.toml"
    path.write_text(MINE, encoding="utf-8")
    code, out, _ = run(capsys, "compare", str(path), "craps", "--format", "json")
    assert code == 0
    shown = json.loads(out)
    assert shown["first"]["ruleset"] == "mine"
    # The same rules as craps but for the dice passing and the stakes, which the file leaves to their
    # defaults: nothing moves the edge.
    assert [d["rule"] for d in shown["differences"]] == [
        "dice_passing.after_losses",
        "dice_passing.losses",
        "stakes",
    ]
    assert shown["first"]["edge"] == shown["second"]["edge"] == "7/495"


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (("nope", "craps"), "error: unknown ruleset 'nope'"),
        (("craps", "nope"), "error: unknown ruleset 'nope'"),
        (
            ("craps", "craps", "--format", "csv"),
            "error: Invalid value for '--format' / '-f': 'csv' is not one of",
        ),
        (("craps",), "error: Missing argument 'second'"),
    ],
)
def test_bad_input_is_one_error_line(
    capsys: pytest.CaptureFixture[str], args: tuple[str, ...], said: str
) -> None:
    assert fails(capsys, "compare", *args).startswith(said)


def test_a_bad_file_is_one_error_line(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = tmp_path / "bad.toml"
    path.write_text(MINE.replace('method = "fixed"', 'method = "sideways"'), encoding="utf-8")
    line = fails(capsys, "compare", "craps", str(path))
    assert "main.method" in line
    assert "sideways" in line
