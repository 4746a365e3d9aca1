"""At the table, the minimum bank, the lowest total and the end rule (engine/RULES.md §2.4,
§3.4, §3.2) are the engine's: the reason a bank is refused, a total below 0, the win at once."""

from __future__ import annotations

import asyncio
import dataclasses

from app.table.scorekeeper import Scorekeeper
from app.storage import MemoryStore
from engine import Game
from tests.support.app_driver import run
from tests.support.flet_harness import FletHarness
from tests.engine.test_rule_options import FACEBOOK

REFUSED = "Ann is on the board: a bank needs at least 300; this turn has 100. Throw on."


def stored_game(*steps: str, target: int = 10_000) -> tuple[MemoryStore, str]:
    """A game of Ann and Bob under Facebook Farkle with these steps played ("roll 1 2 3", "keep 1", "bank")."""
    store = MemoryStore()
    keeper = Scorekeeper(store)

    async def play() -> str:
        game_id = await keeper.start_game(["Ann", "Bob"], dataclasses.replace(FACEBOOK, target=target))
        for step in steps:
            verb, _, dice = step.partition(" ")
            await keeper.act(lambda game, v=verb, d=dice: getattr(game, v)(*([d] if d else [])))
        return game_id

    return store, asyncio.run(play())


def game_in(store: MemoryStore, game_id: str) -> Game:
    game = asyncio.run(Scorekeeper(store).open_game(game_id))
    assert game is not None
    return game


def test_a_bank_below_the_minimum_shows_the_engines_reason_and_b_changes_nothing() -> None:
    store, game_id = stored_game("roll 1 2 3 4 6 6", "keep 1")

    async def test(ui: FletHarness) -> None:
        before = await store.load("games", game_id)
        assert ui.text_of("bank-reason") == REFUSED
        await ui.press_key("B")
        assert ui.text_of("refusal") == REFUSED
        assert await store.load("games", game_id) == before

    run(test, route=f"/game/{game_id}", store=store)


def test_the_first_bank_to_reach_the_target_ends_the_game_at_the_table() -> None:
    store, game_id = stored_game("roll 1 1 1 2 3 4", "keep 1 1 1", target=1000)

    async def test(ui: FletHarness) -> list[str]:
        await ui.press_key("B")
        return ui.texts()

    shown = run(test, route=f"/game/{game_id}", store=store)
    assert "Ann is the first to bank 1,000 and wins with 1,000!" in shown and "Ann wins!" in shown
    game = game_in(store, game_id)
    assert game.is_over and game.winner == 0 and not game.final_round


def test_a_total_below_zero_is_shown_as_it_is() -> None:
    store, game_id = stored_game(*["roll 2 2 3 3 4 6"] * 5)

    async def test(ui: FletHarness) -> list[str]:
        await ui.press_key("2")
        for face in "23346":
            await ui.press_key(face)
        await ui.press_key("Enter")
        return ui.texts()

    shown = run(test, route=f"/game/{game_id}", store=store)
    assert game_in(store, game_id).scores == (-500, -500)
    assert shown.count("-500") == 2
