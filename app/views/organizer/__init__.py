"""The organizer's screens: the event, players, seating, results inbox, standings, final.

Routes (``<id>``: the stored tournament)::

    /organizer                   events on this device, and a new one (with its format)
    /organizer/<id>              the event: format (editable until round 1 is drawn) and plan,
                                 the address for result links
    /organizer/<id>/players      sign-up, check-in, withdrawal
    /organizer/<id>/seating      the draw and the table cards with their setup codes
    /organizer/<id>/print        the table cards alone, plainly, for printing
    /organizer/<id>/results      import results (or type a table's paper totals), what arrived,
                                 is missing, held or refused; roll-offs, closing the round
    /organizer/<id>/standings    per-round totals, cuts, corrections, CSV export
    /organizer/<id>/lookup       the room's quick lookup: table, seat, standing
    /organizer/<id>/final        the final's rules switch, the champion, the prize
    /import/<code>               a result's deep link (a phone's camera app opens it)

One module per screen, each a Flet component over its own plain state (see
:mod:`app.views.organizer.common`). Every action goes through
:class:`app.organizer.Organizer` (saved before shown); a refusal is shown in the
engine's words and changes nothing.
"""

from __future__ import annotations

from collections.abc import Callable

import flet as ft

from app.context import use_services
from app.views.organizer.common import not_found_view
from app.views.organizer.event import EventScreen
from app.views.organizer.events import EventsScreen
from app.views.organizer.final import FinalScreen
from app.views.organizer.import_link import ImportScreen
from app.views.organizer.players import PlayersScreen
from app.views.organizer.results import ResultsScreen
from app.views.organizer.room import RoomLookupScreen
from app.views.organizer.seating import PrintScreen, SeatingScreen
from app.views.organizer.standings import StandingsScreen

__all__ = ["OrganizerScreen", "EVENT_PAGES"]

EVENT_PAGES: dict[str, Callable[..., ft.View]] = {
    "": EventScreen,
    "players": PlayersScreen,
    "seating": SeatingScreen,
    "print": PrintScreen,
    "results": ResultsScreen,
    "standings": StandingsScreen,
    "lookup": RoomLookupScreen,
    "final": FinalScreen,
}
"""An event's screens by the route part after its id."""


def OrganizerScreen(parts: tuple[str, ...], *, key: str | None = None) -> ft.View:
    """The screen for ``/organizer/...`` or ``/import/...`` (``parts``: the path's segments)."""
    if parts and parts[0].lower() == "import":
        return _keyed(ImportScreen, "/".join(parts[1:]), key=key)
    if len(parts) <= 1:
        return _keyed(EventsScreen, key=key)
    page = parts[2] if len(parts) > 2 else ""
    found = EVENT_PAGES.get(page) if len(parts) <= 3 else None
    if found is None:
        return _keyed(MissingPage, "/" + "/".join(parts), f"The organizer has no page {'/'.join(parts[2:])!r}.",
                      key=key)
    return _keyed(found, parts[1], key=key)


def _keyed(component: Callable[..., ft.View], *args: str, key: str | None) -> ft.View:
    """A component called with its key (a component takes ``key=``; its typed signature does not say so)."""
    return component(*args, key=key)


@ft.component
def MissingPage(route: str, line: str) -> ft.View:
    return not_found_view(route, line, use_services())
