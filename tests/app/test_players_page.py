"""The players' page (``/players/<event code>``) as a player's phone opens it: found by name or number,
the seat, totals, place and cut as the event stands, refused when the organizer closed it, and
nothing of any other event."""

from __future__ import annotations

import asyncio
import re
from collections.abc import Awaitable, Callable
from typing import Any

import flet as ft
import pytest
from flet.pubsub.pubsub_hub import PubSubHub

import app.views.organizer.players_page_switch as switch_part
import app.views.players_page as players_page
from app.documents.events import players_page_kept, players_page_open
from app.event.organizer import Organizer
from app.qr import read_qr_texts
from app.routes import parse_route, players_path
from app.storage import MemoryStore
from engine import Tournament, decode_setup, read_code
from app.main import app_on
from tests.app.test_organizer import import_typed, signed_code
from tests.app.test_room_display import until
from tests.support.app_driver import FailingStore, run
from tests.support.flet_harness import FletHarness
from tests.support.tournament_support import TWO_ROUNDS, default_totals, play_round

NAMES = ("Aleksandra Nowak", "Bartholomew Quist", "Cat", "Dmitri", "Esme", "Farid", "Gwen", "Hugo")


class Venue:
    """The organizer's store with one event (MAYOR-26) run through the organizer's own actions."""

    def __init__(self, store: MemoryStore | None = None) -> None:
        self.store = store or MemoryStore()
        self.organizer = Organizer(self.store)
        self.tournament_id = ""

    def setup(self, *steps: Callable[[Tournament], Any]) -> Venue:
        async def seed() -> None:
            self.tournament_id = await self.organizer.create("Mayor House Farkle", event_id="MAYOR-26",
                                                             format=TWO_ROUNDS)
            await self.organizer.act(lambda t: [t.check_in(t.sign_up(name)) for name in NAMES])
            for step in steps:
                await self.organizer.act(step)

        asyncio.run(seed())
        return self

    async def act(self, step: Callable[[Tournament], Any]) -> None:
        assert await self.organizer.open(self.tournament_id) is not None
        await self.organizer.act(step)

    def open(self, test: Callable[[FletHarness], Awaitable[Any]], code: str = "MAYOR-26") -> Any:
        return run(test, players_path(code), store=self.store)

    def open_event_page(self, test: Callable[[FletHarness], Awaitable[Any]]) -> Any:
        """The organizer's own device on the event page (it saved the venue's address for phones)."""
        async def at_the_venue() -> None:
            assert await self.organizer.open(self.tournament_id) is not None
            await self.organizer.set_link_base("http://192.168.1.20:8550")

        asyncio.run(at_the_venue())
        return run(test, f"/organizer/{self.tournament_id}", store=self.store)

    async def page_open(self) -> bool:
        """The switch as stored beside the event (read as another screen would)."""
        reader = Organizer(self.store)
        assert await reader.open(self.tournament_id) is not None
        return players_page_open(reader.session.beside)


async def find(ui: FletHarness, query: str) -> None:
    await ui.type_text("players-query", query)
    await ui.click("players-find")


def seat_of(t: Tournament, number: int) -> tuple[int, int]:
    return next((table, seat) for table, numbers in enumerate(t.seating(), 1)
                for seat, n in enumerate(numbers, 1) if n == number)


