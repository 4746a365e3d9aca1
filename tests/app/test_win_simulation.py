"""Each player's chance to win under every preset and for two to eight players
(engine/advice/simulation.py): decided games, the exact table where there is one, a seeded
simulation of advised play elsewhere (checked against the exact two-player table, a
final round worked out by hand, and properties), and the table that shows it."""

from __future__ import annotations

import asyncio
import dataclasses

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import (Game, GameState, Rules, advise, catch_up_chance, farkle_chance, prepare, prepare_win_chance,
                    win_chance, win_chances, win_table_ready, work_out_win_chances)
from engine.advice.simulation import WinChances
from tests.support.app_driver import run, start_game, throw
from tests.support.flet_harness import FletHarness
from tests.app.test_table_advice import advice_shown

HOUSE = Rules.preset("house")
HOUSE_4000 = dataclasses.replace(HOUSE, target=4000)
"""A shipped exact table."""
PROGRESSIVE = Rules.preset("progressive")
CLASSIC = Rules.preset("classic")
"""Shipped with passing: exact start values, an offer's value read in a coarser table."""
OFFICIAL_4000 = dataclasses.replace(Rules.preset("official"), target=4000)
"""A shipped exact table under a three-farkle penalty (both streaks)."""
SHORT = dataclasses.replace(HOUSE, target=1000, entry_threshold=0)
"""Short games: many simulated quickly."""
FEW_TURNS = 3_000
"""A small budget for properties (the fewest games are still played)."""


def at(rules: Rules, scores: tuple[int, ...], current: int = 0, **changes: object) -> GameState:
    """A game under ``rules`` with ``scores`` banked, ``current`` to start a turn."""
    state = Game([f"P{seat}" for seat in range(len(scores))], rules).state
    return dataclasses.replace(state, scores=scores, on_board=tuple(score > 0 for score in scores),
                               current=current, **changes)  # type: ignore[arg-type]


def standard_errors(chances: WinChances, seat: int) -> float:
    return chances.errors[seat] / 1.96


@pytest.mark.parametrize("preset", ["house", "official", "progressive", "classic"])
@pytest.mark.parametrize("players", [2, 3, 8])
def test_every_preset_gives_every_player_of_two_to_eight_a_chance_to_win(preset: str, players: int) -> None:
    chances = win_chances(at(Rules.preset(preset), (0,) * players), turns=FEW_TURNS)
    assert len(chances.chances) == players and sum(chances.chances) == pytest.approx(1.0)
    assert chances.method == ("exact" if players == 2 else "simulated")
    assert all(0 < chance < 1 for chance in chances.chances)


def test_a_game_won_gives_the_winner_1_and_a_tie_for_the_win_splits_it() -> None:
    won = win_chances(at(HOUSE, (10_300, 9_000, 500), winner=0))
    tied = win_chances(at(HOUSE, (10_300, 10_300, 500), tied=(0, 1), final_round=True))
    assert (won.chances, won.method, won.errors) == ((1.0, 0.0, 0.0), "decided", (0.0, 0.0, 0.0))
    assert tied.chances == (0.5, 0.5, 0.0) and tied.method == "decided"


@pytest.mark.parametrize("rules, scores, mover, turn_points, dice, streaks", [
    (HOUSE_4000, (0, 0), 0, 0, 6, (0, 0)),
    (HOUSE_4000, (2000, 1000), 0, 0, 6, (0, 0)),
    (HOUSE_4000, (1000, 3000), 1, 0, 6, (0, 0)),
    (HOUSE_4000, (3000, 3500), 0, 300, 3, (0, 0)),
    (HOUSE_4000, (500, 2500), 0, 300, 3, (0, 0)),
    (OFFICIAL_4000, (0, 0), 0, 0, 6, (0, 0)),
    (OFFICIAL_4000, (2000, 1000), 0, 0, 6, (2, 0)),
    (OFFICIAL_4000, (1000, 3000), 1, 0, 6, (1, 2)),
    (OFFICIAL_4000, (3000, 3500), 0, 300, 3, (2, 1)),
    (PROGRESSIVE, (0, 0), 0, 0, 6, (0, 0)),
    (PROGRESSIVE, (6000, 8000), 1, 0, 6, (0, 0)),
    (PROGRESSIVE, (9000, 8500), 0, 300, 3, (0, 0)),
    (CLASSIC, (4000, 5000), 0, 0, 6, (0, 0)),
])
def test_the_simulation_agrees_with_the_exact_two_player_table_within_three_standard_errors(
        rules: Rules, scores: tuple[int, int], mover: int, turn_points: int, dice: int,
        streaks: tuple[int, int]) -> None:
    state = at(rules, scores, mover, farkle_streak=streaks)
    if turn_points:  # 3 3 3 kept for 300, three dice to throw or bank
        game = Game(["P0", "P1"], rules)
        game.roll([3, 3, 3, 2, 4, 6])
        game.keep([3, 3, 3])
        state = dataclasses.replace(game.state, scores=scores, on_board=(True, True), farkle_streak=streaks)
    exact = win_chance(rules, scores, mover, turn_points, dice, streaks)
    simulated = win_chances(state, exact=False, turns=40_000)
    assert simulated.method == "simulated"
    assert abs(simulated.chances[mover] - exact) <= 3 * standard_errors(simulated, mover)


