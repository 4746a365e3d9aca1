"""The chance to win by simulation (report, never assert on time): games simulated per
second and the time one state's chances take at 2, 4 and 8 players, warm and for a new
rule set, with the load average of the run.

    .venv/bin/pytest -q -s tests/bench/bench_win_simulation.py
"""

from __future__ import annotations

import dataclasses
import itertools
import os
import time

import pytest

from engine import Game, Rules, prepare, win_chances, work_out_win_chances

OFFICIAL = Rules.preset("official")
NEW_TARGETS = itertools.count(7000, 50)  # each a rule set nothing is worked out for yet


def opening(players: int, rules: Rules = OFFICIAL) -> Game:
    return Game([f"P{seat}" for seat in range(players)], rules)


def report(benchmark, chances) -> None:  # type: ignore[no-untyped-def]
    mean = benchmark.stats.stats.mean
    load = os.getloadavg()[0]
    benchmark.extra_info.update(games=chances.games, games_per_s=round(chances.games / mean), load=load)
    print(f"\n{chances.games} games in {mean:.2f} s: {chances.games / mean:,.0f} games/s, load {load:.1f}")


@pytest.mark.parametrize("players", [2, 4, 8])
def test_bench_the_chance_to_win_at_a_games_start_on_warm_tables(benchmark, players: int):
    state = opening(players).state
    list(prepare(OFFICIAL))
    win_chances(state)  # the policy's fresh turns worked out once
    chances = benchmark.pedantic(win_chances, args=(state,), rounds=3, iterations=1)
    assert chances.method == "simulated"
    report(benchmark, chances)


def test_bench_the_chance_to_win_in_a_final_round_of_four(benchmark):
    state = dataclasses.replace(opening(4).state, scores=(10_300, 8_000, 9_500, 4_000), on_board=(True,) * 4,
                                current=1, final_round=True, last_turns=(1, 2, 3))
    win_chances(state)
    chances = benchmark.pedantic(win_chances, args=(state,), rounds=3, iterations=1)
    report(benchmark, chances)


def test_bench_the_chance_to_win_for_a_new_rule_set_of_four(benchmark):
    """The first chance under a new rule set: its advice tables solved (with the streak's
    under a penalty), the advised turn's ends worked out, then the games."""
    def first() -> object:
        rules = dataclasses.replace(OFFICIAL, target=next(NEW_TARGETS))
        list(prepare(rules))
        return win_chances(opening(4, rules).state)

    chances = benchmark.pedantic(first, rounds=2, iterations=1)
    report(benchmark, chances)


def test_bench_the_longest_pause_between_slices_for_a_new_rule_set_of_four(benchmark):
    """What the browser (no threads) waits at most between two looks at taps while a new
    rule set's first chance is worked out (its advice tables solved before)."""
    def longest() -> float:
        rules = dataclasses.replace(OFFICIAL, target=next(NEW_TARGETS))
        list(prepare(rules))
        work, pause = work_out_win_chances(opening(4, rules).state), 0.0
        while True:
            began = time.perf_counter()
            try:
                next(work)
            except StopIteration:
                return max(pause, time.perf_counter() - began)
            pause = max(pause, time.perf_counter() - began)

    pause = benchmark.pedantic(longest, rounds=2, iterations=1)
    print(f"\nlongest pause {pause * 1000:.0f} ms, load {os.getloadavg()[0]:.1f}")


PYODIDE_TIMINGS = """
import json, time
from engine import Game, Rules, prepare, win_chances, work_out_win_chances

official = Rules.preset("official")
list(prepare(official))
figures = {}
for players in (2, 4, 8):
    state = Game([f"P{seat}" for seat in range(players)], official).state
    work, pause, started = work_out_win_chances(state), 0.0, time.perf_counter()
    while True:
        began = time.perf_counter()
        try:
            next(work)
        except StopIteration as done:
            chances = done.value
            break
        pause = max(pause, time.perf_counter() - began)
    first = time.perf_counter() - started
    started = time.perf_counter()
    again = win_chances(state)
    figures[players] = {"first_s": first, "warm_s": time.perf_counter() - started, "games": again.games,
                        "pause_ms": pause * 1000}
json.dumps(figures)
"""


def test_bench_the_chance_to_win_in_the_pwas_pyodide(tmp_path_factory):
    """The same in the PWA's own Python (its Pyodide and app.tar.gz, run by Node.js)."""
    from tests.support.pwa_harness import run_in_pwa_pyodide

    figures = run_in_pwa_pyodide(tmp_path_factory, PYODIDE_TIMINGS, timeout_s=900)
    for players, figure in figures.items():
        print(f"\nPyodide (Node.js), load {os.getloadavg()[0]:.1f}, official, {players} players: first chance "
              f"{figure['first_s']:.2f} s (longest pause {figure['pause_ms']:.0f} ms), then {figure['warm_s']:.2f} s "
              f"for {figure['games']} games")
