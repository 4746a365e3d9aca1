"""``/organizer/<id>/standings``: per-round totals, the cuts, corrections, and the CSV exports."""

from __future__ import annotations

import logging
from dataclasses import dataclass

import flet as ft

from app.views.organizer.common import EventState, event_view, use_event
from app.views.widgets import big_button, on, section
from app.i18n import tr, tr_words, translatable
from engine import RoundPlan, Tournament

__all__ = ["StandingsScreen", "StandingsPage"]

logger = logging.getLogger(__name__)

EXPORTS = {"standings": translatable("standings"), "results": translatable("results")}
"""The event's CSV exports: what the organizer's export names, and its words."""
SAVED = {"standings": translatable("Standings saved as {file}."), "results": translatable("Results saved as {file}.")}
"""What saving each export says, whole: a word capitalised in code is not always a sentence's start."""


@dataclass
class StandingsPage(EventState):
    """The standings page: the CSV shown for copying, if any."""

    shown_csv: str | None = None

    async def save_csv(self, what: str) -> None:
        """Save the CSV as a file in UTF-8 with a byte-order mark: without one, Excel reads the
        file in the computer's old code page ("Ida NystrÃ¶m"); LibreOffice and Numbers read it too."""
        text = self.organizer.export_csv(what)
        name = self.organizer.export_name(what)
        try:
            saved = await self.services.service(ft.FilePicker).save_file(
                dialog_title=tr("Save the {what} as CSV", what=tr(EXPORTS[what])), file_name=name,
                src_bytes=text.encode("utf-8-sig"),
                allowed_extensions=["csv"])
        except Exception as error:  # noqa: BLE001 - a device service: no file dialog here: offer the text instead
            logger.warning("The %s CSV could not be saved on this device", what, exc_info=True)
            self.shown_csv = text
            self.refuse(tr("The file could not be saved ({error}); the CSV is shown below to copy.", error=error))
        else:
            self.tell(tr(SAVED[what], file=saved or name))

    async def copy_csv(self, what: str) -> None:
        """Put the CSV on the clipboard as text, without a byte-order mark: the clipboard holds
        text, not a file's bytes, and a mark there would paste as an invisible first character."""
        text = self.organizer.export_csv(what)
        self.shown_csv = text
        try:
            await self.services.service(ft.Clipboard).set(text)
        except Exception as error:  # noqa: BLE001 - a device service: no clipboard here: the text is shown
            logger.warning("The clipboard refused the %s CSV", what, exc_info=True)
            self.refuse(tr("The clipboard is not available ({error}): the CSV is shown below.", error=error))
        else:
            self.tell(tr("The {what} CSV is on the clipboard ({rows} rows) and shown below.",
                         what=tr(EXPORTS[what]), rows=len(text.splitlines()) - 1))


def round_total(t: Tournament, plan: RoundPlan, number: int, total: int | None, place: int | None) -> str:
    """``Round 2 10,000 (place 1 at table 3)``: a player's total in a round and the place that
    ranks it (a place in numbers: an ordinal's ending is English)."""
    if total is None:
        return tr("{round} —", round=plan.name)
    if place is None:
        return tr("{round} {total:,}", round=plan.name, total=total)
    if plan.cut.kind == "overall":
        return tr("{round} {total:,} (place {place} overall)", round=plan.name, total=total, place=place)
    table = next((index for index, seated in enumerate(t.seating(plan.number), 1) if number in seated), None)
    return tr("{round} {total:,} (place {place} at table {table})",
              round=plan.name, total=total, place=place, table=table)


@ft.component
def StandingsScreen(tournament_id: str) -> ft.View:
    standings = use_event(StandingsPage, tournament_id, "standings")
    if not standings.ready:
        return event_view(standings, [])
    t = standings.tournament
    plans = t.plan()[: t.round]
    rows: list[ft.Control] = []
    if plans:
        rows.append(ft.Text(tr("Within a round, the place comes first: at the table, or over all tables where the "
                               "best totals overall go on; then the total."), size=13))
    places = t.round_places()
    for row in t.standings():
        rounds = " · ".join(round_total(t, plan, row.number, total, place)
                            for plan, total, place in zip(plans, row.totals, places[row.number]))
        rows.append(ft.Text(tr("{rank}. {name} (number {number}) · {status}",
                               rank=row.rank, name=row.name, number=row.number, status=row.status)
                            + (f" · {rounds}" if rounds else ""), key=f"standing-{row.number}"))
    flags = [ft.Text(tr_words(flag.message), color=ft.Colors.ERROR, key=f"flag-{i}") for i, flag in enumerate(t.flags())]
    corrections = [ft.Text(tr_words(c.describe())) for c in t.corrections()]
    controls: list[ft.Control] = [
        section(tr("Standings"), *(rows or [ft.Text(tr("Nobody has signed up yet."))])),
        section(tr("Rounds and cuts"), *(ft.Text(tr_words(p.describe())) for p in t.plan())),
    ]
    if flags or corrections:
        controls.append(section(tr("Corrections"), *flags, *corrections))
    exports: list[ft.Control] = []
    for what in EXPORTS:
        exports.append(ft.Row([
            big_button(tr("Save {what} (CSV)", what=tr(EXPORTS[what])), on(standings.save_csv, what),
                       key=f"save-{what}-csv", filled=False, icon=ft.Icons.SAVE),
            big_button(tr("Copy {what} (CSV)", what=tr(EXPORTS[what])), on(standings.copy_csv, what),
                       key=f"copy-{what}-csv", filled=False, icon=ft.Icons.COPY),
        ], wrap=True))
    if standings.shown_csv:
        exports.append(ft.Text(standings.shown_csv, font_family="monospace", size=11, key="csv-text"))
    controls.append(section(tr("Export"), *exports))
    return event_view(standings, controls)
