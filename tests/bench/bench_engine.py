"""Engine speed: figures for the closing note, never timed assertions."""

from __future__ import annotations

import dataclasses
import random
from typing import Any

import pytest

from engine import Game, Rules, best_score, farkle_chance, score
from engine.scoring import _build_table
from tests.support.game_play import play_game, play_turn

HOUSE = Rules.preset("house")


def test_bench_score_warm(benchmark):
    score((1, 3, 3, 3, 5), HOUSE)
    assert benchmark(score, (1, 3, 3, 3, 5), HOUSE) == 450


def test_bench_best_score_warm(benchmark):
    best_score((1, 2, 3, 3, 3, 5), HOUSE)
    assert benchmark(best_score, (1, 2, 3, 3, 3, 5), HOUSE) == 450


def test_bench_farkle_chance_one_to_six_cold(benchmark):
    def cold() -> list[object]:
        _build_table.cache_clear()
        rules = dataclasses.replace(HOUSE, target=HOUSE.target)  # a fresh instance: no cached table
        return [farkle_chance(n, rules) for n in range(1, 7)]

    chances = benchmark.pedantic(cold, rounds=5, iterations=1)
    assert len(chances) == 6


def long_game_log(length: int = 500) -> list[dict[str, object]]:
    rng = random.Random(7)
    game = play_game(Game(["Ann", "Bob", "Cy", "Di"], HOUSE), rng)
    while len(game.events) < length:
        game = play_game(Game(["Ann", "Bob", "Cy", "Di"], dataclasses.replace(HOUSE, target=20_000)), rng)
    return game.events[:length]


def test_bench_replay_a_500_event_game(benchmark):
    log = long_game_log()
    game = benchmark(Game.from_events, log)
    assert len(game.events) == 500


def endless_game_log(length: int) -> list[dict[str, Any]]:
    """The first ``length`` events of a 4-player game whose target nobody reaches (a log's prefix is a log)."""
    rng = random.Random(7)
    game = Game(["Ann", "Bob", "Cy", "Di"], dataclasses.replace(HOUSE, target=1_000_000_000))
    while True:
        for _ in range(length // 3):  # about 4 events a turn
            play_turn(game, rng)
        events = game.events
        if len(events) >= length:
            return events[:length]


@pytest.fixture(scope="module")
def endless_log() -> list[dict[str, Any]]:
    return endless_game_log(100_000)


@pytest.mark.parametrize("length", [10_000, 100_000])
def test_bench_replay_is_linear_in_the_length_of_the_log(benchmark: Any, endless_log: list[dict[str, Any]], length: int) -> None:
    """Microseconds per event stay flat from 10,000 to 100,000 events (``extra_info``): replay is linear.

    Before: 8,000 events 0.34 s, 16,000 1.0 s, 32,000 5.7 s, 64,000 25 s (every state
    copied the whole turn history).
    """
    log = endless_log[:length]
    game = benchmark.pedantic(Game.from_events, args=(log,), rounds=3 if length > 10_000 else 10, iterations=1)
    assert len(game.events) == length
    benchmark.extra_info["events"] = length
    benchmark.extra_info["turns"] = len(game.history)
    benchmark.extra_info["us_per_event"] = round(benchmark.stats.stats.mean / length * 1e6, 2)


def test_bench_undo_and_redo_at_the_end_of_a_100_000_event_game(benchmark: Any, endless_log: list[dict[str, Any]]) -> None:
    """Undo is a pop, however long the game: the states before are kept, not replayed."""
    game = Game.from_events(endless_log)
    last = endless_log[-1]

    def undo_and_redo() -> None:
        game.undo()
        game.redo(last)

    benchmark(undo_and_redo)
    assert game.events[-1] == last and len(game.events) == len(endless_log)
