"""Points only at the table: "Ann banks ___" with Bank and Farkle, each bank checked by the
engine and stored before the screen shows it, and a switch to dice and back at a turn's start."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from app.storage import MemoryStore
from app.table.scorekeeper import Scorekeeper
from engine import Game, Rules
from tests.support.app_driver import run, saved_events, start_game
from tests.support.flet_harness import FletHarness


def stored_points_game(rules: Rules, *, meta: dict[str, object] | None = None) -> tuple[MemoryStore, str]:
    """Ann and Bob's game in points only, kept in a store the test reads."""
    store = MemoryStore()
    game_id = asyncio.run(Scorekeeper(store).start_game(["Ann", "Bob"], rules, meta=meta, points_only=True))
    return store, game_id


async def stored_game(store: MemoryStore, game_id: str) -> Game:
    document = await store.load("games", game_id)
    assert document is not None
    return Game.from_events(document["events"])


async def bank(ui: FletHarness, points: str) -> None:
    await ui.type_text("points-field", points)
    await ui.click("bank-points")


def test_new_game_offers_points_only_off_by_default_and_a_points_game_asks_for_the_bank(data_dir: Path) -> None:
    async def test(ui: FletHarness) -> None:
        await ui.click("new-game")
        assert ui.find("points-only").value is False
        await ui.set_value("points-only", True)
        await start_game_named(ui)
        assert ui.text_of("points-who") == "Ann banks"
        assert not ui.exists("face-1") and not ui.exists("turn-card")
        await bank(ui, "1,050")
        assert "Ann banks 1,050: total 1,050." in ui.texts()
        assert ui.text_of("points-who") == "Bob banks" and ui.find("points-field").value == ""

    run(test)
    started, banked = saved_events(data_dir)
    assert started["points_only"] is True and banked == {"type": "points_banked", "points": 1050}


async def start_game_named(ui: FletHarness) -> None:
    await ui.type_text("player-name-1", "Ann")
    await ui.type_text("player-name-2", "Bob")
    await ui.click("start-game")


def test_a_die_by_die_game_starts_as_before(data_dir: Path) -> None:
    async def test(ui: FletHarness) -> None:
        await start_game(ui, "Ann", "Bob")
        assert ui.exists("face-1") and ui.exists("enter-points") and not ui.exists("points-entry")

    run(test)
    (started,) = saved_events(data_dir)
    assert "points_only" not in started


@pytest.mark.parametrize(
    ("typed", "said"),
    [
        ("", "Type the points Ann banked, or tap Farkle."),
        ("325", "325 cannot be banked under these rules: every score is a multiple of 50 (300 or 350?)."),
        ("300", "Ann needs 500 in one turn to get on the board: 300 is not enough "
                "(a turn stopped short of it scores nothing: enter a farkle)."),
        ("0", "0 cannot be banked: a bank is more than 0. If Ann scored nothing, enter a farkle."),
        ("3x0", "Ann's bank: '3x0' is not a whole number."),
        ("12345678", "Ann's bank: '12345678' has 8 digits: enter at most 7."),
    ],
)
def test_a_bank_the_rules_refuse_says_why_and_stores_nothing(typed: str, said: str) -> None:
    store, game_id = stored_points_game(Rules.preset("house"))

    async def test(ui: FletHarness) -> None:
        before = await store.load("games", game_id)
        await bank(ui, typed)
        assert ui.text_of("refusal") == said
        assert await store.load("games", game_id) == before

    run(test, route=f"/game/{game_id}", store=store)


def test_chips_add_up_a_bank_and_farkle_counts_toward_the_streak() -> None:
    store, game_id = stored_points_game(Rules.preset("official"))

    async def test(ui: FletHarness) -> None:
        for chip in ("add-500", "add-100", "add-50"):
            await ui.click(chip)
        assert ui.find("points-field").value == "650"
        await ui.click("bank-points")
        await ui.click("farkle-points")
        assert "Farkle for Bob." in ui.texts()
        assert ui.text_of("points-who") == "Ann banks"
        game = await stored_game(store, game_id)
        assert game.scores == (650, 0) and game.farkle_streak == (0, 1)

    run(test, route=f"/game/{game_id}", store=store)


