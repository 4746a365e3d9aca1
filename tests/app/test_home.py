"""Home through a real Flet session without a browser: game lists, deleting, export, theme."""

from __future__ import annotations

import asyncio
import dataclasses
import json
import logging
from pathlib import Path
from typing import Any

import flet as ft
import pytest

from app.table.scorekeeper import Scorekeeper
from app.storage import FileStore, MemoryPrefs, MemoryStore, PrefsStore, StorageFullError, Store
from app.views.home import HomeState
from engine import Game, Rules
from tests.support.app_driver import keep, run, start_game, throw
from tests.support.flet_harness import FletHarness, control_key


async def finish_a_game(ui: FletHarness, *names: str) -> None:
    await start_game(ui, *names, target="1000")
    await throw(ui, "1 1 1 5 2 3")
    await keep(ui, 0, 1, 2, 3)  # 1 1 1 5, in the order typed
    await ui.click("bank")
    await throw(ui, "2 2 3 3 4 6")
    await ui.navigate("/")


def stored_game(store: Store, *names: str, finished: bool = False) -> str:
    """A game written straight through a scorekeeper (won by the first player if ``finished``)."""

    async def write() -> str:
        keeper = Scorekeeper(store)
        game_id = await keeper.start_game(list(names), dataclasses.replace(Rules.preset("house"), target=1000))
        if finished:
            await keeper.act(win_for_the_first_player)
        return game_id

    return asyncio.run(write())


def win_for_the_first_player(game: Game) -> None:
    game.roll("1 1 1 5 2 3")
    game.keep("1 1 1 5")
    game.bank()
    game.roll("2 2 3 3 4 6")
    assert game.winner == 0


def row_keys(ui: FletHarness, prefix: str) -> list[str]:
    return [str(key) for control, _ in ui.walk() if str(key := control_key(control)).startswith(prefix)]


def test_home_lists_unfinished_games_to_resume(data_dir: Path) -> None:
    async def first(ui: FletHarness) -> None:
        await start_game(ui, "Ann", "Bob")

    run(first)

    async def second(ui: FletHarness) -> None:
        assert "Ann 0, Bob 0" in ui.texts()
        (tile,) = row_keys(ui, "game-")
        await ui.click(tile)
        assert ui.page.route == "/" + tile.replace("-", "/", 1)
        assert ui.text_of("turn-line").startswith("Ann's turn")

    run(second)


def test_a_game_row_is_read_as_the_game_it_opens_and_its_delete_button_as_delete() -> None:
    store = MemoryStore()
    game_id = stored_game(store, "Ann", "Bob")

    async def test(ui: FletHarness) -> None:
        row = ui.find(f"game-{game_id}")
        assert ui.accessible_name(row).startswith("Open the game Ann 0, Bob 0 last played ")
        assert ui.accessible_name(ui.find(f"delete-{game_id}")) == "Delete the game Ann 0, Bob 0"
        assert "Delete" not in ui.accessible_name(row)

    run(test, store=store)


def test_every_control_on_home_has_a_name() -> None:
    store = MemoryStore()
    stored_game(store, "Ann", "Bob")

    async def test(ui: FletHarness) -> None:
        assert ui.unlabelled_controls() == []

    run(test, store=store)


def test_the_buttons_lead_to_new_game_lookup_organizer_and_join() -> None:
    async def test(ui: FletHarness) -> list[str]:
        routes = []
        for key in ("new-game", "lookup", "organize", "join-table"):
            await ui.navigate("/")
            await ui.click(key)
            routes.append(str(ui.page.route))
        return routes

    assert run(test, store=MemoryStore(), raise_on_crash=False) == ["/new", "/lookup", "/organizer", "/join"]


def test_an_unreadable_game_file_is_named_and_the_app_still_starts(data_dir: Path) -> None:
    (data_dir / "games").mkdir(parents=True)
    (data_dir / "games" / "broken.json").write_text("{not json")

    async def test(ui: FletHarness) -> None:
        problems = ui.text_of("store-problems")
        assert "broken.json" in problems
        assert ui.exists("new-game")

    run(test)


