"""The built-in rulesets against their sources, cell by cell, and the loader against a user's bad files.

Each source's outcome table is typed in below as its file prints it, and every main and every total from 2 to
12 is checked against the ruleset built from that source, so a changed TOML file cannot pass unnoticed.
"""

from __future__ import annotations

import re
import tempfile
import time
from collections.abc import Callable
from dataclasses import replace
from fractions import Fraction
from importlib import resources
from pathlib import Path

import pytest
from hypothesis import given, settings
from tests.fuzzing import (
    BUILTIN_PAYTABLE_TEXTS,
    BUILTIN_RULESET_TEXTS,
    check_ruleset_text,
    mutated_toml,
)
from tests.strategies import rulesets, to_toml

from hazard.core.dice import TOTALS, ways
from hazard.core.errors import InvalidError
from hazard.core.paytable import Paytable
from hazard.core.rules import DicePassing, LossCount, MainMethod, Opening, Ruleset, StakeArrangement
from hazard.core.rulesets import (
    DEFAULT_RULESET,
    builtin_paytables,
    builtin_rulesets,
    find_paytable,
    find_ruleset,
    load_paytable,
    load_ruleset,
    paytable_for,
    paytable_from_toml,
    ruleset_from_toml,
    ruleset_to_toml,
)

MAINS = (5, 6, 7, 8, 9)
ALL_TOTALS = frozenset(TOTALS)


def _numbers(text: str) -> frozenset[int]:
    return frozenset(int(word) for word in re.findall(r"\d+", text))


# --- The sources' tables, as printed ---

# 000_8ac2be41856246a3.txt, "Outcome rules in the featured version":
# | Called main | Immediate win or nick | Immediate loss or throw-out | Totals that establish the chance |
BRITANNICA_TABLE = """
| 5 | 5 | 2, 3, 11, 12 | 4, 6, 7, 8, 9, 10 |
| 6 | 6, 12 | 2, 3, 11 | 4, 5, 7, 8, 9, 10 |
| 7 | 7, 11 | 2, 3, 12 | 4, 5, 6, 8, 9, 10 |
| 8 | 8, 12 | 2, 3, 11 | 4, 5, 6, 7, 9, 10 |
| 9 | 9 | 2, 3, 11, 12 | 4, 5, 6, 7, 8, 10 |
"""

# 001_68f1b5534e4e0264.txt, "This is simpler to follow in a table"; the Chance column's one cell,
# "Anything else", stands for every row.
WIKIPEDIA_TABLE = (
    "Main\tNicks\tOuts\tChance\n"
    "5\t5\t2, 3, 11, 12\tAnything else\n"
    "6\t6, 12\t2, 3, 11\n"
    "7\t7, 11\t2, 3, 12\n"
    "8\t8, 12\t2, 3, 11\n"
    "9\t9\t2, 3, 11, 12\n"
)

# 001_68f1b5534e4e0264.txt, "Craps and Hazard": craps is Hazard with the main always 7.
CRAPS_TEXT = (
    "• if the shooter (the caster) rolls a 7 or 11 on his first throw, he wins;\n"
    "• if he rolls a 2, 3, or 12, he loses;\n"
    "• if he rolls anything else, that is his point (his chance); he now keeps throwing until he wins by "
    "making (rolling) his point or loses by rolling a 7.\n"
)

# 002_e25665f301869517.txt: the MAIN/NICK/CRABS table, and the chance numbers it lists before it.
ECWS_TABLE = (
    "MAIN\tNICK\tCRABS\n"
    "5\t5\t2, 3, 11, 12\n"
    "6\t6, 12\t2, 3, 11\n"
    "7\t7\t2, 3, 12\n"
    "8\t8, 12\t2, 3, 11\n"
    "9\t9\t2, 3, 11, 12\n"
)
ECWS_CHANCES_TEXT = "which can be any one of seven numbers:-\n4, 5, 6, 7, 8, 9 or 10."

# 003_c981b497fd7d79e8.txt, "Part II (only) Win/Lose": rows are the second throw, columns the main; a blank
# cell goes on to Part III with that throw as the chance.
SCA_TABLE = (
    "Chance\tMain\n"
    "\t5\t6\t7\t8\t9\n"
    "2\tL\tL\tL\tL\tL\n"
    "3\tL\tL\tL\tL\tL\n"
    "4\n"
    "5\tW\n"
    "6\t\tW\n"
    "7\t\t\tW\n"
    "8\t\t\t\tW\n"
    "9\t\t\t\t\tW\n"
    "10\n"
    "11\tL\tL\tL\tL\tL\n"
    "12\tL\tW\tL\tW\tL\n"
)

# Cotton's rules as cotton-1674.toml's notes summarise them (no seed file prints Cotton's own text).
COTTON_OUTS = {2: "every main", 3: "every main", 12: "9, 7 and 5", 11: "9, 8, 6 and 5"}
COTTON_NICKS = {11: "7", 12: "6 and 8"}  # and the main itself
COTTON_CHANCES = range(4, 11)


def _britannica() -> dict[int, dict[int, Opening]]:
    table = {}
    for line in BRITANNICA_TABLE.strip().splitlines():
        main, nicks, outs, chances = (cell.strip() for cell in line.strip().strip("|").split("|"))
        table[int(main)] = _row(_numbers(nicks), _numbers(outs), _numbers(chances))
    return table


def _wikipedia() -> dict[int, dict[int, Opening]]:
    lines = WIKIPEDIA_TABLE.strip().splitlines()
    assert lines[0].split("\t") == ["Main", "Nicks", "Outs", "Chance"]
    table = {}
    for line in lines[1:]:
        main, nicks, outs, *chance = line.split("\t")
        assert chance in ([], ["Anything else"])
        nick_set, out_set = _numbers(nicks), _numbers(outs)
        table[int(main)] = _row(nick_set, out_set, ALL_TOTALS - nick_set - out_set)
    return table


def _craps() -> dict[int, dict[int, Opening]]:
    wins, loses, _anything_else = CRAPS_TEXT.splitlines()
    nicks, outs = _numbers(wins), _numbers(loses)
    return {7: _row(nicks, outs, ALL_TOTALS - nicks - outs)}


def _ecws() -> dict[int, dict[int, Opening]]:
    lines = ECWS_TABLE.strip().splitlines()
    assert lines[0].split("\t") == ["MAIN", "NICK", "CRABS"]
    seven_numbers = _numbers(ECWS_CHANCES_TEXT)
    assert seven_numbers == frozenset(range(4, 11))
    table = {}
    for line in lines[1:]:
        main, nicks, crabs = line.split("\t")
        nick_set, crab_set = _numbers(nicks), _numbers(crabs)
        table[int(main)] = _row(nick_set, crab_set, seven_numbers - nick_set - crab_set)
    return table


