"""The language picked in the app's settings: every language the app ships, each in its own
words; the pick is kept on the device before it shows, outlives the session, wins over the
device's language and its changes, and "this device's language" follows the device again.

These run the app through Flet's own session (:mod:`tests.support.flet_harness`) with the
catalogues the app ships; the browser journeys are in tests/browser/test_i18n_browser.py."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from app.i18n import available_languages
from app.i18n.setting import LANGUAGE_KEY, offered_languages
from app.main import app_on
from app.storage import MemoryStore
from tests.browser.test_i18n import device_info
from tests.support.flet_harness import FletHarness

SHIPPED = {"de", "fr", "es", "it", "nl", "pt_BR", "pl", "sv"}


def open_app(prefs: dict[str, Any], *tags: str, more: dict[tuple[str, str], Any] | None = None) -> FletHarness:
    return FletHarness(app_on(MemoryStore()), shared_preferences=prefs, services={**device_info(*tags), **(more or {})})


def test_the_app_ships_its_eight_languages_and_offers_each_in_its_own_words() -> None:
    assert available_languages() >= SHIPPED
    offered = dict(offered_languages())
    assert {code: offered[code] for code in ("en", "pt_BR", "sv")} == {
        "en": "English", "pt_BR": "Português (Brasil)", "sv": "Svenska"}
    assert all(name != code for code, name in offered.items()), "a catalogue without its Language-Name header"
    assert list(offered.values()) == sorted(offered.values(), key=str.casefold)


def test_a_language_picked_is_kept_on_the_device_before_the_app_speaks_it() -> None:
    prefs: dict[str, Any] = {}

    async def pick() -> None:
        async with open_app(prefs, "pt-BR") as ui:
            assert ui.text_of("new-game") == "Nova partida"
            await ui.click("language")
            assert ui.find("language-choices").value == "device"
            assert "Português (Brasil)" in ui.accessible_name(ui.find("language-device"))
            await ui.set_value("language-choices", "sv")
            assert prefs[LANGUAGE_KEY] == "sv"
            assert ui.find("language-choices").value == "sv"
            assert ui.text_of("language-help").startswith("Vilket språk")
            assert ui.find("language-sv").label == "Svenska"  # each language in its own words, whatever is shown
            assert ui.find("language-pt_BR").label == "Português (Brasil)"
            await ui.navigate("/")
            assert ui.text_of("new-game") == "Nytt spel"

    asyncio.run(pick())


def test_the_pick_outlives_the_session_and_wins_over_the_device_and_its_changes() -> None:
    prefs: dict[str, Any] = {LANGUAGE_KEY: "sv"}

    async def again() -> None:
        async with open_app(prefs, "pt-BR") as ui:
            assert ui.text_of("new-game") == "Nytt spel"
            await ui.dispatch(ui.page, "locale_change", {"locales": [{"language_code": "pt", "country_code": "BR"}]})
            assert ui.text_of("new-game") == "Nytt spel"

    asyncio.run(again())


def test_english_can_be_picked_on_a_device_in_another_language() -> None:
    prefs: dict[str, Any] = {}

    async def english() -> None:
        async with open_app(prefs, "sv-SE") as ui:
            await ui.navigate("/language")
            await ui.set_value("language-choices", "en")
            await ui.navigate("/")
            assert ui.text_of("new-game") == "New game"
        async with open_app(prefs, "sv-SE") as ui:
            assert ui.text_of("new-game") == "New game"

    asyncio.run(english())


def test_the_devices_language_follows_the_device_again() -> None:
    prefs: dict[str, Any] = {LANGUAGE_KEY: "en"}

    async def device() -> None:
        async with open_app(prefs, "sv-SE") as ui:
            await ui.navigate("/language")
            await ui.set_value("language-choices", "device")
            assert prefs[LANGUAGE_KEY] == ""
            await ui.navigate("/")
            assert ui.text_of("new-game") == "Nytt spel"
            await ui.dispatch(ui.page, "locale_change", {"locales": [{"language_code": "pt", "country_code": "BR"}]})
            assert ui.text_of("new-game") == "Nova partida"

    asyncio.run(device())


@pytest.mark.parametrize("stored", ["xx", "../sv", 42, None, ""])
def test_a_stored_pick_the_app_cannot_speak_starts_in_the_devices_language(stored: object) -> None:
    async def start() -> None:
        async with open_app({LANGUAGE_KEY: stored}, "sv-SE") as ui:
            assert ui.text_of("new-game") == "Nytt spel"

    asyncio.run(start())


def test_a_device_that_does_not_keep_the_pick_says_so_and_changes_nothing() -> None:
    def refuse(ui: FletHarness, control: Any, args: Any) -> Any:
        raise RuntimeError("the quota is used up")

    prefs: dict[str, Any] = {}

    async def refused() -> None:
        async with open_app(prefs, "sv-SE", more={("SharedPreferences", "set"): refuse}) as ui:
            await ui.navigate("/language")
            await ui.set_value("language-choices", "pt_BR")
            assert LANGUAGE_KEY not in prefs
            assert "quota" in ui.text_of("language-message")
            await ui.navigate("/")
            assert ui.text_of("new-game") == "Nytt spel"

    asyncio.run(refused())
