"""Rolls, their text forms, the 36 ordered outcomes and the probability of each total."""

from __future__ import annotations

from collections import Counter
from fractions import Fraction

import pytest
from hypothesis import given
from tests.strategies import rolls

from hazard.core.dice import ROLLS, TOTALS, Roll, total_probability, ways
from hazard.core.errors import HazardError, IllegalError, InvalidError

# The table "Total / Ordered outcomes / One-roll probability" of 000_8ac2be41856246a3.txt, as printed.
PRINTED_TOTALS = """
| 2 | 1 | 1/36 |
| 3 | 2 | 2/36 |
| 4 | 3 | 3/36 |
| 5 | 4 | 4/36 |
| 6 | 5 | 5/36 |
| 7 | 6 | 6/36 |
| 8 | 5 | 5/36 |
| 9 | 4 | 4/36 |
| 10 | 3 | 3/36 |
| 11 | 2 | 2/36 |
| 12 | 1 | 1/36 |
"""


def _printed_totals() -> list[tuple[int, int, Fraction]]:
    rows = []
    for line in PRINTED_TOTALS.strip().splitlines():
        total, count, probability = (cell.strip() for cell in line.strip("|").split("|"))
        numerator, denominator = probability.split("/")
        rows.append((int(total), int(count), Fraction(int(numerator), int(denominator))))
    return rows


class TestRoll:
    def test_total_and_doublet(self) -> None:
        assert Roll(3, 4).total == 7
        assert Roll(6, 6).total == 12
        assert Roll(6, 6).is_doublet
        assert not Roll(1, 2).is_doublet

    def test_order_matters(self) -> None:
        assert Roll(2, 4) != Roll(4, 2)
        assert Roll(2, 4).total == Roll(4, 2).total

    def test_str(self) -> None:
        assert str(Roll(2, 5)) == "2-5"

    @pytest.mark.parametrize(("a", "b"), [(0, 1), (7, 1), (1, 7), (-1, 3), (3, 0)])
    def test_faces_out_of_range(self, a: int, b: int) -> None:
        with pytest.raises(InvalidError, match=rf"invalid roll {a}-{b}: each die shows 1 to 6"):
            Roll(a, b)

    @pytest.mark.parametrize("face", [True, 3.0, "3", None])
    def test_faces_must_be_ints(self, face: object) -> None:
        with pytest.raises(InvalidError, match="each die shows 1 to 6"):
            Roll(face, 3)  # type: ignore[arg-type]
        with pytest.raises(InvalidError, match="each die shows 1 to 6"):
            Roll(3, face)  # type: ignore[arg-type]

    def test_frozen(self) -> None:
        roll = Roll(1, 2)
        with pytest.raises(AttributeError):
            roll.a = 3  # type: ignore[misc]

    def test_errors_are_value_errors(self) -> None:
        assert issubclass(InvalidError, HazardError)
        assert issubclass(IllegalError, HazardError)
        assert issubclass(HazardError, ValueError)
        assert not issubclass(InvalidError, IllegalError)


class TestParse:
    @pytest.mark.parametrize(
        "text", ["3-4", "3 4", "3,4", "3+4", "3/4", "3x4", "34", " 3-4 ", "3 - 4", "3  4", "\t3-4\n"]
    )
    def test_accepted_forms(self, text: str) -> None:
        assert Roll.parse(text) == Roll(3, 4)

    def test_order_is_kept(self) -> None:
        assert Roll.parse("4-3") == Roll(4, 3)
        assert Roll.parse("61") == Roll(6, 1)

    @pytest.mark.parametrize("roll", ROLLS)
    def test_str_round_trip(self, roll: Roll) -> None:
        assert Roll.parse(str(roll)) == roll

    @pytest.mark.parametrize("text", ["7-1", "1-7", "0-3", "3-0", "99", "9 9"])
    def test_faces_out_of_range(self, text: str) -> None:
        with pytest.raises(InvalidError) as info:
            Roll.parse(text)
        message = str(info.value)
        assert repr(text) in message
        assert "each die shows 1 to 6" in message

    @pytest.mark.parametrize(
        "text", ["", "   ", "a-b", "3", "10-2", "3-4-5", "3--4", "3_4", "three-four", "3-"]
    )
    def test_not_a_roll(self, text: str) -> None:
        with pytest.raises(InvalidError) as info:
            Roll.parse(text)
        message = str(info.value)
        assert f"invalid roll {text!r}" in message
        assert "expected two faces from 1 to 6" in message

    @given(rolls())
    def test_parse_of_str_property(self, roll: Roll) -> None:
        assert Roll.parse(str(roll)) == roll
        assert Roll.parse(f"{roll.a} {roll.b}") == roll
        assert Roll.parse(f"{roll.a}{roll.b}") == roll


class TestOutcomes:
    def test_thirty_six_distinct_ordered_outcomes(self) -> None:
        assert len(ROLLS) == 36
        assert len(set(ROLLS)) == 36
        assert {(roll.a, roll.b) for roll in ROLLS} == {(a, b) for a in range(1, 7) for b in range(1, 7)}

    def test_outcomes_are_sorted(self) -> None:
        assert list(ROLLS) == sorted(ROLLS)

    def test_totals(self) -> None:
        assert tuple(range(2, 13)) == TOTALS
        assert {roll.total for roll in ROLLS} == set(TOTALS)

    @pytest.mark.parametrize(("total", "count", "probability"), _printed_totals())
    def test_ways_and_probability_match_the_printed_table(
        self, total: int, count: int, probability: Fraction
    ) -> None:
        assert ways(total) == count
        assert total_probability(total) == probability
        assert Counter(roll.total for roll in ROLLS)[total] == count

    def test_printed_table_covers_every_total(self) -> None:
        assert [total for total, _, _ in _printed_totals()] == list(TOTALS)

    def test_probabilities_sum_to_one(self) -> None:
        assert sum(ways(total) for total in TOTALS) == 36
        assert sum(total_probability(total) for total in TOTALS) == 1

    @pytest.mark.parametrize("total", [-1, 0, 1, 13, 14, 100])
    def test_impossible_totals(self, total: int) -> None:
        assert ways(total) == 0
        assert total_probability(total) == 0

    def test_probability_is_exact(self) -> None:
        assert isinstance(total_probability(7), Fraction)
        assert total_probability(7) == Fraction(1, 6)


@pytest.mark.parametrize("text", ["٣-٤", "３-４", "³-⁴"])
def test_non_ascii_digits_are_not_faces(text: str) -> None:
    with pytest.raises(InvalidError, match="expected two faces from 1 to 6"):
        Roll.parse(text)
