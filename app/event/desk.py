"""The organizer's side of one app session: what outlives the organizer's screens.

The shell makes one :class:`Desk` with the session's services (see :mod:`app.context`);
every organizer screen reads it from there. It holds the :class:`~app.event.organizer.Organizer`
(the open event), a :class:`Reply` left for the screen an action led to, the result
links already imported and what this device may open (:class:`~app.event.access.DeviceAccess`).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from app.event.access import DeviceAccess
from app.event.organizer import Organizer

__all__ = ["Desk", "Reply"]


@dataclass(frozen=True)
class Reply:
    """What a screen says after an action (what it did, or why it was refused), for the screen at ``route``."""

    route: str
    lines: tuple[str, ...]
    place: str = ""
    """The form or button it answers, where the screen shows it; "" for the top."""


@dataclass
class Desk:
    """The organizer's side of one app session (one browser tab)."""

    organizer: Organizer
    access: DeviceAccess = field(default_factory=lambda: DeviceAccess("", False))
    """What this device opens without a passphrase, and its sessions (see :mod:`app.event.access`)."""
    flash: Reply | None = None
    """What the next screen shown at its route says first (the screen an action led to)."""
    links_done: dict[str, str] = field(default_factory=dict)
    """Result links opened so far: the tournament each was imported into ("" if it was not)."""

    def take_flash(self, route: str) -> Reply | None:
        flash, self.flash = self.flash, None
        return flash if flash is not None and flash.route == route else None
