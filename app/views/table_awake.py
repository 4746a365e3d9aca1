"""The screen stays on at the table: between throws a scorekeeper's phone would lock itself.

While a game is open and not over, the table asks the browser for its Screen Wake Lock through
Flet's ``ft.Wakelock`` service; the page's side (app/web/wake_lock.js) asks again each time the
page is shown again and lets go when the table does (the game ends, the person leaves). Where
the browser has no wake lock, the table says so once per device, remembered in the device's own
client storage like the organizer's sessions (``ft.SharedPreferences``).
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from functools import partial
from typing import Final

import flet as ft

from app.context import Services, use_model
from app.i18n import tr
from app.storage.prefs import PrefsLike

__all__ = ["NOTICE_SHOWN_KEY", "NO_WAKE_LOCK", "ScreenAwake", "use_screen_awake"]

logger = logging.getLogger(__name__)

NO_WAKE_LOCK: Final = "farkle-no-wake-lock"
"""What app/web/wake_lock.js refuses with when the browser has no Screen Wake Lock."""
NOTICE_SHOWN_KEY: Final = "farkle.table.no-wake-lock-notice-shown"
"""The client-storage key saying this device was told its browser lets the screen go dark."""


@dataclass
class ScreenAwake(ft.Observable):
    """Whether the table holds the screen on, and whether it says now that it cannot."""

    services: Services
    telling: bool = False  # this visit tells the device's first one without a wake lock
    asked: bool = False  # the page was asked to keep the screen on, and not yet to let go

    async def follow(self, wanted: bool) -> None:
        """Keep the screen on when ``wanted``, let it go dark otherwise. Both are done here, not
        the letting go in the effect's cleanup: Flet cancels an async cleanup before it starts
        when the effect runs again at once, so only leaving the screen runs the cleanup."""
        await (self.keep_on() if wanted else self.let_dark())

    async def keep_on(self) -> None:
        """Ask the page to keep the screen on; a browser without a wake lock is said once per
        device, and any other failure only costs a dark screen, so is logged."""
        self.asked = True  # before the call: leaving mid-call still lets go
        try:
            await self.services.service(ft.Wakelock).enable()  # type: ignore[no-untyped-call]
        except (RuntimeError, TimeoutError) as error:
            if NO_WAKE_LOCK not in str(error):
                logger.info("The screen may go dark: the page could not keep it on (%s)", error)
                return
            await self._say_once()

    async def let_dark(self) -> None:
        """Let the screen go dark again (the game ended, the person left the table)."""
        if not self.asked:
            return
        self.asked = False
        try:
            await self.services.service(ft.Wakelock).disable()  # type: ignore[no-untyped-call]
        except (RuntimeError, TimeoutError) as error:  # a page gone away has no lock to hold
            logger.info("The page did not answer letting the screen go dark (%s)", error)

    async def _say_once(self) -> None:
        prefs: PrefsLike = self.services.service(ft.SharedPreferences)
        try:
            if await prefs.get(NOTICE_SHOWN_KEY):
                return
            await prefs.set(NOTICE_SHOWN_KEY, "1")
        except (RuntimeError, TimeoutError) as error:  # not remembered: said again next time
            logger.info("Could not remember that the screen notice was shown (%s)", error)
        self.telling = True


def use_screen_awake(services: Services, wanted: bool) -> str | None:
    """Keep the screen on while ``wanted`` (and the screen shown); returns the notice to show, if any."""
    awake = use_model(lambda: ScreenAwake(services))
    ft.use_effect(partial(awake.follow, wanted), [wanted], cleanup=awake.let_dark)
    if not awake.telling:
        return None
    return tr("This browser may let the screen go dark between throws: it does not let the app "
              "keep the screen on. A longer screen timeout in the phone's settings keeps it lit.")
