"""The seed event as an organizer runs it at a venue, and as the room follows it: 40 players,
ten tables, four rounds.

The local server on a laptop, the organizer's phone (Chromium at 390x844). Forty names, among
them names as people give them (Aleksandra García-Márquez, 25 characters; Bartholomew
García-Márquez, 26; a name of 40), are pasted as one list, previewed and added with one tap,
checked in, and round 1 is drawn to ten tables. Every table card is scrolled into view and its
setup QR read (zxing-cpp) as a table's camera would: each is an http join link. Each table's
device is played here in Python from the code its card gave (the tables' own screens have
journeys of their own), and its signed result is handed to the organizer, typed or pasted as a
link. Round 1's totals leave two players tied at the cut; the organizer sees them named, records
their roll-off, and closes the round. Round 2 (progressive), round 3 and the final follow, then
the prize.

The room follows on its own devices. A projector's browser (1920x1080, a browser context of its
own on the venue's network, as the organizer's laptop would open it) shows the room display,
paused on the latest results: each table's result is there once the organizer's phone says it
was counted (the seconds printed; how soon is measured by tests/bench/bench_room_display.py), the cut line once round 1 closes, and the champion once crowned; at the
end its standings, and the organizer's on the phone, show all 40 names whole. Between rounds 1
and 2, Bartholomew's phone (390x844) scans the players' QR from a picture of the projector
(read by the app's own reader) and finds his table, seat and place; left open, it shows his
round 2 seat once drawn (if he goes on).

Pictures of cards 1, 5 and 10, the display's standings with the cut line (room-display.png) and
Bartholomew's phone (players-page.png) go to a temporary folder (``make screenshots`` refreshes
the README's copies).

    .venv/bin/pytest -m browser tests/browser/test_browser_seed_event.py -s
"""

from __future__ import annotations

import re
import statistics
import time
from pathlib import Path

import pytest
from playwright.sync_api import Browser

from app.qr import read_qr_texts
from app.table.tournament_table import signed_result, tournament_meta, with_answer
from engine import Game, decode_setup
from tests.support.browser_support import (
    PHONE_VIEWPORT,
    TYPING_ATTEMPTS,
    FlutterPage,
    free_port,
    screenshots_dir,
    start_app_server,
    wait_until,
)
from tests.support.fake_camera import is_setup_card, qr_on_screen
from tests.support.room_support import DISPLAY_VIEWPORT, Room, find_yourself

pytestmark = pytest.mark.browser

NAMES = [
    "Ann Lee", "Bob Stone", "Cy Park", "Di Moreau", "Ed Brandt", "Flo Rossi", "Gus Kowalski", "Hal Berg",
    "Ida Nyström", "Jo Quinn", "Kim Tran", "Lou Ferreira", "Maximiliana Featherstonehaugh-Cholmondel", "Ned Hughes",
    "Olga Ivanova", "Pia Larsen", "Quentin Roy", "Rosa Díaz", "Sam O'Neil", "Tia Okafor", "Uma Shah", "Vic Novak",
    "Wes Grant", "Xena Pappas", "Yuri Sato", "Zoë Martin", "Aleksandra García-Márquez",
    "Bartholomew García-Márquez", "Cal Murphy", "Dora Szabó", "Eli Baker", "Fay Wong", "Gil Santos", "Hana Kim",
    "Ivo Petrov", "Jan de Vries", "Kai Müller", "Lena Berger", "Milo Costa", "Nia Evans",
]
"""Numbered 1 to 40 in the order pasted."""
LONG_NAMES = ["Aleksandra García-Márquez", "Bartholomew García-Márquez", "Maximiliana Featherstonehaugh-Cholmondel"]
SEARCHED = "Bartholomew"
TIED_AT_THE_CUT = 650
ROUND_ONE_OTHERS = [  # the three non-winners of each table, table by table: 21 above 650, two at it, 7 below
    1150, 1100, 650, 1150, 1050, 650, 1150, 1100, 1050, 1150, 1100, 1050, 1150, 1100, 1050,
    1150, 1100, 1050, 1000, 1000, 1000, 1000, 1000, 600, 600, 600, 550, 550, 500, 500,
]
LATER_ROUNDS = [1000, 500, 0]  # places 2, 3 and 4 of every later table
SIX_ONES = "1 1 1 1 1 1"
WINNING = 12_000


def name_of(number: int) -> str:
    return NAMES[number - 1]


