"""A whole event run on phones alone, offline, in Chromium: what the app exists for.

Five phones, each a persistent Chromium profile on a phone-sized screen: the organizer's
and four tables'. The built site is served under a sub-path by a plain static server; each
phone visits it once (its service worker keeps every file), then its network is cut for
good. The organizer creates the event, signs 16 players up and draws round 1 (four tables
of 4). Each table's phone reads its setup QR **through the camera**: Chromium's fake camera
plays a video made from a screenshot of that table's QR on the organizer's screen (the last
table first picks a photo, the fallback on any phone, of the wrong kind of code). The
table plays its game, its players confirm the totals, and it shows its result QR. The
organizer's phone is opened again with a video of table 1's card held up by mistake, then
the four result QRs one after another (screenshots of the tables' screens); one
continuous scan names the card and counts every table; standings, the cut to 13 and
round 2's seating follow.

Screenshots of the scan screens (phones-*.png) go to a temporary folder (``make screenshots``: assets/screenshots/).

    .venv/bin/pytest -m browser tests/browser/test_browser_phones_event.py -s
"""

from __future__ import annotations

import re
import time
from pathlib import Path

import pytest
from PIL import Image

from tests.support.browser_support import FlutterPage, confirm_every_seat, screenshots_dir, throw
from tests.support.fake_camera import Phone, is_setup_card, launch_phone, qr_on_screen, write_y4m
from tests.support.pwa_harness import BOOT_TIMEOUT_MS, app_ready, load_build_module, serving, wait_precached

pytestmark = pytest.mark.browser

SCREENSHOTS = screenshots_dir()
EVENT = "SPRING-26"
NAMES = ["Ann", "Bob", "Cy", "Di", "Ed", "Flo", "Gus", "Hal", "Ida", "Jo", "Kim", "Lou", "Max", "Ned", "Olga", "Pia"]
TABLES = 4
SEAT = re.compile(r"^Seat (\d): (.+) \(number (\d+)\)$")


def visit_once_then_go_offline(phone: Phone, url: str, site: Path) -> None:
    """The one visit with a network: the app opens and its service worker keeps every file."""
    phone.flutter.open(url, BOOT_TIMEOUT_MS)
    app_ready(phone.flutter)
    wait_precached(phone.page, site)
    phone.cut_network()


def organize(organizer: FlutterPage) -> None:
    """Create the event, sign everyone up, check them in, draw round 1."""
    organizer.click_button("Organize a tournament")
    organizer.type_into("Tournament name", "Spring cup")
    organizer.type_into("Event code (optional)", EVENT)
    organizer.click_button("Create the tournament")
    for name in NAMES:
        organizer.type_into("Player name", name)
        organizer.click_button("Sign up")
        organizer.wait_for_text(f". {name} · ")
    organizer.click_button("Check everyone in")
    organizer.wait_for_text(f"{len(NAMES)} players checked in.")
    organizer.click_button("Seating")
    organizer.type_into("Draw seed (optional)", "2026")
    organizer.click_button("Draw the seats for round 1")
    organizer.wait_for_text(f"Table {TABLES} · Round 1")


def seats_shown(table: FlutterPage) -> list[str]:
    """The names the table's screen seats, in seat order."""
    seats = sorted((int(m[1]), m[2]) for line in table.texts() if (m := SEAT.match(line)))
    return [name for _, name in seats]


def play_table(table: FlutterPage, number: int, names: list[str]) -> dict[str, int]:
    """One game, by the seats' turns: seat 1 throws six 1s four times (hot dice each time) and
    banks 12,000; in the final round seat 2 banks 1,000, seat 3 banks 500, and seat 4 farkles
    (table 4's seat 4 banks 600). Returns the totals the game ends with."""
    first, second, third, fourth = names
    table.wait_for_text(f"Enter {first}'s throw")
    table.button("Undo").wait_for()  # the table's actions are drawn: a tournament table has no advice among them
    assert table.page.get_by_role("button", name="Turn advice on").count() == 0, "a tournament table offers advice"
    for roll in range(4):
        throw(table, "1 1 1 1 1 1")
        table.click_button("Best: keep 1 1 1 1 1 1 for 3,000")
        if roll < 3:
            table.click_button("Hot dice! Roll six again")
    table.click_button("Bank 12,000")
    table.wait_for_text(f"Enter {second}'s throw")
    throw(table, "1 1 1 2 3 4")
    table.click_button("Best: keep 1 1 1 for 1,000")
    table.click_button("Bank 1,000")
    table.wait_for_text(f"Enter {third}'s throw")
    throw(table, "5 5 5 2 3 4")
    table.click_button("Best: keep 5 5 5 for 500")
    table.click_button("Bank 500")
    table.wait_for_text(f"Enter {fourth}'s throw")
    if number < TABLES:
        throw(table, "2 2 3 3 4 6")
        last = 0
    else:
        throw(table, "1 5 5 5 2 3")
        table.click_button("Best: keep 1 5 5 5 for 600")
        table.click_button("Bank 600")
        last = 600
    table.wait_for_text(f"{first} wins!")
    return {first: 12_000, second: 1_000, third: 500, fourth: last}


