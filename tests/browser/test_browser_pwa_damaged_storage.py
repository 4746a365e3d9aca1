"""The offline PWA over a ``localStorage`` holding damaged and foreign values, in Chromium: it
starts, lists the sound game, names every damaged entry on Home and keeps its characters
aside, and leaves other apps' keys exactly as they were.

The values are planted from another page of the same origin before the app's page first
loads, as a hand edit in the developer tools, a browser cut off mid-write or another app
served from the same host and port would leave them. Without app/web/local_storage.js,
Flutter's preferences plugin skipped a value that is not JSON (so a damaged game vanished
from Home unnamed) and never answered the read of a list holding a number (so the app
never started).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from app.storage import seal
from tests.support.pwa_harness import BOOT_TIMEOUT_MS, SUB_PATH, Browser, app_ready, built_site, serving
from tests.app.test_store_validation import GAME

PLUGIN = "flutter."
APP = f"{PLUGIN}farkle-table/"
SOUND_LINE = "Ann 1,000, Bob 0"

DAMAGED: dict[str, str] = {
    "cut-short": json.dumps("j:" + seal(GAME))[:120],
    "typed-by-hand": 'j:{"players": ["Ann"',
    "numbers": "[1,2]",
    "nothing": "null",
    "a-number": "42",
    "foreign-shape": json.dumps('j:{"hello":"world"}'),
    "newer": json.dumps("y:AAAA"),
}
"""Game ids and the raw ``localStorage`` value planted under each one's key."""

FOREIGN: dict[str, str] = {
    "other-app/state": "{{{ not json",
    "farkle-table/games/raw": "no plugin prefix",
    f"{PLUGIN}other-app.name": "hello",
    f"{PLUGIN}other-app.counts": "[1,2,3]",
    f"{PLUGIN}other-app.nothing": "null",
    f"{PLUGIN}farkle-table-dev/games/g1": json.dumps("j:{}"),
}
"""Other apps' keys on the same origin, with and without the plugin's prefix."""

PLANTED: dict[str, str] = {
    f"{APP}games/sound": json.dumps("j:" + seal(GAME)),
    f"{APP}index/games": "{{{ a damaged index",
    **{f"{APP}games/{game_id}": value for game_id, value in DAMAGED.items()},
    **FOREIGN,
}

PLANT = "(values) => { for (const [key, value] of Object.entries(values)) localStorage.setItem(key, value); }"
RAW = "() => Object.fromEntries(Object.entries(localStorage))"
"""Every entry as stored (read as the storage's own properties, not through the page's getItem)."""


def the_text_the_app_read(raw: str) -> Any:
    """What the app reads for a raw value: a JSON text's string, any other value's characters."""
    try:
        value = json.loads(raw)
    except ValueError:
        return raw
    return value if isinstance(value, str) else raw


def kept_aside(stored: dict[str, str], game_id: str) -> list[str]:
    return [key for key in stored if key.startswith(f"{APP}kept-aside/games/{game_id}.unreadable-")]


@pytest.mark.browser
def test_a_pwa_over_damaged_and_foreign_stored_values_starts_lists_the_sound_game_and_names_each_damaged_one(
        tmp_path: Path) -> None:
    site, _ = built_site()
    with serving(site, tmp_path / "www") as server, Browser(tmp_path / "profile") as browser:
        page = browser.flutter
        browser.page.set_viewport_size({"width": 600, "height": 2400})  # every notice and game line in view
        origin_page = server.url.removesuffix(SUB_PATH) + "/"  # same origin, none of the app's code
        browser.page.goto(origin_page)
        browser.page.evaluate(PLANT, PLANTED)

        page.open(server.url, BOOT_TIMEOUT_MS)
        app_ready(page)
        page.wait_for_text(SOUND_LINE, BOOT_TIMEOUT_MS // 3)
        page.wait_for_text("Could not read farkle-table/games/", BOOT_TIMEOUT_MS // 3)
        named = [line for line in page.texts() if line.startswith("Could not read farkle-table/games/")]
        for game_id in DAMAGED:
            assert [line for line in named if line.startswith(f"Could not read farkle-table/games/{game_id} (")], \
                (game_id, page.texts())
        assert not any("Error running app" in line for line in page.texts()), page.texts()

        stored = browser.page.evaluate(RAW)
        assert {key: stored.get(key) for key in FOREIGN} == FOREIGN
        assert stored[f"{APP}games/sound"] == PLANTED[f"{APP}games/sound"]
        for game_id, raw in DAMAGED.items():
            assert f"{APP}games/{game_id}" not in stored, game_id
            [kept] = kept_aside(stored, game_id)
            assert json.loads(stored[kept]) == the_text_the_app_read(raw), game_id

        page.reload(BOOT_TIMEOUT_MS)  # named once: what was kept aside stays kept, and the game stays listed
        app_ready(page)
        page.wait_for_text(SOUND_LINE, BOOT_TIMEOUT_MS // 3)
        assert not any(line.startswith("Could not read") for line in page.texts()), page.texts()
        after = browser.page.evaluate(RAW)
        assert {key: after.get(key) for key in FOREIGN} == FOREIGN
        assert all(after[key] == stored[key] for game_id in DAMAGED for key in kept_aside(stored, game_id))
