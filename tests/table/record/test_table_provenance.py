"""Forgery (issue 19, finding 11): an export carries the record's hash chain and the server's signature on
each reveal, and ``hazard verify`` recomputes the one and checks the other.

Attacks: an export rebuilt whole, a throw changed and the chain recomputed, without the server's private
key; an entry changed without recomputing the digests; what an entry shows changed but not what it stored; a
signature moved to another hand; a reveal's signature stripped; the export re-signed with a key of the
forger's own (consistent, so it passes without a pinned key, and fails against the server's); everything
stripped (passes, with a plain warning; fails against the server's key).
"""

from __future__ import annotations

import copy
import json
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from tests.commandline import run

from hazard.core.rulesets import find_ruleset
from hazard.table import (
    Actor,
    DiceKind,
    GameStore,
    Session,
    Sit,
    TableSpec,
    game_json,
    load_game,
    table_paytable,
)
from hazard.table.fair.serverkeys import ServerKeys
from hazard.table.fair.signing import RevealSigner, reveal_message
from hazard.table.record.chain import entry_digest, setup_digest
from hazard.table.record.provenance import check_provenance
from hazard.table.rules.state import Need


def _played(tmp_path: Path, hands: int = 3) -> tuple[dict[str, Any], bytes]:
    """A game of fair dice whose first ``hands`` hands are revealed and the next is in play, as exported;
    and the server's public key."""
    keys = ServerKeys.in_folder(tmp_path / "keys")
    store = GameStore.open(str(tmp_path / "games.db"), keys=keys)
    rules = find_ruleset("wikipedia")
    session = Session.start(
        store,
        TableSpec(rules, table_paytable(rules)[0], dice=DiceKind.FAIR),
        seats=[Sit("Ann", Fraction(1000)), Sit("Bob", Fraction(1000))],
    )
    for _ in range(5000):
        if session.fair is not None and session.fair.revealed and session.fair.revealed.number >= hands:
            break
        caster = Actor.player(session.table.caster or "")
        if session.table.turn.need is Need.CALL:
            session.act("call 7", by=caster)
        session.act("throw", by=caster)
    data = json.loads(json.dumps(game_json(load_game(store, session.game))))
    store.close()
    return data, keys.signer().public_key


Played = tuple[dict[str, Any], bytes]
"""A game's export and the server's public key."""


@pytest.fixture(scope="module")
def played_once(tmp_path_factory: pytest.TempPathFactory) -> Played:
    """One game for the module (a fair game of three hands takes a second to play, and every test here
    asks only what is done to its export)."""
    return _played(tmp_path_factory.mktemp("played"))


@pytest.fixture
def played(played_once: Played) -> Played:
    """The module's game, a copy of its own for each test to change."""
    data, public = played_once
    return copy.deepcopy(data), public


def _reveals(data: dict[str, Any]) -> list[dict[str, Any]]:
    return [line for line in data["entries"] if line["entry"]["type"] == "reveal"]


def _reseal(data: dict[str, Any]) -> None:
    """Recompute every digest and the head over what the export's entries now store, as a forger would."""
    chain = data["chain"]
    digest = setup_digest(chain["setup"])
    chain["setup_digest"] = digest
    for line in data["entries"]:
        digest = entry_digest(digest, line["seq"], line["at"], line["stored"])
        line["digest"] = digest
    chain["head"], chain["entries"] = digest, len(data["entries"])


def _change_throw(data: dict[str, Any]) -> None:
    """The first throw of the game shows another roll: in its entry, its stored text and its hand."""
    line = next(line for line in data["entries"] if line["entry"]["type"] == "throw")
    old = line["entry"]["roll"]
    new = "6-6" if old != "6-6" else "1-1"
    line["entry"]["roll"] = new
    stored = json.loads(line["stored"])
    stored["action"]["roll"] = new
    line["stored"] = json.dumps(stored, sort_keys=True)
    for hand in data["hands"]:
        for throw in hand["throws"]:
            if throw["entry"] == line["seq"]:
                throw["roll"] = new


