"""Adding an action to every table is one class and one handler: a toy one, offered among a seat's choices,
played at the terminal, through the web's JSON API and by its button on the table's page, then taken away
again."""

from __future__ import annotations

import html
import re
from collections.abc import Iterator
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from tests.commandline import feed, run

from hazard.core.rulesets import find_ruleset
from hazard.table import (
    REFEREE,
    ActionType,
    Actor,
    Choices,
    GameStore,
    HandlerContext,
    HelpLine,
    IllegalError,
    Reader,
    Table,
    action_forms,
    action_from_json,
    action_text,
    action_to_json,
    apply_action,
    choices,
    is_verb,
    name_text,
    new_table,
    parse_action,
    register_action,
    table_paytable,
    unregister_action,
)
from hazard.table import Sit as BuiltInSit
from hazard.table import Stake as BuiltInStake

TOASTS: list[tuple[str, str]] = []
"""What the toy handler was asked to play: who toasted, and to what (a probe of the test's: a real handler
changes nothing but the table, since a seat's choices are tried through it)."""


@dataclass(frozen=True, slots=True)
class Toast(ActionType):
    """``player`` raises a glass ``to`` something: the table is unchanged."""

    VERB = "toast"
    USAGE = "toast [NAME] WORDS, e.g. toast good luck"
    NAMED_USAGE = "toast NAME WORDS, e.g. toast Ann good luck"
    PLAY_HELP = (HelpLine("toast WORDS", "raise a glass, e.g. toast good luck"),)
    REFEREE_HELP = (HelpLine("toast NAME WORDS", "NAME raises a glass"),)

    player: str
    to: str

    def text(self, amount: Any) -> str:
        return f"toast {name_text(self.player)} {self.to}"

    @classmethod
    def parse(cls, read: Reader) -> Toast:
        if not read.rest:
            raise read.fail()
        if read.by.is_referee:
            name, words = read.name_then(read.rest)
            if not words:
                raise read.fail()
            return Toast(name, words)
        # The text form names the player (toast Ann good luck), as a page's button sends it.
        me, words = read.me(), read.rest
        named = f"{name_text(me)} "
        return Toast(me, words[len(named) :] if words.lower().startswith(named.lower()) else words)

    @classmethod
    def offers(cls, table: Table, player: str) -> tuple[Toast, ...]:
        return (Toast(player, "health & <luck>"),)


def toast(table: Table, action: Toast, context: HandlerContext) -> tuple[Table, tuple[()]]:
    if action.player == table.caster and table.round_begun:
        raise IllegalError(f"illegal {action_text(action)} at the {table}: the caster toasts between rounds")
    TOASTS.append((action.player, action.to))
    return table, ()


@pytest.fixture
def toasting() -> Iterator[None]:
    TOASTS.clear()
    register_action(Toast, toast)
    try:
        yield
    finally:
        unregister_action(Toast)


def test_a_registered_action_is_read_written_and_stored_as_the_built_in_ones_are(toasting: None) -> None:
    action = parse_action("toast good   luck", by=Actor.player("Ann"))
    assert action == Toast("Ann", "good luck")
    assert parse_action('toast "Ann Lee" luck', by=REFEREE) == Toast("Ann Lee", "luck")
    assert action_text(action) == "toast Ann good luck"
    assert action_to_json(action) == {"type": "toast", "player": "Ann", "to": "good luck"}
    assert action_from_json(action_to_json(action)) == action
    assert is_verb("Toast")
    with pytest.raises(ValueError, match=r"^invalid command 'toast': expected toast NAME WORDS"):
        parse_action("toast", by=REFEREE)


def test_a_toy_action_is_offered_where_the_table_accepts_it(toasting: None) -> None:
    rules = find_ruleset("wikipedia")
    table = new_table(rules, table_paytable(rules)[0])
    for name in ("Ann", "Bob"):
        table, _ = apply_action(table, BuiltInSit(name, Fraction(100)), by=Actor.player(name))
    assert choices(table, "Bob").others == (Toast("Bob", "health & <luck>"),)
    assert choices(table, "Zed") == Choices()
    table, _ = apply_action(table, parse_action("call 7", by=Actor.player("Ann")), by=Actor.player("Ann"))
    assert choices(table, "Ann").others == ()  # the handler refuses it: not offered
    assert choices(table, "Bob").others == (Toast("Bob", "health & <luck>"),)


