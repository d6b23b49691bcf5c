"""Ruleset files that carry their paytable's content, and hostile or mutated files that every loader
refuses quickly with one error."""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from dataclasses import replace
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import given, settings
from tests.bounds import within_cpu
from tests.core.rulesets_helpers import PAYTABLE, TABLE_PAYTABLE, _craps_file, _write
from tests.fuzzing import BUILTIN_PAYTABLE_TEXTS, BUILTIN_RULESET_TEXTS, check_ruleset_text, mutated_toml

from hazard.core.errors import InvalidError
from hazard.core.paytable import Paytable
from hazard.core.rulesets import (
    builtin_paytables,
    find_paytable,
    find_ruleset,
    load_ruleset,
    paytable_for,
    paytable_from_toml,
    ruleset_from_toml,
    ruleset_to_toml,
)

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

# Seconds: generous. Every refusal below takes milliseconds, but for the 100,000-value arrays, whose TOML
# parse alone (tomllib's) is about half a second of CPU on a slow machine.
_LIMIT = 2.0


def _refused_quickly(text: str, *fragments: str, paytable: bool = False) -> str:
    read: Callable[[str, str], object] = paytable_from_toml if paytable else ruleset_from_toml
    with within_cpu(_LIMIT, "the refusal"), pytest.raises(InvalidError) as info:
        read(text, "'p.toml'" if paytable else "'r.toml'")
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
        # The wall clock: a read from a device may wait without spending CPU.
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