def _sca() -> dict[int, dict[int, Opening]]:
    lines = SCA_TABLE.splitlines()
    mains = [int(cell) for cell in lines[1].split("\t")[1:]]
    table: dict[int, dict[int, Opening]] = {main: {} for main in mains}
    for line in lines[2:]:
        total, *cells = line.split("\t")
        cells += [""] * (len(mains) - len(cells))
        for main, cell in zip(mains, cells, strict=True):
            table[main][int(total)] = {"W": Opening.NICK, "L": Opening.OUT, "": Opening.CHANCE}[cell]
    return table


def _cotton() -> dict[int, dict[int, Opening]]:
    def applies(words: str, main: int) -> bool:
        return words == "every main" or main in _numbers(words)

    table = {}
    for main in MAINS:
        nicks = {main} | {total for total, words in COTTON_NICKS.items() if applies(words, main)}
        outs = {total for total, words in COTTON_OUTS.items() if applies(words, main)}
        chances = frozenset(COTTON_CHANCES) - nicks - outs
        table[main] = _row(frozenset(nicks), frozenset(outs), chances)
    return table


def _row(nicks: frozenset[int], outs: frozenset[int], chances: frozenset[int]) -> dict[int, Opening]:
    assert not nicks & outs, "a source table cell is both a win and a loss"
    row = {}
    for total in TOTALS:
        if total in nicks:
            row[total] = Opening.NICK
        elif total in outs:
            row[total] = Opening.OUT
        elif total in chances:
            row[total] = Opening.CHANCE
        else:
            row[total] = Opening.AGAIN
    return row


SOURCE_TABLES = {
    "britannica-1911": _britannica(),
    "wikipedia": _wikipedia(),
    "craps": _craps(),
    "ecws-1674": _ecws(),
    "sca-isenfir": _sca(),
    "cotton-1674": _cotton(),
}

CELLS = [
    pytest.param(ident, main, total, expected, id=f"{ident}-main{main}-total{total}")
    for ident, table in SOURCE_TABLES.items()
    for main, row in table.items()
    for total, expected in row.items()
]


class TestSourceTables:
    def test_every_builtin_ruleset_has_a_source_table(self) -> None:
        assert {ruleset.id for ruleset in builtin_rulesets()} == set(SOURCE_TABLES)

    def test_every_cell_is_covered(self) -> None:
        # 5 rulesets with mains 5 to 9 and craps with main 7, each over the 11 totals.
        assert len(CELLS) == (5 * 5 + 1) * 11

    @pytest.mark.parametrize("ident", SOURCE_TABLES)
    def test_mains(self, ident: str) -> None:
        assert find_ruleset(ident).mains == tuple(sorted(SOURCE_TABLES[ident]))

    @pytest.mark.parametrize(("ident", "main", "total", "expected"), CELLS)
    def test_cell(self, ident: str, main: int, total: int, expected: Opening) -> None:
        assert find_ruleset(ident).row(main).opening(total) is expected

    def test_transcriptions_spot_checks(self) -> None:
        # The cells the sources single out in words.
        assert SOURCE_TABLES["britannica-1911"][7][11] is Opening.NICK
        assert SOURCE_TABLES["britannica-1911"][6][11] is Opening.OUT
        assert SOURCE_TABLES["britannica-1911"][6][12] is Opening.NICK
        assert SOURCE_TABLES["britannica-1911"][7][12] is Opening.OUT
        assert SOURCE_TABLES["ecws-1674"][7][11] is Opening.AGAIN
        assert SOURCE_TABLES["sca-isenfir"][7][11] is Opening.OUT
        assert SOURCE_TABLES["cotton-1674"][7][11] is Opening.NICK
        assert SOURCE_TABLES["craps"][7][4] is Opening.CHANCE

    def test_ecws_main_seven_throws_eleven_again(self) -> None:
        row = find_ruleset("ecws-1674").row(7)
        assert row.opening(11) is Opening.AGAIN
        assert row.again == frozenset({11})
        for main in (5, 6, 8, 9):
            assert find_ruleset("ecws-1674").row(main).again == frozenset()

    def test_britannica_chance_column_matches_the_rule_in_words(self) -> None:
        # "The eligible opening total from 4 through 10 becomes the chance."
        for main, row in SOURCE_TABLES["britannica-1911"].items():
            chances = {total for total, opening in row.items() if opening is Opening.CHANCE}
            assert chances == set(range(4, 11)) - {main}

    @pytest.mark.parametrize("ident", ["britannica-1911", "wikipedia", "cotton-1674", "sca-isenfir", "craps"])
    def test_no_opening_throw_is_thrown_again(self, ident: str) -> None:
        assert all(row.again == frozenset() for row in find_ruleset(ident).rows)


