"""Game over's "Where points went": each player's costliest decisions, judged off the tap path,
through a client-less Flet session; none for a tournament table."""

from __future__ import annotations

import asyncio

from app.storage import MemoryStore
from tests.support.app_driver import keep, run, start_game, throw
from tests.support.flet_harness import FletHarness
from tests.app.test_result_confirmation import finished_table


async def review_shown(ui: FletHarness, deadline_s: float = 60) -> None:
    """Until the review has replaced its "Looking over" line (it is judged in a worker thread)."""
    loop = asyncio.get_running_loop()
    ends = loop.time() + deadline_s
    while ui.exists("review-working") and loop.time() < ends:
        await asyncio.sleep(0.02)
    assert not ui.exists("review-working"), "the review never came"


def test_a_keep_that_left_points_behind_is_named_after_the_game_and_a_player_without_one_is_praised(data_dir):
    async def test(ui: FletHarness) -> None:
        await start_game(ui, "Ann", "Bob", target="1000")
        await throw(ui, "1 1 1 5 2 3")
        await keep(ui, 0, 1, 2)  # 1 1 1, leaving the 5
        await ui.click("bank")
        await throw(ui, "2 2 3 3 4 6")
        assert "Ann wins!" in ui.texts()
        await review_shown(ui)
        assert ui.text_of("review-0-0") == "Turn 1: kept 1 1 1 (1,000); keeping 1 1 1 5 was worth 1,050 (+50 on average)."
        assert ui.text_of("review-1-none").startswith("Every keep and bank as the most-points play")

    run(test)


def test_a_tournament_tables_game_over_gives_no_advice() -> None:
    store = MemoryStore()
    game_id, _, _ = asyncio.run(finished_table(store))

    async def test(ui: FletHarness) -> None:
        assert ui.exists("confirm-panel") and not ui.exists("decision-review")

    run(test, f"/game/{game_id}", store=store)
