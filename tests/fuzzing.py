"""Mutated inputs for the fuzzers of the parsers, and the checks each fuzzed input must pass.

A mutation starts from a valid text (a built-in ruleset or paytable file, a source's bet) and changes it the
ways a careless or hostile user would: a character replaced, a slice cut, a huge or nested value put in. Every
result must parse, or be refused with one :class:`~hazard.core.errors.InvalidError`, quickly.
"""

from __future__ import annotations

from collections.abc import Callable
from importlib import resources

from hypothesis import strategies as st
from tests.bounds import within_cpu

from hazard.core.dice import ROLLS
from hazard.core.errors import InvalidError
from hazard.core.paytable import Paytable
from hazard.core.propositions import (
    MAX_THROWS,
    SOURCE_BETS,
    SOURCE_EXAMPLES,
    Not,
    Proposition,
    Within,
    parse_proposition,
    settle,
)
from hazard.core.rules import Ruleset
from hazard.core.rulesets import paytable_from_toml, paytable_to_toml, ruleset_from_toml, ruleset_to_toml

_LIMIT = 2.0  # seconds of CPU: generous; every refusal takes milliseconds

HOSTILE_VALUES = (
    "1e1000000000",
    '"1e1000000000"',
    '"1e400"',
    "1e400",
    "9" * 5000,
    "9" * 4000,
    str(2**63),
    str(-(2**63) - 1),
    "-0",
    '"' + "9" * 5000 + '"',
    "[" * 1000 + "]" * 1000,
    "{a = " * 600 + "1" + "}" * 600,
    "[" * 50 + "]" * 50,
    '"٣"',
    '"²"',
    '"⑦"',
    '"½"',
    "٣",
    "inf",
    "nan",
    '"1/0"',
    '"0"',
    '"-"',
    '"3 / 2"',
    '"table"',
    '"true-odds"',
    "true",
    "[]",
    "{}",
    "1979-05-27",
    '"' + "x" * 100_000 + '"',
    '"\\u0000"',
    "[7, 7]",
    "[13]",
    "[" + ", ".join(["7"] * 10_000) + "]",
    "{" + ".".join(["a"] * 10_000) + " = 1}",
)
HOSTILE_LINES = (
    'id = "again"',
    "[main]",
    "[opening.7]",
    "[opening.٧]",
    "[[opening]]",
    "[odds.7]",
    "[paytable]",
    '[paytable]\nid = "p"\nname = "P"\nnick = "1e400"\nchance = "1/1"',
    'paytable = "/dev/zero"',
    "[dice_passing]\nafter_losses = 9223372036854775808",
    "x = 1",
    ".".join(["a"] * 100_000) + " = 1",
    "[" + ".".join(["a"] * 17) + "]",
    "a.b.c.d = 1",
    "= =",
    "\x00",
    "\ufeff",
)


@st.composite
def mutated_toml(draw: st.DrawFn, texts: tuple[str, ...]) -> str:
    """A text from ``texts`` after one to four mutations: a character replaced, a slice deleted, a hostile
    value or line inserted, a value replaced by a hostile one, or a line repeated."""
    text = draw(st.sampled_from(texts))
    for _ in range(draw(st.integers(1, 4))):
        at = draw(st.integers(0, len(text)))
        kind = draw(st.sampled_from(("flip", "delete", "insert", "value", "line", "repeat")))
        if kind == "flip":
            text = text[:at] + draw(st.characters(codec="utf-8")) + text[at + 1 :]
        elif kind == "delete":
            text = text[:at] + text[at + draw(st.integers(1, 40)) :]
        elif kind == "insert":
            text = text[:at] + draw(st.sampled_from(HOSTILE_VALUES)) + text[at:]
        else:
            lines = text.split("\n")
            index = draw(st.integers(0, len(lines) - 1))
            if kind == "value" and " = " in lines[index]:
                key = lines[index].partition(" = ")[0]
                lines[index] = f"{key} = {draw(st.sampled_from(HOSTILE_VALUES))}"
            elif kind == "line":
                lines.insert(index, draw(st.sampled_from(HOSTILE_LINES)))
            else:
                lines.insert(index, lines[index])
            text = "\n".join(lines)
    return text


def _builtin_texts(folder: str) -> tuple[str, ...]:
    files = sorted((resources.files("hazard.core.rulesets") / folder).iterdir(), key=lambda file: file.name)
    return tuple(file.read_text(encoding="utf-8") for file in files if file.name.endswith(".toml"))


BUILTIN_RULESET_TEXTS = _builtin_texts("data")
BUILTIN_PAYTABLE_TEXTS = _builtin_texts("paytables")