def test_a_whole_export_carries_its_chain_and_every_reveal_signed(played: Played) -> None:
    data, public = played
    reveals = _reveals(data)
    assert len(reveals) >= 3
    assert all(len(line["signature"]) == 128 for line in reveals)
    assert data["signing"]["public_key"] == public.hex()
    assert all(len(line["digest"]) == 64 for line in data["entries"])
    found = check_provenance(data)
    assert found.ok, found.problem
    assert [seq for _, seq in found.signed] == [line["seq"] for line in reveals]
    assert check_provenance(data, public).ok
    assert any("compare its fingerprint" in line for line in found.lines())  # the export's own key only


def test_an_export_rebuilt_whole_without_the_servers_key_fails_on_its_signatures(played: Played) -> None:
    data, _public = played
    _change_throw(data)
    _reseal(data)
    found = check_provenance(data)
    assert not found.ok
    assert found.problem is not None
    assert "its signature does not verify" in found.problem


def test_a_forger_who_signs_with_his_own_key_is_consistent_but_not_the_server(played: Played) -> None:
    data, public = played
    _change_throw(data)
    _reseal(data)
    forger = RevealSigner(bytes(range(32)))
    for line in _reveals(data):
        line["signature"] = forger.sign(
            data["game"]["id"], line["entry"]["hand"], line["seq"], line["digest"]
        )
    data["signing"]["public_key"] = forger.public_key.hex()
    alone = check_provenance(data)
    assert alone.ok  # what the warning says: the export's own key shows only that it is consistent
    assert any(
        "warning: the signatures were checked with the key the export carries" in x for x in alone.lines()
    )
    pinned = check_provenance(data, public)
    assert pinned.problem is not None
    assert "does not verify with the key you gave" in pinned.problem


def test_an_entry_changed_without_recomputing_the_chain_fails_on_the_chain(played: Played) -> None:
    data, _ = played
    shown_only = copy.deepcopy(data)
    _change_throw(data)
    found = check_provenance(data)
    assert found.problem is not None
    assert "does not follow from the entries before it" in found.problem
    line = next(line for line in shown_only["entries"] if line["entry"]["type"] == "throw")
    line["entry"]["roll"] = "6-6" if line["entry"]["roll"] != "6-6" else "1-1"  # the stored text kept
    found = check_provenance(shown_only)
    assert found.problem is not None
    assert "is not what the record stored" in found.problem


def test_a_signature_moved_to_another_hand_fails(played: Played) -> None:
    data, _ = played
    onto_a_throw = copy.deepcopy(data)
    first, second = _reveals(data)[:2]
    first["signature"], second["signature"] = second["signature"], first["signature"]
    found = check_provenance(data)
    assert found.problem is not None
    assert f"entry {first['seq']}, the reveal of hand {first['entry']['hand']}" in found.problem
    throw = next(line for line in onto_a_throw["entries"] if line["entry"]["type"] == "throw")
    throw["signature"] = _reveals(onto_a_throw)[0]["signature"]
    assert "only a reveal is signed" in str(check_provenance(onto_a_throw).problem)


def test_a_reveal_whose_signature_is_stripped_fails(played: Played) -> None:
    data, _ = played
    del _reveals(data)[-1]["signature"]
    assert "is not signed, though the reveals before it are" in str(check_provenance(data).problem)


def test_an_export_stripped_of_its_seal_passes_with_a_warning_and_fails_against_the_servers_key(
    played: Played,
) -> None:
    data, public = played
    stripped = copy.deepcopy(data)
    stripped["chain"] = stripped["signing"] = None
    for line in stripped["entries"]:
        for name in ("stored", "digest", "signature"):
            line.pop(name, None)
    alone = check_provenance(stripped)
    assert alone.ok
    assert alone.lines()[0].startswith("warning: this export carries no chain digests and no signatures")
    assert "nothing in it is signed by the key you gave" in str(check_provenance(stripped, public).problem)


