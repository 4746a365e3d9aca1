"""Undo and Redo on the table: every kind of action round-trips, and Undo says what it took back."""

from __future__ import annotations

import asyncio
import dataclasses
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from app.table.scorekeeper import Scorekeeper
from app.storage import MemoryStore
from app.views.table_state import TableState
from engine import Game, Rules
from tests.support.app_driver import run
from tests.support.flet_harness import FletHarness
from tests.support.game_play import play_game


async def open_table(players: list[str], rules: Rules) -> TableState:
    keeper = Scorekeeper(MemoryStore())
    table = TableState(keeper, await keeper.start_game(players, rules))
    await table.load()
    return table


async def undo_then_redo(table: TableState) -> str:
    """Undo the last action and redo it; the game must be as before. What Undo said."""
    before = table.game.events
    await table.undo(confirmed=True)
    said = table.last_undo or ""
    assert table.game.events == before[:-1], table.refusal
    await table.redo()
    assert table.game.events == before, table.refusal
    return said


def test_each_kind_of_action_undoes_and_redoes_to_the_same_game() -> None:
    async def test() -> None:
        table = await open_table(["Ann", "Bob", "Cy"], Rules.preset("progressive"))
        said = []
        steps = [
            lambda g: g.roll("2 2 2 3 4 6"), lambda g: g.keep("2 2 2"), lambda g: g.roll("3 3 3"),
            lambda g: g.keep("3 3 3"), lambda g: g.roll("1 1 1 2 3 4"), lambda g: g.keep("1 1 1"),
            lambda g: g.roll("1 2 3"), lambda g: g.keep("1"), lambda g: g.bank(), lambda g: g.build(),
            lambda g: g.set_rules(dataclasses.replace(g.rules, steal=True)),
            lambda g: g.roll("2 3"),  # a farkle while building
        ]
        for step in steps:
            assert await table.act(step), table.refusal
            said.append(await undo_then_redo(table))
        assert said == [
            "Undone: Ann's throw 2 2 2 3 4 6", "Undone: Ann setting aside 2 2 2", "Undone: Ann's throw 3 3 3",
            "Undone: Ann setting aside 3 3 3", "Undone: Ann's throw 1 1 1 2 3 4", "Undone: Ann setting aside 1 1 1",
            "Undone: Ann's throw 1 2 3", "Undone: Ann setting aside 1", "Undone: Ann's bank of 1,600",
            "Undone: Bob building on 1,600", "Undone: the change of rules", "Undone: Bob's farkle on 2 3",
        ]

    asyncio.run(test())


def test_a_roll_off_undoes_and_redoes() -> None:
    async def test() -> None:
        table = await open_table(["Ann", "Bob"], dataclasses.replace(Rules.preset("house"), target=500))
        for step in ["1 1 1 5 2 3", "1 1 1 5 2 3"]:
            await table.act(lambda g, s=step: g.roll(s))
            await table.act(lambda g: (g.keep("1 1 1 5"), g.bank()) and None)
        assert table.game.tied == (0, 1)
        await table.act(lambda g: g.roll_off({0: 6, 1: 2}))
        assert table.game.is_over
        assert await undo_then_redo(table) == "Undone: the roll-off"

    asyncio.run(test())


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10_000), back=st.integers(1, 40))
def test_undoing_any_number_of_steps_then_redoing_them_gives_the_same_game(seed: int, back: int) -> None:
    async def test() -> None:
        rng = random.Random(seed)
        played = play_game(Game(["Ann", "Bob", "Cy"], dataclasses.replace(Rules.preset("house"), target=3000)), rng)
        table = await open_table(["Ann", "Bob", "Cy"], played.rules)
        for event in played.events[1:]:
            await table.act(lambda g, e=event: g.redo(e))
        steps = min(back, len(played.events) - 1)
        for _ in range(steps):
            await table.undo(confirmed=True)
        assert table.game.events == played.events[: len(played.events) - steps]
        for _ in range(steps):
            await table.redo()
        assert table.game == played

    asyncio.run(test())


def test_a_new_action_after_undo_ends_redo() -> None:
    async def test() -> None:
        table = await open_table(["Ann", "Bob"], Rules.preset("house"))
        await table.act(lambda g: g.roll("1 2 3 3 3 5"))
        await table.undo()
        await table.act(lambda g: g.roll("2 2 3 3 4 6"))
        await table.redo()
        assert table.refusal == "Nothing to redo: Redo plays again what Undo took back."

    asyncio.run(test())


def test_undo_on_a_finished_game_asks_before_taking_back_the_win(data_dir) -> None:
    store = MemoryStore()
    keeper = Scorekeeper(store)

    async def finish() -> str:
        game_id = await keeper.start_game(["Ann", "Bob"], dataclasses.replace(Rules.preset("house"), target=500))
        await keeper.act(lambda g: (g.roll("1 1 1 5 2 3"), g.keep("1 1 1 5"), g.bank()) and None)
        await keeper.act(lambda g: g.roll("2 2 3 3 4 6"))
        return game_id

    game_id = asyncio.run(finish())

    async def test(ui: FletHarness) -> None:
        assert ui.text_of("winner") == "Ann wins!"
        await ui.click("undo")
        assert ui.exists("confirm-undo")
        await ui.click("cancel-undo")
        assert ui.text_of("winner") == "Ann wins!"
        await ui.click("undo")
        await ui.click("confirm-undo")
        assert ui.text_of("undone") == "Undone: Bob's farkle on 2 2 3 3 4 6"
        assert not ui.exists("winner")
        await ui.click("redo")
        assert ui.text_of("winner") == "Ann wins!"

    run(test, route=f"/game/{game_id}", store=store)
