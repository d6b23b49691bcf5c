"""The built-in rulesets and paytables, and the loader that reads them and a user's own files.

Built-in rulesets are TOML files beside this module; a user's file goes through the same validator, so a
mistake in either is reported the same way: one :class:`~hazard.core.errors.InvalidError` naming the file,
the place in it and what was expected.

>>> find_ruleset("wiki").id
'wikipedia'
>>> [ruleset.id for ruleset in builtin_rulesets()][:2]
['britannica-1911', 'wikipedia']
"""

from __future__ import annotations

import enum
import tomllib
from collections.abc import Callable, Iterable
from fractions import Fraction
from functools import cache
from importlib import resources
from pathlib import Path
from types import UnionType
from typing import Any, TypeVar

from hazard.core.dice import TOTALS
from hazard.core.errors import InvalidError
from hazard.core.numbers import fraction_text
from hazard.core.paytable import ChanceOdds, Paytable
from hazard.core.rules import DicePassing, LossCount, MainMethod, MainRow, Ruleset, Source, StakeArrangement

__all__ = [
    "DEFAULT_RULESET",
    "builtin_paytables",
    "builtin_rulesets",
    "find_paytable",
    "find_ruleset",
    "load_paytable",
    "load_ruleset",
    "paytable_for",
    "paytable_from_toml",
    "paytable_to_toml",
    "ruleset_from_toml",
    "ruleset_to_toml",
]

DEFAULT_RULESET = "wikipedia"
"""The ruleset used when none is named: the source with a full paytable and a dice-passing rule."""

# Built-in files are listed here, in the order people see them, rather than discovered, so that a stray
# file in the package cannot become a ruleset.
_BUILTIN_RULESETS = ("britannica-1911", "wikipedia", "ecws-1674", "cotton-1674", "sca-isenfir", "craps")
_BUILTIN_PAYTABLES = ("even", "true-odds", "wikipedia")

_Choice = TypeVar("_Choice", bound=enum.Enum)


class _Table:
    """A TOML table being validated: reads keys with types, and refuses keys nobody read."""

    def __init__(self, data: dict[str, Any], where: str, fail: Callable[[str], InvalidError]) -> None:
        self.data = data
        self.where = where
        self.fail = fail
        self.read: set[str] = set()

    def _at(self, key: str) -> str:
        return f"{self.where}.{key}" if self.where else key

    def get(self, key: str, kind: type | UnionType, expected: str, *, required: bool = True) -> Any:
        self.read.add(key)
        if key not in self.data:
            if required:
                raise self.fail(f"missing {self._at(key)}: expected {expected}")
            return None
        value = self.data[key]
        if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
            raise self.fail(f"{self._at(key)} = {value!r}: expected {expected}")
        return value

    def text(self, key: str, *, required: bool = True) -> str | None:
        value: str | None = self.get(key, str, "a string", required=required)
        if value is not None and not value.strip():
            raise self.fail(f"{self._at(key)} is empty: expected some text")
        return value

    def choice(self, key: str, kind: type[_Choice], default: _Choice | None = None) -> _Choice:
        """The member of ``kind`` whose value is the text at ``key``: ``default`` where the key is absent,
        which is then optional."""
        text = self.text(key, required=default is None)
        if text is None:
            assert default is not None
            return default
        try:
            return kind(text)
        except ValueError:
            choices = ", ".join(repr(member.value) for member in kind)
            raise self.fail(f"{self._at(key)} = {text!r}: expected one of {choices}") from None

    def texts(self, key: str) -> tuple[str, ...]:
        value = self.get(key, list, "a list of strings", required=False) or []
        if not all(isinstance(item, str) for item in value):
            raise self.fail(f"{self._at(key)} = {value!r}: expected a list of strings")
        return tuple(value)

    def table(self, key: str, *, required: bool = True) -> _Table | None:
        value = self.get(key, dict, "a table", required=required)
        return None if value is None else _Table(value, self._at(key), self.fail)

    def totals(self, key: str, *, required: bool = True) -> frozenset[int] | None:
        value = self.get(key, list, "a list of totals from 2 to 12", required=required)
        if value is None:
            return None
        for item in value:
            if not isinstance(item, int) or isinstance(item, bool) or item not in TOTALS:
                raise self.fail(f"{self._at(key)} has {item!r}: expected totals from 2 to 12")
        if len(set(value)) != len(value):
            raise self.fail(f"{self._at(key)} = {value!r}: a total is listed twice")
        return frozenset(value)

    def done(self, allowed_extra: Callable[[str], bool] = lambda key: False) -> None:
        unknown = sorted(key for key in self.data if key not in self.read and not allowed_extra(key))
        if unknown:
            known = ", ".join(sorted(self.read))
            raise self.fail(f"unknown key {self._at(unknown[0])!r}: expected one of {known}")


