"""The organizer's screens: the event, players, seating, results inbox, standings, final.

Routes (``<id>``: the stored tournament)::

    /organizer                   events on this device, and a new one (with its format)
    /organizer/<id>              the event: format (editable until round 1 is drawn) and plan,
                                 the address for result links
    /organizer/<id>/players      sign-up, check-in, withdrawal
    /organizer/<id>/seating      the draw and the table cards with their setup codes
    /organizer/<id>/print        the table cards alone, plainly, for printing
    /organizer/<id>/print-seats  the seat list for the wall, result slips (print-slips), the
                                 standings with the cut (print-standings): HTML to print
    /organizer/<id>/results      import results (or type a table's paper totals), what arrived,
                                 is missing, held or refused; roll-offs, closing the round
    /organizer/<id>/standings    per-round totals, cuts, corrections, CSV export
    /organizer/<id>/lookup       the room's quick lookup: table, seat, standing
    /organizer/<id>/final        the final's rules switch, the champion, the prize
    /organizer/<id>/display      the room display for a projector: seating, tables, standings, results
    /import/<code>               a result's deep link (a phone's camera app opens it)

One module per screen, each a Flet component over its own plain state (see
:mod:`app.views.organizer.common`). Every action goes through
:class:`app.event.organizer.Organizer` (saved before shown); a refusal is shown in the
engine's words and changes nothing.

Every one of these routes passes :class:`OrganizerGate` first (see :mod:`app.event.access`): a
device that is not at an organizer address gives the event's passphrase before any of its
screens (or the list, or a result link into it) is even built.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import flet as ft

from app.event.access import route_access, route_target
from app.event.passphrase import PassphraseRefused
from app.context import use_model, use_services
from app.event.organizer import describe_error
from app.event.desk import Desk
from app.views.organizer.common import not_found_view
from app.views.organizer.display import DisplayScreen
from app.views.organizer.event import EventScreen
from app.views.organizer.events import EventsScreen
from app.views.organizer.final import FinalScreen
from app.views.organizer.import_link import ImportScreen
from app.views.organizer.players import PlayersScreen
from app.views.organizer.printables import ResultSlipsScreen, SeatListScreen, StandingsPrintScreen
from app.views.organizer.results import ResultsScreen
from app.views.organizer.room import RoomLookupScreen
from app.views.organizer.seating import PrintScreen, SeatingScreen
from app.views.organizer.standings import StandingsScreen
from app.views.widgets import big_button, notice_banner, on, screen_view, secret_field
from app.i18n import ntr, tr

__all__ = ["OrganizerScreen", "OrganizerGate", "GateState", "EVENT_PAGES"]

EVENT_PAGES: dict[str, Callable[..., ft.View]] = {
    "": EventScreen,
    "players": PlayersScreen,
    "seating": SeatingScreen,
    "print": PrintScreen,
    "print-seats": SeatListScreen,
    "print-slips": ResultSlipsScreen,
    "print-standings": StandingsPrintScreen,
    "results": ResultsScreen,
    "standings": StandingsScreen,
    "lookup": RoomLookupScreen,
    "final": FinalScreen,
    "display": DisplayScreen,
}
"""An event's screens by the route part after its id."""


def OrganizerScreen(parts: tuple[str, ...], *, key: str | None = None) -> ft.View:
    """The screen for ``/organizer/...`` or ``/import/...`` (``parts``: the path's segments), behind the gate."""
    return OrganizerGate(parts, key=key)  # type: ignore[call-arg]  # a component takes key=


def _screen(parts: tuple[str, ...], key: str | None) -> ft.View:
    """The organizer screen the route names (once the gate lets the device in)."""
    if parts and parts[0].lower() == "import":
        return _keyed(ImportScreen, "/".join(parts[1:]), key=key)
    if len(parts) <= 1:
        return _keyed(EventsScreen, key=key)
    page = parts[2] if len(parts) > 2 else ""
    found = EVENT_PAGES.get(page) if len(parts) <= 3 else None
    if found is None:
        return _keyed(MissingPage, "/" + "/".join(parts), tr("The organizer has no page {part!r}.",
                                                             part='/'.join(parts[2:])),
                      key=key)
    return _keyed(found, parts[1], key=key)


