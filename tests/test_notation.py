"""Text forms of actions, and a round's record as JSON lines."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hazard.core.dice import ROLLS, TOTALS, Roll
from hazard.core.engine import Action, Call, apply, legal_actions, new_round
from hazard.core.errors import IllegalError, InvalidError
from hazard.core.events import ChanceSet, ChanceWon, MainCalled, NoEffect
from hazard.core.notation import RECORD_FORMAT, dump_round, format_action, load_round, parse_action, replay
from hazard.core.rules import Ruleset
from hazard.core.rulesets import builtin_rulesets, find_ruleset
from hazard.core.state import Phase, Termination

BRITANNICA = find_ruleset("britannica-1911")
WORKED_EXAMPLE: list[Action] = [Call(7), Roll(2, 4), Roll(3, 5), Roll(1, 5)]


class TestActions:
    @pytest.mark.parametrize(
        ("text", "action"),
        [
            ("call 7", Call(7)),
            ("main 7", Call(7)),
            ("CALL 9", Call(9)),
            ("  call   12 ", Call(12)),
            ("Main 5", Call(5)),
            ("3-4", Roll(3, 4)),
            ("6 6", Roll(6, 6)),
            ("15", Roll(1, 5)),
        ],
    )
    def test_parse(self, text: str, action: Action) -> None:
        assert parse_action(text) == action

    def test_format(self) -> None:
        assert format_action(Call(7)) == "call 7"
        assert format_action(Roll(6, 1)) == "6-1"

    @pytest.mark.parametrize("action", [*ROLLS, *(Call(total) for total in TOTALS)], ids=str)
    def test_round_trip(self, action: Action) -> None:
        assert parse_action(format_action(action)) == action

    @pytest.mark.parametrize(
        "text", ["", "call", "call x", "call 7 8", "7-1", "hello", "throw 3-4", "call -7"]
    )
    def test_refused(self, text: str) -> None:
        with pytest.raises(InvalidError) as info:
            parse_action(text)
        assert str(info.value) == (
            f"invalid action {text!r}: expected 'call N' for a main or a throw such as '3-4'"
        )

    def test_call_of_an_impossible_total_reads_but_does_not_play(self) -> None:
        action = parse_action("call 13")
        assert action == Call(13)
        with pytest.raises(InvalidError, match="invalid main 13"):
            apply(new_round(BRITANNICA), action)


class TestRecord:
    def test_dump_worked_example(self) -> None:
        text = dump_round(BRITANNICA, WORKED_EXAMPLE)
        assert text == (
            '{"format": "hazard-round/1", "ruleset": "britannica-1911"}\n'
            '{"action": "call 7"}\n'
            '{"action": "2-4"}\n'
            '{"action": "3-5"}\n'
            '{"action": "1-5"}\n'
        )
        assert load_round(text) == ("britannica-1911", WORKED_EXAMPLE)

    def test_every_line_is_json(self) -> None:
        lines = dump_round(BRITANNICA, WORKED_EXAMPLE).splitlines()
        assert json.loads(lines[0]) == {"format": RECORD_FORMAT, "ruleset": "britannica-1911"}
        assert [json.loads(line) for line in lines[1:]] == [{"action": str(a)} for a in WORKED_EXAMPLE]

    def test_empty_round(self) -> None:
        text = dump_round(BRITANNICA, [])
        assert load_round(text) == ("britannica-1911", [])

    def test_replay(self) -> None:
        state, events = replay(BRITANNICA, WORKED_EXAMPLE)
        assert state.termination is Termination.CHANCE
        assert events == [
            MainCalled(7),
            ChanceSet(Roll(2, 4), 7),
            NoEffect(Roll(3, 5), 7, 6),
            ChanceWon(Roll(1, 5), 7),
        ]
        partial, _ = replay(BRITANNICA, WORKED_EXAMPLE[:2])
        assert (partial.phase, partial.main, partial.chance) == (Phase.CHANCE, 7, 6)

    def test_dump_refuses_a_round_that_cannot_be_played(self) -> None:
        with pytest.raises(IllegalError, match="illegal throw 3-4 in round \\(no main yet\\)"):
            dump_round(BRITANNICA, [Roll(3, 4)])
        with pytest.raises(IllegalError, match="the round is over"):
            dump_round(BRITANNICA, [Call(7), Roll(3, 4), Roll(3, 4)])

    def test_blank_lines_are_ignored(self) -> None:
        text = dump_round(BRITANNICA, WORKED_EXAMPLE).replace("\n", "\n\n")
        assert load_round(text) == ("britannica-1911", WORKED_EXAMPLE)

    def test_ruleset_id_is_not_checked_on_load(self) -> None:
        # A record names its ruleset by id or path; resolving it is the caller's job.
        text = '{"format": "hazard-round/1", "ruleset": "my-rules.toml"}\n{"action": "3-4"}\n'
        assert load_round(text) == ("my-rules.toml", [Roll(3, 4)])

    @settings(max_examples=50, deadline=None)
    @given(st.sampled_from(builtin_rulesets()), st.randoms(use_true_random=False))
    def test_round_trip_of_random_rounds(self, ruleset: Ruleset, rng: random.Random) -> None:
        state = new_round(ruleset)
        actions: list[Action] = []
        while not state.is_over and len(actions) < 200:
            action = rng.choice(legal_actions(state))
            state, _ = apply(state, action)
            actions.append(action)
        ident, loaded = load_round(dump_round(ruleset, actions))
        assert ident == ruleset.id
        assert loaded == actions
        assert replay(find_ruleset(ident), loaded)[0] == state


HEADER = '{"format": "hazard-round/1", "ruleset": "craps"}'


class TestCorruptRecord:
    @pytest.mark.parametrize(
        ("text", "message"),
        [
            pytest.param("", "invalid round record: it is empty; expected a header line", id="empty"),
            pytest.param(
                " \n\n\t\n", "invalid round record: it is empty; expected a header line", id="blank"
            ),
            pytest.param(
                '{"format": "hazard-round/2", "ruleset": "craps"}\n',
                'invalid round record: line 1 is \'{"format": "hazard-round/2", "ruleset": "craps"}\'; '
                'expected {"format": "hazard-round/1", "ruleset": ID}',
                id="other-version",
            ),
            pytest.param(
                '{"ruleset": "craps"}\n',
                'invalid round record: line 1 is \'{"ruleset": "craps"}\'; expected {"format"',
                id="no-format",
            ),
            pytest.param(
                '{"format": "hazard-round/1"}\n', "invalid round record: line 1 is", id="no-ruleset"
            ),
            pytest.param(
                '{"format": "hazard-round/1", "ruleset": 7}\n',
                "invalid round record: line 1 is",
                id="ruleset-not-text",
            ),
            pytest.param(
                '{"action": "3-4"}\n', 'invalid round record: line 1 is \'{"action": "3-4"}\'', id="no-header"
            ),
            pytest.param(
                "ruleset,action\ncraps,3-4\n",
                "invalid round record: line 1 is not JSON: 'ruleset,action'",
                id="foreign-csv",
            ),
            pytest.param(
                '[Event "Casual game"]\n1. e4 e5\n',
                "invalid round record: line 1 is not JSON",
                id="foreign-pgn",
            ),
            pytest.param("[1, 2]\n", "invalid round record: line 1 is not a JSON object", id="header-array"),
            pytest.param(
                HEADER + '\n{"action": "3-4"}\n{"action": "3-4"\n',
                'invalid round record: line 3 is not JSON: \'{"action": "3-4"\'',
                id="non-json-line",
            ),
            pytest.param(
                HEADER + '\n"3-4"\n',
                "invalid round record: line 2 is not a JSON object",
                id="line-not-object",
            ),
            pytest.param(
                HEADER + '\n{"action": "3-4", "by": "me"}\n',
                'invalid round record: line 2 is \'{"action": "3-4", "by": "me"}\'; '
                'expected {"action": TEXT}',
                id="unknown-key",
            ),
            pytest.param(
                HEADER + '\n{"throw": "3-4"}\n',
                'invalid round record: line 2 is \'{"throw": "3-4"}\'; expected {"action": TEXT}',
                id="wrong-key",
            ),
            pytest.param(HEADER + '\n{"action": 34}\n', 'expected {"action": TEXT}', id="action-not-text"),
            pytest.param(
                HEADER + '\n{"action": "3-4"}\n{"action": "7-1"}\n',
                "invalid round record: line 3: invalid action '7-1': "
                "expected 'call N' for a main or a throw such as '3-4'",
                id="bad-roll",
            ),
            pytest.param(
                HEADER + '\n{"action": "fold"}\n',
                "invalid round record: line 2: invalid action 'fold'",
                id="bad-action",
            ),
        ],
    )
    def test_refused(self, text: str, message: str) -> None:
        with pytest.raises(InvalidError) as info:
            load_round(text)
        assert message in str(info.value)

    def test_line_numbers_count_blank_lines(self) -> None:
        # The message points at the line as an editor numbers it.
        text = HEADER + '\n\n{"action": "3-4"}\n\n{"action": "7-1"}\n'
        with pytest.raises(InvalidError, match="line 5: invalid action '7-1'"):
            load_round(text)

    def test_refused_whole(self) -> None:
        # A corrupt last line refuses the record: no partial list of actions comes back.
        text = dump_round(BRITANNICA, WORKED_EXAMPLE) + "garbage\n"
        with pytest.raises(InvalidError, match="line 6 is not JSON"):
            load_round(text)


def test_a_header_with_extra_keys_is_refused() -> None:
    text = '{"format": "hazard-round/1", "ruleset": "craps", "extra": 1}\n{"action": "3-4"}\n'
    with pytest.raises(InvalidError, match="line 1"):
        load_round(text)
