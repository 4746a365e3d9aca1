"""``/organizer``: the events on this device, and a new one in a format edited with its plan shown live."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field

import flet as ft
from flet.components.hooks.use_ref import MutableRef

from app.event.passphrase import MIN_PASSPHRASE, PassphraseRefused, check_new_passphrase, hash_passphrase
from app.event.desk import Reply
from app.event.event_copy import CopyOpened, CopyRefused
from app.event.format_draft import FormatDraft
from app.event.organizer import TournamentSummary
from app.runtime import in_browser
from app.venue.addresses import link_base_of
from app.views.organizer.common import (
    notices,
    passphrase_field,
    text_field,
    use_event,
)
from app.views.organizer.format_editor import FormatEditing, format_editor, format_plan
from app.views.widgets import MIN_TARGET, big_button, notice_banner, on, problem_line, screen_view, section
from app.i18n import tr

__all__ = ["EventsScreen", "EventsState", "ROUTE"]

ROUTE = "/organizer"


@dataclass
class EventsState(FormatEditing):
    """The list of events and the new event's name, code and format."""

    summaries: list[TournamentSummary] = field(default_factory=list)
    unreadable: list[str] = field(default_factory=list)  # events kept aside, in words

    @property
    def route(self) -> str:
        return ROUTE

    async def load(self) -> None:
        summaries = await self.organizer.summaries()
        if not self.desk.access.organizer:  # another device lists only the events it has signed in to
            opened = await self.desk.access.unlocked(await self.organizer.passphrase_hashes())
            summaries = [summary for summary in summaries if summary.id in opened]
        self.summaries = summaries
        if self.desk.access.organizer:
            self.unreadable = [problem_line(problem) for problem in self.organizer.store.problems
                               if "tournaments" in problem.location]
        self.take_flash()
        self.loaded = True

    async def create(self, link_base: str) -> None:
        """Create the event in the edited format and go to its sign-up."""
        draft = self.shown_draft(FormatDraft.house)

        async def create() -> str:
            stored = await self.new_passphrase_hash()
            tournament_id = await self.organizer.create(self.value("event_name"), None,
                                                        self.value("event_code").strip() or None, link_base,
                                                        format=draft.build(), passphrase_hash=stored)
            await self.desk.access.remember(tournament_id, stored)
            return tournament_id

        if await self.do(create, clear=("event_name", "event_code", "event_passphrase", "event_passphrase_again")):
            players = f"/organizer/{self.organizer.tournament_id}/players"
            self.desk.flash = Reply(players, (tr("Tournament created: sign the players up."),))
            self.draft = None
            await self.navigate(players)


    async def copy_picked(self, event: ft.FilePickerResultEvent) -> None:
        """An event copy picked: its event added (or brought up to date) and opened."""
        files = event.files or []
        if not files:
            return  # cancelled
        opened: list[CopyOpened] = []

        async def open_it() -> None:
            if not self.desk.access.organizer:  # the button is not shown there: a link typed in by hand
                raise CopyRefused(tr("A copy of an event opens only on the organizer's own device."))
            opened.append(await self.organizer.open_copy(files[0].bytes, page_link_base()))

        if await self.do(open_it):
            route = f"/organizer/{opened[0].tournament_id}"
            self.desk.flash = Reply(route, (opened[0].words,))
            await self.navigate(route)

    async def new_passphrase_hash(self) -> str:
        """The typed organizer passphrase's hash; "" when left empty on the organizer's own device
        (the event then opens only there until one is set on its page)."""
        first, again = self.value("event_passphrase"), self.value("event_passphrase_again")
        if not (first.strip() or again.strip()):
            if self.desk.access.organizer:
                return ""
            raise PassphraseRefused(tr("Give the event an organizer passphrase ({least} characters or more), twice.",
                                       least=MIN_PASSPHRASE))
        return await asyncio.to_thread(hash_passphrase, check_new_passphrase(first, again))


def page_link_base() -> str:
    """Where phones reach this app, as the organizer's page was opened: for an event made or opened here."""
    return link_base_of(str(getattr(ft.context.page, "url", None) or ""))


def passphrase_fields(events: EventsState) -> list[ft.Control]:
    """The new event's organizer passphrase, twice (none in the offline PWA: everything stays on the device)."""
    if in_browser():
        return []
    return [
        passphrase_field(events, "event_passphrase", tr("Organizer passphrase"), "event-passphrase"),
        passphrase_field(events, "event_passphrase_again", tr("Organizer passphrase again"), "event-passphrase-again"),
        ft.Text(tr("Other phones open this event's organizer screens only with it ({least} characters or more).",
                   least=MIN_PASSPHRASE), size=12, key="event-passphrase-help"),
    ]


def open_copy_button(events: EventsState, picker: ft.FilePicker) -> list[ft.Control]:
    """On the organizer's own device: open the file "Save a copy of the event" made (on this device or another)."""
    if not events.desk.access.organizer:
        return []
    return [ft.OutlinedButton(tr("Open a saved copy"), icon=ft.Icons.UPLOAD_FILE, key="open-copy", height=MIN_TARGET,
                              action=ft.PickFiles(picker, dialog_title=tr("A copy of an event (.json)"),
                                                  file_type=ft.FilePickerFileType.CUSTOM,
                                                  allowed_extensions=["json"], with_data=True))]


@ft.component
def EventsScreen() -> ft.View:
    events = use_event(EventsState, "", "")
    picker_ref: MutableRef[ft.FilePicker] = ft.use_ref(None)
    if picker_ref.current is None:  # held by the ref: the page drops a service nothing holds
        picker_ref.current = ft.FilePicker(on_result=events.copy_picked)
    link_base = page_link_base()
    draft = events.shown_draft(FormatDraft.house)
    tiles: list[ft.Control] = [
        ft.ListTile(title=ft.Text(summary.line), leading=ft.Icon(ft.Icons.EMOJI_EVENTS),
                    on_click=on(events.navigate, f"/organizer/{summary.id}"), key=f"event-{summary.id}")
        for summary in events.summaries
    ]
    controls: list[ft.Control] = [
        *notices(events),
        section(
            tr("New tournament"),
            text_field(events, "event_name", tr("Tournament name"), key="event-name"),
            text_field(events, "event_code", tr("Event code (optional)"), key="event-code", hint="FT-…"),
            *passphrase_fields(events),
            format_editor(events, FormatDraft.house, format_plan(draft.build, None), cap_key="event-cap"),
            big_button(tr("Create the tournament"), on(events.create, link_base), key="create-event",
                       icon=ft.Icons.ADD),
        ),
        section(tr("Tournaments on this device"), *(tiles or [ft.Text(tr("None yet.") if events.loaded else "…")]),
                *open_copy_button(events, picker_ref.current)),
    ]
    if events.unreadable:
        controls.append(notice_banner(events.unreadable, error=True, key="unreadable-events"))
    return screen_view(ROUTE, tr("Organize a tournament"), controls, on_home=on(events.navigate, "/"))
