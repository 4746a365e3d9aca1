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


HOUSE_4000 = dataclasses.replace(HOUSE, target=4000)
NEW_SMALL_TARGETS = itertools.count(500, 50)  # each a small rule set no win table is solved for yet
NEW_SCORE_PAIRS = ((mine * 50, 2000 - mine * 50) for mine in itertools.count(4))


def test_bench_solving_a_win_table_on_demand(benchmark):
    from engine.advice import solve_win_table

    def solve() -> int:
        return len(solve_win_table(dataclasses.replace(HOUSE, target=next(NEW_SMALL_TARGETS), entry_threshold=0)).start)

    assert benchmark.pedantic(solve, rounds=3, iterations=1) >= 10


def test_bench_reading_the_shipped_win_tables(benchmark):
    from engine.advice.win import TABLES_FILE, read_tables

    data = TABLES_FILE.read_bytes()
    print(f"\n{TABLES_FILE.name}: {len(data):,} bytes")
    assert (HOUSE_4000, True) in benchmark.pedantic(read_tables, args=(data,), rounds=3, iterations=1)


def test_bench_win_chance_mid_turn_for_a_new_pair_of_scores(benchmark):
    from engine import win_chance

    def first_ask() -> float:
        return win_chance(HOUSE_4000, next(NEW_SCORE_PAIRS), 0, 300, 3)

    assert 0 < benchmark.pedantic(first_ask, rounds=5, iterations=1) < 1


def test_bench_advise_with_the_win_chance_on_a_warm_table(benchmark):
    game = Game(["Ann", "Bob"], HOUSE_4000)
    game.roll("1 5 2 3 4 4")
    assert advise(game).win_chance is not None
    assert benchmark(advise, game).action == "keep"
