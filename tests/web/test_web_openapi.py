"""The API against its own OpenAPI description: schemathesis sends what the schema allows (and what it does
not) to a real server, and no answer may be a 500 or break the schema's promises.

Seeded and bounded: a fixed number of examples per operation (``HAZARD_FUZZ_EXAMPLES`` raises it). Then the
whole of schemathesis (its command line: the coverage phase's requests, undeclared methods included, and the
fuzzing phase's) with every check enabled, deterministic, and under a time bound: 0 failures.
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
import schemathesis
from hypothesis import HealthCheck, given, settings
from schemathesis.checks import not_a_server_error
from tests.paths import FIXTURES
from tests.servers import Server

pytestmark = pytest.mark.slow  # schemathesis's fuzzer over the whole API

EXAMPLES = int(os.environ.get("HAZARD_FUZZ_EXAMPLES", "25"))
CONFIG = FIXTURES / "schemathesis.toml"
RUN_EXAMPLES = int(os.environ.get("HAZARD_FUZZ_EXAMPLES", "10"))
"""Examples per operation in the command line's fuzzing phase (its coverage phase is a fixed set)."""
RUN_S = 180
"""The longest the command line's run may take. It takes about 15 s on two cores, more than a test should:
its coverage phase sends every operation each undeclared method and each boundary of each parameter, which
is what the checks of the whole tool (ST204, ST205, ST202) need, and that set is fixed, not drawn."""
HOST: dict[str, str] = {}
"""The host's token of the server's table 1, by the server's address."""


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    folder: Path = tmp_path_factory.mktemp("openapi")
    running = Server(str(folder / "games.db"), folder)
    # A table to act on: the fuzzer's table numbers are mostly not there, but 1 is.
    made = httpx.post(f"{running.url}/api/tables", json={"ruleset": "wikipedia"}, timeout=10)
    assert made.status_code == 201
    httpx.post(f"{running.url}/api/tables/1/seats", json={"name": "Ann", "bankroll": "100"}, timeout=10)
    HOST[running.url] = made.json()["host_token"]
    yield running
    running.stop()


def test_no_request_the_schema_describes_gets_a_server_error(server: Server) -> None:
    api = schemathesis.openapi.from_url(f"{server.url}/openapi.json")
    operations = [result.ok() for result in api.get_all_operations()]
    assert len(operations) >= 8
    seen: dict[int, int] = {}
    for operation in operations:

        @given(case=operation.as_strategy())
        @settings(
            max_examples=EXAMPLES,
            derandomize=True,
            deadline=None,
            suppress_health_check=list(HealthCheck),
            database=None,
        )
        def no_server_error(case: schemathesis.Case) -> None:
            response = case.call(base_url=server.url, timeout=10)
            where = (case.method, case.formatted_path, response.text[:300])
            assert response.status_code < 500, where
            assert response.status_code != 429, where  # the server's limits are raised for this run
            seen[response.status_code] = seen.get(response.status_code, 0) + 1
            json_body = any(
                kind.startswith("application/json") for kind in response.headers.get("content-type", [])
            )
            if response.status_code >= 400 and json_body:
                assert {"error", "said"} <= set(response.json()) <= {"error", "said", "next"}, where
            case.validate_response(response, checks=[not_a_server_error])

        no_server_error()
    assert seen.get(200, 0) + seen.get(201, 0) > 0, seen  # not all refused: the fuzzer reached the tables
    assert seen.get(422, 0) > 10, seen


def test_schemathesis_with_every_check_finds_nothing(server: Server, tmp_path: Path) -> None:
    """``schemathesis run --checks all``: every status is documented (ST103), a 405 names every method of
    its path (ST204, ST205), a well-formed request is not refused as malformed by the schema (ST202), every
    answer matches its schema and content type. As the table's host (so the host's operations are reached
    too), deterministic, a fixed number of examples per operation, and bounded in time."""
    command = [
        str(Path(sys.executable).with_name("schemathesis")),
        "--config-file",
        str(CONFIG),
        "--no-color",
        "run",
        f"{server.url}/openapi.json",
        "--checks",
        "all",
        "--max-examples",
        str(RUN_EXAMPLES),
        "--generation-deterministic",
        "--no-shrink",
        "--workers",
        "1",
        "--request-timeout",
        "10",
        "--header",
        f"Authorization: Bearer {HOST[server.url]}",
    ]
    done = subprocess.run(command, capture_output=True, text=True, timeout=RUN_S, cwd=tmp_path, check=False)
    report = done.stdout[-6000:] + done.stderr[-2000:]
    assert done.returncode == 0, report
    assert " passed" in done.stdout, report
    assert "failure" not in done.stdout.rsplit("Test cases:", 1)[-1], report
