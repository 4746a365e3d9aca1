"""The room display (/organizer/<id>/display) and the round at a glance on the event page, through
client-less Flet sessions: a display in a second session of the same server follows what the
organizer's session saves (Flet's PubSub), pages by itself, pauses, and keeps the screen on."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from datetime import datetime
from typing import Any

import pytest
from flet.pubsub.pubsub_hub import PubSubHub

import app.views.organizer.display as display_screen
from app.documents.events import players_page_kept
from app.event.organizer import Organizer
from app.main import app_on
from app.storage import MemoryStore
from engine import Tournament
from tests.app.test_organizer import Desk, import_typed, signed_code
from tests.support.flet_harness import FletHarness

WAKE_LOCK = {("Wakelock", "enable"): lambda ui, control, args: None,
             ("Wakelock", "disable"): lambda ui, control, args: None}


async def until(condition: Callable[[], bool], ceiling_s: float, reason: Callable[[], str], *uis: FletHarness) -> None:
    """Let the sessions run until ``condition`` holds, failing with ``reason()`` after ``ceiling_s``."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + ceiling_s
    while not condition():
        if loop.time() > deadline:
            raise AssertionError(reason())
        for ui in uis:
            await ui.settle()
        await asyncio.sleep(0.01)


async def eight_drawn(desk: Desk) -> Tournament:
    """An event of 8 (two tables of 4, the best 4 over all tables go on to the final), round 1 drawn at 14:02."""
    organizer = Organizer(desk.store)
    desk.tournament_id = await organizer.create("Mayor's cup", event_id="MAYOR-26")
    await organizer.act(lambda t: [t.check_in(t.sign_up(f"Player {n}")) for n in range(1, 9)])
    await organizer.act(lambda t: t.draw_seats(11, at=datetime(2026, 5, 2, 14, 2)))
    return organizer.open_tournament


async def turn_to(ui: FletHarness, panel: str) -> None:
    """Press Next until the display shows ``panel`` (it has fewer than 12 pages)."""
    for _ in range(12):
        if ui.exists(f"display-panel-{panel}"):
            return
        await ui.click("display-next")
    raise AssertionError(f"the display has no page {panel!r}: {ui.texts()}")


def test_a_display_in_another_session_shows_an_imported_result_as_its_table_reported() -> None:
    async def test() -> None:
        desk = Desk(MemoryStore())
        t = await eight_drawn(desk)
        hub = PubSubHub(loop=asyncio.get_running_loop())
        app = app_on(desk.store)
        async with FletHarness(app, route=desk.route("display"), width=1920, height=1080, pubsub=hub,
                               services=WAKE_LOCK) as room, \
                FletHarness(app, route=desk.route("results"), pubsub=hub) as organizer:
            await turn_to(room, "tables")
            assert room.text_of("display-table-1") == "Table 1 Playing since 14:02"
            counted = await import_typed(organizer, signed_code(t, 1, (10_050, 7_500, 4_000, 2_000)))
            assert counted.startswith("Round 1, table 1: result counted")
            await until(lambda: room.text_of("display-table-1").startswith("Table 1 Reported at "), 2,
                        lambda: f"the display still shows {room.text_of('display-table-1')!r}", room, organizer)
            assert room.text_of("display-table-2") == "Table 2 Playing since 14:02"
            assert "Waiting for the result of table 2." in room.texts()

    asyncio.run(test())


