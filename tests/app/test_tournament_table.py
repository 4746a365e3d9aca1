"""The table's device in a tournament: open the game from a setup code, hand back a result code.

The app runs over a store the test holds too: the test plays the table's game with the
engine through a :class:`Scorekeeper` of its own and saves it, as another screen would.
"""

from __future__ import annotations

import asyncio
import io
import random
from typing import Any

import pytest
from PIL import Image

import flet as ft
from app.qr import qr_image, read_qr_texts, scanner_available
from app.table.scorekeeper import Scorekeeper
from app.storage import MemoryStore
from app.table.tournament_table import result_qr_text, signed_result, table_game_of, tournament_meta
from engine import (
    FarkleError,
    Game,
    Rules,
    Tournament,
    decode_result,
    decode_setup,
    encode_setup,
    read_code,
    safe_form,
    typing_form,
)
from tests.support.app_driver import run
from tests.support.tournament_support import TWO_ROUNDS, event, play_round
from tests.support.flet_harness import FletHarness
from tests.support.game_play import play_game
from tests.app.test_organizer import BACK_CAMERA, FakeClock, camera_frame, camera_services, fake_clock

__all__ = ["fake_clock"]  # the fixture, shared with the organizer's camera tests

ORGANIZER = "http://192.168.1.20:8550"


def final_of_four(link_base: str = ORGANIZER) -> tuple[Tournament, str]:
    """An organizer's event of 4 (so round 1 is the final, with its rules switch) and table 1's setup code."""
    t = Tournament("Mayor's cup", event_id="MAYOR-26", secret=b"mayor-house-2026")
    for name in ("Ann", "Bob", "Cy", "Di"):
        t.check_in(t.sign_up(name))
    t.draw_seats(3)
    return t, t.setup_code(1, link_base)


async def join(ui: FletHarness, text: str) -> None:
    await ui.click("join-table")
    await ui.type_text("setup-code", text)
    await ui.click("read-setup")


def game_id_of(ui: FletHarness) -> str:
    assert ui.page.route.startswith("/game/"), ui.page.route
    return ui.page.route.split("/")[2]


async def stored_games(store: MemoryStore) -> dict[str, dict[str, Any]]:
    return dict(await store.load_all("games"))


def test_a_typed_setup_code_opens_the_tables_game_with_its_players_in_seat_order_and_rules():
    store = MemoryStore()
    t, code = final_of_four()
    names = [t.player(n).name for n in t.seating()[0]]

    async def test(ui: FletHarness) -> None:
        await join(ui, typing_form(code).lower())
        assert "MAYOR-26 · Final · Table 1" in ui.texts()  # the final, as its card and the pages say
        assert not any("Round 1" in text for text in ui.texts())
        assert [f"Seat {s}: {name} (number {n})" for s, (n, name) in
                enumerate(zip(t.seating()[0], names), 1)] == [x for x in ui.texts() if x.startswith("Seat ")]
        assert any(text.startswith("The organizer may switch this table to: " + Rules.preset("progressive").describe()
                                   + ". When told, use Change rules") for text in ui.texts())
        assert ui.unlabelled_controls() == []
        await ui.click("start-tournament-game")
        keeper = Scorekeeper(store)
        game = await keeper.open_game(game_id_of(ui))
        assert game is not None and list(game.players) == names and game.rules == Rules.preset("house")
        assert ui.text_of("turn-line") == f"{names[0]}'s turn · turn total 0 · six dice in hand"
        assert keeper.meta["title"] == "MAYOR-26 · Final · Table 1"
        stored = (await stored_games(store))[game_id_of(ui)]
        assert stored["tournament"]["setup"] == read_code(code) and stored["tournament"]["table"] == 1

    run(test, store=store)


