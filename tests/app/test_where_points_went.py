"""Game over's "Where points went": each player's total as banked less the penalties taken,
then one line per turn for the decisions that gave points away (issue 26)."""

from __future__ import annotations

import dataclasses
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import CostlyDecision, Rules, costliest, costly_decisions
from engine.stats import player_stats
from tests.support.app_driver import run
from tests.support.flet_harness import FletHarness
from tests.support.game_play import play_game, played
from tests.app.test_decision_review import review_shown
from tests.app.test_game_over import stored
from tests.engine.test_game_properties import random_game, rules

OPEN_HOUSE = dataclasses.replace(Rules.preset("house"), entry_threshold=0)
FARKLE = "roll 2 2 3 3 4 6"
BANK_1050 = ("roll 1 1 1 5 2 3", "keep 1 1 1 5", "bank")
# Ann keeps the 5 of 1 5 and banks 50 with five dice (two costly decisions in turn 1), banks
# 1,050 in turn 3, farkles in turns 5, 7 and 9 (-1,000), and Bob reaches 2,000 in turn 10.
OFFICIAL_GAME = ("roll 1 5 2 3 3 6", "keep 5", "bank", FARKLE, *BANK_1050, FARKLE, FARKLE, FARKLE, FARKLE,
                 *BANK_1050, FARKLE, *BANK_1050, FARKLE)


@pytest.mark.parametrize(
    ("rule_set", "steps", "seat", "parts"),
    [
        (OPEN_HOUSE, ("roll 1 5 2 3 3 6", "keep 5", "bank"), 0,
         ["Turn 1: kept 5 (50); keeping 1 was worth ", " (+", " on average). Then banked 50 with five dice left; "
          "throwing on was worth ", " (+", " on average)."]),
        # Bob is offered Ann's 1,050 with two dice, throws six fresh instead, keeps the 5 and farkles.
        (Rules.preset("progressive"), (*BANK_1050, "roll 1 5 2 3 3 6", "keep 5", "roll 2 2 4 6 6"), 1,
         ["Turn 2: threw six fresh dice; building on the offer was worth ", " (+", " on average). Then kept 5 (50); "
          "keeping 1 was worth ", " (+", " on average)."]),
    ],
    ids=["keep-then-bank", "passed-offer-then-keep"],
)
def test_two_costly_decisions_of_one_turn_are_one_line_for_that_turn(rule_set, steps, seat, parts) -> None:
    game = played(rule_set, *steps)
    (turn,) = costly_decisions(game)[seat]
    assert re.fullmatch(r"[\d,]+".join(map(re.escape, parts)), turn.describe()), turn.describe()
    assert len(turn.decisions) == 2 and turn.cost == sum(decision.cost for decision in turn.decisions)


decisions = st.lists(st.builds(CostlyDecision, seat=st.integers(0, 2), turn=st.integers(1, 6), taken=st.just("kept 5"),
                               better=st.just("keeping 1"), cost=st.floats(0, 2000)), max_size=30)


@given(decisions, st.integers(1, 4))
def test_each_turn_is_named_once_per_player_with_the_cost_of_all_its_decisions(found, per_player) -> None:
    by_seat = costliest(found, 3, per_player)
    for seat, turns in by_seat.items():
        assert len({turn.turn for turn in turns}) == len(turns) <= per_player
        assert [turn.cost for turn in turns] == sorted((turn.cost for turn in turns), reverse=True)
        for turn in turns:
            assert turn.seat == seat and turn.describe().count("Turn ") == 1
            assert list(turn.decisions) == [d for d in found if (d.seat, d.turn) == (seat, turn.turn)]


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 10**9), rules, st.integers(2, 4), st.integers(0, 30))
def test_banked_points_less_the_penalties_are_each_players_total_after_any_undo(seed, rule_set, players, undone):
    game, rng = random_game(seed, dataclasses.replace(rule_set, target=min(rule_set.target, 4000)), players)
    play_game(game, rng)
    for _ in range(min(undone, len(game.events) - 1)):
        game.undo()
    for seat, player in enumerate(player_stats(game)):
        turns = [turn for turn, _ in player.penalties]
        assert len(set(turns)) == len(turns)
        assert all(game.history[turn - 1].seat == seat for turn in turns)
        assert player.banked_points - sum(points for _, points in player.penalties) == game.scores[seat]


def test_game_over_says_where_each_total_came_from_and_names_a_turn_once(data_dir) -> None:
    store, (game_id,) = stored(played(dataclasses.replace(Rules.preset("official"), target=2000), *OFFICIAL_GAME))

    async def test(ui: FletHarness) -> None:
        assert ui.text_of("review-0-account") == (
            "Ann: 1,100 banked in 2 turns, -1,000 for a third farkle in a row in turn 9: total 100")
        assert ui.text_of("review-1-account") == "Bob: 2,100 banked in 2 turns: total 2,100"
        await review_shown(ui)
        for seat in (0, 1):
            named = [ui.text_of(f"review-{seat}-{index}").split(":")[0] for index in range(3)
                     if ui.exists(f"review-{seat}-{index}")]
            assert len(named) == len(set(named))
        assert ui.text_of("review-0-0").startswith("Turn 1: kept 5 (50); keeping 1 was worth ")
        assert ". Then banked 50 with five dice left; throwing on was worth " in ui.text_of("review-0-0")

    run(test, f"/game/{game_id}", store=store)
