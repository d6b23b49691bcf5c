"""A study's blocks on a Dask distributed cluster: ``hazard simulate --cluster ADDRESS``.

It needs the optional extra ``hazard[distributed]``, imported here only, when a cluster is asked for. Every
block of a study is its own stream, drawn from the seed and the block's number, and the blocks are folded in
order (:mod:`hazard.sim.workers`), so a study on a cluster gives the same results as on one machine. Each
worker must run this same version of hazard (its kernels are compiled at install): the workers are asked
before any block is sent, and a cluster that runs another version is refused.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from hazard import __version__
from hazard.core.errors import InvalidError, quoted
from hazard.extras import MissingExtra
from hazard.sim.workers import Pool

__all__ = ["CONNECT_SECONDS", "MAX_ADDRESS", "connect"]

CONNECT_SECONDS = 10
"""How long to wait for the scheduler to answer."""
MAX_ADDRESS = 300


def _versions() -> tuple[str, bool]:
    """On a worker: its hazard's version, and whether its compiled kernels load."""
    import hazard  # noqa: PLC0415 - on the worker
    from hazard.sim import native  # noqa: PLC0415

    try:
        native.load()
    except native.NativeUnavailable:
        return hazard.__version__, False
    return hazard.__version__, True


@contextmanager
def connect(address: str) -> Iterator[Pool]:
    """The cluster whose scheduler is at ``address`` (e.g. ``tcp://10.0.0.5:8786``), as a :class:`Pool`
    for the study's blocks, for as long as the block lasts."""
    if not address or len(address) > MAX_ADDRESS or any(c.isspace() for c in address):
        raise InvalidError(
            f"invalid --cluster {quoted(address)}: expected a scheduler's address, e.g. tcp://host:8786"
        )
    try:
        from distributed import Client  # noqa: PLC0415 - the optional extra, only for a cluster
    except ImportError as error:
        raise MissingExtra("--cluster", "distributed", error.name or "distributed") from None
    try:
        client = Client(address, timeout=CONNECT_SECONDS, set_as_default=False)
    except (OSError, TimeoutError, ValueError, TypeError) as error:
        raise InvalidError(f"cannot reach the cluster at {quoted(address)}: {error}") from None
    try:
        threads = sum(client.nthreads().values())
        if threads == 0:
            raise InvalidError(
                f"the cluster at {quoted(address)} has no workers yet: start some, then try again"
            )
        found = client.run(_versions)
        wrong = {worker: version for worker, (version, _) in found.items() if version != __version__}
        if wrong:
            worker, version = next(iter(wrong.items()))
            raise InvalidError(
                f"the cluster at {quoted(address)} runs another hazard ({version} on {worker}, this is "
                f"{__version__}): install the same version on every worker"
            )
        broken = [worker for worker, (_, loads) in found.items() if not loads]
        if broken:
            raise InvalidError(
                f"the cluster at {quoted(address)} cannot load the simulator's kernels on {broken[0]}: "
                "install hazard there again"
            )
        yield Pool(client.get_executor(), threads)
    finally:
        client.close()
