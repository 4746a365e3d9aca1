"""The offline PWA in WebKit (the engine of Safari and of every iPhone browser): WebKitGTK's
MiniBrowser driven by Selenium through WebKitWebDriver on a private Xvfb display
(tests/support/webkit_support.py), all from Debian packages (``make browser``).

One browser session for the module, one journey in steps (each test runs the steps before
it that it needs, so any of them can run alone):

1. first load of the built site (http.server under /apps/farkle-table/, as test_pwa.py):
   the home screen, a two-player game, a scoring throw, a bank;
2. a reload: the same game with Ann's 1,050;
3. the second load's Python start: from the memory snapshot the first load made;
4. offline: the service worker controls the page, the server is stopped, a reload still
   starts the app with the game, and a throw is played;
5. a table joins an event by a photo of its setup card (the file picker's input is given
   the file: tests/support/webkit_support.py ``choose_file``);
6. a full ``localStorage`` refuses a new game with the message and stores nothing.

Steps 5 and 6 go back to the game from Home when they are done, so any step may follow.

Start-up times are printed (``-s``) and written to ``webkit-timings.json`` in the session's
log folder.
"""

from __future__ import annotations

import json
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from tests.support.baseline_app import app_source
from tests.support.fake_camera import SETUP_CARD_TABLE, setup_card_photo
from tests.support.pwa_harness import SUB_PATH, FILES_CACHE, Server, built_site, precache_size, serving
from tests.browser.test_browser_pwa_storage_full import ADVICE, EMPTY, FILL, FULL, STORED
from tests.support.webkit_support import BOOT_TIMEOUT_S, WebKitPage, new_game, throw, webkit_missing_reason, webkit_session

pytestmark = pytest.mark.browser

ANN_BANKED = "Ann banks 1,050: total 1,050."
SNAPSHOT_CACHE = f"farkle-table-python-snapshot:{SUB_PATH}"


@dataclass
class Journey:
    """The one MiniBrowser session and what the steps so far have left."""

    page: WebKitPage
    server: Server
    site: Path
    url: str
    log_dir: Path
    game_url: str = ""
    storage_notice: str = ""
    first_start: dict[str, Any] = field(default_factory=dict)
    snapshot_state: str = ""
    snapshot_detail: dict[str, Any] = field(default_factory=dict)
    second_start: dict[str, Any] = field(default_factory=dict)
    offline_start: dict[str, Any] = field(default_factory=dict)
    timings: dict[str, float] = field(default_factory=dict)

    def record(self, name: str, seconds: float) -> None:
        self.timings[name] = round(seconds, 2)


@pytest.fixture(scope="module")
def journey(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Journey]:
    reason = webkit_missing_reason()
    if reason:
        pytest.skip(reason)
    source = app_source()
    site, _ = built_site(source.app_dir, source.engine_dir, label=source.cache_label)
    logs = tmp_path_factory.mktemp("webkit-logs")
    with serving(site, tmp_path_factory.mktemp("webkit-www")) as server, webkit_session(logs) as page:
        # localhost, not 127.0.0.1: the name a phone's developer would use; both are secure contexts.
        state = Journey(page, server, site, f"http://localhost:{server.port}{SUB_PATH}", logs)
        try:
            yield state
        finally:
            summary = {"timings_s": state.timings, "first_start": state.first_start,
                       "snapshot": state.snapshot_state, "snapshot_detail": state.snapshot_detail,
                       "second_start": state.second_start, "offline_start": state.offline_start,
                       "console": _console(page)}
            (logs / "webkit-timings.json").write_text(json.dumps(summary, indent=2), encoding="utf-8")
            print(f"\nWebKit PWA: {json.dumps(summary)}")


def _console(page: WebKitPage) -> list[str]:
    try:
        return page.console()
    except Exception as err:  # the session may be gone: the summary must still be written
        return [f"(console unreadable: {err})"]


def home_screen(journey: Journey) -> None:
    journey.page.button("New game", timeout_s=BOOT_TIMEOUT_S)


