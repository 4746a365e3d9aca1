"""The table's Advice switch, through a client-less Flet session: off by default, kept with
the game, the advised keep marked and the advice said in one line, the final round's chance
to lead; never offered at a tournament table."""

from __future__ import annotations

import asyncio
import dataclasses

from app.table.scorekeeper import Scorekeeper
from app.storage import MemoryStore
from app.table.tournament_table import tournament_meta
from app.views.table_state import TableState
from engine import Rules, catch_up_chance, decode_setup, prepare, roll_value, win_chance
from tests.support.app_driver import run, start_game, throw
from tests.support.flet_harness import FletHarness
from tests.app.test_result_confirmation import final_of_four

HOUSE = Rules.preset("house")


async def advice_shown(ui: FletHarness, deadline_s: float = 60) -> str:
    """The advice line once the tables are solved (off the tap path)."""
    loop = asyncio.get_running_loop()
    ends = loop.time() + deadline_s
    while (not ui.exists("advice-line") or ui.text_of("advice-line").startswith("Working out")) and loop.time() < ends:
        await asyncio.sleep(0.02)
    return ui.text_of("advice-line")


def test_advice_is_off_until_switched_on_then_marks_the_best_keep_and_stays_on(data_dir):
    async def test(ui: FletHarness) -> None:
        await start_game(ui, "Ann", "Bob")
        assert not ui.exists("advice-line")
        assert ui.accessible_name(ui.find("advice-switch")) == "Turn advice on"
        await ui.click("advice-switch")
        worth = f"{roll_value(HOUSE, 0, 6, on_board=False):,.0f}"
        wins = f"{win_chance(HOUSE, (0, 0), 0):.0%}".replace("%", " %")  # two to 10,000: the shipped table
        assert await advice_shown(ui) == (f"Advice: Throw six dice: worth {worth} on average (2 % farkle). "
                                          f"Ann wins {wins} of the time.")
        await throw(ui, "1 5 2 3 4 4")
        assert (await advice_shown(ui)).startswith("Advice: Keep 1 and throw five dice: worth ")
        advised = [text for text in ui.texts() if text.endswith("·  advised")]
        assert advised == ["100  ·  keep 1  ·  advised"]
        route = str(ui.page.route)
        await ui.navigate("/")
        await ui.navigate(route)
        assert ui.accessible_name(ui.find("advice-switch")) == "Turn advice off"
        assert (await advice_shown(ui)).startswith("Advice: Keep 1")
        await ui.click("advice-switch")
        assert not ui.exists("advice-line")

    run(test)


async def bob_in_the_final_round_with_advice(ui: FletHarness) -> None:
    """Ann banks 1,050 of a target of 1,000 with advice on: Bob has the last turn."""
    list(prepare(HOUSE))
    await start_game(ui, "Ann", "Bob", target="1000")
    await ui.click("advice-switch")
    await throw(ui, "1 1 1 5 2 3")
    await ui.click("best-option")
    await ui.click("bank")
    await advice_shown(ui)


def test_in_the_final_round_the_player_still_to_play_sees_the_chance_to_lead(data_dir):
    async def test(ui: FletHarness) -> None:
        await bob_in_the_final_round_with_advice(ui)
        chance = catch_up_chance(dataclasses.replace(HOUSE, target=1000), 1100, 0, 6, on_board=False)
        assert ui.text_of("marks-1").endswith(f"{chance:.0%} chance to lead".replace("%", " %"))
        assert ui.text_of("advice-line").startswith("Advice: Bob needs 1,100 to lead: ")

    run(test)


def test_a_tournament_table_offers_no_advice() -> None:
    store = MemoryStore()
    _, code = final_of_four()
    setup = decode_setup(code)
    game_id = asyncio.run(Scorekeeper(store).start_game(list(setup.names), setup.rules,
                                                        meta=tournament_meta(setup, code)))

    async def test(ui: FletHarness) -> None:
        assert ui.exists("throw-title") and not ui.exists("advice-switch") and not ui.exists("advice-line")

    run(test, f"/game/{game_id}", store=store)


def test_at_an_official_table_ann_on_two_farkles_is_advised_to_bank_3_3_3_for_a_third_would_also_cost_1000(data_dir):
    list(prepare(Rules.preset("official")))

    async def test(ui: FletHarness) -> None:
        await start_game(ui, "Ann", "Bob", preset="official")
        await ui.click("advice-switch")
        await throw(ui, "1 1 1 2 3 4")
        await ui.click("best-option")
        await ui.click("bank")
        for ann_throws in ("2 2 3 3 4 6", "2 2 3 3 4 6", None):
            await throw(ui, "1 2 3 4 6 6")
            await ui.click("best-option")
            await ui.click("bank")
            if ann_throws:
                await throw(ui, ann_throws)
        await throw(ui, "3 3 3 2 4 6")
        assert (await advice_shown(ui)).startswith(
            "Advice: Keep 3 3 3 and bank: a third farkle would also cost 1,000; worth 300 on average")
        assert [text for text in ui.texts() if text.endswith("·  advised")] == ["300  ·  keep 3 3 3  ·  advised"]

    run(test)


def test_in_the_final_round_under_a_minimum_bank_the_chance_to_lead_needs_at_least_the_minimum_bank() -> None:
    async def test() -> None:
        rules = dataclasses.replace(HOUSE, target=1600, entry_threshold=0, minimum_bank=300)
        keeper = Scorekeeper(MemoryStore())
        table = TableState(keeper, await keeper.start_game(["Ann", "Bob"], rules))
        await table.load()
        await table.switch_advice()
        for thrown, kept in [("1 1 1 2 3 4", "1 1 1"), ("1 1 1 5 5 2", "1 1 1 5 5"), ("5 5 5 2 3 4", "5 5 5"),
                             ("5 5 5 2 3 4", "5 5 5")]:
            assert await table.act(lambda g, dice=thrown: g.roll(dice)), table.refusal
            assert await table.act(lambda g, dice=kept: g.keep(dice)), table.refusal
            assert await table.act(lambda g: g.bank()), table.refusal
        # Bob reached 1,600; Ann, at 1,500, needs 150 to lead but may bank no less than 300.
        assert table.state is not None and table.state.final_round and table.state.scores == (1500, 1600)
        assert table.lead_chances(table.advice()) == {0: catch_up_chance(rules, 300, 0, 6)}
        assert catch_up_chance(rules, 300, 0, 6) == catch_up_chance(HOUSE, 300, 0, 6) < catch_up_chance(HOUSE, 150)

    asyncio.run(test())
