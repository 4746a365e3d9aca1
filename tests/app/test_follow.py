"""The second screen (/follow/<game id>) through client-less Flet sessions: a follower in another
session of the same server shows each bank the table stores (Flet's PubSub), the final round and the
winner, in large type that scales with the screen, and never offers an action; the table offers it
by a QR and a link."""

from __future__ import annotations

import asyncio
import dataclasses
from collections.abc import Callable

import flet as ft
import pytest
from flet.pubsub.pubsub_hub import PubSubHub

from app.main import app_on
from app.venue import addresses
from app.routes import follow_path
from app.storage import MemoryStore
from app.table.scorekeeper import Scorekeeper
from app.views.follow import LINE, TURN_TOTAL
from engine import Rules
from tests.support.app_driver import keep, throw
from tests.support.flet_harness import FletHarness

WAKE_LOCK = {("Wakelock", "enable"): lambda ui, control, args: None,
             ("Wakelock", "disable"): lambda ui, control, args: None}
ACTS = ("on_click", "on_change", "on_submit", "on_select", "on_long_press", "url")
"""What a control that acts has set: a handler, or a link it opens."""
TO_1000 = dataclasses.replace(Rules.preset("official"), target=1000)
"""Official rules to 1,000: Ann's three 1s reach the target and open the final round."""


