"""The comparison of two rulesets, over every pair of built-in rulesets in both orders (and each with itself).

Each pair's differences are checked against the test's own reading of the rulesets, as flat rules (the
method, the mains, every opening cell of every main, the dice passing, the stakes, the paytable): the rules
listed are exactly those whose values differ, and each one's effect is the analyser's figures for the first
ruleset built here, through the public constructors, with that one rule set to the second's value (or the
same refusal where the format's checks refuse it).
"""

from __future__ import annotations

from collections.abc import Hashable
from fractions import Fraction
from functools import cache
from itertools import product

import pytest

from hazard.analysis import (
    Comparison,
    Figures,
    MainOdds,
    RuleKind,
    analyse,
    analyse_random_main,
    compare_rulesets,
    kept_change,
)
from hazard.core.dice import TOTALS
from hazard.core.errors import InvalidError
from hazard.core.paytable import Paytable
from hazard.core.rules import DicePassing, MainRow, Opening, Ruleset
from hazard.core.rulesets import builtin_rulesets, find_ruleset, paytable_for, settling_paytable

IDS = [ruleset.id for ruleset in builtin_rulesets()]
PAIRS = list(product(IDS, IDS))

Rules = dict[Hashable, object]


def _paytable(ruleset: Ruleset) -> Paytable:
    return settling_paytable(paytable_for(ruleset))


@cache
def _comparison(first: str, second: str) -> Comparison:
    a, b = find_ruleset(first), find_ruleset(second)
    return compare_rulesets(a, b, (_paytable(a), _paytable(b)))


def _rules(ruleset: Ruleset, paytable: Paytable) -> Rules:
    """The ruleset as flat rules: one key per rule the comparison may list."""
    rules: Rules = {
        "main.method": ruleset.method,
        "main.mains": frozenset(ruleset.mains),
        "dice_passing.after_losses": ruleset.passing.after_losses,
        "dice_passing.losses": ruleset.passing.losses,
        "stakes": ruleset.stakes,
        "paytable": paytable,
    }
    for row in ruleset.rows:
        for total in TOTALS:
            rules[("cell", row.main, total)] = row.opening(total)
    return rules


def _key(rule: str) -> Hashable:
    if rule.startswith("main ") and ", opening " in rule:
        main, total = rule.removeprefix("main ").split(", opening ")
        return ("cell", int(main), int(total))
    return rule


def _expected_keys(a: Rules, b: Rules) -> list[Hashable]:
    keys: list[Hashable] = [k for k in a if not isinstance(k, tuple) and a[k] != b[k]]
    keys += [k for k in a if isinstance(k, tuple) and k in b and a[k] != b[k]]
    return keys


def _build(first: Ruleset, rules: Rules, others: Rules) -> tuple[Ruleset, Paytable]:
    """A ruleset like ``first`` with ``rules`` (a new main's cells from ``others``), by its constructors."""
    rows = []
    mains = rules["main.mains"]
    assert isinstance(mains, frozenset)
    for main in sorted(mains):
        cells = {t: rules.get(("cell", main, t), others.get(("cell", main, t))) for t in TOTALS}
        rows.append(
            MainRow(
                main,
                nicks=frozenset(t for t, o in cells.items() if o is Opening.NICK),
                outs=frozenset(t for t, o in cells.items() if o is Opening.OUT),
                chances=frozenset(t for t, o in cells.items() if o is Opening.CHANCE),
            )
        )
    after, losses = rules["dice_passing.after_losses"], rules["dice_passing.losses"]
    assert isinstance(after, int)
    ruleset = Ruleset(
        id=first.id,
        name=first.name,
        source=first.source,
        method=rules["main.method"],  # type: ignore[arg-type]
        rows=tuple(rows),
        passing=DicePassing(after, losses),  # type: ignore[arg-type]
        paytable=first.paytable,
        stakes=rules["stakes"],  # type: ignore[arg-type]
        notes=first.notes,
        aliases=first.aliases,
    )
    paytable = rules["paytable"]
    assert isinstance(paytable, Paytable)
    return ruleset, paytable


@cache
def _analysed(ruleset: Ruleset, paytable: Paytable) -> tuple[MainOdds, tuple[MainOdds, ...]]:
    """The analyser's figures over a round (the thrown main's overall row, else a caster calling each main
    equally often) and its rows by main."""
    report = analyse(ruleset, paytable)
    overall = report.overall if report.overall is not None else analyse_random_main(ruleset, paytable)
    return overall, report.mains


