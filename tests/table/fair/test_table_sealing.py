"""The fair dice's kept seeds at rest: sealed with a key the database never holds (issue 19, finding 10).

Attacks: a read-only copy of the record's SQLite file, read with sqlite3 and as bytes, must not predict a
throw of the hand in play; the same record under another key is refused plainly; a sealed seed moved to
another hand does not open; records of the release before sealing still load, resume, and are sealed when a
writer opens them; key files that others may read are refused.
"""

from __future__ import annotations

import base64
import contextlib
import os
import shutil
import sqlite3
import stat
import uuid
from fractions import Fraction
from pathlib import Path

import pytest
from tests.paths import FIXTURES

from hazard.core.dice import Roll
from hazard.core.errors import InvalidError
from hazard.core.rulesets import find_ruleset
from hazard.table import (
    Access,
    Actor,
    DiceKind,
    GameKind,
    GameStore,
    Session,
    Sit,
    TableSpec,
    commitment,
    load_game,
    table_paytable,
)
from hazard.table.fair.commit_reveal import fair_throw
from hazard.table.fair.serverkeys import SEALING, ServerKeys
from hazard.table.rules.state import Need

CLEAR_SEEDS = FIXTURES / "clear-seeds" / "games.db"
"""A record written by the release before sealing (hazard_secrets.seed VARCHAR(64), in clear): game 1, two
players, hand 2 in play with three throws; its live seed is the one below."""
CLEAR_LIVE_SEED = "ffb6d1bae9c2e352efb8f6a29548d20a84f49b64db631e27ee8f588deb8e9abc"


def _start(store: GameStore) -> Session:
    rules = find_ruleset("wikipedia")
    return Session.start(
        store,
        TableSpec(rules, table_paytable(rules)[0], dice=DiceKind.FAIR),
        seats=[Sit("Ann", Fraction(1000)), Sit("Bob", Fraction(1000))],
    )


def _throw(session: Session) -> None:
    caster = Actor.player(session.table.caster or "")
    if session.table.turn.need is Need.CALL:
        session.act("call 7", by=caster)
    session.act("throw", by=caster)


def _mid_hand(session: Session, hand: int = 2, throws: int = 2) -> None:
    """Play until hand ``hand`` is in play with ``throws`` throws (its seed kept, not yet revealed)."""
    for _ in range(3000):
        current = session.fair.current if session.fair else None
        if current is not None and current.number >= hand and len(current.throws) >= throws:
            return
        _throw(session)
    raise AssertionError("the hand never came")


def _file_bytes(db: Path) -> bytes:
    """Everything the record's files hold: the database, and any journal or log beside it."""
    return b"".join(p.read_bytes() for p in db.parent.glob(db.name + "*"))


def _forms(seed: bytes) -> list[bytes]:
    text = seed.hex()
    return [
        seed,
        text.encode(),
        text.upper().encode(),
        base64.b64encode(seed),
        base64.urlsafe_b64encode(seed).rstrip(b"="),
        text.encode("utf-16-le"),
    ]


def _keys(tmp_path: Path, name: str = "keys") -> ServerKeys:
    return ServerKeys.in_folder(tmp_path / name)


def test_a_copy_of_the_database_predicts_no_throw_of_the_hand_in_play(tmp_path: Path) -> None:
    db = tmp_path / "games.db"
    store = GameStore.open(str(db), keys=_keys(tmp_path))
    session = _start(store)
    _mid_hand(session)
    assert session.secret is not None
    assert session.fair is not None
    live, hand = session.secret, session.fair.current
    assert hand is not None
    copy = tmp_path / "copy.db"
    shutil.copy(db, copy)  # what a backup, a replica or a curious reader has
    raw = _file_bytes(db) + copy.read_bytes()
    for form in _forms(live):
        assert form not in raw, form
    # Every value the copy's secrets table holds, read as a seed every way it might be written: none is the
    # hand's (its commitment says which is), and none gives the hand's next throw.
    connection = sqlite3.connect(f"file:{copy}?mode=ro", uri=True)
    kept = [row[0] for row in connection.execute("SELECT seed FROM hazard_secrets")]
    connection.close()
    assert kept, "the seeds are kept (a resumed game needs them)"
    candidates = []
    for value in kept:
        for part in (value, *value.split(":")):
            for decode in (bytes.fromhex, base64.b64decode, base64.urlsafe_b64decode, str.encode):
                with contextlib.suppress(ValueError):
                    decoded = decode(part)
                    # every 32-byte window of it: a seed hidden inside a longer value is found too
                    candidates.extend(decoded[i : i + 32] for i in range(max(1, len(decoded) - 31)))
    assert all(commitment(c) != hand.commitment for c in candidates)
    assert live not in candidates
    # The attack itself, as it predicted 296/296 throws before: a candidate that gives the hand's throws,
    # its next twelve (which the live seed makes): a random candidate matches them by chance 36**-12, where
    # matching only the one or two thrown so far (1 in 36 each) a window of ciphertext sometimes would.
    assert hand.client_seed is not None
    coming = [fair_throw(live, hand.client_seed, n) for n in range(12)]
    assert [roll for _, _, roll in hand.throws] == coming[: len(hand.throws)]
    assert not any(
        [fair_throw(c, hand.client_seed, n) for n in range(12)] == coming for c in candidates if len(c) == 32
    )
    store.close()


