"""What a line typed at the ``hazard play`` or ``hazard referee`` prompt is read as (``parse_line``).

Whether an action is allowed now, and for whom, is the table's to say: these lines are only read, never
checked against a table.
"""

from __future__ import annotations

import re
from fractions import Fraction

import pytest

from hazard.cli.commands import (
    PLAY_HELP,
    REFEREE_HELP,
    Act,
    Command,
    Fix,
    Meta,
    parse_line,
    play_help,
    referee_help,
)
from hazard.core.errors import InvalidError
from hazard.table import (
    REFEREE,
    Actor,
    Call,
    CancelBet,
    OfferBet,
    PassDice,
    Roll,
    Sit,
    Stake,
    TableAction,
    TakeBet,
    ThrowDice,
    Withdraw,
)

ANN = Actor.player("Ann")
SEATED = ["Ann", "Bob", "Cat Roe"]


def _play(line: str) -> Command | None:
    return parse_line(line, by=ANN, players=SEATED, referee=False)


def _referee(line: str) -> Command | None:
    return parse_line(line, by=REFEREE, players=SEATED, referee=True)


@pytest.mark.parametrize(
    ("line", "word"),
    [
        ("help", "help"),
        ("?", "help"),
        ("h", "help"),
        ("HELP", "help"),
        ("table", "table"),
        ("show", "table"),
        ("bets", "bets"),
        ("quit", "quit"),
        ("q", "quit"),
        ("exit", "quit"),
        ("  Quit  ", "quit"),
    ],
)
def test_words_for_the_screen_at_either_prompt(line: str, word: str) -> None:
    assert _play(line) == Meta(word)
    assert _referee(line) == Meta(word)


def test_the_log_is_the_referees() -> None:
    assert _referee("log") == Meta("log")
    assert _referee("history") == Meta("log")
    for line in ("log", "history"):
        with pytest.raises(InvalidError, match=f"^unknown command {re.escape(repr(line))}"):
            _play(line)


@pytest.mark.parametrize("line", ["help me", "quit now", "table 2", "bets all"])
def test_a_word_for_the_screen_takes_nothing_after_it(line: str) -> None:
    verb = line.split(maxsplit=1)[0]
    for parse in (_play, _referee):
        with pytest.raises(
            InvalidError, match=f"^invalid command '{re.escape(line)}': {verb} takes nothing after it$"
        ):
            parse(line)


@pytest.mark.parametrize(
    ("line", "action"),
    [
        ("stake 5", Stake("Ann", Fraction(5))),
        ("stake 2.50", Stake("Ann", Fraction(5, 2))),
        ("stake 5/3", Stake("Ann", Fraction(5, 3))),
        ("stake £1 10s", Stake("Ann", Fraction(3, 2))),
        ("stake 7s 6d", Stake("Ann", Fraction(3, 8))),
        ("  STAKE   5 ", Stake("Ann", Fraction(5))),
        ("stake bob 5", Stake("Bob", Fraction(5))),  # read; the table refuses it for Ann
        ("withdraw", Withdraw("Ann")),
        ("call 7", Call(7)),
        ("7", Call(7)),
        ("throw", ThrowDice()),
        ("", ThrowDice()),
        ("   ", ThrowDice()),
        ("3-4", Roll(3, 4)),  # read; hazard play refuses a named throw
        ("offer 2 on 4 or 10 before 7", OfferBet("Ann", "4 or 10 before 7", Fraction(2), Fraction(1))),
        ("offer 2 on 4 before 7 at 2/1", OfferBet("Ann", "4 before 7", Fraction(2), Fraction(2))),
        ("take 3", TakeBet(3, "Ann")),
        ("take #3", TakeBet(3, "Ann")),
        ("cancel 3", CancelBet(3)),
        ("pass", PassDice()),
    ],
)
def test_a_player_types_actions_for_himself(line: str, action: TableAction | ThrowDice) -> None:
    assert _play(line) == Act(action)


@pytest.mark.parametrize(
    ("line", "action"),
    [
        ("stake bob 5", Stake("Bob", Fraction(5))),
        ('stake "cat roe" 7s 6d consent', Stake("Cat Roe", Fraction(3, 8), consent=True)),
        ("withdraw BOB", Withdraw("Bob")),
        ("3 4", Roll(3, 4)),
        ("34", Roll(3, 4)),
        ("throw 3-4", Roll(3, 4)),
        ("take 1 bob", TakeBet(1, "Bob")),
        ("sit Dan 100", Sit("Dan", Fraction(100))),
        ("offer Bob 1 on 6 before 8", OfferBet("Bob", "6 before 8", Fraction(1), Fraction(1))),
    ],
)
def test_the_referee_names_the_player(line: str, action: TableAction) -> None:
    assert _referee(line) == Act(action)