def test_a_damaged_setup_code_is_refused_with_the_reason_and_starts_nothing():
    store = MemoryStore()
    _, code = final_of_four()
    broken = safe_form(code)[:-2].rstrip("-")  # two characters short (never a dangling group separator)

    async def test(ui: FletHarness) -> None:
        await join(ui, broken)
        assert "a character is missing or extra" in ui.text_of("join-refusal") or \
            "does not pass its check" in ui.text_of("join-refusal")
        assert not ui.exists("start-tournament-game")
        await ui.type_text("setup-code", "FR1-ABC")
        await ui.click("read-setup")
        assert ui.text_of("join-refusal") == "This is a table result code, not a table setup code."
        await ui.type_text("setup-code", "  ")
        await ui.click("read-setup")
        assert ui.text_of("join-refusal") == "Type or paste the table's setup code first: it starts with FT1."
        assert await stored_games(store) == {}

    run(test, store=store)


def test_a_join_link_reads_the_code_and_a_second_join_offers_the_game_already_started():
    store = MemoryStore()
    _, code = final_of_four()
    started: list[str] = []

    async def first(ui: FletHarness) -> None:
        assert "MAYOR-26 · Final · Table 1" in ui.texts()
        assert not ui.exists("join-existing")
        await ui.click("start-tournament-game")
        started.append(game_id_of(ui))

    run(first, route="/join/" + safe_form(code), store=store)

    async def again(ui: FletHarness) -> None:
        assert ui.text_of("join-existing") == "This table's game is already on this device."
        await ui.click("open-existing")
        assert game_id_of(ui) == started[0]
        assert list(await stored_games(store)) == started

    run(again, route="/join/" + safe_form(code), store=store)


def test_the_setup_code_can_be_scanned_with_the_camera(fake_clock: FakeClock):
    store = MemoryStore()
    _, code = final_of_four()

    async def test(ui: FletHarness) -> None:
        await ui.click("join-table")
        await ui.click("join-scan-start")
        for _ in range(500):
            if ui.exists("start-tournament-game"):
                break
            await asyncio.sleep(0.01)
            await ui.settle()
        assert "MAYOR-26 · Final · Table 1" in ui.texts()
        assert read_code(ui.find("setup-code", ft.TextField).value or "") == read_code(code)

    run(test, store=store, services=camera_services([BACK_CAMERA], [camera_frame(code)]), scan_timing=fake_clock.timing)


def test_game_over_shows_the_result_qr_and_text_form_and_the_organizer_counts_it():
    store = MemoryStore()
    t, code = final_of_four()

    async def test(ui: FletHarness) -> None:
        await join(ui, code)
        await ui.click("start-tournament-game")
        game_id = game_id_of(ui)
        assert not ui.exists("result-panel")
        table = Scorekeeper(store)  # the same table, played to the end on another screen
        await table.open_game(game_id)
        await table.act(lambda game: play_game(game, random.Random(8)) and None)
        await ui.navigate("/")
        await ui.navigate(f"/game/{game_id}")
        game = table.game
        assert game is not None and game.is_over
        assert not ui.exists("rematch") and ui.exists("confirm-panel") and not ui.exists("result-panel")
        for seat in range(1, 5):
            await ui.click(f"confirm-seat-{seat}")
        assert ui.exists("result-panel") and ui.text_of("result-confirmation") == "Final totals confirmed by 4 of 4"
        typed = ui.text_of("result-code-text")
        image = ui.find("result-qr", ft.Image)
        [scanned] = read_qr_texts(image.src)
        assert scanned.startswith("HTTP://192.168.1.20:8550/IMPORT/FR1-")
        assert read_code(scanned) == read_code(typed)
        assert ui.text_of("result-qr-version") == f"QR version {qr_image(scanned).version}"
        assert qr_image(scanned).version <= 10 and qr_image(scanned).alphanumeric
        assert ui.text_of("result-link").startswith("Link: http://192.168.1.20:8550/import/FR1-")
        assert t.import_result(scanned).status == "accepted"
        assert t.import_result(typed).status == "duplicate"
        assert decode_result(typed).result.totals == tuple(game.scores)
        assert decode_result(typed).result.confirmations == (True, True, True, True)
        await ui.click("copy-result-code")
        assert ui.clipboard == safe_form(typed)

    run(test, store=store)


