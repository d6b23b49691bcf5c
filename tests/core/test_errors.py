"""A refusal in a person's words (``HazardError.said``): the reason its message ends with, as a sentence,
and for malformed input the input, what it is not and what to type instead."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from hazard.core.errors import IllegalError, InvalidError, plain, reason, sentence

PLAIN = [
    # the reason follows the input and the state, whatever colons and brackets the state has
    (
        "illegal throw by Bob at the wikipedia table of 2 players, caster Ann, round: no main yet: only the "
        "caster, Ann, throws the dice",
        "Only the caster, Ann, throws the dice.",
    ),
    (
        "illegal pass of the dice in round (main 7: chance 5): finish the round first",
        "Finish the round first.",
    ),
    (
        "illegal action from a view of entry 5: the table has moved on since (entry 7: Ann throws 3-4), so "
        "it may mean something else now; look, then send it again",
        "The table has moved on since (entry 7: Ann throws 3-4), so it may mean something else now; look, "
        "then send it again.",
    ),
    # a quoted input may hold a colon, and an apostrophe in a word is not a quote
    ("invalid stake 'a: b': expected a sum such as 5", "'a: b' isn't a stake: type a sum such as 5."),
    ("illegal cancel 1 by Ann: Bob's bet is Bob's to cancel", "Bob's bet is Bob's to cancel."),
    # malformed input: what it is not, and what to type
    ("invalid main 13: expected a total from 2 to 12", "13 isn't a main: type a total from 2 to 12."),
    (
        "unknown command 'jump': expected one of sit or throw",
        "'jump' isn't a command: type one of sit or throw.",
    ),
    ("invalid odds 'x': expected 2 to 1", "'x' isn't an odds: type 2 to 1."),
    # one not written with a reason is said as it is
    ("the record is closed", "The record is closed."),
]


@pytest.mark.parametrize(("message", "said"), PLAIN)
def test_a_refusal_in_a_persons_words(message: str, said: str) -> None:
    assert plain(message) == said
    assert IllegalError(message).said == said


def test_a_sentence_given_where_the_error_is_raised_is_said_as_given() -> None:
    error = InvalidError("invalid roll '9-9': each die shows 1 to 6", said="'9-9' isn't a throw.")
    assert str(error) == "invalid roll '9-9': each die shows 1 to 6"  # the message is unchanged
    assert error.said == "'9-9' isn't a throw."


def test_a_long_input_is_not_repeated_in_full() -> None:
    long = "x" * 500
    assert plain(f"invalid stake '{long}': expected a sum").startswith("That isn't a stake: type a sum")


def test_sentence() -> None:
    assert sentence("only the caster throws") == "Only the caster throws."
    assert sentence("  done!  ") == "Done!"
    assert sentence("") == ""


@given(st.text(max_size=200))
def test_any_message_gives_a_reason_it_ends_with(message: str) -> None:
    """Whatever a message holds (unbalanced brackets and quotes among them), its reason is its own tail."""
    assert message.endswith(reason(message))
    plain(message)  # never raises
