"""The local server's page is not cross-origin isolated, so Flutter draws it on one thread.

Flet answers with the two isolation headers, and an isolated page in Chromium draws with skwasm's
two threads, which corrupt each other's heap when text is laid out while a frame is drawn
(flutter/flutter#190039): the page froze, its main thread and its drawing worker each spinning.
"""

from __future__ import annotations

import asyncio
import http.client
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

import pytest

from app.venue.server import ISOLATION_HEADERS, NotIsolated
from tests.support.browser_support import AppServer, FlutterPage, new_game, start_app_server

if TYPE_CHECKING:
    from playwright.sync_api import Browser

KEPT = [(b"content-type", b"text/html"), (b"access-control-allow-origin", b"*")]


def answered_through_not_isolated(kind: str, headers: list[tuple[bytes, bytes]]) -> list[dict[str, Any]]:
    """What ``NotIsolated`` sends on for an app that starts an answer with ``headers``."""
    sent: list[dict[str, Any]] = []

    async def app(scope: Any, receive: Any, send: Any) -> None:
        await send({"type": "http.response.start", "status": 200, "headers": headers})
        await send({"type": "http.response.body", "body": b"page"})

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    async def receive() -> dict[str, Any]:
        return {"type": "http.request"}

    asyncio.run(NotIsolated(app)({"type": kind, "path": "/", "headers": []}, receive, send))
    return sent


@pytest.mark.parametrize("isolating", [
    [(b"Cross-Origin-Opener-Policy", b"same-origin"), (b"Cross-Origin-Embedder-Policy", b"require-corp")],
    [(b"cross-origin-embedder-policy", b"credentialless")],
    [(b"CROSS-ORIGIN-OPENER-POLICY", b"same-origin")],
])
def test_an_answer_loses_its_isolation_headers_whatever_their_case_and_keeps_every_other(isolating):
    start, body = answered_through_not_isolated("http", KEPT[:1] + isolating + KEPT[1:])
    assert start["headers"] == KEPT and start["status"] == 200
    assert body == {"type": "http.response.body", "body": b"page"}


def test_a_websocket_passes_through_untouched():
    headers = [(b"cross-origin-opener-policy", b"same-origin")]
    assert answered_through_not_isolated("websocket", headers)[0]["headers"] == headers


# -- the real server --------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[AppServer]:
    with start_app_server(tmp_path_factory.mktemp("isolation") / "data") as running:
        yield running


@pytest.mark.parametrize("path", ["/", "/organizer", "/flutter_bootstrap.js", "/main.dart.mjs",
                                  "/canvaskit/skwasm.js"])
def test_no_file_of_the_page_asks_the_browser_to_isolate_it(server: AppServer, path: str):
    connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
    try:
        connection.request("GET", path)
        answer = connection.getresponse()
        answer.read()
    finally:
        connection.close()
    assert answer.status == 200
    assert {name.lower().encode() for name, _ in answer.getheaders()} & ISOLATION_HEADERS == set()


@pytest.mark.browser
def test_chromium_draws_a_game_on_the_pages_own_thread_with_no_drawing_worker(
        chromium_browser: Browser, server: AppServer) -> None:
    """The page is not isolated, Flutter starts no worker to draw in, and a game is drawn."""
    page = FlutterPage.new_phone(chromium_browser)
    workers: list[str] = []
    page.page.on("worker", lambda worker: workers.append(worker.url))
    try:
        page.open(server.url)
        new_game(page, "Ann", "Bob")
        drawing = page.page.evaluate("""() => ({isolated: window.crossOriginIsolated,
            renderer: document.querySelector('[flt-renderer]')?.getAttribute('flt-renderer')})""")
        assert drawing == {"isolated": False, "renderer": "skwasm"}
        assert workers == []
    finally:
        page.close()
