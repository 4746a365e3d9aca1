"""The new-game form through a real Flet session without a browser, and its state without one."""

from __future__ import annotations

import asyncio
import dataclasses
from pathlib import Path
from typing import Any

import flet as ft
import pytest

from app.table.scorekeeper import Scorekeeper
from app.storage import MemoryStore, StorageFullError, Store, StoreWriteError
from app.views.new_game import NAME_LONGEST, NewGameState
from engine import Game, Rules
from tests.support.app_driver import run
from tests.support.flet_harness import FletHarness


def games_in(store: Store) -> list[str]:
    return asyncio.run(store.list_ids("games"))


def game_in(store: Store, game_id: str) -> Game:
    game = asyncio.run(Scorekeeper(store).open_game(game_id))
    assert game is not None
    return game


def started_id(ui: FletHarness) -> str:
    route = str(ui.page.route)
    assert route.startswith("/game/"), route
    return route.removeprefix("/game/")


async def fill_names(ui: FletHarness, *names: str) -> None:
    await ui.click("new-game")
    for _ in range(len(names) - 2):
        await ui.click("add-player")
    for seat, name in enumerate(names, start=1):
        await ui.type_text(f"player-name-{seat}", name)


async def type_and_see_start_refused(ui: FletHarness, field: str, typed: str, message: str) -> None:
    """Type into a field of the form: the summary says ``message``, and so does the form on
    Start, which stays on /new."""
    await ui.type_text(field, typed)
    assert ui.text_of("rules-summary") == message
    await ui.click("start-game")
    assert ui.text_of("new-game-error") == message
    assert ui.page.route == "/new"


def test_bad_rule_settings_are_refused_on_the_form(data_dir: Path) -> None:
    async def test(ui: FletHarness) -> None:
        await ui.click("new-game")
        await ui.type_text("player-name-1", "Ann")
        await ui.type_text("player-name-2", "Ann")
        await ui.click("start-game")
        assert '"Ann" is entered twice' in ui.text_of("new-game-error")
        await ui.type_text("player-name-2", "Bob")
        await ui.type_text("rule-target", "lots")
        await ui.click("start-game")
        assert ui.text_of("new-game-error") == "Target: 'lots' is not a whole number."
        assert not (data_dir / "games").exists() or not list((data_dir / "games").glob("*.json"))

    run(test)


def test_a_game_starts_with_the_players_rules_and_starter_entered() -> None:
    store = MemoryStore()

    async def test(ui: FletHarness) -> str:
        await fill_names(ui, "Ann", "Bob", "Cy")
        await ui.set_value("preset", "progressive", event="select")
        await ui.type_text("rule-target", "5,000")
        await ui.set_value("first-player", "1", event="select")
        await ui.click("start-game")
        return started_id(ui)

    game = game_in(store, run(test, store=store))
    assert game.players == ("Ann", "Bob", "Cy")
    assert game.rules == dataclasses.replace(Rules.preset("progressive"), target=5000)
    assert game.current == 1


def test_the_error_goes_away_once_the_entry_is_changed() -> None:
    async def test(ui: FletHarness) -> None:
        await fill_names(ui, "Ann", "Ann")
        await ui.click("start-game")
        assert ui.exists("new-game-error")
        await ui.type_text("player-name-2", "Bob")
        assert not ui.exists("new-game-error")
        await ui.type_text("rule-target", "lots")
        await ui.click("start-game")
        assert ui.exists("new-game-error")
        await ui.type_text("rule-target", "5000")
        assert not ui.exists("new-game-error")

    run(test, store=MemoryStore())


def test_a_name_longer_than_40_characters_is_cut_with_a_message() -> None:
    store = MemoryStore()
    long_name = "Maximiliana Wolfeschlegelsteinhausen-Bergerdorff"

    async def test(ui: FletHarness) -> str:
        await ui.click("new-game")
        await ui.type_text("player-name-2", "Bob")
        await ui.type_text("player-name-1", long_name)
        assert ui.find("player-name-1", ft.TextField).value == long_name[:NAME_LONGEST]
        assert ui.text_of("new-game-error") == (
            f"A name has at most {NAME_LONGEST} characters: player 1's is cut to {long_name[:NAME_LONGEST]!r}.")
        await ui.click("start-game")
        return started_id(ui)

    assert game_in(store, run(test, store=store)).players == (long_name[:NAME_LONGEST], "Bob")


