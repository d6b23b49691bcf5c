"""The caster's exact chance from any state of a round, against the per-main figures and the sources."""

from __future__ import annotations

from fractions import Fraction

import pytest

from hazard.analysis import analyse, caster_chance
from hazard.core.dice import ROLLS
from hazard.core.engine import Call, apply, new_round
from hazard.core.rules import MainMethod
from hazard.core.rulesets import builtin_rulesets, find_ruleset
from hazard.core.state import Phase


@pytest.mark.parametrize("ruleset", builtin_rulesets(), ids=lambda r: r.id)
def test_from_the_start_of_a_round_on_each_main_it_is_that_mains_chance(ruleset: object) -> None:
    from hazard.core.rules import Ruleset

    assert isinstance(ruleset, Ruleset)
    for row in analyse(ruleset).mains:
        start = new_round(ruleset)
        if ruleset.method is MainMethod.CALLED:
            start, _ = apply(start, Call(row.main))
        elif ruleset.method.is_thrown:
            roll = next(r for r in ROLLS if r.total == row.main)
            start, _ = apply(start, roll)
        if start.phase is Phase.OVER:
            continue
        assert caster_chance(start) == row.p_win


def test_once_the_chance_is_set_it_is_the_chance_before_the_main() -> None:
    ruleset = find_ruleset("wikipedia")
    on_seven, _ = apply(new_round(ruleset), Call(7))
    chance_four, _ = apply(on_seven, next(r for r in ROLLS if r.total == 4))
    assert chance_four.phase is Phase.CHANCE
    assert caster_chance(chance_four) == Fraction(3, 3 + 6)  # 3 ways to throw 4, 6 to throw 7


def test_no_chance_where_the_dice_do_not_move_next() -> None:
    ruleset = find_ruleset("wikipedia")
    assert caster_chance(new_round(ruleset)) is None  # the caster calls first
    nicked, _ = apply(apply(new_round(ruleset), Call(7))[0], next(r for r in ROLLS if r.total == 7))
    assert nicked.phase is Phase.OVER
    assert caster_chance(nicked) is None
