"""``hazard serve``: the web table (:mod:`hazard.web`) on a game record, until stopped with Ctrl-C.

The only command that imports the web layer, and only when it runs: it needs the optional extra
``hazard[web]`` (FastAPI and uvicorn), and says so where it is missing.
"""

from __future__ import annotations

import socket
from typing import Annotated
from urllib.parse import urlsplit

import typer

from hazard.cli.app import app, console, whole_number
from hazard.cli.record import DbOption
from hazard.core.errors import InvalidError, quoted
from hazard.extras import MissingExtra, require

__all__ = ["serve"]

MAX_HOST = 253
"""The longest host name (DNS's limit)."""


@app.command()
def serve(
    *,
    host: Annotated[
        str, typer.Option("--host", help="The address to listen on; 0.0.0.0 for every network.")
    ] = "127.0.0.1",
    port: Annotated[str, typer.Option("--port", help="The port to listen on, 1 to 65535.")] = "8000",
    db: DbOption = None,
    rate: Annotated[
        str,
        typer.Option(
            "--rate",
            help="Requests a second one connection may make (in bursts of twice that); one address may make "
            "five times as many over all its connections.",
        ),
    ] = "20",
    per_address: Annotated[
        str,
        typer.Option(
            "--per-address", help="Sockets one address may hold open at once; the next is closed unread."
        ),
    ] = "64",
    header_timeout: Annotated[
        str,
        typer.Option(
            "--header-timeout",
            help="Seconds a client has to send a request's line and headers; a slower one is disconnected.",
        ),
    ] = "5",
    tables: Annotated[str, typer.Option("--tables", help="Tables one address may set up an hour.")] = "30",
    seat_rate: Annotated[
        str,
        typer.Option("--seat-rate", help="Actions a second one seat may send (in bursts of ten times that)."),
    ] = "2",
    url: Annotated[
        str | None,
        typer.Option(
            "--url",
            help="The address players reach the server at, such as https://hazard.example behind a proxy: "
            "the invite links and their QR codes name it. Default: the address each request reached.",
        ),
    ] = None,
) -> None:
    """Serve the web table: a lobby, tables with fair dice or a referee's real dice, and the JSON API."""
    number = whole_number(port, what="--port", low=1, high=65535)
    per_second = whole_number(rate, what="--rate", low=1, high=1_000_000)
    sockets = whole_number(per_address, what="--per-address", low=1, high=1_000_000)
    deadline = whole_number(header_timeout, what="--header-timeout", low=1, high=3600)
    hourly = whole_number(tables, what="--tables", low=1, high=1_000_000_000)
    seat_per_second = whole_number(seat_rate, what="--seat-rate", low=1, high=1_000_000)
    _check_host(host)
    base_url = None if url is None else _check_url(url)
    try:
        from hazard.web import Connections, Limits, WebConfig, create_app, run_server
    except ImportError as error:
        raise MissingExtra("hazard serve", "web", error.name or "hazard.web") from None
    # imported only as the server starts: without uvicorn it could not, and without websockets uvicorn would
    # refuse every table's live socket
    for module in ("uvicorn", "websockets"):
        require(module, what="hazard serve", extra="web")
    _check_free(host, number)
    limits = Limits(
        rate=per_second,
        burst=2 * per_second,
        address_rate=5 * per_second,
        address_burst=10 * per_second,
        tables_per_hour=hourly,
        seats_per_minute=1.5 * per_second,
        seats_burst=1.5 * per_second,
        seat_rate=seat_per_second,
        seat_burst=10 * seat_per_second,
    )
    application = create_app(
        WebConfig(db=db, limits=limits, base_url=base_url)
    )  # a bad --db is refused here, before listening
    shown = f"[{host}]" if ":" in host else host
    console().print(f"hazard serves the web table at http://{shown}:{number}/ (Ctrl-C stops it)")
    connections = Connections(per_address=sockets, headers=deadline)
    run_server(application, host=host, port=number, connections=connections)


def _check_host(host: str) -> None:
    if not host or len(host) > MAX_HOST or not host.isascii() or any(c.isspace() for c in host):
        raise InvalidError(f"invalid --host {quoted(host)}: expected an address such as 127.0.0.1 or 0.0.0.0")


def _check_url(url: str) -> str:
    """The address ``--url`` gives, as an origin (``https://host[:port]``): the pages' links start at the
    server's root, so it has no path of its own."""
    expected = "expected an address such as https://hazard.example or http://192.168.1.5:8000, with no path"
    if len(url) > MAX_HOST + 32 or not url.isascii() or any(c.isspace() for c in url):
        raise InvalidError(f"invalid --url {quoted(url)}: {expected}")
    try:
        parts = urlsplit(url)
        port = parts.port  # refuses a port that is no number or past 65535
    except ValueError:
        raise InvalidError(f"invalid --url {quoted(url)}: {expected}") from None
    host = parts.hostname or ""
    if (
        parts.scheme not in ("http", "https")
        or not host
        or parts.username is not None
        or parts.path not in ("", "/")
        or parts.query
        or parts.fragment
    ):
        raise InvalidError(f"invalid --url {quoted(url)}: {expected}")
    shown = f"[{host}]" if ":" in host else host
    return f"{parts.scheme}://{shown}" + (f":{port}" if port is not None else "")


def _check_free(host: str, port: int) -> None:
    """Refuse an address that cannot be listened on, with its reason, before the record is opened."""
    try:
        found = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    except (socket.gaierror, UnicodeError) as error:
        raise InvalidError(f"invalid --host {quoted(host)}: {error}") from None
    family, kind, proto, _, address = found[0]
    with socket.socket(family, kind, proto) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind(address)
        except OSError as error:
            raise InvalidError(f"cannot listen on {host}:{port}: {error.strerror}") from None
