"""MainRow, Ruleset and DicePassing: validation, opening classification and descriptions."""

from __future__ import annotations

from collections.abc import Iterable

import pytest
from hypothesis import given, settings
from tests.strategies import rulesets

from hazard.core.dice import TOTALS
from hazard.core.errors import IllegalError, InvalidError
from hazard.core.rules import (
    MAX_AFTER_LOSSES,
    DicePassing,
    LossCount,
    MainMethod,
    MainRow,
    Opening,
    Ruleset,
    Source,
    totals_text,
)

SOURCE = Source("a test")


def row(
    main: int, nicks: Iterable[int] = (), outs: Iterable[int] = (), chances: Iterable[int] = ()
) -> MainRow:
    return MainRow(main, nicks=frozenset(nicks), outs=frozenset(outs), chances=frozenset(chances))


def ruleset(*rows: MainRow, method: MainMethod = MainMethod.CALLED, ident: str = "test") -> Ruleset:
    return Ruleset(id=ident, name="Test", source=SOURCE, method=method, rows=rows)


# Main 7 of the Britannica table in 000_8ac2be41856246a3.txt.
SEVEN = row(7, nicks={7, 11}, outs={2, 3, 12}, chances={4, 5, 6, 8, 9, 10})


class TestMainRow:
    def test_opening_classification(self) -> None:
        expected = {
            2: Opening.OUT,
            3: Opening.OUT,
            4: Opening.CHANCE,
            5: Opening.CHANCE,
            6: Opening.CHANCE,
            7: Opening.NICK,
            8: Opening.CHANCE,
            9: Opening.CHANCE,
            10: Opening.CHANCE,
            11: Opening.NICK,
            12: Opening.OUT,
        }
        assert {total: SEVEN.opening(total) for total in TOTALS} == expected
        assert SEVEN.again == frozenset()

    def test_totals_in_no_set_are_thrown_again(self) -> None:
        seven = row(7, nicks={7}, outs={2, 3, 12}, chances={4, 5, 6, 8, 9, 10})
        assert seven.opening(11) is Opening.AGAIN
        assert seven.again == frozenset({11})

    def test_again_is_the_complement(self) -> None:
        sparse = row(5, nicks={5}, chances={6})
        assert sparse.again == frozenset(TOTALS) - {5, 6}
        assert all(sparse.opening(total) is Opening.AGAIN for total in sparse.again)

    @pytest.mark.parametrize("main", [0, 1, 13, -7])
    def test_main_outside_two_to_twelve(self, main: int) -> None:
        with pytest.raises(InvalidError, match=rf"invalid main {main}: expected a total from 2 to 12"):
            row(main, nicks={7})

    @pytest.mark.parametrize(("field", "word"), [("nicks", "nick"), ("outs", "out"), ("chances", "chance")])
    @pytest.mark.parametrize("total", [1, 13, 0])
    def test_total_outside_two_to_twelve(self, field: str, word: str, total: int) -> None:
        with pytest.raises(InvalidError) as info:
            row(7, **{field: {total}})
        assert f"invalid {word} {total} on main 7: expected a total from 2 to 12" in str(info.value)

    @pytest.mark.parametrize(
        ("kwargs", "fragment"),
        [
            ({"nicks": {7, 11}, "outs": {11, 2}}, "11 is both a nick and an out"),
            ({"nicks": {7, 6}, "chances": {6}}, "6 is both a nick and a chance"),
            ({"outs": {2, 4}, "chances": {4, 5}}, "4 is both an out and a chance"),
            ({"nicks": {7, 11, 12}, "outs": {2, 11, 12}}, "11 and 12 are each both a nick and an out"),
        ],
    )
    def test_overlaps(self, kwargs: dict[str, set[int]], fragment: str) -> None:
        with pytest.raises(InvalidError) as info:
            row(7, **kwargs)
        message = str(info.value)
        assert message.startswith("invalid main 7: ")
        assert fragment in message

    def test_main_cannot_be_its_own_chance(self) -> None:
        with pytest.raises(InvalidError, match="invalid main 6: the main cannot become its own chance"):
            row(6, nicks={12}, chances={4, 6})

    def test_main_can_be_an_out_or_thrown_again(self) -> None:
        assert row(6, outs={6}).opening(6) is Opening.OUT
        assert row(6, nicks={12}).opening(6) is Opening.AGAIN

    def test_no_decisive_total(self) -> None:
        with pytest.raises(InvalidError, match="invalid main 8: no opening throw decides anything"):
            row(8)

    @pytest.mark.parametrize("kwargs", [{"nicks": {2}}, {"outs": {12}}, {"chances": {4}}])
    def test_one_decisive_total_is_enough(self, kwargs: dict[str, set[int]]) -> None:
        assert len(row(8, **kwargs).again) == 10

    def test_frozen_and_hashable(self) -> None:
        assert hash(SEVEN) == hash(row(7, nicks={11, 7}, outs={12, 3, 2}, chances={10, 9, 8, 6, 5, 4}))
        with pytest.raises(AttributeError):
            SEVEN.main = 6  # type: ignore[misc]