def _document(text: str, what: str) -> _Table:
    """Parse a TOML file's ``text``; errors read ``invalid {what}: ...``."""

    def fail(problem: str) -> InvalidError:
        return InvalidError(f"invalid {what}: {problem}")

    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise fail(f"not valid TOML ({error})") from None
    return _Table(data, "", fail)


def _source(table: _Table) -> Source:
    source = table.table("source")
    assert source is not None
    result = Source(
        citation=source.text("citation") or "",
        file=source.text("file", required=False),
        url=source.text("url", required=False),
    )
    source.done()
    return result


def _total_key(key: str) -> int | None:
    """A table key naming a total: ``"7"`` (never ``"07"`` or a non-ASCII digit), or None."""
    if key.isascii() and key.isdigit() and str(int(key)) == key and int(key) in TOTALS:
        return int(key)
    return None


def _identifier(table: _Table) -> str:
    ident = table.text("id")
    assert ident is not None
    if not (ident.isascii() and ident.replace("-", "").isalnum()) or ident != ident.lower():
        raise table.fail(f"id = {ident!r}: expected lower-case letters, digits and dashes")
    return ident


def ruleset_from_toml(text: str, origin: str, *, folder: Path | None = None) -> Ruleset:
    """Validate TOML ``text`` as a ruleset; ``origin`` names it in errors (a path, or ``built-in ID``).

    A paytable named by a relative path is looked for in ``folder``, the ruleset file's own folder.
    """

    top = _document(text, f"ruleset {origin}")
    fail = top.fail
    ident = _identifier(top)
    name = top.text("name")
    aliases = top.texts("aliases")
    notes = top.texts("notes")
    paytable = top.text("paytable", required=False)
    if (
        paytable is not None
        and folder is not None
        and _is_path(paytable)
        and not Path(paytable).is_absolute()
    ):
        paytable = str(folder / paytable)
    stakes = top.choice("stakes", StakeArrangement, StakeArrangement.SETTER_SUM)
    source = _source(top)

    main = top.table("main")
    assert main is not None
    method = main.choice("method", MainMethod)
    mains = main.totals("mains")
    assert mains is not None
    if not mains:
        raise fail("main.mains is empty: expected at least one main")
    main.done()

    opening = top.table("opening")
    assert opening is not None
    default_chances = opening.totals("chances", required=False)
    row_keys = {key for key in opening.data if key != "chances"}
    for key in sorted(row_keys):
        if _total_key(key) is None:
            raise fail(f"opening.{key}: expected a main from 2 to 12 (a table such as [opening.7])")
    rows = []
    for total in sorted(mains):
        if str(total) not in row_keys:
            raise fail(f"main {total} has no row: expected a table [opening.{total}] with its nicks and outs")
        row_table = opening.table(str(total))
        assert row_table is not None
        nicks = row_table.totals("nicks", required=False) or frozenset()
        outs = row_table.totals("outs", required=False) or frozenset()
        chances = row_table.totals("chances", required=False)
        if chances is None:
            if default_chances is None:
                raise fail(f"opening.{total} has no chances and opening.chances is not given")
            chances = default_chances
        row_table.done()
        # The chance numbers are those left once the main's nicks and outs are taken: a throw that nicks or
        # throws out never becomes the chance, as every source words it.
        effective = chances - nicks - outs
        try:
            rows.append(MainRow(total, nicks=nicks, outs=outs, chances=effective))
        except InvalidError as error:
            raise fail(str(error).removeprefix("invalid ")) from None
    extra = sorted(int(key) for key in row_keys if int(key) not in mains)
    if extra:
        raise fail(f"opening.{extra[0]} is a row for {extra[0]}, which is not in main.mains")
    opening.done(lambda key: key in row_keys)

    passing = DicePassing()
    passing_table = top.table("dice_passing", required=False)
    if passing_table is not None:
        after = passing_table.get("after_losses", int, "a whole number of losses, 0 for never")
        losses = passing_table.choice("losses", LossCount, LossCount.ANY)
        if after < 0:
            raise fail(f"dice_passing.after_losses = {after}: expected 0 or more")
        passing = DicePassing(after, losses)
        passing_table.done()
    top.done()

    assert name is not None
    try:
        ruleset = Ruleset(
            id=ident,
            name=name,
            source=source,
            method=method,
            rows=tuple(rows),
            passing=passing,
            paytable=paytable,
            stakes=stakes,
            notes=notes,
            aliases=aliases,
        )
    except InvalidError as error:
        raise fail(str(error).removeprefix("invalid ")) from None
    if paytable is not None:
        try:
            find_paytable(paytable).check(ruleset)  # a named default must exist and cover every chance
        except InvalidError as error:
            raise fail(f"paytable = {paytable!r}: {error}") from None
    return ruleset


