"""What a turn is worth, when to bank, and the chance to reach a total, solved exactly.

A turn is a Markov decision process over (turn total, dice to throw): throw, set aside
one of the throw's legal keeps, then bank or throw on. Its values are solved by
backward induction over the turn total, which only grows within a turn (the method of
Neller & Presser, "Optimal Play of the Dice Game Pig", UMAP Journal 2004, applied to
Farkle as in Busche & Neller, "Optimal Play of the Farkle Dice Game", Advances in
Computer Games 2017). Every throw's keeps come from :func:`engine.scoring_options`, so
the advice follows the table's own rules: the points of every combination, the entry
threshold (a player not on the board may bank only once the turn reaches it), hot dice
(six dice again, which must be thrown when the rules say so), a minimum bank once on the
board, and the three-farkle penalty.

Under a three-farkle penalty the farkle streak is part of the state, as in Busche's
strategy generator ("Maximizing Expected Scores in the Game of Zilch", 2010): the most
points is the long-run score per turn, a farkle costs the turn and leaves a longer streak
(worth less to the turns after it), and a third costs the penalty and starts the count
again. The streak's worth is solved once per rule set (:func:`_solve_streaks`).

Tables are computed once per rule set and kept (a second or so in CPython; a few with a
penalty).

>>> from engine import Rules
>>> house = Rules.preset("house")
>>> round(expected_turn(house, 350, 2), 1), round(roll_value(house, 350, 2), 1)
(350.0, 302.5)
>>> round(expected_turn(house), 1)
593.6
>>> round(catch_up_chance(house, 2350), 3)
0.071
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Generator, Iterator, Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations_with_replacement
from typing import Final, TypeVar

from engine.dice import FACES, MAX_DICE, Dice
from engine.errors import InvalidInput
from engine.rules import Rules
from engine.scoring import scoring_options
from engine.words import say

__all__ = ["expected_turn", "bank_thresholds", "catch_up_chance", "roll_value", "keep_values", "keep_chances",
           "prepare", "prepared", "step_of", "bank_allowed", "third_farkle_cost", "STREAKS", "MOST_LEVELS",
           "MOST_TURN_POINTS"]

_Done = TypeVar("_Done")
Choices = tuple[tuple[int, int], ...]
"""A throw's keeps as (points, dice left), the most points for each number of dice left."""

_CEILING_TURNS = 4
"""Turn totals are solved up to this many targets (at least 40,000): far above any total
from which throwing on could pay, so banking there is exact, not a guess (checked in the
tests: every bank threshold lies well below it)."""

MOST_LEVELS: Final = 40_000
"""The most turn totals a table is solved over: every rule set to 10,000 whatever its scores
(a grid of 1 point), 50 times the house rules' 800. A target of 999,999 on a grid of 1 would
be 4,000,000 (5,000 times the house rules' work and memory) on the device of whoever opened it."""
MOST_TURN_POINTS: Final = 2**53
"""The largest turn total advised on: the advice's figures are floats, exact to the point up to here."""


@dataclass(frozen=True)
class _Throws:
    """Every distinct outcome of throwing ``n`` dice, with its chance, for one rule set."""

    step: int
    """The largest number every score divides: turn totals move on this grid."""
    outcomes: tuple[tuple[tuple[float, Choices], ...], ...]
    """``outcomes[n]``: (chance, choices) for each distinct set of choices ``n`` dice can give."""
    every_keep: tuple[tuple[tuple[float, Choices], ...], ...]
    """The same with every keep a throw offers, not only the most points per dice left: more
    points are not always better when playing to win (a bank that reaches the target hands
    the other player a last turn)."""


@lru_cache(maxsize=16)
def _throws(rules: Rules) -> _Throws:
    grouped: list[dict[Choices, float]] = [{} for _ in range(MAX_DICE + 1)]
    every: list[dict[Choices, float]] = [{} for _ in range(MAX_DICE + 1)]
    step = 0
    for n in range(1, MAX_DICE + 1):
        for roll in combinations_with_replacement(FACES, n):
            best: dict[int, int] = {}
            keeps: set[tuple[int, int]] = set()
            for option in scoring_options(roll, rules):
                step = math.gcd(step, option.points)
                best[option.dice_left] = max(best.get(option.dice_left, 0), option.points)
                keeps.add((option.points, option.dice_left))
            if best:
                choices = tuple(sorted(best.items(), key=lambda item: (item[1], item[0])))
                keyed = tuple((points, left) for left, points in choices)
                chance = _arrangements(roll) / 6**n
                grouped[n][keyed] = grouped[n].get(keyed, 0.0) + chance
                all_keeps = tuple(sorted(keeps))
                every[n][all_keeps] = every[n].get(all_keeps, 0.0) + chance
    return _Throws(step, _listed(grouped), _listed(every))


