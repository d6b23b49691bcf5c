"""bench/bench_designer.py runs end to end: a few changes on the designer's page, and a JSON report of them.

It checks what the report holds and that its figures are sane, never how fast: timings on a shared machine
are the benchmark's to report, not a test's to assert.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from tests.paths import ROOT
from tests.web.browser_helpers import CHROMIUM

pytestmark = pytest.mark.slow  # a server and a Chromium page

BENCH = ROOT / "bench" / "bench_designer.py"


def test_the_designer_bench_reports_each_change(tmp_path: Path) -> None:
    if not CHROMIUM.is_file():
        if os.environ.get("HAZARD_REQUIRE_BROWSER"):
            pytest.fail(f"HAZARD_REQUIRE_BROWSER is set but there is no {CHROMIUM}")
        pytest.skip(f"no {CHROMIUM}: apt-get install chromium to run the browser benchmark")
    out = tmp_path / "designer.json"
    command = [sys.executable, str(BENCH), "--changes", "3", "--starts", "cotton-1674", "--json", str(out)]
    done = subprocess.run(command, capture_output=True, text=True, timeout=120, check=False, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    figures = json.loads(out.read_text(encoding="utf-8"))
    assert figures["command"] == "bench/bench_designer.py --changes 3 --starts cotton-1674 --json " + str(out)
    for kind in ("fresh", "cached"):
        page = figures["page"][kind]
        assert page["n"] == 3
        assert 0 < page["median_ms"] <= page["p99_ms"] <= page["max_ms"]
        assert figures["round_trip"][kind]["n"] == 3
    assert "fresh: change to figures shown median" in done.stderr