def test_a_whole_event_runs_on_phones_alone_with_every_code_read_through_the_camera(tmp_path: Path) -> None:
    from playwright.sync_api import sync_playwright

    site = tmp_path / "site"  # a build of its own: build/cache/ is shared with other runs, which replace it
    load_build_module().build(out=site, quiet=True)
    totals: dict[str, int] = {}
    with sync_playwright() as playwright, serving(site, tmp_path / "www") as host:
        # The organizer's phone: one visit, then offline for the whole event.
        organizer = launch_phone(playwright, tmp_path / "organizer")
        visit_once_then_go_offline(organizer, host.url, site)
        organize(organizer.flutter)
        setup_pictures = [qr_on_screen(organizer.flutter, f"Setup QR code for table {n}",
                                       wanted=lambda link, n=n: is_setup_card(link, 1, n))[0]
                          for n in range(1, TABLES + 1)]
        organizer.close()

        result_pictures: list[Image.Image] = []
        for number, setup_picture in enumerate(setup_pictures, 1):
            video = write_y4m([setup_picture], tmp_path / f"setup-{number}.y4m")
            table = launch_phone(playwright, tmp_path / f"table-{number}", video)
            try:
                visit_once_then_go_offline(table, host.url, site)
                phone = table.flutter
                phone.click_button("Join a tournament table")
                if number == TABLES:  # a photo first (the fallback on any phone): table 1's result, the wrong kind
                    photo = tmp_path / "table-1-result.png"
                    result_pictures[0].save(photo)
                    with phone.page.expect_file_chooser(timeout=15_000) as chooser:
                        phone.click_button("Read a photo of the setup code")
                    chooser.value.set_files(str(photo))
                    phone.wait_for_text("That is a table's result code (from a finished game)", timeout_ms=30_000)
                started = time.monotonic()
                phone.click_button("Scan the setup code with the camera")
                phone.wait_for_text(f"{EVENT} · Round 1 · Table {number}", timeout_ms=30_000)
                print(f"\ntable {number} joined {time.monotonic() - started:.1f} s after the tap on the camera button")
                if number == 1:
                    phone.screenshot(SCREENSHOTS / "phones-table-joined.png")
                names = seats_shown(phone)
                assert len(names) == 4, phone.texts()
                phone.click_button("Start the table's game")
                totals |= play_table(phone, number, names)
                confirm_every_seat(phone)
                result_pictures.append(qr_on_screen(phone, f"Result QR code for {EVENT} · Round 1 · Table {number}")[0])
                assert table.outside_requests() == []
            except Exception:
                table.flutter.screenshot(tmp_path / f"table-{number}-failed.png")
                raise
            finally:
                table.close()

        # The organizer opens the app again (still offline) and holds the camera to each table's phone.
        # First, by mistake, table 1's card: the scan names it and goes on.
        video = write_y4m([setup_pictures[0], *result_pictures], tmp_path / "results.y4m", seconds_each=3)
        organizer = launch_phone(playwright, tmp_path / "organizer", video)
        try:
            organizer.cut_network()
            phone = organizer.flutter
            phone.open(host.url, BOOT_TIMEOUT_MS)
            phone.click_button("Organize a tournament")
            phone.page.get_by_text(re.compile(r"^Spring cup")).first.click()
            phone.click_button("Results")
            phone.wait_for_text(f"Missing: tables {', '.join(map(str, range(1, TABLES + 1)))}")
            started = time.monotonic()
            phone.click_button("Scan the tables' result codes, one after another")
            phone.wait_for_text("That is a table's setup code (from its card), not a result", timeout_ms=60_000)
            phone.wait_for_text("Round 1, table 1: result counted", timeout_ms=60_000)
            phone.screenshot(SCREENSHOTS / "phones-organizer-scan.png")
            phone.wait_for_text("Every table has a result.", timeout_ms=90_000)
            print(f"\nfour result codes read and counted in {time.monotonic() - started:.1f} s of scanning")
            phone.click_button("Stop scanning")
            phone.wait_for_text(f"Scanning stopped. {TABLES} codes read.")
            phone.click_button("Standings")
            leaders = [name for name, total in totals.items() if total == 12_000]
            phone.wait_for_text(f"{leaders[0]} (number ")
            for name in leaders:  # the four winners lead, on the totals their tables handed in
                line = next(line for line in phone.texts() if f". {name} (number " in line)
                assert line.startswith("1. ") and line.endswith("Round 1 12,000 (place 1 overall)"), line
            phone.click_button("Results")
            phone.wait_for_text("Every table has a result.")
            phone.click_button("Close round 1 and apply the cut")
            phone.wait_for_text("Round 1 closed: 13 go on.")
            phone.click_button("Seating")
            phone.wait_for_text("Round 2: 13 players")
            phone.click_button("Draw the seats for round 2")
            phone.wait_for_text("Table 4 · Round 2")
            phone.wait_for_text("Round 2: 13 players, 1 table of 4 and 3 tables of 3, progressive rules")
            assert organizer.outside_requests() == []
        except Exception:
            organizer.flutter.screenshot(tmp_path / "organizer-failed.png")
            raise
        finally:
            organizer.close()
