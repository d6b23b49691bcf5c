"""Side bets ("propositions") on a run of throws of two dice, as bystanders laid them at the Hazard table.

A proposition is about the dice alone, whatever the round is doing: *4 or 10 before 7*, *2, 3, 11 or 12
within 3 throws*, *next odd*, and the negation of any of these. Each is a small frozen value with a
normalised text form that parses back to an equal value, and a :class:`Tracker` settles one against the
throws as they come. A bet that can never lose (``next 2 or more``), or never win (its negation), is no bet
and is refused.

>>> from hazard.core.dice import Roll
>>> bet = parse_proposition("the caster will throw 4 or 10 before throwing 7")
>>> bet
Before(first=RollSet('4 or 10'), second=RollSet('7'))
>>> str(bet), str(~bet)
('4 or 10 before 7', 'not 4 or 10 before 7')
>>> tracker = start(bet).advance(Roll(2, 3)).advance(Roll(6, 4))
>>> tracker.decided, tracker.throws
(True, 2)

Grammar (case-insensitive; filler such as "the caster will throw", "any", "number", "a" is ignored)::

    proposition := ("not" | "no")* body
    body        := set "before" ["throwing"] set
                 | set ("within" | "in") ["the next"] N ["throws" | "rolls" | "casts"]
                 | "next" ["throw" | "roll"] ["is"] set  |  set "on the next throw"
    set         := total ("," | "or" | ", or") total ...     e.g. "7", "4 or 10", "2, 3, 11 or 12"
                 | "odd" | "even" | "doublets" | "a pair"
                 | ("below" | "under" | "less than") total | ("above" | "over" | "more than") total
                 | total "or more" | "at least" total | total "or less" | "at most" total
    total       := 2 ... 12, in digits or words ("seven")
    N           := 1 ... 1000 (MAX_THROWS), in digits or words

Numbers are ASCII digits or English words: other scripts' digits (``"٣"``, ``"²"``, ``"⑦"``) are refused, as
is a text of more than ``MAX_TEXT`` (500) characters, so that every bet costs little to read, to analyse and
to settle.

The modules behind this facade: ``_types`` (the values and their validation), ``_settle`` (trackers),
``_parser`` (the proposition grammar) and ``_grammar`` (the set grammar and tokenizer, which the types use
too, to check a set's name).
"""

from __future__ import annotations

from hazard.core.propositions._grammar import MAX_TEXT
from hazard.core.propositions._parser import parse_proposition, parse_roll_set
from hazard.core.propositions._settle import Tracker, settle, start
from hazard.core.propositions._types import (
    MAX_THROWS,
    SOURCE_BETS,
    SOURCE_EXAMPLES,
    Before,
    Next,
    Not,
    Proposition,
    RollSet,
    Within,
    negate,
)

__all__ = [
    "MAX_TEXT",
    "MAX_THROWS",
    "SOURCE_BETS",
    "SOURCE_EXAMPLES",
    "Before",
    "Next",
    "Not",
    "Proposition",
    "RollSet",
    "Tracker",
    "Within",
    "negate",
    "parse_proposition",
    "parse_roll_set",
    "settle",
    "start",
]