def _listed(grouped: list[dict[Choices, float]]) -> tuple[tuple[tuple[float, Choices], ...], ...]:
    return tuple(tuple((chance, choices) for choices, chance in group.items()) for group in grouped)


def _arrangements(dice: Dice) -> int:
    ways = math.factorial(len(dice))
    for count in Counter(dice).values():
        ways //= math.factorial(count)
    return ways


@dataclass(frozen=True)
class _TurnValues:
    """``roll[i][n]``: the expected bank of throwing ``n`` dice holding ``i`` grid steps,
    playing on for the most points, where a farkle is worth ``farkle`` (0, or what the
    streak it leaves costs, see :func:`_farkle_worth`); banking is allowed from ``entry`` steps on."""

    step: int
    entry: int
    must_roll_hot_dice: bool
    roll: list[tuple[float, ...]]
    """Filled from the top total down: a keep only ever adds points, so every value
    :meth:`choice` reads is already there."""
    farkle: float = 0.0

    def choice(self, level: int, left: int) -> float:
        """The best of banking and throwing on, just after a keep left ``left`` dice."""
        if level >= len(self.roll):
            return float(level * self.step)
        throw_on = self.roll[level][left or MAX_DICE]
        if left == 0 and self.must_roll_hot_dice:
            return throw_on
        return max(throw_on, float(level * self.step)) if level >= self.entry else throw_on


_TURN_VALUES: dict[tuple[Rules, bool, float], _TurnValues] = {}


def _turn_values(rules: Rules, on_board: bool, farkle: float = 0.0) -> _TurnValues:
    """The table for ``rules`` where a farkle is worth ``farkle``, solved on first use and kept."""
    key = (rules, on_board, farkle)
    values = _TURN_VALUES.get(key)
    if values is None:
        values = _TURN_VALUES[key] = _shifted(rules, on_board, farkle) or _finish(_fill(rules, on_board, farkle))
    return values


def _finish(work: Generator[float, None, _Done]) -> _Done:
    """What ``work`` returns, its slices run at once."""
    while True:
        try:
            next(work)
        except StopIteration as finished:
            return finished.value  # type: ignore[no-any-return]


def _counted(work: Generator[float, None, _Done], before: float) -> Generator[float, None, _Done]:
    """``work``'s slices as tables solved: ``before`` and the share of ``work`` done."""
    while True:
        try:
            share = next(work)
        except StopIteration as finished:
            return finished.value  # type: ignore[no-any-return]
        yield before + share


