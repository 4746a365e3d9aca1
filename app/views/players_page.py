"""``/players/<event code>``: the players' page, on each player's own phone at the venue.

A player finds themself by name or number and sees where they sit this round, their totals by
round, their place and the cut, and the champion at the end: what the room's projector shows
anyway, so the page is public-read (:func:`app.event.access.players_access`) and shows nothing
else of the event (no setup code, key or passphrase; no organizer control). It reads the event
as stored on each search and whenever another session saves the event (:mod:`app.documents.changes`),
so a result counted on the organizer's device shows within a moment. The offline PWA has no venue
server to serve it: the page says so.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Final

import flet as ft

from app.context import use_model, use_services
from app.documents import changes
from app.documents.events import COLLECTION, read_event
from app.event.access import players_access
from app.i18n import local_number, ntr, tr, tr_words
from app.routes import players_path
from app.runtime import in_browser
from app.storage import Store, StoreError
from app.views.widgets import big_button, on, screen_view
from engine import NAME_LONGEST, FarkleError, PlayerLookup, Tournament

__all__ = ["PlayersPage", "PlayersScreen"]

SHOWN_AT_MOST: Final = 6
"""How many players a search shows (more: type more of the name)."""


@dataclass
class PlayersPage(ft.Observable):
    """The players' page of one event code: the event as last read (or why there is none to
    show), the search typed and the one last made."""

    code: str
    store: Store
    tournament_id: str = ""
    """The stored event the code opens ("" while it is refused): the one whose saves the page follows."""
    tournament: Tournament | None = None
    refusal: str = ""
    searched: str | None = None
    """The search last made (None: none yet)."""
    typed: dict[str, str] = field(default_factory=dict)
    """The search box's text as typed (kept without drawing the page again)."""

    async def read(self) -> None:
        """The event as stored now, if its players' page is open to this device."""
        self.tournament_id, self.tournament, self.refusal = await _shown_event(self.store, self.code)

    async def search(self) -> None:
        """Find what is typed in the event as it stands now (no name is longer than
        :data:`~engine.NAME_LONGEST`: what a phone sends beyond that is not read)."""
        await self.read()
        self.searched = self.typed.get("query", "")[:NAME_LONGEST].strip()


async def _shown_event(store: Store, code: str) -> tuple[str, Tournament | None, str]:
    """The event the players' page of ``code`` shows, as stored now, with its stored id; or why
    none is shown (``(id, None, why)``: the id of a closed page's event, to hear it open again, else "")."""
    if in_browser():
        return "", None, tr("The players' page comes from the organizer's laptop at the venue (the app started with "
                            "make run). This app runs on this phone alone, so it has no players' page: ask the "
                            "organizer for the venue's address.")
    try:
        access = await players_access(store, code)
        document = await store.load(COLLECTION, access.tournament_id) if not access.refusal else None
    except StoreError as failure:
        return "", None, tr("The event cannot be read just now ({failure}): try again in a moment.", failure=failure)
    if access.refusal:  # a closed page still follows its event: it opens again when the organizer says so
        return access.tournament_id, None, access.refusal
    if document is None:  # removed since the list was read
        return "", None, tr("No event here has the code {code}.", code=code)
    return access.tournament_id, read_event(document).tournament, ""


def stage_line(t: Tournament) -> str:
    """Where the event stands, as a player asks it: the champion, the round being played, or the seats to come."""
    if t.champion is not None:
        return tr("Champion: {name} (number {number})", name=t.player(t.champion).name, number=t.champion)
    plan = t.plan()
    if t.round_open:
        tables = len(t.seating())
        return tr("{round} is being played: {done} of {tables} tables have a result.", round=plan[t.round - 1].name,
                  done=tables - len(t.missing_tables()), tables=tables)
    if t.round:
        return tr("{round} is over: the next seats are drawn soon.", round=plan[t.round - 1].name)
    signed_up = sum(not p.withdrawn for p in t.players)
    return ntr("Seats are not drawn yet: {count} player signed up.", "Seats are not drawn yet: {count} players "
               "signed up.", signed_up, count=signed_up)


