"""``/organizer/<id>/results``: the results inbox.

A table's result arrives as a code (typed, pasted, scanned with the camera: one table, or
table after table without a tap between them; read from a photo; or opened as a link: see
:mod:`app.views.organizer.import_link`) or, for a lost device, as totals typed from paper
with a reason. The inbox shows what arrived, what is missing, what is held for
the organizer to choose, the roll-offs a tie at the cut needs, corrections, and the codes
refused with the reason.
"""

from __future__ import annotations

import re

from dataclasses import dataclass, field
from typing import Any

import flet as ft

from app.views.organizer.common import EventState, event_view, notice_at, text_field, use_event
from app.qr.camera import ScanOutcome, ScanReply, not_a_result_code
from app.views.scanner import CameraScan
from app.views.widgets import MIN_TARGET, big_button, die_button, labelled_dropdown, on, section
from app.i18n import ntr, tr, tr_words
from engine import RESULT_PREFIX, ImportReport, InvalidInput, TableResult, Tournament

__all__ = ["ResultsScreen", "ResultsPage", "results_controls"]


@dataclass
class ResultsPage(EventState):
    """The inbox: the code being typed, a paper result's totals and reason, the roll-off dice tapped."""

    roll_off_faces: dict[tuple[int, int], int] = field(default_factory=dict)
    """The die each tied player threw, by (table, player number)."""
    paper_table: int | None = None
    correcting_round: int | None = None
    """The round whose results the corrections act on (None: the round drawn last)."""

    # -- result codes ---------------------------------------------------------------------

    async def import_typed(self) -> None:
        text = self.value("result_code")
        if not text.strip():
            self.refuse(tr("Type or paste a result code first: it starts with {prefix}.", prefix=RESULT_PREFIX),
                        place="code")
            return
        await self.import_text(text, clear=True)

    async def scanned(self, text: str, outcome: ScanOutcome) -> ScanReply | None:
        """A code read by the camera or from a photo: imported; what became of it is the scan's signal."""
        await self.import_text(text, clear=False, extra=outcome.report)
        reply = self.refusal or self.done
        return ScanReply(reply.lines[0], reply is self.refusal) if reply is not None and reply.lines else None

    async def import_text(self, text: str, clear: bool, extra: str | None = None) -> None:
        def report(value: ImportReport) -> list[str]:
            return [tr_words(value.message), *([extra] if extra else [])]

        await self.do(lambda: self.organizer.import_code(text), report, clear=("result_code",) if clear else (),
                      place="code")

    async def clear_refusals(self) -> None:
        await self.do(self.organizer.clear_refusals, lambda _: tr("The list of refused codes was cleared."),
                      place="refused")

    # -- held results and corrections -----------------------------------------------------

    async def settle(self, table: int, take: bool, index: int) -> None:
        reason = self.value("held_reason")
        counted = table in self.tournament.results()
        await self.act(lambda t: t.settle_held(table, take, reason, index),
                       lambda _: tr("Table {table}: the held result counts.", table=table) if take
                       else tr("Table {table}: the counted result counts.", table=table) if counted
                       else tr("Table {table}: the held result does not count. Ask the table to put its game "
                               "right (Undo on its phone), confirm the totals again, and scan its new code.",
                               table=table),
                       clear=("held_reason",), place="held")

    def shown_correcting_round(self) -> int:
        """The round the corrections act on: the one chosen, else the round drawn last."""
        chosen = self.correcting_round
        return chosen if chosen is not None and 1 <= chosen <= self.tournament.round else self.tournament.round

    def choose_correcting_round(self, value: str) -> None:
        self.correcting_round = int(value) if re.fullmatch(r"[0-9]{1,4}", value) else None

    async def void(self, table: int) -> None:
        reason, round_number = self.value("void_reason"), self.shown_correcting_round()
        await self.act(lambda t: t.void_result(round_number, table, reason),
                       lambda words: tr("Table {table}'s result was voided.", table=table) + f" {tr_words(words)}" if words
                       else tr("Table {table}'s result was voided: it waits for a new result.", table=table),
                       clear=("void_reason",), place="corrections")

    async def replace(self, table: int) -> None:
        reason, code, round_number = self.value("void_reason"), self.value("result_code"), self.shown_correcting_round()

        async def replace() -> str:
            if not code.strip():
                raise InvalidInput(tr("Type or paste the new result code for table {table} in the field above "
                                      "first.",
                                      table=table))
            return await self.organizer.act(lambda t: t.replace_result(round_number, table, reason, code=code))

        await self.do(replace, lambda words: tr("Table {table}'s result was replaced; the reason is kept.", table=table)
                      + (f" {words}" if words else ""), clear=("void_reason", "result_code"), place="corrections")

    # -- paper results --------------------------------------------------------------------

    def shown_paper_table(self) -> int | None:
        """The missing table whose paper totals are being typed (the first missing one unless chosen)."""
        missing = self.tournament.missing_tables()
        if not missing:
            return None
        return self.paper_table if self.paper_table in missing else missing[0]

    def choose_paper_table(self, value: str) -> None:
        self.paper_table = int(value) if re.fullmatch(r"[0-9]{1,4}", value) else None

    def paper_field(self, table: int, seat: int) -> str:
        return f"paper_{self.tournament.round}_{table}_{seat}"

    async def record_paper(self) -> None:
        t = self.tournament
        table = self.shown_paper_table() or 0
        seats = len(t.seating()[table - 1]) if 1 <= table <= len(t.seating()) else 0
        names = [self.paper_field(table, seat) for seat in range(1, seats + 1)]
        totals = [self.value(name) for name in names]
        reason = self.value("paper_reason")

        def report(result: TableResult) -> str:
            return tr("{round_name}, table {table}: result entered by hand ({summary}).",
                      round_name=t.plan()[result.round - 1].name, table=result.table, summary=self.summary(result))

        if await self.do(lambda: self.organizer.enter_paper_result(table, totals, reason), report,
                         clear=(*names, "paper_reason"), place="paper"):
            self.paper_table = None

    # -- roll-offs and closing --------------------------------------------------------------

    def pick_face(self, table: int, number: int, face: int) -> None:
        self.roll_off_faces[table, number] = face

    async def record_roll_off(self, table: int, numbers: tuple[int, ...]) -> None:
        faces = {n: self.roll_off_faces[table, n] for n in numbers if (table, n) in self.roll_off_faces}
        if len(faces) != len(numbers):
            missing = [self.name_of(n) for n in numbers if n not in faces]
            self.refuse(tr("Tap the die each tied player threw: {missing} still to enter.",
                           missing=', '.join(missing)),
                        place="roll-off")
            return
        recorded = ", ".join(f"{self.name_of(n)} {face}" for n, face in sorted(faces.items()))
        if await self.act(lambda t: t.record_roll_off(table, faces), lambda _: tr("Roll-off recorded: {recorded}.",
                                                                                  recorded=recorded),
                          place="roll-off"):
            for n in numbers:
                self.roll_off_faces.pop((table, n), None)

    async def close_round(self) -> None:
        def report(advancing: tuple[int, ...]) -> str:
            t = self.tournament
            if t.champion is not None:
                return tr("{name} (number {champion}) is the champion!",
                          name=self.name_of(t.champion), champion=t.champion)
            return tr("Round {round} closed: {count} go on. Draw the next round on the Seating page.",
                      round=t.round, count=len(advancing))

        await self.act(lambda t: t.close_round(), report, place="close")


