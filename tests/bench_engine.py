"""Engine speed: figures for the closing note, never timed assertions."""

from __future__ import annotations

import dataclasses
import random

from engine import Game, Rules, best_score, farkle_chance, score
from engine.scoring import _build_table
from tests.game_play import play_game

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