@pytest.mark.parametrize(
    ("field", "typed", "message"),
    [
        ("rule-target", "²", "Target: '²' is not a whole number."),
        ("rule-target", "١٠٠٠", "Target: '١٠٠٠' is not a whole number."),
        ("rule-target", "-500", "Target: '-500' is not a whole number."),
        ("rule-target", "1e4", "Target: '1e4' is not a whole number."),
        ("rule-target", "", "Target: enter a whole number of 1 to 6 digits."),
        ("rule-target", "5" * 5000, "Target: '55555555555555555...' has 5,000 digits: enter at most 6."),
        ("rule-target", "1234567", "Target: '1234567' has 7 digits: enter at most 6."),
        ("rule-entry_threshold", "⁵⁰⁰", "Points to get on the board: '⁵⁰⁰' is not a whole number."),
        ("rule-straight", "9" * 5000, "Straight: '99999999999999999...' has 5,000 digits: enter at most 6."),
    ],
)
def test_a_number_field_takes_only_one_to_six_ascii_digits_and_nothing_is_saved(field: str, typed: str,
                                                                                 message: str) -> None:
    store = MemoryStore()

    async def test(ui: FletHarness) -> None:
        await fill_names(ui, "Ann", "Bob")
        if field != "rule-target":
            await ui.click("rule-options")
        await type_and_see_start_refused(ui, field, typed, message)

    run(test, store=store)
    assert games_in(store) == []


def test_an_empty_optional_field_turns_that_combination_off() -> None:
    store = MemoryStore()

    async def test(ui: FletHarness) -> str:
        await fill_names(ui, "Ann", "Bob")
        await ui.click("rule-options")
        await ui.type_text("rule-straight", "")
        assert ui.find("preset", ft.Dropdown).value == "custom"
        assert "no straight" in ui.text_of("rules-summary")
        await ui.click("start-game")
        return started_id(ui)

    assert game_in(store, run(test, store=store)).rules.straight is None


def test_a_full_disk_on_start_says_so_and_keeps_the_form(monkeypatch: pytest.MonkeyPatch) -> None:
    store = MemoryStore()

    async def disk_full(*args: Any, **kwargs: Any) -> None:
        raise StorageFullError("The disk is full: could not save games/x")

    async def test(ui: FletHarness) -> None:
        await fill_names(ui, "Ann", "Bob")
        monkeypatch.setattr(store, "save", disk_full)
        await ui.click("start-game")
        assert ui.text_of("new-game-error").startswith(
            "The game was not started: the storage is full (The disk is full: could not save games/x).")
        assert ui.page.route == "/new"
        assert [ui.find(f"player-name-{seat}", ft.TextField).value for seat in (1, 2)] == ["Ann", "Bob"]
        assert not ui.is_disabled("start-game")

    run(test, store=store)
    assert games_in(store) == []


def test_a_failed_write_on_start_says_so_and_keeps_the_form(monkeypatch: pytest.MonkeyPatch) -> None:
    store = MemoryStore()

    async def refused(*args: Any, **kwargs: Any) -> None:
        raise StoreWriteError("Could not save games/x: permission denied")

    async def test(ui: FletHarness) -> None:
        await fill_names(ui, "Ann", "Bob")
        monkeypatch.setattr(store, "save", refused)
        await ui.click("start-game")
        assert ui.text_of("new-game-error") == (
            "The game was not started: it could not be saved (Could not save games/x: permission denied).")
        assert ui.page.route == "/new"

    run(test, store=store)


def test_a_game_saved_whose_recent_names_were_not_still_opens(monkeypatch: pytest.MonkeyPatch) -> None:
    store = MemoryStore()
    save = store.save

    async def settings_refused(collection: str, *args: Any, **kwargs: Any) -> Any:
        if collection == "settings":
            raise StorageFullError("The disk is full: could not save settings/app")
        return await save(collection, *args, **kwargs)

    async def test(ui: FletHarness) -> str:
        await fill_names(ui, "Ann", "Bob")
        monkeypatch.setattr(store, "save", settings_refused)
        await ui.click("start-game")
        return started_id(ui)

    game_id = run(test, store=store)
    assert games_in(store) == [game_id]