def _odds(value: object, where: str, fail: Callable[[str], InvalidError]) -> Fraction:
    """Odds written ``"3/2"``, ``"2"`` or as a number."""
    if isinstance(value, bool) or not isinstance(value, str | int):
        raise fail(f'{where} = {value!r}: expected odds such as "3/2" or "1/1"')
    try:
        odds = Fraction(value)
    except (ValueError, ZeroDivisionError):
        raise fail(f'{where} = {value!r}: expected odds such as "3/2" or "1/1"') from None
    if odds <= 0:
        raise fail(f"{where} = {value!r}: expected odds above 0")
    return odds


def paytable_from_toml(text: str, origin: str) -> Paytable:
    """Validate TOML ``text`` as a paytable; ``origin`` names it in errors."""

    top = _document(text, f"paytable {origin}")
    fail = top.fail
    data = top.data
    ident = _identifier(top)
    name = top.text("name")
    notes = top.texts("notes")
    source = _source(top) if "source" in data else None
    top.read.add("source")
    nick = _odds(top.get("nick", str | int, 'odds such as "1/1"'), "nick", fail)
    chance = top.get("chance", str | int, f'odds such as "1/1", "{ChanceOdds.TRUE}" or "{ChanceOdds.TABLE}"')
    flat: Fraction | None = None
    true_odds = False
    table: dict[tuple[int, int], Fraction] = {}
    odds_table = top.table("odds", required=False)
    if chance == ChanceOdds.TRUE:
        true_odds = True
    elif chance == ChanceOdds.TABLE:
        if odds_table is None:
            raise fail('chance = "table" but there is no [odds] table')
        for main_key in sorted(odds_table.data):
            if _total_key(main_key) is None:
                raise fail(f"odds.{main_key}: expected a main from 2 to 12")
            row = odds_table.table(main_key)
            assert row is not None
            for chance_key, value in sorted(row.data.items()):
                row.read.add(chance_key)
                if _total_key(chance_key) is None:
                    raise fail(f"odds.{main_key}.{chance_key}: expected a chance from 2 to 12")
                if value == "-":  # printed tables mark the impossible cell (chance = main) with a dash
                    continue
                table[(int(main_key), int(chance_key))] = _odds(value, f"odds.{main_key}.{chance_key}", fail)
        odds_table.done(lambda key: True)
    else:
        flat = _odds(chance, "chance", fail)
    if chance == ChanceOdds.TABLE and not table:
        raise fail('chance = "table" but the [odds] table gives no odds at all')
    if odds_table is not None and chance != ChanceOdds.TABLE:
        raise fail('an [odds] table is given but chance is not "table"')
    top.done()
    assert name is not None
    return Paytable(
        id=ident,
        name=name,
        nick=nick,
        flat=flat,
        true_odds=true_odds,
        table=table,
        source=source,
        notes=notes,
    )


