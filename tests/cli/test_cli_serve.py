"""``hazard serve``: its options checked before anything listens, one ``error:`` line for each bad one."""

from __future__ import annotations

import socket
import subprocess
import sys
from pathlib import Path

import httpx
import pytest
from tests.commandline import fails
from tests.servers import Server, free_port
from tests.web.test_web_invite import segno_svg


@pytest.mark.parametrize(
    ("args", "fragment"),
    [
        (["--port", "0"], "invalid --port '0': expected a whole number from 1 to 65535"),
        (["--port", "65536"], "invalid --port"),
        (["--port", "８０８０"], "invalid --port"),
        (["--port", "-1"], "invalid --port"),
        (["--rate", "0"], "invalid --rate"),
        (["--host", ""], "invalid --host"),
        (["--host", "a b"], "invalid --host"),
        (["--host", "h" * 300], "invalid --host"),
        (["--host", "no-such-host.invalid"], "invalid --host 'no-such-host.invalid'"),
        (["--db", "sqlite://"], "in-memory database"),
        (
            ["--url", "ftp://hazard.example"],
            "invalid --url 'ftp://hazard.example': expected an address such as",
        ),
        (["--url", "hazard.example"], "invalid --url"),
        (["--url", "https://hazard.example/club"], "invalid --url"),  # the pages' links start at the root
        (["--url", "https://hazard.example/?x=1"], "invalid --url"),
        (["--url", "https://ann@hazard.example"], "invalid --url"),
        (["--url", "https://hazard.example:99999"], "invalid --url"),
        (["--url", "https://"], "invalid --url"),
        (["--url", "https://a b.example"], "invalid --url"),
    ],
    ids=repr,
)
def test_bad_options_are_one_error_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, args: list[str], fragment: str
) -> None:
    full = ["serve", "--port", str(free_port()), "--db", str(tmp_path / "g.db"), *args]
    assert fragment in fails(capsys, *full)


def test_a_port_in_use_is_refused_before_the_record_is_opened(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        message = fails(capsys, "serve", "--port", str(port), "--db", str(tmp_path / "g.db"))
    assert message == f"error: cannot listen on 127.0.0.1:{port}: Address already in use"
    assert not (tmp_path / "g.db").exists()


@pytest.mark.slow
def test_the_server_says_where_it_listens_and_serves_the_lobby(tmp_path: Path) -> None:
    server = Server(str(tmp_path / "g.db"), tmp_path)
    try:
        assert "<h1>Hazard</h1>" in httpx.get(f"{server.url}/", timeout=10).text
    finally:
        server.stop()
    assert f"hazard serves the web table at http://127.0.0.1:{server.port}/" in server.log.read_text()


def test_no_other_command_imports_the_web_layer() -> None:
    probe = (
        "import sys; from hazard.cli import load_commands; load_commands([]); "
        "print(any(m.startswith(('hazard.web', 'fastapi', 'uvicorn')) for m in sys.modules))"
    )
    result = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    assert result.stdout.strip() == "False"


@pytest.mark.slow
def test_the_invite_names_the_address_given_by_url(tmp_path: Path) -> None:
    """Behind a proxy the server is reached at one address and players at another: ``--url`` names theirs."""
    server = Server(str(tmp_path / "g.db"), tmp_path, options=("--url", "https://Hazard.Example/"))
    try:
        made = httpx.post(
            f"{server.url}/api/tables",
            json={"ruleset": "wikipedia"},
            headers={"origin": server.url},
            timeout=10,
        )
        assert made.status_code == 201, made.text
        game = made.json()["id"]
        drawn = httpx.get(f"{server.url}/tables/{game}/invite.svg", timeout=10)
        assert drawn.status_code == 200, drawn.text
        assert drawn.content == segno_svg(f"https://hazard.example/tables/{game}")
    finally:
        server.stop()
