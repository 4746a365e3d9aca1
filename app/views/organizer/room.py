"""``/organizer/<id>/lookup``: the room's quick lookup of a player's table, seat and standing."""

from __future__ import annotations

import flet as ft

from app.views.organizer.common import EventState, event_view, text_field, use_event
from app.i18n import tr, tr_words
from engine import FarkleError

__all__ = ["RoomLookupScreen"]


@ft.component
def RoomLookupScreen(tournament_id: str) -> ft.View:
    room = use_event(EventState, tournament_id, "lookup")
    if not room.ready:
        return event_view(room, [])
    query = room.value("room_query")
    rows: list[ft.Control] = []
    if query.strip():
        try:
            found = room.tournament.lookup(query)
        except FarkleError as why:
            rows.append(ft.Text(tr_words(why.words), color=ft.Colors.ERROR))
        else:
            for item in found:
                where = tr("round {round}, table {table}, seat {seat}",
                           round=item.round, table=item.table, seat=item.seat) if item.table else tr("not seated yet")
                rows.append(ft.Text(tr("{name} (number {number}): {where} · rank {rank} · {status}", name=item.name,
                                       number=item.number, where=where, rank=item.rank, status=item.status),
                                    size=16, key=f"found-{item.number}"))
            if not found:
                rows.append(ft.Text(tr("No player matches {query!r}.", query=query.strip()), key="found-none"))
    field = text_field(room, "room_query", tr("Name or number"), key="room-lookup")
    return event_view(room, [field, *rows])
