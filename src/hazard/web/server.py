"""How a web table's process runs: uvicorn's settings, its sockets' limits and the garbage collector's,
defined once for ``hazard serve`` and for anything else that runs the server (the load benchmark)."""

from __future__ import annotations

import gc

from fastapi import FastAPI

from hazard.web.connections import Connections, Guard, guarded, raise_file_limit

__all__ = ["COLLECTOR_THRESHOLDS", "run_server"]

COLLECTOR_THRESHOLDS = (20_000, 20, 100)
"""The cycle collector's thresholds in a server (Python's own: 700, 10, 10). A server holds many long-lived
objects (every open table), which each full collection walks: at Python's thresholds it ran about once a
second under load and stopped the server for 150-200 ms each time. Its objects are freed by their reference
counts; the collector is only for cycles, which these thresholds still collect."""


def run_server(application: FastAPI, *, host: str, port: int, connections: Connections | None = None) -> None:
    """Serve ``application`` on ``host``:``port`` until the process is stopped (Ctrl-C or SIGTERM), its
    sockets under ``connections``' limits (``hazard.web.connections``)."""
    import uvicorn  # noqa: PLC0415 - the web extra's; imported where it runs

    connections = connections or Connections()
    # Every socket is a file: as many as the system lets this process have, less a reserve that the guard
    # keeps free, so that a flood of sockets never stops the server from accepting (and refusing) the next.
    guard = Guard(connections, raise_file_limit())
    # What is alive now (the modules, the application) lives as long as the process: out of the collector's
    # sight for good.
    gc.collect()
    gc.freeze()
    gc.set_threshold(*COLLECTOR_THRESHOLDS)
    config = uvicorn.Config(
        application,
        host=host,
        port=port,
        log_level="warning",
        ws_max_size=65_536,
        # An update is a few hundred bytes of JSON: compressing it saves little and costs both ends CPU for
        # every message (docs/benchmarks.md, "The web table under load").
        ws_per_message_deflate=False,
        timeout_graceful_shutdown=3,
        timeout_keep_alive=connections.keep_alive,
    )
    config.load()
    config.http_protocol_class, config.ws_protocol_class = guarded(
        config.http_protocol_class, config.ws_protocol_class, guard
    )
    uvicorn.Server(config).run()
