"""The optional extras (``pip install 'hazard[EXTRA]'``), and the one error that names the missing one.

The base install plays, referees, gives the exact odds and simulates rounds. Each extra serves one thing, and
its packages are imported where that thing runs, never by every command; where one is missing, the command
that needs it says which extra to install, in one line:

>>> MissingExtra("--plot", "plot", "matplotlib").args[0]
"--plot needs the plot extra (matplotlib is missing): pip install 'hazard[plot]'"
>>> require("hazard", what="hazard", extra="plot")  # present: nothing to say
"""

from __future__ import annotations

import importlib

from hazard.core.errors import InvalidError

__all__ = ["EXTRAS", "MissingExtra", "require"]

EXTRAS = {
    "sessions": "session studies (hazard simulate --sessions): NumPy",
    "plot": "PNG plots of a study (hazard simulate --plot): Matplotlib",
    "web": "the web table (hazard serve): FastAPI, uvicorn, websockets",
    "postgres": "the game record on PostgreSQL (--db postgresql+psycopg://...): psycopg",
    "distributed": "studies on a Dask cluster (hazard simulate --cluster): distributed",
    "card": "the printable table card (hazard card): fpdf2",
}
"""Each extra of ``pyproject.toml``, and what it serves."""


class MissingExtra(InvalidError):
    """What was asked for needs an extra that is not installed: the message names it and how to install it."""

    def __init__(self, what: str, extra: str, missing: str) -> None:
        super().__init__(
            f"{what} needs the {extra} extra ({missing} is missing): pip install 'hazard[{extra}]'",
            said=f"This needs hazard's {extra} extra, which is not installed here.",
        )
        self.extra = extra
        self.missing = missing


def require(module: str, *, what: str, extra: str) -> None:
    """Import ``module`` (the extra's), or raise :class:`MissingExtra`: ``what`` needs ``extra``.

    Called before any work, where an option asks for the extra, so that a run is refused at once rather than
    after its study. What is imported stays imported: the work that follows uses it.
    """
    try:
        importlib.import_module(module)
    except ImportError as error:
        raise MissingExtra(what, extra, error.name or module) from None
