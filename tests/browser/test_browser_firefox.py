"""The offline PWA in Firefox: Debian's firefox-esr, headless, driven by Puppeteer-core over
WebDriver BiDi (tests/support/firefox_support.py, tests/browser/firefox/driver.mjs). The Chromium journey is
tests/browser/test_pwa.py::test_offline_journey.

One Firefox serves the whole module; each test has its own server (its own port, so its own
origin) and its own browser context. Firefox headless has no WebGL here: Flutter paints on
the CPU (CanvasKit's software path), which is slower but draws the same tree.

The journeys: boot, new game, throw, bank; a reload keeps the game; an offline reload from
the service worker; a second start from Python's memory snapshot (and a page that may not
store it starts normally, saying so in the console only); a table joins by a photo of its
setup card (Puppeteer's FileChooser); a full ``localStorage`` refuses a new game with the
message; and, persistent storage refused (this module's Firefox refuses it), the page says
the browser may delete the games and that the Home Screen keeps them.

    .venv/bin/python -m pytest -s tests/browser/test_browser_firefox.py   (-s prints the start-up times)
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

from tests.support.firefox_support import (
    BOOT_TIMEOUT_MS,
    Firefox,
    FirefoxPage,
    ensure_node_modules,
    firefox_missing_reason,
)
from tests.support.browser_support import wait_until
from tests.support.fake_camera import SETUP_CARD_TABLE, setup_card_photo
from tests.support.pwa_harness import FILES_CACHE, built_site, precache_size, serving
from tests.browser.test_browser_pwa_storage_full import ADVICE, EMPTY, FILL, FULL, STORED

pytestmark = pytest.mark.browser

STORAGE_PERMISSION = "permissions.default.persistent-storage"
NOTICE = "document.getElementById('farkle-storage')"


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
    # Persistent storage refused without asking, as when a person says no to Firefox's
    # question (headless, the question would stay unanswered).
    with Firefox.launch(tmp_path_factory.mktemp("firefox"), prefs={STORAGE_PERMISSION: 2}) as browser:
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


def type_names(page: FirefoxPage, *names: str) -> None:
    """Type the players' names on New game, the last seat first, and wait for the app's own
    "Who starts" to show the first seat's whole: its change is the last to reach the app, so
    every name has (under load Firefox's field showed "Ann" while the app had "An" when Start
    game came, as WebKit's did)."""
    for seat, name in reversed(list(enumerate(names, start=1))):
        page.type_into(f"Player {seat} name", name)
    page.wait_for_text(f"Who starts: {names[0]}")


def new_game(page: FirefoxPage, *names: str) -> None:
    page.click_button("New game")
    type_names(page, *names)
    page.click_button("Start game")
    page.wait_for_text(f"Enter {names[0]}'s throw", timeout_ms=60_000)


def entered(page: FirefoxPage) -> int:
    return sum(1 for name in page.buttons() if re.match(r"Entered \d", name))


def throw(page: FirefoxPage, faces: str) -> None:
    """Tap the faces in, each seen entered before the next, then enter the throw."""
    for count, face in enumerate(faces.split(), start=1):
        page.click_button(f"Face {face}")
        wait_until(lambda: entered(page) == count, 30,
                   lambda: f"face {face}: {entered(page)} faces entered, not {count}")
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


def test_a_table_joins_its_event_from_a_photo_of_its_setup_card(site: Path, tab: FirefoxPage, tmp_path: Path) -> None:
    """The fallback on any phone: "Read a photo of the setup code" opens the file picker (a
    real one: Puppeteer's FileChooser); the photo's QR is read by the site's decoder and the
    table joins, its seats shown."""
    with serving(site, tmp_path / "www") as server:
        time_to_home(tab, server.url)
        tab.click_button("Join a tournament table")
        tab.choose_file("Read a photo of the setup code", setup_card_photo(tmp_path / "card.jpg"))
        started = time.monotonic()
        tab.wait_for_text(SETUP_CARD_TABLE, timeout_ms=BOOT_TIMEOUT_MS)
        print(f"\nFirefox: the photo read and the table joined in {time.monotonic() - started:.1f} s")
        assert any("Zoë" in line for line in tab.texts()), tab.texts()  # the seats, accent and all
        tab.wait_for_text("Start the table's game")


def test_a_full_storage_refuses_a_new_game_with_the_message_and_stores_nothing(
        site: Path, tab: FirefoxPage, tmp_path: Path) -> None:
    """Another script's entries fill ``localStorage`` (a little room left, less than a game
    takes): starting a game shows the full-storage message and stores nothing; with room
    again the same names start it."""
    with serving(site, tmp_path / "www") as server:
        time_to_home(tab, server.url)
        try:
            assert tab.evaluate(f"({FILL})(200)") == "QuotaExceededError"
            before = tab.evaluate(f"({STORED})()")
            tab.click_button("New game")
            type_names(tab, "Ann", "Bob")
            tab.click_button("Start game")
            tab.wait_for_text("The game was not started: ", timeout_ms=60_000)
            shown = [line for line in tab.texts() if line.startswith("The game was not started: ")]
            assert len(shown) == 1 and FULL in shown[0] and ADVICE in shown[0], tab.texts()
            assert tab.evaluate(f"({STORED})()") == before
            tab.evaluate(f"({EMPTY})()")
            tab.click_button("Start game")
            tab.wait_for_text("Enter Ann's throw")
        finally:
            # Firefox counts localStorage per site (127.0.0.1, every port): left full, the
            # next tests' pages would not even start.
            tab.evaluate(f"({EMPTY})()")


# The page's Cache Storage refuses every put, as a browser that keeps nothing for the site
# does (the workers' is left alone: the snapshot worker still makes the snapshot).
REFUSE_CACHE_PUT = """
Cache.prototype.put = function () {
  return Promise.reject(new DOMException("The site's storage is not kept here", "SecurityError"));
};
"""


def test_a_browser_that_keeps_no_snapshot_starts_python_normally_and_says_so_in_the_console_only(
        site: Path, tab: FirefoxPage, tmp_path: Path) -> None:
    """Where the page may not store anything, no snapshot is made (the page tries a small
    entry first): the console says why, the screen says nothing, and the next start is a
    normal one that works."""
    tab.add_init_script(REFUSE_CACHE_PUT)
    with serving(site, tmp_path / "www") as server:
        time_to_home(tab, server.url)
        tab.wait_for_function("['saved', 'failed'].includes(globalThis.fletSnapshotState)", timeout_ms=120_000)
        assert tab.evaluate("globalThis.fletSnapshotState") == "failed", tab.evaluate("globalThis.fletSnapshotDetail")
        # The page found it could store nothing before making one: no CPU spent on it.
        assert "bytes" not in tab.evaluate("globalThis.fletSnapshotDetail"), tab.evaluate("globalThis.fletSnapshotDetail")
        said = [line for line in tab.console if "Python snapshot" in line]
        assert said and "did not keep it" in said[-1] and "not kept here" in said[-1], tab.console[-20:]
        assert not any("snapshot" in line.lower() for line in tab.texts()), tab.texts()

        time_to_home(tab, reload=True)
        again = python_start(tab)
        assert again["snapshot"] is False and again["reason"] == "none stored", again
        new_game(tab, "Cy", "Di")
        throw(tab, "2 2 3 3 4 6")
        tab.wait_for_text("Enter Di's throw", timeout_ms=60_000)


def test_a_refused_persistent_storage_is_told_with_the_home_screen_until_got_it(
        site: Path, tab: FirefoxPage, tmp_path: Path) -> None:
    """Firefox refused to keep the site's storage (this module's Firefox refuses): the page
    says the browser may delete the games and that the Home Screen keeps them, over the app
    without getting in its way (it goes at the first tap); "Got it" keeps it away next time."""
    with serving(site, tmp_path / "www") as server:
        time_to_home(tab, server.url)
        said = str(tab.wait_for_function(f"{NOTICE} && {NOTICE}.textContent"))
        assert tab.evaluate("globalThis.farkleStorageKept") is False
        assert "may delete the games and events kept here" in said and "7 days" in said, said
        assert "Add Farkle Table to your Home Screen to keep them" in said, said
        tab.click_button("New game")  # through the notice
        tab.wait_for_text("Player 1 name")
        assert tab.evaluate(f"{NOTICE} === null"), "the notice stayed after the first tap"

        time_to_home(tab, server.url)  # told again: nobody said "Got it"
        tab.wait_for_function(NOTICE + " !== null")
        tab.evaluate(f"{NOTICE}.querySelector('button').click()")
        assert tab.evaluate(f"{NOTICE} === null")
        time_to_home(tab, server.url)
        tab.wait_for_function("globalThis.farkleStorageKept === false")
        assert tab.evaluate(f"{NOTICE} === null"), "told again after Got it"