class TestRuleset:
    def test_mains_and_rows_are_sorted(self) -> None:
        rules = ruleset(row(9, nicks={9}), row(5, nicks={5}), row(7, nicks={7}))
        assert rules.mains == (5, 7, 9)
        assert [r.main for r in rules.rows] == [5, 7, 9]
        assert rules == ruleset(row(5, nicks={5}), row(7, nicks={7}), row(9, nicks={9}))

    def test_no_main(self) -> None:
        with pytest.raises(InvalidError, match="invalid ruleset 'empty': it has no main"):
            ruleset(ident="empty")

    def test_duplicate_rows(self) -> None:
        with pytest.raises(InvalidError, match="invalid ruleset 'dup': a main has two rows"):
            ruleset(row(7, nicks={7}), row(7, outs={2}), ident="dup")

    def test_fixed_needs_exactly_one_main(self) -> None:
        with pytest.raises(InvalidError) as info:
            ruleset(row(6, nicks={6}), row(7, nicks={7}), method=MainMethod.FIXED, ident="two")
        assert "invalid ruleset 'two': a fixed main needs exactly one main, not 2" in str(info.value)
        assert ruleset(SEVEN, method=MainMethod.FIXED).mains == (7,)

    @pytest.mark.parametrize("method", [MainMethod.CALLED, MainMethod.THROWN, MainMethod.THROWN_OR_PASS])
    def test_other_methods_allow_one_main(self, method: MainMethod) -> None:
        assert ruleset(SEVEN, method=method).mains == (7,)

    def test_row_lookup(self) -> None:
        rules = ruleset(SEVEN, row(6, nicks={6, 12}))
        assert rules.row(7) is SEVEN

    def test_row_of_a_main_the_ruleset_lacks_is_illegal(self) -> None:
        rules = ruleset(row(5, nicks={5}), SEVEN, row(9, nicks={9}))
        with pytest.raises(IllegalError) as info:
            rules.row(6)
        assert str(info.value) == "illegal main 6 in ruleset 'test': the mains are 5, 7 and 9"

    @pytest.mark.parametrize("main", [1, 13, 0])
    def test_row_of_an_impossible_total_is_invalid(self, main: int) -> None:
        with pytest.raises(InvalidError, match=rf"invalid main {main}: expected a total from 2 to 12"):
            ruleset(SEVEN).row(main)

    def test_single_main_message(self) -> None:
        with pytest.raises(IllegalError, match=r"the mains are 7$"):
            ruleset(SEVEN).row(8)

    def test_chances_is_the_union(self) -> None:
        rules = ruleset(row(5, nicks={5}, chances={4, 6}), row(9, nicks={9}, chances={6, 10}))
        assert rules.chances == frozenset({4, 6, 10})

    def test_defaults(self) -> None:
        rules = ruleset(SEVEN)
        assert rules.passing == DicePassing(0, LossCount.ANY)
        assert rules.paytable is None
        assert rules.notes == ()

    def test_aliases_do_not_count_in_equality(self) -> None:
        plain = ruleset(SEVEN)
        aliased = Ruleset(
            id="test", name="Test", source=SOURCE, method=MainMethod.CALLED, rows=(SEVEN,), aliases=("x",)
        )
        assert plain == aliased

    @settings(max_examples=60, deadline=None)
    @given(rulesets())
    def test_random_rulesets_are_consistent(self, rules: Ruleset) -> None:
        assert list(rules.mains) == sorted(set(rules.mains))
        if rules.method is MainMethod.FIXED:
            assert len(rules.mains) == 1
        for main_row in rules.rows:
            assert main_row.main not in main_row.chances
            decided = main_row.nicks | main_row.outs | main_row.chances
            assert decided, "every row decides something"
            assert decided | main_row.again == frozenset(TOTALS)
            assert rules.row(main_row.main) == main_row
        assert rules.chances == frozenset().union(*(r.chances for r in rules.rows))


class TestMainMethod:
    def test_values(self) -> None:
        assert [m.value for m in MainMethod] == ["called", "thrown", "thrown-or-pass", "fixed"]

    def test_is_thrown(self) -> None:
        assert MainMethod.THROWN.is_thrown
        assert MainMethod.THROWN_OR_PASS.is_thrown
        assert not MainMethod.CALLED.is_thrown
        assert not MainMethod.FIXED.is_thrown


class TestDicePassing:
    def test_default_never_passes(self) -> None:
        passing = DicePassing()
        assert passing.after_losses == 0
        assert passing.losses is LossCount.ANY
        assert not passing.by_losses
        assert (
            passing.describe() == "losing never passes the dice; the caster keeps them until giving them up"
        )

    @pytest.mark.parametrize("after", [-1, MAX_AFTER_LOSSES + 1, 2**31])
    def test_out_of_range(self, after: int) -> None:
        with pytest.raises(
            InvalidError, match=f"invalid dice passing after {after} losses: expected 0 to 100"
        ):
            DicePassing(after)

    def test_the_maximum_is_allowed(self) -> None:
        assert DicePassing(MAX_AFTER_LOSSES).describe() == "the dice pass after 100 lost rounds in a row"

    @pytest.mark.parametrize(
        ("after", "losses", "text"),
        [
            (3, LossCount.ANY, "the dice pass after 3 lost rounds in a row"),
            (
                2,
                LossCount.AFTER_CHANCE,
                "the dice pass after 2 rounds lost to the main after a chance in a row",
            ),
            (1, LossCount.ANY, "every lost round passes the dice"),
            (1, LossCount.AFTER_CHANCE, "every round lost to the main after a chance passes the dice"),
        ],
    )
    def test_describe(self, after: int, losses: LossCount, text: str) -> None:
        passing = DicePassing(after, losses)
        assert passing.by_losses
        assert passing.describe() == text

    def test_loss_count_values(self) -> None:
        assert LossCount("any") is LossCount.ANY
        assert LossCount("after-chance") is LossCount.AFTER_CHANCE


def test_totals_in_words() -> None:
    assert totals_text([2, 3, 12]) == "2, 3 and 12"
    assert totals_text([5, 6, 7, 8, 9]) == "5, 6, 7, 8 and 9"
    assert totals_text([7]) == "7"
