"""The standings and results CSV in a spreadsheet: no name or reason runs as a formula, the
app's figures stay numbers, and the saved file says it is UTF-8 so every script reads right."""

from __future__ import annotations

import csv
import io
import re
import unicodedata
from typing import Any

import pytest
from hypothesis import HealthCheck, given, reject, settings
from hypothesis import strategies as st

import flet as ft
from engine import FarkleError, Tournament
from tests.support.flet_harness import FletHarness
from tests.app.test_organizer import Desk, import_typed, new_event, notice, signed_code
from tests.support.tournament_support import event

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
"""OWASP's list of what makes a spreadsheet run a cell."""
BOM = "\ufeff".encode()


def played(names: list[str], reason: str = "paper sheet") -> Tournament:
    """``names`` and enough numbered players for a table of four, one round played by hand."""
    t = event(0)
    for name in names + [f"Player {n}" for n in range(len(names) + 1, 5)]:
        t.check_in(t.sign_up(name))
    t.draw_seats(seed=1)
    t.record_result(1, [10_000, 7_500, 5_000, 2_500], reason=reason)
    return t


def cells(text: str) -> list[list[str]]:
    return list(csv.reader(io.StringIO(text)))


def column(text: str, heading: str) -> list[str]:
    header, *rows = cells(text)
    return [row[header.index(heading)] for row in rows]


def runs_in_a_spreadsheet(cell: str) -> bool:
    """Read from the CSV, ``cell`` would start a formula: where it starts, or where a ``;``
    separator would start one; a bare whole number the app wrote is a number."""
    if re.fullmatch(r"-?[0-9]+", cell):
        return False
    return any(unicodedata.normalize("NFKC", part.lstrip(" ")[:1]).startswith(FORMULA_STARTS)
               for part in cell.split(";"))


def shown_as(cell: str, text: str) -> bool:
    """``cell`` is ``text``, but for a ``'`` in front of some of its ``;`` parts."""
    parts, wanted = cell.split(";"), text.split(";")
    return len(parts) == len(wanted) and all(got in (want, "'" + want) for got, want in zip(parts, wanted))


DANGEROUS_NAMES = {
    "a sum": ("=1+1", "'=1+1"),
    "a plus": ("+1+1", "'+1+1"),
    "a minus": ("-2+3", "'-2+3"),
    "a reference": ("@A1", "'@A1"),
    "a link": ('=HYPERLINK("http://e")', '\'=HYPERLINK("http://e")'),
    "a command": ('=cmd|"/C calc"!A0', '\'=cmd|"/C calc"!A0'),
    "a full-width equals": ("＝1+1", "'=1+1"),  # kept as NFKC makes it: "=1+1"
    "a formula after a semicolon": ("Bo;=1+1;", "Bo;'=1+1;"),
    "a quote before a formula": ("'=1+1", "''=1+1"),
}


@pytest.mark.parametrize("name, cell", DANGEROUS_NAMES.values(), ids=DANGEROUS_NAMES.keys())
def test_a_name_a_spreadsheet_would_run_is_exported_as_text_in_both_csvs(name: str, cell: str) -> None:
    t = played([name])
    assert cell in column(t.standings_csv(), "Name")
    assert cell in column(t.results_csv(), "Name")
    assert not any(runs_in_a_spreadsheet(c) for row in cells(t.standings_csv() + t.results_csv()) for c in row)


@pytest.mark.parametrize("name", ["Ida Nyström", "王小明", "O'Brien", "'t Hooft", "Anne-Marie", "Smith, Jo"])
def test_an_ordinary_name_in_any_script_is_exported_exactly_as_signed_up(name: str) -> None:
    t = played([name])
    assert name in column(t.standings_csv(), "Name") and name in column(t.results_csv(), "Name")


def test_every_text_cell_is_quoted_and_the_apps_own_figures_stay_bare_numbers() -> None:
    lines = played(["Ann"]).results_csv().splitlines()
    assert lines[0].startswith('"Round","Table","Seat","Number","Name","Total"')
    assert re.fullmatch(r'1,1,[1-4],[0-9]+,"[^"]+",[0-9]+,[1-4],"entered","counted","paper sheet"', lines[1])