def test_a_toy_action_is_played_at_the_terminal(
    toasting: None, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    db = str(tmp_path / "games.db")
    feed(monkeypatch, ["help", "toast good luck", "quit"])
    code, out, err = run(capsys, "play", "--seed", "1", "--db", db)
    assert code == 0, err
    assert "  toast WORDS                     raise a glass, e.g. toast good luck" in out
    assert TOASTS == [("Ann", "good luck")]
    store = GameStore.open(db)
    try:
        entries = store.load(1).entries
    finally:
        store.close()
    assert entries[-1].item == Toast("Ann", "good luck")


def test_a_toy_action_is_played_through_the_web_api(toasting: None, tmp_path: Path) -> None:
    pytest.importorskip("fastapi")
    from fastapi.testclient import TestClient
    from tests.web.helpers import Table as WebTable

    from hazard.web import Limits, WebConfig, create_app

    limits = Limits(seat_rate=1e6, seat_burst=1e6)
    with TestClient(create_app(WebConfig(db=str(tmp_path / "games.db"), poll=0.05, limits=limits))) as client:
        client.headers["origin"] = "http://testserver"
        table = WebTable(client, dice="typed")
        table.join("Ann")
        done = table.ok("Ann", "toast good luck")
        assert TOASTS[-1] == ("Ann", "good luck"), done
        entries = client.get(f"/api/tables/{table.id}/entries").json()
        assert "toast Ann good luck" in str(entries)


def test_a_toy_action_has_a_button_on_the_seats_page_that_plays_it(toasting: None, tmp_path: Path) -> None:
    pytest.importorskip("fastapi")
    from fastapi.testclient import TestClient
    from tests.web.helpers import Table as WebTable

    from hazard.web import Limits, WebConfig, create_app

    limits = Limits(seat_rate=1e6, seat_burst=1e6)
    with TestClient(create_app(WebConfig(db=str(tmp_path / "games.db"), poll=0.05, limits=limits))) as client:
        client.headers["origin"] = "http://testserver"
        table = WebTable(client, dice="typed")
        table.join("Ann")
        table.join("Bob")
        assert "toast" not in client.get(f"/tables/{table.id}/view").text  # a spectator is offered nothing
        client.cookies.set(f"hazard_seat_{table.id}", table.tokens["Bob"])
        page = client.get(f"/tables/{table.id}").text
        shown = "toast Bob health &amp; &lt;luck&gt;"  # its command, escaped
        assert f'<button type="button" data-action="{shown}">{shown}</button>' in page
        assert "<luck>" not in page
        sent = html.unescape(re.findall(r'data-action="(toast [^"]*)"', page)[0])
        table.ok("Bob", sent)  # as the page's script sends a button's action
        assert TOASTS[-1] == ("Bob", "health & <luck>")
        entries = client.get(f"/api/tables/{table.id}/entries").json()
        assert "toast Bob health & <luck>" in str(entries)
        table.ok("Ann", "call 7")
        view = client.get(f"/tables/{table.id}/view").text
        assert 'data-action="toast' in view  # Bob may toast in Ann's round
        client.cookies.set(f"hazard_seat_{table.id}", table.tokens["Ann"])
        view = client.get(f"/tables/{table.id}/view").text
        assert 'data-action="throw"' in view
        assert 'data-action="toast' not in view  # the caster toasts between rounds


def test_unregistered_the_toy_action_is_gone() -> None:
    assert "toast" not in [form.verb for form in action_forms()]
    assert not is_verb("toast")


def test_an_action_type_is_registered_once_and_no_verb_twice(toasting: None) -> None:
    with pytest.raises(ValueError, match=r"^invalid action type Toast: it is registered already"):
        register_action(Toast, toast)

    @dataclass(frozen=True, slots=True)
    class Stake(Toast):
        VERB = "stake"

    with pytest.raises(ValueError, match=r"^invalid action type Stake \(verb 'stake'\)"):
        register_action(Stake, toast)
    assert parse_action("stake 5", by=Actor.player("Ann")) == BuiltInStake("Ann", Fraction(5))
