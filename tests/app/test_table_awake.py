"""The table asks the page to keep the screen on while its game is open and lets go when
the game ends (app/views/table_awake.py), seen as the calls the page receives."""

from __future__ import annotations

import asyncio
import dataclasses
from typing import Any

import pytest

from app.storage import MemoryStore
from app.table.scorekeeper import Scorekeeper
from app.views.table_awake import NO_WAKE_LOCK
from engine import Rules
from tests.support.app_driver import run, throw
from tests.support.flet_harness import FletHarness

SHORT = dataclasses.replace(Rules.preset("house"), target=500)


def ann_past_the_target() -> tuple[MemoryStore, str]:
    """Ann has banked 1,050 of 500: Bob's last turn is all that is left of the game."""
    store = MemoryStore()
    keeper = Scorekeeper(store)

    async def save() -> str:
        game_id = await keeper.start_game(["Ann", "Bob"], SHORT)
        await keeper.act(lambda game: [game.roll("1 1 1 5 2 3"), game.keep("1 1 1 5"), game.bank()] and None)
        return game_id

    return store, asyncio.run(save())


def wake_lock_calls(ui: FletHarness) -> list[str]:
    return [name for kind, name, _ in ui.method_calls if kind == "Wakelock"]


def test_the_screen_is_let_go_dark_when_the_game_ends() -> None:
    store, game_id = ann_past_the_target()
    page_side: dict[tuple[str, str], Any] = {("Wakelock", "enable"): lambda ui, control, args: None,
                                             ("Wakelock", "disable"): lambda ui, control, args: None}

    async def test(ui: FletHarness) -> None:
        await ui.settle()
        assert wake_lock_calls(ui) == ["enable"]
        await throw(ui, "2 2 3 4 6 6")  # Bob's last turn farkles: Ann wins
        await ui.settle()
        assert "Ann wins!" in ui.texts()
        assert wake_lock_calls(ui) == ["enable", "disable"]

    run(test, f"/game/{game_id}", store=store, services=page_side)


NOTICE = "This browser may let the screen go dark between throws"


def refused_with(reason: str) -> Any:
    """The page's answer to the table asking it to keep the screen on: refused for ``reason``."""

    def answer(ui: FletHarness, control: Any, args: Any) -> None:
        raise RuntimeError(reason)

    return answer


@pytest.mark.parametrize(("reason", "told"), [
    (f"{NO_WAKE_LOCK}: this browser cannot keep the screen on", True),
    ("NotAllowedError: the battery saver is on", False),  # this browser has the lock: asked again when shown
    ("TimeoutError: the page did not answer", False),
])
def test_only_a_browser_without_a_wake_lock_is_told_and_only_on_the_first_visit(reason: str, told: bool) -> None:
    store, game_id = ann_past_the_target()
    page_side = {("Wakelock", "enable"): refused_with(reason),
                 ("Wakelock", "disable"): lambda ui, control, args: None}

    async def test(ui: FletHarness) -> None:
        await ui.settle()
        assert any(NOTICE in text for text in ui.texts()) is told
        await ui.navigate("/")
        await ui.navigate(f"/game/{game_id}")
        assert wake_lock_calls(ui) == ["enable", "disable", "enable"]
        assert not any(NOTICE in text for text in ui.texts())

    run(test, f"/game/{game_id}", store=store, services=page_side)
