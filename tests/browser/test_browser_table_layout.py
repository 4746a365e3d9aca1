"""The table read from a metre away, on a phone held upright or on its side, with 2 to 8 players.

One server over a data folder filled before it starts (games at every phase, long names,
a finished game), one Chromium; each case opens a game at a phone viewport and measures
Flutter's accessibility boxes: the entry controls and Bank are in view without scrolling,
and every control a finger can use is at least 48x48 px. Screenshots go to the README.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser

from app.table.scorekeeper import Scorekeeper
from app.storage import FileStore
from engine import Rules
from tests.support.browser_support import AppServer, FlutterPage, in_thread, screenshots_dir, start_app_server

pytestmark = pytest.mark.browser

SCREENSHOTS = screenshots_dir()
VIEWPORTS = {"portrait": {"width": 390, "height": 844}, "landscape": {"width": 844, "height": 390}}
NAMES = ["Ann", "Bob", "Cy", "Di", "Ed", "Flo", "Gus", "Hal"]
LONG_NAMES = ["Annabelle-Marguerite Lee", "Bob", "Cyrus Montgomery-Smythe", "Di", "Ed",
              "Florentina Papadopoulou", "Gus", "Hal"]
FINAL_NAMES = [f"{first:-<20} Lee" for first in
               ["Annabelle", "Bartholomew", "Cassiopeia", "Demetrius", "Evangeline", "Ferdinand", "Gwendolyn", "Hieronymus"]]
"""Eight names of the longest a scoreboard shows whole (24 characters)."""
FULL_NAMES = ["Aleksandra García-Márquez", "Bartholomew García-Márquez", "Maximiliana Featherstonehaugh-Cholmondel",
              "Bartholomew Grünewald-Osterhagen"]
"""Names as people give them, up to the longest a game takes (40 characters)."""
NEEDS = "not on board, last turn · needs over 1,050 to lead"
MIN_TARGET = 47.5  # Flutter's semantic boxes are fractional; 48 logical px rounds to this or more

# Every semantics node a person can act on: its name and box.
_TARGETS = """() => [...document.querySelectorAll('flt-semantics')]
  .filter(e => ['button', 'textbox', 'checkbox', 'switch', 'slider', 'link', 'menuitem', 'tab']
    .includes(e.getAttribute('role')) || e.querySelector(':scope > input, :scope > textarea'))
  .map(e => { const r = e.getBoundingClientRect();
    return {name: (e.getAttribute('aria-label') || e.textContent || '').trim().slice(0, 60),
            role: e.getAttribute('role'), x: r.x, y: r.y, w: r.width, h: r.height}; })
  .filter(t => t.w > 0 && t.h > 0)"""


async def _stored_games(data_dir: Path) -> dict[str, str]:
    """Games at the phases a table shows, written before the server opens the folder."""
    keeper = Scorekeeper(FileStore(data_dir))
    house = Rules.preset("house")
    games: dict[str, str] = {}
    for count in (2, 4, 8):
        games[f"throw-{count}"] = await keeper.start_game(NAMES[:count], house)
        games[f"keep-{count}"] = await keeper.start_game(NAMES[:count], house)
        await keeper.act(lambda game: game.roll("1 2 3 3 3 5"))
    games["long-8"] = await keeper.start_game(LONG_NAMES, house)
    await keeper.act(lambda game: game.roll("1 5 5 2 3 4"))
    games["full-names"] = await keeper.start_game(FULL_NAMES, house)
    games["final-8"] = await keeper.start_game(FINAL_NAMES, dataclasses.replace(house, target=1000))
    await keeper.act(lambda game: (game.roll("1 1 1 5 2 3"), game.keep("1 1 1 5"), game.bank(),
                                   game.roll("2 2 3 3 4 6")) and None)  # final round; the second player farkled
    games["over"] = await keeper.start_game(NAMES[:3], dataclasses.replace(house, target=2000))
    for throw, keep in [("1 1 1 5 2 3", "1 1 1 5"), ("5 5 5 2 3 4", "5 5 5"), ("1 1 1 2 3 4", "1 1 1"),
                        ("1 1 1 2 3 4", "1 1 1"), ("3 3 3 5 2 4", "3 3 3 5"), ("2 3 4 6 6 2", "")]:
        await keeper.act(lambda game, t=throw, k=keep: (game.roll(t), k and (game.keep(k), game.bank())) and None)
    assert keeper.game is not None and keeper.game.is_over
    keeper.store.close()
    return games


@pytest.fixture(scope="module")
def table_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[AppServer, dict[str, str]]]:
    data_dir = tmp_path_factory.mktemp("layout") / "data"
    games = in_thread(_stored_games(data_dir))
    with start_app_server(data_dir) as server:
        yield server, games


def open_game(browser: Browser, server: AppServer, game_id: str, orientation: str) -> FlutterPage:
    page = FlutterPage(browser.new_context(viewport=VIEWPORTS[orientation]).new_page())
    page.open(f"{server.url}game/{game_id}")
    page.page.get_by_role("button", name="Undo").wait_for(timeout=30_000)
    return page


def box(page: FlutterPage, name: str | re.Pattern[str]) -> dict[str, Any]:
    found = page.page.get_by_role("button", name=name).first
    found.wait_for(timeout=10_000)
    bounds = found.bounding_box()
    assert bounds is not None, f"{name} has no box"
    return dict(bounds)


def small_targets(page: FlutterPage) -> list[dict[str, Any]]:
    """Targets under 48 px, among those wholly on screen (a box the scrolling area cuts at
    its edge, inside the screen's 12 px padding, is measured in another case)."""
    view = page.page.viewport_size or VIEWPORTS["portrait"]
    edge = 16
    shown = [t for t in page.page.evaluate(_TARGETS)
             if t["y"] >= 0 and t["x"] >= 0 and t["y"] + t["h"] < view["height"] - edge
             and t["x"] + t["w"] < view["width"] - edge]
    return [t for t in shown if t["w"] < MIN_TARGET or t["h"] < MIN_TARGET]


@pytest.mark.parametrize("orientation", ["portrait", "landscape"])
@pytest.mark.parametrize("players", [2, 4, 8])
def test_the_throw_entry_and_bank_are_in_view_without_scrolling(chromium_browser: Browser, table_server: Any,
                                                                  players: int, orientation: str) -> None:
    server, games = table_server
    height = VIEWPORTS[orientation]["height"]
    page = open_game(chromium_browser, server, games[f"throw-{players}"], orientation)
    try:
        for name in ["Face 1", "Face 6", "Enter throw"]:
            bounds = box(page, name)
            assert bounds["y"] + bounds["height"] <= height, f"{name} is below the fold: {bounds}"
        assert small_targets(page) == []
        if players == 8:
            page.screenshot(SCREENSHOTS / f"table-8-players-{orientation}.png")
    finally:
        page.close()
    page = open_game(chromium_browser, server, games[f"keep-{players}"], orientation)
    try:
        for name in [re.compile(r"^Die 1 shows"), re.compile(r"^Roll"), re.compile(r"^Bank")]:
            bounds = box(page, name)
            assert bounds["y"] + bounds["height"] <= height, f"{name} is below the fold: {bounds}"
        page.click_button("Die 1 shows 1")
        page.wait_for_text("turn total")
        assert small_targets(page) == []
    finally:
        page.close()


def test_long_names_stay_on_one_line_and_keep_the_entry_in_view(chromium_browser: Browser, table_server: Any) -> None:
    server, games = table_server
    page = open_game(chromium_browser, server, games["long-8"], "portrait")
    try:
        bounds = box(page, re.compile(r"^Bank"))
        assert bounds["y"] + bounds["height"] <= VIEWPORTS["portrait"]["height"]
        page.screenshot(SCREENSHOTS / "table-long-names.png")
    finally:
        page.close()


def test_game_over_draws_the_score_race_with_every_target_large_enough(chromium_browser: Browser,
                                                                      table_server: Any) -> None:
    server, games = table_server
    page = FlutterPage(chromium_browser.new_context(viewport=VIEWPORTS["portrait"]).new_page())
    try:
        page.open(f"{server.url}game/{games['over']}")
        page.wait_for_text("Ann wins!")
        page.page.get_by_text(re.compile(r"^Score race over \d+ turns")).first.wait_for(timeout=10_000)
        assert small_targets(page) == []
        page.screenshot(SCREENSHOTS / "game-over-chart.png")
    finally:
        page.close()


def switch_theme(browser: Browser, server: AppServer) -> None:
    page = FlutterPage(browser.new_context(viewport=VIEWPORTS["portrait"]).new_page())
    try:
        page.open(server.url)
        page.click_button("Switch light or dark theme")
        page.wait_for_text("New game")
    finally:
        page.close()


def test_the_dark_theme_keeps_the_turn_readable(chromium_browser: Browser, table_server: Any) -> None:
    server, games = table_server
    switch_theme(chromium_browser, server)
    try:
        page = open_game(chromium_browser, server, games["keep-4"], "portrait")
        try:
            page.wait_for_text("turn total")
            page.screenshot(SCREENSHOTS / "table-dark.png")
            page.page.set_viewport_size(VIEWPORTS["landscape"])
            page.page.wait_for_function(  # the entry moves up beside the score
                "() => [...document.querySelectorAll('flt-semantics[role=button]')].some(e =>"
                " (e.getAttribute('aria-label') || e.textContent || '').startsWith('Die 1 shows')"
                " && e.getBoundingClientRect().bottom < 390)", timeout=20_000)
            page.screenshot(SCREENSHOTS / "table-dark-landscape.png")
        finally:
            page.close()
    finally:
        switch_theme(chromium_browser, server)  # back to light for the other pictures


# Each player's line on the scoreboard: its one accessibility node (name, total, marks).
_PLAYER_LINES = """(names) => [...document.querySelectorAll('flt-semantics')]
  .map(e => ({label: (e.getAttribute('aria-label') || e.textContent || '').trim(), live: e.getAttribute('aria-live'),
              box: e.getBoundingClientRect().toJSON()}))
  .filter(line => names.some(name => line.label.replace('Playing now: ', '').startsWith(name + ' · ')))"""

# Flutter web announces a live region's new label through its polite announcement element,
# one text after another: keep them all.
_RECORD_ANNOUNCEMENTS = """() => { window.announced = [];
  new MutationObserver(() => window.announced.push(document.querySelector('flt-announcement-polite').textContent))
    .observe(document.querySelector('flt-announcement-polite'), {childList: true, characterData: true, subtree: true});
}"""


def player_lines(page: FlutterPage) -> list[dict[str, Any]]:
    lines: list[dict[str, Any]] = page.page.evaluate(_PLAYER_LINES, FINAL_NAMES)
    return lines


def test_every_players_line_reads_whole_at_390_px_and_a_new_mark_is_announced_at_once(
        chromium_browser: Browser, table_server: Any, tmp_path: Path) -> None:
    server, games = table_server
    page = open_game(chromium_browser, server, games["final-8"], "portrait")
    try:
        lines = player_lines(page)
        assert [line["label"] for line in lines] == (
            [f"{FINAL_NAMES[0]} · 1,050 · done", f"{FINAL_NAMES[1]} · 0 · not on board, farkles 1, done",
             f"Playing now: {FINAL_NAMES[2]} · 0 · {NEEDS}"] + [f"{name} · 0 · {NEEDS}" for name in FINAL_NAMES[3:]])
        width = VIEWPORTS["portrait"]["width"]
        for line in lines:
            box = line["box"]
            assert box["left"] >= 0 and box["right"] <= width - 12, line  # inside the padding
        page.page.evaluate(_RECORD_ANNOUNCEMENTS)
        for face in "2 2 3 3 4 6".split():  # the third player farkles: tapped, then Enter
            page.click_button(f"Face {face}")
        page.press("Enter")
        page.page.wait_for_function(  # the mark is in the tree at once, no reload
            "([names, said]) => [...document.querySelectorAll('flt-semantics')].some(e =>"
            " (e.getAttribute('aria-label') || e.textContent || '').trim() === said)",
            arg=[FINAL_NAMES, f"{FINAL_NAMES[2]} · 0 · not on board, farkles 1, done"], timeout=20_000)
        page.wait_for_text(f"Enter {FINAL_NAMES[3]}'s throw")
        page.page.wait_for_function(  # and a screen reader is told: the line is a live region
            "(said) => window.announced.some(text => text.trim() === said)",
            arg=f"{FINAL_NAMES[2]} · 0 · not on board, farkles 1, done", timeout=10_000)
        assert page.button("Enter throw").is_disabled()  # Enter entered the throw; it did not tap the 6 again
        assert page.page.get_by_role("button", name=re.compile("^Entered")).count() == 0
        page.screenshot(tmp_path / "final-round-390.png")
    finally:
        page.close()


def test_in_landscape_roll_and_bank_stay_in_view_when_the_scoreboard_scrolls_to_the_last_player(
        chromium_browser: Browser, table_server: Any, tmp_path: Path) -> None:
    server, games = table_server
    page = open_game(chromium_browser, server, games["final-8"], "landscape")
    height = VIEWPORTS["landscape"]["height"]
    try:
        for face in "1 5 5 2 3 4".split():
            page.click_button(f"Face {face}")
        page.click_button("Enter throw")
        roll, bank = box(page, "Roll again"), box(page, "Bank")
        first_line = player_lines(page)[0]["box"]
        page.page.mouse.move(first_line["left"] + 40, first_line["top"] + 10)
        page.page.mouse.wheel(0, 3000)
        page.page.wait_for_function(  # the scoreboard's last line comes into view
            f"(names) => ({_PLAYER_LINES})(names).some(line =>"
            f" line.label.startsWith(names[names.length - 1]) && line.box.bottom <= {height})",
            arg=FINAL_NAMES, timeout=20_000)
        for name, before in [("Roll again", roll), ("Bank", bank)]:
            after = box(page, name)
            assert after == before and after["y"] + after["height"] <= height, (name, before, after)
        page.screenshot(tmp_path / "final-round-landscape.png")
    finally:
        page.close()


def test_a_phone_upright_shows_long_names_as_short_forms_and_a_tap_shows_one_whole(chromium_browser: Browser,
                                                                                   table_server: Any) -> None:
    server, games = table_server
    page = open_game(chromium_browser, server, games["full-names"], "portrait")
    width, height = VIEWPORTS["portrait"]["width"], VIEWPORTS["portrait"]["height"]
    try:
        page.wait_for_text("Aleksandra G.'s turn", exact=False)  # the turn line and card use the short form
        assert "Aleksandra G." in page.texts()
        lines = page.page.evaluate(_PLAYER_LINES, FULL_NAMES)
        assert [line["label"].removeprefix("Playing now: ").split(" · ")[0] for line in lines] == FULL_NAMES
        bounds = box(page, "Enter throw")
        assert bounds["y"] + bounds["height"] <= height
        one_line = lines[2]["box"]
        page.page.mouse.click(one_line["left"] + 60, one_line["top"] + one_line["height"] / 2)
        page.page.wait_for_function(  # the full name wraps in its place (cut with an ellipsis, the line were lower)
            f"(names) => ({_PLAYER_LINES})(names)[2].box.height > {one_line['height'] * 2}",
            arg=FULL_NAMES, timeout=20_000)
        for line in page.page.evaluate(_PLAYER_LINES, FULL_NAMES):
            assert line["box"]["left"] >= 0 and line["box"]["right"] <= width - 12, line
        page.screenshot(SCREENSHOTS / "table-full-name.png")
        whole = page.page.evaluate(_PLAYER_LINES, FULL_NAMES)[2]["box"]
        page.page.mouse.click(whole["left"] + 60, whole["top"] + 12)
        page.page.wait_for_function(  # a second tap: the short form again
            f"(names) => ({_PLAYER_LINES})(names)[2].box.height < {one_line['height'] + 2}",
            arg=FULL_NAMES, timeout=20_000)
    finally:
        page.close()
