"""Paytables: the Wikipedia paytable's odds as printed, and a user's paytable file loaded or refused."""

from __future__ import annotations

from fractions import Fraction
from importlib import resources
from pathlib import Path

import pytest
from tests.core.rulesets_helpers import PAYTABLE, TABLE_PAYTABLE, _write

from hazard.core.dice import ways
from hazard.core.errors import InvalidError
from hazard.core.paytable import Paytable
from hazard.core.rulesets import (
    builtin_paytables,
    find_paytable,
    find_ruleset,
    load_paytable,
    paytable_from_toml,
)

# --- The Wikipedia paytable ---

# 001_68f1b5534e4e0264.txt, "If he throws a chance, the setter gives him odds:"
WIKIPEDIA_ODDS = (
    "Main\tChance\n"
    "\t4\t5\t6\t7\t8\t9\t10\n"
    "5\t4/3\t-\t4/5\t2/3\t4/5\t1/1\t4/3\n"
    "6\t5/3\t5/4\t-\t5/6\t1/1\t5/4\t5/3\n"
    "7\t2/1\t3/2\t6/5\t-\t6/5\t3/2\t2/1\n"
    "8\t5/3\t5/4\t1/1\t5/6\t-\t5/4\t5/3\n"
    "9\t4/3\t1/1\t4/5\t2/3\t4/5\t-\t4/3\n"
)


def _odds_cells() -> list[tuple[int, int, str]]:
    lines = WIKIPEDIA_ODDS.splitlines()
    chances = [int(cell) for cell in lines[1].split("\t")[1:]]
    cells = []
    for line in lines[2:]:
        main, *row = line.split("\t")
        cells += [(int(main), chance, cell) for chance, cell in zip(chances, row, strict=True)]
    return cells


ODDS_CELLS = _odds_cells()


class TestWikipediaPaytable:
    def test_table_size(self) -> None:
        assert len(ODDS_CELLS) == 35
        assert sum(cell == "-" for _, _, cell in ODDS_CELLS) == 5

    @pytest.mark.parametrize(("main", "chance", "cell"), ODDS_CELLS)
    def test_cell(self, main: int, chance: int, cell: str) -> None:
        paytable = find_paytable("wikipedia")
        if cell == "-":
            assert main == chance
            with pytest.raises(InvalidError, match=f"no odds for a chance of {chance} on a main of {main}"):
                paytable.chance_odds(main, chance)
            return
        printed = Fraction(cell)
        assert paytable.chance_odds(main, chance) == printed
        assert printed == Fraction(ways(main), ways(chance)), "the printed odds are the true odds"
        assert find_paytable("true-odds").chance_odds(main, chance) == printed

    def test_table_has_no_other_cells(self) -> None:
        paytable = find_paytable("wikipedia")
        assert set(paytable.table) == {(m, c) for m, c, cell in ODDS_CELLS if cell != "-"}

    def test_worked_examples(self) -> None:
        # "with a stake of £10, a main of 7 and a chance of 5, a caster stands to win £15 (3/2 × £10);
        # with the same stake, a main of 5 and a chance of 6, he could win £8 (4/5 × £10)."
        paytable = find_paytable("wikipedia")
        assert 10 * paytable.chance_odds(7, 5) == 15
        assert 10 * paytable.chance_odds(5, 6) == 8
        assert paytable.nick == 1  # "he wins an amount equal to his stake"

    def test_covers_the_wikipedia_ruleset(self) -> None:
        find_paytable("wikipedia").check(find_ruleset("wikipedia"))
        find_paytable("wikipedia").check(find_ruleset("britannica-1911"))


def _paytable_error(tmp_path: Path, text: str) -> str:
    path = _write(tmp_path, text, "odds.toml")
    with pytest.raises(InvalidError) as info:
        load_paytable(path)
    message = str(info.value)
    assert message.startswith(f"invalid paytable {str(path)!r}: "), message
    return message


