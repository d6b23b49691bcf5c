"""The TOML schema of ruleset and paytable files: reads a file's text into a value, or says what is wrong.

Every problem is one :class:`~hazard.core.errors.InvalidError` that names the file, the place in it and what
was expected, whatever the text: what ``tomllib`` cannot read (a list nested a thousand deep, an integer of
5,000 digits) included, and every value is quoted cut short (:func:`~hazard.core.errors.quoted`). Numbers
are read by :mod:`hazard.core.numbers` and bounded there or here, to what a game can mean. This module reads
text only: finding files, and looking up the paytable a ruleset names, is the registry's
(:mod:`hazard.core.rulesets._registry`).
"""

from __future__ import annotations

import enum
import re
import tomllib
from collections.abc import Callable
from dataclasses import replace
from fractions import Fraction
from pathlib import Path
from types import UnionType
from typing import Any, TypeVar

from hazard.core.dice import TOTALS
from hazard.core.errors import InvalidError, quoted
from hazard.core.files import MAX_FILE_BYTES
from hazard.core.numbers import bounded_fraction, parse_fraction
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
            raise self.fail(f"{self._at(key)} = {quoted(value)}: expected {expected}")
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
            raise self.fail(f"{self._at(key)} = {quoted(text)}: expected one of {choices}") from None

    def texts(self, key: str) -> tuple[str, ...]:
        value = self.get(key, list, "a list of strings", required=False) or []
        if not all(isinstance(item, str) for item in value):
            raise self.fail(f"{self._at(key)} = {quoted(value)}: expected a list of strings")
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
                raise self.fail(f"{self._at(key)} has {quoted(item)}: expected totals from 2 to 12")
        if len(set(value)) != len(value):
            raise self.fail(f"{self._at(key)} = {quoted(value)}: a total is listed twice")
        return frozenset(value)

    def done(self, allowed_extra: Callable[[str], bool] = lambda key: False) -> None:
        unknown = sorted(key for key in self.data if key not in self.read and not allowed_extra(key))
        if unknown:
            known = ", ".join(sorted(self.read))
            raise self.fail(f"unknown key {quoted(self._at(unknown[0]))}: expected one of {known}")


MAX_KEY_PARTS = 16
"""The most parts a dotted key or table name may have (``paytable.odds.7`` has three).

``tomllib`` spends time and memory that grow with the square of a key's parts: a single line of 100,000
``a.a.a...`` (200 KB) takes gigabytes. No ruleset or paytable key has more than four.
"""

# Where a string or a comment starts, and, inside each kind of string, the next character that matters: an
# escape, a closing quote, or the end of the line that ends a one-line string (or comment) however it stands.
_OPENERS = re.compile(r"\"\"\"|'''|[\"'#]")
_STEPS = {
    '"': re.compile(r'\\.|["\n]', re.DOTALL),
    '"""': re.compile(r'\\.|"""', re.DOTALL),
    "'": re.compile(r"['\n]"),
    "'''": re.compile(r"'''"),
    "#": re.compile(r"\n"),
}
# A key of more than MAX_KEY_PARTS parts once strings are blanked to "s". It is looked for from a word's start
# only, so that no long word is scanned again from each of its characters; a number has one dot at most.
_LONG_KEY = re.compile(rf"(?<![\w-])[\w-]+(?:[ \t]*\.[ \t]*[\w-]+){{{MAX_KEY_PARTS},}}", re.ASCII)


def _string_end(text: str, at: int, opener: str) -> int:
    """Where the string or comment ``opener`` begun before ``at`` ends: after its closing quotes (and up to
    two quotes of a multi-line string's own before them), or at the end of its line or of the text if it is
    left open (which ``tomllib`` then refuses)."""
    step = _STEPS[opener]
    while (found := step.search(text, at)) is not None:
        mark = found.group()
        if mark.startswith("\\"):
            at = found.end()
            continue
        if mark == "\n":
            return found.start()
        end = found.end()
        if len(opener) == 3:
            while end < len(text) and text[end] == opener[0] and end - found.end() < 2:
                end += 1
        return end
    return len(text)


def _long_key(text: str) -> str | None:
    """The start of a dotted key of more than :data:`MAX_KEY_PARTS` parts in TOML ``text``, or None.

    Strings are blanked to ``s`` and comments dropped first (a dot in them is no key's); the scan only ever
    moves forward, so it takes time linear in the text, whatever the text.
    """
    parts: list[str] = []
    at = 0
    while (opener := _OPENERS.search(text, at)) is not None:
        parts.append(text[at : opener.start()])
        at = _string_end(text, opener.end(), opener.group())
        parts.append("" if opener.group() == "#" else "s")
    parts.append(text[at:])
    found = _LONG_KEY.search("".join(parts))
    return None if found is None else quoted(found.group(), limit=30)