def first_turn(journey: Journey) -> None:
    """Step 1 (once per session): load, start Ann v Bob, Ann banks 1,050."""
    if journey.game_url:
        return
    page = journey.page
    started = time.monotonic()
    page.open(journey.url)
    home_screen(journey)
    journey.record("first_load_to_home", time.monotonic() - started)
    journey.storage_notice = page.wait_storage_notice()
    journey.first_start = page.wait_python_start()
    new_game(page, "Ann", "Bob")
    throw(page, "1 1 1 2 3 5")
    page.wait_for_text("Ann threw 1 1 1 2 3 5")
    page.click_button("Best: keep 1 1 1 5 for 1,050")
    page.click_button("Bank 1,050")
    page.wait_for_text(ANN_BANKED)
    page.wait_for_text("Enter Bob's throw")
    assert page.url.startswith(journey.url + "game/"), page.url
    journey.game_url = page.url


def second_load(journey: Journey) -> None:
    """Step 2 (once per session): once the first load's Python snapshot is made (or failed),
    reload the game's page."""
    first_turn(journey)
    if journey.second_start:
        return
    page = journey.page
    started = time.monotonic()
    journey.snapshot_state = page.wait_python_snapshot()
    journey.snapshot_detail = page.snapshot_detail()
    journey.record("snapshot_wait_after_game", time.monotonic() - started)
    started = time.monotonic()
    page.reload()
    page.wait_for_text("Enter Bob's throw", BOOT_TIMEOUT_S)
    journey.record("second_load_to_game", time.monotonic() - started)
    journey.second_start = page.wait_python_start()


def shows_anns_score(page: WebKitPage) -> None:
    """Ann's 1,050 on the table (her bank was kept): the scoreboard, or the last event."""
    page.wait_for_text("Enter Bob's throw")
    assert any("1,050" in line and "Ann" in line for line in page.texts()), page.texts()


def test_first_load_home_screen_new_game_throw_and_bank(journey: Journey) -> None:
    first_turn(journey)
    page = journey.page
    assert journey.first_start.get("snapshot") is False, journey.first_start  # a fresh profile: none yet
    assert page.wait_sw_control() == journey.url + "sw.js"
    shows_anns_score(page)


def test_the_page_says_the_browser_may_delete_its_games_and_that_the_home_screen_keeps_them(
        journey: Journey) -> None:
    """WebKitGTK has no ``navigator.storage``, so nothing keeps the site's storage: the page
    says so (build/templates/register-sw.html), over the app without getting in its way (the
    game was played through it), and it is gone after the first tap."""
    first_turn(journey)
    assert "may delete the games and events kept here" in journey.storage_notice, journey.storage_notice
    assert "7 days" in journey.storage_notice and "Add Farkle Table to your Home Screen" in journey.storage_notice
    assert journey.page.storage_notice() == ""


def test_reload_keeps_the_game_and_its_score(journey: Journey) -> None:
    second_load(journey)
    page = journey.page
    assert page.url == journey.game_url
    shows_anns_score(page)
    page.wait_for_text(ANN_BANKED)


def test_second_load_starts_python_from_the_snapshot(journey: Journey) -> None:
    """The first load made a memory snapshot of Python in the background (python-snapshot.js)
    and the page kept it in Cache Storage, read back whole (python-early.js); the second load
    restores it. WebKitGTK lost the entry when the snapshot's worker stored it itself and was
    terminated right after: this fails if the snapshot is lost again."""
    second_load(journey)
    first, second = journey.first_start, journey.second_start
    journey.record("first_python_start", first.get("ms", 0) / 1000)
    journey.record("second_python_start", second.get("ms", 0) / 1000)
    assert first.get("snapshot") is False, first
    assert journey.snapshot_state == "saved", (journey.snapshot_detail, journey.page.console())
    assert journey.snapshot_detail["stored"] < journey.snapshot_detail["bytes"] / 2, journey.snapshot_detail
    assert second.get("snapshot") is True, (
        f"a snapshot was saved ({journey.snapshot_detail}) but the second load did not use it: {second}")
    assert journey.page.cached_files(SNAPSHOT_CACHE) == 1


