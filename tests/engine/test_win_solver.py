"""The compiled solver that writes the shipped win-chance tables (build/win_solver.py) against
the engine's own solver (engine/advice/win.py), at targets small enough for CPython: two
programs of the same game, one checking the other."""

from __future__ import annotations

import dataclasses
import importlib
import sys
from types import ModuleType

import pytest

from engine import InvalidInput, Rules
from engine.advice.win import solve_win_table, win_chance
from engine.advice.win_tables import FACEBOOK_FARKLE
from tests.support.pwa_harness import ROOT

HOUSE = Rules.preset("house")
OFFICIAL = Rules.preset("official")
PROGRESSIVE = Rules.preset("progressive")
CLASSIC = Rules.preset("classic")

CASES = {
    "house to 500, the final round": dataclasses.replace(HOUSE, target=500),
    "house to 1,000, the first to bank it wins": dataclasses.replace(HOUSE, target=1000, end_rule="first_to_target"),
    "house to 600, every bank at least 200": dataclasses.replace(HOUSE, target=600, entry_threshold=0,
                                                                  minimum_bank=200),
    "house to 400, hot dice must be thrown": dataclasses.replace(HOUSE, target=400, entry_threshold=0,
                                                                 must_roll_after_hot_dice=True),
    "Facebook Farkle to 300, down to -200, banks of 100": dataclasses.replace(
        FACEBOOK_FARKLE, target=300, lowest_total=-200, minimum_bank=100),
    "official to 300, the first to bank it wins": dataclasses.replace(OFFICIAL, target=300,
                                                                       end_rule="first_to_target"),
    "progressive to 500, a bank passes its points and dice": dataclasses.replace(PROGRESSIVE, target=500),
    "classic to 400, passing, every bank at least 200": dataclasses.replace(CLASSIC, target=400, minimum_bank=200),
    "progressive to 600, passing, the first to bank it wins": dataclasses.replace(PROGRESSIVE, target=600,
                                                                                   end_rule="first_to_target"),
    "progressive to 300, passing, hot dice must be thrown": dataclasses.replace(
        PROGRESSIVE, target=300, entry_threshold=0, must_roll_after_hot_dice=True),
}


def win_solver() -> ModuleType:
    """build/win_solver.py, imported as build/win_tables.py imports it."""
    if str(ROOT / "build") not in sys.path:
        sys.path.insert(0, str(ROOT / "build"))
    return importlib.import_module("win_solver")


@pytest.mark.parametrize("rules", CASES.values(), ids=CASES.keys())
def test_the_compiled_solver_finds_every_start_value_the_engines_solver_finds(rules: Rules) -> None:
    compiled = win_solver().solve(rules)
    engine = solve_win_table(rules)
    assert compiled.start.size == len(engine.start)
    assert max(abs(a - b) for a, b in zip(compiled.start.ravel(), engine.start)) < 1e-9


@pytest.mark.parametrize(("scores", "to_move", "points", "dice"), [
    ((0, 0), 0, 300, 3),
    ((200, 0), 1, 200, 6),
    ((100, 250), 0, 100, 1),
    ((350, 300), 1, 400, 2),
])
def test_the_compiled_solver_weighs_building_on_an_offer_as_the_engine_does(
        scores: tuple[int, int], to_move: int, points: int, dice: int) -> None:
    rules = CASES["progressive to 500, a bank passes its points and dice"]
    compiled = win_solver().solve(rules)
    mine, other = scores[to_move] // 50, scores[1 - to_move] // 50
    built = win_chance(rules, scores, to_move, points, dice, may_bank=False)
    assert abs(compiled.built[mine, other, points // 50, dice - 1] - built) < 1e-9
    offered = win_chance(rules, scores, to_move, offer=(points, dice))
    assert abs(offered - max(built, compiled.start[mine, 0, other, 0])) < 1e-9


@pytest.mark.parametrize("rules", [dataclasses.replace(HOUSE, steal=True),
                                   dataclasses.replace(PROGRESSIVE, triple_farkle_penalty=500)],
                         ids=["steal", "passing beside a penalty"])
def test_stealing_and_passing_beside_a_penalty_are_refused_by_the_compiled_solver_as_by_the_engine(
        rules: Rules) -> None:
    with pytest.raises(ValueError, match="stealing, or passing dice beside a penalty"):
        win_solver().solve(rules)
    with pytest.raises(InvalidInput, match="steal|passing dice beside"):
        win_chance(rules, (0, 0), 0)


def win_tables() -> ModuleType:
    """build/win_tables.py, which samples the compiled solver's offers for the shipped file."""
    win_solver()
    return importlib.import_module("win_tables")


def test_the_shipped_offers_table_reads_the_exact_value_of_building_at_every_point_of_its_grid() -> None:
    rules = dataclasses.replace(PROGRESSIVE, target=1000)
    found = win_solver().solve(rules)
    offers = win_tables().offer_table(found)
    levels = found.built.shape[0]
    read = 0
    for total in offers.totals:
        for lead in offers.leads:
            for points in offers.points:
                mine, other = total - points, total - points - lead
                if 0 <= mine < levels and 0 <= other < levels:
                    for dice in range(1, 7):
                        assert offers.built(mine, other, points, dice) == pytest.approx(
                            found.built[mine, other, points, dice - 1], abs=1e-12)
                    read += 1
    assert read > 100


def test_the_offers_tables_error_the_build_states_is_the_largest_an_offer_read_by_the_engine_has() -> None:
    found = win_solver().solve(dataclasses.replace(PROGRESSIVE, target=1500))  # offers' points every other step
    offers = win_tables().offer_table(found)
    worst, mean, most = win_tables().offer_errors(found, offers)
    levels = found.built.shape[0]
    engine_worst = max(
        abs(max(offers.built(mine, other, points, dice), found.start[mine, 0, other, 0])
            - max(found.built[mine, other, points, dice - 1], found.start[mine, 0, other, 0]))
        for mine in range(levels) for other in range(levels) for points in range(other + 1) for dice in range(1, 7))
    assert worst == pytest.approx(engine_worst, abs=1 / 4095) and 0 < mean <= most <= worst and worst > 1 / 4095
