"""The offline PWA in Firefox: Debian's firefox-esr, headless, driven by Puppeteer-core over
WebDriver BiDi (tests/firefox_support.py, tests/firefox/driver.mjs). The Chromium journey is
tests/test_pwa.py::test_offline_journey.

One Firefox serves the whole module; each test has its own server (its own port, so its own
origin) and its own browser context. Firefox headless has no WebGL here: Flutter paints on
the CPU (CanvasKit's software path), which is slower but draws the same tree.

    .venv/bin/python -m pytest -s tests/test_browser_firefox.py   (-s prints the start-up times)
"""

from __future__ import annotations

import json
import re
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.firefox_support import (
    BOOT_TIMEOUT_MS,
    Firefox,
    FirefoxPage,
    ensure_node_modules,
    firefox_missing_reason,
)
from tests.pwa_harness import FILES_CACHE, built_site, precache_size, serving

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def firefox(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Firefox]:
    """One headless firefox-esr for every test here; Puppeteer-core installed on first use."""
    reason = firefox_missing_reason()
    if reason:
        pytest.skip(reason)
    reason = ensure_node_modules()
    if reason:
        if reason.startswith("npm not found"):
            pytest.skip(reason)
        pytest.fail(reason, pytrace=False)
    with Firefox.launch(tmp_path_factory.mktemp("firefox")) as browser:
        yield browser


@pytest.fixture(scope="module")
def site() -> Path:
    return built_site()[0]


@pytest.fixture
def tab(firefox: Firefox) -> Iterator[FirefoxPage]:
    """A phone-sized tab in a browser context of its own."""
    page = firefox.new_page()
    yield page
    page.close()


# --------------------------------------------------------------------- acting like a person


def home(page: FirefoxPage, timeout_ms: int = BOOT_TIMEOUT_MS) -> None:
    """The home screen answers: its "New game" button is there."""
    page.wait_for_function(
        "[...document.querySelectorAll('flt-semantics-host [role=button]')]"
        ".some(b => b.textContent.trim() === 'New game' || b.getAttribute('aria-label') === 'New game')",
        timeout_ms=timeout_ms)


def time_to_home(page: FirefoxPage, url: str | None = None, reload: bool = False) -> float:
    """Seconds from navigation until the home screen answers."""
    started = time.monotonic()
    if reload:
        page.reload()
    else:
        assert url
        page.open(url)
    home(page)
    return time.monotonic() - started


def new_game(page: FirefoxPage, *names: str) -> None:
    page.click_button("New game")
    for seat, name in enumerate(names, start=1):
        page.type_into(f"Player {seat} name", name)
    page.click_button("Start game")
    page.wait_for_text(f"Enter {names[0]}'s throw", timeout_ms=60_000)


def entered(page: FirefoxPage) -> int:
    return sum(1 for name in page.buttons() if re.match(r"Entered \d", name))


def throw(page: FirefoxPage, faces: str) -> None:
    """Tap the faces in, each seen entered before the next, then enter the throw."""
    for count, face in enumerate(faces.split(), start=1):
        page.click_button(f"Face {face}")
        deadline = time.monotonic() + 30
        while entered(page) != count:
            assert time.monotonic() < deadline, f"face {face}: {entered(page)} faces entered, not {count}"
            time.sleep(0.1)
    page.click_button("Enter throw")


def ann_banks_1050(page: FirefoxPage) -> None:
    """Ann sets a 5 aside, rolls five dice, keeps 1 1 1 and banks 1,050; Bob is next."""
    throw(page, "5 2 3 4 6 6")
    page.click_button("Die 1 shows 5")
    page.click_button("Roll five dice")
    throw(page, "1 1 1 2 3")
    page.click_button("Best: keep 1 1 1 for 1,000")
    page.click_button("Bank 1,050")
    page.wait_for_text("Ann is on the board with 1,050.")
    page.wait_for_text("Enter Bob's throw")


def first_shown(page: FirefoxPage, *texts: str, timeout_ms: int = BOOT_TIMEOUT_MS) -> str:
    """Which of ``texts`` the page shows first (a part of its accessibility tree's text)."""
    return str(page.wait_for_function(
        f"(t => {json.dumps(list(texts))}.find(x => t.includes(x)))"
        "((document.querySelector('flt-semantics-host') || {innerText: ''}).innerText)",
        timeout_ms=timeout_ms))


def scoreboard(page: FirefoxPage) -> list[str]:
    """The lines that give a player's total (e.g. "Ann 1,050")."""
    return [line for line in page.texts() if re.search(r"\b(Ann|Bob)\b.*\d", line)]


def python_start(page: FirefoxPage) -> dict[str, Any]:
    """How Python started on this page (build/templates/python-early.js):
    {"snapshot": bool, "reason": str, "ms": int}."""
    return dict(page.wait_for_function("globalThis.fletPythonStart || null", timeout_ms=BOOT_TIMEOUT_MS))


