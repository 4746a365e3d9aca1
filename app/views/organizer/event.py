"""``/organizer/<id>``: the event, its rounds, its format (editable until round 1 is drawn), the result links' address."""

from __future__ import annotations

import time
from dataclasses import dataclass

import flet as ft

from app.documents import changes
from app.documents.events import COLLECTION as EVENTS
from app.event.sign_in_guard import FailedTries
from app.runtime import in_browser
from app.event.event_copy import copy_line
from app.event.format_draft import FormatDraft
from app.venue.addresses import for_phones, serving, venue_link_bases
from app.views.organizer.common import event_view, text_field, use_event
from app.views.organizer.format_editor import FormatEditing, format_editor, format_plan
from app.views.organizer.players_page_switch import players_page_section
from app.views.widgets import big_button, on, section
from app.i18n import ntr, tr, tr_words

__all__ = ["EventScreen", "EventPage", "failed_tries_line", "round_at_a_glance"]


@dataclass
class EventPage(FormatEditing):
    """The event page: the format being edited and the address typed for result links."""

    async def load(self) -> None:
        await super().load()
        if self.ready:
            self.fields.setdefault("link_base", for_phones(self.organizer.link_base))

    def event_format(self) -> FormatDraft:
        return FormatDraft.of(self.tournament.format)

    def signed_up(self) -> int:
        return sum(not p.withdrawn for p in self.tournament.players)

    async def save_format(self) -> None:
        draft = self.shown_draft(self.event_format)

        def report(changed: bool) -> str:
            self.draft = None
            return tr("Format saved: {name}.",
                      name=self.tournament.format.name) if changed else tr("The format is unchanged.")

        await self.do(lambda: self.organizer.change_format(draft), report)

    def revert_format(self) -> None:
        self.draft = None
        self.tell(tr("Edits dropped: the event's format is shown again."))

    async def save_link_base(self) -> None:
        await self.do(lambda: self.organizer.set_link_base(self.value("link_base")),
                      lambda _: tr("Saved: new setup codes carry this address.") if self.organizer.link_base
                      else tr("Saved: result codes will be plain codes, without a link."))

    async def use_link_base(self, base: str) -> None:
        """One of the machine's addresses, tapped in the list: filled in and saved."""
        self.set_field("link_base", base)
        await self.save_link_base()


def venue_choices(event: EventPage) -> list[ft.Control]:
    """Where phones reach this device, to pick from (a server for every network: one per address),
    or why no phone can (a server for this device alone)."""
    served = serving()
    if served is not None and served.loopback_only:
        return [ft.Text(tr("This app answers only this device ({host}): for phones to open its links, start it "
                           "with --host 0.0.0.0.",
                           host=served.host), key="link-base-loopback")]
    bases = venue_link_bases()
    if not bases:
        return []
    saved = for_phones(event.organizer.link_base)
    lines: list[ft.Control] = [ft.Text(
        tr("Phones on this device's network reach it at this address:") if len(bases) == 1 else
        tr("Phones on this device's network reach it at one of {count} addresses (one per network it is on): use "
           "the one of the venue's Wi-Fi.", count=len(bases)),
        key="link-base-choices")]
    for index, base in enumerate(bases, 1):
        if base == saved:
            lines.append(ft.Text(tr("{base} (in use)", base=base), key=f"link-choice-{index}"))
        else:
            lines.append(big_button(tr("Use {base}", base=base), on(event.use_link_base, base), filled=False,
                                    key=f"link-choice-{index}"))
    return lines


def access_line(tries: FailedTries) -> str:
    """Who can open this event's organizer screens: in the offline PWA only this browser (it
    has no server, no passphrase and no other device to refuse), else the wrong passphrases
    other devices gave (:func:`failed_tries_line`)."""
    if in_browser():
        return tr("Only this device opens this event: the app keeps it in this browser, with no organizer "
                  "passphrase, and no other device reaches it. Save a copy to keep it off the device.")
    return failed_tries_line(tries)


def result_links_help() -> str:
    """What a result link is and which address it needs, said for where the app runs."""
    if in_browser():
        return tr("Result QR codes carry a link to this app's site, so the camera app of this phone can open a "
                  "table's result here. Give the site's address as you opened it (e.g. https://farkle.example/app); "
                  "leave it empty for plain codes. It goes into the setup codes drawn from now on.")
    return tr("Result QR codes carry a link to this app, so a phone's camera app can open it here. Give "
              "the address phones reach this device on (e.g. http://192.168.1.20:8550); leave it empty "
              "for plain codes. It goes into the setup codes drawn from now on.")


