"""The server refuses other sites' pages and websockets: the check alone, then the real ``python -m app``.

Traffic goes only to this machine's loopback address.
"""

from __future__ import annotations

import asyncio
import http.client
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import websockets
from websockets.exceptions import InvalidStatus

from app.venue.server import OriginCheck, origin_of, parse_origins
from tests.support.browser_support import AppServer, start_app_server

EVIL = "http://evil.example"


def scope(kind: str = "http", host: str = "127.0.0.1:8550", origin: str | None = None,
          scheme: str = "http") -> dict[str, Any]:
    headers = [(b"host", host.encode())] + ([(b"origin", origin.encode())] if origin is not None else [])
    return {"type": kind, "scheme": scheme if kind == "http" else {"http": "ws", "https": "wss"}[scheme],
            "path": "/", "headers": headers}


async def _never(scope: Any, receive: Any, send: Any) -> None:
    raise AssertionError("a refused request reached the app")


CHECK = OriginCheck(_never, parse_origins("https://farkle.example"))


@pytest.mark.parametrize("request_scope", [
    scope(), scope(origin="http://127.0.0.1:8550"), scope("websocket", origin="http://127.0.0.1:8550"),
    scope(host="192.168.1.10:8550", origin="http://192.168.1.10:8550"), scope(host="localhost:8550"),
    scope(host="[::1]:8550", origin="http://[::1]:8550"), scope(host="farkle.example", origin="https://farkle.example"),
    scope(host="192.168.1.10", origin="http://192.168.1.10:80"),
])
def test_the_apps_own_origin_or_none_is_let_through(request_scope):
    assert CHECK.refusal(request_scope) is None


@pytest.mark.parametrize("request_scope, reason", [
    (scope(origin=EVIL), "origin 'http://evil.example' is not this app's"),
    (scope("websocket", origin=EVIL), "origin 'http://evil.example' is not this app's"),
    (scope(origin="http://127.0.0.1:8551"), "is not this app's"),
    (scope(origin="https://127.0.0.1:8550"), "is not this app's"),
    (scope(origin="null"), "origin 'null' is not this app's"),
    (scope(host="evil.example:8550", origin="http://evil.example:8550"), "host 'evil.example' is not this app's"),
    (scope(host=""), "no readable Host header"),
])
def test_another_origin_or_a_rebound_host_name_is_refused_with_the_reason(request_scope, reason):
    refusal = CHECK.refusal(request_scope)
    assert refusal is not None and reason in refusal


def test_origins_compare_by_scheme_host_and_port():
    assert origin_of("wss", "Farkle.Example") == ("https", "farkle.example", 443)
    assert origin_of("ftp", "x") is None
    with pytest.raises(ValueError, match="'farkle.example' is not an origin"):
        parse_origins("farkle.example")


def test_a_refused_page_request_gets_403_and_a_refused_websocket_is_closed_before_it_opens():
    sent: list[dict[str, Any]] = []

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    async def receive() -> dict[str, Any]:
        return {"type": "websocket.connect"}

    asyncio.run(CHECK(scope(origin=EVIL), receive, send))
    assert sent[0]["status"] == 403
    sent.clear()
    asyncio.run(CHECK(scope("websocket", origin=EVIL), receive, send))
    assert sent == [{"type": "websocket.close", "code": 1008, "reason": "origin refused"}]


# -- the real server --------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[AppServer]:
    with start_app_server(tmp_path_factory.mktemp("origin") / "data") as running:
        yield running


def get(server: AppServer, path: str, **headers: str) -> int:
    connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
    try:
        connection.request("GET", path, headers=headers)
        return connection.getresponse().status
    finally:
        connection.close()


def open_socket(server: AppServer, origin: str) -> str:
    async def connect() -> str:
        try:
            async with websockets.connect(f"ws://127.0.0.1:{server.port}/ws", origin=origin,  # type: ignore[arg-type]
                                          open_timeout=10):
                return "open"
        except InvalidStatus as refused:
            return f"refused {refused.response.status_code}"

    return asyncio.run(connect())


def test_the_server_refuses_another_sites_websocket_and_opens_its_own(server: AppServer):
    assert open_socket(server, EVIL) == "refused 403"
    assert open_socket(server, f"http://127.0.0.1:{server.port}") == "open"


def test_the_server_refuses_a_page_request_from_another_origin_or_host_name(server: AppServer):
    assert get(server, "/") == 200
    assert get(server, "/organizer", Origin=f"http://127.0.0.1:{server.port}") == 200
    assert get(server, "/", Origin=EVIL) == 403
    assert get(server, "/organizer", Origin=EVIL) == 403
    assert get(server, "/", Host=f"evil.example:{server.port}") == 403


def test_the_client_is_still_served_from_the_package_without_a_cdn(server: AppServer):
    connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
    try:
        connection.request("GET", "/")
        page = connection.getresponse().read().decode()
    finally:
        connection.close()
    assert "noCdn=true" in page.replace(" ", "")
    assert get(server, "/canvaskit/canvaskit.wasm") == 200


def test_a_bad_organizer_address_stops_the_server_with_its_name(tmp_path: Path):
    import subprocess
    import sys

    done = subprocess.run([sys.executable, "-m", "app", "--port", "1", "--data-dir", str(tmp_path / "data"),
                           "--organizer-address", "laptop"], capture_output=True, text=True, timeout=60)
    assert done.returncode == 1 and "'laptop' is not an address or network" in done.stderr