@pytest.mark.parametrize("line", ["stake 5", "withdraw", "take 1", "offer 2 on 4 before 7"])
def test_the_referee_must_name_the_player(line: str) -> None:
    with pytest.raises(
        InvalidError, match=f"^invalid command '{re.escape(line)}': the referee names the player: "
    ):
        _referee(line)


def test_the_referees_enter_asks_nothing() -> None:
    assert _referee("") is None
    assert _referee("   ") is None


@pytest.mark.parametrize(
    ("line", "fix"),
    [
        ("undo", Fix(None)),
        ("UNDO", Fix(None)),
        ("void 7", Fix(7)),
        ("fix 7 3-4", Fix(7, Roll(3, 4))),
        ("fix 7 3 4", Fix(7, Roll(3, 4))),
        ("void 0007", Fix(7)),
        ("void " + str(2**63 - 1), Fix(2**63 - 1)),  # bounded as the record's numbers are: the table says
        # whether there is such an entry
        ("fix 3 stake bob 2.50", Fix(3, Stake("Bob", Fraction(5, 2)))),
        ("fix 4 call 6", Fix(4, Call(6))),
    ],
)
def test_corrections_at_the_referees_prompt(line: str, fix: Fix) -> None:
    assert _referee(line) == fix


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("undo 3", "invalid command 'undo 3': expected undo"),
        ("void", "invalid command 'void': expected void N, e.g. void 7"),
        ("void 1 2", "invalid command 'void 1 2': expected void N, e.g. void 7"),
        (
            "void x",
            "invalid entry number 'x': expected an entry number, the [N] before a recorded line (see log)",
        ),
        (
            "void -1",
            "invalid entry number '-1': expected an entry number, the [N] before a recorded line (see log)",
        ),
        (
            "void 0",
            "invalid entry number '0': expected an entry number, the [N] before a recorded line (see log)",
        ),
        (
            "void ７",
            "invalid entry number '７': expected an entry number, the [N] before a recorded line (see log)",
        ),
        (
            "void 1.5",
            "invalid entry number '1.5': expected an entry number, the [N] before a recorded line (see log)",
        ),
        (
            "void " + str(2**63),
            f"invalid entry number '{2**63}': expected an entry number",
        ),
        (
            "void " + "9" * 5000,
            "invalid entry number '"
            + "9" * 80
            + "'... (5,000 characters): expected an entry number, the [N] before a recorded line (see log)",
        ),
        ("fix " + "9" * 5000 + " 3-4", "invalid entry number '" + "9" * 80 + "'... (5,000 characters)"),
        ("fix 5", "invalid command 'fix 5': expected fix N COMMAND, e.g. fix 7 3-4"),
        (
            "fix x 3-4",
            "invalid entry number 'x': expected an entry number, the [N] before a recorded line (see log)",
        ),
        ("fix 5 throw", "invalid command 'fix 5 throw': an entry can only be replaced by an action"),
        ("fix 5 9-9", "invalid roll '9-9': each die shows 1 to 6"),
        ("fix 5 stake 5", "invalid command 'stake 5': the referee names the player"),
    ],
)
def test_a_bad_correction_is_refused(line: str, message: str) -> None:
    with pytest.raises(InvalidError) as refused:
        _referee(line)
    assert str(refused.value).startswith(message), str(refused.value)


def test_corrections_are_only_the_referees() -> None:
    for line in ("undo", "void 3", "fix 3 3-4"):
        with pytest.raises(InvalidError, match=r"^unknown command "):
            _play(line)


def test_help_lists_what_each_prompt_understands() -> None:
    assert PLAY_HELP.startswith("Commands (Enter alone throws the dice):")
    for command in ("stake AMOUNT", "withdraw", "call MAIN", "throw", "offer AMOUNT on BET", "take N"):
        assert command in PLAY_HELP
    for command in ("cancel N", "pass", "bets", "table", "quit"):
        assert command in PLAY_HELP
    for word in ("undo", "void N", "fix N COMMAND", "log", "sit NAME"):
        assert word not in PLAY_HELP
    for command in (
        "stake NAME AMOUNT",
        "withdraw NAME",
        "take N NAME",
        "sit NAME BANKROLL",
        "undo",
        "void N",
    ):
        assert command in REFEREE_HELP
    assert "fix N COMMAND" in REFEREE_HELP
    assert "log" in REFEREE_HELP
    assert "£1 10s" in REFEREE_HELP