def _loaded_or_refused(read: Callable[[], object]) -> object | InvalidError:
    """What ``read`` returns, or the InvalidError it raises; any other exception fails the test. Timed."""
    with within_cpu(_LIMIT, "loading the text"):
        try:
            return read()
        except InvalidError as error:
            return error


def check_ruleset_text(text: str) -> None:
    """A ruleset's text loads (and then writes back to an equal ruleset), or is one short InvalidError."""
    result = _loaded_or_refused(lambda: ruleset_from_toml(text, "'fuzz.toml'"))
    if isinstance(result, InvalidError):
        assert str(result).startswith(("invalid ruleset 'fuzz.toml': ", "invalid ")), result
        assert len(str(result)) < 1000
        return
    assert isinstance(result, Ruleset)
    assert ruleset_from_toml(ruleset_to_toml(result), "written") == result


def check_paytable_text(text: str) -> None:
    """A paytable's text loads (and then writes back to an equal paytable), or is one short InvalidError."""
    result = _loaded_or_refused(lambda: paytable_from_toml(text, "'fuzz.toml'"))
    if isinstance(result, InvalidError):
        assert str(result).startswith("invalid paytable 'fuzz.toml': "), result
        assert len(str(result)) < 1000
        return
    assert isinstance(result, Paytable)
    assert paytable_from_toml(paytable_to_toml(result), "written") == result


VALID_TEXTS = (
    *SOURCE_BETS,
    *SOURCE_EXAMPLES,
    "the caster will throw 4 or 10 before throwing 7",
    "Even money the Caster will throw 2, 3 ,11 or 12 in three rolls",
    "not not next throw is seven",
    "any number below 7 before any number above 7",
    "doublets within 2 throws",
    "at least 10 within the next 5 rolls",
    "7 on the next throw",
    "he won't throw 12 in 36 casts",
    "2, 3, 11, or 12 within 1000 throws",
)
# Words the grammar knows, numbers at and past every bound, other scripts' digits, and punctuation.
HOSTILE_WORDS = (
    "before",
    "within",
    "in",
    "next",
    "not",
    "no",
    "or",
    ",",
    "odd",
    "even",
    "doublets",
    "below",
    "above",
    "at",
    "least",
    "most",
    "more",
    "less",
    "than",
    "throws",
    "the",
    "seven",
    "twelve",
    "thirteen",
    "zero",
    "0",
    "1",
    "2",
    "7",
    "12",
    "13",
    "1000",
    "1001",
    "6000",
    "1000000000",
    "9" * 70,
    "²",
    "٣",
    "⑦",
    "½",
    "七",
    "٣٣",
    "7٣",
    "1e400",
    "-",
    ".",
    "3/2",
    "'",
    "n't",
    "\u2019",
    "\x00",
    "İ",
    "ß",
    "\ufeff",
)


@st.composite
def mutated_bets(draw: st.DrawFn) -> str:
    """A valid bet after one to four mutations: a word inserted, deleted or replaced, or a character."""
    words = draw(st.sampled_from(VALID_TEXTS)).split(" ")
    for _ in range(draw(st.integers(1, 4))):
        at = draw(st.integers(0, len(words)))
        kind = draw(st.sampled_from(("insert", "delete", "replace", "character")))
        if kind == "insert":
            words.insert(at, draw(st.sampled_from(HOSTILE_WORDS)))
        elif kind == "delete" and words:
            del words[min(at, len(words) - 1)]
        elif kind == "replace" and words:
            words[min(at, len(words) - 1)] = draw(st.sampled_from(HOSTILE_WORDS))
        elif words:
            word = words[min(at, len(words) - 1)]
            spot = draw(st.integers(0, len(word)))
            words[min(at, len(words) - 1)] = word[:spot] + draw(st.characters()) + word[spot + 1 :]
    return " ".join(words)


def check_proposition_text(text: str) -> Proposition | None:
    """A text is a bet, whose normal form reads back to it and which settles and prints, or is one short
    InvalidError; quickly either way."""
    with within_cpu(_LIMIT, "parsing the bet"):
        try:
            proposition = parse_proposition(text)
        except InvalidError as error:
            message = str(error)
            assert message.startswith("invalid proposition "), message
            assert "\n" not in message
            assert len(message) < 600, message
            return None
    assert parse_proposition(str(proposition)) == proposition
    assert parse_proposition(str(~proposition)) == ~proposition
    if isinstance(proposition, Within | Not):
        inner = proposition.proposition if isinstance(proposition, Not) else proposition
        assert not isinstance(inner, Within) or 1 <= inner.throws <= MAX_THROWS
    # Every throw once, over and over, decides any bet within MAX_THROWS throws.
    assert settle(proposition, ROLLS * (MAX_THROWS // len(ROLLS) + 1)) is not None
    return proposition
