"""The record's stored rows fuzzed: a damaged record is refused with one clear error or read as it was."""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import sqlite3
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from tests.records import reseal, rows, sql
from tests.table.record.record_helpers import EVERY_ACTION, new_game

from hazard.core.errors import HazardError
from hazard.table.live.timeline import ReplayedGame, load_game
from hazard.table.record.engine import Access
from hazard.table.record.store import GameStore

# --- fuzzing the stored rows -------------------------------------------------------------------------------

_HOSTILE = st.one_of(
    st.text(max_size=40),
    st.integers(min_value=-(2**63), max_value=2**63 - 1),
    st.binary(max_size=20),
    st.none(),
    st.sampled_from(
        [
            "[" * 5000,
            '{"actor": ' * 3000,
            "9" * 5000,
            '{"kind": "referee"}',
            json.dumps(
                {
                    "actor": {"kind": "referee"},
                    "action": {"type": "sit", "name": "Ned", "bankroll": "1e999999999", "bot": None},
                }
            ),
            json.dumps(
                {
                    "actor": {"kind": "referee"},
                    "action": {"type": "sit", "name": "Ned", "bankroll": "9" * 40 + "/1", "bot": None},
                }
            ),
            json.dumps(
                {
                    "actor": {"kind": "referee"},
                    "action": {"type": "stake", "player": "Ben", "amount": "1/" + "7" * 40, "consent": False},
                }
            ),
            json.dumps({"actor": {"kind": "player", "name": "\x1b[31mBen"}, "action": {"type": "pass-dice"}}),
            'id = "x"\npaytable = "/dev/zero"\n',
            "a = " + "[" * 1000 + "]" * 1000,
            "",
        ]
    ),
)


@st.composite
def damages(draw: st.DrawFn) -> tuple[str, ...]:
    """One way a record's rows might be damaged: a field replaced, a character flipped, a row cut or added."""
    kind = draw(st.sampled_from(["entry field", "game field", "flip", "delete", "duplicate"]))
    if kind == "entry field":
        return (kind, draw(st.sampled_from(["at", "data", "digest", "seq"])), draw(st.integers(1, 13)))
    if kind == "game field":
        columns = ["format", "created", "label", "kind", "ruleset", "paytable", "stakes", "dice", "seed"]
        return (kind, draw(st.sampled_from([*columns, "settings", "entries", "head"])), 0)
    return (kind, "", draw(st.integers(1, 13)))


@pytest.mark.slow
@settings(
    max_examples=int(os.environ.get("HAZARD_FUZZ_EXAMPLES", "150")),
    derandomize=True,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(damage=damages(), value=_HOSTILE, resealed=st.booleans(), place=st.integers(0, 10_000))
def test_a_damaged_record_is_refused_with_one_clear_error_or_read_as_it_was(
    tmp_path_factory: pytest.TempPathFactory,
    damage: tuple[str, str, int],
    value: object,
    resealed: bool,
    place: int,
) -> None:
    """Whatever is done to the stored rows, a load gives the game as it was written, or refuses it whole with
    one line naming what is wrong: never another error, never a game that differs."""
    folder = tmp_path_factory.mktemp("fuzz")
    db = folder / "games.db"
    game, whole = _fuzz_template(tmp_path_factory, db)
    kind, column, seq = damage
    try:
        if kind == "entry field":
            sql(db, f"UPDATE hazard_entries SET {column} = ? WHERE seq = ?", value, seq)
        elif kind == "game field":
            table = "hazard_heads" if column in ("entries", "head") else "hazard_games"
            sql(db, f"UPDATE {table} SET {column} = ?", value)
        elif kind == "flip":
            (data,) = rows(db, f"SELECT data FROM hazard_entries WHERE seq = {seq}")[0]
            text = str(data)
            at = place % len(text)
            flipped = text[:at] + chr(ord(text[at]) ^ (1 + place % 7)) + text[at + 1 :]
            sql(db, "UPDATE hazard_entries SET data = ? WHERE seq = ?", flipped, seq)
        elif kind == "delete":
            sql(db, "DELETE FROM hazard_entries WHERE seq = ?", seq)
        else:
            sql(
                db,
                "INSERT INTO hazard_entries (game, seq, at, data, digest) "
                "SELECT game, 100, at, data, digest FROM hazard_entries WHERE seq = ?",
                seq,
            )
    except sqlite3.IntegrityError:  # the database itself refused the damage (a NULL where none may go)
        return
    if resealed:
        with contextlib.suppress(Exception):  # some damage (a text where a number goes) cannot be resealed
            reseal(db)
    for access in (Access.CREATE, Access.READ):
        try:
            reader = GameStore.open(str(db), access=access)
            reader.games()
            loaded = load_game(reader, game)
        except HazardError as error:
            message = str(error)
            assert "\n" not in message, message
            assert len(message) < 1000, message
            assert "Traceback" not in message
        else:
            if not resealed:
                assert loaded.table == whole.table
                assert [(e.actor, e.item) for e in loaded.entries] == [
                    (e.actor, e.item) for e in whole.entries
                ]
            reader.close()


_TEMPLATE: list[tuple[Path, int, ReplayedGame]] = []


def _fuzz_template(factory: pytest.TempPathFactory, db: Path) -> tuple[int, ReplayedGame]:
    """A copy at ``db`` of one record holding a game of every action, and that game as read back (written and
    read once, the file copied for each case: each copy is the same bytes, so it reads back the same)."""
    if not _TEMPLATE:
        template = factory.mktemp("template") / "games.db"
        store = GameStore.open(str(template))
        new_game(store, EVERY_ACTION)
        store.close()
        store = GameStore.open(str(template), access=Access.READ)
        (summary,) = store.games()
        _TEMPLATE.append((template, summary.id, load_game(store, summary.id)))
        store.close()
    template, game, whole = _TEMPLATE[0]
    shutil.copyfile(template, db)
    return game, whole
