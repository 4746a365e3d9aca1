"""``/organizer/<id>/standings``: per-round totals, the cuts, corrections, and the CSV exports."""

from __future__ import annotations

from dataclasses import dataclass

import flet as ft

from app.views.organizer.common import EventState, event_view, use_event
from app.views.widgets import big_button, on, section

__all__ = ["StandingsScreen", "StandingsPage"]


@dataclass
class StandingsPage(EventState):
    """The standings page: the CSV shown for copying, if any."""

    shown_csv: str | None = None

    async def save_csv(self, what: str) -> None:
        text = self.organizer.export_csv(what)
        name = self.organizer.export_name(what)
        try:
            saved = await self.services.service(ft.FilePicker).save_file(
                dialog_title=f"Save the {what} as CSV", file_name=name, src_bytes=text.encode("utf-8"),
                allowed_extensions=["csv"])
        except Exception as error:  # noqa: BLE001 - e.g. no file dialog here: offer the text instead
            self.shown_csv = text
            self.tell(f"The file could not be saved ({error}); the CSV is shown below to copy.", error=True)
        else:
            self.tell(f"{what.capitalize()} saved as {saved or name}.")

    async def copy_csv(self, what: str) -> None:
        text = self.organizer.export_csv(what)
        self.shown_csv = text
        try:
            await self.services.service(ft.Clipboard).set(text)
        except Exception as error:  # noqa: BLE001 - no clipboard here: the text is shown
            self.tell(f"The clipboard is not available ({error}): the CSV is shown below.", error=True)
        else:
            self.tell(f"The {what} CSV is on the clipboard ({len(text.splitlines()) - 1} rows) and shown below.")


@ft.component
def StandingsScreen(tournament_id: str) -> ft.View:
    standings = use_event(StandingsPage, tournament_id, "standings")
    if not standings.ready:
        return event_view(standings, [])
    t = standings.tournament
    names = [p.name for p in t.plan()[: t.round]]
    rows: list[ft.Control] = []
    for row in t.standings():
        totals = " · ".join(f"{name} {'—' if total is None else f'{total:,}'}" for name, total in zip(names, row.totals))
        rows.append(ft.Text(f"{row.rank}. {row.name} (number {row.number}) · {row.status}"
                            + (f" · {totals}" if totals else ""), key=f"standing-{row.number}"))
    flags = [ft.Text(flag.message, color=ft.Colors.ERROR, key=f"flag-{i}") for i, flag in enumerate(t.flags())]
    corrections = [
        ft.Text(f"Round {c.round}, table {c.table}: {c.kind} ({c.reason})" + (" after the round closed" if c.after_close
                                                                               else ""))
        for c in t.corrections()
    ]
    controls: list[ft.Control] = [
        section("Standings", *(rows or [ft.Text("Nobody has signed up yet.")])),
        section("Rounds and cuts", *(ft.Text(p.describe()) for p in t.plan())),
    ]
    if flags or corrections:
        controls.append(section("Corrections", *flags, *corrections))
    exports: list[ft.Control] = []
    for what in ("standings", "results"):
        exports.append(ft.Row([
            big_button(f"Save {what} (CSV)", on(standings.save_csv, what), key=f"save-{what}-csv", filled=False,
                       icon=ft.Icons.SAVE),
            big_button(f"Copy {what} (CSV)", on(standings.copy_csv, what), key=f"copy-{what}-csv", filled=False,
                       icon=ft.Icons.COPY),
        ], wrap=True))
    if standings.shown_csv:
        exports.append(ft.Text(standings.shown_csv, font_family="monospace", size=11, key="csv-text"))
    controls.append(section("Export", *exports))
    return event_view(standings, controls)
