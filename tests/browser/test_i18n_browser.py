"""The app in the players' own language, in a real browser on the local server: Chromium reports
its language (the context's locale), Flutter passes it on, and the screens read in that
language's shipped catalogue, numbers written its way; the Language screen overrides the
browser's language on that device only, and keeps the pick over a reload.

One journey per language family: German (Germanic), French (Romance), Polish (Slavic, three
plural forms). Every text a journey looks for is read through :func:`app.i18n.tr_in` from the
same catalogue, and each screen visited is checked for English the catalogue translates: a
message left English, or a sentence built from English in code, fails where a person would
see it."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from app.i18n import tr_in
from app.i18n.template import app_messages
from tests.support.browser_support import FlutterPage, screenshots_dir, start_app_server

if TYPE_CHECKING:
    from playwright.sync_api import Browser

    from tests.support.browser_support import AppServer

pytestmark = pytest.mark.browser

SCREENSHOTS = screenshots_dir()
Say = Callable[..., str]


@pytest.fixture
def server(tmp_path: Path) -> Iterator[AppServer]:
    with start_app_server(tmp_path / "data") as running:
        yield running


def english_left(page: FlutterPage, language: str) -> list[str]:
    """Lines on the screen that are an English message the language's catalogue says otherwise."""
    english = {message.msgid for message in app_messages() if "{" not in message.msgid}
    return [line for line in page.texts() if line in english and tr_in(language, line) != line]


def throw(page: FlutterPage, say: Say, faces: str) -> None:
    """Tap the faces in, each seen entered before the next tap, then enter the throw."""
    entered = page.page.get_by_role("button", name=re.compile(
        "|".join(re.escape(say("Entered {face}, tap to remove", face=f)) for f in range(1, 7))))
    for count, face in enumerate(faces.split(), start=1):
        page.tap_to_count(say("Face {face}", face=int(face)), entered, count)
    page.click_button(say("Enter throw"))


def test_a_german_table_keeps_score_in_german_at_phone_size(chromium_browser: Browser, server: AppServer) -> None:
    de: Say = partial(tr_in, "de")
    page = FlutterPage.new_phone(chromium_browser, locale="de-DE")
    try:
        page.open(server.url)
        page.wait_for_text(de("Unfinished games"))
        assert page.page.title() == de("Farkle Table")
        assert english_left(page, "de") == []
        page.click_button(de("New game"))
        page.type_into(de("Player {number} name", number=1), "Anna")
        page.type_into(de("Player {number} name", number=2), "Ben")
        assert english_left(page, "de") == []
        page.click_button(de("Start game"))
        throw(page, de, "1 1 1 5 2 3")
        page.click_button(de("Best: keep {throw} for {points:,}", throw="1 1 1 5", points=1050))
        page.click_button(de("Bank {turn_points:,}", turn_points=1050))  # "1.050 schreiben"
        page.wait_for_text(de("{who} is on the board with {points:,}.", who="Anna", points=1050))
        assert english_left(page, "de") == []
        page.screenshot(SCREENSHOTS / "table-de.png")
    finally:
        page.close()


def test_a_french_browser_looks_up_a_throw_in_french(chromium_browser: Browser, server: AppServer) -> None:
    fr: Say = partial(tr_in, "fr")
    page = FlutterPage.new_phone(chromium_browser, locale="fr-FR")
    try:
        page.open(server.url)
        page.wait_for_text(fr("Unfinished games"))
        page.click_button(fr("Score lookup"))
        page.wait_for_text(fr("Chance of a farkle"))
        for face in (1, 1, 1, 5):
            page.click_button(fr("Add {face}", face=face))
        page.wait_for_text(fr("Best: {points:,}", points=1050))  # "1 050" as French writes it
        assert "\u202f" in fr("Best: {points:,}", points=1050) or "\u00a0" in fr("Best: {points:,}", points=1050)
        assert english_left(page, "fr") == []
        page.screenshot(SCREENSHOTS / "lookup-fr.png")
    finally:
        page.close()


def test_a_polish_phone_picks_german_in_the_settings_and_keeps_it_while_another_stays_polish(
        chromium_browser: Browser, server: AppServer) -> None:
    pl: Say = partial(tr_in, "pl")
    de: Say = partial(tr_in, "de")
    picking = FlutterPage.new_phone(chromium_browser, locale="pl-PL")
    other = FlutterPage.new_phone(chromium_browser, locale="pl-PL")
    try:
        picking.open(server.url)
        picking.wait_for_text(pl("Unfinished games"))
        picking.click_button(pl("Language"))
        picking.page.get_by_role("radio", name="Deutsch").click()
        picking.wait_for_text(de("Which language the app speaks on this device. Other phones keep their own."))
        assert english_left(picking, "de") == []
        picking.click_button(de("Home"))
        picking.wait_for_text(de("Unfinished games"))
        picking.reload()
        picking.wait_for_text(de("Unfinished games"))  # kept in this browser's own storage

        other.open(server.url)
        other.wait_for_text(pl("Unfinished games"))  # the pick belongs to the device, not the server
        assert english_left(other, "pl") == []
    finally:
        picking.close()
        other.close()