def test_a_player_finds_their_table_and_seat_by_part_of_their_name_while_the_round_is_played() -> None:
    venue = Venue().setup(lambda t: t.draw_seats(seed=3))
    t = venue.organizer.open_tournament
    table, seat = seat_of(t, 1)

    async def test(ui: FletHarness) -> None:
        assert ui.text_of("players-event") == "Mayor House Farkle · MAYOR-26"
        assert ui.text_of("players-stage") == "Round 1 is being played: 0 of 2 tables have a result."
        await find(ui, "aleks")
        assert ui.text_of("players-name-1") == "Aleksandra Nowak · number 1"
        assert ui.text_of("players-seat-1") == f"Round 1: table {table}, seat {seat}"
        assert ui.text_of("players-place-1").startswith("Place ")
        assert ui.text_of("players-table-1") == "At the table: " + ", ".join(
            f"{place}. {NAMES[n - 1]}" for place, n in enumerate(t.seating()[table - 1], 1))
        assert ui.text_of("players-table-state-1").startswith(f"Table {table}: playing")
        assert ui.text_of("players-cut-1") == "The cut: places 1 to 2 of each table go on."
        assert not ui.exists("players-totals-1") and not ui.exists("players-going-on-1")
        assert ui.unlabelled_controls() == []

    venue.open(test)


@pytest.mark.parametrize("query, number", [("2", 2), ("#8", 8), ("  HUGO ", 8), ("quist", 2)])
def test_a_player_is_found_by_number_or_by_name_in_any_case(query: str, number: int) -> None:
    venue = Venue().setup(lambda t: t.draw_seats(seed=3))

    async def test(ui: FletHarness) -> None:
        await find(ui, query)
        assert ui.text_of(f"players-name-{number}") == f"{NAMES[number - 1]} · number {number}"
        assert [key for key in (f"players-name-{n}" for n in range(1, 9)) if ui.exists(key)] == [
            f"players-name-{number}"]

    venue.open(test)


@pytest.mark.parametrize("query, says", [
    ("Zoltan", "No player matches Zoltan. Type your name as you gave it at sign-up, or your number."),
    ("99", "No player matches 99. Type your name as you gave it at sign-up, or your number."),
    ("   ", "Type your name or your number."),
    ("Zoltan" * 10_000, f"No player matches {('Zoltan' * 7)[:40]}. Type your name as you gave it at sign-up, or "
                        "your number."),
])
def test_a_search_that_finds_nobody_says_what_to_type(query: str, says: str) -> None:
    venue = Venue().setup()

    async def test(ui: FletHarness) -> None:
        await find(ui, query)
        assert ui.text_of("players-none") == says

    venue.open(test)


def test_before_the_draw_the_page_says_the_seats_are_not_drawn_yet() -> None:
    venue = Venue().setup()

    async def test(ui: FletHarness) -> None:
        assert ui.text_of("players-stage") == "Seats are not drawn yet: 8 players signed up."
        await find(ui, "Cat")
        assert ui.text_of("players-seat-3") == "Not seated yet: the seats are drawn when the round starts."
        assert ui.text_of("players-place-3") == "Place 1 of 8 · Checked in"
        assert not ui.exists("players-cut-3")

    venue.open(test)


def test_after_round_one_each_player_sees_their_total_place_and_whether_they_made_the_cut() -> None:
    venue = Venue().setup(play_round)
    t = venue.organizer.open_tournament
    advancing = set(t.round_advancing(1) or ())
    rows = {row.number: row for row in t.standings()}

    async def test(ui: FletHarness) -> None:
        assert ui.text_of("players-stage") == "Round 1 is over: the next seats are drawn soon."
        for number in (1, 5):
            await find(ui, str(number))
            assert ui.text_of(f"players-totals-{number}") == f"Round 1: {rows[number].totals[0]:,}"
            status = "Through to the final" if number in advancing else "Out in round 1"
            assert ui.text_of(f"players-place-{number}") == f"Place {rows[number].rank} of 8 · {status}"
            assert ui.text_of(f"players-cut-{number}") == "The cut: places 1 to 2 of each table go on."

    venue.open(test)


def every_table_reported(t: Tournament) -> None:
    """Round 1 drawn and every table's result counted: the cut is known, the round not yet closed."""
    t.draw_seats(seed=3)
    for table, numbers in enumerate(t.seating(), 1):
        t.record_result(table, default_totals(numbers), reason="paper score sheet")