def test_the_same_record_under_another_key_is_refused_and_under_its_own_resumes_exactly(
    tmp_path: Path,
) -> None:
    db = tmp_path / "games.db"
    store = GameStore.open(str(db), keys=_keys(tmp_path))
    session = _start(store)
    _mid_hand(session)
    store.close()
    stranger = GameStore.open(str(db), keys=_keys(tmp_path, "other-keys"))
    with pytest.raises(InvalidError, match="the record's secrets were sealed with another key"):
        Session.resume(stranger, session.game, kind=GameKind.PLAY)
    stranger.close()
    own = GameStore.open(str(db), keys=_keys(tmp_path))
    resumed = Session.resume(own, session.game, kind=GameKind.PLAY)
    assert resumed.secret == session.secret
    assert resumed.table == session.table
    assert resumed.fair == session.fair
    hand = session.fair.current if session.fair else None
    assert hand is not None
    assert hand.client_seed is not None
    assert session.secret is not None
    expected = fair_throw(session.secret, hand.client_seed, len(hand.throws))
    _throw(resumed)
    assert resumed.entries[-1].item == expected  # the throw the game would have made had it never stopped
    own.close()


def test_the_key_from_the_environment_is_used_and_a_malformed_one_refused(tmp_path: Path) -> None:
    key = base64.b64encode(os.urandom(32)).decode()
    keys = ServerKeys(tmp_path / "unused", {"HAZARD_SECRET_KEY": key})
    store = GameStore.open(str(tmp_path / "games.db"), keys=keys)
    session = _start(store)
    _mid_hand(session, hand=1, throws=1)
    assert not (tmp_path / "unused").exists()  # no key file made: the environment's key serves
    again = GameStore.open(str(tmp_path / "games.db"), keys=ServerKeys(None, {"HAZARD_SECRET_KEY": key}))
    assert Session.resume(again, session.game, kind=GameKind.PLAY).secret == session.secret
    bad = ServerKeys(tmp_path / "unused", {"HAZARD_SECRET_KEY": "not a key"})
    with pytest.raises(InvalidError, match="invalid key in the environment variable HAZARD_SECRET_KEY"):
        _start(GameStore.open(str(tmp_path / "other.db"), keys=bad))
    assert not (tmp_path / "other.db").exists() or GameStore.open(str(tmp_path / "other.db")).games() == []


def test_a_key_file_is_made_private_and_one_others_may_read_is_refused(tmp_path: Path) -> None:
    keys = _keys(tmp_path)
    keys.key(SEALING)
    path = tmp_path / "keys" / SEALING.file
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert stat.S_IMODE(path.parent.stat().st_mode) == 0o700
    path.chmod(0o644)
    with pytest.raises(InvalidError, match=r"its mode is 0644.*chmod 600"):
        _keys(tmp_path).key(SEALING)


def test_a_sealed_seed_moved_to_another_hand_does_not_open(tmp_path: Path) -> None:
    db = tmp_path / "games.db"
    store = GameStore.open(str(db), keys=_keys(tmp_path))
    session = _start(store)
    _mid_hand(session)
    assert session.fair is not None
    assert session.fair.current is not None
    number = session.fair.current.number
    with sqlite3.connect(db) as connection:
        connection.execute(
            "UPDATE hazard_secrets SET seed = (SELECT seed FROM hazard_secrets WHERE game = ? AND hand = 1) "
            "WHERE game = ? AND hand = ?",
            (session.game, session.game, number),
        )
    connection.close()
    with pytest.raises(InvalidError, match="moved from another game or hand"):
        Session.resume(store, session.game, kind=GameKind.PLAY)