# The help as it was written by hand before it was generated from the action types' own usage.
_PLAY_HELP_BEFORE = """\
Commands (Enter alone throws the dice):
  stake AMOUNT                    stake against the caster before the round begins, e.g. stake 5, stake 2.50,
                                  stake 5/3, stake £1 10s; holding the dice against a bank, name your stake
  withdraw                        take back your stakes before the round begins
  call MAIN  (or just MAIN)       call the main when you hold the dice, e.g. call 7
  throw  (or Enter)               throw the dice when you hold them, or let the bot holding them throw
  offer AMOUNT on BET [at ODDS]   offer a side bet, e.g. offer 2 on 4 or 10 before 7, or ... at 2/1
  take N                          take side bet #N, laying against it
  cancel N                        withdraw your side bet #N before anyone takes it
  pass                            give up the dice between rounds
  seed TEXT                       your own seed for the fair dice from the next hand on (before its first
                                  throw): the dice's seed is committed first, so nobody can fit it to yours
  bets                            the even-money side bets of the 1674 source
  table                           show the table
  quit                            leave; the game is saved (hazard play --resume)
  close                           end the game for good: nothing more may be done, the hand's seed is shown"""

_REFEREE_HELP_BEFORE = """\
Commands (names in any case; entry numbers are the [N] before each recorded line):
  3-4  or  3 4  or  throw 3-4     the dice as they fell
  call MAIN                       the caster calls the main, e.g. call 7
  stake NAME AMOUNT [consent]     NAME stakes against the caster ('consent': the caster agreed, once the
                                  chance is set, where everyone bets against the caster)
  withdraw NAME                   NAME takes back their stakes before the round begins
  offer NAME AMOUNT on BET [at ODDS]   a side bet, e.g. offer Cat 2 on 4 or 10 before 7
  take N NAME                     NAME takes side bet #N
  cancel N                        side bet #N is withdrawn before anyone takes it
  pass                            the caster gives up the dice between rounds
  sit NAME BANKROLL               someone joins the table
  leave NAME                      NAME gets up from the table with his bankroll, between his rounds
  undo                            void the last action standing (a correction entry; nothing is deleted)
  void N                          void entry N
  fix N COMMAND                   entry N should have been COMMAND, e.g. fix 7 3-4
  log                             every entry of the record, with its standing and what it did
  bets                            the even-money side bets of the 1674 source
  table                           show the table
  quit                            leave; the game is saved (hazard referee --resume)
  close                           end the game for good: nothing more may be done
Sums may be written 5, 2.50, 5/3, £1 10s or 7s 6d."""


def test_help_is_generated_from_the_action_types_word_for_word_as_it_was_written() -> None:
    assert PLAY_HELP == play_help() == _PLAY_HELP_BEFORE
    assert REFEREE_HELP == referee_help() == _REFEREE_HELP_BEFORE


_HUGE = "9" * 5000  # past the 4,300 digits int() converts


@pytest.mark.parametrize(
    "line",
    [
        f"void {_HUGE}",
        f"fix {_HUGE} 3-4",
        f"fix 3 take {_HUGE} Bob",
        f"take {_HUGE}",
        f"take {_HUGE} Bob",
        f"cancel {_HUGE}",
        f"call {_HUGE}",
        f"stake {_HUGE}",
        f"stake Bob {_HUGE}",
        f"offer {_HUGE} on 4 before 7",
        f"offer Bob 2 on 4 before 7 at {_HUGE}/1",
        f"offer 2 on 4 within {_HUGE} throws",
        f"sit Cat {_HUGE}",
        f"help {_HUGE}",
        _HUGE,
    ],
)
@pytest.mark.parametrize("referee", [False, True])
def test_a_number_of_any_length_is_refused_in_one_short_message(line: str, referee: bool) -> None:
    with pytest.raises(InvalidError) as refused:
        parse_line(line, by=REFEREE if referee else ANN, players=SEATED, referee=referee)
    message = str(refused.value)
    assert len(message) < 400, message
    assert "\n" not in message