def test_a_rematch_starts_with_that_games_players_and_rules() -> None:
    store = MemoryStore()
    rules = dataclasses.replace(Rules.preset("house"), steal=True, target=4000)

    async def first_game() -> str:
        return await Scorekeeper(store).start_game(["Ann", "Bob", "Cy"], rules)

    old_id = asyncio.run(first_game())

    async def test(ui: FletHarness) -> str:
        assert [ui.find(f"player-name-{seat}", ft.TextField).value for seat in (1, 2, 3)] == ["Ann", "Bob", "Cy"]
        assert ui.find("rule-target", ft.TextField).value == "4000"
        assert ui.find("preset", ft.Dropdown).value == "custom"
        assert ui.text_of("rematch-note") == "Rematch of Ann, Bob, Cy: same players and rules."
        await ui.click("start-game")
        return started_id(ui)

    new_id = run(test, route=f"/new/{old_id}", store=store)
    assert new_id != old_id and sorted(games_in(store)) == sorted([old_id, new_id])
    rematch = game_in(store, new_id)
    assert rematch.players == ("Ann", "Bob", "Cy") and rematch.rules == rules


def test_a_rematch_of_a_game_that_is_not_there_says_so_and_offers_an_empty_form() -> None:
    async def test(ui: FletHarness) -> None:
        assert ui.text_of("new-game-error") == (
            "There is no readable game 'gone-123' on this device: enter the players and rules.")
        assert ui.find("player-name-1", ft.TextField).value == ""

    run(test, route="/new/gone-123", store=MemoryStore())


def test_recent_players_are_offered_and_added_with_one_tap() -> None:
    store = MemoryStore()

    async def earlier() -> None:
        await Scorekeeper(store).start_game(["Ann", "Bob"], Rules.preset("house"))

    asyncio.run(earlier())

    async def test(ui: FletHarness) -> None:
        await ui.click("new-game")
        assert [ui.text_of(key) for key in ("recent-0", "recent-1")] == ["+ Ann", "+ Bob"]
        assert {ui.find(key, ft.TextButton).height for key in ("recent-0", "recent-1", "rule-options")} == {48}
        await ui.type_text("player-name-1", "Cy")
        await ui.click("recent-1")  # Bob, into the empty second row
        assert ui.find("player-name-2", ft.TextField).value == "Bob"
        assert ui.text_of("recent-0") == "+ Ann" and not ui.exists("recent-1")
        await ui.click("recent-0")  # Ann, into a new third row
        assert ui.find("player-name-3", ft.TextField).value == "Ann"

    run(test, store=store)


def test_the_form_seats_two_to_eight_players() -> None:
    async def test(ui: FletHarness) -> None:
        await ui.click("new-game")
        assert ui.is_disabled("remove-player-1") and ui.is_disabled("remove-player-2")
        for _ in range(6):
            await ui.click("add-player")
        assert ui.exists("player-name-8") and ui.is_disabled("add-player")
        await ui.click("remove-player-8")
        assert not ui.exists("player-name-8") and not ui.is_disabled("add-player")

    run(test, store=MemoryStore())


def test_who_starts_stays_the_same_person_when_seats_are_moved() -> None:
    store = MemoryStore()

    async def test(ui: FletHarness) -> str:
        await fill_names(ui, "Ann", "Bob", "Cy")
        await ui.set_value("first-player", "2", event="select")  # Cy
        await ui.click("move-up-3")
        assert [ui.find(f"player-name-{seat}", ft.TextField).value for seat in (1, 2, 3)] == ["Ann", "Cy", "Bob"]
        assert ui.find("first-player", ft.Dropdown).value == "1"
        await ui.click("start-game")
        return started_id(ui)

    game = game_in(store, run(test, store=store))
    assert game.players == ("Ann", "Cy", "Bob") and game.players[game.current] == "Cy"