async def play_round(organizer: Organizer) -> None:
    """Every table of the round drawn last hands in a result with distinct totals, counted."""
    t = organizer.open_tournament
    for table, numbers in enumerate(t.seating(), 1):
        target = t.rules_for().target
        totals = (target + 50 * table,) + tuple(target // 2 - 500 * seat - 50 * table for seat in range(1, len(numbers)))
        await organizer.act(lambda tt, table=table, totals=totals: tt.import_result(signed_code(t, table, totals)))


def test_the_standings_show_the_cut_line_once_every_table_reported_and_the_champion_ends_the_event() -> None:
    async def test() -> None:
        desk = Desk(MemoryStore())
        await eight_drawn(desk)
        organizer = await desk.organizer()
        await play_round(organizer)
        plan = organizer.open_tournament.plan()  # 8 players: the 6 best totals go on to round 2
        line = f"Above the line: the {plan[0].advancing} who go on to {plan[1].name} when the round closes."
        async with FletHarness(app_on(desk.store), route=desk.route("display"), width=1920, height=1080,
                               services=WAKE_LOCK) as room:
            await turn_to(room, "standings-1")
            assert room.text_of("display-cut-line") == line
            going_on = [row.number for row in organizer.open_tournament.room().standings][:plan[0].advancing]
            assert [n for n in range(1, 9) if room.exists(f"display-going-on-{n}")] == sorted(going_on)
            texts = room.texts()
            assert texts.index(line) + 1 == texts.index(f"{plan[0].advancing + 1}.")  # the line, then the first out
        while organizer.open_tournament.champion is None:
            await organizer.act(lambda t: t.close_round())
            if organizer.open_tournament.champion is None:
                await organizer.act(lambda t: t.draw_seats(3))
                await play_round(organizer)
        champion = organizer.open_tournament.champion_name
        async with FletHarness(app_on(desk.store), route=desk.route("display"), width=1920, height=1080,
                               services=WAKE_LOCK) as room:
            assert room.exists("display-panel-champion")
            assert room.text_of("display-champion") == champion

    asyncio.run(test())


def test_the_display_pages_by_itself_until_paused_and_turns_by_the_keys_of_a_clicker(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(display_screen, "PAGE_SECONDS", 0.02)

    async def test() -> None:
        desk = Desk(MemoryStore())
        await eight_drawn(desk)
        async with FletHarness(app_on(desk.store), route=desk.route("display"), width=1280, height=720,
                               services=WAKE_LOCK) as room:
            first = room.text_of("display-page-number")
            await until(lambda: room.text_of("display-page-number") != first, 2,
                        lambda: "the display stayed on its first page", room)
            await room.click("display-pause")
            paused_on = room.text_of("display-page-number")
            assert room.text_of("display-pause") == "Resume paging"
            for _ in range(5):  # five pages' time: still the same page
                await asyncio.sleep(0.02)
                await room.settle()
            assert room.text_of("display-page-number") == paused_on
            await room.click("display-next")
            assert room.text_of("display-page-number") != paused_on
            turned_to = room.text_of("display-page-number")
            await room.press_key("Arrow Left")  # a presenter's clicker, or the keyboard
            assert room.text_of("display-page-number") == paused_on
            await room.press_key("Page Down")
            assert room.text_of("display-page-number") == turned_to

    asyncio.run(test())


def test_a_round_closed_in_another_session_turns_the_display_to_its_standings_and_the_cut() -> None:
    async def test() -> None:
        desk = Desk(MemoryStore())
        await eight_drawn(desk)
        organizer = await desk.organizer()
        await play_round(organizer)
        hub = PubSubHub(loop=asyncio.get_running_loop())
        app = app_on(desk.store)
        async with FletHarness(app, route=desk.route("display"), width=1920, height=1080, pubsub=hub,
                               services=WAKE_LOCK) as room, \
                FletHarness(app, route=desk.route("results"), pubsub=hub) as results:
            await room.click("display-pause")
            await turn_to(room, "latest-1")
            await results.click("close-round")
            await until(lambda: room.exists("display-panel-standings-1"), 2,
                        lambda: f"the display stayed on {room.texts()[:3]}", room, results)
            assert room.text_of("display-cut-line").startswith("Above the line: the 6 who go on to Round 2.")
            assert not room.exists("display-panel-seating-1")  # the round is over: its seating is not shown

    asyncio.run(test())


def test_the_display_keeps_the_screen_on_and_lets_it_go_dark_when_left() -> None:
    async def test() -> None:
        desk = Desk(MemoryStore())
        await eight_drawn(desk)
        async with FletHarness(app_on(desk.store), route=desk.route("display"), width=1920, height=1080,
                               services=WAKE_LOCK) as room:
            assert [name for kind, name, _ in room.method_calls if kind == "Wakelock"] == ["enable"]
            await room.click("organizer-back")
            assert [name for kind, name, _ in room.method_calls if kind == "Wakelock"] == ["enable", "disable"]

    asyncio.run(test())


def test_the_players_qr_on_the_display_opens_the_players_page_of_the_event_unless_it_is_closed() -> None:
    async def test() -> None:
        from app.qr import read_qr_texts
        import base64

        desk = Desk(MemoryStore())
        await eight_drawn(desk)
        async with FletHarness(app_on(desk.store), route=desk.route("display"), width=1920, height=1080,
                               services=WAKE_LOCK) as room:
            await turn_to(room, "players")
            link = room.text_of("display-players-link")
            assert link.endswith("/players/MAYOR-26")
            image: Any = room.find("display-players-qr").src
            png = image if isinstance(image, bytes) else base64.b64decode(image)
            assert read_qr_texts(png) == [link.upper()]  # alphanumeric: a smaller QR, read the same
        organizer = await desk.organizer()
        await organizer.session.keep_beside(**players_page_kept(False))
        async with FletHarness(app_on(desk.store), route=desk.route("display"), width=1920, height=1080,
                               services=WAKE_LOCK) as room:
            for _ in range(12):
                assert not room.exists("display-panel-players") and not room.exists("display-players-qr")
                await room.click("display-next")

    asyncio.run(test())


def test_the_event_page_shows_the_round_at_a_glance_and_follows_another_session() -> None:
    async def test() -> None:
        desk = Desk(MemoryStore())
        t = await eight_drawn(desk)
        hub = PubSubHub(loop=asyncio.get_running_loop())
        app = app_on(desk.store)
        async with FletHarness(app, route=desk.route(), pubsub=hub) as event, \
                FletHarness(app, route=desk.route("results"), pubsub=hub) as organizer:
            assert event.text_of("glance-table-1") == "Table 1: playing since 14:02"
            assert event.text_of("glance-to-close-0") == "Waiting for the results of tables 1, 2."
            await import_typed(organizer, signed_code(t, 2, (10_050, 7_500, 4_000, 2_000)))
            await until(lambda: event.text_of("glance-table-2").startswith("Table 2: reported at "), 2,
                        lambda: f"the event page still shows {event.text_of('glance-table-2')!r}", event, organizer)
            assert event.text_of("glance-to-close-0") == "Waiting for the result of table 1."
            assert event.exists("open-display")

    asyncio.run(test())
