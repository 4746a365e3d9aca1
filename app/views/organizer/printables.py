"""``/organizer/<id>/print-seats``, ``/print-slips``, ``/print-standings``: paper for the room.

A seat list for the wall (everyone alphabetically, large, with table and seat, and the players'
page QR), a result slip per table (the paper fallback), and the standings with the cut marked.
Each is a plain HTML document (:mod:`app.views.organizer.paper`) that the browser pages and
prints: on the venue server it opens in a new tab (:mod:`app.venue.printouts`); anywhere,
including the offline PWA, it can be saved as a file and printed from there.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Final

import flet as ft

from app.i18n import tr, translatable
from app.runtime import in_browser
from app.table.tournament_table import card_link_base, site_link_base
from app.venue.printouts import keep
from app.views.organizer.common import EventState, event_view, use_event
from app.views.organizer.display import players_link
from app.views.organizer.paper import result_slips, seat_list, standings_sheet, table_cards_sheet
from app.views.widgets import big_button, on, section
from engine import Tournament

__all__ = ["PrintablePage", "SeatListScreen", "ResultSlipsScreen", "StandingsPrintScreen", "PRINTABLES",
           "printable_links", "printable_actions"]

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class Printable:
    route: str
    """The route part after the event's id."""
    title: str
    holds: str
    """What is on the paper, in a sentence."""
    file: str
    """The file name it is saved as (before the event code)."""
    save_title: str
    """The save dialog's title, whole: a title put into a sentence would need its case and article."""


PRINTABLES: Final = {
    "cards": Printable("print", translatable("Cards"),
                       translatable("One card per table: its seats and rules and, while the round is played, its "
                                    "setup QR code and text."),
                       "table-cards", translatable("Save the cards")),
    "seats": Printable("print-seats", translatable("Seat list"),
                       translatable("Every player of the round, alphabetically, in large type with their table and "
                                    "seat, for the wall; the players' page QR on top when it is open."),
                       "seat-list", translatable("Save the seat list")),
    "slips": Printable("print-slips", translatable("Result slips"),
                       translatable("One slip per table: the seats and names, a box for each final total and the "
                                    "player's initials, and the event code, for a table without its phone."),
                       "result-slips", translatable("Save the result slips")),
    "standings": Printable("print-standings", translatable("Standings to print"),
                           translatable("Everyone, best first, with each round's total and their standing; a line "
                                        "under those who go on at the cut."),
                           "standings", translatable("Save the standings to print")),
}
"""The printables by kind."""


@dataclass
class PrintablePage(EventState):
    """A printable's page: what was last opened or saved is said at the top."""

    def document(self, kind: str) -> str:
        t = self.tournament
        if kind == "cards":
            page_url = str(getattr(ft.context.page, "url", None) or "")
            link_base = card_link_base(self.organizer.link_base, page_url, in_browser())
            return table_cards_sheet(t, link_base, link_base or site_link_base(page_url, in_browser()))
        if kind == "seats":
            return seat_list(t, players_link(self))
        return result_slips(t) if kind == "slips" else standings_sheet(t)

    async def open_in_tab(self, kind: str) -> None:
        """Keep the document on the venue server and open it in a new tab, to print from there."""
        page_url = str(getattr(ft.context.page, "url", None) or "")
        url = site_link_base(page_url, False) + keep(self.document(kind))
        try:
            await self.services.service(ft.UrlLauncher).launch_url(url, web_only_window_name="_blank")
        except Exception as error:  # noqa: BLE001 - a device service: no browser tab here: saving still works
            logger.warning("The printable could not be opened in a tab", exc_info=True)
            self.refuse(tr("It could not be opened in a new tab ({error}): save it as a file instead.", error=error))
        else:
            self.tell(tr("Opened in a new tab: print it there (Ctrl+P). The address works for 15 minutes."))
        self.changed()

    async def save(self, kind: str) -> None:
        """Save the document as an HTML file, which any browser opens and prints (the PWA has no server)."""
        printable = PRINTABLES[kind]
        name = f"{printable.file}-{self.tournament.event_id}.html"
        try:
            saved = await self.services.service(ft.FilePicker).save_file(
                dialog_title=tr(printable.save_title), file_name=name,
                src_bytes=self.document(kind).encode("utf-8"), allowed_extensions=["html"])
        except Exception as error:  # noqa: BLE001 - a device service: no file dialog here
            logger.warning("The printable could not be saved", exc_info=True)
            self.refuse(tr("The file could not be saved ({error}).", error=error))
        else:
            self.tell(tr("Saved as {file}: open it in a browser and print it.", file=saved or name))
        self.changed()


def printable_links(base: str, navigate: Callable[[str], Awaitable[None]]) -> list[ft.Control]:
    """A button to each printable's page, for the page that links to them (the seating page)."""
    return [big_button(tr(printable.title), on(navigate, f"{base}/{printable.route}"), filled=False,
                       key=printable.route, icon=ft.Icons.PRINT) for kind, printable in PRINTABLES.items()
            if kind != "cards"]


def printable_actions(state: PrintablePage, kind: str) -> list[ft.Control]:
    """Open to print (on the venue server) and save as a file (anywhere), with what the PWA must do."""
    buttons: list[ft.Control] = []
    if not in_browser():
        buttons.append(big_button(tr("Open to print"), on(state.open_in_tab, kind), key="printable-open",
                                  icon=ft.Icons.PRINT))
    buttons.append(big_button(tr("Save as a file to print"), on(state.save, kind), key="printable-save",
                              filled=in_browser(), icon=ft.Icons.DOWNLOAD))
    controls: list[ft.Control] = [ft.Row(buttons, wrap=True)]
    if in_browser():
        controls.append(ft.Text(tr("This device has no venue server: save the file, open it in the browser and "
                                   "print it from there."), size=13))
    return controls


def _screen(kind: str, tournament_id: str) -> ft.View:
    state = use_event(PrintablePage, tournament_id, PRINTABLES[kind].route)
    printable = PRINTABLES[kind]
    if not state.ready:
        return event_view(state, [], title=tr(printable.title))
    t: Tournament = state.tournament
    controls: list[ft.Control] = [ft.Text(tr(printable.holds), key="printable-holds")]
    if kind != "standings" and not t.round:
        controls.append(ft.Text(tr("No round has been drawn yet: there is nothing to print."), key="printable-empty"))
    else:
        controls += printable_actions(state, kind)
    return event_view(state, [section(tr(printable.title), *controls)], title=tr(printable.title))


@ft.component
def SeatListScreen(tournament_id: str) -> ft.View:
    return _screen("seats", tournament_id)


@ft.component
def ResultSlipsScreen(tournament_id: str) -> ft.View:
    return _screen("slips", tournament_id)


@ft.component
def StandingsPrintScreen(tournament_id: str) -> ft.View:
    return _screen("standings", tournament_id)