@ft.component
def ResultsScreen(tournament_id: str) -> ft.View:
    inbox = use_event(ResultsPage, tournament_id, "results")
    return event_view(inbox, results_controls(inbox) if inbox.ready else [])


def results_controls(inbox: ResultsPage) -> list[ft.Control]:
    """The inbox's sections, top to bottom."""
    t = inbox.tournament
    controls: list[ft.Control] = [section(
        tr("Import a table's result"),
        text_field(inbox, "result_code", tr("Result code or link"), key="result-code", multiline=True,
                   hint=f"{RESULT_PREFIX}-…",
                   on_submit=on(inbox.import_typed)),
        big_button(tr("Import the result"), on(inbox.import_typed), key="import-result", icon=ft.Icons.DOWNLOAD),
        *notice_at(inbox, "code"),
        CameraScan(tr("result code"), "result-scan", lambda text: RESULT_PREFIX in text.upper(), inbox.scanned,
                   refuse=not_a_result_code, continuous_label=tr("Scan the tables' result codes, one after another")),
    )]
    if not t.round:
        return [*controls, ft.Text(tr("No round has been drawn yet.")), *refused_section(inbox)]
    plan = t.plan()[t.round - 1]
    results = t.results()
    arrived = [ft.Text(tr("Table {table}: {summary}{source_note}", table=table, summary=inbox.summary(result),
                          source_note=source_note(t, table)), key=f"arrived-{table}")
               for table, result in results.items()]
    missing = t.missing_tables()
    if not t.round_open:
        missing_line = tr("This round is closed.")
    elif missing:
        missing_line = ntr("Missing: table {tables}", "Missing: tables {tables}", len(missing),
                           tables=", ".join(map(str, missing)))
    else:
        missing_line = tr("Every table has a result.")
    controls.append(section(
        tr("{name}: {count} of {tables} tables in", name=plan.name, count=len(results), tables=len(t.seating())),
        *(arrived or [ft.Text(tr("No result yet."))]),
        ft.Text(missing_line, key="missing-tables", weight=ft.FontWeight.BOLD),
    ))
    controls += paper_section(inbox)
    controls += held_section(inbox)
    controls += roll_off_section(inbox)
    if t.round_open:
        closing = (tr("Crown the champion") if plan.is_final
                   else tr("Close round {number} and apply the cut", number=plan.number))
        controls += [big_button(closing, on(inbox.close_round), key="close-round", icon=ft.Icons.DONE_ALL),
                     *notice_at(inbox, "close")]
    return controls + corrections_section(inbox) + refused_section(inbox)


