"""The compiled solver that writes the shipped win-chance tables (build/win_solver.py) against
the engine's own solver (engine/advice/win.py), at targets small enough for CPython: two
programs of the same game, one checking the other."""

from __future__ import annotations

import dataclasses
import importlib
import sys
from types import ModuleType

import pytest

from engine import Rules
from engine.advice.win import solve_win_table
from engine.advice.win_tables import FACEBOOK_FARKLE
from tests.support.pwa_harness import ROOT

HOUSE = Rules.preset("house")
OFFICIAL = Rules.preset("official")

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


def test_passing_dice_is_refused_by_the_compiled_solver_as_by_the_engine() -> None:
    with pytest.raises(ValueError, match="passing dice"):
        win_solver().solve(Rules.preset("progressive"))
