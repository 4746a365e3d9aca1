"""The rule sets whose two-player win chances are shipped, and the published games they check.

Each shipped table is every start value of a two-player game (:mod:`engine.advice.win`),
solved where the tables are written (``python build/win_tables.py``, compiled code:
:mod:`build.win_solver`) and read by the app and the PWA instead of solving.
"""

from __future__ import annotations

import dataclasses

from engine.advice.values import step_of
from engine.advice.win import WinTable
from engine.rules import Rules

__all__ = ["SHIPPED", "FACEBOOK_FARKLE", "busche_neller_rules", "fairest_compensation"]

FACEBOOK_FARKLE = dataclasses.replace(
    Rules.preset("official"), n_of_a_kind="multiply", straight=1500, triple_farkle_penalty=500, minimum_bank=300,
    lowest_total=-2500, end_rule="first_to_target")
"""Busche's "Facebook Farkle" (engine/RULES.md §3.7): ``official`` with four, five and six of
a kind the triple x2, x3, x4, a straight 1,500, a third farkle in a row -500 down to
-2,500, every bank at least 300, and the first to bank 10,000 winning at once."""

SHIPPED: tuple[tuple[str, Rules], ...] = (
    ("house to 4,000", dataclasses.replace(Rules.preset("house"), target=4000)),
    ("house to 5,000", dataclasses.replace(Rules.preset("house"), target=5000)),
    ("house", Rules.preset("house")),
    ("official to 4,000", dataclasses.replace(Rules.preset("official"), target=4000)),
    ("official", Rules.preset("official")),
    ("Facebook Farkle", FACEBOOK_FARKLE),
    ("progressive to 4,000", dataclasses.replace(Rules.preset("progressive"), target=4000)),
    ("progressive", Rules.preset("progressive")),
    ("classic to 4,000", dataclasses.replace(Rules.preset("classic"), target=4000)),
    ("classic", Rules.preset("classic")),
)
"""The shipped tables by name: every preset without passing, to its own target and to the
two-player target RULES.md lists, Busche's Facebook Farkle (his published figure), and the
presets with passing likewise (with their offers' tables: 2 MB for every table together)."""


def busche_neller_rules(target: int = 10_000) -> Rules:
    """Busche & Neller's simplest scoring: single 1 = 100, single 5 = 50, three of a kind
    only, no entry threshold, the first to bank ``target`` wins."""
    return Rules(target=target, entry_threshold=0, n_of_a_kind="none", straight=None, three_pairs=None,
                 two_triplets=None, end_rule="first_to_target")


def fairest_compensation(table: WinTable) -> tuple[int, float]:
    """The head start for the second player that brings the first player's chance nearest
    one half, and that chance (the first player moves at 0 against the head start)."""
    rules = table.rules
    step = step_of(rules)
    best = (0, table.chance(0, 0))
    points = step
    while points < rules.target:
        chance = table.chance(0, points)
        if abs(chance - 0.5) < abs(best[1] - 0.5):
            best = (points, chance)
        if chance < 0.5:
            break
        points += step
    return best
