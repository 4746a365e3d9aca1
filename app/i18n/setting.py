"""The language a person picks in the app's settings, over the one their device reports.

The choice belongs to the device, not to the server: it is kept in the client's own storage
(``ft.SharedPreferences``: the browser's localStorage, the phone's preferences), so two phones
on one venue server keep their own, and the offline PWA keeps it beside its games. Nothing
chosen (``""``) means the device's language, followed as it changes.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Final

import flet as ft

from app.i18n import (DEVICE_INFO_WAIT, ENGLISH, available_languages, client_languages, language_name,
                      session_language, use_language)

__all__ = ["LANGUAGE_KEY", "LanguageSetting", "offered_languages"]

LANGUAGE_KEY: Final = "farkle.language"
"""Where the device keeps the language picked in the settings (a catalogue's name or "en")."""


def offered_languages() -> list[tuple[str, str]]:
    """Every language the app speaks, as ``(catalogue name, what it calls itself)``, in the
    order of those names (English among them), the way language pickers list them."""
    languages = [ENGLISH, *available_languages()]
    return sorted(((language, language_name(language)) for language in languages), key=lambda item: item[1].casefold())


@dataclass
class LanguageSetting(ft.Observable):
    """This session's language and the device's choice; the shell draws its screen again when
    :attr:`shown` changes."""

    page: ft.Page = field(repr=False)
    prefs: Callable[[], ft.SharedPreferences] = field(repr=False)
    chosen: str = ""
    """The language picked in the settings ("" = the device's own)."""
    shown: str = ENGLISH
    """The language the session shows now."""

    async def adopt(self) -> None:
        """Start in the language picked on this device, or else the device's own: both asked of
        the client at once, each answer awaited at most :data:`~app.i18n.DEVICE_INFO_WAIT`; a
        device whose storage does not answer starts in its own language."""
        stored, tags = await asyncio.gather(self._stored(), client_languages(self.page))
        self.chosen = stored if stored in (ENGLISH, *available_languages()) else ""
        self.shown = use_language(self.page, [self.chosen] if self.chosen else tags)

    async def choose(self, language: str) -> None:
        """Pick ``language`` ("" = the device's own): kept on the device first, then shown.
        Raises ``ValueError`` for a language the app has no catalogue for."""
        if language and language not in (ENGLISH, *available_languages()):
            raise ValueError(f"no catalogue for {language!r}")
        await self.prefs().set(LANGUAGE_KEY, language)
        self.chosen = language
        self.shown = use_language(self.page, [language] if language else await client_languages(self.page))

    async def _stored(self) -> str:
        """The pick kept on this device ("" for none, an unreadable one, or no answer in time)."""
        try:
            stored: Any = await asyncio.wait_for(self.prefs().get(LANGUAGE_KEY), DEVICE_INFO_WAIT)
        except Exception:  # a client without storage or one that does not answer: as if nothing was picked
            return ""
        return stored if isinstance(stored, str) else ""

    def follows_device(self) -> bool:
        """Whether the session follows the device's language as it changes (nothing picked)."""
        return not self.chosen

    def refresh(self) -> None:
        """The session's language changed from elsewhere (the device's): draw again in it."""
        self.shown = session_language(self.page)
