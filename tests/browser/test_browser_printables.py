"""The printables at A4 in real headless Chromium against the real server: the seat list for the wall, the
result slips and the standings with the cut, each opened from the organizer's page in a new tab and
printed to PDF by the browser (page.pdf), its pages counted and its text read back with pypdf.

The event is the seed event's size: 40 players, among them "Aleksandra García-Márquez" (25
characters), "Bartholomew García-Márquez" (26) and a 40-character name, at ten tables; round 1 is
played and closed, so the standings carry the cut. A second event of the same players has round 1
drawn and being played, for the table cards with their setup QR codes.
"""

from __future__ import annotations

import base64
import io
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from pypdf import PdfReader

from app.event.organizer import Organizer
from app.qr import read_qr_texts
from app.routes import players_path
from app.table.tournament_table import join_link, link_qr_text
from app.storage import FileStore
from engine import Tournament
from engine.name_order import name_order
from tests.support.browser_support import (
    AppServer,
    FlutterPage,
    free_port,
    in_thread,
    screenshots_dir,
    start_app_server,
)
from tests.support.tournament_support import default_totals

pytestmark = pytest.mark.browser

SCREENSHOTS = screenshots_dir()

LONGEST = "Aleksandra García-Márquez de la Fuente R"
NAMES = ["Aleksandra García-Márquez", "Bartholomew García-Márquez", LONGEST,
         *(f"Player {n:02}" for n in range(4, 41))]


@dataclass
class Event:
    server: AppServer
    tournament_id: str
    tournament: Tournament
    playing_id: str
    """The second event, its round 1 being played."""
    playing: Tournament

    def url(self, route: str) -> str:
        return self.server.url.rstrip("/") + route


def seed_event(data_dir: Path, base: str) -> tuple[str, Tournament, str, Tournament]:
    store = FileStore(data_dir)

    async def drawn(code: str, played: bool) -> tuple[str, Tournament]:
        organizer = Organizer(store)
        tournament_id = await organizer.create("Mayor's cup", event_id=code, link_base=base)

        def play(t: Tournament) -> None:
            for name in NAMES:
                t.check_in(t.sign_up(name))
            t.draw_seats(seed=2026)
            if played:
                for table, numbers in enumerate(t.seating(), 1):
                    t.record_result(table, default_totals(numbers), reason="paper score sheet")
                t.close_round()

        await organizer.act(play)
        return tournament_id, organizer.open_tournament

    async def seed() -> tuple[str, Tournament, str, Tournament]:
        return (*await drawn("MAYOR-26", played=True), *await drawn("HARBOUR-1", played=False))

    try:  # Playwright's sync API runs a loop in this thread: seed from another one
        return in_thread(seed())
    finally:
        store.close()


@pytest.fixture(scope="module")
def event(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Event]:
    port = free_port()
    data_dir = tmp_path_factory.mktemp("printables") / "data"
    seeded = seed_event(data_dir, f"http://127.0.0.1:{port}")
    with start_app_server(data_dir, port=port) as server:
        yield Event(server, *seeded)


def printed(chromium_browser, event: Event, route: str, button: str,
            tournament_id: str | None = None) -> tuple[PdfReader, PdfReader, str]:
    """Open the seating page, go to a printable by its button, open it to print in a new tab and print
    that tab at A4 and at Letter: both PDFs, and the tab's HTML (its first A4 page's worth shot as
    print-<button>.png)."""
    page = FlutterPage(chromium_browser.new_context(viewport={"width": 1280, "height": 900}).new_page())
    try:
        page.page.goto(event.url(f"/organizer/{tournament_id or event.tournament_id}/seating"), wait_until="commit")
        page.enable_semantics()
        page.click_button(button)
        page.wait_for_text(route)
        with page.page.context.expect_page() as opened:
            page.click_button("Open to print")
        tab = opened.value
        tab.wait_for_load_state()
        tab.set_viewport_size({"width": 794, "height": 1123})
        tab.screenshot(path=str(SCREENSHOTS / f"print-{button.lower().replace(' ', '-')}.png"))
        assert re.fullmatch(rf"{re.escape(event.url('/printout/'))}[A-Za-z0-9_-]{{32}}", tab.url), tab.url
        return (PdfReader(io.BytesIO(tab.pdf(format="A4"))), PdfReader(io.BytesIO(tab.pdf(format="Letter"))),
                tab.content())
    finally:
        page.close()


