"""What every test shares: a key folder of its own, so that no test reads or makes the keys of the user who
runs the suite (the server's seed-sealing and reveal-signing keys, hazard.table.fair.serverkeys); a PostgreSQL
database for each worker; and the record's fixtures (``db``, ``db_url``, ``store``, ``postgres_url``,
``database``), defined here once."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

if TYPE_CHECKING:
    from hazard.table import GameStore

NEEDS_POSTGRES = "needs a PostgreSQL server (HAZARD_TEST_DATABASE_URL; .ci/run starts one)"


@pytest.fixture(autouse=True, scope="session")
def _key_folder(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """Every process the suite starts inherits it too (``HAZARD_KEY_DIR``)."""
    folder = tmp_path_factory.mktemp("keys")
    before = os.environ.get("HAZARD_KEY_DIR")
    os.environ["HAZARD_KEY_DIR"] = str(folder)
    yield
    if before is None:
        os.environ.pop("HAZARD_KEY_DIR", None)
    else:
        os.environ["HAZARD_KEY_DIR"] = before


def _database_of_this_worker() -> None:
    """Under ``pytest -n`` (``make unit`` runs the suite on every core), each worker gets a PostgreSQL
    database of its own beside ``HAZARD_TEST_DATABASE_URL``'s (its name with ``_gw0``, ``_gw1``, ...), made
    if need be, so that two workers' record tests never share a database. Done as the suite is collected,
    before any test reads the variable."""
    worker = os.environ.get("PYTEST_XDIST_WORKER")
    url = os.environ.get("HAZARD_TEST_DATABASE_URL")
    if not worker or not url or not url.startswith("postgresql"):
        return
    import psycopg
    import sqlalchemy as sa

    parsed = sa.engine.make_url(url)
    name = f"{parsed.database}_{worker}"
    plain = parsed.set(drivername="postgresql").render_as_string(hide_password=False)
    with psycopg.connect(plain, autocommit=True) as connection:
        there = connection.execute("SELECT 1 FROM pg_database WHERE datname = %s", (name,)).fetchone()
        if there is None:
            connection.execute(f'CREATE DATABASE "{name}"')
    os.environ["HAZARD_TEST_DATABASE_URL"] = parsed.set(database=name).render_as_string(hide_password=False)


_database_of_this_worker()


@pytest.fixture
def db(tmp_path: Path) -> Path:
    """Where a fresh SQLite record goes (not made yet: the first ``GameStore.open`` makes it)."""
    return tmp_path / "games.db"


@pytest.fixture
def db_url(db: Path) -> str:
    """The same record as ``db``, as the text ``--db`` and ``WebConfig(db=...)`` take."""
    return str(db)


@pytest.fixture
def store(db: Path) -> Iterator[GameStore]:
    """A store open on the fresh SQLite record ``db``, closed after the test."""
    from hazard.table import GameStore

    opened = GameStore.open(str(db))
    yield opened
    opened.close()


@pytest.fixture
def postgres_url() -> str:
    """The suite's PostgreSQL database (this worker's), or the test is skipped where it is given none."""
    url = os.environ.get("HAZARD_TEST_DATABASE_URL")
    if url is None:
        pytest.skip(NEEDS_POSTGRES)
    return url


@pytest.fixture(params=["sqlite", "postgresql"])
def database(request: pytest.FixtureRequest, db: Path) -> str:
    """A record to write to: the fresh SQLite file ``db``, then PostgreSQL where the suite is given one."""
    if request.param == "sqlite":
        return str(db)
    url: str = request.getfixturevalue("postgres_url")
    return url