def bank_exactly(game: Game, amount: int) -> None:
    """One turn banking ``amount`` (500 to 1,150 in steps of 50), or a farkle for 0. The
    throw is of six fresh dice, which declines a progressive offer."""
    if amount == 0:
        game.roll("2 2 3 3 4 6")
        return
    base = 1000 if amount >= 1000 else 500
    game.roll("1 1 1 2 3 4" if base == 1000 else "5 5 5 2 3 4")
    game.keep("1 1 1" if base == 1000 else "5 5 5")
    extra = {50: ("5 2 3", "5"), 100: ("1 2 3", "1"), 150: ("1 5 2", "1 5")}.get(amount - base)
    if extra:
        game.roll(extra[0])
        game.keep(extra[1])
    game.bank()


def played_result(setup_code: str, others: list[int]) -> tuple[str, str, dict[int, int]]:
    """What a table's device hands over: seat 1 banks 12,000 in the first turn (six 1s, four
    times), then each other seat banks its amount in its last turn; every player confirms.
    Returns the typed result, its link, and the totals by player number (the card carries
    short forms of long names, the event their full names)."""
    setup = decode_setup(setup_code)
    game = Game(list(setup.names), setup.rules, 0)
    for _ in range(4):
        game.roll(SIX_ONES)
        game.keep(SIX_ONES)
    game.bank()
    for amount in others:
        bank_exactly(game, amount)
    assert game.is_over, game.notices
    meta = tournament_meta(setup, setup_code)["tournament"]
    for seat in range(len(setup.names)):
        meta = with_answer(game, meta, seat, True)
    result = signed_result(game, meta)
    assert result.link is not None and result.link.startswith("http://")
    return result.typed, result.link, dict(zip(setup.numbers, game.scores))


def open_page(page: FlutterPage, url: str) -> None:
    page.page.goto(url, wait_until="commit")
    page.enable_semantics()


def read_every_card(page: FlutterPage, tables: int, work: Path, pictures: Path, round_number: int) -> list[str]:
    """Each card scrolled into view in turn, its QR read as a table's camera reads it: the
    setup codes, table by table. Cards 1, 5 and 10 of round 1 are photographed."""
    codes: list[str] = []
    for table in range(1, tables + 1):
        picture, link = qr_on_screen(page, f"Setup QR code for table {table}",
                                     wanted=lambda text, table=table: is_setup_card(text, round_number, table))
        picture.save(work / f"qr-{round_number}-{table}.png")
        codes.append(link.split("/JOIN/", 1)[1])
        if round_number == 1 and table in (1, 5, 10):
            page.screenshot(pictures / f"organizer-seating-card-{table}.png")
    return codes


def import_results(room: Room, round_number: int, codes: list[str], others: list[list[int]],
                   latencies: list[float], round_name: str | None = None) -> dict[int, int]:
    """Every table's result handed over: odd tables type the code, even ones paste the link;
    the import names the round as the pages do (the last is "Final"). The display, paused on
    the latest results, shows each result once the phone says it was counted (the seconds it
    took go to ``latencies``)."""
    page = room.organizer
    totals: dict[int, int] = {}
    named = round_name or f"Round {round_number}"
    page.click_button("Results")
    # The newest results' page: the only one before round 1's first result, later the first of several.
    room.turn_to("Latest results (1/" if round_number > 1 else "Latest results")
    for table, (code, amounts) in enumerate(zip(codes, others), 1):
        typed, link, scores = played_result(code, amounts)
        totals |= scores
        page.type_into("Result code or link", typed if table % 2 else link)
        page.click_button("Import the result")
        page.wait_for_text(f"{named}, table {table}: result counted", timeout_ms=20_000)
        latencies.append(room.followed(f"{named}, table {table} at ", f"table {table}'s import"))
        winner = next(number for number, total in scores.items() if total == WINNING)
        assert room.shows(f"1. {name_of(winner)} {WINNING:,}"), room.display.texts()  # the result, full names
    page.wait_for_text("Every table has a result.")
    return totals


def draw(room: Room, round_name: str, heading: str, tables: int) -> None:
    """The organizer draws the next round; the display follows to it (its heading names it)."""
    page = room.organizer
    page.click_button("Seating")
    page.click_button(f"Draw the seats for {'the final' if round_name == 'final' else round_name}")
    page.wait_for_text(f"Table {tables} · ", timeout_ms=20_000)
    room.followed(f"Spring cup · {heading}", f"the draw of {round_name}")


def event_address(url: str) -> str:
    """``http://host:port/organizer/<id>``, from the address of any of the event's pages."""
    found = re.match(r"(.*/organizer/[^/?#]+)", url)
    assert found is not None, url
    return found.group(1)


def open_display(browser: Browser, event_url: str) -> FlutterPage:
    """The projector's browser: the event's room display at 1920x1080 in a browser context of its own."""
    display = FlutterPage(browser.new_context(viewport=DISPLAY_VIEWPORT).new_page())
    display.open(event_url + "/display")
    display.wait_for_text("Spring cup")
    return display


