"""The registry of action types: each one's verb, usage, text form, parser and JSON form, found by its type,
its verb or its JSON type.

Every action a table knows is registered here once (:mod:`hazard.table.rules.action_types` registers the
built-in ones), and everything that writes, reads or explains an action asks the registry rather than testing
types one by one: :func:`action_text`, :func:`action_to_json`, :func:`action_from_json`, the parser of a typed
line and the terminal's help. The table's rules keep the other half, one handler per type
(:mod:`hazard.table.rules.transitions`).
"""

from __future__ import annotations

import dataclasses
import enum
import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from hazard.core.errors import InvalidError
from hazard.core.numbers import fraction_text
from hazard.table.rules.money import MoneyStyle, format_money, parse_money

__all__ = [
    "ActionForm",
    "Amount",
    "Fields",
    "HelpLine",
    "action_from_json",
    "action_text",
    "action_to_json",
    "field_names",
    "fields_json",
    "form_for_verb",
    "form_of",
    "forms",
    "is_action",
    "register_form",
    "unregister_form",
    "verbs",
]

Amount = Callable[[Fraction], str]
"""How a sum is written in an action's text (the style the caller chose, where it reads back exactly)."""


@dataclass(frozen=True, slots=True)
class HelpLine:
    """One line of the terminal's help: the command as typed (``take N``) and what it does, whose further
    lines (after a line break) are indented under the first."""

    command: str
    meaning: str


@dataclass(frozen=True, slots=True)
class ActionForm:
    """Everything about one action type that is not a rule of the table: its words and its JSON."""

    type: type[Any]
    verb: str
    """The word its text form begins with (``stake``)."""
    usage: str
    """What its command looks like, with an example, as a refusal of a malformed one says it."""
    parse: Callable[[Any], object]
    """Reads the command from an :class:`~hazard.table.rules.reader.Reader` (its verb already known)."""
    text: Callable[[Any, Amount], str] | None = None
    """The action as a command, its sums written by the given function; None: a command that is no action."""
    json_type: str | None = None
    """The ``type`` of its JSON form in the record; None: a command the record never holds."""
    json_fields: frozenset[str] = frozenset()
    to_json: Callable[[Any], dict[str, Any]] | None = None
    from_json: Callable[[Fields], object] | None = None
    named_usage: str | None = None
    """Its usage where the player must be named (the referee's), if that differs."""
    play_help: tuple[HelpLine, ...] = ()
    """Its lines in the player's help (``hazard play``); none: not listed there."""
    referee_help: tuple[HelpLine, ...] = ()
    """Its lines in the referee's help (``hazard referee``)."""
    acting_for: Callable[[Any, Any], str | None] | None = None
    """Whose action it is at a table (the caster where None)."""
    rule: str = "a player acts only for himself (this is {owner}'s)"
    """Why another player may not take it, ``{owner}`` standing for the player whose it is."""
    brings_money: bool = False
    """Whether it brings money or a bet to the table (whose fineness the table then checks)."""
    offers: Callable[[Any, str], Iterable[object]] | None = None
    """What of it a table may offer a seated player now (given the table and the player): the candidates
    :func:`~hazard.table.rules.choices.choices` tries through the table's rules; None: nothing."""


_BY_TYPE: dict[type[Any], ActionForm] = {}
_BY_VERB: dict[str, ActionForm] = {}
_BY_JSON: dict[str, ActionForm] = {}


def register_form(form: ActionForm) -> ActionForm:
    """Add ``form`` to the registry; refused where its type, verb or JSON type is taken already."""
    if form.type in _BY_TYPE or form.verb in _BY_VERB or (form.json_type in _BY_JSON):
        raise InvalidError(
            f"invalid action type {form.type.__name__} (verb {form.verb!r}): its type, verb or JSON type "
            "is registered already"
        )
    _BY_TYPE[form.type] = form
    _BY_VERB[form.verb] = form
    if form.json_type is not None:
        _BY_JSON[form.json_type] = form
    return form


def unregister_form(kind: type[Any]) -> None:
    """Take the action type ``kind`` out of the registry (for tests that add one of their own)."""
    form = _BY_TYPE.pop(kind)
    del _BY_VERB[form.verb]
    if form.json_type is not None:
        del _BY_JSON[form.json_type]


def forms() -> tuple[ActionForm, ...]:
    """Every registered form, in the order they were registered (the order usage lists verbs in)."""
    return tuple(_BY_TYPE.values())


def verbs() -> tuple[str, ...]:
    """The verbs of the text form, in the order help lists them."""
    return tuple(_BY_VERB)


def form_of(action: object) -> ActionForm:
    """The form of ``action``'s type; an :class:`InvalidError` for anything that is no registered action."""
    form = _BY_TYPE.get(type(action))
    if form is None:
        raise InvalidError(f"invalid table action {action!r}")
    return form


