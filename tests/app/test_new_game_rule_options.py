"""The New game screen offers the minimum bank, the lowest total and the end rule
(engine/RULES.md §2.4, §3.4, §3.2): typed, refused in words, started, and kept by a rematch."""

from __future__ import annotations

import asyncio
import dataclasses
from pathlib import Path
from typing import Any

import flet as ft
import pytest

from app.table.scorekeeper import Scorekeeper
from app.storage import FileStore, MemoryStore
from engine import Game
from tests.support.app_driver import run
from tests.support.flet_harness import FletHarness
from tests.app.test_new_game import fill_names, game_in, games_in, started_id, type_and_see_start_refused
from tests.engine.test_rule_options import FACEBOOK


async def options_for(ui: FletHarness, *names: str) -> None:
    """The form with these players and the rule options open."""
    await fill_names(ui, *names)
    await ui.click("rule-options")


def test_facebook_farkle_is_set_on_the_form_started_and_stored() -> None:
    store = MemoryStore()

    async def test(ui: FletHarness) -> str:
        await ui.click("new-game")
        await ui.type_text("player-name-1", "Ann")
        await ui.type_text("player-name-2", "Bob")
        await ui.set_value("preset", "official", event="select")
        await ui.click("rule-options")
        await ui.type_text("rule-straight", "1500")
        await ui.set_value("rule-n_of_a_kind", "multiply", event="select")
        await ui.set_value("rule-triple_farkle_penalty", "500", event="select")
        await ui.type_text("rule-minimum_bank", "300")
        await ui.type_text("rule-lowest_total", "-2,500")
        await ui.set_value("rule-end_rule", "first_to_target", event="select")
        summary = ui.text_of("rules-summary")
        assert summary.startswith("Custom: first to bank 10,000 wins, no final round")
        assert summary.endswith("banks of at least 300, three farkles -500, totals may go down to -2,500")
        await ui.click("start-game")
        return started_id(ui)

    assert game_in(store, run(test, store=store)).rules == FACEBOOK


@pytest.mark.parametrize(
    ("field", "typed", "message"),
    [
        ("rule-minimum_bank", "", "Minimum bank once on the board: enter a whole number of 1 to 6 digits."),
        ("rule-minimum_bank", "-300", "Minimum bank once on the board: '-300' is not a whole number."),
        ("rule-minimum_bank", "20000", "The minimum bank 20,000 is above the target 10,000: lower it, or raise the target."),
        ("rule-minimum_bank", "600", "The entry threshold 500 is below the minimum bank 600: getting on the board "
                                     "would take less than any later bank. Raise it, or set it to 0."),
        ("rule-lowest_total", "-2500", "Only the three-farkle penalty takes a total below 0: set a penalty, "
                                       "or keep the lowest total at 0."),
        ("rule-lowest_total", "", "Only the three-farkle penalty takes a total below 0: set a penalty, "
                                  "or keep the lowest total at 0."),
        ("rule-lowest_total", "-2.5k", "Lowest total below 0: '2.5k' is not a whole number."),
        ("rule-lowest_total", "--500", "Lowest total below 0: '-500' is not a whole number."),
        ("rule-lowest_total", "low", "Lowest total: 'low' is not a whole number."),
    ],
)
def test_a_bad_option_is_refused_in_words_and_nothing_is_started(field: str, typed: str, message: str) -> None:
    store = MemoryStore()

    async def test(ui: FletHarness) -> None:
        await options_for(ui, "Ann", "Bob")
        await type_and_see_start_refused(ui, field, typed, message)

    run(test, store=store)
    assert games_in(store) == []


def test_a_positive_lowest_total_is_refused_saying_it_must_be_0_or_below() -> None:
    async def test(ui: FletHarness) -> None:
        await options_for(ui, "Ann", "Bob")
        await ui.set_value("rule-triple_farkle_penalty", "500", event="select")
        await ui.type_text("rule-lowest_total", "2500")
        assert ui.text_of("rules-summary") == (
            "The lowest total must be 0 or below (how far a penalty may take a total), not 2,500.")

    run(test, store=MemoryStore())