def test_once_every_table_reported_a_player_above_the_line_is_told_before_the_round_closes() -> None:
    venue = Venue().setup(every_table_reported)
    winner, *others = venue.organizer.open_tournament.seating()[0]
    last = min(others)  # default totals: the lowest number of the other seats comes last

    async def test(ui: FletHarness) -> None:
        await find(ui, str(winner))
        assert ui.text_of(f"players-going-on-{winner}") == (
            "You are above the line. Above the line: the 4 who go on to the final when the round closes.")
        assert re.fullmatch(rf"Table 1: reported at \d\d:\d\d: 1\. {NAMES[winner - 1]} {10_000 + 50 * winner:,}, 2\. .*",
                            ui.text_of(f"players-table-state-{winner}"))
        await find(ui, str(last))
        assert ui.exists(f"players-place-{last}") and not ui.exists(f"players-going-on-{last}")

    venue.open(test)


def tied_for_second(t: Tournament) -> None:
    """Round 1 with table 1's second and third place tied: a roll-off before the cut."""
    t.draw_seats(seed=3)
    first, second, third = t.seating()[0][:3]
    totals = default_totals(t.seating()[0])
    totals[1] = totals[2] = 6_000
    t.record_result(1, totals, reason="paper score sheet")
    t.record_result(2, default_totals(t.seating()[1]), reason="paper score sheet")


def test_a_player_tied_at_the_cut_sees_the_roll_off_to_come_and_the_others_at_the_table_do_not() -> None:
    venue = Venue().setup(tied_for_second)
    t = venue.organizer.open_tournament
    tie = t.pending_roll_offs()[0]
    table = t.seating()[0]

    async def test(ui: FletHarness) -> None:
        for number in table:
            await find(ui, str(number))
            if number in tie.numbers:
                assert ui.text_of(f"players-roll-off-{number}") == (
                    f"Roll-off to come: {tie.players} are tied on 6,000 for places 2 to 3; each throws one die at "
                    "the organizer's table.")
            else:
                assert not ui.exists(f"players-roll-off-{number}")

    venue.open(test)


def test_at_the_end_the_page_names_the_champion_and_each_player_their_rounds() -> None:
    venue = Venue().setup(play_round, play_round)
    t = venue.organizer.open_tournament
    champion = t.champion
    assert champion is not None

    async def test(ui: FletHarness) -> None:
        assert ui.text_of("players-stage") == f"Champion: {NAMES[champion - 1]} (number {champion})"
        await find(ui, str(champion))
        assert ui.text_of(f"players-place-{champion}") == "Place 1 of 8 · Champion"
        assert ui.text_of(f"players-totals-{champion}").startswith("Round 1: ")
        assert " · Final: " in ui.text_of(f"players-totals-{champion}")

    venue.open(test)


def test_a_result_the_organizer_counts_shows_on_an_open_players_page_without_a_tap() -> None:
    venue = Venue().setup(lambda t: t.draw_seats(seed=3))
    t = venue.organizer.open_tournament
    number = t.seating()[0][0]

    async def test() -> None:
        hub = PubSubHub(loop=asyncio.get_running_loop())
        app = app_on(venue.store)
        async with FletHarness(app, route=players_path("MAYOR-26"), pubsub=hub) as phone, \
                FletHarness(app, route=f"/organizer/{venue.tournament_id}/results", pubsub=hub) as organizer:
            await find(phone, str(number))
            assert not phone.exists(f"players-totals-{number}")
            counted = await import_typed(organizer, signed_code(t, 1, (10_050, 7_500, 4_000, 2_000)))
            assert counted.startswith("Round 1, table 1: result counted")
            await until(lambda: phone.exists(f"players-totals-{number}"), 2,
                        lambda: f"the players' page still shows {phone.texts()}", phone, organizer)
            assert phone.text_of(f"players-totals-{number}") == "Round 1: 10,050"
            assert phone.text_of("players-stage") == "Round 1 is being played: 1 of 2 tables have a result."

    asyncio.run(test())