def corrections_section(inbox: ResultsPage) -> list[ft.Control]:
    """Void or replace a counted result of the round drawn last, or of a round before it (chosen)."""
    t = inbox.tournament
    round_number = inbox.shown_correcting_round()
    counted = t.results(round_number)
    if not counted and t.round == 1:
        return []

    async def choose(event: Any) -> None:
        inbox.choose_correcting_round(str(event.control.value or ""))

    rounds = [labelled_dropdown(tr("Round to correct"), str(round_number),
                                [(str(plan.number), plan.name) for plan in t.plan()[: t.round]], choose,
                                key="correcting-round", width=200)] if t.round > 1 else []
    return [section(
        tr("Corrections"),
        ft.Text(tr("Void a counted result, or replace it with the result code typed above. The reason is kept: "
                   "what nothing was drawn from yet follows the corrected results, and what a later round was "
                   "drawn from is flagged, never silently rewritten.")),
        *rounds,
        text_field(inbox, "void_reason", tr("Reason for the correction"), key="void-reason"),
        ft.Row([ft.OutlinedButton(tr("Void table {table}",
                                     table=table), on_click=on(inbox.void, table), key=f"void-{table}",
                                  height=MIN_TARGET)
                for table in counted], wrap=True),
        ft.Row([ft.OutlinedButton(tr("Replace table {table} with the typed code",
                                     table=table), on_click=on(inbox.replace, table),
                                  key=f"replace-{table}", height=MIN_TARGET)
                for table in counted], wrap=True),
        *notice_at(inbox, "corrections"),
    )]


def source_note(t: Tournament, table: int) -> str:
    """`` · confirmed by 4 of 4`` (how the table's players confirmed a code's result), or
    `` · entered by hand (reason)`` for a result the organizer typed in."""
    source, reason = t.result_source(t.round, table)
    if source == "code":
        return f" · {tr_words(t.confirmation(t.round, table))}"
    return tr(" · entered by hand") + (f" ({reason})" if reason else "")


def paper_section(inbox: ResultsPage) -> list[ft.Control]:
    """A missing table's final totals typed from its paper sheet (or a lost device's last screen)."""
    t = inbox.tournament
    table = inbox.shown_paper_table()
    if table is None:
        return []

    async def choose(event: Any) -> None:
        inbox.choose_paper_table(str(event.control.value or ""))

    numbers = t.seating()[table - 1]
    return [section(
        tr("Enter a table's result by hand"),
        ft.Text(tr("When a table's device is lost or the table kept score on paper: type its final totals, one "
                   "per seat in seat order. They are checked as a result code is, and kept as entered by hand "
                   "with your reason.")),
        labelled_dropdown(tr("Table"), str(table), [(str(m), tr("Table {m}", m=m)) for m in t.missing_tables()], choose,
                          key="paper-table", width=200),
        *(text_field(inbox, inbox.paper_field(table, seat),
                     tr("Seat {seat}: {name} (number {n}), final total",
                        seat=seat, name=inbox.name_of(n), n=n), key=f"paper-total-{seat}")
          for seat, n in enumerate(numbers, 1)),
        text_field(inbox, "paper_reason", tr("Why by hand (device lost, paper score sheet…)"), key="paper-reason"),
        big_button(tr("Record table {table}'s result by hand",
                      table=table), on(inbox.record_paper), key="record-paper",
                   icon=ft.Icons.EDIT_NOTE),
        *notice_at(inbox, "paper"),
    )]