class TestBuiltinFacts:
    @pytest.mark.parametrize(
        ("ident", "method"),
        [
            ("britannica-1911", MainMethod.CALLED),
            ("wikipedia", MainMethod.CALLED),
            ("ecws-1674", MainMethod.THROWN),
            ("cotton-1674", MainMethod.THROWN),
            ("sca-isenfir", MainMethod.THROWN_OR_PASS),
            ("craps", MainMethod.FIXED),
        ],
    )
    def test_main_method(self, ident: str, method: MainMethod) -> None:
        assert find_ruleset(ident).method is method

    @pytest.mark.parametrize(
        ("ident", "passing"),
        [
            ("britannica-1911", DicePassing(0, LossCount.ANY)),
            # "if he loses three times in succession, he must pass the dice"
            ("wikipedia", DicePassing(3, LossCount.ANY)),
            ("ecws-1674", DicePassing(0, LossCount.ANY)),
            ("cotton-1674", DicePassing(0, LossCount.ANY)),
            # "a win keeps the dice, a loss passes them"
            ("sca-isenfir", DicePassing(1, LossCount.ANY)),
            # only a seven-out passes the dice
            ("craps", DicePassing(1, LossCount.AFTER_CHANCE)),
        ],
    )
    def test_dice_passing(self, ident: str, passing: DicePassing) -> None:
        assert find_ruleset(ident).passing == passing

    @pytest.mark.parametrize(
        ("ident", "paytable"),
        [
            ("britannica-1911", None),
            ("wikipedia", "wikipedia"),
            ("ecws-1674", "even"),
            ("cotton-1674", "even"),
            ("sca-isenfir", "even"),
            ("craps", "even"),
        ],
    )
    def test_default_paytable(self, ident: str, paytable: str | None) -> None:
        ruleset = find_ruleset(ident)
        assert ruleset.paytable == paytable
        found = paytable_for(ruleset)
        assert (found.id if found is not None else None) == paytable

    @pytest.mark.parametrize(
        ("ident", "file"),
        [
            ("britannica-1911", "000_8ac2be41856246a3.txt"),
            ("wikipedia", "001_68f1b5534e4e0264.txt"),
            ("craps", "001_68f1b5534e4e0264.txt"),
            ("ecws-1674", "002_e25665f301869517.txt"),
            ("sca-isenfir", "003_c981b497fd7d79e8.txt"),
            ("cotton-1674", None),
        ],
    )
    def test_citation_names_the_seed_file(self, ident: str, file: str | None) -> None:
        ruleset = find_ruleset(ident)
        assert ruleset.source.file == file
        assert ruleset.source.citation.strip()
        assert ruleset.notes, "every built-in ruleset explains its choices"

    def test_cotton_says_which_file_it_leans_on(self) -> None:
        notes = " ".join(find_ruleset("cotton-1674").notes)
        assert "002_e25665f301869517.txt" in notes
        assert "Compleat Gamester" in find_ruleset("cotton-1674").source.citation

    def test_citations_name_the_works(self) -> None:
        assert "Britannica" in find_ruleset("britannica-1911").source.citation
        assert "Wikipedia" in find_ruleset("wikipedia").source.citation
        assert "Wikipedia" in find_ruleset("craps").source.citation
        assert "Civil War Society" in find_ruleset("ecws-1674").source.citation
        assert "Isenfir" in find_ruleset("sca-isenfir").source.citation

    def test_order(self) -> None:
        assert [r.id for r in builtin_rulesets()] == [
            "britannica-1911",
            "wikipedia",
            "ecws-1674",
            "cotton-1674",
            "sca-isenfir",
            "craps",
        ]

    def test_default_ruleset(self) -> None:
        assert DEFAULT_RULESET == "wikipedia"
        assert find_ruleset(DEFAULT_RULESET).id == "wikipedia"

    @pytest.mark.parametrize("ruleset", builtin_rulesets(), ids=lambda r: r.id)
    def test_builtin_file_loads_as_a_users_file_would(self, ruleset: Ruleset) -> None:
        path = resources.files("hazard.core.rulesets") / "data" / f"{ruleset.id}.toml"
        text = path.read_text(encoding="utf-8")
        assert ruleset_from_toml(text, "copy") == ruleset

    @pytest.mark.parametrize("ruleset", builtin_rulesets(), ids=lambda r: r.id)
    def test_builtin_round_trips_through_the_writer(self, ruleset: Ruleset, tmp_path: Path) -> None:
        path = tmp_path / f"{ruleset.id}.toml"
        path.write_text(to_toml(ruleset), encoding="utf-8")
        loaded = load_ruleset(path)
        assert loaded == ruleset
        assert loaded.aliases == ruleset.aliases
        assert find_ruleset(str(path), paths=True) == ruleset


class TestRegistry:
    @pytest.mark.parametrize(
        ("name", "ident"),
        [
            ("britannica-1911", "britannica-1911"),
            ("britannica", "britannica-1911"),
            ("eb1911", "britannica-1911"),
            ("1911", "britannica-1911"),
            ("wiki", "wikipedia"),
            ("ecws", "ecws-1674"),
            ("crabs", "ecws-1674"),
            ("bright", "ecws-1674"),
            ("cotton", "cotton-1674"),
            ("compleat-gamester", "cotton-1674"),
            ("sca", "sca-isenfir"),
            ("isenfir", "sca-isenfir"),
            ("pass-line", "craps"),
            ("WIKI", "wikipedia"),
            ("  Craps ", "craps"),
        ],
    )
    def test_aliases_resolve(self, name: str, ident: str) -> None:
        assert find_ruleset(name).id == ident

    def test_every_alias_resolves_to_its_ruleset(self) -> None:
        for ruleset in builtin_rulesets():
            for name in (ruleset.id, *ruleset.aliases):
                assert find_ruleset(name) is ruleset

    def test_aliases_are_unique(self) -> None:
        names = [name for r in builtin_rulesets() for name in (r.id, *r.aliases)]
        assert len(names) == len(set(names))

    @pytest.mark.parametrize("name", ["nope", "", "hazard", "britannica-1912"])
    def test_unknown_ruleset(self, name: str) -> None:
        with pytest.raises(InvalidError) as info:
            find_ruleset(name, paths=True)
        message = str(info.value)
        assert f"unknown ruleset {name!r}" in message
        assert (
            "expected one of britannica-1911, wikipedia, ecws-1674, cotton-1674, sca-isenfir, craps"
            in message
        )
        assert "or a path to a .toml file" in message
        with pytest.raises(InvalidError) as info:
            find_ruleset(name)  # without paths: a name from anyone, which names no file
        assert str(info.value) == (
            f"unknown ruleset {name!r}: expected a built-in ruleset id: britannica-1911, wikipedia, "
            "ecws-1674, cotton-1674, sca-isenfir, craps"
        )

    def test_unknown_paytable(self) -> None:
        with pytest.raises(InvalidError) as info:
            find_paytable("odds", paths=True)
        assert "unknown paytable 'odds': expected one of even, true-odds, wikipedia" in str(info.value)
        with pytest.raises(InvalidError) as info:
            find_paytable("odds")
        assert (
            str(info.value)
            == "unknown paytable 'odds': expected a built-in paytable id: even, true-odds, wikipedia"
        )

    def test_builtin_paytables(self) -> None:
        assert [p.id for p in builtin_paytables()] == ["even", "true-odds", "wikipedia"]
        even, true_odds, wikipedia = builtin_paytables()
        assert even.nick == 1
        assert even.flat == 1
        assert true_odds.true_odds
        assert true_odds.flat is None
        assert wikipedia.flat is None
        assert not wikipedia.true_odds
        assert wikipedia.source is not None
        assert wikipedia.source.file == "001_68f1b5534e4e0264.txt"

    def test_paytable_for_named(self) -> None:
        paytable = paytable_for(find_ruleset("britannica-1911"), "true-odds")
        assert paytable is not None
        assert paytable.id == "true-odds"

    def test_paytable_for_refuses_a_table_that_does_not_cover(self) -> None:
        head = MINIMAL.replace("mains = [6, 7]", "mains = [4, 6, 7]")
        ruleset = ruleset_from_toml(_text(head, ROW4, ROW6, ROW7), "x")
        with pytest.raises(InvalidError) as info:
            paytable_for(ruleset, "wikipedia")
        message = str(info.value)
        assert "paytable 'wikipedia' has no odds for a chance of" in message
        assert "on a main of 4" in message
        assert "which ruleset 'mine' can set" in message


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


