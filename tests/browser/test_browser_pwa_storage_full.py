"""The offline PWA on a full ``localStorage``, in Chromium: the real QuotaExceededError reaches the
screen as the message, nothing is stored or listed, and everything works once there is room.

One browser session: the origin's storage is filled with another script's entries until
``setItem`` throws, leaving a little room but less than a game or an event takes. A new game
and a new event are then refused with the message (no "Error running app", nothing stored,
no game listed on Home that was not kept); with the filler gone both are made. A throw on a
storage filled to the brim is refused, and entered again with room it counts: the tab does
not read back the save the browser refused.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.support.browser_support import FlutterPage, new_game, throw
from tests.support.pwa_harness import BOOT_TIMEOUT_MS, Browser, built_site, serving, time_to_interactive

FULL = "the storage is full (Browser storage is full: could not save "
ADVICE = "Export your games and delete finished ones on Home"

FILL = """(room) => {
  // Another script's entries take the origin's localStorage until setItem throws, then `room`
  // characters are given back.
  let n = 0;
  for (let size = 1 << 20; size >= 1; size = Math.floor(size / 2)) {
    for (;;) {
      try { localStorage.setItem('filler-' + n, 'x'.repeat(size)); n++; } catch (e) { break; }
    }
  }
  let given = 0;
  for (let i = n - 1; i >= 0 && given < room; i--) {
    const value = localStorage.getItem('filler-' + i);
    const keep = Math.max(0, value.length - (room - given));
    localStorage.setItem('filler-' + i, 'x'.repeat(keep));
    given += value.length - keep;
  }
  try { localStorage.setItem('filler-probe', 'x'.repeat(room + 1)); } catch (e) { return e.name; }
  return 'not full';
}"""

EMPTY = "() => { for (const key of Object.keys(localStorage)) if (key.startsWith('filler-')) localStorage.removeItem(key); }"

STORED = """() => Object.fromEntries(Object.keys(localStorage).filter((key) => !key.startsWith('filler-'))
    .map((key) => [key, localStorage.getItem(key)]))"""


def fill_up(page: FlutterPage, room: int) -> dict[str, Any]:
    """Fill the origin's storage, ``room`` characters left; what the app has stored."""
    assert page.page.evaluate(FILL, room) == "QuotaExceededError"
    return stored(page)


def stored(page: FlutterPage) -> dict[str, Any]:
    return dict(page.page.evaluate(STORED))


def refused(page: FlutterPage, start: str, tmp_path: Path, name: str) -> str:
    """The message beginning with ``start`` that says the storage is full and what to do."""
    try:
        page.wait_for_text(start, timeout_ms=20_000)
    except Exception:
        page.screenshot(tmp_path / f"{name}.png")
        raise
    lines = [line for line in page.texts() if line.startswith(start)]
    assert len(lines) == 1 and FULL in lines[0] and ADVICE in lines[0], page.texts()
    assert not any("Error running app" in line for line in page.texts()), page.texts()
    return lines[0]


@pytest.mark.browser
def test_a_full_browser_storage_refuses_a_new_game_a_new_event_and_a_throw_with_the_message_until_there_is_room(
        tmp_path: Path) -> None:
    site, _ = built_site()
    with serving(site, tmp_path / "www") as server, Browser(tmp_path / "profile") as browser:
        time_to_interactive(browser, server.url)
        page = browser.flutter
        before = fill_up(page, room=200)  # a game or an event takes some 500 characters

        page.click_button("New game")
        page.type_into("Player 1 name", "Ann")
        page.type_into("Player 2 name", "Bob")
        page.click_button("Start game")
        refused(page, "The game was not started: ", tmp_path, "new-game")
        assert stored(page) == before
        assert page.field_value("Player 1 name") == "Ann" and page.is_button_enabled("Start game")
        page.click_button("Home")
        page.wait_for_text("None: start a new game.")  # the refused game is not listed as kept

        page.click_button("Organize a tournament")
        page.type_into("Tournament name", "Spring cup")
        page.click_button("Create the tournament")
        refused(page, "Not saved, so nothing changed: ", tmp_path, "new-event")
        assert stored(page) == before
        page.wait_for_text("None yet.")  # no event listed

        page.page.evaluate(EMPTY)
        page.click_button("Create the tournament")
        page.wait_for_text("Tournament created: sign the players up.")
        page.click_button("Home")
        new_game(page, "Ann", "Bob")

        with_game = fill_up(page, room=0)
        throw(page, "1 1 1 2 3 5")
        refused(page, "Not saved, so not counted: ", tmp_path, "throw")
        assert stored(page) == with_game
        page.page.evaluate(EMPTY)
        page.click_button("Enter throw")  # the faces entered are still there
        page.wait_for_text("Ann threw 1 1 1 2 3 5", BOOT_TIMEOUT_MS // 3)
        assert not any("changed on another screen" in line for line in page.texts()), page.texts()

        browser.wait_sw_control()  # the service worker answers the game's own address
        page.reload()  # what the browser kept: the game with its throw
        page.wait_for_text("Ann threw 1 1 1 2 3 5", BOOT_TIMEOUT_MS)