def test_a_reason_with_a_tab_or_a_line_break_stays_one_cell_on_one_line() -> None:
    t = played(["Ann"])
    t.replace_result(1, 1, "oops\t=1+1\r\n@A1", totals=[10_000, 7_500, 5_000, 2_550])
    text = t.results_csv()
    assert "\t" not in text and "\r" not in text
    assert len(text.splitlines()) == 1 + 4  # the heading and the result counted now, a line a seat
    assert set(column(text, "Reason")) == {"oops =1+1 @A1"}


names = st.text(st.sampled_from("=+-@\t\r\n;'\" ,|!＝＠－ aZé王0"), min_size=1, max_size=16)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
@given(name=names, reason=names)
def test_no_cell_of_either_csv_runs_as_a_formula_and_each_name_reads_back(name: str, reason: str) -> None:
    try:
        t = played([name], reason=reason)
    except FarkleError:
        reject()  # a name the sign-up refuses, or one that clashes with "Player 2"
    kept = t.players[0].name
    for text in (t.standings_csv(), t.results_csv()):
        assert not any(runs_in_a_spreadsheet(cell) for row in cells(text) for cell in row)
        assert len(text.splitlines()) == len(cells(text))  # one line a row
        assert any(shown_as(cell, kept) for cell in column(text, "Name"))


def test_the_saved_csv_is_utf8_with_a_byte_order_mark_and_the_copied_one_is_the_same_text_without() -> None:
    desk = Desk()
    saved: list[bytes] = []

    def save_file(ui: FletHarness, service: Any, args: Any) -> str:
        saved.append(args["src_bytes"])
        return "/home/organizer/" + args["file_name"]

    async def test(ui: FletHarness) -> None:
        t = await new_event(ui, desk, ["=1+1", "Ida Nyström", "王小明", "Bo"])
        number = {p.name: p.number for p in t.players}["=1+1"]
        await ui.click("nav-seating")
        await ui.type_text("draw-seed", "3")
        await ui.click("draw-seats")
        await import_typed(ui, signed_code(await desk.now(), 1, (10_000, 7_500, 5_000, 2_500)))
        await ui.click("nav-standings")
        assert ui.text_of(f"standing-{number}").split(" (number")[0].endswith(". =1+1")  # the name as typed
        for what in ("standings", "results"):
            await ui.click(f"save-{what}-csv")
            exported = getattr(await desk.now(), f"{what}_csv")()
            assert saved[-1] == BOM + exported.encode("utf-8")
            assert {"'=1+1", "Ida Nyström", "王小明"} <= set(column(saved[-1].decode("utf-8-sig"), "Name"))
            await ui.click(f"copy-{what}-csv")
            assert ui.clipboard == exported and not ui.clipboard.startswith("\ufeff")

    desk.run(test, services={("FilePicker", "save_file"): save_file})


def test_a_saved_standings_file_picked_as_a_sign_up_list_gives_the_names_back() -> None:
    desk = Desk()
    saved: list[bytes] = []

    def save_file(ui: FletHarness, service: Any, args: Any) -> str:
        saved.append(args["src_bytes"])
        return args["file_name"]

    async def test(ui: FletHarness) -> None:
        await new_event(ui, desk, ["Ida Nyström", "王小明", "Smith, Jo"])
        await ui.click("nav-standings")
        await ui.click("save-standings-csv")
        await ui.click("home")
        await new_event(ui, desk, [])
        action = ui.find("import-list-file", ft.OutlinedButton).action
        assert isinstance(action, ft.PickFiles)
        await ui.dispatch(action.file_picker, "result", {"files": [{"id": 0, "name": "cup-standings.csv",
                                                                    "size": len(saved[0]), "bytes": saved[0]}]})
        assert notice(ui) == "Ready to add 3 players. Nothing is signed up until you tap Add."
        listed = {ui.text_of(f"list-line-{line}") for line in (2, 3, 4)}
        assert {entry.split(". ", 1)[1] for entry in listed} == {"Ida Nyström", "王小明", "Smith, Jo"}

    desk.run(test, services={("FilePicker", "save_file"): save_file})
