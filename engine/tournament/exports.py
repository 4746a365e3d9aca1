"""The tournament as CSV, for the organizer's records and the notice board.

CSV that any spreadsheet opens as written: one line per row, every text cell quoted (so a
``;`` in a name cannot split it where a spreadsheet reads ``;`` as the separator), the
app's own figures bare so they stay numbers, and no text cell a spreadsheet would run as a
formula (:func:`spreadsheet_cell`). Rows follow the standings and the tables, so two
exports of one log are identical.
"""

from __future__ import annotations

import csv
import io
import unicodedata
from collections.abc import Iterable, Sequence
from typing import Final

from engine.tournament.standings import standings
from engine.tournament.state import Recorded, TournamentState

__all__ = ["standings_csv", "results_csv", "spreadsheet_cell", "FORMULA_STARTS"]

FORMULA_STARTS: Final = ("=", "+", "-", "@", "\t", "\r")
"""What makes a spreadsheet read a cell as a formula (OWASP, "CSV Injection")."""

Cell = str | int


def spreadsheet_cell(value: Cell) -> Cell:
    """``value`` as a spreadsheet should show it, never run it.

    Text is put on one line (a tab or a line break inside a cell would start a new cell or
    row where the text is pasted), and text that would start a formula (``=1+1``,
    ``@SUM(A1)``, ``-2+3``, ``=HYPERLINK(...)``, a full-width ``＝``) gets a leading ``'``,
    as OWASP advises: spreadsheets show it as text. So does each part after a ``;``, where
    a spreadsheet set to ``;`` as its separator starts a cell; and a ``'`` already there
    before one gets another, so taking one ``'`` off always gives the text back. Whole
    numbers are the app's own figures and stay numbers: a bare integer is never a formula.

    >>> spreadsheet_cell("=1+1"), spreadsheet_cell("Ida Nyström"), spreadsheet_cell("Bo;@A1"), spreadsheet_cell(-5)
    ("'=1+1", 'Ida Nyström', "Bo;'@A1", -5)
    """
    if isinstance(value, int):
        return value
    return ";".join("'" + part if _runs(part) else part for part in " ".join(value.split()).split(";"))


def _runs(text: str) -> bool:
    """A spreadsheet would read ``text``, starting a cell, as a formula (or it is one behind a ``'``)."""
    start = text.lstrip(" ")
    return (unicodedata.normalize("NFKC", start[:1]).startswith(FORMULA_STARTS)
            or (text.startswith("'") and _runs(text[1:])))


def _csv(rows: Iterable[Sequence[Cell]]) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n", quoting=csv.QUOTE_NONNUMERIC)
    writer.writerows([spreadsheet_cell(cell) for cell in row] for row in rows)
    return out.getvalue()


def standings_csv(state: TournamentState) -> str:
    """Rank, number, name, status and each round's total ("" where there is none)."""
    names = [state.format.round_name(r.number, r.spec_index) for r in state.rounds]
    return _csv([
        ["Rank", "Number", "Name", "Status", *names],
        *([row.rank, row.number, row.name, row.status, *("" if t is None else t for t in row.totals)]
          for row in standings(state)),
    ])


def results_csv(state: TournamentState) -> str:
    """One row per seat of every result counted or held, with its source and the reason kept.

    Once a result arrived with the players' confirmations (a table app that asks for
    them), a last column ``Confirmation`` says for every result how it was confirmed
    (``confirmed by 3 of 4 · Bob declined``, ``not confirmed (older table app)``,
    ``entered by hand``); an event without any keeps the columns it always had.
    """
    listed: list[tuple[int, int, str, Recorded]] = []
    for round_ in state.rounds:
        for table in range(1, len(round_.tables) + 1):
            entries = [("counted", round_.results[table])] if table in round_.results else []
            entries += [("held", held) for held in round_.held.get(table, ())]
            listed += [(round_.number, table, status, recorded) for status, recorded in entries]
    confirmed = any(recorded.result.confirmations is not None for *_, recorded in listed)
    header: list[Cell] = ["Round", "Table", "Seat", "Number", "Name", "Total", "Place", "Source", "Status", "Reason"]
    rows = [header + (["Confirmation"] if confirmed else [])]
    for round_number, table, status, recorded in listed:
        result = recorded.result
        extra = [recorded.confirmation_line(state.players)] if confirmed else []
        for seat, (n, total, place) in enumerate(zip(result.numbers, result.totals, result.places), 1):
            rows.append([
                round_number, table, seat, n, state.players[n].name, total, place,
                "code" if recorded.code else "entered", status, recorded.reason, *extra,
            ])
    return _csv(rows)