def player_card(t: Tournament, found: PlayerLookup) -> ft.Control:
    """One player's seat and table, totals by round, place and cut, large enough to read at arm's
    length; the table's and the cut's state in the room's words (:meth:`Tournament.room`)."""
    number = found.number
    plan = t.plan()
    room = t.room()
    row = next(row for row in t.standings() if row.number == number)
    standing = next(item for item in room.standings if item.number == number)
    lines: list[ft.Control] = [
        ft.Text(tr("{name} · number {number}", name=found.name, number=number), size=18,
                weight=ft.FontWeight.BOLD, key=f"players-name-{number}"),
    ]
    if found.table is not None and found.seat is not None:
        lines.append(ft.Text(tr("{round}: table {table}, seat {seat}", round=plan[found.round - 1].name,
                                table=found.table, seat=found.seat), size=24, weight=ft.FontWeight.BOLD,
                             key=f"players-seat-{number}"))
        if found.round == room.round:
            table = room.tables[found.table - 1]
            lines += [
                ft.Text(tr("At the table: {players}", players=", ".join(
                    f"{seat}. {name}" for seat, (_, name) in enumerate(table.seats, 1))), size=14,
                    key=f"players-table-{number}"),
                ft.Text(tr("Table {table}: {state}", table=table.table, state=table.words), size=14,
                        key=f"players-table-state-{number}"),
            ]
    else:
        lines.append(ft.Text(tr("Not seated yet: the seats are drawn when the round starts."), size=24,
                             weight=ft.FontWeight.BOLD, key=f"players-seat-{number}"))
    status = tr_words(found.status)
    lines.append(ft.Text(tr("Place {place} of {count} · {status}", place=found.rank, count=len(t.players),
                            status=status[:1].upper() + status[1:]), size=16,
                         key=f"players-place-{number}"))
    totals = [tr("{round}: {total}", round=plan[index].name, total=local_number(total))
              for index, total in enumerate(row.totals) if total is not None]
    if totals:
        lines.append(ft.Text(" · ".join(totals), size=16, key=f"players-totals-{number}"))
    if found.round:
        lines.append(ft.Text(tr("The cut: {cut}.", cut=plan[found.round - 1].cut.describe()), size=14,
                             key=f"players-cut-{number}"))
    if standing.mark == "going on" and t.round_open and room.cut_line is not None:
        lines.append(ft.Text(tr("You are above the line. {line}", line=room.cut_line.words), size=16,
                             weight=ft.FontWeight.BOLD, key=f"players-going-on-{number}"))
    for tie in t.pending_roll_offs() if t.round else ():
        if number in tie.numbers:
            lines.append(ft.Text(tr("Roll-off to come: {players} are tied on {total} for places {first} to {last}; "
                                    "each throws one die at the organizer's table.", players=tie.players,
                                    total=local_number(tie.total), first=tie.places[0], last=tie.places[1]),
                                 size=16, weight=ft.FontWeight.BOLD, color=ft.Colors.ERROR,
                                 key=f"players-roll-off-{number}"))
    return ft.Container(ft.Column(lines, spacing=4), padding=12, border_radius=8,
                        border=ft.Border.all(1, ft.Colors.OUTLINE), key=f"players-found-{number}")


def found_controls(t: Tournament, query: str) -> list[ft.Control]:
    """What a search for ``query`` shows: each player found, or why none is."""
    try:
        found = t.lookup(query)
    except FarkleError:
        return [ft.Text(tr("Type your name or your number."), key="players-none")]
    if not found:
        return [ft.Text(tr("No player matches {query}. Type your name as you gave it at sign-up, or your number.",
                           query=query), key="players-none")]
    shown: list[ft.Control] = [player_card(t, item) for item in found[:SHOWN_AT_MOST]]
    if len(found) > SHOWN_AT_MOST:
        shown.append(ft.Text(tr("{count} players match: type more of your name to find yours.", count=len(found)),
                             key="players-more"))
    return shown


@ft.component
def PlayersScreen(code: str) -> ft.View:
    services = use_services()
    page = use_model(lambda: PlayersPage(code, services.store))
    ft.on_mounted(page.read)
    session_page = ft.context.page
    following: list[Callable[[], None]] = use_model(list)

    def follow() -> None:
        if page.tournament_id:
            following.append(changes.listen(session_page, COLLECTION, page.tournament_id, page.read))

    def unfollow() -> None:
        while following:
            following.pop()()

    ft.use_effect(follow, dependencies=[page.tournament_id], cleanup=unfollow)

    def typed(event: Any) -> None:
        page.typed["query"] = str(event.control.value or "")

    async def find(event: Any = None) -> None:
        await page.search()

    controls: list[ft.Control] = []
    t = page.tournament
    if page.refusal:
        controls.append(ft.Text(page.refusal, size=18, key="players-refused"))
    elif t is None:
        controls.append(ft.Text(tr("Reading the event…"), key="players-reading"))
    else:
        controls += [
            ft.Text(tr("{name} · {code}", name=t.name, code=t.event_id), size=20, weight=ft.FontWeight.BOLD,
                    key="players-event"),
            ft.Text(stage_line(t), size=16, key="players-stage"),
            ft.TextField(label=tr("Your name or number"), value=page.typed.get("query", ""), on_change=typed,
                         on_submit=find, key="players-query"),
            big_button(tr("Find me"), on(find), key="players-find", icon=ft.Icons.SEARCH),
        ]
        if page.searched is not None:
            controls += found_controls(t, page.searched)
    return screen_view(players_path(code), tr("Players' page"), controls)
