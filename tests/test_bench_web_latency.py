"""bench/bench_web_latency.py runs end to end: a few actions, three pages, and a JSON report of every figure.

It checks what the report holds and that its figures are sane (every action shown on every page, times
positive and in order), never how fast: timings on a shared machine are the benchmark's to report, not a
test's to assert.
"""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from tests.paths import ROOT
from tests.web.browser_helpers import CHROMIUM, CHROMIUM_ARGS

pytestmark = pytest.mark.slow  # a server and three Chromium pages

BENCH = ROOT / "bench" / "bench_web_latency.py"
ACTIONS = 5


def test_the_latency_bench_reports_every_action_on_every_page(tmp_path: Path) -> None:
    if not CHROMIUM.is_file():
        if os.environ.get("HAZARD_REQUIRE_BROWSER"):
            pytest.fail(f"HAZARD_REQUIRE_BROWSER is set but there is no {CHROMIUM}")
        pytest.skip(f"no {CHROMIUM}: apt-get install chromium to run the browser benchmark")
    out = tmp_path / "latency.json"
    command = [
        sys.executable,
        str(BENCH),
        "--actions",
        str(ACTIONS),
        "--warmup",
        "1",
        "--pause",
        "0",
        "--idle",
        "0.5",
    ]
    done = subprocess.run(
        [*command, "--json", str(out)], capture_output=True, text=True, timeout=240, check=False, cwd=tmp_path
    )
    assert done.returncode == 0, done.stderr[-3000:]
    figures = json.loads(out.read_text())
    assert figures["actions"] == ACTIONS
    assert figures["refused"] == []
    assert sum(figures["kinds"].values()) == ACTIONS
    last = figures["last_page_ms"]
    assert last["n"] == ACTIONS
    assert 0 < last["median"] <= last["p90"] <= last["p99"] <= last["max"]
    assert sorted(figures["pages_ms"]) == ["Ann", "Bob", "spectator"]
    for name, parts in figures["pages_ms"].items():
        assert {"shown", "socket", "fetch", "swap", "frame", "wait"} <= set(parts), name
        assert parts["shown"]["n"] == ACTIONS, name
        assert parts["shown"]["max"] <= last["max"], name  # the last page is the slowest of the three
        assert 0 < parts["socket"]["median"] <= parts["shown"]["median"], name
    assert figures["answer_ms"]["median"] > 0
    assert sorted(figures["view_alone_ms"]) == ["Ann", "spectator"]
    assert all(alone["median"] > 0 for alone in figures["view_alone_ms"].values())
    assert all(size > 0 for size in figures["view_bytes"].values())
    for offset in figures["clock_offset_ms"].values():
        assert set(offset) == {"before", "after", "uncertainty"}
    cpu = figures["cpu_s"]
    assert set(cpu) == {"server", "bench", "browser", "machine"}
    assert all(value >= 0 for value in cpu.values()), cpu
    assert figures["wall_s"] > 0
    assert figures["browser_idle_cpu_s_per_s"] >= 0
    assert figures["threads"]["server"] >= 1
    assert figures["threads"]["browser_processes"] >= 1
    assert figures["machine"]["nproc"] >= 1
    assert figures["command"].startswith("bench/bench_web_latency.py --actions 5")
    assert "last of three pages: median" in done.stderr


def test_the_benchmarks_launch_chromium_as_the_tests_do() -> None:
    # bench/ runs as scripts, apart from the tests' package: its copy of the launch is held to theirs here.
    spec = importlib.util.spec_from_file_location(
        "_web_latency_server", ROOT / "bench" / "_web_latency_server.py"
    )
    assert spec is not None
    assert spec.loader is not None
    server = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(server)
    assert (server.CHROMIUM, server.CHROMIUM_ARGS) == (CHROMIUM, CHROMIUM_ARGS)
