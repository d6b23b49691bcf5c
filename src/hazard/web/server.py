"""How a web table's process runs: uvicorn's settings and the garbage collector's, defined once for ``hazard
serve`` and for anything else that runs the server (the load benchmark)."""

from __future__ import annotations

import gc

from fastapi import FastAPI

__all__ = ["COLLECTOR_THRESHOLDS", "run_server"]

COLLECTOR_THRESHOLDS = (20_000, 20, 100)
"""The cycle collector's thresholds in a server (Python's own: 700, 10, 10). A server holds many long-lived
objects (every open table), which each full collection walks: at Python's thresholds it ran about once a
second under load and stopped the server for 150-200 ms each time. Its objects are freed by their reference
counts; the collector is only for cycles, which these thresholds still collect."""


def run_server(application: FastAPI, *, host: str, port: int) -> None:
    """Serve ``application`` on ``host``:``port`` until the process is stopped (Ctrl-C or SIGTERM)."""
    import uvicorn  # noqa: PLC0415 - the web extra's; imported where it runs

    # What is alive now (the modules, the application) lives as long as the process: out of the collector's
    # sight for good.
    gc.collect()
    gc.freeze()
    gc.set_threshold(*COLLECTOR_THRESHOLDS)
    uvicorn.run(
        application,
        host=host,
        port=port,
        log_level="warning",
        ws_max_size=65_536,
        # An update is a few hundred bytes of JSON: compressing it saves little and costs both ends CPU for
        # every message (docs/benchmarks.md, "The web table under load").
        ws_per_message_deflate=False,
        timeout_graceful_shutdown=3,
    )