def _edge(ruleset: Ruleset, paytable: Paytable) -> Fraction:
    edge = _analysed(ruleset, paytable)[0].edge
    assert edge is not None
    return edge


def _check_figures(figures: Figures, ruleset: Ruleset, paytable: Paytable) -> None:
    overall, rows = _analysed(ruleset, paytable)
    assert (figures.edge, figures.p_win, figures.expected_throws, figures.rounds_kept) == (
        overall.edge,
        overall.p_win,
        overall.expected_throws,
        overall.expected_rounds_kept,
    )
    assert [(m.main, m.p_win, m.edge) for m in figures.mains] == [(r.main, r.p_win, r.edge) for r in rows]


@pytest.mark.parametrize(("first", "second"), PAIRS)
def test_each_difference_is_the_analysers_figure_for_that_one_rule_changed(first: str, second: str) -> None:
    comparison = _comparison(first, second)
    a, b = find_ruleset(first), find_ruleset(second)
    mine, theirs = _rules(a, _paytable(a)), _rules(b, _paytable(b))
    listed = [_key(difference.rule) for difference in comparison.differences]
    assert len(listed) == len(set(listed))
    assert set(listed) == set(_expected_keys(mine, theirs))
    if first == second:
        assert comparison.differences == ()
        assert comparison.largest is None
    base_edge = _edge(a, _paytable(a))
    assert comparison.figures[0].edge == base_edge
    assert comparison.figures[1].edge == _edge(b, _paytable(b))
    for difference, key in zip(comparison.differences, listed, strict=True):
        changed_rules = {**mine, key: theirs[key]}
        refusal: str | None = None
        try:
            changed, paytable = _build(a, changed_rules, theirs)
            paytable.check(changed)
        except InvalidError as error:
            refusal = str(error)
        if refusal is not None:
            assert difference.effect is None, difference.rule
            assert difference.refused == refusal
            continue
        assert difference.refused is None, (difference.rule, difference.refused)
        effect = difference.effect
        assert effect is not None
        _check_figures(effect.figures, changed, paytable)
        edge = _edge(changed, paytable)
        assert effect.edge == edge - base_edge  # the change in the edge: the analyser's, less the first's


@pytest.mark.parametrize(("first", "second"), [(a, b) for a, b in PAIRS if a != b])
def test_the_largest_difference_moves_the_edge_most(first: str, second: str) -> None:
    comparison = _comparison(first, second)
    moved = [abs(d.effect.edge) for d in comparison.differences if d.effect is not None]
    largest = comparison.largest
    if max(moved) == 0:  # craps against a Hazard whose 7 is craps's: the edge moves only with the mains
        assert largest is None
        assert comparison.to_json_dict()["largest"] is None
        return
    assert largest is not None
    assert largest.effect is not None
    assert abs(largest.effect.edge) == max(moved)
    assert comparison.to_json_dict()["largest"] == largest.rule


def test_what_the_sources_differ_in() -> None:
    # Cotton's 1674 game and the ECWS's reading of it differ in one cell: 11 on a main of 7.
    (cell,) = _comparison("cotton-1674", "ecws-1674").differences
    assert (cell.kind, cell.main, cell.total, cell.first, cell.second) == (
        RuleKind.OPENING,
        7,
        11,
        "nick",
        "thrown again",
    )
    # Craps cannot take five mains while its main is fixed: the format refuses it, and says why.
    refused = [d for d in _comparison("craps", "cotton-1674").differences if d.refused]
    assert [d.rule for d in refused] == ["main.mains"]
    assert refused[0].refused == "invalid ruleset 'craps': a fixed main needs exactly one main, not 5"
    # The stakes are not in the odds: changing them alone moves nothing.
    stakes = next(d for d in _comparison("cotton-1674", "craps").differences if d.kind is RuleKind.STAKES)
    assert stakes.effect is not None
    assert stakes.effect.edge == 0


def test_the_rounds_kept_move_in_words_where_the_dice_start_or_stop_passing() -> None:
    comparison = _comparison("cotton-1674", "craps")
    passing = next(d for d in comparison.differences if d.kind is RuleKind.AFTER_LOSSES)
    assert passing.effect is not None
    assert passing.effect.rounds_kept is None
    assert kept_change(passing.effect, comparison.figures[0]).startswith("never → ")
    craps = _comparison("craps", "cotton-1674")
    back = next(d for d in craps.differences if d.kind is RuleKind.AFTER_LOSSES)
    assert back.effect is not None
    assert kept_change(back.effect, craps.figures[0]).endswith(" → never")