def test_a_result_counted_elsewhere_shows_at_the_next_search() -> None:
    venue = Venue().setup(lambda t: t.draw_seats(seed=3))
    number = venue.organizer.open_tournament.seating()[0][0]

    async def test(ui: FletHarness) -> None:
        await find(ui, str(number))
        assert not ui.exists(f"players-totals-{number}")
        await venue.act(lambda t: t.record_result(1, default_totals(t.seating()[0]), reason="paper score sheet"))
        await ui.click("players-find")
        assert ui.text_of(f"players-totals-{number}") == f"Round 1: {10_000 + 50 * number:,}"

    venue.open(test)


def test_an_unknown_code_is_named_back_and_nothing_of_the_events_here_is_shown() -> None:
    venue = Venue().setup(lambda t: t.draw_seats(seed=3))

    async def test(ui: FletHarness) -> None:
        assert ui.text_of("players-refused") == (
            "No event here has the code MAYOR-27. Check the code on the QR or the wall print.")
        assert not ui.exists("players-query")
        assert not any("Mayor" in text or "Aleksandra" in text for text in ui.texts())

    venue.open(test, code="MAYOR-27")


def test_a_page_the_organizer_closed_is_refused_and_opens_again_when_switched_back_on() -> None:
    venue = Venue().setup(lambda t: t.draw_seats(seed=3))

    async def closed(ui: FletHarness) -> None:
        assert ui.text_of("players-refused") == "The organizer has closed the players' page for this event."
        assert not any("Aleksandra" in text or "Mayor" in text for text in ui.texts())

    async def opened(ui: FletHarness) -> None:
        await find(ui, "Aleksandra")
        assert ui.exists("players-seat-1")

    asyncio.run(venue.organizer.session.keep_beside(**players_page_kept(False)))
    venue.open(closed)
    asyncio.run(venue.organizer.session.keep_beside(**players_page_kept(True)))
    venue.open(opened)


def test_a_page_closed_while_a_player_has_it_open_refuses_their_next_search() -> None:
    venue = Venue().setup(lambda t: t.draw_seats(seed=3))

    async def test(ui: FletHarness) -> None:
        await find(ui, "Aleksandra")
        assert ui.exists("players-seat-1")
        await venue.organizer.session.keep_beside(**players_page_kept(False))
        await ui.click("players-find")
        assert ui.text_of("players-refused") == "The organizer has closed the players' page for this event."
        assert not ui.exists("players-seat-1")

    venue.open(test)


def test_a_page_open_on_a_phone_closes_and_opens_again_without_a_tap_when_the_organizer_switches_it() -> None:
    venue = Venue().setup(lambda t: t.draw_seats(seed=3))

    async def test() -> None:
        hub = PubSubHub(loop=asyncio.get_running_loop())
        app = app_on(venue.store)
        async with FletHarness(app, route=players_path("MAYOR-26"), pubsub=hub) as phone, \
                FletHarness(app, route=f"/organizer/{venue.tournament_id}", pubsub=hub) as organizer:
            await find(phone, "Aleksandra")
            assert phone.exists("players-seat-1")
            await organizer.set_value("players-page-switch", False)
            await until(lambda: phone.exists("players-refused"), 2,
                        lambda: f"the players' page still shows {phone.texts()}", phone, organizer)
            assert phone.text_of("players-refused") == "The organizer has closed the players' page for this event."
            assert not phone.exists("players-seat-1") and not any("Aleksandra" in text for text in phone.texts())
            await organizer.set_value("players-page-switch", True)
            await until(lambda: phone.exists("players-query"), 2,
                        lambda: f"the players' page still shows {phone.texts()}", phone, organizer)
            assert not phone.exists("players-refused")

    asyncio.run(test())


