"""Every refused tap or key on the table says why, in the table's words, and changes nothing."""

from __future__ import annotations

import asyncio
import dataclasses

import flet as ft
import pytest

from app.table.scorekeeper import Scorekeeper
from app.storage import MemoryStore
from engine import Rules
from tests.support.app_driver import run, throw
from tests.support.flet_harness import FletHarness


def stored_game(rules: Rules, *steps: str) -> tuple[MemoryStore, str]:
    """A game of Ann, Bob and Cy with these throws/keeps played ("roll 1 2 3", "keep 1", "bank")."""
    store = MemoryStore()
    keeper = Scorekeeper(store)

    async def play() -> str:
        game_id = await keeper.start_game(["Ann", "Bob", "Cy"], rules)
        for step in steps:
            verb, _, dice = step.partition(" ")
            await keeper.act(lambda game, v=verb, d=dice: getattr(game, v)(*([d] if d else [])))
        return game_id

    return store, asyncio.run(play())


PROGRESSIVE_OFFER = ("roll 1 1 1 5 2 3", "keep 1 1 1 5", "bank")  # Ann banks 1,050; Bob is offered it


@pytest.mark.parametrize(
    ("steps", "key", "said"),
    [
        ((), "7", "7 is not a die face: type 1 to 6 (Enter throws, Backspace takes back, B banks)."),
        ((), "0", "0 is not a die face: type 1 to 6 (Enter throws, Backspace takes back, B banks)."),
        ((), "x", "x is not a die face: type 1 to 6 (Enter throws, Backspace takes back, B banks)."),
        ((), "Enter", "Enter all six dice of the throw first (0 so far)."),
        ((), "B", "Ann has nothing to bank yet: throw the dice first."),
        (("roll 1 2 3 3 3 5",), "6", "6 was not thrown: the throw is 1 2 3 3 3 5."),
        (("roll 1 2 3 3 3 5",), "B", "Ann must set aside scoring dice from 1 2 3 3 3 5 before banking."),
        (("roll 1 2 3 3 3 5",), "Enter", "Set aside a scoring die first: tap it, or type its face."),
        (PROGRESSIVE_OFFER, "B", "Bob has nothing to bank yet: build on 1,050, or throw six fresh dice."),
    ],
)
def test_a_refused_key_says_why_and_changes_nothing(steps: tuple[str, ...], key: str, said: str) -> None:
    rules = Rules.preset("progressive") if steps == PROGRESSIVE_OFFER else Rules.preset("house")
    store, game_id = stored_game(rules, *steps)

    async def test(ui: FletHarness) -> None:
        before = await store.load("games", game_id)
        await ui.press_key(key)
        assert ui.text_of("refusal") == said
        assert await store.load("games", game_id) == before

    run(test, route=f"/game/{game_id}", store=store)


def test_a_die_already_set_aside_is_named_when_its_face_is_typed_again() -> None:
    store, game_id = stored_game(Rules.preset("house"), "roll 1 2 3 3 3 5")

    async def test(ui: FletHarness) -> None:
        await ui.press_key("1")
        await ui.press_key("1")
        assert ui.text_of("refusal") == "Every 1 in 1 2 3 3 3 5 is already set aside."

    run(test, route=f"/game/{game_id}", store=store)


def test_a_seventh_die_in_the_lookup_is_refused_with_a_message() -> None:
    async def test(ui: FletHarness) -> None:
        for face in "1 2 3 4 5 6".split():
            await ui.click(f"lookup-face-{face}")
        await ui.click("lookup-face-6")
        assert ui.text_of("lookup-refusal").startswith("A throw has at most six dice: 1 2 3 4 5 6 is full.")
        assert sum(ui.exists(f"lookup-die-{n}") for n in range(7)) == 6

    run(test, route="/lookup", store=MemoryStore())


def test_the_lookup_opened_from_a_game_uses_its_rules_and_goes_back_to_it() -> None:
    store, game_id = stored_game(Rules.preset("official"))

    async def test(ui: FletHarness) -> None:
        assert any(text.startswith("Official: to 10,000") for text in ui.texts())
        await ui.click("back-to-game")
        assert ui.text_of("turn-line").startswith("Ann's turn")

    run(test, route=f"/lookup/{game_id}", store=store)


def test_each_last_turn_player_is_told_what_they_need_to_take_the_lead() -> None:
    store, game_id = stored_game(dataclasses.replace(Rules.preset("house"), target=1000),
                                 "roll 1 1 1 5 2 3", "keep 1 1 1 5", "bank")

    async def test(ui: FletHarness) -> None:
        texts = ui.texts()
        assert "Final round · last turns: Bob, Cy" in texts
        assert texts.count("not on board, last turn · needs over 1,050 to lead") == 2
        await throw(ui, "2 2 3 3 4 6")  # Bob farkles: his last turn is over
        assert "not on board, farkles 1, done" in ui.texts()
        lines = [ui.find(f"seat-{seat}", ft.Semantics) for seat in range(3)]  # what a screen reader hears
        assert [line.label for line in lines] == [
            "Ann · 1,050 · done", "Bob · 0 · not on board, farkles 1, done",
            "Playing now: Cy · 0 · not on board, last turn · needs over 1,050 to lead"]
        assert all(line.live_region for line in lines)

    run(test, route=f"/game/{game_id}", store=store)