def _document(text: str, what: str) -> _Table:
    """Parse a TOML file's ``text``; errors read ``invalid {what}: ...``."""

    def fail(problem: str) -> InvalidError:
        return InvalidError(f"invalid {what}: {problem}")

    if len(text) > MAX_FILE_BYTES:  # a text not read from a file (a game's record) is bounded as a file is
        raise fail(f"it has {len(text):,} characters: expected at most {MAX_FILE_BYTES:,}")
    long_key = _long_key(text)
    if long_key is not None:
        raise fail(f"a key of more than {MAX_KEY_PARTS} dotted parts ({long_key}): expected a few at most")
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise fail(f"not valid TOML ({error})") from None
    except RecursionError:
        # tomllib reads nested arrays and inline tables by recursion: a thousand levels exhaust the stack.
        raise fail("arrays or tables nested too deeply to read: expected a few levels at most") from None
    except ValueError:
        # What tomllib lets through unwrapped: an integer of more than 4,300 digits, which Python refuses to
        # read (its message says how to lift the limit, which is no advice for a file).
        raise fail("an integer too long to read: expected numbers of a few digits") from None
    return _Table(data, "", fail)


def _is_path(name: str) -> bool:
    """Whether a ruleset or paytable ``name`` is a file's path rather than a built-in's id."""
    return name.endswith(".toml") or "/" in name or "\\" in name


def _key(place: str) -> str:
    """A place in a file for a message: as it is if short and printable, else quoted cut short."""
    return place if len(place) <= 40 and place.isprintable() else quoted(place)


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
    """A table key naming a total: ``"7"`` (never ``"07"``, ``"٧"`` or a thousand digits), or None."""
    if len(key) <= 2 and key.isascii() and key.isdigit() and str(int(key)) == key and int(key) in TOTALS:
        return int(key)
    return None


def _identifier(table: _Table) -> str:
    ident = table.text("id")
    assert ident is not None
    if not (ident.isascii() and ident.replace("-", "").isalnum()) or ident != ident.lower():
        raise table.fail(
            f"{table._at('id')} = {quoted(ident)}: expected lower-case letters, digits and dashes"
        )
    return ident


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
            raise fail(
                f"{_key('opening.' + key)}: expected a main from 2 to 12 (a table such as [opening.7])"
            )
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
        raise top.fail(f"dice_passing.after_losses = {quoted(after)}: expected 0 to {MAX_AFTER_LOSSES}")
    passing_table.done()
    return DicePassing(after, losses)


def _default_paytable(
    top: _Table, ruleset: Ruleset, folder: Path | None, paytables: Callable[[str], Paytable]
) -> str | Paytable | None:
    """The ruleset's default paytable, checked to cover every chance ``ruleset`` can set (which it does not
    hold yet): a built-in one's id; or, for a paytable file (a path, relative to ``folder`` if one is given)
    or a ``[paytable]`` table, the paytable itself, read now once and for all."""
    value = top.get(
        "paytable",
        str | dict,
        "a built-in paytable's id, the path of a paytable file, or a [paytable] table",
        required=False,
    )
    paytable: str | Paytable | None
    if value is None:
        return None
    if isinstance(value, dict):
        inline = top.table("paytable")
        assert inline is not None
        paytable = _paytable(inline)
        found = paytable
    else:
        paytable = top.text("paytable")
        assert paytable is not None
        if _is_path(paytable) and folder is not None and not Path(paytable).is_absolute():
            paytable = str(folder / paytable)
        try:
            found = paytables(paytable)
        except InvalidError as error:
            raise top.fail(f"paytable = {quoted(paytable)}: {error}") from None
        if _is_path(paytable):
            # Carried by value: a later load of this ruleset (from a game's record, in another folder, after
            # the file changed) must not depend on the file.
            paytable = found
    try:
        found.check(ruleset)  # a default must cover every chance
    except InvalidError as error:
        shown = f"paytable = {quoted(paytable)}" if isinstance(paytable, str) else "[paytable]"
        raise top.fail(f"{shown}: {error}") from None
    return paytable