def test_a_record_of_the_release_before_sealing_resumes_and_is_sealed_when_a_writer_opens_it(
    tmp_path: Path,
) -> None:
    db = tmp_path / "games.db"
    shutil.copy(CLEAR_SEEDS, db)
    reader = GameStore.open(str(db), access=Access.READ)
    assert load_game(reader, 1).ledger.state.current is not None  # read as it is
    reader.close()
    assert CLEAR_LIVE_SEED.encode() in db.read_bytes()
    store = GameStore.open(str(db), keys=_keys(tmp_path))  # a writer: the clear seeds are sealed now
    raw = _file_bytes(db)
    for form in _forms(bytes.fromhex(CLEAR_LIVE_SEED)):
        assert form not in raw, form
    session = Session.resume(store, 1, kind=GameKind.PLAY)
    assert session.secret == bytes.fromhex(CLEAR_LIVE_SEED)
    number = session.fair.current.number if session.fair and session.fair.current else 0
    for _ in range(3000):  # the hand goes on to its end: the seed it reveals is the one committed to
        _throw(session)
        if session.fair is not None and session.fair.revealed and session.fair.revealed.number == number:
            break
    assert session.fair is not None
    assert session.fair.revealed is not None
    assert session.fair.revealed.server_seed == CLEAR_LIVE_SEED
    store.close()


def test_clear_seeds_on_postgresql_are_sealed_when_a_writer_opens_the_record(
    postgres_url: str, tmp_path: Path
) -> None:
    """The old layout (VARCHAR(64) in clear) rebuilt in a schema of its own, then opened by a writer."""
    import sqlalchemy as sa

    base = postgres_url
    schema = f"sealing_{uuid.uuid4().hex[:8]}"
    admin = sa.create_engine(base)
    with admin.begin() as connection:
        connection.exec_driver_sql(f"CREATE SCHEMA {schema}")
    url = f"{base}?options=-csearch_path%3D{schema}"
    try:
        store = GameStore.open(url, keys=_keys(tmp_path))
        session = _start(store)
        _mid_hand(session, hand=1, throws=1)
        store.close()
        assert session.secret is not None
        engine = sa.create_engine(url)
        with engine.begin() as connection:
            connection.exec_driver_sql("DROP TABLE hazard_secrets")
            connection.exec_driver_sql(
                "CREATE TABLE hazard_secrets (game INTEGER REFERENCES hazard_games(id), hand INTEGER, "
                "seed VARCHAR(64) NOT NULL, PRIMARY KEY (game, hand))"
            )
            connection.exec_driver_sql(
                f"INSERT INTO hazard_secrets VALUES ({session.game}, 1, '{session.secret.hex()}')"
            )
        writer = GameStore.open(url, keys=_keys(tmp_path))
        with engine.connect() as connection:
            kept = connection.exec_driver_sql("SELECT seed FROM hazard_secrets").scalars().all()
        assert len(kept) == 1
        assert kept[0].startswith("hz1:")
        assert session.secret.hex() not in kept[0]
        assert Session.resume(writer, session.game, kind=GameKind.PLAY).secret == session.secret
        writer.close()
        engine.dispose()
    finally:
        with admin.begin() as connection:
            connection.exec_driver_sql(f"DROP SCHEMA {schema} CASCADE")
        admin.dispose()


def test_a_process_that_cannot_open_the_next_hands_seed_never_throws_with_the_last_ones(
    tmp_path: Path,
) -> None:
    """Two writers of one record whose keys differ (a misconfigured second server): the one that cannot open
    the new hand's seed refuses to throw, rather than throwing with the seed of the hand before."""
    db = tmp_path / "games.db"
    store = GameStore.open(str(db), keys=_keys(tmp_path))
    session = _start(store)
    _mid_hand(session, hand=1, throws=1)
    other = GameStore.open(str(db), keys=_keys(tmp_path))
    follower = Session.resume(other, session.game, kind=GameKind.PLAY)
    other.keys = _keys(tmp_path, "another-key")  # from now on it holds another key than the record's
    _mid_hand(session, hand=2, throws=0)  # the first writer reveals hand 1 and commits hand 2
    with pytest.raises(InvalidError, match="sealed with another key"):
        follower.catch_up()

    def throws() -> int:
        return sum(isinstance(entry.item, Roll) for entry in load_game(store, session.game).entries)

    before = throws()
    for _ in range(2):
        with pytest.raises(InvalidError, match="sealed with another key"):
            _throw(follower)
    assert throws() == before  # nothing thrown with hand 1's seed