def test_a_plain_game_shows_no_result_code():
    store = MemoryStore()

    async def test(ui: FletHarness) -> None:
        await ui.click("new-game")
        await ui.type_text("player-name-1", "Ann")
        await ui.type_text("player-name-2", "Bob")
        await ui.click("start-game")
        game_id = game_id_of(ui)
        table = Scorekeeper(store)
        await table.open_game(game_id)
        await table.act(lambda game: play_game(game, random.Random(2)) and None)
        await ui.navigate("/")
        await ui.navigate(f"/game/{game_id}")
        assert ui.exists("rematch") and not ui.exists("result-panel")

    run(test, store=store)


def test_a_tables_result_is_signed_only_once_its_game_is_over_and_names_its_table():
    t, code = final_of_four()
    setup = decode_setup(code)
    meta = tournament_meta(setup, typing_form(code))
    assert meta["title"] == "MAYOR-26 · Final · Table 1" and meta["tournament"]["setup"] == read_code(code)
    game = Game(list(setup.names), setup.rules, 0)
    with pytest.raises(FarkleError, match="not over"):
        signed_result(game, meta["tournament"])
    play_game(game, random.Random(4))
    result = signed_result(game, meta["tournament"])
    assert result.title == "MAYOR-26 · Final · Table 1" and result.link is not None
    assert t.import_result(result.safe).status == "accepted"


@pytest.mark.parametrize(("round_number", "title"), [(1, "MAYOR-26 · Round 1 · Table 1"), (2, "MAYOR-26 · Final · Table 1")])
def test_the_tables_device_names_a_round_before_the_final_by_its_number_and_the_last_the_final(
        round_number: int, title: str):
    t = event(8, TWO_ROUNDS)
    if round_number == 2:
        play_round(t)
    t.draw_seats(seed=round_number)
    setup = decode_setup(t.setup_code(1, ORGANIZER))
    assert tournament_meta(setup, t.setup_code(1, ORGANIZER))["title"] == title
    assert decode_setup(encode_setup(setup)) == setup


def test_the_game_already_started_from_a_setup_code_is_found_in_any_of_its_forms():
    async def test() -> None:
        store = MemoryStore()
        _, code = final_of_four()
        assert await table_game_of(store, code) is None
        setup = decode_setup(code)
        keeper = Scorekeeper(store)
        game_id = await keeper.start_game(list(setup.names), setup.rules, meta=tournament_meta(setup, code))
        assert await table_game_of(store, typing_form(code).lower()) == game_id

    asyncio.run(test())


def test_the_result_qr_holds_a_plain_code_without_an_address_and_an_alphanumeric_link_with_one():
    t, code = final_of_four("")
    assert result_qr_text("FR1:ABC", "") == "FR1:ABC"
    assert result_qr_text("FR1:A B", "http://organizer.local:8550") == "HTTP://ORGANIZER.LOCAL:8550/IMPORT/FR1-A-SB"
    image = qr_image(t.setup_code(1))
    assert image.alphanumeric and image.version <= 10


@pytest.mark.skipif(not scanner_available(), reason="zxing-cpp is not installed here")
def test_a_camera_frame_is_read_and_a_frame_without_a_code_or_no_picture_reads_nothing():
    png = qr_image("FR1:ABC123", box_size=5).png
    frame = Image.new("RGB", (640, 480), "white")
    frame.paste(Image.open(io.BytesIO(png)), (200, 120))
    jpeg = io.BytesIO()
    frame.save(jpeg, "JPEG")
    assert read_qr_texts(jpeg.getvalue()) == ["FR1:ABC123"]
    blank = io.BytesIO()
    Image.new("RGB", (64, 64), "white").save(blank, "JPEG")
    assert read_qr_texts(blank.getvalue()) == []
    assert read_qr_texts(b"not a picture") == []