def form_for_verb(verb: str) -> ActionForm | None:
    """The form whose command begins with ``verb`` (in lower case), if any."""
    return _BY_VERB.get(verb)


def is_action(item: object) -> bool:
    """Whether ``item`` is an action the record holds (a registered type with a JSON form)."""
    form = _BY_TYPE.get(type(item))
    return form is not None and form.json_type is not None


def action_text(action: object, money: MoneyStyle = MoneyStyle.EXACT) -> str:
    """``action`` as a command (``stake Bob 5``, ``throw 3-4``); sums in ``money`` where it is exact.

    Whatever the style, the text reads back to the same action with
    :func:`~hazard.table.rules.action_types.parse_action`.
    """

    def amount(value: Fraction) -> str:
        if money is MoneyStyle.EXACT:  # exact by its form: read back, it is the same sum
            return format_money(value, money)
        text = format_money(value, money)
        try:
            exact = parse_money(text, allow_zero=True) == value
        except InvalidError:  # a sum no command may carry (below zero): written exactly, for the message
            exact = False
        return text if exact else format_money(value, MoneyStyle.EXACT)

    form = form_of(action)
    if form.text is None:
        raise InvalidError(f"invalid table action {action!r}: it has no text form")
    return form.text(action, amount)


def action_to_json(action: object) -> dict[str, Any]:
    """The JSON object the game record stores for ``action``."""
    form = form_of(action)
    if form.to_json is None or form.json_type is None:
        raise InvalidError(f"invalid table action {action!r}: the record does not hold it")
    return {"type": form.json_type, **form.to_json(action)}


class Fields:
    """Reads one stored action's fields, refusing anything missing, extra or of the wrong type."""

    def __init__(self, data: Mapping[str, Any], kind: str, names: frozenset[str]) -> None:
        extra = sorted(set(data) - names - {"type"})
        missing = sorted(names - set(data))
        if extra or missing:
            problem = f"unknown field {extra[0]!r}" if extra else f"missing field {missing[0]!r}"
            raise InvalidError(f"invalid {kind} action: {problem}")
        self.data = data
        self.kind = kind

    def text(self, name: str) -> str:
        value = self.data[name]
        if not isinstance(value, str) or not value:
            raise InvalidError(f"invalid {self.kind} action: {name} = {value!r}, expected text")
        return value

    def number(self, name: str) -> int:
        value = self.data[name]
        if not isinstance(value, int) or isinstance(value, bool):
            raise InvalidError(f"invalid {self.kind} action: {name} = {value!r}, expected a whole number")
        return value

    def flag(self, name: str) -> bool:
        value = self.data[name]
        if not isinstance(value, bool):
            raise InvalidError(f"invalid {self.kind} action: {name} = {value!r}, expected true or false")
        return value

    def money(self, name: str) -> Fraction:
        value = self.text(name)
        if not re.fullmatch(r"-?[0-9]{1,40}/[0-9]{1,40}", value):
            raise InvalidError(
                f"invalid {self.kind} action: {name} = {value[:60]!r}, expected a fraction a/b"
            )
        try:
            amount = Fraction(value)
        except ZeroDivisionError:
            raise InvalidError(
                f"invalid {self.kind} action: {name} = {value!r}, expected a fraction a/b"
            ) from None
        if amount < 0:
            raise InvalidError(f"invalid {self.kind} action: {name} = {value!r}, expected 0 or more")
        return amount


def action_from_json(data: object) -> Any:
    """Read one stored action back; an :class:`InvalidError` for anything that is not exactly one."""
    if not isinstance(data, dict) or not isinstance(data.get("type"), str):
        raise InvalidError(f"invalid action {str(data)[:80]!r}: expected a JSON object with a 'type'")
    kind = data["type"]
    form = _BY_JSON.get(kind)
    if form is None or form.from_json is None:
        stored = [name for name in _BY_JSON if _BY_JSON[name].from_json is not None]
        raise InvalidError(
            f"invalid action type {kind[:40]!r}: expected {', '.join(stored[:-1])} or {stored[-1]}"
        )
    return form.from_json(Fields(data, kind, form.json_fields))


# --- the JSON form of a dataclass, field by field ---------------------------------------------------------


def fields_json(action: Any) -> dict[str, Any]:
    """The JSON fields of a dataclass action, in the order it declares them: a sum as ``a/b``, an enum as
    its value, text, whole numbers, flags and None as they are."""
    data: dict[str, Any] = {}
    for field in dataclasses.fields(action):
        value = getattr(action, field.name)
        if isinstance(value, Fraction):
            value = fraction_text(value)
        elif isinstance(value, enum.Enum):
            value = value.value
        data[field.name] = value
    return data


def field_names(kind: type[Any]) -> frozenset[str]:
    """The names of a dataclass action's fields: its JSON form's fields, besides ``type``."""
    return frozenset(field.name for field in dataclasses.fields(kind))