def test_deleting_finished_games_keeps_the_unfinished_ones(data_dir: Path) -> None:
    async def test(ui: FletHarness) -> None:
        await finish_a_game(ui, "Ann", "Bob")
        await start_game(ui, "Cy", "Di")
        await ui.navigate("/")
        await ui.click("delete-finished")
        await ui.click("confirm-delete-finished")
        assert ui.text_of("home-message") == "Deleted 1 finished game; unfinished games are kept."
        assert "Cy 0, Di 0" in ui.texts() and "No finished game yet." in ui.texts()
        assert ui.is_disabled("delete-finished")
        assert len(list((data_dir / "games").glob("*.json"))) == 1

    run(test)


def test_one_game_is_deleted_only_after_confirming(data_dir: Path) -> None:
    async def test(ui: FletHarness) -> None:
        await start_game(ui, "Ann", "Bob")
        await ui.navigate("/")
        (delete,) = [key for key in row_keys(ui, "delete-") if key != "delete-finished"]
        await ui.click(delete)
        await ui.click("confirm-delete-cancel")
        assert not ui.exists("confirm-delete")
        assert "Ann 0, Bob 0" in ui.texts()
        await ui.click(delete)
        await ui.click("confirm-delete")
        assert not ui.exists("confirm-delete")
        assert ui.text_of("home-message") == "Deleted the game Ann 0, Bob 0."
        assert "None: start a new game." in ui.texts()
        assert not list((data_dir / "games").glob("*.json"))

    run(test)


def test_a_confirmation_dismissed_by_tapping_outside_deletes_nothing() -> None:
    store = MemoryStore()
    game_id = stored_game(store, "Ann", "Bob")

    async def test(ui: FletHarness) -> None:
        await ui.click(f"delete-{game_id}")
        (dialog,) = ui.find_all(ft.AlertDialog)
        await ui.dispatch(dialog, "dismiss")
        assert not ui.exists("confirm-delete")
        assert "Ann 0, Bob 0" in ui.texts()

    run(test, store=store)
    assert asyncio.run(store.list_ids("games")) == [game_id]


def test_every_game_exports_as_one_json_file(data_dir: Path) -> None:
    saved: list[dict[str, Any]] = []

    def save_file(ui: FletHarness, service: Any, args: Any) -> str:
        saved.append(args)
        return "/home/keeper/" + args["file_name"]

    async def test(ui: FletHarness) -> None:
        await finish_a_game(ui, "Ann", "Bob")
        await ui.click("export-games")
        export = json.loads(saved[0]["src_bytes"])
        assert [game["players"] for game in export["games"]] == [["Ann", "Bob"]]
        assert Game.from_events(export["games"][0]["events"]).winner == 0
        assert ui.text_of("home-message").startswith("Every game saved as /home/keeper/farkle-table-games.json")

    run(test, services={("FilePicker", "save_file"): save_file})


def test_an_export_this_device_cannot_save_says_so_home_stays_and_the_log_keeps_why(
        caplog: pytest.LogCaptureFixture) -> None:
    store = MemoryStore()
    stored_game(store, "Ann", "Bob")

    def no_dialog(ui: FletHarness, service: Any, args: Any) -> str:
        raise RuntimeError("no file dialog here")

    async def test(ui: FletHarness) -> None:
        await ui.click("export-games")
        assert ui.text_of("home-message") == "The export could not be saved here (no file dialog here)."
        assert "Ann 0, Bob 0" in ui.texts()

    with caplog.at_level(logging.WARNING, logger="app.views.home"):
        run(test, store=store, services={("FilePicker", "save_file"): no_dialog})
    logged = [record for record in caplog.records if record.name == "app.views.home"]
    assert [record.getMessage() for record in logged] == ["The export could not be saved on this device"]
    assert logged[0].exc_info is not None and "no file dialog here" in str(logged[0].exc_info[1])


