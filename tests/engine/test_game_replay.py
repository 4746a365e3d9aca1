"""Replay in linear time: what grows in a game is a Trail sharing its past, states stay frozen, undo a pop."""

from __future__ import annotations

import copy
import dataclasses
import gc
import pickle
import random
from collections.abc import Hashable

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine import Game, IllegalAction, Rules
from engine.game.trail import Trail
from tests.support.game_play import play_turn


def long_game(turns: int = 300) -> Game:
    rng = random.Random(3)
    game = Game(["Ann", "Bob", "Cy"], dataclasses.replace(Rules.preset("house"), target=1_000_000))
    for _ in range(turns):
        play_turn(game, rng)
    return game


# -- the Trail -------------------------------------------------------------------------------


@given(st.lists(st.integers()), st.integers())
def test_a_trail_reads_like_the_tuple_of_its_items(items: list[int], extra: int) -> None:
    trail = Trail(items)
    assert trail == tuple(items) and tuple(trail) == tuple(items) and len(trail) == len(items)
    assert list(trail) == items and bool(trail) == bool(items) and hash(trail) == hash(tuple(items))
    assert trail.then(extra) == (*items, extra)
    if items:
        assert trail[-1] == items[-1] and trail[0] == items[0] and trail[1:] == tuple(items[1:])
        assert trail.but_last(extra) == (*items[:-1], extra)
    assert trail == tuple(items), "adding to a trail leaves it as it was"


def test_trails_built_apart_are_equal_when_their_items_are() -> None:
    assert Trail([1, 2]).then(3) == Trail([1, 2, 3]) != Trail([1, 2])
    assert Trail().then(1) != Trail().then(2) and Trail() == ()


def test_the_last_item_of_an_empty_trail_cannot_be_replaced() -> None:
    with pytest.raises(IndexError, match="An empty trail has no last item to replace"):
        Trail().but_last(1)
    with pytest.raises(IndexError):
        Trail()[-1]


def test_a_trail_of_many_items_is_read_and_dropped_without_recursion() -> None:
    trail: Trail[int] = Trail()
    for item in range(200_000):
        trail = trail.then(item)
    assert trail[-1] == 199_999 and trail[123_456] == 123_456 and trail == tuple(range(200_000))
    del trail


def test_a_trail_survives_pickle_and_copy() -> None:
    trail = Trail([1, 2]).then(3)
    assert pickle.loads(pickle.dumps(trail)) == (1, 2, 3) == copy.deepcopy(trail)


# -- states share what grows ---------------------------------------------------------------------


def test_each_state_of_a_game_shares_the_turns_before_it_with_the_state_before() -> None:
    game = long_game()
    replayed = Game.from_events(game.events[:1])
    states = [replayed.state]
    for event in game.events[1:]:
        replayed.redo(event)
        states.append(replayed.state)
    ended = [later for earlier, later in zip(states, states[1:]) if len(later.history) > len(earlier.history)]
    assert len(ended) == len(game.history) > 250
    for earlier, later in zip(states, states[1:]):
        if len(later.history) == len(earlier.history) + 1:
            assert later.history.before is earlier.history, "a turn ended: one record added, nothing copied"
        elif len(later.history) == len(earlier.history):
            assert later.history is earlier.history


def test_a_game_state_is_still_frozen() -> None:
    game = long_game(5)
    with pytest.raises(dataclasses.FrozenInstanceError):
        game.state.scores = (0, 0, 0)  # type: ignore[misc]


def test_the_history_of_a_game_is_a_tuple_of_its_turns() -> None:
    game = long_game(20)
    assert isinstance(game.history, tuple) and len(game.history) == 20
    assert game.state.history == game.history and game.history[-1].seat == (game.current - 1) % 3


def test_undo_is_a_pop_giving_back_the_very_state_before() -> None:
    game = long_game(50)
    before = game.state
    game.roll([1, 2, 3, 4, 6, 6] if game.state.dice_to_throw == 6 else [2] * (game.state.dice_to_throw or 6))
    game.undo()
    assert game.state is before


def test_a_long_game_replays_to_an_equal_game_with_the_same_history() -> None:
    game = long_game()
    again = Game.from_events(game.events)
    assert again == game and again.history == game.history and again.scores == game.scores


def test_a_log_that_breaks_a_rule_is_refused_and_replay_leaves_collection_on() -> None:
    log = long_game(30).events
    broken = log[:1] + [{"type": "kept", "dice": [1]}] + log[1:]
    with pytest.raises(IllegalAction, match="Ann has not thrown yet: enter the throw first"):
        Game.from_events(broken)
    assert gc.isenabled()


def test_the_collector_runs_while_a_long_log_is_replayed() -> None:
    """A replay leaves the process's garbage collector alone (another thread may need it meanwhile)."""
    log = long_game(1_000).events
    collections: list[int] = []

    def count(phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            collections.append(info["generation"])

    gc.callbacks.append(count)
    try:
        Game.from_events(log)
    finally:
        gc.callbacks.remove(count)
    assert collections, f"no collection ran while {len(log)} events were replayed"


def test_a_game_says_it_cannot_be_hashed_as_python_values_do() -> None:
    """Equal by its log, changed by every throw: never a set member or a dict key."""
    game = long_game(3)
    assert not isinstance(game, Hashable)
    with pytest.raises(TypeError, match="unhashable"):
        {game}
