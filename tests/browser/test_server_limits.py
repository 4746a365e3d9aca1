"""What one device may cost the server: sessions per address and overall, abandoned sessions,
half-sent requests. The limits alone (a fake clock), then the real ``python -m app`` on loopback.

The real server counts only 192.0.2.1 (a documentation address) as the organizer's, so
loopback clients (127.0.0.x, each test its own source addresses) stand in for phones.
"""

from __future__ import annotations

import asyncio
import http.client
import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
from websockets.exceptions import InvalidStatus

from app.venue.client_address import ORGANIZER_ADDRESSES_ENV
from app.venue.server_limits import HEADER_SECONDS, SESSION_KEEP_SECONDS, SESSIONS_PER_ADDRESS, SOCKETS_PER_ADDRESS, \
    SessionLimits
from tests.support.browser_support import REPO_ROOT, AppServer, start_app_server
from tests.support.flet_wire import open_session


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


async def _served(scope: Any, receive: Any, send: Any) -> None:
    await send({"type": "websocket.accept"})


def websocket_from(limits: SessionLimits, address: str) -> str:
    """What the limits answer a websocket from ``address``: "accept" or "close"."""
    sent: list[Any] = []

    async def receive() -> dict[str, Any]:
        return {"type": "websocket.connect"}

    async def send(message: Any) -> None:
        sent.append(message)

    asyncio.run(limits({"type": "websocket", "client": (address, 5000), "path": "/ws"}, receive, send))
    return str(sent[0]["type"]).removeprefix("websocket.")


def test_an_address_holding_its_sessions_is_refused_another_until_flet_has_dropped_them():
    clock = Clock()
    limits = SessionLimits(_served, per_address=3, overall=100, keep=40, clock=clock, exempt=lambda a: False)
    assert [websocket_from(limits, "10.0.0.5") for _ in range(4)] == ["accept"] * 3 + ["close"]
    assert websocket_from(limits, "10.0.0.6") == "accept"  # another device is served
    clock.now += 41  # Flet has dropped the first three by now
    assert websocket_from(limits, "10.0.0.5") == "accept"


def test_past_its_overall_limit_the_server_refuses_new_sessions_but_never_the_organizers():
    limits = SessionLimits(_served, per_address=3, overall=5, keep=40, clock=Clock(),
                           exempt=lambda a: a == "127.0.0.1")
    answers = [websocket_from(limits, f"10.0.0.{n}") for n in range(7)]
    assert answers == ["accept"] * 5 + ["close"] * 2
    assert [websocket_from(limits, "127.0.0.1") for _ in range(10)] == ["accept"] * 10


def test_the_server_keeps_a_disconnected_session_seconds_not_flets_hour():
    """Flet's own setting, as the server leaves it (in a process of its own: building the app
    marks the process as serving the network)."""
    script = ("import os; from app.venue.server import build_app; build_app(lambda page: None); "
              "print(os.environ['FLET_SESSION_TIMEOUT'])")
    env = {key: value for key, value in os.environ.items() if key != "FLET_SESSION_TIMEOUT"}
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120, env=env,
                          cwd=REPO_ROOT)
    assert done.stdout.strip() == str(SESSION_KEEP_SECONDS) == "30", done.stderr


# -- the real server --------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[AppServer]:
    env = {ORGANIZER_ADDRESSES_ENV: "192.0.2.1", "FLET_SESSION_TIMEOUT": "1"}  # Flet sweeps every 10 s
    with start_app_server(tmp_path_factory.mktemp("limits") / "data", env=env) as running:
        yield running


def test_a_tab_closed_while_its_first_screen_is_sent_is_let_go_so_its_reload_reattaches(server: AppServer):
    async def reload() -> tuple[str, str]:
        first = await open_session(server.port, "127.0.0.20")
        await first.close()
        again = await open_session(server.port, "127.0.0.20", session_id=first.session_id)
        await again.close()
        return first.session_id, again.session_id

    first, again = asyncio.run(reload())
    assert again == first


def test_one_address_holds_twelve_sessions_at_most_and_another_is_still_served(server: AppServer):
    async def crowd() -> list[str]:
        answers = []
        for _ in range(SESSIONS_PER_ADDRESS + 2):
            try:
                session = await open_session(server.port, "127.0.0.21")
            except InvalidStatus as refused:
                answers.append(f"refused {refused.response.status_code}")
            else:
                answers.append("opened")
                await session.close()
        other = await open_session(server.port, "127.0.0.22")
        await other.close()
        return answers

    assert asyncio.run(crowd()) == ["opened"] * SESSIONS_PER_ADDRESS + ["refused 403"] * 2


def half_sent_request(source: str, port: int) -> socket.socket:
    """A socket that starts a request's headers and never finishes them."""
    sock = socket.create_connection(("127.0.0.1", port), timeout=HEADER_SECONDS + 10, source_address=(source, 0))
    sock.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")
    return sock


def closed_after(sock: socket.socket, start: float) -> float:
    """Seconds from ``start`` until the server closes the socket (it sends nothing else)."""
    try:
        while sock.recv(1024):
            pass
    except (ConnectionResetError, TimeoutError):
        pass
    return time.monotonic() - start


def test_half_sent_requests_are_closed_within_seconds_and_an_abandoned_session_is_dropped(server: AppServer):
    async def abandoned() -> str:
        session = await open_session(server.port, "127.0.0.23")
        await session.close()
        return session.session_id

    session_id = asyncio.run(abandoned())
    abandoned_at = start = time.monotonic()
    sockets = [half_sent_request("127.0.0.24", server.port) for _ in range(SOCKETS_PER_ADDRESS + 4)]
    with ThreadPoolExecutor(max_workers=len(sockets)) as watchers:
        waits = list(watchers.map(lambda sock: closed_after(sock, start), sockets))
        connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10,
                                                source_address=("127.0.0.25", 0))
        connection.request("GET", "/")
        assert connection.getresponse().status == 200  # another device is served meanwhile
        connection.close()
    for sock in sockets:
        sock.close()
    assert sorted(waits)[3] < 2.0  # the sockets past the address's limit: closed at once
    assert max(waits) < HEADER_SECONDS + 5  # the rest once their headers are late
    assert sorted(waits)[4] > HEADER_SECONDS - 1

    time.sleep(max(0.0, abandoned_at + 1 + 10 + 1 - time.monotonic()))  # FLET_SESSION_TIMEOUT=1, then its sweep

    async def reopen() -> str:
        session = await open_session(server.port, "127.0.0.23", session_id=session_id)
        await session.close()
        return session.session_id

    assert asyncio.run(reopen()) != session_id  # a new session: the abandoned one was dropped
