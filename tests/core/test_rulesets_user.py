"""A user's ruleset file: loaded, or refused with the reason; its stakes and its paytable's path."""

from __future__ import annotations

import tempfile
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import given, settings
from tests.core.rulesets_helpers import MINIMAL, ROW4, ROW6, ROW7, _craps_file, _text, _write
from tests.strategies import rulesets, to_toml

from hazard.core.errors import InvalidError
from hazard.core.rules import DicePassing, Ruleset, StakeArrangement
from hazard.core.rulesets import builtin_rulesets, find_ruleset, load_ruleset, paytable_for, ruleset_from_toml


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
