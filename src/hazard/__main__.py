"""``python -m hazard`` and the ``hazard`` console script: the command line, started without the cyclic
garbage collector.

Starting makes some hundred thousand objects (modules, classes, functions, the command's tables) and no
garbage worth a collection: the collector would run some fifty times through them all for a few hundred
objects (3 % of ``hazard odds``'s instructions, docs/benchmarks.md). :func:`program` pauses it before
anything is imported; :func:`hazard.cli.main` turns it on again once the command's modules are loaded, with
what they made frozen out of its collections (:func:`gc.freeze`), so that a long command (a server, a
game, a study) collects as any program does.
"""

from __future__ import annotations

import gc
from typing import NoReturn


def program() -> NoReturn:
    """The ``hazard`` program: :func:`hazard.cli.run`, its start-up without the cyclic collector."""
    gc.disable()
    from hazard.cli import run  # noqa: PLC0415 - imported with the collector paused: the point

    run(collector_paused=True)


if __name__ == "__main__":
    program()
