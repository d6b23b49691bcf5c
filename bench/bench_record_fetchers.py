"""Fetchers of a long table's record against another player's answers: ``hazard serve`` on 127.0.0.1 over a
record holding one web table of ``--entries`` entries; four threads fetch ``GET /api/tables/{id}/record``
in a loop while another client reads another table's state, and that client's median answer is timed, with
no fetchers and with them. Also the server's CPU seconds per fetch (from ``/proc``).

Run ``.venv/bin/python bench/bench_record_fetchers.py``. It needs only ``hazard serve --rate``, so
``PYTHONPATH=OTHER/src`` runs it against another version of the server for comparison.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import httpx

from hazard.table import GameStore

sys.path.insert(0, str(Path(__file__).parent))
from bench_record_fetch import written  # the same long table


def cpu_of(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def median_state(url: str, game: int, count: int) -> float:
    took = []
    with httpx.Client(timeout=30) as client:
        for _ in range(count):
            started = time.perf_counter()
            assert client.get(f"{url}/api/tables/{game}").status_code == 200
            took.append(time.perf_counter() - started)
            time.sleep(0.05)
    return statistics.median(took)


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--entries", type=int, default=20_000)
    parser.add_argument("--fetchers", type=int, default=4)
    parser.add_argument("--seconds", type=float, default=20.0)
    options = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        db = str(Path(folder) / "games.db")
        store = GameStore.open(db)
        long_game = written(store, options.entries).game
        store.close()
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            port = probe.getsockname()[1]
        url = f"http://127.0.0.1:{port}"
        command = [
            sys.executable,
            "-m",
            "hazard",
            "serve",
            "--port",
            str(port),
            "--db",
            db,
            "--rate",
            "100000",
        ]
        server = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            for _ in range(300):
                with contextlib.suppress(httpx.HTTPError):
                    if httpx.get(f"{url}/api/rulesets", timeout=1).status_code == 200:
                        break
                time.sleep(0.1)
            other = httpx.post(f"{url}/api/tables", json={"ruleset": "wikipedia"}).json()["id"]
            httpx.get(f"{url}/api/tables/{long_game}/record", timeout=60)  # loaded once, as any server would
            alone = median_state(url, other, 40)
            stop = threading.Event()
            fetched = [0]

            def fetch() -> None:
                with httpx.Client(timeout=120) as client:
                    while not stop.is_set():
                        assert client.get(f"{url}/api/tables/{long_game}/record").status_code == 200
                        fetched[0] += 1

            threads = [threading.Thread(target=fetch) for _ in range(options.fetchers)]
            cpu = cpu_of(server.pid)
            for thread in threads:
                thread.start()
            started = time.monotonic()
            loaded = median_state(url, other, int(options.seconds / 0.06))
            stop.set()
            for thread in threads:
                thread.join()
            took = time.monotonic() - started
            spent = cpu_of(server.pid) - cpu
        finally:
            server.terminate()
            server.wait(timeout=10)
    print(
        f"{options.entries:,}-entry record, {options.fetchers} fetchers: another client's median "
        f"{alone * 1e3:.1f} ms alone, {loaded * 1e3:.1f} ms with them; {fetched[0]} fetches in {took:.1f} s, "
        f"{spent / max(1, fetched[0]):.3f} CPU s each"
    )


if __name__ == "__main__":
    main()