# --- A user's ruleset file ---

MINIMAL = """\
id = "mine"
name = "My rules"

[source]
citation = "my own"

[main]
method = "called"
mains = [6, 7]

[opening]
chances = [4, 5, 6, 7, 8, 9, 10]
"""
ROW6 = """
[opening.6]
nicks = [6, 12]
outs = [2, 3, 11]
"""
ROW7 = """
[opening.7]
nicks = [7, 11]
outs = [2, 3, 12]
"""
ROW4 = """
[opening.4]
nicks = [4]
outs = [2, 3]
"""


def _text(head: str = MINIMAL, *rows: str, tail: str = "") -> str:
    return head + "".join(rows or (ROW6, ROW7)) + tail


def _write(tmp_path: Path, text: str, name: str = "mine.toml") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def _ruleset_error(tmp_path: Path, text: str) -> str:
    path = _write(tmp_path, text)
    with pytest.raises(InvalidError) as info:
        load_ruleset(path)
    message = str(info.value)
    assert message.startswith(f"invalid ruleset {str(path)!r}: "), message
    return message


class TestUserRuleset:
    def test_minimal_file_loads(self, tmp_path: Path) -> None:
        ruleset = load_ruleset(_write(tmp_path, _text()))
        assert ruleset.id == "mine"
        assert ruleset.mains == (6, 7)
        assert ruleset.row(7).chances == frozenset({4, 5, 6, 8, 9, 10})
        assert ruleset.row(6).chances == frozenset({4, 5, 7, 8, 9, 10})
        assert ruleset.passing == DicePassing()
        assert ruleset.paytable is None
        assert ruleset.source.file is None

    def test_per_row_chances_override_the_default(self, tmp_path: Path) -> None:
        row7 = ROW7 + "chances = [4, 10]\n"
        ruleset = load_ruleset(_write(tmp_path, _text(MINIMAL, ROW6, row7)))
        assert ruleset.row(7).chances == frozenset({4, 10})
        assert ruleset.row(7).again == frozenset({5, 6, 8, 9})

    def test_find_ruleset_takes_a_path(self, tmp_path: Path) -> None:
        path = _write(tmp_path, _text())
        assert find_ruleset(str(path), paths=True) == load_ruleset(path)

    def test_paytable_may_be_a_users_file(self, tmp_path: Path) -> None:
        paytable = _write(tmp_path, 'id = "pay"\nname = "Pay"\nnick = "2"\nchance = "3/2"\n', "pay.toml")
        head = MINIMAL.replace('name = "My rules"', f'name = "My rules"\npaytable = "{paytable}"')
        ruleset = load_ruleset(_write(tmp_path, _text(head)))
        found = paytable_for(ruleset)
        assert found is not None
        assert found.nick == 2
        assert found.chance_odds(7, 4) == Fraction(3, 2)

    @pytest.mark.parametrize(
        ("text", "fragments"),
        [
            pytest.param("id = \n", ["not valid TOML ("], id="not-toml"),
            pytest.param(_text() + "[[opening]]\n", ["not valid TOML"], id="not-toml-redefined"),
            pytest.param(
                _text(MINIMAL.replace('name = "My rules"', 'name = "My rules"\ncolour = "red"')),
                ["unknown key 'colour': expected one of", "name", "source"],
                id="unknown-top-level-key",
            ),
            pytest.param(
                _text(MINIMAL, ROW6, ROW7 + "crabs = [2]\n"),
                ["unknown key 'opening.7.crabs': expected one of chances, nicks, outs"],
                id="unknown-key-in-row",
            ),
            pytest.param(
                _text(tail="\n[dice_passing]\nafter_losses = 1\nafter = 2\n"),
                ["unknown key 'dice_passing.after': expected one of after_losses, losses"],
                id="unknown-key-in-dice-passing",
            ),
            pytest.param(
                _text(MINIMAL.replace('method = "called"', 'method = "called"\nstyle = 1')),
                ["unknown key 'main.style': expected one of mains, method"],
                id="unknown-key-in-main",
            ),
            pytest.param(
                _text(MINIMAL.replace('citation = "my own"', 'citation = "my own"\npage = 3')),
                ["unknown key 'source.page': expected one of citation, file, url"],
                id="unknown-key-in-source",
            ),
            pytest.param(
                _text(MINIMAL, ROW6, ROW7.replace("outs = [2, 3, 12]", "outs = [2, 3, 13]")),
                ["opening.7.outs has 13: expected totals from 2 to 12"],
                id="total-13",
            ),
            pytest.param(
                _text(MINIMAL, ROW6, ROW7.replace("outs = [2, 3, 12]", "outs = [1, 2, 3]")),
                ["opening.7.outs has 1: expected totals from 2 to 12"],
                id="total-1",
            ),
            pytest.param(
                _text(MINIMAL, ROW6, ROW7.replace("nicks = [7, 11]", 'nicks = ["7", 11]')),
                ["opening.7.nicks has '7': expected totals from 2 to 12"],
                id="total-string",
            ),
            pytest.param(
                _text(MINIMAL, ROW6, ROW7.replace("nicks = [7, 11]", "nicks = [true, 11]")),
                ["opening.7.nicks has True: expected totals from 2 to 12"],
                id="total-bool",
            ),
            pytest.param(
                _text(MINIMAL, ROW6, ROW7.replace("nicks = [7, 11]", "nicks = [7.0, 11]")),
                ["opening.7.nicks has 7.0: expected totals from 2 to 12"],
                id="total-float",
            ),
            pytest.param(
                _text(MINIMAL, ROW6, ROW7.replace("nicks = [7, 11]", "nicks = 7")),
                ["opening.7.nicks = 7: expected a list of totals from 2 to 12"],
                id="totals-not-a-list",
            ),
            pytest.param(
                _text(MINIMAL.replace("mains = [6, 7]", "mains = [6, 7, 13]")),
                ["main.mains has 13: expected totals from 2 to 12"],
                id="main-13",
            ),
            pytest.param(
                _text(
                    MINIMAL.replace(
                        "chances = [4, 5, 6, 7, 8, 9, 10]", "chances = [4, 5, 6, 7, 8, 9, 10, 14]"
                    )
                ),
                ["opening.chances has 14: expected totals from 2 to 12"],
                id="default-chance-14",
            ),
            pytest.param(
                _text(MINIMAL, ROW6, ROW7.replace("outs = [2, 3, 12]", "outs = [2, 2, 3, 12]")),
                ["opening.7.outs = [2, 2, 3, 12]: a total is listed twice"],
                id="total-twice",
            ),
            pytest.param(
                _text(MINIMAL, ROW6, ROW7.replace("nicks = [7, 11]", "nicks = [7, 11, 12]")),
                ["main 7: 12 is both a nick and an out"],
                id="nick-and-out",
            ),
            pytest.param(
                _text(MINIMAL.replace("mains = [6, 7]", "mains = [6, 7, 8]")),
                ["main 8 has no row: expected a table [opening.8] with its nicks and outs"],
                id="main-without-row",
            ),
            pytest.param(
                _text(MINIMAL, ROW6, ROW7, "\n[opening.9]\nnicks = [9]\n"),
                ["opening.9 is a row for 9, which is not in main.mains"],
                id="row-for-non-main",
            ),
            pytest.param(
                _text(MINIMAL, ROW6, ROW7, "\n[opening.13]\nnicks = [9]\n"),
                ["opening.13: expected a main from 2 to 12 (a table such as [opening.7])"],
                id="row-for-13",
            ),
            pytest.param(
                _text(MINIMAL, ROW6, ROW7, "\n[opening.seven]\nnicks = [9]\n"),
                ["opening.seven: expected a main from 2 to 12"],
                id="row-not-a-number",
            ),
            pytest.param(
                _text(MINIMAL.replace("10]\n", "10]\n7 = [7, 11]\n"), ROW6),
                ["opening.7 = [7, 11]: expected a table"],
                id="row-not-a-table",
            ),
            pytest.param(
                _text(MINIMAL.replace('method = "called"', 'method = "rolled"')),
                ["main.method = 'rolled': expected one of 'called', 'thrown', 'thrown-or-pass', 'fixed'"],
                id="unknown-method",
            ),
            pytest.param(
                _text(MINIMAL.replace('method = "called"', 'method = "fixed"')),
                ["ruleset 'mine': a fixed main needs exactly one main, not 2"],
                id="fixed-two-mains",
            ),
            pytest.param(
                _text(MINIMAL.replace("mains = [6, 7]", "mains = []")),
                ["main.mains is empty: expected at least one main"],
                id="no-mains",
            ),
            pytest.param(
                _text(MINIMAL.replace('id = "mine"\n', "")),
                ["missing id: expected a string"],
                id="missing-id",
            ),
            pytest.param(
                _text(MINIMAL.replace('name = "My rules"\n', "")),
                ["missing name: expected a string"],
                id="missing-name",
            ),
            pytest.param(
                _text(MINIMAL.replace('[source]\ncitation = "my own"\n', "")),
                ["missing source: expected a table"],
                id="missing-source",
            ),
            pytest.param(
                _text(MINIMAL.replace('citation = "my own"', 'file = "x.txt"')),
                ["missing source.citation: expected a string"],
                id="missing-citation",
            ),
            pytest.param(
                _text(MINIMAL.replace("[main]\n", "[rules]\n")),
                ["missing main: expected a table"],
                id="missing-main",
            ),
            pytest.param(
                MINIMAL.split("[opening]", maxsplit=1)[0],
                ["missing opening: expected a table"],
                id="missing-opening",
            ),
            pytest.param(
                _text(MINIMAL.replace('id = "mine"', 'id = "My Rules"')),
                ["id = 'My Rules': expected lower-case letters, digits and dashes"],
                id="bad-id",
            ),
            pytest.param(
                _text(MINIMAL.replace('id = "mine"', "id = 7")),
                ["id = 7: expected a string"],
                id="id-not-text",
            ),
            pytest.param(
                _text(MINIMAL.replace('name = "My rules"', 'name = "  "')),
                ["name is empty: expected some text"],
                id="blank-name",
            ),
            pytest.param(
                _text(MINIMAL.replace('name = "My rules"', 'name = "My rules"\nnotes = [1]')),
                ["notes = [1]: expected a list of strings"],
                id="notes-not-strings",
            ),
            pytest.param(
                _text(MINIMAL.replace("[opening]\nchances = [4, 5, 6, 7, 8, 9, 10]\n", "")),
                ["opening.6 has no chances and opening.chances is not given"],
                id="no-chances",
            ),
            pytest.param(
                _text(MINIMAL, ROW6, ROW7.replace("nicks = [7, 11]", "nicks = [11]")),
                ["main 7: the main cannot become its own chance"],
                id="main-own-chance",
            ),
            pytest.param(
                _text(MINIMAL, ROW6, "\n[opening.7]\nchances = []\n"),
                ["main 7: no opening throw decides anything, so the round never ends"],
                id="no-decisive-total",
            ),
            pytest.param(
                _text(tail="\n[dice_passing]\nafter_losses = -1\n"),
                ["dice_passing.after_losses = -1: expected 0 to 100"],
                id="negative-passing",
            ),
            pytest.param(
                _text(tail="\n[dice_passing]\nafter_losses = 2147483648\n"),
                ["dice_passing.after_losses = 2147483648: expected 0 to 100"],
                id="huge-passing",
            ),
            pytest.param(
                _text(tail="\n[dice_passing]\nafter_losses = true\n"),
                ["dice_passing.after_losses = True: expected a whole number of losses, 0 for never"],
                id="passing-bool",
            ),
            pytest.param(
                _text(tail='\n[dice_passing]\nafter_losses = "3"\n'),
                ["dice_passing.after_losses = '3': expected a whole number of losses"],
                id="passing-text",
            ),
            pytest.param(
                _text(tail="\n[dice_passing]\nlosses = 'any'\n"),
                ["missing dice_passing.after_losses: expected a whole number of losses"],
                id="passing-missing-count",
            ),
            pytest.param(
                _text(tail="\n[dice_passing]\nafter_losses = 2\nlosses = 'sevens'\n"),
                ["dice_passing.losses = 'sevens': expected one of 'any', 'after-chance'"],
                id="passing-unknown-losses",
            ),
            pytest.param(
                _text(MINIMAL.replace('name = "My rules"', 'name = "My rules"\npaytable = "generous"')),
                [
                    "paytable = 'generous'",
                    "unknown paytable 'generous': expected one of even, true-odds, wikipedia",
                ],
                id="unknown-paytable",
            ),
            pytest.param(
                _text(
                    MINIMAL.replace('name = "My rules"', 'name = "My rules"\npaytable = "wikipedia"').replace(
                        "mains = [6, 7]", "mains = [4, 6, 7]"
                    ),
                    ROW4,
                    ROW6,
                    ROW7,
                ),
                ["paytable = 'wikipedia'", "has no odds for a chance of 5 on a main of 4"],
                id="paytable-missing-a-cell",
            ),
        ],
    )
    def test_bad_file(self, tmp_path: Path, text: str, fragments: list[str]) -> None:
        message = _ruleset_error(tmp_path, text)
        for fragment in fragments:
            assert fragment in message, message

    def test_missing_file(self, tmp_path: Path) -> None:
        path = tmp_path / "absent.toml"
        with pytest.raises(InvalidError) as info:
            load_ruleset(path)
        assert str(info.value) == f"no ruleset file at {str(path)!r}"
        with pytest.raises(InvalidError, match="no ruleset file at"):
            find_ruleset(str(path), paths=True)

    def test_not_utf8(self, tmp_path: Path) -> None:
        path = tmp_path / "latin1.toml"
        path.write_bytes(b'name = "caf\xe9"\n')
        with pytest.raises(InvalidError) as info:
            load_ruleset(path)
        assert f"cannot read ruleset file {str(path)!r}" in str(info.value)

    def test_a_directory(self, tmp_path: Path) -> None:
        with pytest.raises(InvalidError, match="cannot read ruleset file"):
            load_ruleset(tmp_path)

    @settings(max_examples=75, deadline=None)
    @given(rulesets())
    def test_round_trip(self, ruleset: Ruleset) -> None:
        text = to_toml(ruleset)
        with tempfile.TemporaryDirectory() as folder:
            path = Path(folder) / "random.toml"
            path.write_text(text, encoding="utf-8")
            loaded = load_ruleset(path)
        assert loaded == ruleset
        assert loaded.aliases == ruleset.aliases
        assert loaded.rows == ruleset.rows
        assert ruleset_from_toml(text, "again") == ruleset