def server_answers(url: str) -> bool:
    try:
        with urllib.request.urlopen(url, timeout=2):
            return True
    except (urllib.error.URLError, ConnectionError, TimeoutError):
        return False


def test_offline_reload_starts_the_app_from_the_service_worker(journey: Journey) -> None:
    first_turn(journey)
    page = journey.page
    assert page.wait_sw_control() == journey.url + "sw.js", page.service_worker_state()
    expected = precache_size(journey.site)
    held = page.cached_files(FILES_CACHE)
    assert held >= expected, f"the service worker holds {held} of {expected} files: not ready for offline"
    journey.server.stop()
    try:
        assert not server_answers(journey.url), "the server still answers"
        started = time.monotonic()
        page.reload()
        page.wait_for_text("Enter Bob's throw", BOOT_TIMEOUT_S)
        journey.record("offline_reload_to_game", time.monotonic() - started)
        assert page.url == journey.game_url
        assert page.wait_sw_control(5) == journey.url + "sw.js"
        shows_anns_score(page)
        journey.offline_start = page.wait_python_start()
        # Python answers offline: Bob farkles, Ann is next.
        throw(page, "2 2 3 3 4 6")
        page.wait_for_text("Farkle! 2 2 3 3 4 6 has nothing to set aside.")
        page.wait_for_text("Enter Ann's throw")
    finally:
        journey.server.start()  # same port: a later step may load again


def back_to_the_game(journey: Journey) -> None:
    """From any screen, through Home, to Ann and Bob's game (as a person would)."""
    page = journey.page
    if "Home" in page.button_names():
        page.click_button("Home")
    page.click_button("Open the game Ann 1,050, Bob 0", exact=False)
    page.wait_for_text("Ann · Bob", exact=True)  # whoever is to play (the offline step plays Bob's turn)
    assert page.url == journey.game_url


def test_a_table_joins_its_event_from_a_photo_of_its_setup_card(journey: Journey, tmp_path: Path) -> None:
    """The fallback on any phone: "Read a photo of the setup code" opens the file picker; the
    photo's QR is read (the site's QR decoder, in the Python worker) and the table joins."""
    first_turn(journey)
    page = journey.page
    try:
        page.click_button("Home")
        page.click_button("Join a tournament table")
        page.choose_file("Read a photo of the setup code", setup_card_photo(tmp_path / "card.jpg"))
        started = time.monotonic()
        page.wait_for_text(SETUP_CARD_TABLE, BOOT_TIMEOUT_S)  # the decoder is slow in WebKit under load
        journey.record("photo_read", time.monotonic() - started)
        assert any("Zoë" in line for line in page.texts()), page.texts()  # the seats, accent and all
        page.button("Start the table's game")
    finally:
        back_to_the_game(journey)


def test_a_full_storage_refuses_a_new_game_with_the_message_and_stores_nothing(journey: Journey) -> None:
    """Another script's entries fill ``localStorage`` (a little room left, less than a game
    takes): starting a game shows the full-storage message and stores nothing; with room
    again the same names start it."""
    first_turn(journey)
    page = journey.page
    try:
        page.click_button("Home")
        assert page.evaluate(FILL, 200) == "QuotaExceededError"
        before = page.evaluate(STORED)
        page.click_button("New game")
        page.type_into("Player 1 name", "Cy")
        page.type_into("Player 2 name", "Di")
        page.click_button("Start game")
        page.wait_for_text("The game was not started: ")
        shown = [line for line in page.texts() if line.startswith("The game was not started: ")]
        assert len(shown) == 1 and FULL in shown[0] and ADVICE in shown[0], page.texts()
        assert page.evaluate(STORED) == before
        assert page.field_value("Player 1 name") == "Cy"
        page.evaluate(EMPTY)
        page.click_button("Start game")
        page.wait_for_text("Enter Cy's throw")
    finally:
        page.evaluate(EMPTY)
        back_to_the_game(journey)