async def until(condition: Callable[[], bool], ceiling_s: float, reason: Callable[[], str], *uis: FletHarness) -> None:
    """Let the sessions run until ``condition`` holds, failing with ``reason()`` after ``ceiling_s``."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + ceiling_s
    while not condition():
        if loop.time() > deadline:
            raise AssertionError(reason())
        for ui in uis:
            await ui.settle()
        await asyncio.sleep(0.01)


async def new_game(store: MemoryStore, rules: Rules = TO_1000, title: str | None = None) -> str:
    meta = {"title": title} if title else None
    return await Scorekeeper(store).start_game(["Ann", "Bob"], rules, meta=meta)


def test_a_follower_in_another_session_shows_each_bank_the_final_round_and_the_winner() -> None:
    async def test() -> None:
        store = MemoryStore()
        game_id = await new_game(store)
        hub = PubSubHub(loop=asyncio.get_running_loop())
        app = app_on(store)
        async with FletHarness(app, route=f"/game/{game_id}", width=390, height=844, pubsub=hub,
                               services=WAKE_LOCK) as table, \
                FletHarness(app, route=follow_path(game_id), width=1920, height=1080, pubsub=hub,
                            services=WAKE_LOCK) as follower:
            assert follower.text_of("follow-turn-name") == "Ann to play"
            assert follower.text_of("follow-in-hand") == "six dice in hand"
            assert not follower.exists("follow-marks-0")
            await throw(table, "1 1 1 2 3 4")
            await until(lambda: follower.exists("follow-throw"), 2,
                        lambda: f"the follower missed the throw: {follower.texts()}", table, follower)
            assert follower.text_of("follow-throw") == "threw 1 1 1 2 3 4"
            await keep(table, 0, 1, 2)
            await table.click("bank")
            await until(lambda: follower.text_of("follow-total-0") == "1,000", 2,
                        lambda: f"the follower still shows {follower.text_of('follow-total-0')!r}", table, follower)
            assert follower.text_of("follow-turn-name") == "Bob to play"
            assert follower.text_of("follow-final-round") == "Final round · last turns: Bob"
            assert follower.text_of("follow-marks-1") == "last turn · needs over 1,000 to lead"
            await throw(table, "2 3 4 6 2 3")
            await until(lambda: follower.exists("follow-outcome"), 2,
                        lambda: f"the follower did not see the end: {follower.texts()}", table, follower)
            assert follower.text_of("follow-outcome") == "Ann wins with 1,000"
            assert not follower.exists("follow-final-round")
            assert follower.crashes() == [] and table.crashes() == []

    asyncio.run(test())


def test_the_follower_never_offers_an_action() -> None:
    async def test() -> None:
        store = MemoryStore()
        game_id = await new_game(store, title="Kitchen table")
        async with FletHarness(app_on(store), route=follow_path(game_id), width=1920, height=1080,
                               services=WAKE_LOCK) as follower:
            assert follower.exists("follow-board")
            actionable = [type(control).__name__ for control, _ in follower.walk()
                          if not isinstance(control, ft.Page) and any(getattr(control, name, None) for name in ACTS)]
            assert actionable == []
            assert "Kitchen table" in follower.texts()  # the game's title heads the screen

    asyncio.run(test())


def test_type_scales_with_the_screen_from_a_phone_to_a_4k_tv() -> None:
    async def sizes(width: int, height: int) -> tuple[float, float]:
        store = MemoryStore()
        game_id = await new_game(store)
        async with FletHarness(app_on(store), route=follow_path(game_id), width=width, height=height,
                               services=WAKE_LOCK) as follower:
            return follower.find("follow-turn-total").size, follower.find("follow-total-0").size

    for (width, height), expected in {(1920, 1080): (TURN_TOTAL, LINE), (3840, 2160): (2 * TURN_TOTAL, 2 * LINE),
                                      (390, 844): (round(TURN_TOTAL * 0.45), round(LINE * 0.45))}.items():
        assert asyncio.run(sizes(width, height)) == expected, (width, height)


def test_an_unknown_game_gets_a_page_that_says_so() -> None:
    async def test() -> None:
        async with FletHarness(app_on(MemoryStore()), route=follow_path("no-such-game"),
                               services=WAKE_LOCK) as follower:
            assert follower.text_of("follow-missing") == (
                "There is no game 'no-such-game' here to follow. Open the link the table's screen shows "
                "(Follow on another screen).")
            assert not follower.exists("follow-board")

    asyncio.run(test())


def test_the_table_offers_its_follower_by_a_qr_and_a_link() -> None:
    async def test() -> None:
        store = MemoryStore()
        game_id = await new_game(store)
        async with FletHarness(app_on(store), route=f"/game/{game_id}", services=WAKE_LOCK) as table:
            await table.click("follow-open")
            assert table.exists("follow-qr")
            assert table.text_of("follow-link").endswith(follow_path(game_id))
            assert table.find("follow-new-tab").url.url.endswith(follow_path(game_id))
            await table.click("follow-close")
            assert not table.exists("follow-qr")
            assert table.exists("face-1")  # play goes on where it was

    asyncio.run(test())


def test_a_follower_keeps_its_screen_on_while_the_game_is_played_and_lets_it_go_dark_at_the_end() -> None:
    async def test() -> None:
        store = MemoryStore()
        game_id = await new_game(store)
        hub = PubSubHub(loop=asyncio.get_running_loop())
        app = app_on(store)
        async with FletHarness(app, route=f"/game/{game_id}", pubsub=hub, services=WAKE_LOCK) as table, \
                FletHarness(app, route=follow_path(game_id), width=1920, height=1080, pubsub=hub,
                            services=WAKE_LOCK) as tv:
            def asked() -> list[str]:
                return [name for kind, name, _ in tv.method_calls if kind == "Wakelock"]

            assert asked() == ["enable"]
            await throw(table, "1 1 1 5 2 3")
            await keep(table, 0, 1, 2, 3)
            await table.click("bank")
            await throw(table, "2 2 3 4 6 6")  # Bob's last turn farkles: Ann wins
            await until(lambda: tv.exists("follow-outcome"), 2, lambda: f"the TV missed the end: {tv.texts()}",
                        table, tv)
            await tv.settle()
            assert asked() == ["enable", "disable"]

    asyncio.run(test())


@pytest.mark.parametrize("host, says_so", [("127.0.0.1", True), ("0.0.0.0", False)])
def test_a_table_on_a_server_only_this_device_reaches_says_other_screens_cannot_follow_it(
        monkeypatch: pytest.MonkeyPatch, host: str, says_so: bool) -> None:
    monkeypatch.setattr(addresses, "_serving", [])
    addresses.serve_on(host, 8550)

    async def test() -> None:
        store = MemoryStore()
        game_id = await new_game(store)
        async with FletHarness(app_on(store), route=f"/game/{game_id}", services=WAKE_LOCK) as table:
            await table.click("follow-open")
            assert table.exists("follow-loopback") == says_so

    asyncio.run(test())


def test_a_tie_for_the_win_shows_the_roll_off_it_asks_for() -> None:
    async def test() -> None:
        store = MemoryStore()
        keeper = Scorekeeper(store)
        game_id = await keeper.start_game(["Ann", "Bob"], TO_1000)
        for _ in ("Ann", "Bob"):  # both bank three 1s: 1,000 each, tied at the target
            await keeper.act(lambda game: [game.roll("1 1 1 2 3 4"), game.keep("1 1 1"), game.bank()] and None)
        async with FletHarness(app_on(store), route=follow_path(game_id), services=WAKE_LOCK) as follower:
            assert follower.text_of("follow-outcome") == "Tie for the win at 1,000: Ann, Bob each throw one die."
            assert not follower.exists("follow-turn")

    asyncio.run(test())


def test_a_farkle_shows_as_the_players_streak_with_the_throw_that_farkled() -> None:
    async def test() -> None:
        store = MemoryStore()
        keeper = Scorekeeper(store)
        game_id = await keeper.start_game(["Ann", "Bob"], Rules.preset("official"))
        await keeper.act(lambda game: game.roll("2 2 3 4 6 6"))  # nothing scores: Ann farkles
        async with FletHarness(app_on(store), route=follow_path(game_id), services=WAKE_LOCK) as follower:
            assert follower.text_of("follow-marks-0") == "farkles 1"
            assert follower.text_of("follow-turn-name") == "Bob to play"
            assert follower.text_of("follow-notice-0") == "Farkle! 2 2 3 4 6 6 has nothing to set aside."

    asyncio.run(test())
