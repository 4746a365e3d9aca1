"""After the game: the race, each player's figures, sharing, history with the roll-off, player pages."""

from __future__ import annotations

import asyncio
import dataclasses
import random

import flet as ft
import flet.canvas as cv
import pytest

from app.table.scorekeeper import Scorekeeper
from app.storage import MemoryStore
from app.views.game_over import result_text
from app.views.race_chart import RaceChart, race_summary
from engine import Game, Rules
from engine.stats import career, player_stats, score_race
from tests.support.app_driver import run
from tests.support.flet_harness import FletHarness
from tests.support.game_play import play_game

SHORT = dataclasses.replace(Rules.preset("house"), target=500)


def tied_game() -> Game:
    game = Game(["Ann", "Bob"], SHORT)
    for _ in range(2):
        game.roll("1 1 1 5 2 3"); game.keep("1 1 1 5"); game.bank()
    game.roll_off({0: 6, 1: 2})
    return game


def stored(*games: Game) -> tuple[MemoryStore, list[str]]:
    store = MemoryStore()
    keeper = Scorekeeper(store)

    async def save() -> list[str]:
        ids = []
        for game in games:
            ids.append(await keeper.start_game(list(game.players), game.rules))
            await keeper.act(lambda g, events=game.events: [g.redo(event) for event in events[1:]] and None)
        return ids

    return store, asyncio.run(save())


def test_the_race_has_every_players_total_after_each_turn():
    game = tied_game()
    assert score_race(game) == ((0, 1050, 1050), (0, 0, 1050))
    assert race_summary(game.players, score_race(game)) == (
        "Score race over 2 turns: the lead changed 0 times; Ann led last.")


def bob_wins_the_roll_off() -> Game:
    """Ann leads, Bob draws level with the last turn, and Bob wins the roll-off."""
    game = Game(["Ann", "Bob"], SHORT)
    for _ in range(2):
        game.roll("1 1 1 5 2 3"); game.keep("1 1 1 5"); game.bank()
    game.roll_off({0: 2, 1: 6})
    return game


@pytest.mark.parametrize("route", ["/game/{id}", "/game/{id}/history"])
def test_a_game_won_on_a_roll_off_is_summed_up_by_the_roll_off_not_by_who_led_last(data_dir, route):
    store, (game_id,) = stored(bob_wins_the_roll_off())

    async def test(ui: FletHarness) -> None:
        assert ui.find("race-chart", ft.Semantics).label == (
            "Score race over 2 turns: the lead changed 0 times; the totals ended level and Bob won the roll-off.")

    run(test, route=route.format(id=game_id), store=store)


@pytest.mark.parametrize("lowest, reached", [(None, -1000), (-700, -700), (0, 0)])
def test_the_race_draws_a_total_below_0_below_the_0_line_down_to_the_lowest_reached(lowest, reached):
    rules = dataclasses.replace(SHORT, entry_threshold=0, triple_farkle_penalty=500, lowest_total=lowest)
    game = Game(["Ann", "Bob"], rules)
    for _ in range(6):  # two third farkles for Ann, Bob farkling between
        game.roll("2 2 3 3 4 6")
    for _ in range(6):
        game.roll("2 2 3 3 4 6")
    race = score_race(game)
    assert min(race[0]) == reached
    canvas = RaceChart(game.players, race, target=rules.target).content.controls[0]
    labels = {shape.value: shape.y for shape in canvas.shapes if isinstance(shape, cv.Text)}
    ann = [element.y for element in next(shape for shape in canvas.shapes if isinstance(shape, cv.Path)).elements]
    lowest_drawn = max(ann)
    assert ann[0] == labels["0"]
    assert (lowest_drawn > labels["0"]) == (reached < 0)
    assert labels.get(f"{reached:,}") == lowest_drawn


def test_player_figures_count_turns_farkles_hot_dice_best_and_entry():
    game = Game(["Ann", "Bob"], Rules.preset("house"))
    game.roll("1 1 1 5 5 2"); game.keep("1 1 1 5 5"); game.roll("1"); game.keep("1")  # hot dice
    game.roll("2 2 3 3 4 6")  # farkle
    game.roll("1 5 2 3 4 6"); game.keep("1 5 2 3 4 6"); game.roll("2 3 4 4 6 6")  # straight then farkle
    game.roll("1 1 1 2 3 4"); game.keep("1 1 1"); game.bank()
    ann, bob = player_stats(game)
    assert (ann.turns, ann.farkles, ann.hot_dice, ann.best_turn, ann.on_board_turn) == (2, 1, 1, 1000, 2)
    assert (bob.turns, bob.farkles, bob.hot_dice, bob.on_board_turn) == (1, 1, 1, None)
    assert ann.average_bank == 1000


def test_the_result_as_text_names_the_winner_and_the_roll_off_that_split_equal_totals():
    assert result_text(tied_game()) == ("Farkle Table: Ann wins after 2 turns.\n"
                                        "1. Ann 1,050 · roll-off 6\n2. Bob 1,050 · roll-off 2")


def test_game_over_shows_the_race_the_figures_and_shares(data_dir):
    store, (game_id,) = stored(tied_game())

    async def test(ui: FletHarness) -> None:
        assert ui.text_of("winner") == "Ann wins!"
        assert ui.text_of("place-1") == "2. Bob 1,050 · roll-off 2"
        assert ui.exists("race-chart") and ui.exists("player-stats")
        assert ui.text_of("player-figures-1") == ("Bob: turns 1 · farkles 0 · hot dice 0 · best 1,050 · "
                                                  "average bank 1,050 · on the board in turn 1")
        await ui.click("share-text")
        assert ui.clipboard == result_text(tied_game())
        assert ui.text_of("share-note") == "The result is copied: paste it into any message."
        await ui.click("player-1")
        assert ui.text_of("figure-0") == "Games 1"

    run(test, route=f"/game/{game_id}", store=store)


def test_history_lists_the_roll_off_and_draws_the_race(data_dir):
    store, (game_id,) = stored(tied_game())

    async def test(ui: FletHarness) -> None:
        texts = ui.texts()
        assert "Roll-off 1 for the win" in texts and "Ann 6, Bob 2" in texts
        assert [ui.text_of(f"result-{seat}") for seat in (0, 1)] == ["1. Ann 1,050 · roll-off 6",
                                                                     "2. Bob 1,050 · roll-off 2"]
        assert ui.exists("race-chart")

    run(test, route=f"/game/{game_id}/history", store=store)


def test_a_player_page_counts_their_games_wins_and_farkles_across_the_device(data_dir):
    games = [play_game(Game(["Ann", "Bob", "Cy"], dataclasses.replace(Rules.preset("house"), target=2000)),
                       random.Random(seed)) for seed in range(3)]
    store, _ = stored(*games)
    expected = career("ann", games)

    async def test(ui: FletHarness) -> None:
        assert ui.text_of("figure-0") == f"Games {expected.games}"
        assert ui.text_of("figure-3").startswith(f"Farkle rate {expected.farkle_rate:.0%}")
        assert sum(1 for key in (f"player-game-{n}" for n in range(5)) if ui.exists(key)) == 3

    run(test, route="/player/ANN", store=store)


def test_a_player_with_no_games_is_told_so(data_dir):
    async def test(ui: FletHarness) -> None:
        assert ui.text_of("player-none") == "No game on this device has a player named 'Zed'."

    run(test, route="/player/Zed", store=MemoryStore())
