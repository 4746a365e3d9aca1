"""The event page's "Players' page" part: the organizer's on/off switch, the page's link and its QR.

Players open the page (:mod:`app.views.players_page`) on their own phones from the venue server;
the switch is kept beside the event on this device
(:meth:`app.event.organizer.Organizer.open_players_page`), so closing it refuses the page at once,
for every phone, pages already open included. The offline PWA has no venue server to serve it:
the part says so instead of offering a link that cannot work.
"""

from __future__ import annotations

from typing import Any

import flet as ft

from app.i18n import tr
from app.routes import players_path
from app.runtime import in_browser
from app.table.tournament_table import card_link_base, link_qr_text, site_link_base
from app.venue.addresses import serving
from app.views.organizer.common import EventState, notice_at
from app.views.widgets import MIN_TARGET, link_qr, section

__all__ = ["phones_base", "players_page_qr_text", "players_page_section"]

PLACE = "players-page"
"""Where the switch's notices show (beside it)."""


def phones_base(link_base: str, page_url: str) -> str:
    """Where phones reach this app: the address the tables' cards carry (the one the organizer
    saved for phones, else the one this page was opened at).

    >>> phones_base("http://192.168.1.20:8550", "http://127.0.0.1:8550/organizer/E1")
    'http://192.168.1.20:8550'
    >>> phones_base("", "http://192.168.1.20:8550/organizer/E1")
    'http://192.168.1.20:8550'
    """
    return (card_link_base(link_base, page_url, False) or site_link_base(page_url, False)).rstrip("/")


def players_page_qr_text(base: str, event_code: str) -> str:
    """The players' page link for a QR: the host and route in capitals (they read the same), so
    the QR takes its compact alphanumeric mode.

    >>> players_page_qr_text("http://192.168.1.20:8550", "MAYOR-26")
    'HTTP://192.168.1.20:8550/PLAYERS/MAYOR-26'
    """
    return link_qr_text(base) + players_path(event_code).upper()


def players_page_section(event: EventState) -> ft.Control:
    """The switch, and while it is on the link and QR for the wall or the room display."""
    if in_browser():
        return section(tr("Players' page"), ft.Text(tr(
            "Players can look up their seat and place on their own phones when the event runs on a laptop at the "
            "venue (make run, on the venue's Wi-Fi). Here the event lives in this browser alone, so there is no "
            "players' page to offer."), key="players-page-offline"))
    shown = event.organizer.players_page_open

    async def switched(change: Any) -> None:
        wanted = bool(change.control.value)
        await event.do(lambda: event.organizer.open_players_page(wanted),
                       lambda _: tr("Players' page on: phones that open its link or QR see their seat and place.")
                       if wanted else tr("Players' page off: phones that open its link are told it is closed."),
                       place=PLACE)

    controls: list[ft.Control] = [
        ft.Switch(label=tr("Players' page: on") if shown else tr("Players' page: off"), value=shown,
                  on_change=switched, key="players-page-switch", height=MIN_TARGET),
        *notice_at(event, PLACE),
    ]
    if shown:
        page_url = str(getattr(ft.context.page, "url", None) or "")
        base = phones_base(event.organizer.link_base, page_url)
        link = base + players_path(event.tournament.event_id)
        controls += [
            ft.Text(tr("Players scan this QR (or open the link) on their own phones to find their table, seat, "
                       "totals and place. It shows what the room display shows: no code, key or passphrase."),
                    size=13),
            *link_qr(link, players_page_qr_text(base, event.tournament.event_id), tr("Players' page QR code"),
                     "players-page"),
        ]
        served = serving()
        if served is not None and served.loopback_only:
            controls.append(ft.Text(tr("This app answers only this device: start it with --host 0.0.0.0 so that "
                                       "phones reach the players' page."), key="players-page-loopback"))
    else:
        controls.append(ft.Text(tr("Off: phones that open the players' page are told the organizer has closed it."),
                                key="players-page-closed"))
    return section(tr("Players' page"), *controls)