@pytest.mark.parametrize(
    ("typed", "lowest"), [("0", 0), ("-1,000", -1000), ("\N{MINUS SIGN}2500", -2500), ("", None)]
)
def test_the_lowest_total_is_read_as_typed(typed: str, lowest: int | None) -> None:
    async def test(ui: FletHarness) -> str:
        await options_for(ui, "Ann", "Bob")
        await ui.set_value("rule-triple_farkle_penalty", "1000", event="select")
        await ui.type_text("rule-lowest_total", typed)
        await ui.click("start-game")
        return started_id(ui)

    store = MemoryStore()
    assert game_in(store, run(test, store=store)).rules.lowest_total == lowest


def test_a_rematch_keeps_the_three_options() -> None:
    store = MemoryStore()
    rules = dataclasses.replace(FACEBOOK, lowest_total=None, minimum_bank=350)
    old_id = asyncio.run(Scorekeeper(store).start_game(["Ann", "Bob"], rules))

    async def test(ui: FletHarness) -> str:
        await ui.click("rule-options")
        assert ui.find("rule-minimum_bank", ft.TextField).value == "350"
        assert ui.find("rule-lowest_total", ft.TextField).value == ""
        assert ui.find("rule-end_rule", ft.Dropdown).value == "first_to_target"
        await ui.click("start-game")
        return started_id(ui)

    assert game_in(store, run(test, route=f"/new/{old_id}", store=store)).rules == rules


def test_choosing_a_preset_puts_the_options_back_to_the_presets() -> None:
    async def test(ui: FletHarness) -> None:
        await options_for(ui, "Ann", "Bob")
        await ui.type_text("rule-minimum_bank", "300")
        await ui.set_value("rule-end_rule", "first_to_target", event="select")
        await ui.set_value("preset", "official", event="select")
        assert ui.find("rule-minimum_bank", ft.TextField).value == "0"
        assert ui.find("rule-end_rule", ft.Dropdown).value == "final_round"
        assert ui.text_of("rules-summary").startswith("Official: to 10,000")

    run(test, store=MemoryStore())


def test_a_game_under_the_options_is_saved_in_the_data_folder_reopened_and_played_to_its_end(tmp_path: Path) -> None:
    folder = tmp_path / "data"

    async def play() -> tuple[str | None, Game | None, dict[str, Any] | None]:
        first = FileStore(folder)
        keeper = Scorekeeper(first)
        game_id = await keeper.start_game(["Ann", "Bob"], dataclasses.replace(FACEBOOK, target=1000))
        for action in (lambda game: game.roll("2 2 3 3 4 6"), lambda game: game.roll("1 2 3 4 6 6"),
                       lambda game: game.keep("1")):
            await keeper.act(action)
        refused = keeper.game.bank_refusal() if keeper.game else None
        for action in (lambda game: game.roll("2 3 4 6 6"), lambda game: game.roll("1 1 1 2 3 4"),
                       lambda game: game.keep("1 1 1")):
            await keeper.act(action)
        first.close()
        second = FileStore(folder)
        reopened = Scorekeeper(second)
        assert await reopened.open_game(game_id) is not None
        await reopened.act(lambda game: game.bank())
        second.close()
        store = FileStore(folder)
        try:
            return refused, await Scorekeeper(store).open_game(game_id), await store.load("games", game_id)
        finally:
            store.close()

    refused, game, stored = asyncio.run(play())
    assert refused == "Bob is on the board: a bank needs at least 300; this turn has 100. Throw on."
    assert game is not None and stored is not None
    assert game.is_over and game.winner == 0 and game.scores == (1000, 0) and not game.final_round
    assert stored["rules"]["end_rule"] == "first_to_target" and stored["finished"] and stored["winner"] == "Ann"
