"""``/import/<code>``: a table's result opened as a link (what a phone's camera app opens from the result QR).

The link is imported once per session, into the event it names (the open or latest
event if none is stored with that code: the import then says why it is refused), and the
screen is that event's results inbox with what happened on top.
"""

from __future__ import annotations

from dataclasses import dataclass
from urllib.parse import unquote

import flet as ft

from app.organizer import describe_error
from app.views.organizer.common import event_view, notices, use_event
from app.views.organizer.results import ResultsPage, results_controls
from app.views.widgets import on, screen_view
from app.i18n import tr
from engine import CodeDamaged

__all__ = ["ImportScreen", "ImportPage"]


@dataclass
class ImportPage(ResultsPage):
    """The inbox of the event a result link names; ``link``: the code as the path holds it."""

    link: str = ""
    unreadable: bool = False

    @property
    def route(self) -> str:
        return f"/import/{self.link}"

    async def load(self) -> None:
        done = self.desk.links_done
        if self.link not in done:
            done[self.link] = await self.import_once()
        self.tournament_id = done[self.link]
        if self.tournament_id:
            self.missing = await self.organizer.open(self.tournament_id) is None
        self.loaded = True
        self.changed()

    async def import_once(self) -> str:
        """Import the link's result; the event it went to ("" when there is none to go to)."""
        try:
            tournament_id = await self.organizer.open_event_of(self.link)
        except CodeDamaged as damaged:
            self.unreadable = True
            self.refuse(str(damaged))
            return ""
        except LookupError as nowhere:
            self.refuse(str(nowhere))
            return ""
        try:
            report = await self.organizer.import_code(self.link)
        except Exception as error:  # noqa: BLE001 - shown, never a crash
            self.refuse(describe_error(error))
        else:
            self.tell([report.message, tr("Imported from a link.")])
        return tournament_id



@ft.component
def ImportScreen(payload: str) -> ft.View:
    link = unquote(payload)
    inbox = use_event(lambda services, tournament_id, page: ImportPage(services, tournament_id, page, link=link), "",
                      "results")
    if inbox.ready:
        return event_view(inbox, results_controls(inbox))
    if not inbox.loaded or inbox.tournament_id:
        return event_view(inbox, [])
    lines = notices(inbox)
    if inbox.unreadable:
        lines.append(ft.Text(tr("This link does not hold a readable result.")))
    return screen_view(inbox.route, tr("Result link"), lines, on_home=on(inbox.navigate, "/"))
