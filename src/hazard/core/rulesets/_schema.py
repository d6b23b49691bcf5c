"""The TOML schema of ruleset and paytable files: reads a file's text into a value, or says what is wrong.

Every problem is one :class:`~hazard.core.errors.InvalidError` that names the file, the place in it and what
was expected. This module reads text only: finding files, and looking up the paytable a ruleset names, is
the registry's (:mod:`hazard.core.rulesets._registry`).
"""

from __future__ import annotations

import enum
import tomllib
from collections.abc import Callable
from fractions import Fraction
from pathlib import Path
from types import UnionType
from typing import Any, TypeVar

from hazard.core.dice import TOTALS
from hazard.core.errors import InvalidError
from hazard.core.paytable import ChanceOdds, Paytable
from hazard.core.rules import (
    MAX_AFTER_LOSSES,
    DicePassing,
    LossCount,
    MainMethod,
    MainRow,
    Ruleset,
    Source,
    StakeArrangement,
)

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


def _is_path(name: str) -> bool:
    """Whether a ruleset or paytable ``name`` is a file's path rather than a built-in's id."""
    return name.endswith(".toml") or "/" in name or "\\" in name


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


def _paytable_name(top: _Table, folder: Path | None) -> str | None:
    """The ruleset's default paytable: an id, or a path made relative to ``folder`` if one is given."""
    paytable = top.text("paytable", required=False)
    if (
        paytable is not None
        and folder is not None
        and _is_path(paytable)
        and not Path(paytable).is_absolute()
    ):
        return str(folder / paytable)
    return paytable


def _main(top: _Table) -> tuple[MainMethod, frozenset[int]]:
    """The ``[main]`` table: how the main is chosen, and the mains allowed."""
    main = top.table("main")
    assert main is not None
    method = main.choice("method", MainMethod)
    mains = main.totals("mains")
    assert mains is not None
    if not mains:
        raise top.fail("main.mains is empty: expected at least one main")
    main.done()
    return method, mains


def _opening(top: _Table, mains: frozenset[int]) -> tuple[MainRow, ...]:
    """The ``[opening]`` table: one row ``[opening.N]`` for each main, with shared default chances."""
    fail = top.fail
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
    return tuple(rows)


def _passing(top: _Table) -> DicePassing:
    """The optional ``[dice_passing]`` table; without it the dice never pass on losses."""
    passing_table = top.table("dice_passing", required=False)
    if passing_table is None:
        return DicePassing()
    after = passing_table.get("after_losses", int, "a whole number of losses, 0 for never")
    losses = passing_table.choice("losses", LossCount, LossCount.ANY)
    if not 0 <= after <= MAX_AFTER_LOSSES:
        raise top.fail(f"dice_passing.after_losses = {after}: expected 0 to {MAX_AFTER_LOSSES}")
    passing_table.done()
    return DicePassing(after, losses)


def _read_ruleset(
    text: str, origin: str, *, folder: Path | None, paytables: Callable[[str], Paytable]
) -> Ruleset:
    """Validate TOML ``text`` as a ruleset; ``origin`` names it in errors, and a paytable named by a relative
    path is looked for in ``folder``.

    A named default paytable is looked up with ``paytables`` (the registry's ``find_paytable``, given by the
    caller so that this reader need not know where paytables live) and must cover every chance.
    """
    top = _document(text, f"ruleset {origin}")
    ident = _identifier(top)
    name = top.text("name")
    aliases = top.texts("aliases")
    notes = top.texts("notes")
    paytable = _paytable_name(top, folder)
    stakes = top.choice("stakes", StakeArrangement, StakeArrangement.SETTER_SUM)
    source = _source(top)
    method, mains = _main(top)
    rows = _opening(top, mains)
    passing = _passing(top)
    top.done()

    assert name is not None
    try:
        ruleset = Ruleset(
            id=ident,
            name=name,
            source=source,
            method=method,
            rows=rows,
            passing=passing,
            paytable=paytable,
            stakes=stakes,
            notes=notes,
            aliases=aliases,
        )
    except InvalidError as error:
        raise top.fail(str(error).removeprefix("invalid ")) from None
    if paytable is not None:
        try:
            paytables(paytable).check(ruleset)  # a named default must exist and cover every chance
        except InvalidError as error:
            raise top.fail(f"paytable = {paytable!r}: {error}") from None
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


def _odds_table(odds_table: _Table) -> dict[tuple[int, int], Fraction]:
    """The ``[odds]`` table: ``[odds.MAIN]`` rows of ``CHANCE = "odds"``, a dash for the impossible cell."""
    fail = odds_table.fail
    table: dict[tuple[int, int], Fraction] = {}
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
    if not table:
        raise fail('chance = "table" but the [odds] table gives no odds at all')
    return table


def paytable_from_toml(text: str, origin: str) -> Paytable:
    """Validate TOML ``text`` as a paytable; ``origin`` names it in errors."""

    top = _document(text, f"paytable {origin}")
    fail = top.fail
    ident = _identifier(top)
    name = top.text("name")
    notes = top.texts("notes")
    source = _source(top) if "source" in top.data else None
    top.read.add("source")
    nick = _odds(top.get("nick", str | int, 'odds such as "1/1"'), "nick", fail)
    chance = top.get("chance", str | int, f'odds such as "1/1", "{ChanceOdds.TRUE}" or "{ChanceOdds.TABLE}"')
    odds_table = top.table("odds", required=False)
    flat: Fraction | None = None
    table: dict[tuple[int, int], Fraction] = {}
    if chance == ChanceOdds.TABLE:
        if odds_table is None:
            raise fail('chance = "table" but there is no [odds] table')
        table = _odds_table(odds_table)
    elif chance != ChanceOdds.TRUE:
        flat = _odds(chance, "chance", fail)
    if odds_table is not None and chance != ChanceOdds.TABLE:
        raise fail('an [odds] table is given but chance is not "table"')
    top.done()
    assert name is not None
    return Paytable(
        id=ident,
        name=name,
        nick=nick,
        flat=flat,
        true_odds=chance == ChanceOdds.TRUE,
        table=table,
        source=source,
        notes=notes,
    )
