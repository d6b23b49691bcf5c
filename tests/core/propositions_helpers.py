"""What the proposition tests share: sets of throws by their totals, and strategies for propositions."""

from __future__ import annotations

from hypothesis import strategies as st

from hazard.core.dice import ROLLS, TOTALS
from hazard.core.propositions import Before, Next, Not, Proposition, RollSet, Within


def totals(*values: int) -> RollSet:
    return RollSet.of_totals(*values)


# --- strategies -----------------------------------------------------------------------------------------


@st.composite
def roll_sets(draw: st.DrawFn) -> RollSet:
    kind = draw(
        st.sampled_from(["totals", "odd", "even", "below", "above", "at_least", "at_most", "doublets"])
    )
    if kind == "totals":
        return RollSet.of_totals(*draw(st.sets(st.sampled_from(TOTALS), min_size=1)))
    if kind == "below":
        return RollSet.below(draw(st.integers(3, 12)))
    if kind == "above":
        return RollSet.above(draw(st.integers(2, 11)))
    if kind == "at_least":
        return RollSet.at_least(draw(st.integers(2, 12)))
    if kind == "at_most":
        return RollSet.at_most(draw(st.integers(2, 12)))
    return {"odd": RollSet.odd, "even": RollSet.even, "doublets": RollSet.doublets}[kind]()


def targets() -> st.SearchStrategy[RollSet]:
    """Sets a bet on the next throw or within some throws can take: every set but the one of all throws,
    on which such a bet could never lose."""
    return roll_sets().filter(lambda target: target.ways < len(ROLLS))


@st.composite
def befores(draw: st.DrawFn) -> Before:
    first = draw(roll_sets())
    second = draw(roll_sets().filter(lambda other: not (other.rolls & first.rolls)))
    return Before(first, second)


def positives() -> st.SearchStrategy[Proposition]:
    return st.one_of(
        befores(),
        st.builds(Within, targets(), st.integers(1, 40)),
        st.builds(Next, targets()),
    )


def propositions() -> st.SearchStrategy[Proposition]:
    return st.one_of(positives(), positives().map(Not))
