"""What the engine's words cost (report, never assert on time): a whole game replayed from its
log, every notice said as engine words, and one notice said as words beside the f-string it
replaced, in the same run.

    .venv/bin/pytest -q tests/bench/bench_engine_words.py
"""

from __future__ import annotations

import random

from engine import Game, Rules
from engine.words import say
from tests.support.game_play import play_game

HOUSE = Rules.preset("house")


def a_played_game() -> Game:
    return play_game(Game(["Ann", "Bob", "Cy", "Dee"], HOUSE), random.Random(29))


def test_bench_replaying_a_four_player_game_from_its_log(benchmark):
    events = a_played_game().events
    replayed = benchmark(Game.from_events, events)
    assert replayed.winner is not None and len(events) > 100


def test_bench_a_bank_notice_said_as_engine_words(benchmark):
    said = benchmark(lambda: say("{who} banks {points:,}: total {total:,}.", who="Ann", points=350, total=10_050))
    assert said == "Ann banks 350: total 10,050."


def test_bench_the_same_notice_as_the_f_string_it_replaced(benchmark):
    who, points, total = "Ann", 350, 10_050
    assert benchmark(lambda: f"{who} banks {points:,}: total {total:,}.") == "Ann banks 350: total 10,050."