def wait_precached(page: FirefoxPage, site: Path, timeout_ms: int = 120_000) -> str:
    """Until the site's service worker controls the page and holds every file; returns its URL."""
    supported = page.evaluate("'serviceWorker' in navigator && window.isSecureContext")
    assert supported, "Firefox offers no service worker to this page (navigator.serviceWorker missing)"
    page.wait_for_function("navigator.serviceWorker.controller !== null", timeout_ms=timeout_ms)
    page.wait_for_function(
        f"caches.open({FILES_CACHE!r}).then(c => c.keys()).then(k => k.length >= {precache_size(site)})",
        timeout_ms=timeout_ms)
    return str(page.evaluate("navigator.serviceWorker.controller.scriptURL"))


def off_machine(urls: list[str]) -> list[str]:
    return [u for u in urls if not u.startswith(("http://127.0.0.1", "data:", "blob:", "about:"))]


# --------------------------------------------------------------------- journeys


def test_boot_start_a_game_throw_and_bank(site: Path, tab: FirefoxPage, tmp_path: Path) -> None:
    """First visit: the home screen comes up; a two-player game starts, a throw is entered,
    dice are set aside and the turn is banked."""
    with serving(site, tmp_path / "www") as server:
        seconds = time_to_home(tab, server.url)
        print(f"\nFirefox: home screen {seconds:.1f} s after navigation (first visit)")
        new_game(tab, "Ann", "Bob")
        assert tab.url.startswith(server.url + "game/"), tab.url
        ann_banks_1050(tab)
        assert any("1,050" in line for line in scoreboard(tab)), tab.texts()
        assert off_machine(tab.requests) == [], "requests left the machine"


def test_reload_keeps_the_game_and_its_score(site: Path, tab: FirefoxPage, tmp_path: Path) -> None:
    """A reload in the middle of a game comes back to that game, Bob to play, Ann's 1,050 kept."""
    with serving(site, tmp_path / "www") as server:
        time_to_home(tab, server.url)
        new_game(tab, "Ann", "Bob")
        ann_banks_1050(tab)
        game_url, before = tab.url, scoreboard(tab)
        started = time.monotonic()
        tab.reload()
        shown = first_shown(tab, "Enter Bob's throw", "Not found", "New game")
        print(f"\nFirefox: back in the game {time.monotonic() - started:.1f} s after the reload")
        assert shown == "Enter Bob's throw", f"the game is lost after the reload: {tab.texts()}"
        assert tab.url == game_url
        assert scoreboard(tab) == before and any("1,050" in line for line in before), tab.texts()


def test_offline_reload_starts_from_the_service_worker(site: Path, tab: FirefoxPage, tmp_path: Path) -> None:
    """Once the site's service worker controls the page and holds every file, the server
    goes away; a reload still starts the app, in the game, and the game goes on."""
    with serving(site, tmp_path / "www") as server:
        url = server.url
        time_to_home(tab, url)
        assert wait_precached(tab, site) == url + "sw.js"
        new_game(tab, "Ann", "Bob")
        throw(tab, "2 2 3 3 4 6")
        tab.wait_for_text("Enter Bob's throw")
    with pytest.raises(urllib.error.URLError):
        urllib.request.urlopen(url, timeout=5)  # the server is gone
    started = time.monotonic()
    tab.reload()
    tab.wait_for_text("Enter Bob's throw", timeout_ms=BOOT_TIMEOUT_MS)
    print(f"\nFirefox: offline reload back in the game in {time.monotonic() - started:.1f} s")
    assert tab.evaluate("navigator.serviceWorker.controller !== null")
    throw(tab, "2 2 3 3 4 6")
    tab.wait_for_text("Enter Ann's throw")
    assert off_machine(tab.requests) == [], "requests left the machine"


def test_second_start_restores_python_from_its_snapshot(site: Path, tab: FirefoxPage, tmp_path: Path) -> None:
    """The first start makes a memory snapshot of the started Python (python-snapshot.js);
    the second start (the app opened again in the same profile) restores it, and the app works."""
    with serving(site, tmp_path / "www") as server:
        first = time_to_home(tab, server.url)
        start = python_start(tab)
        assert start["snapshot"] is False and start["reason"] == "none stored", start
        tab.wait_for_function("['saved', 'failed'].includes(globalThis.fletSnapshotState)", timeout_ms=120_000)
        detail = tab.evaluate("globalThis.fletSnapshotDetail")
        assert tab.evaluate("globalThis.fletSnapshotState") == "saved", (detail, tab.console[-20:])

        second = time_to_home(tab, server.url)
        again = python_start(tab)
        assert again["snapshot"] is True, again
        new_game(tab, "Cy", "Di")  # the restored Python runs the app
        throw(tab, "2 2 3 3 4 6")
        tab.wait_for_text("Enter Di's throw")
    print(f"\nFirefox: home screen first start {first:.1f} s (Python {start['ms']} ms), "
          f"second start {second:.1f} s (Python from the snapshot {again['ms']} ms); snapshot {detail}")
