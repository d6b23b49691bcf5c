"""What every test shares: a key folder of its own, so that no test reads or makes the keys of the user who
runs the suite (the server's seed-sealing and reveal-signing keys, hazard.table.serverkeys)."""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest


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