def _read(path: Path, what: str) -> str:
    try:
        return path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise InvalidError(f"no {what} file at {str(path)!r}") from None
    except (OSError, UnicodeDecodeError) as error:
        raise InvalidError(f"cannot read {what} file {str(path)!r}: {error}") from None


def load_ruleset(path: str | Path) -> Ruleset:
    """Read and validate a user's ruleset file."""
    path = Path(path)
    return ruleset_from_toml(_read(path, "ruleset"), repr(str(path)), folder=path.parent)


def load_paytable(path: str | Path) -> Paytable:
    """Read and validate a user's paytable file."""
    path = Path(path)
    return paytable_from_toml(_read(path, "paytable"), repr(str(path)))


def _builtin_text(folder: str, ident: str) -> str:
    return (resources.files(__name__) / folder / f"{ident}.toml").read_text(encoding="utf-8")


@cache
def builtin_rulesets() -> tuple[Ruleset, ...]:
    """Every built-in ruleset, in a fixed order."""
    return tuple(
        ruleset_from_toml(_builtin_text("data", ident), f"built-in {ident}") for ident in _BUILTIN_RULESETS
    )


@cache
def builtin_paytables() -> tuple[Paytable, ...]:
    """Every built-in paytable, in a fixed order."""
    return tuple(
        paytable_from_toml(_builtin_text("paytables", ident), f"built-in {ident}")
        for ident in _BUILTIN_PAYTABLES
    )


def _is_path(name: str) -> bool:
    return name.endswith(".toml") or "/" in name or "\\" in name


def find_ruleset(name: str) -> Ruleset:
    """A built-in ruleset by id or alias (any case), or a user's ``.toml`` file by path."""
    if _is_path(name):
        return load_ruleset(name)
    key = name.strip().lower()
    for ruleset in builtin_rulesets():
        if key == ruleset.id or key in ruleset.aliases:
            return ruleset
    ids = ", ".join(ruleset.id for ruleset in builtin_rulesets())
    raise InvalidError(f"unknown ruleset {name!r}: expected one of {ids}, or a path to a .toml file")


def find_paytable(name: str) -> Paytable:
    """A built-in paytable by id, or a user's ``.toml`` file by path."""
    if _is_path(name):
        return load_paytable(name)
    key = name.strip().lower()
    for paytable in builtin_paytables():
        if key == paytable.id:
            return paytable
    ids = ", ".join(paytable.id for paytable in builtin_paytables())
    raise InvalidError(f"unknown paytable {name!r}: expected one of {ids}, or a path to a .toml file")


def paytable_for(ruleset: Ruleset, name: str | None = None) -> Paytable | None:
    """The paytable named, else the ruleset's default (None if it has none), checked against the ruleset."""
    if name is None:
        if ruleset.paytable is None:
            return None
        name = ruleset.paytable
    paytable = find_paytable(name)
    paytable.check(ruleset)
    return paytable


_ESCAPES = {'"': '\\"', "\\": "\\\\", "\b": "\\b", "\t": "\\t", "\n": "\\n", "\f": "\\f", "\r": "\\r"}


def _toml_string(text: str) -> str:
    """A TOML basic string holding exactly ``text``."""
    out = []
    for char in text:
        if char in _ESCAPES:
            out.append(_ESCAPES[char])
        elif ord(char) < 0x20 or ord(char) == 0x7F:
            out.append(f"\\u{ord(char):04X}")
        else:
            out.append(char)
    return '"' + "".join(out) + '"'


def _strings(items: Iterable[str], *, one_per_line: bool = False) -> str:
    quoted = [_toml_string(item) for item in items]
    if one_per_line and quoted:
        return "[\n" + "".join(f"  {item},\n" for item in quoted) + "]"
    return "[" + ", ".join(quoted) + "]"