def scan_the_projector(display: FlutterPage) -> str:
    """What a phone's camera held up to the projector reads: the one QR code on a picture of
    the whole display (the app's own reader), looked at again until it reads as one."""
    seen: list[list[str]] = []

    def one_code() -> list[str]:
        seen.append(read_qr_texts(display.page.screenshot()))
        return seen[-1] if len(seen[-1]) == 1 else []

    return wait_until(one_code, 20, lambda: f"the display's picture read as {seen[-1]}, not one QR code",
                      pause=display.pause)[0]


def seat_of(number: int, codes: list[str]) -> tuple[int, int] | None:
    """The table and seat the cards of a round give player ``number`` (None: not drawn)."""
    for table, code in enumerate(codes, 1):
        numbers = decode_setup(code).numbers
        if number in numbers:
            return table, numbers.index(number) + 1
    return None


def place_after_round_one(totals: dict[int, int], number: int, roll_off_loser: int) -> int:
    """A place over all tables: one more than those with more; equal totals share it, but the
    roll-off puts its loser below its winner."""
    return 1 + sum(total > totals[number] for total in totals.values()) + (number == roll_off_loser)


def display_standings(room: Room, measured: list[str]) -> tuple[list[str], dict[str, float]]:
    """Every line of the display's standings, its pages turned one by one, and how far right each
    ``measured`` line reaches on the screen."""
    room.turn_to("Standings (1/")
    title = next(line for line in room.display.texts() if line.startswith("Standings (1/"))
    pages = int(title.removeprefix("Standings (1/").removesuffix(")"))
    lines: list[str] = []
    right: dict[str, float] = {}
    for part in range(1, pages + 1):
        room.turn_to(f"Standings ({part}/{pages})")
        shown = room.display.texts()
        lines += shown
        for line in measured:
            if line in shown:
                box = room.display.page.get_by_text(line, exact=True).first.bounding_box()
                assert box is not None, line
                right[line] = box["x"] + box["width"]
    return lines, right


def paste_and_preview(page: FlutterPage, names: list[str]) -> None:
    """Paste the sign-up list and preview it until the preview reads it. A busy server can drop
    the session's link just after the paste: the screen then opens anew, as stored, with the
    box empty, and the organizer sees "Paste or type the names first" and pastes again."""
    ready = f"Ready to add {len(names)} players"
    for attempt in range(TYPING_ATTEMPTS):
        page.type_into("Names, one a line", "\n".join(names))
        page.click_button("Preview")
        last = attempt + 1 == TYPING_ATTEMPTS
        if wait_until(lambda: any(line.startswith(ready) for line in page.texts()), 30 if last else 10,
                      lambda: f"the preview never read the list: {page.texts()}", pause=page.pause, required=last):
            return