# --- A user's paytable file ---

PAYTABLE = """\
id = "mine"
name = "My odds"
nick = "1/1"
chance = "3/2"
"""
TABLE_PAYTABLE = """\
id = "mine"
name = "My odds"
nick = "1/1"
chance = "table"

[odds.7]
4 = "2/1"
7 = "-"
10 = 2
"""


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


def test_stake_arrangements_of_the_builtins() -> None:
    expected = {
        "britannica-1911": StakeArrangement.SETTER_SUM,
        "wikipedia": StakeArrangement.BANK,
        "ecws-1674": StakeArrangement.SETTER_SUM,
        "cotton-1674": StakeArrangement.SETTER_SUM,
        "sca-isenfir": StakeArrangement.ALL_AGAINST_CASTER,
        "craps": StakeArrangement.BANK,
    }
    assert {ruleset.id: ruleset.stakes for ruleset in builtin_rulesets()} == expected


def _craps_file(extra: str = "", opening_key: str = "7") -> str:
    return (
        f'id = "mine"\nname = "Mine"\n{extra}[source]\ncitation = "house"\n'
        '[main]\nmethod = "fixed"\nmains = [7]\n[opening]\nchances = [4, 5, 6, 8, 9, 10]\n'
        f"[opening.{opening_key}]\nnicks = [7, 11]\nouts = [2, 3, 12]\n"
    )


