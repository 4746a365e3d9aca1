"""``/import/<code>``: a table's result opened as a link (what a phone's camera app opens from the result QR).

The link is imported once per session, into the event it names (the open or latest
event if none is stored with that code: the import then says why it is refused), and the
screen is that event's results inbox with what happened on top. When several stored events
hold the link's event code (data kept before codes were unique, :mod:`app.event.codes`), the
screen lists them by name, those this device opens, and imports into the one chosen.
"""

from __future__ import annotations

from dataclasses import dataclass
from urllib.parse import unquote

import flet as ft

from app.event.codes import CodeHolder, SharedCode
from app.event.organizer import describe_error
from app.views.organizer.common import event_view, notices, use_event
from app.views.organizer.results import ResultsPage, results_controls
from app.views.widgets import big_button, on, screen_view
from app.i18n import tr, tr_words
from engine import CodeDamaged
from engine.codec import SealedResult, read_sealed_result

__all__ = ["ImportScreen", "ImportPage"]


@dataclass
class ImportPage(ResultsPage):
    """The inbox of the event a result link names; ``link``: the code as the path holds it."""

    link: str = ""
    sealed: SealedResult | None = None
    """The link's code read once, up to the table it names: to find its event, then to import it."""
    unreadable: bool = False
    choices: tuple[CodeHolder, ...] = ()
    """The events holding the link's event code that this device opens, when there are several."""

    @property
    def route(self) -> str:
        return f"/import/{self.link}"

    async def load(self) -> None:
        done = self.desk.links_done
        if self.link not in done:
            imported = await self.import_once()
            if not self.choices:  # a choice still to make is asked again when the link is opened again
                done[self.link] = imported
        self.tournament_id = done.get(self.link, "")
        if self.tournament_id:
            self.missing = await self.organizer.open(self.tournament_id) is None
        self.loaded = True
        self.changed()

    async def import_once(self) -> str:
        """Import the link's result; the event it went to ("" when there is none to go to, or yet)."""
        try:
            self.sealed = read_sealed_result(self.link)
            tournament_id = await self.organizer.open_event_of(self.sealed)
        except CodeDamaged as damaged:
            self.unreadable = True
            self.refuse(str(damaged))
            return ""
        except SharedCode as shared:
            self.choices = await self.openable(shared.holders)
            self.refuse(str(shared))
            return ""
        except LookupError as nowhere:
            self.refuse(str(nowhere))
            return ""
        return await self.import_into(tournament_id)

    async def openable(self, holders: tuple[CodeHolder, ...]) -> tuple[CodeHolder, ...]:
        """The events of ``holders`` this device opens (all on the organizer's own device)."""
        opened = await self.desk.access.unlocked(await self.organizer.passphrase_hashes())
        return tuple(holder for holder in holders if self.desk.access.organizer or holder.id in opened)

    async def import_into(self, tournament_id: str) -> str:
        """Import the link's result into the open event ``tournament_id``; its id."""
        try:
            report = await self.organizer.import_code(self.sealed or self.link)
        except Exception as error:  # noqa: BLE001 - shown, never a crash
            self.refuse(describe_error(error))
        else:
            self.tell([tr_words(report.message), tr("Imported from a link.")])
        return tournament_id

    async def choose(self, holder: CodeHolder) -> None:
        """Import the link's result into the event chosen of those holding its code."""
        if holder not in await self.openable(self.choices):
            self.refuse(tr("This device has not signed in to {event}: nothing was imported.", event=holder.name))
        elif await self.organizer.open(holder.id) is None:
            self.refuse(tr("{event} can no longer be read on this device: nothing was imported.", event=holder.name))
        else:
            self.desk.links_done[self.link] = await self.import_into(holder.id)
            self.choices = ()
            self.tournament_id = holder.id
            self.missing = False
        self.changed()


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
    lines.extend(big_button(tr("Import into {event}", event=holder.name), on(inbox.choose, holder),
                            key=f"import-into-{holder.id}", icon=ft.Icons.INBOX, filled=False)
                 for holder in inbox.choices)
    if inbox.unreadable:
        lines.append(ft.Text(tr("This link does not hold a readable result.")))
    return screen_view(inbox.route, tr("Result link"), lines, on_home=on(inbox.navigate, "/"))
