"""The offline PWA in WebKit (the engine of Safari and of every iPhone browser): WebKitGTK's
MiniBrowser driven by Selenium through WebKitWebDriver on a private Xvfb display
(tests/webkit_support.py), all from Debian packages (``make browser``).

One browser session for the module, one journey in steps (each test runs the steps before
it that it needs, so any of them can run alone):

1. first load of the built site (http.server under /apps/farkle-table/, as test_pwa.py):
   the home screen, a two-player game, a scoring throw, a bank;
2. a reload: the same game with Ann's 1,050;
3. the second load's Python start: from the memory snapshot the first load made (or, if
   WebKit would not keep it in Cache Storage, a normal start; what happened is recorded);
4. offline: the service worker controls the page, the server is stopped, a reload still
   starts the app with the game, and a throw is played.

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

from tests.baseline_app import app_source
from tests.pwa_harness import SUB_PATH, FILES_CACHE, Server, built_site, precache_size, serving
from tests.webkit_support import BOOT_TIMEOUT_S, WebKitPage, new_game, throw, webkit_missing_reason, webkit_session

pytestmark = pytest.mark.browser

ANN_BANKED = "Ann banks 1,050: total 1,050."


@dataclass
class Journey:
    """The one MiniBrowser session and what the steps so far have left."""

    page: WebKitPage
    server: Server
    site: Path
    url: str
    log_dir: Path
    game_url: str = ""
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


def test_reload_keeps_the_game_and_its_score(journey: Journey) -> None:
    second_load(journey)
    page = journey.page
    assert page.url == journey.game_url
    shows_anns_score(page)
    page.wait_for_text(ANN_BANKED)


def test_second_load_starts_python_from_the_snapshot(journey: Journey) -> None:
    """The first load made a memory snapshot of Python in the background (python-early.js,
    python-snapshot.js) and kept it in Cache Storage; the second load must restore it. When
    WebKit lost the stored entry, the second load must have started Python normally ("none
    stored"): an expected failure that says why (below). Anything else fails."""
    second_load(journey)
    first, second = journey.first_start, journey.second_start
    journey.record("first_python_start", first.get("ms", 0) / 1000)
    journey.record("second_python_start", second.get("ms", 0) / 1000)
    assert first.get("snapshot") is False, first
    assert journey.snapshot_state in ("saved", "failed"), journey.snapshot_state
    if journey.snapshot_state == "failed":
        assert second.get("snapshot") is False, second
        pytest.xfail(f"WebKit made no Python snapshot: {journey.snapshot_detail}; "
                     f"the second load started normally: {second}")
    if second.get("snapshot") is False and second.get("reason") == "none stored":
        pytest.xfail(
            f"WebKitGTK lost the saved snapshot ({journey.snapshot_detail}): the second load found "
            "none and started Python normally. Seen with WebKitGTK 2.50.6 in its automation "
            "(ephemeral) session: a Cache Storage entry put by a dedicated worker is dropped when "
            "that worker is terminated right after put() resolves and no other context opened the "
            "cache; python-early.js terminates the snapshot maker on \"saved\". Kept when the worker "
            "lives ~1 s longer or the page opened the cache first.")
    assert second.get("snapshot") is True, (
        f"a snapshot was saved ({journey.snapshot_detail}) but the second load did not use it: {second}")


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