def lines_of(reader: PdfReader) -> list[str]:
    return [line.strip() for page in reader.pages for line in page.extract_text().splitlines()]


def test_the_seat_list_of_40_fits_two_a4_pages_alphabetically_every_name_whole_with_the_players_qr(
    chromium_browser, event: Event
) -> None:
    reader, letter, html = printed(chromium_browser, event, "Every player of the round, alphabetically", "Seat list")
    assert 1 <= len(reader.pages) <= 2 and 1 <= len(letter.pages) <= 2
    assert any(line.startswith(LONGEST + " ") for line in lines_of(letter))
    lines = lines_of(reader)
    t = event.tournament
    seats = {t.player(n).name: (table, seat) for table, numbers in enumerate(t.seating(1), 1)
             for seat, n in enumerate(numbers, 1)}
    found = [line for line in lines if re.search(r"Table \d+ · seat \d$", line)]
    assert found == [f"{name} Table {seats[name][0]} · seat {seats[name][1]}" for name in sorted(seats, key=name_order)]
    assert any(line.startswith(LONGEST + " ") for line in lines)  # whole, on one line
    assert "…" not in "".join(lines) and "..." not in "".join(lines)
    qr_png = base64.b64decode(re.search(r'src="data:image/png;base64,([^"]+)"', html).group(1))  # type: ignore[union-attr]
    assert read_qr_texts(qr_png) == [event.url(players_path("MAYOR-26"))]


def test_the_result_slips_give_each_of_the_ten_tables_its_seats_and_boxes_on_a_few_a4_pages(
    chromium_browser, event: Event
) -> None:
    reader, letter, _ = printed(chromium_browser, event, "One slip per table", "Result slips")
    assert 1 <= len(reader.pages) <= 4 and 1 <= len(letter.pages) <= 4
    lines = lines_of(reader)
    text = "\n".join(lines)
    for table in range(1, 11):
        assert f"Table {table} · Round 1 · MAYOR-26" in text
    assert [name for name in NAMES if not any(name in line for line in lines)] == []  # each whole on a line
    assert text.count("Final total") == 10 and text.count("Initials") == 10


def test_the_standings_print_marks_the_cut_after_the_32_who_go_on(chromium_browser, event: Event) -> None:
    reader, letter, html = printed(chromium_browser, event, "Everyone, best first", "Standings to print")
    assert 1 <= len(reader.pages) <= 2 and 1 <= len(letter.pages) <= 2
    text = "\n".join(lines_of(reader))
    assert "Above the line: the 32 who go on to Round 2." in text
    assert text.count("through to round 2") == 32 and text.count("out in round 1") == 8 and "goes on" not in text
    rows = re.findall(r"<tr( class=\"cut\")?><td>\d+</td>", html)
    assert [index for index, cut in enumerate(rows, 1) if cut] == [32]


def test_the_table_cards_print_each_tables_card_whole_with_a_setup_qr_that_reads_as_its_join_link(
    chromium_browser, event: Event
) -> None:
    reader, letter, html = printed(chromium_browser, event, "Mayor's cup · HARBOUR-1", "Printable cards", event.playing_id)
    assert 1 <= len(reader.pages) <= 5 and 1 <= len(letter.pages) <= 5
    text = "\n".join(lines_of(reader))
    t, base = event.playing, event.url("")
    for table in range(1, 11):
        assert f"Table {table} · Round 1" in text
    pngs = re.findall(r'alt="Setup QR code for table (\d+)" src="data:image/png;base64,([^"]+)"|'
                      r'src="data:image/png;base64,([^"]+)" alt="Setup QR code for table (\d+)"', html)
    decoded = {int(match[3]): read_qr_texts(base64.b64decode(match[2])) for match in pngs}  # as the scanner reads
    assert decoded == {table: [link_qr_text(join_link(t.setup_code(table, base), base))] for table in range(1, 11)}
