"""The seed event as an organizer runs it at a venue: 40 players, ten tables, four rounds.

The local server on a laptop, the organizer's phone (Chromium at 390x844). Forty names are
pasted as one list, previewed and added with one tap, checked in, and round 1 is drawn to
ten tables. Every table card is scrolled into view and its setup QR read (zxing-cpp) as a
table's camera would: each is an http join link. Each table's device is played here in
Python from the code its card gave (the tables' own screens have journeys of their own),
and its signed result is handed to the organizer, typed or pasted as a link. Round 1's
totals leave two players tied at the cut; the organizer sees them named, records their
roll-off, and closes the round. Round 2 (progressive), round 3 and the final follow, then
the prize.

Pictures of cards 1, 5 and 10 go to a temporary folder (``make screenshots`` refreshes
the README's copies).

    .venv/bin/pytest -m browser tests/browser/test_browser_seed_event.py -s
"""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from app.table.tournament_table import signed_result, tournament_meta, with_answer
from engine import Game, decode_setup
from tests.support.browser_support import FlutterPage, free_port, screenshots_dir, start_app_server
from tests.support.fake_camera import is_setup_card, qr_on_screen

pytestmark = pytest.mark.browser

NAMES = [
    "Ann Lee", "Bob Stone", "Cy Park", "Di Moreau", "Ed Brandt", "Flo Rossi", "Gus Kowalski", "Hal Berg",
    "Ida Nyström", "Jo Quinn", "Kim Tran", "Lou Ferreira", "Max Weber", "Ned Hughes", "Olga Ivanova",
    "Pia Larsen", "Quentin Roy", "Rosa Díaz", "Sam O'Neil", "Tia Okafor", "Uma Shah", "Vic Novak",
    "Wes Grant", "Xena Pappas", "Yuri Sato", "Zoë Martin", "Abe Cohen", "Bea Fischer", "Cal Murphy",
    "Dora Szabó", "Eli Baker", "Fay Wong", "Gil Santos", "Hana Kim", "Ivo Petrov", "Jan de Vries",
    "Kai Müller", "Lena Berger", "Milo Costa", "Nia Evans",
]
TIED_AT_THE_CUT = 650
ROUND_ONE_OTHERS = [  # the three non-winners of each table, table by table: 21 above 650, two at it, 7 below
    1150, 1100, 650, 1150, 1050, 650, 1150, 1100, 1050, 1150, 1100, 1050, 1150, 1100, 1050,
    1150, 1100, 1050, 1000, 1000, 1000, 1000, 1000, 600, 600, 600, 550, 550, 500, 500,
]
LATER_ROUNDS = [1000, 500, 0]  # places 2, 3 and 4 of every later table
SIX_ONES = "1 1 1 1 1 1"


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


def played_result(setup_code: str, others: list[int]) -> tuple[str, str, dict[str, int]]:
    """What a table's device hands over: seat 1 banks 12,000 in the first turn (six 1s, four
    times), then each other seat banks its amount in its last turn; every player confirms.
    Returns the typed result, its link, and the totals by name."""
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
    return result.typed, result.link, dict(zip(setup.names, game.scores))


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


def import_results(page: FlutterPage, round_number: int, codes: list[str], others: list[list[int]],
                   round_name: str | None = None) -> dict[str, int]:
    """Every table's result handed over: odd tables type the code, even ones paste the link;
    the import names the round as the pages do (the last is "Final")."""
    totals: dict[str, int] = {}
    named = round_name or f"Round {round_number}"
    page.click_button("Results")
    for table, (code, amounts) in enumerate(zip(codes, others), 1):
        typed, link, scores = played_result(code, amounts)
        totals |= scores
        page.type_into("Result code or link", typed if table % 2 else link)
        page.click_button("Import the result")
        page.wait_for_text(f"{named}, table {table}: result counted", timeout_ms=20_000)
    page.wait_for_text("Every table has a result.")
    return totals


def draw(page: FlutterPage, round_name: str, tables: int) -> None:
    page.click_button("Seating")
    page.click_button(f"Draw the seats for {round_name}")
    page.wait_for_text(f"Table {tables} · ", timeout_ms=20_000)


def test_the_seed_event_runs_with_forty_players_at_ten_tables_to_its_champion(tmp_path: Path, chromium_browser):
    pictures = screenshots_dir(tmp_path)
    port = free_port()
    with start_app_server(tmp_path / "data", port=port) as server:
        page = FlutterPage.new_phone(chromium_browser)
        try:
            started = time.monotonic()
            open_page(page, server.url)
            page.click_button("Organize a tournament")
            page.type_into("Tournament name", "Spring cup")
            page.type_into("Event code (optional)", "SPRING-26")
            page.click_button("Create the tournament")
            page.type_into("Names, one a line", "\n".join(NAMES))
            page.click_button("Preview")
            page.wait_for_text("Ready to add 40 players")
            page.click_button("Add 40 players")
            page.wait_for_text("40 players signed up", timeout_ms=20_000)
            page.click_button("Check everyone in")
            page.wait_for_text("40 players checked in.")

            draw(page, "round 1", 10)
            codes = read_every_card(page, 10, tmp_path, pictures, 1)
            totals = import_results(page, 1, codes, [ROUND_ONE_OTHERS[i:i + 3] for i in range(0, 30, 3)])
            tied = sorted(name for name, total in totals.items() if total == TIED_AT_THE_CUT)
            assert len(tied) == 2
            page.click_button("Close round 1 and apply the cut")
            for name in tied:  # the tie is named, with both players' names
                page.wait_for_text(name)
            page.click_button(f"{tied[0]} threw 6")
            page.click_button(f"{tied[1]} threw 2")
            page.click_button("Record the roll-off over all tables")
            page.click_button("Close round 1 and apply the cut")
            page.wait_for_text("Round 1 closed: 32 go on.")

            for round_number, round_name, tables, going_on in ((2, "round 2", 8, 16), (3, "round 3", 4, 4)):
                draw(page, round_name, tables)
                codes = read_every_card(page, tables, tmp_path, pictures, round_number)
                totals = import_results(page, round_number, codes, [LATER_ROUNDS] * tables)
                page.click_button(f"Close round {round_number} and apply the cut")
                page.wait_for_text(f"Round {round_number} closed: {going_on} go on.")
                if round_number == 2:
                    assert tied[0] in totals and tied[1] not in totals, "the roll-off's winner goes on, not its loser"

            draw(page, "final", 1)
            codes = read_every_card(page, 1, tmp_path, pictures, 4)
            totals = import_results(page, 4, codes, [[1050, 550, 0]], round_name="Final")
            champion = next(name for name, total in totals.items() if total == 12_000)
            page.click_button("Crown the champion")
            page.click_button("Final & prize")
            page.wait_for_text(f"Champion: {champion} (number ")
            page.type_into("Currency", "$")
            page.type_into("Prize amount", "400")
            page.click_button("Record the prize")
            page.wait_for_text("Prize: $400")
            print(f"\nthe seed event, 40 players to the prize, took {time.monotonic() - started:.0f} s")
        except Exception:
            page.screenshot(tmp_path / "seed-event-failed.png", ceiling_s=1)
            print(f"screen at the failure: {page.texts()[:60]}\nserver: {server.log_tail()}")
            raise
        finally:
            page.close()