def test_an_unknown_stake_arrangement_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "r.toml"
    path.write_text(_craps_file('stakes = "house"\n'), encoding="utf-8")
    with pytest.raises(InvalidError, match="stakes = 'house': expected one of 'bank', 'setter-sum'"):
        load_ruleset(path)


def test_a_padded_main_key_is_refused_as_such(tmp_path: Path) -> None:
    path = tmp_path / "r.toml"
    path.write_text(_craps_file(opening_key="07"), encoding="utf-8")
    with pytest.raises(InvalidError, match=r"opening\.07: expected a main from 2 to 12"):
        load_ruleset(path)


def test_a_paytable_path_is_relative_to_the_ruleset_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = tmp_path / "club"
    folder.mkdir()
    (folder / "odds.toml").write_text(
        'id = "odds"\nname = "Odds"\nnick = "1"\nchance = "3/2"\n', encoding="utf-8"
    )
    (folder / "rules.toml").write_text(_craps_file('paytable = "odds.toml"\n'), encoding="utf-8")
    monkeypatch.chdir(tmp_path)  # not the ruleset's folder
    ruleset = load_ruleset(folder / "rules.toml")
    paytable = paytable_for(ruleset)
    assert paytable is not None
    assert paytable.chance_odds(7, 4) == Fraction(3, 2)


# --- A ruleset carries its paytable file's content ---


def _club(tmp_path: Path, odds: str = "3/2") -> Path:
    """A ruleset file naming a paytable file beside it, as a club would keep them."""
    folder = tmp_path / "club"
    folder.mkdir(exist_ok=True)
    (folder / "odds.toml").write_text(
        f'id = "odds"\nname = "Odds"\nnotes = ["a club\'s own"]\nnick = "1"\nchance = "{odds}"\n',
        encoding="utf-8",
    )
    path = folder / "rules.toml"
    path.write_text(_craps_file('paytable = "odds.toml"\n'), encoding="utf-8")
    return path


