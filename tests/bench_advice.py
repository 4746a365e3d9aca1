"""Advice speed (report, never assert on time): solving a new rule set's tables, and advice
on warm tables, beside ``best_score`` in the same run.

    .venv/bin/pytest -q tests/bench_advice.py
"""

from __future__ import annotations

import dataclasses
import itertools

from engine import Game, Rules, advise, best_score, costly_decisions, prepare

HOUSE = Rules.preset("house")
NEW_TARGETS = itertools.count(6000, 50)  # each a rule set no table is solved for yet


def test_bench_solving_the_advice_tables_for_a_new_rule_set(benchmark):
    def solve() -> float:
        return list(prepare(dataclasses.replace(HOUSE, target=next(NEW_TARGETS))))[-1]

    assert benchmark.pedantic(solve, rounds=3, iterations=1) == 1.0


def test_bench_advise_a_keep_on_warm_tables(benchmark):
    game = Game(["Ann", "Bob"], HOUSE)
    game.roll("1 5 2 3 4 4")
    advise(game)
    assert benchmark(advise, game).action == "keep"


def test_bench_best_score_in_the_same_run(benchmark):
    best_score((1, 5, 2, 3, 4, 4), HOUSE)
    assert benchmark(best_score, (1, 5, 2, 3, 4, 4), HOUSE) == 150


def test_bench_judging_a_finished_games_decisions(benchmark):
    import random

    from tests.game_play import play_game

    game = play_game(Game(["Ann", "Bob", "Cy"], HOUSE), random.Random(3))
    list(prepare(HOUSE))
    decisions = benchmark.pedantic(costly_decisions, args=(game,), rounds=3, iterations=1)
    assert set(decisions) == {0, 1, 2}
