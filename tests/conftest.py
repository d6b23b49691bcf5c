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
