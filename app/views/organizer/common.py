"""What every organizer screen shares: a screen's plain state over the session's desk, and the frame.

The session's :class:`app.event.desk.Desk` (in the services, see :mod:`app.context`) holds the
:class:`app.event.organizer.Organizer` (the open event, read again from the store whenever a
screen opens) and what outlives a screen. A screen's own state is an :class:`EventState`
(or a subclass): the texts typed into its fields, what the last action did (``done``) or
why it was refused (``refusal``); it holds no control. Every action goes through
:meth:`EventState.do`: the refusal (the engine's words, the store's failure, another
screen's change) is shown and nothing changes.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass, field
from typing import Any, Final, TypeVar

import flet as ft

from app.event.passphrase import check_new_passphrase, hash_passphrase, meets_rule
from app.context import Services, use_model, use_services
from app.event.desk import Desk, Reply
from app.event.event_copy import copy_due
from app.event.organizer import Organizer, describe_error
from app.runtime import in_browser
from app.views.widgets import MIN_TARGET, big_button, icon_button, notice_banner, on, screen_view, secret_field
from app.i18n import tr, tr_words, translatable
from engine import TableResult, Tournament

__all__ = [
    "EventState", "PAGES", "use_model", "use_event", "event_view", "text_field", "notices", "notice_at", "nav_row",
    "waiting_view", "not_found_view",
]

logger = logging.getLogger(__name__)

StateT = TypeVar("StateT", bound="EventState")

PAGES: Final = (
    ("players", translatable("Players"), ft.Icons.PEOPLE),
    ("seating", translatable("Seating"), ft.Icons.TABLE_RESTAURANT),
    ("results", translatable("Results"), ft.Icons.INBOX),
    ("standings", translatable("Standings"), ft.Icons.LEADERBOARD),
    ("lookup", translatable("Find a player"), ft.Icons.SEARCH),
    ("final", translatable("Final & prize"), ft.Icons.EMOJI_EVENTS),
)
"""The pages of an event, in the order of its navigation row: (route part, title, icon)."""


@dataclass
class EventState(ft.Observable):
    """One screen of one event: its fields' texts, what it says, and the event once read.

    :param page: the route part after the event's id ("" for the event page).
    :param refusal: why the last action was refused (shown as an error); ``done``: what it did.
    """

    services: Services
    tournament_id: str
    page: str = ""
    loaded: bool = False
    missing: bool = False
    refusal: Reply | None = None
    done: Reply | None = None
    fields: dict[str, str] = field(default_factory=dict)

    # -- what the screen shows ----------------------------------------------------------

    @property
    def desk(self) -> Desk:
        return self.services.desk

    @property
    def organizer(self) -> Organizer:
        return self.desk.organizer

    async def navigate(self, route: str) -> None:
        await self.services.navigate(route)

    @property
    def tournament(self) -> Tournament:
        return self.organizer.open_tournament

    @property
    def base(self) -> str:
        return f"/organizer/{self.tournament_id}"

    @property
    def route(self) -> str:
        return f"{self.base}/{self.page}" if self.page else self.base

    @property
    def ready(self) -> bool:
        """The event is read and still the one open (another screen may have opened another)."""
        return (self.loaded and not self.missing and self.organizer.tournament is not None
                and self.organizer.tournament_id == self.tournament_id)

    def name_of(self, number: int) -> str:
        return self.tournament.player(number).name

    def summary(self, result: TableResult) -> str:
        """A table's result in one line, by place: the engine's words (:meth:`Tournament.result_summary`)."""
        return tr_words(self.tournament.result_summary(result))

    def value(self, name: str) -> str:
        return self.fields.get(name, "")

    # -- changes ------------------------------------------------------------------------

    async def load(self) -> None:
        """Read the event as stored now; what an action left for this screen to say."""
        self.missing = await self.organizer.open(self.tournament_id) is None
        self.take_flash()
        self.loaded = True
        self.changed()

    def take_flash(self) -> None:
        """What the action that led here left for this screen to say, if anything."""
        flash = self.desk.take_flash(self.route)
        if flash is not None:
            self.refusal, self.done = None, flash

    def changed(self) -> None:
        """Show the screen again: the event changed though no field of this state did."""
        self.notify()  # type: ignore[no-untyped-call]

    def set_field(self, name: str, value: Any) -> None:
        self.fields[name] = "" if value is None else str(value)

    def tell(self, lines: str | Iterable[str], place: str = "") -> None:
        """Say what an action did beside the form ``place`` names (at the top for ""): where the eye is."""
        self.refusal, self.done = None, self.reply(lines, place)

    def refuse(self, lines: str | Iterable[str], place: str = "") -> None:
        """Say why an action was refused, beside the form ``place`` names (at the top for "")."""
        self.refusal, self.done = self.reply(lines, place), None

    def reply(self, lines: str | Iterable[str], place: str) -> Reply:
        return Reply(self.route, (lines,) if isinstance(lines, str) else tuple(lines), place)

    async def do(self, action: Callable[[], Awaitable[Any]],
                 success: Callable[[Any], str | list[str]] | None = None, clear: Iterable[str] = (),
                 place: str = "") -> bool:
        """Run an organizer action: the refusal (or the store's failure) is shown beside ``place`` and
        nothing changes."""
        try:
            value = await action()
        except Exception as error:  # noqa: BLE001 - the boundary of every organizer action: shown, never a crash
            self.refuse(describe_error(error), place=place)
            self.changed()
            return False
        for name in clear:
            self.fields.pop(name, None)
        if success is not None:
            self.tell(success(value), place=place)
        self.changed()  # the event changed even when the notice reads as before
        return True

    async def act(self, action: Callable[[Tournament], Any], success: Callable[[Any], str | list[str]] | None = None,
                  clear: Iterable[str] = (), place: str = "") -> bool:
        """An engine action on the open event (``organizer.act``) through :meth:`do`."""
        return await self.do(lambda: self.organizer.act(action), success, clear, place)

    async def undo(self) -> None:
        await self.do(self.organizer.undo, lambda words: tr("Undone: {words}.", words=words))

    async def save_copy(self) -> None:
        """The whole event saved as a file off this device, then remembered as saved (the time is shown)."""
        copy = self.organizer.event_copy()
        data = copy.data()
        try:
            saved = await self.services.service(ft.FilePicker).save_file(
                dialog_title=tr("Save a copy of the event"), file_name=copy.file_name(), src_bytes=data,
                allowed_extensions=["json"])
        except Exception as error:  # noqa: BLE001 - a device service: no file dialog here, or it refused
            logger.warning("The event's copy could not be saved on this device", exc_info=True)
            self.refuse(tr("The copy could not be saved here ({error}): nothing changed.", error=error))
            self.changed()
            return
        await self.do(lambda: self.organizer.copy_saved(copy),
                      lambda _: tr("A copy of the event was saved as {file} ({size:,} bytes). Keep it off this "
                                   "device: \"Open a saved copy\" brings the event back on any device.",
                                   file=saved or copy.file_name(), size=len(data)))

    def copy_due(self) -> bool:
        t = self.tournament
        return copy_due(len(t), self.organizer.last_copy, signed_up=sum(not p.withdrawn for p in t.players),
                        round_open=t.round_open, round_number=t.round)

    async def set_passphrase(self) -> None:
        """Keep the organizer passphrase typed twice (its hash) with the open event."""

        async def keep() -> None:
            text = check_new_passphrase(self.value("new_passphrase"), self.value("new_passphrase_again"))
            stored = await asyncio.to_thread(hash_passphrase, text)
            await self.organizer.set_passphrase_hash(stored)
            await self.desk.access.remember(self.tournament_id, stored)

        await self.do(keep, lambda _: tr("Organizer passphrase set: another device opens this event only with it."),
                      clear=("new_passphrase", "new_passphrase_again"))


def use_event(factory: Callable[[Services, str, str], StateT], tournament_id: str, page: str) -> StateT:
    """The state of an event's screen, made once and read from the store when the screen opens."""
    services = use_services()
    state = use_model(lambda: factory(services, tournament_id, page))
    ft.on_mounted(state.load)
    return state


def text_field(state: EventState, name: str, label: str, *, key: str | None = None, width: float | None = None,
               multiline: bool = False, hint: str | None = None, on_submit: Any = None,
               expand: bool | int | None = None) -> ft.TextField:
    """A field whose text lives in ``state.fields[name]``."""

    def changed(event: Any) -> None:
        state.set_field(name, event.control.value)

    return ft.TextField(
        label=label,
        value=state.value(name),
        on_change=changed,
        on_submit=on_submit,
        key=key or name,
        width=width,
        multiline=multiline,
        min_lines=2 if multiline else None,
        max_lines=4 if multiline else None,
        hint_text=hint,
        expand=expand,
    )


NOTICE_KEY: Final = "organizer-notice"


def notices(state: EventState) -> list[ft.Control]:
    """What the screen says (the refusal in the error colour, or what was done), if it is for this route."""
    reply = state.refusal or state.done
    if reply is None or reply.route != state.route:
        return []
    return [notice_banner(list(reply.lines), error=reply is state.refusal, key=NOTICE_KEY)]


def notice_at(state: EventState, place: str) -> list[ft.Control]:
    """What the screen says, if it answers the form ``place`` names: put beside that form."""
    reply = state.refusal or state.done
    return notices(state) if reply is not None and reply.place == place else []


def _shows_notice(controls: Iterable[Any]) -> bool:
    """Whether the screen put the notice beside a form (else it goes at the top, never lost)."""
    for control in controls:
        key = getattr(control, "key", None)
        if getattr(key, "value", key) == NOTICE_KEY:
            return True
        inner = [*(getattr(control, "controls", None) or ()), getattr(control, "content", None)]
        if _shows_notice(item for item in inner if item is not None):
            return True
    return False


def nav_row(state: EventState, navigate: Callable[[str], Awaitable[None]]) -> ft.Control:
    buttons: list[ft.Control] = [
        (ft.FilledTonalButton if page == state.page else ft.OutlinedButton)(
            tr(title), icon=icon, on_click=on(navigate, f"{state.base}/{page}"), key=f"nav-{page}", height=MIN_TARGET)
        for page, title, icon in PAGES
    ]
    return ft.Row(buttons, wrap=True, spacing=6, run_spacing=6)


def event_view(state: EventState, controls: list[ft.Control], *, title: str | None = None,
               plain: bool = False) -> ft.View:
    """An event's screen: the pages' row and the notice over ``controls`` (``plain``: neither, for printing)."""
    services = state.services
    if not state.ready:
        return waiting_view(state, services)
    page_title = title if title is not None else tr(dict((p, t) for p, t, _ in PAGES).get(state.page, ""))
    actions: list[ft.Control] = [
        icon_button(ft.Icons.UNDO, tr("Undo the last organizer action"), on(state.undo), key="organizer-undo"),
    ]
    if state.page:
        actions.insert(0, icon_button(ft.Icons.ARROW_BACK, tr("Back to the event"), on(services.navigate, state.base),
                                      key="organizer-back"))
    top = [] if _shows_notice(controls) else notices(state)
    head = [] if plain else [nav_row(state, services.navigate), *passphrase_prompt(state), *copy_reminder(state),
                             *flagged(state), *top]
    return screen_view(state.route, state.tournament.name + (f" · {page_title}" if page_title else ""),
                       head + controls, actions=actions, on_home=on(services.navigate, "/"))


FLAGGED_ON: Final = ("", "seating", "results", "final")
"""The pages showing what rests on a result corrected since (Standings lists the flags with the corrections)."""


def flagged(state: EventState) -> list[ft.Control]:
    """What a correction left standing on a result it changed (a cut a later round was drawn from, a prize
    recorded with a champion who no longer is), in the engine's words: where the event, a draw or the
    final is shown, so nothing stands there as if final."""
    flags = state.tournament.flags() if state.page in FLAGGED_ON else ()
    if not flags:
        return []
    lines = [ft.Text(tr_words(flag.message), color=ft.Colors.ON_ERROR_CONTAINER, key=f"flagged-{index}")
             for index, flag in enumerate(flags)]
    return [ft.Container(ft.Column([ft.Text(tr("Flagged after a correction"), weight=ft.FontWeight.BOLD), *lines],
                                   tight=True, spacing=4),
                         padding=12, border_radius=8, bgcolor=ft.Colors.ERROR_CONTAINER, key="flagged")]


COPY_REMINDED_ON: Final = ("", "seating", "results")


def copy_reminder(state: EventState) -> list[ft.Control]:
    """A line asking for a copy of the event when one is due (before round 1, after each round),
    with the button that saves it: on the pages where a round is drawn or closed (the event,
    Seating, Results), not while players are being signed up or looked up."""
    if state.page not in COPY_REMINDED_ON or not state.copy_due():
        return []
    t = state.tournament
    if t.champion is not None:
        why = tr("The event is over: save a copy of it off this device.")
    elif t.round:
        why = tr("Round {round} is closed: save a copy of the event off this device before the next draw.",
                 round=t.round)
    else:
        why = tr("Before round 1 is drawn, save a copy of the event off this device.")
    why += tr(" If this device is lost, or its browser clears what it keeps, the copy brings the event back.")
    return [ft.Container(ft.Column([
        ft.Text(why, key="copy-reminder"),
        big_button(tr("Save a copy now"), on(state.save_copy), key="copy-now", icon=ft.Icons.SAVE_ALT),
    ], tight=True), padding=12, border_radius=8, bgcolor=ft.Colors.SECONDARY_CONTAINER)]


def passphrase_field(state: EventState, name: str, label: str, key: str) -> ft.TextField:
    """A hidden-text field (with a show button) whose text lives in ``state.fields[name]``."""
    shown = f"{name}_shown"

    def changed(event: Any) -> None:
        state.set_field(name, event.control.value)

    def reveal() -> None:
        state.set_field(shown, "" if state.value(shown) else "1")
        state.changed()

    return secret_field(label, state.value(name), changed, shown=bool(state.value(shown)), on_reveal=on(reveal),
                        key=key)


def passphrase_prompt(state: EventState) -> list[ft.Control]:
    """On the event's page, for an event without an organizer passphrase (it opens only from the
    organizer's own address) or with one set before the 8-character rule (it may be short, so
    easier to guess): a line asking for a new one, and once tapped the fields to set it."""
    stored = state.organizer.passphrase_hash
    if state.page or (stored and meets_rule(stored)) or in_browser():
        return []

    def show_fields() -> None:
        state.set_field("passphrase_open", "1")
        state.changed()

    line = (ft.Text(tr("This event's organizer passphrase was set before they needed 8 characters and may be easy "
                       "to guess: set a longer one."), key="passphrase-weak", expand=True) if stored else
            ft.Text(tr("No organizer passphrase yet: this event opens only on this device."), key="passphrase-missing",
                    expand=True))
    if not state.value("passphrase_open"):
        controls: list[ft.Control] = [ft.Row([line, ft.TextButton(tr("Set a passphrase"), icon=ft.Icons.LOCK,
                                                                  on_click=on(show_fields), key="ask-passphrase",
                                                                  height=MIN_TARGET)])]
    else:
        controls = [
            line,
            ft.Row([passphrase_field(state, "new_passphrase", tr("New organizer passphrase"), "new-passphrase"),
                    passphrase_field(state, "new_passphrase_again", tr("New passphrase again"),
                                     "new-passphrase-again")],
                   wrap=True, spacing=8, run_spacing=8),
            ft.OutlinedButton(tr("Set the passphrase"), icon=ft.Icons.LOCK, on_click=on(state.set_passphrase),
                              key="set-passphrase", height=MIN_TARGET),
        ]
    return [ft.Container(ft.Column(controls, spacing=6), bgcolor=ft.Colors.AMBER_50, padding=8, border_radius=8)]


def waiting_view(state: EventState, services: Services) -> ft.View:
    """Before the event is read: a line; when there is none: saying so."""
    if state.loaded:
        return not_found_view(state.route, tr("There is no readable tournament {tournament_id!r} on this device.",
                                              tournament_id=state.tournament_id),
                              services)
    return screen_view(state.route, tr("Organizer"), [ft.Text(tr("Opening the event…"))],
                       on_home=on(services.navigate, "/"))


def not_found_view(route: str, line: str, services: Services) -> ft.View:
    return screen_view(route, tr("Not found"), [ft.Text(line, key="organizer-not-found")],
                       on_home=on(services.navigate, "/"))