SMALL = dataclasses.replace(HOUSE, target=300, entry_threshold=0)
"""A target solved exactly on first use (seconds)."""


def test_under_first_to_target_the_advised_win_chance_counts_no_final_round() -> None:
    first_to_target = dataclasses.replace(SMALL, end_rule="first_to_target")
    state = at(first_to_target, (250, 200), 0)
    assert prepare_win_chance(first_to_target) and prepare_win_chance(SMALL)
    advised = advise(state).win_chance
    assert advised == win_chance(first_to_target, (250, 200), 0) == win_chances(state).chances[0]
    # Any score banked wins at once; under the final round Bob would still have a last turn.
    assert advised is not None and advised > win_chance(SMALL, (250, 200), 0)
    assert advised >= 1 - farkle_chance(6, SMALL)


@pytest.mark.parametrize("change, banking", [
    ({"minimum_bank": 150}, (250, 300)),  # Ann's last turn: 100 banked would lead
    ({"minimum_bank": 300, "end_rule": "first_to_target"}, (200, 250)),  # 100 banked would win at once
])
def test_a_minimum_bank_gets_a_win_chance_solved_for_it_never_one_solved_without_it(
        change: dict[str, object], banking: tuple[int, int]) -> None:
    rules = dataclasses.replace(SMALL, **change)
    without = dataclasses.replace(rules, minimum_bank=0)
    assert prepare_win_chance(rules) and win_table_ready(rules) and prepare_win_chance(without)
    state = at(rules, (200, 250), 0)
    assert advise(state).win_chance == win_chance(rules, (200, 250), 0) == win_chances(state).chances[0]
    assert win_chances(state).method == "exact"
    # Held 100 with one die: banking wins without a minimum bank; under one it is no bank at all.
    assert win_chance(without, banking, 0, 100, 1) == 1.0
    assert win_chance(rules, banking, 0, 100, 1) < 1.0


@pytest.mark.parametrize("scores, turn_points, dice", [((4200, 3000), 0, 6), ((4200, 3900), 0, 6),
                                                       ((4000, 3900), 300, 3)])
def test_a_last_turn_in_a_game_of_two_is_answered_exactly(scores: tuple[int, int], turn_points: int,
                                                          dice: int) -> None:
    state = at(HOUSE_4000, scores, 1, final_round=True, last_turns=(1,))
    if turn_points:  # 3 3 3 kept for 300, three dice to throw or bank
        game = Game(["P0", "P1"], HOUSE_4000)
        game.roll([2, 2, 3, 3, 4, 6])
        game.roll([3, 3, 3, 2, 4, 6])
        game.keep([3, 3, 3])
        state = dataclasses.replace(game.state, scores=scores, on_board=(True, True), final_round=True,
                                    last_turns=(1,))
    chances = win_chances(state)
    assert chances.method == "exact" and chances.errors == (0.0, 0.0)
    assert chances.chances[1] == win_chance(HOUSE_4000, scores, 1, turn_points, dice)
    simulated = win_chances(state, exact=False)
    assert abs(simulated.chances[1] - chances.chances[1]) <= 3 * standard_errors(simulated, 1)


@pytest.mark.parametrize("lowest, action", [(0, "throw"), (-500, "bank"), (None, "bank")])
def test_a_simulated_player_on_two_farkles_plays_the_advice_for_what_a_third_would_cost_out_of_their_total(
        lowest: int | None, action: str) -> None:
    # First to 950; Ann, at 0 on two farkles, holds 950 with four dice: banking wins at once.
    # A third farkle costs her what her total has above the lowest (nothing, 500), or all 1,000.
    rules = dataclasses.replace(Rules.preset("official"), target=950, entry_threshold=0, end_rule="first_to_target",
                                lowest_total=lowest)
    game = Game(["Ann", "Bob"], rules)
    game.roll("2 2 3 3 4 4")
    game.keep("2 2 3 3 4 4")
    game.roll("1 1 2 3 4 6")
    game.keep("1 1")
    state = dataclasses.replace(game.state, farkle_streak=(2, 0))
    advice = advise(state)
    assert (advice.action, advice.turn_points, advice.dice) == (action, 950, 4)
    chances = win_chances(state, turns=FEW_TURNS)
    assert (chances.chances[0] == 1.0) == (action == "bank")