def test_the_page_shows_no_setup_code_or_key_of_any_table() -> None:
    venue = Venue().setup(lambda t: t.draw_seats(seed=3))
    t = venue.organizer.open_tournament
    secrets = [part for table in (1, 2) for part in (read_code(t.setup_code(table)),
                                                   decode_setup(t.setup_code(table)).key.hex())]

    async def test(ui: FletHarness) -> None:
        for query in ("a", "1", "Hugo"):
            await find(ui, query)
        sent = repr(ui.messages)
        assert "Hugo" in sent  # what the page was sent is read: the check below can fail
        assert [secret[:12] for secret in secrets if secret in sent or secret[:16] in sent] == []
        assert ui.exists("players-seat-8")

    venue.open(test)


def test_the_offline_app_says_the_players_page_needs_the_venue_server(monkeypatch: pytest.MonkeyPatch) -> None:
    venue = Venue().setup(lambda t: t.draw_seats(seed=3))
    monkeypatch.setattr(players_page, "in_browser", lambda: True)

    async def test(ui: FletHarness) -> None:
        assert ui.text_of("players-refused").startswith("The players' page comes from the organizer's laptop")
        assert not ui.exists("players-query")

    venue.open(test)


def test_the_organizer_shows_the_players_page_qr_and_it_opens_the_events_page_at_the_venue_address() -> None:
    venue = Venue().setup(lambda t: t.draw_seats(seed=3))

    async def test(ui: FletHarness) -> None:
        assert ui.find("players-page-switch", ft.Switch).value is True
        assert ui.text_of("players-page-link") == "Link: http://192.168.1.20:8550/players/MAYOR-26"
        [scanned] = read_qr_texts(ui.find("players-page-qr", ft.Image).src)
        assert scanned == "HTTP://192.168.1.20:8550/PLAYERS/MAYOR-26"
        opened = parse_route(scanned.split("8550", 1)[1])
        assert (opened.screen, opened.payload) == ("players", "MAYOR-26")
        assert ui.accessible_name(ui.find("players-page-qr")) == "Players' page QR code"

    venue.open_event_page(test)


def test_the_organizer_closes_the_players_page_with_one_switch_kept_before_it_says_so_and_opens_it_again() -> None:
    venue = Venue().setup(lambda t: t.draw_seats(seed=3))

    async def test(ui: FletHarness) -> None:
        await ui.set_value("players-page-switch", False)
        assert ui.text_of("organizer-notice") == "Players' page off: phones that open its link are told it is closed."
        assert not await venue.page_open()
        assert ui.find("players-page-switch", ft.Switch).label == "Players' page: off"
        assert not ui.exists("players-page-qr") and ui.exists("players-page-closed")
        await ui.set_value("players-page-switch", True)
        assert ui.text_of("organizer-notice") == (
            "Players' page on: phones that open its link or QR see their seat and place.")
        assert await venue.page_open() and ui.exists("players-page-qr")

    venue.open_event_page(test)


def test_a_switch_the_store_cannot_keep_is_refused_and_the_page_stays_open() -> None:
    store = FailingStore()
    venue = Venue(store).setup(lambda t: t.draw_seats(seed=3))

    async def test(ui: FletHarness) -> None:
        store.fail = True
        await ui.set_value("players-page-switch", False)
        assert "disk unplugged" in ui.text_of("organizer-notice")
        store.fail = False
        assert await venue.page_open()
        assert ui.find("players-page-switch", ft.Switch).label == "Players' page: on"
        assert ui.find("players-page-switch", ft.Switch).value is True

    venue.open_event_page(test)


def test_the_offline_app_offers_no_players_page_and_says_why(monkeypatch: pytest.MonkeyPatch) -> None:
    venue = Venue().setup(lambda t: t.draw_seats(seed=3))
    monkeypatch.setattr(switch_part, "in_browser", lambda: True)

    async def test(ui: FletHarness) -> None:
        assert ui.text_of("players-page-offline").startswith("Players can look up their seat and place on their own "
                                                             "phones when the event runs on a laptop at the venue")
        assert not ui.exists("players-page-switch") and not ui.exists("players-page-qr")

    venue.open_event_page(test)
