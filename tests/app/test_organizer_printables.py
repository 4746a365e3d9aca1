"""The printables' pages: each named, opened in a tab through the venue server's printouts or saved as a
file, the seat list's QR only while the players' page is open. (Paged at A4 in Chromium:
tests/browser/test_browser_printables.py.)"""

from __future__ import annotations

import asyncio
import re
from urllib.parse import urlsplit
from typing import Any

from app.documents.events import players_page_kept
from app.event.organizer import Organizer
from app.venue import printouts
from engine import Tournament
from tests.app.test_organizer import Desk, notice
from tests.support.flet_harness import FletHarness
from tests.support.tournament_support import default_totals

LINK_BASE = "http://10.0.0.5:8550"
NAMES = ("Zoë", "ann", "Bob", "Émile", "Aleksandra García-Márquez de la Fuente R", "cy")


async def _event(desk: Desk, *, played: bool = False, players_page: bool = True) -> Organizer:
    organizer = Organizer(desk.store)
    desk.tournament_id = await organizer.create("Harbour open", None, "HARBOUR-1", LINK_BASE)

    def setup(t: Tournament) -> None:
        for name in NAMES:
            t.check_in(t.sign_up(name))
        t.draw_seats(seed=1)
        if played:
            for table, numbers in enumerate(t.seating(), 1):
                t.record_result(table, default_totals(numbers), reason="paper score sheet")
            t.close_round()

    await organizer.act(setup)
    if not players_page:
        await organizer.session.keep_beside(**players_page_kept(False))
    return organizer


async def _served(path: str) -> tuple[int, bytes]:
    """What the venue server's printouts answer for a GET of ``path``."""
    sent: list[dict[str, Any]] = []

    async def app(scope: Any, receive: Any, send: Any) -> None:
        raise AssertionError(f"{scope['path']} went past the printouts")

    async def send(message: Any) -> None:
        sent.append(message)

    await printouts.Printouts(app)({"type": "http", "method": "GET", "path": path}, None, send)  # type: ignore[arg-type]
    return sent[0]["status"], sent[1]["body"]


def test_the_seat_list_opens_in_a_new_tab_from_the_venue_server_alphabetically_with_the_players_qr() -> None:
    desk = Desk()
    opened: list[dict[str, Any]] = []

    async def test(ui: FletHarness) -> None:
        await _event(desk)
        await ui.navigate(desk.route("seating"))
        await ui.settle()
        assert [ui.accessible_name(ui.find(key)) for key in ("print-seats", "print-slips", "print-standings")] == [
            "Seat list", "Result slips", "Standings to print"]
        await ui.click("print-seats")
        assert ui.accessible_name(ui.find("printable-open")) == "Open to print"
        assert ui.unlabelled_controls() == []
        await ui.click("printable-open")
        assert notice(ui) == "Opened in a new tab: print it there (Ctrl+P). The address works for 15 minutes."
        url = opened[-1]["url"]
        assert opened[-1]["web_only_window_name"] == "_blank"
        path = urlsplit(url).path  # at the address this organizer's browser opened the app from
        assert re.fullmatch(r"/printout/[A-Za-z0-9_-]{32}", path) and url.startswith("http"), url
        status, body = await _served(path)
        html = body.decode("utf-8")
        assert status == 200 and 'alt="The players page QR code"' in html
        assert f"{LINK_BASE}/players/HARBOUR-1" in html
        order = [name for name in re.findall(r"<tr><td>([^<]+)</td><td class=\"where\">", html)]
        assert order == ["Aleksandra García-Márquez de la Fuente R", "ann", "Bob", "cy", "Émile", "Zoë"]

    desk.run(test, services={("UrlLauncher", "launch_url"): lambda ui, service, args: opened.append(args)})


def test_a_printable_saved_as_a_file_is_the_same_document_and_the_seat_list_has_no_qr_while_the_page_is_off() -> None:
    desk = Desk()
    saved: list[tuple[str, bytes]] = []

    def save_file(ui: FletHarness, service: Any, args: Any) -> str:
        saved.append((args["file_name"], args["src_bytes"]))
        return "/home/organizer/" + str(args["file_name"])

    async def test(ui: FletHarness) -> None:
        await _event(desk, played=True, players_page=False)
        for route, file in (("print-seats", "seat-list"), ("print-slips", "result-slips"),
                            ("print-standings", "standings")):
            await ui.navigate(desk.route(route))
            await ui.settle()
            await ui.click("printable-save")
            assert saved[-1][0] == f"{file}-HARBOUR-1.html"
            assert notice(ui) == f"Saved as /home/organizer/{file}-HARBOUR-1.html: open it in a browser and print it."
        seats, slips, standings = (body.decode("utf-8") for _, body in saved)
        assert "<img" not in seats and "/players/" not in seats
        assert slips.count('class="slip"') == 2 and "Table 2 · Round 1 · HARBOUR-1" in slips
        assert standings.count('class="cut"') == 1 and "Above the line: the 4 who go on to the final." in standings

    desk.run(test, services={("FilePicker", "save_file"): save_file})


def test_a_printable_is_served_only_for_its_token_and_only_for_a_while() -> None:
    async def test() -> None:
        path = printouts.keep("<p>seats</p>")
        assert await _served(path) == (200, b"<p>seats</p>")
        assert (await _served(path[:-1] + ("A" if path[-1] != "A" else "B")))[0] == 404
        assert (await _served("/printout/../../etc/passwd"))[0] == 404
        gone = printouts.keep("<p>old</p>", now=-printouts.KEEP_SECONDS - 1.0)
        assert (await _served(gone))[0] == 404

    asyncio.run(test())


def test_before_the_draw_there_is_no_seat_list_to_print() -> None:
    desk = Desk()

    async def test(ui: FletHarness) -> None:
        organizer = Organizer(desk.store)
        desk.tournament_id = await organizer.create("Harbour open", None, "HARBOUR-1", LINK_BASE)
        await ui.navigate(desk.route("print-seats"))
        await ui.settle()
        assert ui.text_of("printable-empty") == "No round has been drawn yet: there is nothing to print."
        assert not ui.exists("printable-open")

    desk.run(test)