def _keyed(component: Callable[..., ft.View], *args: str, key: str | None) -> ft.View:
    """A component called with its key (a component takes ``key=``; its typed signature does not say so)."""
    return component(*args, key=key)


@ft.component
def MissingPage(route: str, line: str) -> ft.View:
    return not_found_view(route, line, use_services())


@dataclass
class GateState(ft.Observable):
    """Whether this device may open the organizer route ``parts``, and the passphrase it types.

    ``status``: ``open``; ``checking``; ``sign_in`` (the passphrase is asked); ``no_passphrase``
    (the event has none yet: only an organizer address opens it). ``refusal``: why the last
    passphrase did not open it.
    """

    desk: Desk
    parts: tuple[str, ...]
    status: str = "checking"
    refusal: str = ""
    fields: dict[str, str] = field(default_factory=dict)

    def value(self, name: str) -> str:
        return self.fields.get(name, "")

    def set_field(self, name: str, value: object) -> None:
        self.fields[name] = "" if value is None else str(value)

    @property
    def route(self) -> str:
        return "/" + "/".join(self.parts)

    async def check(self) -> None:
        decision = await route_access(self.desk.access, self.desk.organizer, self.parts)
        self.status = decision.status
        if decision.status == "sign_in":
            self.refusal = decision.refusal

    async def sign_in(self) -> None:
        """Try the typed passphrase (unless sign-in is paused); open the route if it unlocks it."""
        try:
            matched = await self.desk.access.sign_in(self.value("passphrase"),
                                                     await self.desk.organizer.passphrase_hashes(),
                                                     await route_target(self.parts, self.desk.organizer))
        except PassphraseRefused as refused:
            self.refusal = str(refused)
        except Exception as error:  # noqa: BLE001 - shown, never a crash
            self.refusal = describe_error(error)
        else:
            self.refusal = ""
            await self.check()
            if self.status != "open":
                self.refusal = ntr("That passphrase opens {count} other event here, not this one.",
                                   "That passphrase opens {count} other events here, not this one.", len(matched),
                                   count=len(matched))
        self.fields.pop("passphrase", None)
        self.notify()  # type: ignore[no-untyped-call]


@ft.component
def OrganizerGate(parts: tuple[str, ...]) -> ft.View:
    """The organizer route for a device allowed to open it; else the passphrase asked first."""
    services = use_services()

    def first() -> GateState:
        return GateState(services.desk, parts, "open" if services.desk.access.organizer else "checking")

    gate: GateState = use_model(first)

    async def check() -> None:
        if gate.status == "checking":
            await gate.check()
            gate.notify()  # type: ignore[no-untyped-call]

    ft.on_mounted(check)
    if gate.status == "open":
        return _screen(parts, key=None)
    home = on(services.navigate, "/")
    if gate.status == "checking":
        return screen_view(gate.route, tr("Organizer"), [ft.Text(tr("Checking access…"), key="gate-checking")],
                           on_home=home)
    if gate.status == "no_passphrase":
        return screen_view(gate.route, tr("Organizer only"), [ft.Text(
            tr("This event has no organizer passphrase yet, so it opens only on the organizer's own device. The "
               "organizer sets one on the event's page there."), key="gate-no-passphrase")], on_home=home)

    async def submit(_: object = None) -> None:
        await gate.sign_in()

    def typed(event: Any) -> None:
        gate.set_field("passphrase", event.control.value)

    def reveal() -> None:
        gate.set_field("passphrase_shown", "" if gate.value("passphrase_shown") else "1")
        gate.notify()  # type: ignore[no-untyped-call]

    passphrase = secret_field(tr("Organizer passphrase"), gate.value("passphrase"), typed, on_submit=submit,
                              shown=bool(gate.value("passphrase_shown")), on_reveal=on(reveal), key="gate-passphrase")
    controls: list[ft.Control] = [
        ft.Text(tr("The organizer's screens need the event's organizer passphrase on this device (asked once; it "
                   "stays signed in for 12 hours). Tables need only their setup code."),
                key="gate-explain"),
        passphrase,
        big_button(tr("Open"), submit, key="gate-sign-in", icon=ft.Icons.LOCK_OPEN),
    ]
    if gate.refusal:
        controls.insert(0, notice_banner([gate.refusal], error=True, key="gate-notice"))
    return screen_view(gate.route, tr("Organizer sign-in"), controls, on_home=home)