def test_a_nearly_full_browser_store_warns_and_offers_export_and_clean_up() -> None:
    store = asyncio.run(PrefsStore.open(MemoryPrefs(), quota_bytes=1_500))

    async def test(ui: FletHarness) -> None:
        for players in (("Ann", "Bob"), ("Cy", "Di"), ("Ed", "Flo")):
            await finish_a_game(ui, *players)
        assert "full: export your games, then delete finished ones" in ui.text_of("store-problems")
        assert ui.text_of("storage-usage").startswith("3 games kept on this device")
        assert "this browser allows" in ui.text_of("storage-usage")
        assert not ui.is_disabled("export-games") and not ui.is_disabled("delete-finished")

    run(test, store=store)


def test_in_server_mode_home_speaks_of_the_apps_data_folder_not_of_this_browser(tmp_path: Path) -> None:
    store = FileStore(tmp_path / "data")
    game_id = stored_game(store, "Ann", "Bob")

    async def test(ui: FletHarness) -> None:
        usage = ui.text_of("storage-usage")
        assert usage.startswith("1 game kept in the app's data folder") and "free on its disk" in usage
        await ui.click(f"delete-{game_id}")
        assert "will be gone from the app's data folder" in " ".join(ui.texts())
        assert not [text for text in ui.texts() if "browser" in text or "this device" in text]

    run(test, store=store)


def test_the_theme_switch_is_remembered_for_the_next_start() -> None:
    store = MemoryStore()

    async def switch(ui: FletHarness) -> None:
        assert ui.page.theme_mode == ft.ThemeMode.LIGHT
        await ui.click("theme")
        assert ui.page.theme_mode == ft.ThemeMode.DARK

    async def reopen(ui: FletHarness) -> Any:
        return ui.page.theme_mode

    run(switch, store=store)
    assert asyncio.run(Scorekeeper(store).settings())["theme"] == "dark"
    assert run(reopen, store=store) == ft.ThemeMode.DARK


def test_a_theme_that_cannot_be_saved_stays_as_it_was_and_says_why(monkeypatch: pytest.MonkeyPatch) -> None:
    store = MemoryStore()

    async def disk_full(*args: Any, **kwargs: Any) -> None:
        raise StorageFullError("The disk is full: could not save settings/app")

    async def test(ui: FletHarness) -> None:
        monkeypatch.setattr(store, "save", disk_full)
        await ui.click("theme")
        assert ui.page.theme_mode == ft.ThemeMode.LIGHT
        assert ui.text_of("home-message") == (
            "The theme was not switched: the storage is full (The disk is full: could not save settings/app). "
            "Export your games and delete finished ones on Home, then switch it again.")

    run(test, store=store)


def test_only_the_fifty_latest_finished_games_are_listed_and_the_rest_counted() -> None:
    store = MemoryStore()
    for number in range(53):
        stored_game(store, f"A{number}", f"B{number}", finished=True)

    async def test(ui: FletHarness) -> None:
        assert len([key for key in row_keys(ui, "game-")]) == 50
        assert "and 3 older finished games (in the export)." in ui.texts()

    run(test, store=store)


def test_home_state_deletes_a_game_only_once_it_is_confirmed_without_any_ui() -> None:
    async def scenario() -> None:
        store = MemoryStore()
        keeper = Scorekeeper(store)
        game_id = await keeper.start_game(["Ann", "Bob"], Rules.preset("house"))
        home = HomeState(keeper)
        await home.load()
        (game,) = home.unfinished
        home.ask_delete(game)
        assert home.confirmation is not None and home.confirmation.game_id == game_id
        home.cancel()
        await home.confirm()  # nothing asked any more: nothing done
        assert await store.list_ids("games") == [game_id]
        home.ask_delete(game)
        await home.confirm()
        assert await store.list_ids("games") == [] and home.games == []
        assert home.done == "Deleted the game Ann 0, Bob 0." and home.refusal is None

    asyncio.run(scenario())