def _read_ruleset(
    text: str, origin: str, *, folder: Path | None, paytables: Callable[[str], Paytable]
) -> Ruleset:
    """Validate TOML ``text`` as a ruleset; ``origin`` names it in errors, and a paytable named by a relative
    path is looked for in ``folder``.

    A default paytable named by id or path is looked up with ``paytables`` (the registry's
    ``find_paytable``, given by the caller so that this reader need not know where paytables live); one
    given as a ``[paytable]`` table is read by the same code as a paytable file. Either must cover every
    chance.
    """
    top = _document(text, f"ruleset {origin}")
    ident = _identifier(top)
    name = top.text("name")
    aliases = top.texts("aliases")
    notes = top.texts("notes")
    stakes = top.choice("stakes", StakeArrangement, StakeArrangement.SETTER_SUM)
    source = _source(top)
    method, mains = _main(top)
    rows = _opening(top, mains)
    passing = _passing(top)
    top.read.add("paytable")
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
            stakes=stakes,
            notes=notes,
            aliases=aliases,
        )
    except InvalidError as error:
        raise top.fail(str(error).removeprefix("invalid ")) from None
    paytable = _default_paytable(top, ruleset, folder, paytables)
    if paytable is None:
        return ruleset
    return replace(ruleset, paytable=paytable)


_EXPECTED_ODDS = 'odds such as "3/2" or "1/1"'


def _odds(value: object, where: str, fail: Callable[[str], InvalidError]) -> Fraction:
    """Odds written ``"3/2"``, ``"2.5"``, ``"2"`` or as a whole number, bounded as
    :mod:`hazard.core.numbers` bounds every number read."""
    if isinstance(value, bool) or not isinstance(value, str | int):
        raise fail(f"{where} = {quoted(value)}: expected {_EXPECTED_ODDS}")
    try:
        if isinstance(value, str):
            odds = parse_fraction(value, what=where, expected=_EXPECTED_ODDS)
        else:
            odds = bounded_fraction(value, what=where, expected=_EXPECTED_ODDS)
    except InvalidError as error:
        # The numbers module writes "invalid WHERE VALUE: ..."; a file's message reads "WHERE = VALUE: ...".
        raise fail(f"{where} = {str(error).removeprefix(f'invalid {where} ')}") from None
    if odds <= 0:
        raise fail(f"{where} = {quoted(value)}: expected odds above 0")
    return odds


def _odds_table(odds_table: _Table) -> dict[tuple[int, int], Fraction]:
    """The ``[odds]`` table: ``[odds.MAIN]`` rows of ``CHANCE = "odds"``, a dash for the impossible cell."""
    fail = odds_table.fail
    table: dict[tuple[int, int], Fraction] = {}
    for main_key in sorted(odds_table.data):
        if _total_key(main_key) is None:
            raise fail(f"{_key(odds_table._at(main_key))}: expected a main from 2 to 12")
        row = odds_table.table(main_key)
        assert row is not None
        for chance_key, value in sorted(row.data.items()):
            row.read.add(chance_key)
            if _total_key(chance_key) is None:
                raise fail(f"{_key(row._at(chance_key))}: expected a chance from 2 to 12")
            if value == "-":  # printed tables mark the impossible cell (chance = main) with a dash
                continue
            table[(int(main_key), int(chance_key))] = _odds(value, row._at(chance_key), fail)
    odds_table.done(lambda key: True)
    if not table:
        raise fail(f'chance = "table" but the [{odds_table.where}] table gives no odds at all')
    return table


def _paytable(top: _Table) -> Paytable:
    """A paytable from its TOML table: a paytable file's top level, or a ruleset's ``[paytable]``."""
    fail = top.fail
    ident = _identifier(top)
    name = top.text("name")
    notes = top.texts("notes")
    source = _source(top) if "source" in top.data else None
    top.read.add("source")
    nick = _odds(top.get("nick", str | int, 'odds such as "1/1"'), top._at("nick"), fail)
    chance = top.get("chance", str | int, f'odds such as "1/1", "{ChanceOdds.TRUE}" or "{ChanceOdds.TABLE}"')
    odds_table = top.table("odds", required=False)
    flat: Fraction | None = None
    table: dict[tuple[int, int], Fraction] = {}
    if chance == ChanceOdds.TABLE:
        if odds_table is None:
            raise fail(f'{top._at("chance")} = "table" but there is no [{top._at("odds")}] table')
        table = _odds_table(odds_table)
    elif chance != ChanceOdds.TRUE:
        flat = _odds(chance, top._at("chance"), fail)
    if odds_table is not None and chance != ChanceOdds.TABLE:
        raise fail(f'an [{odds_table.where}] table is given but {top._at("chance")} is not "table"')
    top.done()
    assert name is not None
    try:
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
    except InvalidError as error:
        raise fail(str(error).removeprefix("invalid ")) from None


def paytable_from_toml(text: str, origin: str) -> Paytable:
    """Validate TOML ``text`` as a paytable; ``origin`` names it in errors."""
    return _paytable(_document(text, f"paytable {origin}"))
