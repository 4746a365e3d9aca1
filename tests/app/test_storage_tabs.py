"""Two tabs of the offline app: each caches localStorage, and hears the other's saves."""

from __future__ import annotations

import asyncio

import pytest

from app.table.scorekeeper import Scorekeeper
from app.storage import ChangedElsewhere
from app.storage import MemoryPrefs, PrefsStore
from app.storage.tabs import TabSharedPrefs
from engine import Rules


class StaleTab(MemoryPrefs):
    """A tab's own copy of localStorage: it starts from what was there and never rereads."""

    def __init__(self, values: dict[str, str]) -> None:
        super().__init__()
        self.values.update(values)


async def two_tabs_on_one_game(hear_each_other: bool) -> tuple[Scorekeeper, Scorekeeper]:
    first = Scorekeeper(await PrefsStore.open(MemoryPrefs()))
    game_id = await first.start_game(["Ann", "Bob"], Rules.preset("house"))
    stored = dict(first.store.prefs.values)  # type: ignore[attr-defined]
    prefs_a, prefs_b = StaleTab(stored), StaleTab(stored)
    if hear_each_other:
        tab_a = TabSharedPrefs(prefs_a, lambda message: tab_b.receive(message))
        tab_b = TabSharedPrefs(prefs_b, lambda message: tab_a.receive(message))
        a, b = Scorekeeper(await PrefsStore.open(tab_a)), Scorekeeper(await PrefsStore.open(tab_b))
    else:
        a, b = Scorekeeper(await PrefsStore.open(prefs_a)), Scorekeeper(await PrefsStore.open(prefs_b))
    await a.open_game(game_id)
    await b.open_game(game_id)
    return a, b


def test_a_tab_that_is_behind_is_refused_and_shown_the_other_tabs_game() -> None:
    async def test() -> None:
        a, b = await two_tabs_on_one_game(hear_each_other=True)
        await b.act(lambda game: game.roll("2 2 3 3 4 6"))  # Ann farkles in tab B
        with pytest.raises(ChangedElsewhere, match="changed on another screen"):
            await a.act(lambda game: game.roll("1 1 1 5 2 3"))
        assert a.game is not None and a.game.current == 1  # tab A now shows Bob's turn
        await a.act(lambda game: game.roll("1 1 1 5 2 3"))  # entered again, it counts
        assert [event["type"] for event in a.game.events] == ["started", "rolled", "rolled"]

    asyncio.run(test())


def test_without_hearing_each_other_stale_tabs_would_write_over_a_turn() -> None:
    """Why the wrapper exists: each tab's cached localStorage hides the other's save."""

    async def test() -> None:
        a, b = await two_tabs_on_one_game(hear_each_other=False)
        await b.act(lambda game: game.roll("2 2 3 3 4 6"))
        await a.act(lambda game: game.roll("1 1 1 5 2 3"))  # accepted: B's farkle is lost
        assert a.game is not None and a.game.current == 0

    asyncio.run(test())


def test_a_removed_game_is_gone_for_the_other_tab_too() -> None:
    async def test() -> None:
        heard: list[str] = []
        tab = TabSharedPrefs(StaleTab({"farkle-table/games/g1": "x"}), heard.append)
        tab.receive('{"key": "farkle-table/games/g1", "value": null}')
        assert await tab.get("farkle-table/games/g1") is None
        assert await tab.get_keys("farkle-table/games/") == []
        tab.receive("not ours")
        await tab.set("farkle-table/games/g2", "y")
        assert heard == ['{"key": "farkle-table/games/g2", "value": "y"}']

    asyncio.run(test())