def test_progressive_passing_asks_for_the_dice_passed_and_the_next_player_builds() -> None:
    store, game_id = stored_points_game(Rules.preset("progressive"))

    async def test(ui: FletHarness) -> None:
        await ui.set_value("points-passed", "2", event="select")
        await bank(ui, "600")
        assert ui.exists("offer") and ui.unlabelled_controls() == []
        await ui.click("build")
        assert "Bob builds on 600: enter the whole bank, more than 600." in ui.texts()
        await bank(ui, "750")
        game = await stored_game(store, game_id)
        assert game.scores == (600, 750) and game.history[-1].built_on is not None

    run(test, route=f"/game/{game_id}", store=store)


def test_the_table_switches_to_dice_at_a_turn_start_and_back_and_undo_takes_the_switch_back() -> None:
    store, game_id = stored_points_game(Rules.preset("house"))

    async def test(ui: FletHarness) -> None:
        await bank(ui, "500")
        await ui.click("enter-dice")
        assert ui.exists("face-1") and not ui.exists("points-entry")
        assert "From Bob's turn on, turns are entered die by die." in ui.texts()
        await ui.click("undo")
        assert ui.text_of("undone") == "Undone: the switch to entering dice"
        assert ui.text_of("points-who") == "Bob banks"
        await ui.click("redo")
        await ui.click("enter-points")
        assert ui.text_of("points-who") == "Bob banks"
        game = await stored_game(store, game_id)
        assert game.points_only and [event["type"] for event in game.events][-2:] == ["entry_switched"] * 2

    run(test, route=f"/game/{game_id}", store=store)


def test_a_tournament_table_offers_no_points_only() -> None:
    store = MemoryStore()
    game_id = asyncio.run(Scorekeeper(store).start_game(["Ann", "Bob"], Rules.preset("house"),
                                                        meta={"tournament": {"event": "CUP-1", "round": 1, "table": 1}}))

    async def test(ui: FletHarness) -> None:
        assert ui.exists("face-1") and not ui.exists("enter-points")

    run(test, route=f"/game/{game_id}", store=store)


def test_the_keys_of_the_points_field_do_not_enter_dice() -> None:
    store, game_id = stored_points_game(Rules.preset("house"))

    async def test(ui: FletHarness) -> None:
        before = await store.load("games", game_id)
        for key in ("5", "B", "Enter"):
            await ui.press_key(key)
        assert not ui.exists("refusal") and await store.load("games", game_id) == before

    run(test, route=f"/game/{game_id}", store=store)


def test_the_history_of_a_points_only_game_says_its_turns_were_entered_as_points() -> None:
    store, game_id = stored_points_game(Rules.preset("house"))

    async def play() -> None:
        keeper = Scorekeeper(store)
        await keeper.open_game(game_id)
        await keeper.act(lambda game: game.bank_points(600))
        await keeper.act(lambda game: game.farkle())

    asyncio.run(play())

    async def test(ui: FletHarness) -> None:
        texts = ui.texts()
        assert "1. Ann: banked 600 · total 600" in texts and "2. Bob: farkled · total 0" in texts
        assert texts.count("entered as points, throws not checked") == 2

    run(test, route=f"/game/{game_id}/history", store=store)


def test_the_figures_of_a_points_only_game_show_no_hot_dice_they_cannot_know() -> None:
    store, game_id = stored_points_game(Rules.preset("house"))

    async def play() -> None:
        keeper = Scorekeeper(store)
        await keeper.open_game(game_id)
        await keeper.act(lambda game: game.bank_points(600))

    asyncio.run(play())

    async def test(ui: FletHarness) -> None:
        assert "hot dice — ·" in ui.text_of("player-figures-0")
        assert "hot dice 0 ·" in ui.text_of("player-figures-1")

    run(test, route=f"/game/{game_id}/history", store=store)
