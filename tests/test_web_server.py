"""How the web table's process runs: the settings ``hazard serve`` and the load benchmark share."""

from __future__ import annotations

import gc
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import uvicorn

from hazard.web import WebConfig, create_app, run_server
from hazard.web.server import COLLECTOR_THRESHOLDS


@pytest.fixture
def collector() -> Iterator[None]:
    """Python's own collector settings again after the test, whatever it set."""
    thresholds = gc.get_threshold()
    yield
    gc.set_threshold(*thresholds)
    gc.unfreeze()


def test_the_server_runs_uvicorn_with_its_settings_and_a_tuned_collector(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, collector: None
) -> None:
    called: dict[str, Any] = {}

    def fake_run(application: object, **options: Any) -> None:
        called.update(options, application=application, thresholds=gc.get_threshold())

    monkeypatch.setattr(uvicorn, "run", fake_run)
    application = create_app(WebConfig(db=str(tmp_path / "games.db")))
    run_server(application, host="127.0.0.1", port=8123)
    assert called["application"] is application
    assert (called["host"], called["port"]) == ("127.0.0.1", 8123)
    assert called["ws_per_message_deflate"] is False  # updates are small: deflate costs more than it saves
    assert called["ws_max_size"] == 65_536
    assert called["thresholds"] == COLLECTOR_THRESHOLDS
    assert gc.get_freeze_count() > 0  # what was alive at the start is out of the collector's way