def test_the_signed_message_names_game_hand_entry_and_digest() -> None:
    assert (
        reveal_message(3, 2, 17, "ab" * 32)
        == f"hazard reveal/1 game 3 hand 2 entry 17 digest {'ab' * 32}".encode()
    )


# --- hazard verify FILE [--key] -----------------------------------------------------------------------------


def test_hazard_verify_checks_the_seal_and_a_pinned_key(
    played: Played, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    data, public = played
    path = tmp_path / "game.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    code, out, _ = run(capsys, "verify", str(path))
    assert code == 0, out
    assert any(line.startswith("record: the setup and ") for line in out.splitlines())
    assert "warning: the signatures were checked with the key the export carries" in out
    code, out, _ = run(capsys, "verify", str(path), "--key", public.hex())
    assert code == 0, out
    assert "each verified with the key you gave" in out
    assert "warning: the signatures" not in out
    key_file = tmp_path / "server.key"
    key_file.write_text(data["signing"]["public_key_base64"] + "\n", encoding="utf-8")
    assert run(capsys, "verify", str(path), "--key", str(key_file))[0] == 0
    other = RevealSigner(bytes(32)).public_key.hex()
    code, out, _ = run(capsys, "verify", str(path), "--key", other)
    assert code == 1
    assert out.splitlines()[-1].startswith("not verified: entry ")
    assert "does not verify with the key you gave" in out
    _change_throw(data)
    _reseal(data)
    path.write_text(json.dumps(data), encoding="utf-8")
    code, out, _ = run(capsys, "verify", str(path))
    assert code == 1
    assert "its signature does not verify" in out.splitlines()[-1]


def test_a_key_that_is_none_is_one_error_line(
    played: Played, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    data, _ = played
    path = tmp_path / "game.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    code, _, err = run(capsys, "verify", str(path), "--key", "zz" * 32)
    assert code == 2
    assert "invalid public key in --key" in err
    code, _, err = run(capsys, "verify", str(path), "--key", str(tmp_path / "no-such-file"))
    assert code == 2
    assert "no-such-file" in err


# --- the reference verifier of docs/fairness.md, on the same exports ---------------------------------------


def test_the_reference_verifier_checks_the_chain_and_the_signatures(played: Played, tmp_path: Path) -> None:
    import subprocess
    import sys

    from tests.cli.test_cli_verify import _reference_source

    script = tmp_path / "verify_fair.py"
    script.write_text(_reference_source(), encoding="utf-8")

    def reference(data: dict[str, Any], *key: str) -> tuple[int, str]:
        path = tmp_path / "game.json"
        path.write_text(json.dumps(data), encoding="utf-8")
        done = subprocess.run(
            [sys.executable, str(script), str(path), *key],
            capture_output=True,
            text=True,
            check=False,
            timeout=60,
        )
        assert "Traceback" not in done.stderr, done.stderr
        return done.returncode, done.stdout + done.stderr

    whole, public = played
    code, out = reference(whole)
    assert code == 0, out
    assert f"record: chain verified; {len(_reveals(whole))} reveals signed by {public.hex()}" in out
    assert reference(whole, RevealSigner(bytes(32)).public_key.hex())[0] == 1  # not the server's key
    rebuilt = copy.deepcopy(whole)
    _change_throw(rebuilt)
    _reseal(rebuilt)
    assert reference(rebuilt) == (1, reference(rebuilt)[1])
    assert "its signature is not the key's" in reference(rebuilt)[1]
    changed = copy.deepcopy(whole)
    _change_throw(changed)
    assert "does not follow from the entries before it" in reference(changed)[1]
    moved = copy.deepcopy(whole)
    first, second = _reveals(moved)[:2]
    first["signature"], second["signature"] = second["signature"], first["signature"]
    assert reference(moved)[0] == 1