def _shifted(rules: Rules, on_board: bool, farkle: float) -> _TurnValues | None:
    """Losing ``c`` points (a multiple of the grid) on a farkle is the penalty-free table ``c``
    points higher, less ``c``: bank ``t`` or lose ``c`` is bank ``t + c`` or lose nothing, shifted.
    Exact where banking is allowed from the first step, so a third farkle's cost, out of any
    total, takes no solving; None where that does not hold."""
    step = _throws(rules).step
    if farkle >= 0 or -farkle % step:
        return None
    base = _turn_values(rules, on_board)
    if base.entry > 1:
        return None
    rows = [tuple(value + farkle for value in row) for row in base.roll[int(-farkle) // step:]]
    return _TurnValues(step, base.entry, base.must_roll_hot_dice, rows, farkle)


def _fill(rules: Rules, on_board: bool, farkle: float = 0.0) -> Generator[float, None, _TurnValues]:
    """Solve the table from the top total down, yielding the share done every few hundred
    totals, and return it."""
    throws = _throws(rules)
    step = throws.step
    top = max(_CEILING_TURNS * rules.target, 40_000) // step
    if top > MOST_LEVELS:
        raise InvalidInput(say("No advice under these rules: a target of {target:,} with scores in steps of "
                               "{step:,} is {top:,} turn totals to work out, too many for this device (at most "
                               "{most_levels:,}: a target of {within:,} in steps of {step:,}).",
                               target=rules.target, step=step, top=top, most_levels=MOST_LEVELS,
                               within=MOST_LEVELS * step // _CEILING_TURNS))
    lowest = rules.minimum_bank if on_board else rules.entry_threshold
    values = _TurnValues(step, max(1, -(-lowest // step)), rules.must_roll_after_hot_dice, [()] * (top + 1), farkle)
    farkles = [farkle * _farkle_share(throws, n) for n in range(MAX_DICE + 1)]
    for level in range(top, -1, -1):
        row = [0.0] * (MAX_DICE + 1)
        for n in range(1, MAX_DICE + 1):
            row[n] = farkles[n] + sum(chance * max(values.choice(level + points // step, left) for points, left in choices)
                                      for chance, choices in throws.outcomes[n])
        values.roll[level] = tuple(row)
        if level % 100 == 0:
            yield 1 - level / top
    return values


def _farkle_share(throws: _Throws, dice: int) -> float:
    """The chance that a throw of ``dice`` dice scores nothing."""
    return 1.0 - sum(chance for chance, _ in throws.outcomes[dice]) if dice else 0.0


STREAKS: Final = 3
"""Farkles in a row a player can be on before a throw: 0, 1 or 2 (a third is penalised and starts again)."""
_STREAK_WORTH: dict[Rules, tuple[float, float, float]] = {}
"""Per rule set with a penalty: what starting a turn on 0, 1 and 2 farkles in a row is worth
over the long run, against starting on none (so the first is 0)."""
_MOST_STREAK_STEPS = 40
"""Secant steps before giving up (three settle it under the official preset and Busche's rules)."""


def _solve_streaks(rules: Rules) -> Generator[float, None, tuple[float, float, float]]:
    """The long-run worth of a streak of 0, 1 and 2 farkles (Busche's model), yielding the
    tables solved so far; the tables of the streaks' worth are kept.

    With ``g`` the points per turn in the long run and ``W(f)`` what a turn's start is worth
    when a farkle is worth ``f`` (banking ``t`` worth ``t``: a bank ends the streak), the
    worth ``h`` of a streak satisfies ``h(2) = W(-penalty) - g``, ``h(1) = W(h(2)) - g`` and
    ``0 = h(0) = W(h(1)) - g``: one equation in ``g``. Its left side less its right rises
    with ``g`` (at least point for point) and is piecewise linear, so the secant method from
    the penalty-free turn's worth settles on the exact ``g`` in a few steps of two tables."""
    start = _turn_values(rules, True).roll[0][MAX_DICE]
    third = _turn_values(rules, True, -float(rules.triple_farkle_penalty)).roll[0][MAX_DICE]
    solved = 0

    def table(farkle: float) -> Generator[float, None, _TurnValues]:
        nonlocal solved
        values = yield from _counted(_fill(rules, True, farkle), solved)
        solved += 1
        return values

    def gap(per_turn: float) -> Generator[float, None, tuple[float, _TurnValues, _TurnValues]]:
        second = yield from table(third - per_turn)
        first = yield from table(second.roll[0][MAX_DICE] - per_turn)
        return per_turn - first.roll[0][MAX_DICE], first, second

    low = start
    low_gap, _, _ = yield from gap(low)
    high = low - low_gap
    for _ in range(_MOST_STREAK_STEPS):
        high_gap, first, second = yield from gap(high)
        if abs(high_gap) < 1e-6:
            for values in (first, second):
                _TURN_VALUES[(rules, True, values.farkle)] = values
            return 0.0, first.farkle, second.farkle
        low, high, low_gap = high, high - high_gap * (high - low) / (high_gap - low_gap), high_gap
    raise ArithmeticError(f"The farkle streak's worth did not settle under {rules.describe()}.")


def _streak_worth(rules: Rules) -> tuple[float, float, float]:
    worth = _STREAK_WORTH.get(rules)
    if worth is None:
        worth = _STREAK_WORTH[rules] = _finish(_solve_streaks(rules))
    return worth


def _farkle_worth(rules: Rules, on_board: bool, streak: int, total: int | None) -> float:
    """What a farkle now is worth against a bank: 0 without a penalty; a third in a row costs
    the penalty, or what the total has of it (:meth:`Rules.penalty_on`); a first or second
    leaves the longer streak's long-run worth. A total nothing can be taken from (a player
    not on the board, under a floor of 0) risks nothing by its streak: a bank ends the streak
    before the total holds anything. ``total`` None: a total the whole penalty comes out of."""
    if isinstance(streak, bool) or not isinstance(streak, int) or not 0 <= streak < STREAKS:
        raise InvalidInput(say("{streak!r} farkles in a row: give 0, 1 or 2 (a third is penalised and the count "
                               "starts again).", streak=streak))
    if total is not None and (isinstance(total, bool) or not isinstance(total, int)):
        raise InvalidInput(say("{total!r} is not a player's total: give their points, a whole number.", total=total))
    if not rules.triple_farkle_penalty:
        return 0.0
    if total is None and on_board:
        cost = rules.triple_farkle_penalty
    else:
        cost = rules.penalty_on(total if on_board and total is not None else 0)
    if not cost:
        return 0.0
    return -float(cost) if streak == STREAKS - 1 else _streak_worth(rules)[streak + 1]


def third_farkle_cost(rules: Rules, streak: int, total: int | None = None, on_board: bool = True) -> int:
    """What a farkle now would also cost, as a third in a row: the penalty, or what the
    total has of it, on a second farkle in a row (0 otherwise, or without a penalty)."""
    worth = _farkle_worth(rules, on_board, streak, total)
    return int(-worth) if streak == STREAKS - 1 else 0


def _values(rules: Rules, on_board: bool, streak: int, total: int | None) -> _TurnValues:
    """The table for a player on ``streak`` farkles in a row holding ``total`` (None: the whole penalty at risk)."""
    return _turn_values(rules, on_board, _farkle_worth(rules, on_board, streak, total))


_STREAK_TABLES: Final = 6
"""Tables the streaks' worth takes to solve under the presets (for the share done)."""


def prepare(rules: Rules) -> Iterator[float]:
    """Solve the tables advice needs under ``rules`` a slice at a time, yielding the share
    done: a screen can answer taps between slices (Python in the browser has no threads).
    Tables already solved cost nothing; under a penalty, those of every farkle streak with
    the whole penalty at risk (a third farkle's cost out of a smaller total is a shift of them)."""
    tables = 2 + (_STREAK_TABLES if rules.triple_farkle_penalty and rules not in _STREAK_WORTH else 0)
    shown = 0.0
    for solved in _prepare(rules):
        shown = max(shown, min(0.99, solved / tables))
        yield shown
    yield 1.0


def _prepare(rules: Rules) -> Generator[float, None, None]:
    """The tables of :func:`prepare`, yielding how many are solved (a share of one for the one under way)."""
    for solved, on_board in enumerate((True, False)):
        if (rules, on_board, 0.0) not in _TURN_VALUES:
            _TURN_VALUES[(rules, on_board, 0.0)] = yield from _counted(_fill(rules, on_board), solved)
    if rules.triple_farkle_penalty and rules not in _STREAK_WORTH:
        _STREAK_WORTH[rules] = yield from _counted(_solve_streaks(rules), 2)
        for on_board in (True, False):
            for streak in range(STREAKS):
                _values(rules, on_board, streak, None)


def prepared(rules: Rules) -> bool:
    """The tables for ``rules`` are solved: advice under them answers at once."""
    return (all((rules, on_board, 0.0) in _TURN_VALUES for on_board in (True, False))
            and (not rules.triple_farkle_penalty or rules in _STREAK_WORTH))


def step_of(rules: Rules) -> int:
    """The grid turn totals move on under ``rules`` (50 for every preset)."""
    return _throws(rules).step


def _level(rules: Rules, turn_points: int, dice: int) -> int:
    if isinstance(dice, bool) or not isinstance(dice, int) or not 1 <= dice <= MAX_DICE:
        raise InvalidInput(say("{dice!r} dice: a throw is of 1 to {most} dice.", dice=dice, most=MAX_DICE))
    step = _throws(rules).step
    if isinstance(turn_points, bool) or not isinstance(turn_points, int) or turn_points < 0:
        raise InvalidInput(say("{turn_points!r} is not a turn total: give the points of this turn so far (0 or "
                               "more).", turn_points=turn_points))
    if turn_points > MOST_TURN_POINTS:
        raise InvalidInput(say("{shown} is more points than a turn total is advised on: at most "
                               "{most_turn_points:,}.", shown=_shown(turn_points), most_turn_points=MOST_TURN_POINTS))
    if turn_points % step:
        raise InvalidInput(say("{turn_points:,} is no turn total under these rules: every score is a multiple of "
                               "{step}.", turn_points=turn_points, step=step))
    return turn_points // step


def _shown(points: int) -> str:
    """``points`` for a message; a number too long to print whole is named by its length."""
    if points < 10**30:
        return f"{points:,}"
    return f"A number of about {math.ceil(points.bit_length() * math.log10(2)):,} digits"


def roll_value(rules: Rules, turn_points: int = 0, dice: int = MAX_DICE, on_board: bool = True, *,
               streak: int = 0, total: int | None = None) -> float:
    """The expected bank at the end of the turn if the player throws ``dice`` dice now,
    holding ``turn_points``, and plays on for the most points; on ``streak`` farkles in a row
    under a three-farkle penalty, a farkle counted at what it costs over the long run (the
    penalty out of ``total`` for a third; None: the whole penalty)."""
    level = _level(rules, turn_points, dice)
    values = _values(rules, on_board, streak, total)
    if level >= len(values.roll):
        return _beyond_the_table(rules, turn_points, dice, values.farkle)
    return values.roll[level][dice]


def _beyond_the_table(rules: Rules, turn_points: int, dice: int, farkle: float) -> float:
    """Throwing once more, then banking: exact where the table ends, since there banking
    beats every further throw."""
    throws = _throws(rules)
    total = farkle * _farkle_share(throws, dice)
    for chance, choices in throws.outcomes[dice]:
        total += chance * max(turn_points + points for points, _ in choices)
    return total


def bank_allowed(rules: Rules, turn_points: int, on_board: bool = True) -> bool:
    """Banking ``turn_points`` is allowed: more than nothing, and the entry threshold off the
    board or the minimum bank on it."""
    return turn_points > 0 and turn_points >= (rules.minimum_bank if on_board else rules.entry_threshold)


def expected_turn(rules: Rules, turn_points: int = 0, dice: int = MAX_DICE, on_board: bool = True, *,
                  streak: int = 0, total: int | None = None) -> float:
    """The expected points banked by the end of the turn under expected-score-optimal play,
    holding ``turn_points`` with ``dice`` dice to throw (under a penalty, on ``streak``
    farkles in a row, a farkle counted as in :func:`roll_value`).

    Banking is one of the choices when the rules allow it: a player not ``on_board`` may
    bank only once the turn reaches the entry threshold, one on it only the minimum bank,
    and a turn total of 0 banks nothing.

    :raises InvalidInput: not 1 to 6 dice, or a turn total no throw can make.
    """
    throw_on = roll_value(rules, turn_points, dice, on_board, streak=streak, total=total)
    return max(throw_on, float(turn_points)) if bank_allowed(rules, turn_points, on_board) else throw_on


def bank_thresholds(rules: Rules, on_board: bool = True, streak: int = 0) -> dict[int, int]:
    """For 1 to 6 dice left, the smallest turn total from which banking maximises the
    expected score (at that total and at every higher one); under a penalty, on ``streak``
    farkles in a row with the whole penalty at risk (Busche's "bank at"; his 0, bank
    whatever the total, is the smallest total a bank may be here).

    With one die left a throw is worth more than with two: one in three scores, and that
    is hot dice (six dice again).

    >>> bank_thresholds(Rules.preset("house"))
    {1: 350, 2: 250, 3: 450, 4: 1050, 5: 3100, 6: 18200}
    """
    values = _values(rules, on_board, streak, None)
    lowest = values.entry
    thresholds: dict[int, int] = {}
    for dice in range(1, MAX_DICE + 1):
        level = len(values.roll) - 1
        while level - 1 >= lowest and values.roll[level - 1][dice] <= (level - 1) * values.step:
            level -= 1
        thresholds[dice] = level * values.step
    return thresholds


def keep_values(rules: Rules, turn_points: int, roll: Sequence[int], on_board: bool = True, *,
                streak: int = 0, total: int | None = None) -> tuple[float, ...]:
    """For each of :func:`engine.scoring_options` of ``roll`` (in that order), the expected
    bank of setting it aside with ``turn_points`` held before the throw, then playing on
    for the most points (a farkle counted as in :func:`roll_value`)."""
    level = _level(rules, turn_points, len(roll) or 1)
    values = _values(rules, on_board, streak, total)
    step = values.step
    return tuple(values.choice(level + option.points // step, option.dice_left)
                 for option in scoring_options(tuple(roll), rules))


def catch_up_chance(rules: Rules, need: int, turn_points: int = 0, dice: int = MAX_DICE,
                    on_board: bool = True) -> float:
    """The highest chance that the turn ends with a bank of at least ``need`` points (the
    final round's question), holding ``turn_points`` with ``dice`` dice to throw.

    The strategy that reaches it never banks short of ``need`` (nothing less is any use)
    and, at every throw, sets aside the keep with the best chance from there; a player
    not on the board needs the entry threshold too, and one on it the minimum bank.

    :raises InvalidInput: not 1 to 6 dice, or a total no throw can make.
    """
    goal = _goal(rules, need, on_board)
    level = _level(rules, turn_points, dice)
    if level >= goal:
        return 1.0
    return _reach(rules, goal).chances[level][dice]


@dataclass(frozen=True)
class _Reach:
    """``chances[i][n]``: the chance of banking at least ``goal`` grid steps by throwing
    ``n`` dice holding ``i`` steps (filled from the goal down, as :class:`_TurnValues`)."""

    goal: int
    hot_again: float
    """Past the goal with hot dice: 1, or the chance to escape them where they must be thrown."""
    chances: list[tuple[float, ...]]

    def after_keep(self, level: int, left: int) -> float:
        if level >= self.goal:
            return self.hot_again if left == 0 else 1.0
        return self.chances[level][left or MAX_DICE]


@lru_cache(maxsize=256)
def _reach(rules: Rules, goal: int) -> _Reach:
    throws = _throws(rules)
    step = throws.step
    hot_again = _hot_dice_escape(throws) if rules.must_roll_after_hot_dice else 1.0
    reach = _Reach(goal, hot_again, [()] * goal)
    for level in range(goal - 1, -1, -1):
        row = [0.0] * (MAX_DICE + 1)
        for n in range(1, MAX_DICE + 1):
            row[n] = sum(chance * max(reach.after_keep(level + points // step, left) for points, left in choices)
                         for chance, choices in throws.outcomes[n])
        reach.chances[level] = tuple(row)
    return reach


def _hot_dice_escape(throws: _Throws) -> float:
    """Past the goal with hot dice that must be thrown: the chance of a throw of six that
    leaves some dice (so the turn can bank), throwing again after every further hot dice."""
    leaves = sum(chance for chance, choices in throws.outcomes[MAX_DICE] if any(left for _, left in choices))
    only_hot = sum(chance for chance, choices in throws.outcomes[MAX_DICE] if not any(left for _, left in choices))
    return leaves / (1 - only_hot)


def keep_chances(rules: Rules, need: int, turn_points: int, roll: Sequence[int], on_board: bool = True) -> tuple[float, ...]:
    """For each of :func:`engine.scoring_options` of ``roll`` (in that order), the highest
    chance of ending the turn with a bank of at least ``need`` after setting it aside,
    ``turn_points`` held before the throw."""
    level = _level(rules, turn_points, len(roll) or 1)
    reach = _reach(rules, _goal(rules, need, on_board))
    step = _throws(rules).step
    return tuple(reach.after_keep(level + option.points // step, option.dice_left)
                 for option in scoring_options(tuple(roll), rules))


def _goal(rules: Rules, need: int, on_board: bool) -> int:
    """``need`` in grid steps, or what the rules let the player bank at least (the minimum
    bank on the board, the entry threshold off it); a bank of nothing is no bank."""
    if isinstance(need, bool) or not isinstance(need, int):
        raise InvalidInput(say("{need!r} is not a number of points to reach.", need=need))
    needed = max(need, rules.minimum_bank if on_board else rules.entry_threshold)
    step = _throws(rules).step
    goal = max(1, -(-needed // step))
    if goal > MOST_LEVELS:
        raise InvalidInput(say("{shown} is more points to reach than a chance is worked out for under these rules: "
                               "at most {most_levels:,}.", shown=_shown(need), most_levels=MOST_LEVELS * step))
    return goal