class TestSelfContainedRuleset:
    def test_a_paytable_file_is_read_once_and_carried_by_value(self, tmp_path: Path) -> None:
        ruleset = load_ruleset(_club(tmp_path))
        assert isinstance(ruleset.paytable, Paytable)
        assert ruleset.paytable == Paytable("odds", "Odds", flat=Fraction(3, 2), notes=("a club's own",))
        (tmp_path / "club" / "odds.toml").unlink()  # gone, or changed: the ruleset does not look again
        paytable = paytable_for(ruleset)
        assert paytable is not None
        assert paytable.chance_odds(7, 4) == Fraction(3, 2)

    def test_the_written_ruleset_holds_the_paytable_and_reads_back_without_the_file(
        self, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        ruleset = load_ruleset(_club(tmp_path))
        text = ruleset_to_toml(ruleset)
        assert "\n[paytable]\n" in text
        assert "odds.toml" not in text
        (tmp_path / "club" / "odds.toml").write_text("garbage", encoding="utf-8")
        monkeypatch.chdir(tmp_path)
        assert ruleset_from_toml(text, "of game 1") == ruleset
        assert ruleset_from_toml(text, "again", folder=tmp_path / "elsewhere") == ruleset

    def test_a_builtin_paytable_stays_named_by_id(self) -> None:
        ruleset = find_ruleset("wikipedia")
        assert ruleset.paytable == "wikipedia"
        text = ruleset_to_toml(ruleset)
        assert 'paytable = "wikipedia"' in text
        assert "[paytable]" not in text

    @pytest.mark.parametrize("paytable", builtin_paytables(), ids=lambda p: p.id)
    def test_every_paytable_round_trips_inside_a_ruleset(self, paytable: Paytable) -> None:
        ruleset = replace(find_ruleset("wikipedia"), paytable=paytable)
        text = ruleset_to_toml(ruleset)
        assert "[paytable.odds.7]" in text or not paytable.table
        read = ruleset_from_toml(text, "copy")
        assert read == ruleset
        assert read.paytable == paytable
        assert paytable_for(read) == paytable

    def test_an_inline_paytable_is_checked_as_a_paytable_file(self) -> None:
        text = _craps_file() + '[paytable]\nid = "p"\nname = "P"\nnick = "1e400"\nchance = "1/1"\n'
        with pytest.raises(InvalidError) as info:
            ruleset_from_toml(text, "'r.toml'")
        assert str(info.value) == (
            "invalid ruleset 'r.toml': paytable.nick = '1e400': expected odds such as \"3/2\" or \"1/1\", "
            "without an exponent"
        )
        for extra, fragment in [
            ("", "missing paytable.nick: expected odds"),
            ('nick = "1"\ncolour = "red"\n', "unknown key 'paytable.colour'"),
            (
                'nick = "1"\n[paytable.odds.7]\n4 = "2"\n',
                "an [paytable.odds] table is given but paytable.chance",
            ),
        ]:
            text = _craps_file() + f'[paytable]\nid = "p"\nname = "P"\nchance = "1/1"\n{extra}'
            with pytest.raises(InvalidError, match=re.escape(fragment)):
                ruleset_from_toml(text, "'r.toml'")

    def test_an_inline_paytable_must_cover_every_chance(self) -> None:
        text = (
            _craps_file()
            + '[paytable]\nid = "p"\nname = "P"\nnick = "1"\nchance = "table"\n[paytable.odds.7]\n4 = "2"\n'
        )
        with pytest.raises(InvalidError, match=r"'r.toml': \[paytable\]: paytable 'p' has no odds"):
            ruleset_from_toml(text, "'r.toml'")

    def test_paytable_must_be_an_id_a_path_or_a_table(self) -> None:
        with pytest.raises(InvalidError, match="paytable = 3: expected a built-in paytable's id, the path"):
            ruleset_from_toml(_craps_file("paytable = 3\n"), "'r.toml'")


# --- Files and values no loader should choke on ---

_LIMIT = 2.0  # seconds: generous; every refusal below takes milliseconds


def _refused_quickly(text: str, *fragments: str, paytable: bool = False) -> str:
    read: Callable[[str, str], object] = paytable_from_toml if paytable else ruleset_from_toml
    started = time.perf_counter()
    with pytest.raises(InvalidError) as info:
        read(text, "'p.toml'" if paytable else "'r.toml'")
    assert time.perf_counter() - started < _LIMIT
    message = str(info.value)
    for fragment in fragments:
        assert fragment in message, message
    assert len(message) < 400, message
    return message


class TestHostileFiles:
    @pytest.mark.parametrize(
        ("nick", "fragment"),
        [
            ('"1e400"', 'nick = \'1e400\': expected odds such as "3/2" or "1/1", without an exponent'),
            ('"1e1000000000"', "nick = '1e1000000000': expected odds such as"),  # Fraction() hangs on it
            ('"²"', 'nick = \'²\': expected odds such as "3/2" or "1/1" in ASCII digits (0-9)'),
            ('"٣/٢"', "in ASCII digits (0-9)"),
            ('"1/0"', "with a denominator of 1 or more"),
            ("10000000000000", 'nick = 10000000000000: expected odds such as "3/2" or "1/1", at most 10^12'),
            ('"10000000000000"', "at most 10^12 in size"),
            ('"1/10000000000"', "with a denominator of at most 10^9"),
            ("1" + "0" * 4000, "nick = <an integer of about 4,001 digits>: expected odds"),
            ("1" + "0" * 5000, "an integer too long to read: expected numbers of a few digits"),
            ('"' + "9" * 100_000 + '"', "(100,000 characters): expected odds such as"),
        ],
    )
    def test_paytable_odds(self, nick: str, fragment: str) -> None:
        _refused_quickly(PAYTABLE.replace('nick = "1/1"', f"nick = {nick}"), fragment, paytable=True)

    def test_odds_in_a_table_are_bounded_too(self) -> None:
        _refused_quickly(
            TABLE_PAYTABLE.replace('4 = "2/1"', '4 = "1e400"'), "odds.7.4 = '1e400': expected", paytable=True
        )

    @pytest.mark.parametrize(
        "value",
        [
            pytest.param("[" * 1000 + "]" * 1000, id="arrays"),
            pytest.param("{a = " * 1000 + "1" + "}" * 1000, id="inline-tables"),
            pytest.param("[" * 100_000 + "]" * 100_000, id="arrays-in-a-large-file"),
        ],
    )
    def test_nesting_too_deep(self, value: str) -> None:
        _refused_quickly(f"x = {value}\n" + _craps_file(), "nested too deeply to read")
        _refused_quickly(PAYTABLE + f"x = {value}\n", "nested too deeply to read", paytable=True)

    @pytest.mark.parametrize(
        "line",
        [
            pytest.param(".".join(["a"] * 100_000) + " = 1", id="dotted-key"),  # took gigabytes in tomllib
            pytest.param("[" + ".".join(["a"] * 100_000) + "]", id="dotted-table"),  # took seconds
            pytest.param("x = {" + " . ".join(["a"] * 17) + " = 1}", id="dotted-key-in-an-inline-table"),
            pytest.param('"a".' * 16 + '"b" = 1', id="quoted-parts"),
        ],
    )
    def test_keys_of_too_many_parts(self, line: str) -> None:
        _refused_quickly(line + "\n" + _craps_file(), "a key of more than 16 dotted parts (")

    def test_dots_in_strings_and_comments_are_no_keys(self) -> None:
        dots = ".".join(["a"] * 100)
        text = _craps_file(f'notes = ["{dots}", \'{dots}\', """{dots}\\"""", \'\'\'{dots}\'\'\']  # {dots}\n')
        assert ruleset_from_toml(text, "'r.toml'").notes == (dots, dots, dots + '"', dots)
        dotted = _craps_file("main.method = 'fixed'\nmain.mains = [7]\n").replace(
            '[main]\nmethod = "fixed"\nmains = [7]\n', ""
        )
        assert ruleset_from_toml(dotted, "'r.toml'").mains == (7,)  # dotted keys as such are fine

    def test_a_text_is_bounded_as_a_file_is(self) -> None:
        _refused_quickly(_craps_file() + "#" * (1 << 20), "characters: expected at most 1,048,576")

    def test_nesting_that_reads_is_refused_as_an_unknown_key_quoted_short(self) -> None:
        _refused_quickly(_craps_file(f"x = {'[' * 200}{']' * 200}\n"), "unknown key 'x': expected one of")
        message = _refused_quickly(_craps_file(f"name2 = {'[' * 50}1{']' * 50}\n"))
        assert "[[[" not in message or len(message) < 300

    @pytest.mark.parametrize(
        ("after", "fragment"),
        [
            (str(2**63), f"dice_passing.after_losses = {2**63}: expected 0 to 100"),
            (str(-(2**63) - 1), "expected 0 to 100"),
            (str(2**64), "expected 0 to 100"),
            (
                "1" + "0" * 1000,
                "dice_passing.after_losses = <an integer of about 1,001 digits>: expected 0 to 100",
            ),
            ("1" + "0" * 4400, "an integer too long to read"),
            ("1.5", "expected a whole number of losses"),
            ("inf", "expected a whole number of losses"),
        ],
    )
    def test_huge_integers(self, after: str, fragment: str) -> None:
        text = _craps_file() + f"[dice_passing]\nafter_losses = {after}\n"
        _refused_quickly(text, fragment)

    @pytest.mark.parametrize(
        ("replace_what", "by", "fragment"),
        [
            ("mains = [7]", f"mains = [{10**300}]", "main.mains has <an integer of about 301 digits>"),
            ("mains = [7]", "mains = [" + ", ".join(["7"] * 100_000) + "]", "a total is listed twice"),
            ("[opening.7]", '[opening."٧"]', "opening.٧: expected a main from 2 to 12"),
            ("[opening.7]", f"[opening.{'7' * 5000}]", "(5,008 characters): expected a main from 2 to 12"),
            (
                'name = "Mine"',
                f'name = "Mine"\n"{"k" * 100_000}" = 1',
                "(100,000 characters): expected one of",
            ),
            ('id = "mine"', f'id = "{"x" * 100_000}!"', "(100,001 characters): expected lower-case"),
            (
                'name = "Mine"',
                'name = "Mine"\nstakes = "' + "b" * 100_000 + '"',
                "characters): expected one of",
            ),
            ('id = "mine"', 'id = "mine"\nid = "again"', "not valid TOML"),
        ],
    )
    def test_long_and_odd_values_are_quoted_short(self, replace_what: str, by: str, fragment: str) -> None:
        _refused_quickly(_craps_file().replace(replace_what, by), fragment)

    def test_odd_keys_in_an_odds_table(self) -> None:
        _refused_quickly(
            TABLE_PAYTABLE.replace("[odds.7]", f"[odds.{'7' * 5000}]"),
            "(5,005 characters): expected a main from 2 to 12",
            paytable=True,
        )
        _refused_quickly(
            TABLE_PAYTABLE.replace('4 = "2/1"', '"٤" = "2/1"'), "odds.7.٤: expected a chance", paytable=True
        )

    @pytest.mark.skipif(not Path("/dev/zero").exists(), reason="no /dev/zero here")
    @pytest.mark.parametrize("device", ["/dev/zero", "/dev/urandom"])
    def test_a_device_is_refused_at_once(self, device: str) -> None:
        started = time.perf_counter()
        with pytest.raises(InvalidError, match=f"cannot read ruleset file '{device}': it is a device"):
            find_ruleset(device, paths=True)
        with pytest.raises(InvalidError, match=f"cannot read paytable file '{device}': it is a device"):
            find_paytable(device, paths=True)
        with pytest.raises(InvalidError, match=f"paytable = '{device}': cannot read paytable file"):
            ruleset_from_toml(_craps_file(f'paytable = "{device}"\n'), "'r.toml'", paths=True)
        assert time.perf_counter() - started < _LIMIT

    def test_a_file_too_large(self, tmp_path: Path) -> None:
        path = _write(tmp_path, _craps_file() + "#" * (1 << 20))
        with pytest.raises(InvalidError, match="it is larger than 1 MiB"):
            load_ruleset(path)

    def test_without_paths_no_file_is_opened(self, tmp_path: Path) -> None:
        # What the web calls: a path names no file, whatever is there; refused as any unknown name is.
        secret = tmp_path / "secret.toml"
        secret.write_text("nick = 'SECRET'\n", encoding="utf-8")
        for name in (str(secret), str(tmp_path / "absent.toml"), str(tmp_path), "/dev/zero", "../x.toml"):
            for find, what in ((find_ruleset, "ruleset"), (find_paytable, "paytable")):
                with pytest.raises(InvalidError) as info:
                    find(name)
                assert str(info.value).startswith(f"unknown {what} {name!r}: expected a built-in {what} id: ")
            with pytest.raises(InvalidError) as info:
                ruleset_from_toml(_craps_file(f"paytable = {name!r}\n"), "'upload'")
            assert f"paytable = {name!r}: unknown paytable {name!r}: expected a built-in" in str(info.value)
            assert "SECRET" not in str(info.value)

    def test_an_unknown_name_is_quoted_short(self) -> None:
        with pytest.raises(InvalidError, match=r"unknown ruleset 'xxxx.*\(100,000 characters\): expected"):
            find_ruleset("x" * 100_000)
        with pytest.raises(InvalidError, match=r"cannot read ruleset file 'xxxx.*characters\)"):
            find_ruleset("x" * 100_000 + ".toml", paths=True)


# --- Fuzzing: mutated built-in files load, or are refused with one InvalidError, quickly ---


# Values a mutation inserts: what Python's readers choke on (exponents, huge or non-ASCII numbers, deep
# nesting), what TOML forbids (duplicate keys and tables), and what only a careless writer produces.
@settings(derandomize=True, database=None, max_examples=400, deadline=None)
@given(mutated_toml(BUILTIN_RULESET_TEXTS))
def test_fuzz_mutated_builtin_rulesets_load_or_are_refused(text: str) -> None:
    check_ruleset_text(text)


@settings(derandomize=True, database=None, max_examples=100, deadline=None)
@given(mutated_toml(BUILTIN_PAYTABLE_TEXTS))
def test_fuzz_mutated_paytables_inside_a_ruleset_load_or_are_refused(text: str) -> None:
    # A paytable file's text as a ruleset's [paytable] table: the same checks, under another prefix.
    table = "\n".join(f"[paytable.{line[1:]}" if line.startswith("[") else line for line in text.split("\n"))
    check_ruleset_text(_craps_file() + "[paytable]\n" + table)
