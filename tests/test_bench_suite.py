"""bench/bench_suite.py runs a pytest command and sums the CPU of every process it started, by kind.

It checks what the report holds, never how fast: timings on a shared machine are the benchmark's to report.
"""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest
from tests.paths import ROOT

BENCH = ROOT / "bench" / "bench_suite.py"


def _bench() -> ModuleType:
    spec = importlib.util.spec_from_file_location("bench_suite", BENCH)
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize(
    ("command", "kind"),
    [
        ("/usr/lib/chromium/chromium --type=renderer --no-sandbox", "chromium renderers"),
        ("/usr/lib/chromium/chromium --type=gpu-process", "chromium gpu process"),
        ("/usr/lib/chromium/chromium --headless --remote-debugging-pipe", "chromium browser process"),
        ("/x/.venv/bin/python -m hazard serve --host 127.0.0.1 --port 1", "hazard serve"),
        ("/x/.venv/bin/python -m hazard play -r wikipedia", "hazard (the command line)"),
        ("/x/.venv/bin/python -u -c import sys;exec(eval(sys.stdin.readline()))", "pytest workers"),
        ("/x/.venv/bin/python /x/.venv/bin/pytest -n auto", "pytest (the controller)"),
        ("/x/playwright/driver/node /x/playwright/driver/package/cli.js", "playwright's driver (node)"),
        ("/usr/lib/gcc/x86_64-linux-gnu/12/cc1 -quiet kernel.c", "the C compiler"),
        ("/usr/bin/qemu-aarch64 ./driver", "qemu-aarch64"),
        ("", "other"),
    ],
)
def test_each_process_is_counted_as_its_kind(command: str, kind: str) -> None:
    assert _bench().kind(command) == kind


@pytest.mark.slow  # a pytest of its own
def test_the_suite_bench_reports_the_cpu_of_what_it_ran(tmp_path: Path) -> None:
    out = tmp_path / "suite.json"
    command = [sys.executable, str(BENCH), "--json", str(out), "--top", "1"]
    command += ["--", "tests/core/test_numbers.py"]
    done = subprocess.run(command, capture_output=True, text=True, timeout=120, check=False, cwd=ROOT)
    assert done.returncode == 0, done.stdout + done.stderr
    figures = json.loads(out.read_text(encoding="utf-8"))
    assert figures["status"] == 0
    assert figures["wall_s"] > 0
    assert figures["cpu_s"]["pytest (the controller)"] > 0
    assert figures["processes"]["pytest (the controller)"] == 1
    assert "CPU" in done.stdout
    assert "1 × pytest (the controller)" in done.stdout
    # --top 1: the process that took the most, with its command line (here the only one: pytest itself)
    listed = done.stdout.split("the 1 process that took the most:\n")[1].splitlines()
    assert len(listed) == 1
    assert "pytest (the controller): " in listed[0]
    assert "tests/core/test_numbers.py" in listed[0]


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (["--every", "9"], "--every 9.0: expected 0.05 to 5 seconds"),
        (["--top", "-1"], "--top -1: expected 0 to 1000 processes"),
    ],
)
def test_a_bad_option_is_one_error(args: list[str], said: str) -> None:
    done = subprocess.run(
        [sys.executable, str(BENCH), *args], capture_output=True, text=True, timeout=60, check=False
    )
    assert done.returncode == 2
    last = done.stderr.strip().splitlines()[-1]
    assert last == f"bench_suite.py: error: {said}"
