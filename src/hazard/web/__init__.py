"""The web table: Hazard played together from any browser, live, with fair dice or a referee's real dice.

:func:`create_app` builds the server's application (FastAPI) over a game record; ``hazard serve`` runs it
with uvicorn (:func:`run_server`). It drives :mod:`hazard.table` and holds no rule of the game. This layer
needs the optional extra ``hazard[web]``; nothing outside it imports it.
"""

from hazard.web.app import WebConfig, create_app
from hazard.web.connections import Connections
from hazard.web.hub import Hub, LiveTable, NoSuchTable, Update
from hazard.web.limits import Limits
from hazard.web.server import run_server

__all__ = [
    "Connections",
    "Hub",
    "Limits",
    "LiveTable",
    "NoSuchTable",
    "Update",
    "WebConfig",
    "create_app",
    "run_server",
]