def test_in_a_final_round_of_three_the_leader_wins_when_both_others_miss() -> None:
    # Cat reached 4,200; Ann needs over 1,200 and Bob, if Ann misses, over 3,200.
    state = at(HOUSE_4000, (3000, 1000, 4200), 0, final_round=True, last_turns=(0, 1))
    chances = win_chances(state)
    both_miss = (1 - catch_up_chance(HOUSE_4000, 1250)) * (1 - catch_up_chance(HOUSE_4000, 3250))
    assert chances.method == "simulated" and sum(chances.chances) == pytest.approx(1.0)
    assert abs(chances.chances[2] - both_miss) <= 3 * standard_errors(chances, 2)
    assert chances.games > 5_000  # a final round is a few turns: the budget plays many games


def test_a_player_who_has_had_the_last_turn_and_does_not_lead_has_no_chance() -> None:
    state = at(HOUSE_4000, (3000, 1000, 4200), 1, final_round=True, last_turns=(1,))
    chances = win_chances(state, turns=FEW_TURNS)
    assert chances.chances[0] == 0.0 and chances.errors[0] == 0.0
    assert chances.chances[1] + chances.chances[2] == pytest.approx(1.0)


def test_the_same_state_gives_the_same_figures_said_with_their_error() -> None:
    state = at(Rules.preset("official"), (2000, 3500, 1000), 1)
    first, again = win_chances(state, turns=FEW_TURNS), win_chances(state, turns=FEW_TURNS)
    assert first == again
    said = first.describe(state.players)
    assert said.startswith("P0 ") and " % ± " in said and said.count(",") == 2


def test_a_chance_rises_with_the_players_own_total_and_falls_with_an_opponents() -> None:
    rules = SHORT
    base = win_chances(at(rules, (300, 300, 300)), turns=40_000)
    richer = win_chances(at(rules, (600, 300, 300)), turns=40_000)
    rival = win_chances(at(rules, (300, 900, 300)), turns=40_000)
    for higher, lower, seat in ((richer, base, 0), (base, rival, 0)):
        margin = 3 * (standard_errors(higher, seat) + standard_errors(lower, seat))
        assert higher.chances[seat] - lower.chances[seat] > margin


def test_the_three_farkle_penalty_weighs_on_a_player_two_farkles_down() -> None:
    official = Rules.preset("official")
    clear = win_chances(at(official, (3000, 3000, 3000), 0), turns=20_000)
    two_down = win_chances(at(official, (3000, 3000, 3000), 0, farkle_streak=(2, 0, 0)), turns=20_000)
    assert two_down.chances[0] < clear.chances[0]


def test_under_first_to_target_a_bank_that_reaches_it_wins_at_once() -> None:
    first_to = dataclasses.replace(SHORT, end_rule="first_to_target")
    state = at(first_to, (950, 0, 0), 0)
    final_round = win_chances(dataclasses.replace(state, rules=SHORT), turns=FEW_TURNS)
    at_once = win_chances(state, turns=FEW_TURNS)
    assert at_once.chances[0] > final_round.chances[0] + 3 * (standard_errors(at_once, 0)
                                                             + standard_errors(final_round, 0))


@settings(max_examples=12, deadline=None)
@given(st.lists(st.integers(0, 19).map(lambda level: level * 50), min_size=3, max_size=6),
       st.integers(0, 5), st.booleans())
def test_chances_are_chances_that_sum_to_one(scores: list[int], current: int, final: bool) -> None:
    seats = len(scores)
    state = at(SHORT, tuple(scores), current % seats)
    if final:
        leader = max(range(seats), key=lambda seat: scores[seat])
        scores[leader] = 1000
        state = at(SHORT, tuple(scores), (leader + 1) % seats, final_round=True,
                   last_turns=tuple((leader + ahead) % seats for ahead in range(1, seats)))
    chances = win_chances(state, turns=FEW_TURNS)
    assert all(0.0 <= chance <= 1.0 for chance in chances.chances)
    assert sum(chances.chances) == pytest.approx(1.0)