def _ints(items: Iterable[int]) -> str:
    return "[" + ", ".join(str(item) for item in sorted(items)) + "]"


def ruleset_to_toml(ruleset: Ruleset) -> str:
    """Write ``ruleset`` in the format of ``src/hazard/core/rulesets/data/*.toml``.

    Where several rows share their chances the writer puts them in ``[opening] chances`` and leaves them out
    of the rows, as the built-in files do; empty nick and out lists are left out. Both are what the loader
    fills in, so the text reads back to an equal ruleset.
    """
    lines = [f"id = {_toml_string(ruleset.id)}", f"name = {_toml_string(ruleset.name)}"]
    if ruleset.aliases:
        lines.append(f"aliases = {_strings(ruleset.aliases)}")
    if ruleset.paytable is not None:
        lines.append(f"paytable = {_toml_string(ruleset.paytable)}")
    lines.append(f"stakes = {_toml_string(ruleset.stakes.value)}")
    lines.append(f"notes = {_strings(ruleset.notes, one_per_line=True)}")

    lines += ["", "[source]", f"citation = {_toml_string(ruleset.source.citation)}"]
    if ruleset.source.file is not None:
        lines.append(f"file = {_toml_string(ruleset.source.file)}")
    if ruleset.source.url is not None:
        lines.append(f"url = {_toml_string(ruleset.source.url)}")

    lines += [
        "",
        "[main]",
        f"method = {_toml_string(ruleset.method.value)}",
        f"mains = {_ints(ruleset.mains)}",
    ]

    shared: frozenset[int] = frozenset().union(*(row.chances for row in ruleset.rows))
    inherits = {row.main: shared - row.nicks - row.outs == row.chances for row in ruleset.rows}
    lines += ["", "[opening]"]
    if any(inherits.values()):
        lines.append(f"chances = {_ints(shared)}")
    for row in ruleset.rows:
        lines += ["", f"[opening.{row.main}]"]
        if row.nicks:
            lines.append(f"nicks = {_ints(row.nicks)}")
        if row.outs:
            lines.append(f"outs = {_ints(row.outs)}")
        if not inherits[row.main]:
            lines.append(f"chances = {_ints(row.chances)}")

    lines += [
        "",
        "[dice_passing]",
        f"after_losses = {ruleset.passing.after_losses}",
        f"losses = {_toml_string(ruleset.passing.losses.value)}",
    ]
    return "\n".join(lines) + "\n"


def paytable_to_toml(paytable: Paytable) -> str:
    """Write ``paytable`` in the format of ``src/hazard/core/rulesets/paytables/*.toml``."""
    lines = [f"id = {_toml_string(paytable.id)}", f"name = {_toml_string(paytable.name)}"]
    lines.append(f"notes = {_strings(paytable.notes, one_per_line=True)}")
    lines.append(f"nick = {_toml_string(fraction_text(paytable.nick))}")
    if paytable.flat is not None:
        lines.append(f"chance = {_toml_string(fraction_text(paytable.flat))}")
    elif paytable.true_odds:
        lines.append(f"chance = {_toml_string(ChanceOdds.TRUE)}")
    else:
        lines.append(f"chance = {_toml_string(ChanceOdds.TABLE)}")
    if paytable.source is not None:
        lines += ["", "[source]", f"citation = {_toml_string(paytable.source.citation)}"]
        if paytable.source.file is not None:
            lines.append(f"file = {_toml_string(paytable.source.file)}")
        if paytable.source.url is not None:
            lines.append(f"url = {_toml_string(paytable.source.url)}")
    mains = sorted({main for main, _ in paytable.table})
    for main in mains:
        lines += ["", f"[odds.{main}]"]
        for (row, chance), odds in sorted(paytable.table.items()):
            if row == main:
                lines.append(f"{chance} = {_toml_string(fraction_text(odds))}")
    return "\n".join(lines) + "\n"