def failed_tries_line(tries: FailedTries) -> str:
    """The wrong organizer passphrases other devices gave for this event (since the server started)."""
    if not tries.count:
        return tr("No wrong organizer passphrase from another device since the server started.")
    shown = sorted(tries.addresses, key=lambda a: -tries.addresses[a])
    others = (ntr(" and {count} other address", " and {count} other addresses", len(shown) - 3, count=len(shown) - 3)
              if len(shown) > 3 else "")
    line = tr("Wrong organizer passphrases from other devices: {count}, the last at {time}, from {addresses}{others}.",
              count=tries.count, time=time.strftime("%H:%M:%S", time.localtime(tries.last)),
              addresses=", ".join(shown[:3]), others=others)
    if tries.paused_until:
        line += tr(" Other devices cannot sign in until {time} (this device still opens it).",
                   time=time.strftime("%H:%M", time.localtime(tries.paused_until)))
    return line


def round_at_a_glance(event: EventPage) -> list[ft.Control]:
    """The round being played, table by table (reported, playing since when, held, a roll-off
    pending) and what must happen before it can close, in the engine's words; and the room display."""
    t = event.tournament
    display = big_button(tr("Open the room display"), on(event.navigate, f"{event.base}/display"), filled=False,
                         key="open-display", icon=ft.Icons.TV)
    if not t.round_open:
        return [display]
    room = t.room()
    lines: list[ft.Control] = [ft.Text(tr("Table {table}: {words}", table=table.table, words=table.words),
                                       key=f"glance-table-{table.table}") for table in room.tables]
    if room.to_close:
        lines.append(ft.Text(tr("Before the round can close:"), weight=ft.FontWeight.BOLD))
        lines += [ft.Text(tr_words(line), key=f"glance-to-close-{index}") for index, line in enumerate(room.to_close)]
    else:
        lines.append(ft.Text(tr("Every table has reported: the round can close (Results)."), key="glance-ready"))
    return [section(tr("{round} at a glance", round=room.round_name), *lines, display)]


@ft.component
def EventScreen(tournament_id: str) -> ft.View:
    event = use_event(EventPage, tournament_id, "")
    changes.use_saves_of(EVENTS, tournament_id, event.load)
    if not event.ready:
        return event_view(event, [])
    t = event.tournament
    plan: list[ft.Control] = [ft.Text(tr_words(p.describe()), key=f"plan-{p.number}") for p in t.plan()]
    if not plan:
        plan = [ft.Text(tr("Check players in to see the rounds: a round needs at least 2 players."))]
    editor: list[ft.Control] = []
    if not t.round:
        draft = event.shown_draft(event.event_format)
        editor = [
            format_editor(event, event.event_format,
                          format_plan(lambda: event.organizer.preview_format(draft), event.signed_up())),
            ft.Row([
                big_button(tr("Save the format"), on(event.save_format), key="fmt-save", icon=ft.Icons.SAVE),
                big_button(tr("Drop the edits"), on(event.revert_format), filled=False, key="fmt-revert"),
            ], wrap=True),
        ]
    return event_view(event, [
        ft.Text(tr("Event code {event_id} · {name} · at most {cap} players",
                   event_id=t.event_id, name=t.format.name, cap=t.format.cap), key="event-line"),
        ft.Text(tr_words(t.state_line()), size=16, weight=ft.FontWeight.BOLD, key="event-state"),
        *round_at_a_glance(event),
        ft.Text(access_line(event.desk.access.guard.failed_tries(tournament_id)), key="event-access"),
        section(tr("The rounds"), *plan),
        players_page_section(event),
        section(
            tr("A copy of the event"),
            ft.Text(tr("A file with the whole event, to keep off this device (a laptop, a cloud folder, a message "
                       "to yourself): \"Open a saved copy\" on the tournaments list brings it back on any device."),
                    size=13),
            ft.Text(copy_line(event.organizer.last_copy, len(t)), key="copy-line"),
            big_button(tr("Save a copy of the event"), on(event.save_copy), filled=False, key="save-copy",
                       icon=ft.Icons.SAVE_ALT),
        ),
        *editor,
        section(
            tr("Result links"),
            ft.Text(result_links_help(), key="link-base-help"),
            text_field(event, "link_base", tr("Address for result links"), key="link-base"),
            big_button(tr("Save the address"), on(event.save_link_base), filled=False, key="save-link-base"),
            *venue_choices(event),
        ),
    ])