class TestUserPaytable:
    def test_flat(self, tmp_path: Path) -> None:
        paytable = load_paytable(_write(tmp_path, PAYTABLE))
        assert paytable == Paytable("mine", "My odds", nick=Fraction(1), flat=Fraction(3, 2))
        assert paytable.source is None

    def test_table(self, tmp_path: Path) -> None:
        paytable = load_paytable(_write(tmp_path, TABLE_PAYTABLE))
        assert dict(paytable.table) == {(7, 4): 2, (7, 10): 2}
        assert paytable.flat is None
        with pytest.raises(InvalidError, match="no odds for a chance of 5 on a main of 7"):
            paytable.chance_odds(7, 5)

    def test_true_odds(self, tmp_path: Path) -> None:
        paytable = load_paytable(_write(tmp_path, PAYTABLE.replace('"3/2"', '"true-odds"')))
        assert paytable.true_odds
        assert paytable.chance_odds(7, 4) == 2

    def test_find_paytable_takes_a_path(self, tmp_path: Path) -> None:
        path = _write(tmp_path, PAYTABLE)
        assert find_paytable(str(path), paths=True) == load_paytable(path)

    def test_builtin_text_reads_back(self) -> None:
        for paytable in builtin_paytables():
            path = resources.files("hazard.core.rulesets") / "paytables" / f"{paytable.id}.toml"
            assert paytable_from_toml(path.read_text(encoding="utf-8"), "copy") == paytable

    @pytest.mark.parametrize(
        ("text", "fragments"),
        [
            pytest.param("nick = = 1\n", ["not valid TOML"], id="not-toml"),
            pytest.param(
                PAYTABLE.replace('nick = "1/1"', 'nick = "0"'),
                ["nick = '0': expected odds above 0"],
                id="nick-0",
            ),
            pytest.param(
                PAYTABLE.replace('nick = "1/1"', 'nick = "-1/2"'),
                ["nick = '-1/2': expected odds above 0"],
                id="nick-neg",
            ),
            pytest.param(
                PAYTABLE.replace('nick = "1/1"', 'nick = "x"'),
                ['nick = \'x\': expected odds such as "3/2" or "1/1"'],
                id="nick-x",
            ),
            pytest.param(
                PAYTABLE.replace('nick = "1/1"', 'nick = "1/0"'),
                ["nick = '1/0': expected odds such as"],
                id="nick-1/0",
            ),
            pytest.param(
                PAYTABLE.replace('nick = "1/1"', "nick = 1.5"),
                ['nick = 1.5: expected odds such as "1/1"'],
                id="nick-float",
            ),
            pytest.param(
                PAYTABLE.replace('nick = "1/1"', "nick = true"),
                ["nick = True: expected odds"],
                id="nick-bool",
            ),
            pytest.param(
                PAYTABLE.replace('nick = "1/1"\n', ""), ["missing nick: expected odds"], id="missing-nick"
            ),
            pytest.param(
                PAYTABLE.replace('chance = "3/2"', 'chance = "x"'),
                ['chance = \'x\': expected odds such as "3/2" or "1/1"'],
                id="chance-x",
            ),
            pytest.param(
                PAYTABLE.replace('chance = "3/2"', "chance = 0"),
                ["chance = 0: expected odds above 0"],
                id="chance-0",
            ),
            pytest.param(
                PAYTABLE.replace('chance = "3/2"\n', ""),
                ['missing chance: expected odds such as "1/1", "true-odds" or "table"'],
                id="missing-chance",
            ),
            pytest.param(
                PAYTABLE.replace('"3/2"', '"table"'),
                ['chance = "table" but there is no [odds] table'],
                id="no-odds-table",
            ),
            pytest.param(
                PAYTABLE + '\n[odds.7]\n4 = "2/1"\n',
                ['an [odds] table is given but chance is not "table"'],
                id="odds-without-table",
            ),
            pytest.param(
                TABLE_PAYTABLE.replace('4 = "2/1"', '4 = "0"'),
                ["odds.7.4 = '0': expected odds above 0"],
                id="cell-0",
            ),
            pytest.param(
                TABLE_PAYTABLE.replace('4 = "2/1"', '4 = "x"'),
                ["odds.7.4 = 'x': expected odds such as"],
                id="cell-x",
            ),
            pytest.param(
                TABLE_PAYTABLE.replace("[odds.7]", "[odds.13]"),
                ["odds.13: expected a main from 2 to 12"],
                id="row-13",
            ),
            pytest.param(
                TABLE_PAYTABLE.replace('4 = "2/1"', '1 = "2/1"'),
                ["odds.7.1: expected a chance from 2 to 12"],
                id="chance-1",
            ),
            pytest.param(PAYTABLE + "colour = 1\n", ["unknown key 'colour'"], id="unknown-key"),
            pytest.param(
                PAYTABLE.replace('id = "mine"\n', ""), ["missing id: expected a string"], id="missing-id"
            ),
            pytest.param(PAYTABLE.replace('name = "My odds"\n', ""), ["missing name"], id="missing-name"),
            pytest.param(
                PAYTABLE + '\n[source]\nfile = "x.txt"\n',
                ["missing source.citation: expected a string"],
                id="bad-source",
            ),
        ],
    )
    def test_bad_file(self, tmp_path: Path, text: str, fragments: list[str]) -> None:
        message = _paytable_error(tmp_path, text)
        for fragment in fragments:
            assert fragment in message, message

    def test_missing_file(self, tmp_path: Path) -> None:
        path = tmp_path / "absent.toml"
        with pytest.raises(InvalidError) as info:
            load_paytable(path)
        assert str(info.value) == f"no paytable file at {str(path)!r}"
