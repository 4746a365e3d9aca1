"""The scorekeeper keeps every action, never writes over another screen's save,
and merges settings changed on two screens at once: on every backend."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Coroutine, Mapping
from typing import Any, TypeVar

import pytest

from app.table.scorekeeper import Scorekeeper
from app.storage import ChangedElsewhere, DocumentChanged, Store
from engine import FarkleError, Game, Rules

T = TypeVar("T")
OpenStore = Callable[[], Store]
CHANGED_ELSEWHERE = (
    r"This game was changed on another screen meanwhile\. It now shows that screen's "
    r"latest state: check it, then enter your action again\."
)


def run(coroutine: Coroutine[Any, Any, T]) -> T:
    return asyncio.run(coroutine)


async def two_screens_on_one_game(mine_on: Store, theirs_on: Store) -> tuple[Scorekeeper, Scorekeeper]:
    mine = Scorekeeper(mine_on)
    await mine.start_game(["Ann", "Bob"], Rules.preset("house"))
    theirs = Scorekeeper(theirs_on)
    assert mine.game_id is not None
    await theirs.open_game(mine.game_id)
    return mine, theirs


def roll(dice: str) -> Callable[[Game], None]:
    return lambda game: game.roll(dice)


def test_a_started_game_and_each_action_are_stored_before_they_return(open_store: OpenStore) -> None:
    store, elsewhere = open_store(), open_store()

    async def test() -> None:
        keeper = Scorekeeper(store)
        game_id = await keeper.start_game(["Ann", "Bob"], Rules.preset("house"))
        assert (await elsewhere.load("games", game_id) or {})["revision"] == 1
        await keeper.act(roll("1 1 1 2 3 4"))
        stored = await elsewhere.load("games", game_id)
        assert keeper.game is not None and stored is not None
        assert stored["events"] == keeper.game.events and stored["revision"] == 2
        assert keeper.revision == 2

    run(test())


def test_an_action_on_a_game_another_screen_moved_on_is_refused_and_shows_theirs(open_store: OpenStore) -> None:
    screens, elsewhere = (open_store(), open_store()), open_store()

    async def test() -> None:
        mine, theirs = await two_screens_on_one_game(*screens)
        await theirs.act(roll("2 2 3 3 4 6"))  # Ann farkles over there

        with pytest.raises(ChangedElsewhere, match=CHANGED_ELSEWHERE):
            await mine.act(roll("1 1 1 5 2 3"))

        assert mine.game is not None and theirs.game is not None
        assert mine.game.events == theirs.game.events and mine.game.current == 1
        assert mine.revision == theirs.revision == 2
        await mine.act(roll("1 1 1 5 2 3"))  # now on the state it shows
        stored = await elsewhere.load("games", mine.game_id or "")
        assert stored is not None and stored["events"][-1] == {"type": "rolled", "dice": [1, 1, 1, 2, 3, 5]}

    run(test())


def test_an_action_refused_on_a_screen_another_moved_on_shows_theirs_instead_of_the_refusal(
    open_store: OpenStore,
) -> None:
    screens, elsewhere = (open_store(), open_store()), open_store()

    async def test() -> None:
        mine, theirs = await two_screens_on_one_game(*screens)
        await theirs.act(roll("1 1 1 2 3 4"))

        with pytest.raises(ChangedElsewhere, match=CHANGED_ELSEWHERE):
            await mine.act(lambda game: game.bank())  # nothing thrown yet on this screen

        assert mine.game is not None and mine.game.state.last_throw is not None
        stored = await elsewhere.load("games", mine.game_id or "")
        assert stored is not None and stored["revision"] == 2
        assert stored["events"][-1] == {"type": "rolled", "dice": [1, 1, 1, 2, 3, 4]}  # no bank stored

    run(test())


def test_a_refused_action_on_an_up_to_date_screen_is_the_engines_refusal(open_store: OpenStore) -> None:
    screens = open_store(), open_store()

    async def test() -> None:
        mine, _ = await two_screens_on_one_game(*screens)
        assert mine.game is not None
        before = mine.game.events
        with pytest.raises(FarkleError):
            await mine.act(lambda game: game.bank())
        assert mine.game.events == before and mine.revision == 1

    run(test())


def test_an_action_on_a_game_deleted_on_another_screen_keeps_it_again(open_store: OpenStore) -> None:
    screens, elsewhere = (open_store(), open_store()), open_store()

    async def test() -> None:
        mine, theirs = await two_screens_on_one_game(*screens)
        await theirs.delete_game(mine.game_id or "")
        await mine.act(roll("1 1 1 2 3 4"))
        stored = await elsewhere.load("games", mine.game_id or "")
        assert mine.game is not None and stored is not None and stored["events"] == mine.game.events

    run(test())


def test_switching_the_advice_on_lets_the_next_action_on_another_screen_through(open_store: OpenStore) -> None:
    screens, elsewhere = (open_store(), open_store()), open_store()

    async def test() -> None:
        mine, theirs = await two_screens_on_one_game(*screens)
        await mine.update_meta("advice", True)
        await theirs.act(roll("1 1 1 2 3 4"))  # not "changed on another screen": the switch is the device's own
        assert mine.revision == 1 and mine.meta["advice"] is True
        reopened = Scorekeeper(elsewhere)
        await reopened.open_game(mine.game_id or "")
        assert reopened.meta["advice"] is True and reopened.game == theirs.game

    run(test())


def test_an_advice_switch_an_earlier_version_kept_in_the_game_is_still_on_after_its_next_action(
        open_store: OpenStore) -> None:
    store, earlier_on, again_on = open_store(), open_store(), open_store()

    async def test() -> None:
        keeper = Scorekeeper(store)
        game_id = await keeper.start_game(["Ann", "Bob"], Rules.preset("house"))
        stored = await store.load("games", game_id)
        assert stored is not None
        await store.save("games", game_id, {**stored, "advice": True}, expect_revision=1)  # as it was kept before
        earlier = Scorekeeper(earlier_on)
        await earlier.open_game(game_id)
        await earlier.act(roll("1 1 1 2 3 4"))
        again = Scorekeeper(again_on)
        await again.open_game(game_id)
        assert again.meta["advice"] is True and "advice" not in (await store.load("games", game_id) or {})

    run(test())


def interleave_settings_saves(
    monkeypatch: pytest.MonkeyPatch, store: Store, *others: Callable[[], Awaitable[None]]
) -> None:
    """Before each of the next settings saves through ``store``, another screen
    changes the settings first (as if it had saved between this one's read and write)."""
    pending = list(others)
    save = store.save
    other_saving = False  # one store may serve both screens (memory): let the other's saves through

    async def save_after_the_other(
        collection: str, doc_id: str, document: Mapping[str, Any], *, expect_revision: int | None = None
    ) -> int:
        nonlocal other_saving
        if collection == "settings" and pending and not other_saving:
            other_saving = True
            try:
                await pending.pop(0)()
            finally:
                other_saving = False
        return await save(collection, doc_id, document, expect_revision=expect_revision)

    monkeypatch.setattr(store, "save", save_after_the_other)


def test_a_settings_change_made_meanwhile_on_another_screen_is_kept_with_this_one(
    open_store: OpenStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    mine, theirs = Scorekeeper(open_store()), Scorekeeper(open_store())

    async def test() -> None:
        await mine.update_settings(theme="dark")
        interleave_settings_saves(monkeypatch, mine.store, lambda: theirs.remember_names(["Zed"]))

        await mine.update_settings(theme="light")

        assert await theirs.settings() == {"theme": "light", "recent_names": ["Zed"]}

    run(test())


def test_names_remembered_on_two_screens_at_once_are_all_kept_latest_first(
    open_store: OpenStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    mine, theirs = Scorekeeper(open_store()), Scorekeeper(open_store())

    async def test() -> None:
        await mine.remember_names(["Cy"])
        interleave_settings_saves(monkeypatch, mine.store, lambda: theirs.remember_names(["Bob", "cy"]))

        await mine.remember_names(["Ann", "Bob"])

        assert await mine.recent_names() == ["Ann", "Bob", "cy"]

    run(test())


def test_a_settings_change_that_clashes_twice_is_refused_and_the_other_screens_are_kept(
    open_store: OpenStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    mine, theirs = Scorekeeper(open_store()), Scorekeeper(open_store())

    async def test() -> None:
        interleave_settings_saves(
            monkeypatch, mine.store,
            lambda: theirs.update_settings(theme="dark"), lambda: theirs.remember_names(["Zed"]),
        )

        with pytest.raises(DocumentChanged, match="settings/app was changed elsewhere"):
            await mine.update_settings(theme="light")

        assert await theirs.settings() == {"theme": "dark", "recent_names": ["Zed"]}

    run(test())


def test_settings_read_back_without_the_stores_revision(open_store: OpenStore) -> None:
    keeper = Scorekeeper(open_store())

    async def test() -> None:
        await keeper.update_settings(theme="dark")
        await keeper.update_settings(theme="light")
        assert await keeper.settings() == {"theme": "light"}

    run(test())


def test_summaries_list_each_stored_game_most_recent_first(open_store: OpenStore) -> None:
    keeper, elsewhere = Scorekeeper(open_store()), Scorekeeper(open_store())

    async def test() -> None:
        first = await keeper.start_game(["Ann", "Bob"], Rules.preset("house"))
        await keeper.act(roll("1 1 1 2 3 4"))
        summaries = await elsewhere.summaries()
        assert [(s.id, s.players, s.finished) for s in summaries] == [(first, ("Ann", "Bob"), False)]

    run(test())


def test_a_game_is_deleted_even_when_what_the_device_kept_beside_it_cannot_be_cleared() -> None:
    from tests.support.app_driver import FailingStore

    async def test() -> None:
        store = FailingStore()
        keeper = Scorekeeper(store)
        game_id = await keeper.start_game(["Ann", "Bob"], Rules.preset("house"))
        await keeper.update_meta("advice", True)
        store.fail = True  # saves fail from now on; a delete still goes through
        await keeper.delete_game(game_id)
        assert await store.load("games", game_id) is None and keeper.game is None

    run(test())
