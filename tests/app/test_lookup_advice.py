"""The lookup's "Roll or bank?": the engine's advice in words, for a turn total and the dice left
or for the throw tapped in, through a client-less Flet session."""

from __future__ import annotations

import asyncio

from engine import Rules, prepare, roll_value
from tests.support.app_driver import run
from tests.support.flet_harness import FletHarness

HOUSE = Rules.preset("house")


async def advice_shown(ui: FletHarness, deadline_s: float = 60) -> str:
    """The advice line once the tables are solved (they are solved off the tap path)."""
    loop = asyncio.get_running_loop()
    ends = loop.time() + deadline_s
    while ui.text_of("lookup-advice").startswith("Working out") and loop.time() < ends:
        await asyncio.sleep(0.02)
    return ui.text_of("lookup-advice")


def test_350_with_two_dice_under_house_rules_is_advised_to_bank_with_the_numbers(data_dir):
    async def test(ui: FletHarness) -> None:
        await ui.click("lookup")
        await ui.type_text("lookup-held", "350")
        await ui.set_value("lookup-dice-left", "2", event="select")
        worth = f"{roll_value(HOUSE, 350, 2):,.0f}"
        assert await advice_shown(ui) == f"Bank: 350 now; throwing two dice is worth {worth} on average (44 % farkle)."

    run(test)


def test_a_throw_tapped_in_is_advised_which_keep_and_a_farkle_has_none(data_dir):
    async def test(ui: FletHarness) -> None:
        await ui.click("lookup")
        for face in "1 5 2 3 4 4".split():
            await ui.click(f"lookup-face-{face}")
        assert (await advice_shown(ui)).startswith("Keep 1 and throw five dice: worth ")
        await ui.click("lookup-clear")
        for face in "2 2 3 3 4 6".split():
            await ui.click(f"lookup-face-{face}")
        assert ui.text_of("lookup-advice") == "A farkle has no keep: the turn is over."

    run(test)


def test_a_turn_total_that_is_not_a_number_is_refused_in_words_and_the_player_off_the_board_throws_on(data_dir):
    list(prepare(HOUSE))

    async def test(ui: FletHarness) -> None:
        await ui.click("lookup")
        await ui.type_text("lookup-held", "35o")
        assert ui.text_of("lookup-advice") == "Turn total so far: '35o' is not a whole number."
        await ui.type_text("lookup-held", "75")
        assert "every score is a multiple of 50" in ui.text_of("lookup-advice")
        await ui.type_text("lookup-held", "350")
        await ui.set_value("lookup-dice-left", "2", event="select")
        await ui.set_value("lookup-on-board", "off", event="select")
        assert ui.text_of("lookup-advice").startswith("Throw two dice: worth ")

    run(test)


def test_under_official_rules_two_farkles_in_a_row_turn_300_with_three_dice_into_a_bank_in_words(data_dir):
    official = Rules.preset("official")
    list(prepare(official))

    async def test(ui: FletHarness) -> None:
        await ui.click("lookup")
        assert not ui.exists("lookup-streak"), "house rules have no penalty to count"
        await ui.set_value("lookup-rules", "official", event="select")
        await ui.type_text("lookup-held", "300")
        await ui.set_value("lookup-dice-left", "3", event="select")
        fresh = f"{roll_value(official, 300, 3):,.0f}"
        assert (await advice_shown(ui)).startswith(f"Throw three dice: worth {fresh} on average")
        await ui.set_value("lookup-streak", "2", event="select")
        worth = f"{roll_value(official, 300, 3, streak=2):,.0f}"
        assert ui.text_of("lookup-advice") == (f"Bank: a third farkle would also cost 1,000; 300 now; throwing three "
                                               f"dice is worth {worth} on average, a third farkle's 1,000 counted "
                                               "(28 % farkle).")
        await ui.set_value("lookup-streak", "3", event="select")
        assert ui.text_of("lookup-refusal") == "“3” is not a number of farkles in a row: pick 0, 1 or 2."

    run(test)
