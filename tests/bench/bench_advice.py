"""Advice speed (report, never assert on time): solving a new rule set's tables, and advice
on warm tables, beside ``best_score`` in the same run.

    .venv/bin/pytest -q tests/bench/bench_advice.py
"""

from __future__ import annotations

import dataclasses
import itertools

from engine import Game, Rules, advise, best_score, costly_decisions, prepare
from tests.support.game_play import ann_on_two_farkles

HOUSE = Rules.preset("house")
OFFICIAL = Rules.preset("official")
NEW_TARGETS = itertools.count(6000, 50)  # each a rule set no table is solved for yet


def test_bench_solving_the_advice_tables_for_a_new_rule_set(benchmark):
    def solve() -> float:
        return list(prepare(dataclasses.replace(HOUSE, target=next(NEW_TARGETS))))[-1]

    assert benchmark.pedantic(solve, rounds=3, iterations=1) == 1.0


def test_bench_solving_the_tables_with_the_farkle_streak_for_a_new_rule_set(benchmark):
    """The official preset's penalty: the streak's worth (a few tables more) beside the house
    rules' two tables above, in the same run."""
    def solve() -> float:
        return list(prepare(dataclasses.replace(OFFICIAL, target=next(NEW_TARGETS))))[-1]

    assert benchmark.pedantic(solve, rounds=3, iterations=1) == 1.0


def test_bench_advise_a_keep_on_warm_tables_on_two_farkles_under_official(benchmark):
    game = ann_on_two_farkles()
    game.roll("3 3 3 2 4 6")
    list(prepare(OFFICIAL))
    assert advise(game).penalty == 1000
    assert benchmark(advise, game).action == "keep"


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

    from tests.support.game_play import play_game

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
    """Each shipped table's size on its own (zlib, as shipped) beside the whole file's: the
    PWA carries the file (budget: 2 MB for every table together)."""
    from engine.advice.win_format import TABLES_FILE, read_tables, write_tables
    from engine.advice.win_tables import SHIPPED

    data = TABLES_FILE.read_bytes()
    tables = benchmark.pedantic(read_tables, args=(data,), rounds=3, iterations=1)
    sizes = ", ".join(f"{name} {len(write_tables([tables[rules]])):,}" for name, rules in SHIPPED)
    print(f"\n{TABLES_FILE.name}: {len(data):,} bytes ({sizes})")
    assert HOUSE_4000 in tables


def test_bench_win_chance_mid_turn_for_a_new_pair_of_scores(benchmark):
    from engine import win_chance

    def first_ask() -> float:
        return win_chance(HOUSE_4000, next(NEW_SCORE_PAIRS), 0, 300, 3)

    assert 0 < benchmark.pedantic(first_ask, rounds=5, iterations=1) < 1


def test_bench_win_chance_with_an_offer_for_a_new_pair_of_scores_under_progressive(benchmark):
    """A new pair of totals: one turn solved on the device against the shipped offers' table."""
    from engine import win_chance

    progressive = Rules.preset("progressive")
    win_chance(progressive, (0, 0), 0)  # the table read once

    def first_ask() -> float:
        mine, other = next(NEW_SCORE_PAIRS)
        return win_chance(progressive, (mine * 2, other * 2), 0, offer=(300, 3))

    assert 0 < benchmark.pedantic(first_ask, rounds=5, iterations=1) < 1


def test_bench_advise_with_the_win_chance_on_a_warm_table(benchmark):
    game = Game(["Ann", "Bob"], HOUSE_4000)
    game.roll("1 5 2 3 4 4")
    assert advise(game).win_chance is not None
    assert benchmark(advise, game).action == "keep"