def held_section(inbox: ResultsPage) -> list[ft.Control]:
    held = inbox.tournament.held_results()
    if not held:
        return []
    rows: list[ft.Control] = [
        ft.Text(tr("A different result arrived for a table that already had one, or a player declined to confirm "
                   "a table's result: choose what counts.")),
        text_field(inbox, "held_reason", tr("Reason for the choice"), key="held-reason"),
    ]
    index_by_table: dict[int, int] = {}
    for round_number, table, result, counted in held:
        index = index_by_table.get(table, 0)
        index_by_table[table] = index + 1
        rows += [
            ft.Text(tr("{round_name}, table {table}", round_name=inbox.tournament.plan()[round_number - 1].name,
                       table=table), weight=ft.FontWeight.BOLD),
            ft.Text(tr("Counted now: {result}", result=inbox.summary(counted) if counted else tr("nothing"))
                    + (f" · {tr_words(inbox.tournament.confirmation(round_number, table))}" if counted else ""),
                    key=f"counted-{table}"),
            ft.Text(tr("Held: {summary} · {confirmation}",
                       summary=inbox.summary(result), confirmation=inbox.tournament.confirmation_of(result)),
                    key=f"held-{table}-{index}"),
            ft.Row([
                ft.FilledButton(tr("Count the held result for table {table}", table=table),
                                on_click=on(inbox.settle, table, True, index), key=f"take-held-{table}-{index}",
                                height=MIN_TARGET),
                ft.OutlinedButton(tr("Keep the counted result for table {table}", table=table) if counted
                                  else tr("Ask table {table} to confirm again", table=table),
                                  on_click=on(inbox.settle, table, False, index), key=f"keep-held-{table}-{index}",
                                  height=MIN_TARGET),
            ], wrap=True),
        ]
    return [section(tr("Held for you to choose"), *rows, *notice_at(inbox, "held"))]


def roll_off_section(inbox: ResultsPage) -> list[ft.Control]:
    t = inbox.tournament
    pending = t.pending_roll_offs() if t.round_open else ()
    if not pending:
        return []
    rows: list[ft.Control] = []
    for tie in pending:
        rows.append(ft.Text(tr_words(tie.describe()), key=f"roll-off-{tie.table}", weight=ft.FontWeight.BOLD))
        for number in tie.numbers:
            chosen = inbox.roll_off_faces.get((tie.table, number))
            name = inbox.name_of(number)
            rows.append(ft.Text(tr("{name} (number {number})", name=name, number=number)))
            rows.append(ft.Row([
                die_button(face, tr("{name} threw {face}", name=name, face=face),
                           on(inbox.pick_face, tie.table, number, face),
                           key=f"roll-{tie.table}-{number}-{face}", selected=chosen == face, size=MIN_TARGET)
                for face in range(1, 7)
            ], spacing=6, wrap=True))
        where = tr("over all tables") if tie.table == 0 else tr("at table {table}", table=tie.table)
        rows.append(big_button(tr("Record the roll-off {where}",
                                  where=where), on(inbox.record_roll_off, tie.table, tie.numbers),
                               key=f"record-roll-off-{tie.table}"))
    return [section(tr("Ties at the cut: roll-offs"), *rows, *notice_at(inbox, "roll-off"))]


def refused_section(inbox: ResultsPage) -> list[ft.Control]:
    refusals = inbox.organizer.refusals
    if not refusals:
        return []
    rows: list[ft.Control] = [
        ft.Text(f"{refusal.at.replace('T', ' ')[:19]} · {refusal.short_code}: {refusal.reason}",
                key=f"refused-{index}", size=13)
        for index, refusal in enumerate(refusals)
    ]
    rows += [big_button(tr("Clear this list"), on(inbox.clear_refusals), filled=False, key="clear-refused"),
             *notice_at(inbox, "refused")]
    return [section(tr("Refused codes"), *rows)]