def test_an_option_changed_makes_the_rules_custom_and_is_kept() -> None:
    store = MemoryStore()

    async def test(ui: FletHarness) -> str:
        await fill_names(ui, "Ann", "Bob")
        await ui.click("rule-options")
        await ui.set_value("rule-steal", True)
        await ui.set_value("rule-triple_farkle_penalty", "500", event="select")
        assert ui.find("preset", ft.Dropdown).value == "custom"
        assert ui.text_of("rules-summary").startswith("Custom: ")
        assert "three farkles -500" in ui.text_of("rules-summary")
        await ui.click("start-game")
        return started_id(ui)

    rules = game_in(store, run(test, store=store)).rules
    assert rules.steal and rules.triple_farkle_penalty == 500


def test_choosing_a_preset_keeps_the_target_typed() -> None:
    async def test(ui: FletHarness) -> None:
        await ui.click("new-game")
        await ui.type_text("rule-target", "3000")
        await ui.set_value("preset", "official", event="select")
        assert ui.find("rule-target", ft.TextField).value == "3000"
        assert ui.text_of("rules-summary").startswith("Custom: to 3,000")

    run(test, store=MemoryStore())


def test_every_control_on_the_form_has_a_name() -> None:
    store = MemoryStore()

    async def earlier() -> None:
        await Scorekeeper(store).start_game(["Ann", "Bob"], Rules.preset("house"))

    asyncio.run(earlier())

    async def test(ui: FletHarness) -> None:
        await ui.click("new-game")
        await ui.click("rule-options")
        assert ui.unlabelled_controls() == []

    run(test, store=store)


def test_the_home_button_and_the_lookup_leave_the_form() -> None:
    async def test(ui: FletHarness) -> list[str]:
        await ui.click("new-game")
        await ui.click("new-game-lookup")
        routes = [str(ui.page.route)]
        await ui.navigate("/new")
        await ui.click("home")
        return routes + [str(ui.page.route)]

    assert run(test, store=MemoryStore()) == ["/lookup", "/"]


def test_a_second_tap_on_start_while_the_first_is_saving_starts_no_second_game() -> None:
    store = MemoryStore()
    save = store.save

    async def slow_save(*args: Any, **kwargs: Any) -> Any:
        await asyncio.sleep(0.05)
        return await save(*args, **kwargs)

    async def test(ui: FletHarness) -> None:
        await fill_names(ui, "Ann", "Bob")
        store.save = slow_save  # type: ignore[method-assign]
        await asyncio.gather(*(ui.dispatch("start-game", "click") for _ in range(2)))  # a double tap
        await ui.settle()

    run(test, store=store)
    assert len(games_in(store)) == 1


# -- the form's state without any UI ------------------------------------------------------


def test_the_form_state_turns_the_typed_entries_into_rules_and_a_starter() -> None:
    form = NewGameState(Scorekeeper(MemoryStore()))
    form.players = ["Ann", "  ", "Cy"]
    form.choose_first("2")
    form.set_number("target", "2,500")
    form.set_switch("progressive", True)
    assert form.names() == ["Ann", "Cy"] and form.first_named() == 1
    assert form.rules() == dataclasses.replace(Rules.preset("house"), target=2500, progressive=True)
    form.choose_first("9")
    assert form.first == 2


def test_names_are_kept_in_one_form_and_an_invisible_character_or_a_name_at_the_table_twice_or_alike_is_refused() -> None:
    store = MemoryStore()

    async def refused(ui: FletHarness) -> None:
        await fill_names(ui, "Ann\u200b", "Bob")
        await ui.click("start-game")
        assert "U+200B zero width space" in ui.text_of("new-game-error")
        await ui.type_text("player-name-1", "Ａｎｎ  Lee")
        await ui.type_text("player-name-2", "ann lee")
        await ui.click("start-game")
        assert '"ann lee" is Ann Lee, already at this table' in ui.text_of("new-game-error")
        await ui.type_text("player-name-2", "Ann Le\u0435")  # a Cyrillic e
        await ui.click("start-game")
        assert '"Ann Le\u0435" looks like Ann Lee, already at this table' in ui.text_of("new-game-error")
        await ui.type_text("player-name-2", "Bob")
        await ui.click("start-game")

    run(refused, store=store)
    (game_id,) = games_in(store)
    assert game_in(store, game_id).players == ("Ann Lee", "Bob")
