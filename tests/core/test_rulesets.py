"""The built-in rulesets against their sources, cell by cell, and the registry that finds them (a user's
files, the paytables and hostile files are in the ``test_rulesets_*`` files beside).

Each source's outcome table is typed in below as its file prints it, and every main and every total from 2 to
12 is checked against the ruleset built from that source, so a changed TOML file cannot pass unnoticed.
"""

from __future__ import annotations

import re
from importlib import resources
from pathlib import Path

import pytest
from tests.core.rulesets_helpers import MINIMAL, ROW4, ROW6, ROW7, _text
from tests.strategies import to_toml

from hazard.core.dice import TOTALS
from hazard.core.errors import InvalidError
from hazard.core.rules import DicePassing, LossCount, MainMethod, Opening, Ruleset
from hazard.core.rulesets import (
    DEFAULT_RULESET,
    builtin_paytables,
    builtin_rulesets,
    find_paytable,
    find_ruleset,
    load_ruleset,
    paytable_for,
    ruleset_from_toml,
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

    def test_each_builtin_file_is_named_by_its_id(self) -> None:
        # find_ruleset and find_paytable read a file named by the id asked for, and no other
        folder = resources.files("hazard.core.rulesets")
        for ruleset in builtin_rulesets():
            assert (folder / "data" / f"{ruleset.id}.toml").is_file(), ruleset.id
        for paytable in builtin_paytables():
            assert (folder / "paytables" / f"{paytable.id}.toml").is_file(), paytable.id
            assert find_paytable(paytable.id) is paytable
            assert find_paytable(f" {paytable.id.upper()}") is paytable
        files = [entry.name for entry in (folder / "data").iterdir() if entry.name.endswith(".toml")]
        assert sorted(name.removesuffix(".toml") for name in files) == sorted(
            ruleset.id for ruleset in builtin_rulesets()
        )

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