def test_with_advice_on_a_table_of_three_shows_each_players_chance_to_win(data_dir: object) -> None:
    list(prepare(Rules.preset("official")))

    async def test(ui: FletHarness) -> None:
        await start_game(ui, "Ann", "Bob", "Cat", preset="official")
        await ui.click("advice-switch")
        await advice_shown(ui)
        loop = asyncio.get_running_loop()
        ends = loop.time() + 60
        while not (ui.exists("marks-2") and "to win" in ui.text_of("marks-2")) and loop.time() < ends:
            await asyncio.sleep(0.02)
        game = Game(["Ann", "Bob", "Cat"], Rules.preset("official"))
        expected = win_chances(game.state)
        for seat in range(3):
            assert f"{expected.shown(seat)} to win" in ui.text_of(f"marks-{seat}")

    run(test)


def test_working_out_a_new_rule_sets_chances_looks_at_other_tasks_between_turn_totals() -> None:
    rules = dataclasses.replace(SHORT, target=1050)
    list(prepare(rules))
    state = at(rules, (0, 0, 0))

    def slices() -> tuple[int, WinChances]:
        work, count = work_out_win_chances(state, turns=FEW_TURNS), 0
        while True:
            try:
                next(work)
            except StopIteration as done:
                return count, done.value
            count += 1

    first, chances = slices()
    again, same = slices()
    assert chances == same == win_chances(state, turns=FEW_TURNS)
    assert first > again + 100  # the advised turns' ends, a turn total at a time, the first time only


def test_in_the_final_round_every_player_sees_their_chance_to_win_beside_the_chance_to_lead(data_dir: object) -> None:
    rules = dataclasses.replace(HOUSE, target=1000)
    list(prepare(rules))

    async def test(ui: FletHarness) -> None:
        await start_game(ui, "Ann", "Bob", "Cat", target="1000")
        await ui.click("advice-switch")
        await throw(ui, "1 1 1 5 2 3")
        await ui.click("best-option")
        await ui.click("bank")
        await advice_shown(ui)
        loop = asyncio.get_running_loop()
        ends = loop.time() + 60
        while not (ui.exists("marks-0") and "to win" in ui.text_of("marks-0")) and loop.time() < ends:
            await asyncio.sleep(0.02)
        game = Game(["Ann", "Bob", "Cat"], rules)
        game.roll([1, 1, 1, 5, 2, 3])
        game.keep([1, 1, 1, 5])
        game.bank()
        expected = win_chances(game.state)
        assert expected.method == "simulated" and game.state.final_round
        for seat in range(3):
            assert f"{expected.shown(seat)} to win" in ui.text_of(f"marks-{seat}")
        assert ui.text_of("marks-1").endswith("chance to lead")

    run(test)


def offered(rules: Rules, *actions: tuple[str, list[int] | None]) -> GameState:
    game = Game(["Ann", "Bob", "Cat"], rules)
    for action, dice in actions:
        if action == "roll":
            game.roll(dice)
        elif action == "keep":
            game.keep(dice)
        else:
            game.bank()
    return game.state


@pytest.mark.parametrize("state", [
    offered(HOUSE, ("roll", [1, 5, 2, 3, 4, 4])),
    offered(HOUSE, ("roll", [1, 5, 2, 3, 4, 4]), ("keep", [1])),
    offered(Rules.preset("progressive"), ("roll", [1, 1, 1, 2, 3, 4]), ("keep", [1, 1, 1]), ("bank", None)),
    offered(dataclasses.replace(HOUSE, steal=True), ("roll", [1, 2, 3, 4, 6, 6]), ("keep", [1]),
            ("roll", [2, 2, 3, 4, 6])),
], ids=["a throw to keep from", "bank or throw on", "an offer passed", "a farkle to steal"])
def test_a_turn_in_progress_of_every_kind_is_played_on_from_where_it_stands(state: GameState) -> None:
    chances = win_chances(state, turns=FEW_TURNS)
    assert chances.method == "simulated" and sum(chances.chances) == pytest.approx(1.0)
    assert all(0 < chance < 1 for chance in chances.chances)


def test_an_offer_worth_building_on_raises_the_chance_of_the_player_it_is_passed_to() -> None:
    rules = dataclasses.replace(Rules.preset("progressive"), target=2000)
    passed = offered(rules, ("roll", [1, 1, 1, 2, 3, 4]), ("keep", [1, 1, 1]), ("bank", None))  # 1,000, three dice
    declined = dataclasses.replace(passed, offer=None)
    with_offer, without = win_chances(passed, turns=40_000), win_chances(declined, turns=40_000)
    margin = 3 * (standard_errors(with_offer, 1) + standard_errors(without, 1))
    assert with_offer.chances[1] - without.chances[1] > margin
