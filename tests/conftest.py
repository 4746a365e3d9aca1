"""Shared pytest fixtures: the app server and a phone-sized Chromium page.

Browser tests are marked ``@pytest.mark.browser``; without /usr/bin/chromium
they are skipped with the reason, except on CI (env ``CI`` set), where they fail.

    @pytest.mark.browser
    def test_new_game(browser_page: FlutterPage) -> None:
        browser_page.click_button("New game")

A test module can run another server by overriding ``app_server_command``
(``{port}`` and ``{data_dir}`` are filled in).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any, Optional

import pytest

from app.storage import DATA_DIR_ENV, FileStore, MemoryPrefs, MemoryStore, PrefsStore, Store

from tests.support.browser_support import FlutterPage, chromium_missing_reason, launch_chromium, start_app_server

if TYPE_CHECKING:
    from playwright.sync_api import Browser

    from tests.support.browser_support import AppServer


def pytest_runtest_setup(item: pytest.Item) -> None:
    if item.get_closest_marker("browser") is None:
        return
    outcome = chromium_missing_reason()
    if outcome is None:
        return
    must_fail, reason = outcome
    if must_fail:
        pytest.fail(reason, pytrace=False)
    pytest.skip(reason)


@pytest.fixture(autouse=True)
def data_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An empty data folder the app (started in this test process) keeps its games in: every
    test has its own, so no test reads, locks or writes the user's folder (a test opening the
    app on the default folder found it locked by another and saw only "store unusable")."""
    folder = tmp_path / "data"
    monkeypatch.setenv(DATA_DIR_ENV, str(folder))
    return folder


@pytest.fixture
def app_server_command() -> Optional[list[str]]:
    """The server command; ``None`` means the real app (``python -m app``)."""
    return None


@pytest.fixture
def app_server(tmp_path: Path, app_server_command: Optional[list[str]]) -> Iterator[AppServer]:
    """The app serving on a free port with an empty temporary data folder."""
    with start_app_server(tmp_path / "data", command=app_server_command) as server:
        yield server


@pytest.fixture(scope="module")
def chromium_browser() -> Iterator[Browser]:
    """One headless Chromium per test module: Playwright's sync API keeps an event loop
    running while it lives, which would break the asyncio tests of later modules."""
    outcome = chromium_missing_reason()
    if outcome is not None:
        if outcome[0]:
            pytest.fail(outcome[1], pytrace=False)
        pytest.skip(outcome[1])
    with launch_chromium() as browser:
        yield browser


@pytest.fixture
def browser_page(chromium_browser: Browser, app_server: AppServer) -> Iterator[FlutterPage]:
    """A fresh phone-sized (390x844) page with the app open and its
    accessibility tree on."""
    page = FlutterPage.new_phone(chromium_browser)
    try:
        page.open(app_server.url)
        yield page
    finally:
        page.close()


STORE_BACKENDS = ("memory", "file", "prefs")
"""Every :class:`~app.storage.Store` backend: a test taking ``store_backend`` (or a
fixture built on it) runs once per backend, like TinyDB's ``params=['memory', 'json']``."""


class RoundTripPrefs(MemoryPrefs):
    """:class:`~app.storage.MemoryPrefs` that gives way to other tasks on every call,
    as each call to the browser is a round trip: interleavings a real client allows
    happen here too."""

    async def get(self, key: str) -> Any:
        await asyncio.sleep(0)
        return await super().get(key)

    async def set(self, key: str, value: Any) -> bool:
        await asyncio.sleep(0)
        return await super().set(key, value)


@pytest.fixture(params=STORE_BACKENDS)
def store_backend(request: pytest.FixtureRequest) -> str:
    """The name of one backend; the test runs for each."""
    return str(request.param)


@pytest.fixture
def open_store(store_backend: str, tmp_path: Path) -> Iterator[Callable[[], Store]]:
    """Opens a store of this backend over one shared storage; each call opens another
    view of it: a restart or a second process for files, another tab for the browser
    (its ``localStorage`` is a :class:`RoundTripPrefs`); the memory store has one view,
    returned every time.  Every store opened is closed at the end."""
    opened: list[Store] = []
    prefs = RoundTripPrefs()
    memory = MemoryStore()

    def open_one() -> Store:
        store: Store
        if store_backend == "memory":
            store = memory
        elif store_backend == "file":
            store = FileStore(tmp_path / "store")
        else:
            store = asyncio.run(PrefsStore.open(prefs))
        opened.append(store)
        return store

    yield open_one
    for store in opened:
        store.close()
