"""Nothing is lost across tabs: two tabs of one game, and two tabs of the organizer, in one
browser (one context, two pages), for the offline PWA (each tab its own Python, one
localStorage) and for the local server (`python -m app`, one data folder). An action in the
tab that is behind is refused; that tab then shows the newer state with a message, and the
action entered there again counts. Both tabs' actions are kept.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import re
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from app.event.organizer import Organizer
from app.storage import FileStore, MemoryPrefs, PrefsStore, Store
from app.table.tournament_table import result_qr_text
from engine import (
    Game,
    Tournament,
    decode_setup,
    encode_result,
    result_from_game,
    typing_form,
)
from tests.support.browser_support import (
    PHONE_VIEWPORT,
    FlutterPage,
    launch_chromium,
    new_game,
    start_app_server,
    throw,
)
from tests.support.game_play import play_game
from tests.support.pwa_harness import BOOT_TIMEOUT_MS, app_ready, built_site, serving

CHANGED = "This game was changed on another screen meanwhile"
EVENT_CHANGED = "This event was changed on another screen meanwhile"
NAMES = ["Ann", "Bob", "Cy", "Di", "Ed", "Flo", "Gus", "Hal"]
ADDRESS = "http://192.168.1.20:8550"


def shows(page: FlutterPage, text: str, timeout_ms: int) -> bool:
    try:
        page.wait_for_text(text, timeout_ms)
    except Exception:  # noqa: BLE001 - Playwright's timeout
        return False
    return True


@contextlib.contextmanager
def two_tabs(kind: str, tmp_path: Path, local_storage: dict[str, str] | None = None) -> Iterator[tuple[Any, str]]:
    """One browser context (its tabs share the site's storage) and the URL of the app's start.

    :param local_storage: ``ft.SharedPreferences`` entries (PWA) the site's ``localStorage``
        holds before the app first reads it; an entry the app has written since is kept.
    """
    with contextlib.ExitStack() as stack:
        if kind == "pwa":
            root, _ = built_site()
            url = stack.enter_context(serving(root, tmp_path / "www")).url
        else:
            url = stack.enter_context(start_app_server(tmp_path / "data")).url
        browser = stack.enter_context(launch_chromium())
        context = browser.new_context(viewport=PHONE_VIEWPORT)
        stack.callback(context.close)
        if local_storage:
            context.add_init_script(SEED_LOCAL_STORAGE.replace("ENTRIES", json.dumps(local_storage)))
        yield context, url


# What shared_preferences_web keeps: localStorage["flutter." + key] = JSON of the value
# (as tests/bench/bench_pwa.py fills it). Written only where nothing is stored yet, so that a
# reload does not put the seed back over what the tabs saved.
SEED_LOCAL_STORAGE = """(() => {
  if (location.protocol !== "http:") return;  // about:blank has no storage of the site's
  for (const [key, value] of Object.entries(ENTRIES)) {
    if (localStorage.getItem("flutter." + key) === null) localStorage.setItem("flutter." + key, JSON.stringify(value));
  }
})();"""


def stored_event(kind: str, tmp_path: Path) -> tuple[Tournament, dict[str, str]]:
    """An event of 8 checked-in players with round 1 drawn (2 tables, no result yet), kept where
    the app reads it: the server's data folder (before the server starts), or for the PWA the
    ``localStorage`` entries that hold it (returned, for :func:`two_tabs`)."""

    async def seed(store: Store) -> Tournament:
        organizer = Organizer(store)
        await organizer.create("Mayor's cup", event_id="MAYOR-26")
        for name in NAMES:
            await organizer.act(lambda t, name=name: t.check_in(t.sign_up(name)))
        await organizer.act(lambda t: t.draw_seats(2026))
        return organizer.open_tournament

    async def seed_browser(prefs: MemoryPrefs) -> Tournament:
        return await seed(await PrefsStore.open(prefs))

    def seed_local_storage() -> tuple[Tournament, dict[str, str]]:
        prefs = MemoryPrefs()
        tournament = asyncio.run(seed_browser(prefs))
        return tournament, {key: str(value) for key, value in prefs.values.items()}

    def seed_folder() -> tuple[Tournament, dict[str, str]]:
        store = FileStore(tmp_path / "data")
        try:
            return asyncio.run(seed(store)), {}
        finally:
            store.close()

    with ThreadPoolExecutor(max_workers=1) as worker:  # no event loop of Playwright's in the way
        return worker.submit(seed_local_storage if kind == "pwa" else seed_folder).result()


def result_code(tournament: Tournament, table: int, seed: int) -> str:
    """What table ``table``'s device shows once its game is over (the code, QR form)."""
    setup = decode_setup(tournament.setup_code(table, ""))
    game = play_game(Game(list(setup.names), setup.rules, 0), random.Random(seed))
    return encode_result(result_from_game(game, setup), setup.key)


def enter_until_applied(tab: FlutterPage, button: str, applied: str | re.Pattern[str], newer: str,
                        timeout_ms: int = 30_000) -> bool:
    """Press ``button`` in a tab that may be behind the stored event. Either the write is
    applied at once (``applied`` shows), or it is refused with the message: the tab then shows
    the stored event (``newer``: the other tab's write), and the same action entered again is
    applied. Returns whether the tab was refused."""
    tab.click_button(button)
    told = tab.page.get_by_text(EVENT_CHANGED)
    told.or_(tab.page.get_by_text(applied)).first.wait_for(state="visible", timeout=timeout_ms)
    if not told.count():
        return False
    tab.wait_for_text(newer, timeout_ms)
    tab.click_button(button)  # entered again, over what the tab now shows
    tab.page.get_by_text(applied).first.wait_for(state="visible", timeout=timeout_ms)
    return True


@pytest.mark.browser
@pytest.mark.parametrize("kind", ["pwa", "server"])
def test_two_tabs_of_one_game_refuse_the_stale_action_and_lose_nothing(kind: str, tmp_path: Path) -> None:
    with two_tabs(kind, tmp_path) as (context, url):
        first = FlutterPage(context.new_page())
        first.open(url)
        app_ready(first)
        try:
            new_game(first, "Ann", "Bob")
        except Exception:
            first.screenshot(tmp_path / "first.png")
            raise
        game_url = first.page.url
        if kind == "pwa":  # the game's own address is answered by the service worker
            first.page.wait_for_function("navigator.serviceWorker.controller !== null", timeout=90_000)
        second = FlutterPage(context.new_page())  # a second tab, in front: typing goes to it
        second.open(game_url)
        second.wait_for_text("Enter Ann's throw", BOOT_TIMEOUT_MS)

        first.page.bring_to_front()
        throw(first, "2 2 3 3 4 6")  # Ann farkles in the first tab
        first.wait_for_text("Enter Bob's throw")

        second.page.bring_to_front()  # the second tab still shows Ann's turn
        throw(second, "1 1 1 2 3 4")
        if not shows(second, CHANGED, 5_000):  # a turn in progress may be written only at its end
            second.click_button("Best: keep 1 1 1 for 1,000")
            second.click_button("Bank 1,000")
            if not shows(second, CHANGED, 20_000):
                second.screenshot(tmp_path / "second.png")
                pytest.fail("the tab that was behind banked over the other tab's farkle: a turn was lost")
        second.wait_for_text("Enter Bob's throw")  # it now shows the first tab's state
        throw(second, "2 2 3 3 4 6")  # entered again where it now belongs: Bob farkles
        second.wait_for_text("Enter Ann's throw")

        first.page.bring_to_front()  # now the first tab is behind
        throw(first, "2 2 3 3 4 6")  # a farkle ends Bob's turn, over a game that moved on
        first.wait_for_text(CHANGED)
        first.wait_for_text("Enter Ann's throw")

        first.reload()  # what is stored: both farkles, nothing from the refused throws
        first.wait_for_text("Enter Ann's throw", BOOT_TIMEOUT_MS)
        first.click_button("History")
        first.wait_for_text("1. Ann: farkled")  # the History screen itself, not the table it slides over
        texts = " ".join(first.texts())
        assert texts.count("Farkle") >= 2 or texts.count("farkle") >= 2, texts


def open_the_event(tab: FlutterPage, line: str) -> None:
    """From the home screen to the event's page, tapping as the organizer does."""
    app_ready(tab)
    tab.click_button("Organize a tournament")
    tab.page.get_by_text(line).first.click(timeout=20_000)
    tab.wait_for_text("Result links", 20_000)


def reopened(context: Any, url: str, ready: str) -> FlutterPage:
    """``url`` in a tab of its own, once it shows ``ready``: what is stored, read by a tab
    that took part in nothing."""
    tab = FlutterPage(context.new_page())
    tab.open(url)
    tab.wait_for_text(ready, BOOT_TIMEOUT_MS)
    return tab


def until_the_service_worker_answers(kind: str, tab: FlutterPage) -> None:
    """In the PWA, the app's own addresses (``/organizer/...``) are answered by its service worker."""
    if kind == "pwa":
        tab.page.wait_for_function("navigator.serviceWorker.controller !== null", timeout=90_000)


def assert_stored(context: Any, results_url: str, tables: tuple[int, ...]) -> None:
    """A fresh tab on the event's results shows these tables' results counted, and the address
    tab A saved (on the event's page)."""
    stored = reopened(context, results_url, "tables in")
    try:
        lines = stored.texts()
        for table in tables:
            assert any(line.startswith(f"Table {table}: ") for line in lines), (
                f"table {table}'s result is not stored (a tab's save wrote over it): {lines}")
        stored.click_button("Back to the event")
        address = stored.page.get_by_role("textbox", name="Address for result links")
        address.click()  # Flutter puts a field's text in the page only once it has the focus
        expect(address, "the address tab A saved is not stored (a tab's save wrote over it)").to_have_value(ADDRESS)
    finally:
        stored.page.close()


@pytest.mark.browser
@pytest.mark.parametrize("kind", ["pwa", "server"])
def test_two_tabs_of_the_organizer_keep_a_result_imported_in_one_and_a_change_saved_in_the_other(
    kind: str, tmp_path: Path,
) -> None:
    """Issue 9: the organizer's tab A shows the event; a result link opens tab B, which imports
    table 1's result; tab A, still showing the event as before the import, saves the address for
    result links. Tab A is refused and shows the import, then its save entered again is applied
    over it (or it is applied over the import at once): both are stored. Then tab B, now the one
    behind, imports table 2's result, likewise: all three writes are stored. Without the
    revision check tab A's save writes the event it holds, without table 1's result."""
    tournament, entries = stored_event(kind, tmp_path)
    with two_tabs(kind, tmp_path, entries) as (context, url):
        link_base = url.rstrip("/") + ("/#" if kind == "pwa" else "")  # a static site's links carry "#"
        first = FlutterPage(context.new_page())
        first.open(url)
        open_the_event(first, "Mayor's cup (MAYOR-26) · 8 players · round 1")
        first.wait_for_text("Round 1 is being played: waiting for tables 1, 2.")
        first.type_into("Address for result links", ADDRESS)
        results_url = first.page.url.rstrip("/") + "/results"

        link = result_qr_text(result_code(tournament, 1, seed=3), link_base)
        second = FlutterPage(context.new_page())  # what a phone's camera app opens from table 1's result QR
        second.open(link)
        second.wait_for_text("Round 1, table 1: result counted", BOOT_TIMEOUT_MS)
        second.wait_for_text("Missing: table 2")

        first.page.bring_to_front()  # tab A still shows the event as before the import
        told = enter_until_applied(first, "Save the address", "Saved: new setup codes carry this address.",
                                   newer="waiting for table 2.")
        until_the_service_worker_answers(kind, first)
        assert_stored(context, results_url, tables=(1,))
        first.page.bring_to_front()
        assert shows(first, "Round 1 is being played: waiting for table 2.", 10_000), (
            "tab A saved without showing table 1's result, imported in tab B meanwhile")

        second.page.bring_to_front()  # now tab B is behind: it has not seen tab A's address
        second.type_into("Result code or link", typing_form(result_code(tournament, 2, seed=4)))
        told_second = enter_until_applied(second, "Import the result", "Round 1, table 2: result counted",
                                          newer="Missing: table 2")
        second.wait_for_text("Every table has a result.")
        assert_stored(context, results_url, tables=(1, 2))
        print(f"{kind}: tab A {'was refused' if told else 'saved at once'}, "
              f"tab B {'was refused' if told_second else 'imported at once'}")


@pytest.mark.browser
@pytest.mark.parametrize("kind", ["pwa", "server"])
def test_players_signed_up_in_two_tabs_of_the_organizer_are_both_kept(kind: str, tmp_path: Path) -> None:
    """Tab A creates the event; tab B opens its players page; tab A signs Eve up; tab B, never
    reloaded, signs Fay up: it is refused and shows Eve, then Fay entered again is signed up
    (or Fay is signed up over Eve at once). Both are stored."""
    with two_tabs(kind, tmp_path) as (context, url):
        first = FlutterPage(context.new_page())
        first.open(url)
        app_ready(first)
        first.click_button("Organize a tournament")
        first.type_into("Tournament name", "Spring open")
        first.click_button("Create the tournament")
        first.wait_for_text("Tournament created: sign the players up.", 20_000)
        first.wait_for_text("0 players · 0 checked in")
        players_url = first.page.url
        until_the_service_worker_answers(kind, first)
        second = FlutterPage(context.new_page())
        second.open(players_url)
        second.wait_for_text("0 players · 0 checked in", BOOT_TIMEOUT_MS)

        first.page.bring_to_front()
        first.type_into("Player name", "Eve")
        first.click_button("Sign up")
        first.wait_for_text("Eve signed up as number 1.", 20_000)

        second.page.bring_to_front()  # tab B still shows no player
        second.type_into("Player name", "Fay")
        told = enter_until_applied(second, "Sign up", re.compile(r"Fay signed up as number \d+\."), newer="1. Eve")
        print(f"{kind}: tab B {'was refused' if told else 'signed up at once'}")

        stored = reopened(context, players_url, " checked in")
        lines = stored.texts()
        assert "1. Eve · not checked in" in lines, f"Eve, signed up in tab A, is not stored: {lines}"
        assert "2. Fay · not checked in" in lines, f"Fay, signed up in tab B, is not stored as number 2: {lines}"
        second.page.bring_to_front()
        assert shows(second, "1. Eve", 10_000), "tab B signed Fay up without showing Eve, signed up in tab A"
        first.page.bring_to_front()
        first.reload()  # tab A never saw Fay: a reload shows what is stored now (on the server: the session anew)
        first.wait_for_text("2. Fay · not checked in", BOOT_TIMEOUT_MS)
