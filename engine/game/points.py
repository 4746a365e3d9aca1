"""Points-only scoring: what a turn entered as its banked points can still be checked against.

A family at a kitchen table keeps score the way the paper sheet does: a turn's bank or
"farkle". The throws are not entered, so the engine cannot check them; it still checks
what the points themselves tell (the rules' smallest step, and in :mod:`~engine.game.state`
getting on the board, the minimum bank, streaks, the final round and roll-offs).

>>> from engine.rules import Rules
>>> points_step(Rules.preset("house")), points_step(Rules(single_five=25))
(50, 25)
>>> points_refusal("Ann", 325, Rules.preset("house"))
'325 cannot be banked under these rules: every score is a multiple of 50 (300 or 350?).'
"""

from __future__ import annotations

from functools import reduce
from itertools import combinations_with_replacement
from math import gcd
from typing import Final

from engine.dice import FACES, MAX_DICE
from engine.rules import Rules
from engine.scoring import best_score
from engine.words import Words, say

__all__ = ["UNCHECKED", "MAX_TURN_POINTS", "points_step", "points_refusal", "passed_refusal"]

UNCHECKED: Final = say(
    "Points only: the throws are not entered, so the app cannot check them "
    "(what scored, hot dice, a must-roll after hot dice, a steal after a farkle). "
    "It still checks the points: the rules' smallest step, getting on the board, "
    "the minimum bank, farkle streaks and the penalty, the final round and roll-offs."
)
"""What the engine says plainly it cannot check in a game kept in points only."""

MAX_TURN_POINTS: Final = 1_000_000
"""More than any turn scores at a real table: a bank above it is a typing slip."""


def points_step(rules: Rules) -> int:
    """The smallest step every score of these rules is a multiple of (50 in the presets):
    a bank off the step was mistyped."""
    step: int | None = rules.memo.get("points_step")
    if step is None:
        scores = (
            best_score(dice, rules)
            for size in range(1, MAX_DICE + 1)
            for dice in combinations_with_replacement(FACES, size)
        )
        step = rules.memo["points_step"] = reduce(gcd, scores, 0)
    return step


def points_refusal(who: str, points: object, rules: Rules, built_on: int | None = None) -> Words | None:
    """Why ``points`` cannot be ``who``'s bank under ``rules`` (or on an offer of ``built_on``
    points), in a player's words; None if it can."""
    if isinstance(points, bool) or not isinstance(points, int):
        return say("{points!r} is not a number of points: enter what {who} banked, e.g. 350.", points=points, who=who)
    if points <= 0:
        return say("{points:,} cannot be banked: a bank is more than 0. If {who} scored nothing, enter a farkle.",
                   points=points, who=who)
    if points > MAX_TURN_POINTS:
        return say("{points:,} is more than any turn scores: check the number {who} banked.", points=points, who=who)
    step = points_step(rules)
    if points % step:
        lower = points - points % step
        if not lower:
            return say("{points:,} cannot be banked under these rules: every score is a multiple of {step:,} "
                       "({step:,}?).", points=points, step=step)
        return say("{points:,} cannot be banked under these rules: every score is a multiple of {step:,} "
                   "({lower:,} or {higher:,}?).", points=points, step=step, lower=lower, higher=lower + step)
    if built_on is not None and points <= built_on:
        return say("{who} built on {built_on:,}: the bank is those points and what {who} added, "
                   "so more than {built_on:,}, not {points:,}.", who=who, built_on=built_on, points=points)
    return None


def passed_refusal(passed: object, rules: Rules) -> Words | None:
    """Why ``passed`` cannot be the dice a bank leaves to the next player, or None."""
    if passed is None:
        return None
    if not rules.progressive:
        return say("These rules do not pass dice to the next player: enter only the points.")
    if isinstance(passed, bool) or not isinstance(passed, int) or not 1 <= passed <= MAX_DICE:
        return say("{passed!r} dice cannot be passed: a bank leaves 1 to {most} dice to pass.", passed=passed,
                   most=MAX_DICE)
    return None