def test_the_seed_event_runs_with_forty_players_at_ten_tables_to_its_champion_as_the_room_follows_it(
        tmp_path: Path, chromium_browser: Browser) -> None:
    pictures = screenshots_dir(tmp_path)
    port = free_port()
    latencies: list[float] = []
    with start_app_server(tmp_path / "data", port=port) as server:
        page = FlutterPage.new_phone(chromium_browser)
        display: FlutterPage | None = None
        phone: FlutterPage | None = None
        try:
            started = time.monotonic()
            open_page(page, server.url)
            page.click_button("Organize a tournament")
            page.type_into("Tournament name", "Spring cup")
            page.type_into("Event code (optional)", "SPRING-26")
            page.click_button("Create the tournament")
            paste_and_preview(page, NAMES)
            page.click_button("Add 40 players")
            page.wait_for_text("40 players signed up", timeout_ms=20_000)
            page.click_button("Check everyone in")
            page.wait_for_text("40 players checked in.")

            display = open_display(chromium_browser, event_address(page.page.url))
            room = Room(page, display).paused()

            draw(room, "round 1", "Round 1", 10)
            codes = read_every_card(page, 10, tmp_path, pictures, 1)
            totals = import_results(room, 1, codes, [ROUND_ONE_OTHERS[i:i + 3] for i in range(0, 30, 3)], latencies)
            tied = sorted((number for number, total in totals.items() if total == TIED_AT_THE_CUT), key=name_of)
            assert len(tied) == 2
            page.click_button("Close round 1 and apply the cut")
            for number in tied:  # the tie is named, with both players' names
                page.wait_for_text(name_of(number))
            page.click_button(f"{name_of(tied[0])} threw 6")
            page.click_button(f"{name_of(tied[1])} threw 2")
            page.click_button("Record the roll-off over all tables")
            page.click_button("Close round 1 and apply the cut")
            page.wait_for_text("Round 1 closed: 32 go on.")
            # the round's outcome, at once: the standings page where the line falls (ranks 31 to 40)
            room.followed("Above the line: the 32 who go on to Round 2.", "the close of round 1")
            display.screenshot(pictures / "room-display.png")

            # Bartholomew, between rounds: his phone reads the QR on the projector.
            room.turn_to("Players: find yourself")
            link = scan_the_projector(display)
            assert link.casefold() == f"{server.url}players/SPRING-26".casefold()
            bartholomew = NAMES.index(f"{SEARCHED} García-Márquez") + 1
            seated = seat_of(bartholomew, codes)
            assert seated is not None
            table, seat = seated
            place = place_after_round_one(totals, bartholomew, roll_off_loser=tied[1])
            phone = FlutterPage.new_phone(chromium_browser)
            open_page(phone, link)
            phone.wait_for_text("Spring cup · SPRING-26")
            phone.wait_for_text("Round 1 is over: the next seats are drawn soon.")
            find_yourself(phone, SEARCHED)
            phone.wait_for_text(f"Bartholomew García-Márquez · number {bartholomew}")
            phone.wait_for_text(f"Round 1: table {table}, seat {seat}")
            went_on = "Through to round 2" if place <= 32 else "Out in round 1"
            phone.wait_for_text(f"Place {place} of 40 · {went_on}")
            phone.wait_for_text(f"Round 1: {totals[bartholomew]:,}")
            phone.screenshot(pictures / "players-page.png")

            for round_number, round_name, tables, going_on in ((2, "round 2", 8, 16), (3, "round 3", 4, 4)):
                draw(room, round_name, f"Round {round_number}", tables)
                codes = read_every_card(page, tables, tmp_path, pictures, round_number)
                if round_number == 2:
                    drawn = seat_of(bartholomew, codes)
                    assert (drawn is not None) == (place <= 32)
                    if drawn is not None:  # his phone, left open, follows the draw: no tap
                        phone.wait_for_text(f"Round 2: table {drawn[0]}, seat {drawn[1]}")
                totals = import_results(room, round_number, codes, [LATER_ROUNDS] * tables, latencies)
                page.click_button(f"Close round {round_number} and apply the cut")
                page.wait_for_text(f"Round {round_number} closed: {going_on} go on.")
                if round_number == 2:
                    assert tied[0] in totals and tied[1] not in totals, "the roll-off's winner goes on, not its loser"

            draw(room, "final", "Final", 1)
            codes = read_every_card(page, 1, tmp_path, pictures, 4)
            totals = import_results(room, 4, codes, [[1050, 550, 0]], latencies, round_name="Final")
            champion = name_of(next(number for number, total in totals.items() if total == WINNING))
            page.click_button("Crown the champion")
            page.wait_for_text("is the champion!")
            room.followed("Champion of Spring cup", "the champion crowned")
            assert room.shows(champion)
            page.click_button("Final & prize")
            page.wait_for_text(f"Champion: {champion} (number ")
            page.type_into("Currency", "$")
            page.type_into("Prize amount", "400")
            page.click_button("Record the prize")
            page.wait_for_text("Prize: $400")

            page.click_button("Standings")  # the organizer's phone: each name whole, wrapped inside the screen
            page.wait_for_text("Within a round, the place comes first")
            lines = page.texts()
            assert [name for number, name in enumerate(NAMES, 1)
                    if not any(f"{name} (number {number}) · " in line for line in lines)] == []
            for name in LONG_NAMES:
                box = page.page.get_by_text(name, exact=False).first.bounding_box()
                assert box is not None and 0 <= box["x"] and box["x"] + box["width"] <= PHONE_VIEWPORT["width"], box

            whole = [f"{name} ({number})" for number, name in enumerate(NAMES, 1)]
            standings, right = display_standings(room, [line for line in whole if line.split(" (")[0] in LONG_NAMES])
            assert [line for line in whole if line not in standings] == []  # each name whole on its line
            assert {line: edge for line, edge in right.items() if edge > DISPLAY_VIEWPORT["width"]} == {}
            assert len(right) == len(LONG_NAMES)
            print(f"\nthe seed event, 40 players to the prize, took {time.monotonic() - started:.0f} s; the display "
                  f"showed each of {len(latencies)} results at worst {max(latencies):.2f} s, median "
                  f"{statistics.median(latencies):.2f} s after the organizer's phone said it was counted")
        except Exception:
            page.screenshot(tmp_path / "seed-event-failed.png", ceiling_s=1)
            print(f"screen at the failure: {page.texts()[:60]}\nserver: {server.log_tail()}")
            print("fields at the failure:", page.page.evaluate(
                "() => [...document.querySelectorAll('input, textarea')].map(e => [e.getAttribute('aria-label'),"
                " e.value.length])"))
            if display is not None:
                print(f"display at the failure: {display.texts()[:60]}")
            raise
        finally:
            for opened in (page, display, phone):
                if opened is not None:
                    opened.close()