PYODIDE_TIMINGS = """
import dataclasses, json, statistics, time
from engine import Game, Rules, advise, best_score, prepare, win_chance

def median_us(call, runs):
    times = []
    for _ in range(runs):
        started = time.perf_counter()
        call()
        times.append(time.perf_counter() - started)
    return statistics.median(times) * 1e6

house = Rules.preset("house")
started = time.perf_counter()
list(prepare(house))
solve_s = time.perf_counter() - started
official = Rules.preset("official")
started = time.perf_counter()
list(prepare(official))
solve_official_s = time.perf_counter() - started
two_farkles = Game(["Ann", "Bob"], official)
for throw in ("1 1 1 2 3 4", "1 2 3 4 6 6", "2 2 3 3 4 6", "1 2 3 4 6 6", "2 2 3 3 4 6", "1 2 3 4 6 6", "3 3 3 2 4 6"):
    two_farkles.roll(throw)
    if throw != "2 2 3 3 4 6" and throw != "3 3 3 2 4 6":
        two_farkles.keep("1 1 1" if throw.startswith("1 1 1") else "1")
        two_farkles.bank()
advise(two_farkles)
game = Game(["Ann", "Bob"], house)
game.roll("1 5 2 3 4 4")
advise(game)
house_4000 = dataclasses.replace(house, target=4000)
game_of_two = Game(["Ann", "Bob"], house_4000)
game_of_two.roll("1 5 2 3 4 4")
started = time.perf_counter()
advise(game_of_two)
first_win_ms = (time.perf_counter() - started) * 1000
from engine.advice import solve_win_table
started = time.perf_counter()
solve_win_table(dataclasses.replace(house, target=500, entry_threshold=0))
solve_win_500_s = time.perf_counter() - started
official_4000 = dataclasses.replace(official, target=4000)
penalty_game = Game(["Ann", "Bob"], official_4000)
penalty_game.roll("1 5 2 3 4 4")
started = time.perf_counter()
advise(penalty_game)
first_penalty_win_ms = (time.perf_counter() - started) * 1000
progressive = Rules.preset("progressive")
list(prepare(progressive))
offered = Game(["Ann", "Bob"], progressive)
offered.roll("1 1 1 2 3 4")
offered.keep("1 1 1")
offered.bank()
started = time.perf_counter()
advise(offered)
first_offer_win_ms = (time.perf_counter() - started) * 1000
json.dumps({
    "solve_s": solve_s,
    "solve_official_s": solve_official_s,
    "advise_us": median_us(lambda: advise(game), 200),
    "advise_official_us": median_us(lambda: advise(two_farkles), 200),
    "best_score_us": median_us(lambda: best_score((1, 5, 2, 3, 4, 4), house), 2000),
    "first_win_ms": first_win_ms,
    "advise_win_us": median_us(lambda: advise(game_of_two), 200),
    "first_penalty_win_ms": first_penalty_win_ms,
    "solve_win_500_s": solve_win_500_s,
    "advise_penalty_win_us": median_us(lambda: advise(penalty_game), 200),
    "first_offer_win_ms": first_offer_win_ms,
    "advise_offer_win_us": median_us(lambda: advise(offered), 200),
})
"""


def test_bench_advice_in_the_pwas_pyodide_beside_best_score(tmp_path_factory):
    """The same figures in the PWA's own Python (its Pyodide and app.tar.gz, run by Node.js:
    the engine's work without the browser's drawing), reported, never asserted on time."""
    import os

    from tests.support.pwa_harness import run_in_pwa_pyodide

    figures = run_in_pwa_pyodide(tmp_path_factory, PYODIDE_TIMINGS, timeout_s=600)
    print(f"\nPyodide (Node.js), load {os.getloadavg()[0]:.1f}: house tables solved in {figures['solve_s']:.2f} s, "
          f"official's with the farkle streak in {figures['solve_official_s']:.2f} s; advice on two farkles under "
          f"official {figures['advise_official_us']:.0f} µs; "
          f"advise on warm tables {figures['advise_us']:.0f} µs against best_score's {figures['best_score_us']:.1f} µs; "
          f"a game of two to 4,000: first advice with the win chance {figures['first_win_ms']:.0f} ms, "
          f"then {figures['advise_win_us']:.0f} µs; official to 4,000 (both streaks): first "
          f"{figures['first_penalty_win_ms']:.0f} ms, then {figures['advise_penalty_win_us']:.0f} µs; progressive "
          f"(an offer passed): first {figures['first_offer_win_ms']:.0f} ms (its table read), then "
          f"{figures['advise_offer_win_us']:.0f} µs; a win table "
          f"chosen at the table (house to 500, no entry) solved in {figures['solve_win_500_s']:.1f} s")
    assert figures["solve_s"] > 0
