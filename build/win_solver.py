"""The two-player win chance under the rule sets the engine solves, solved in compiled code.

The same game and the same order of work as the engine's own solver
(:class:`engine.advice.win_pairs._Solver`, which works out small targets on the device and reads
the shipped tables), compiled by numba: a turn total costs about a microsecond here
against a millisecond in CPython, which is what makes a three-farkle penalty's tables
(both players' streaks, totals down to the lowest) a matter of minutes. The unknowns are
the start values ``start[x, s, y, t]``: the chance that the player about to start a turn
at total index ``x`` on farkle streak ``s`` wins against ``y`` on streak ``t`` (index 0
is the lowest total a player can hold, one index per grid step).

One pass solves every start value once, pairs of totals in descending order of their sum
(a bank raises the sum, so what it leads to is solved already in this pass; the pairs of
one sum depend on none of each other and are solved side by side) and, within a pair,
streak pairs in descending order of their sum (a farkle that is not a third raises it).
What is left is a third farkle: it takes a total down by the penalty, to a pair of lower
sum, solved later in the pass. Passes repeat until none moves a start value by more than
:data:`TOLERANCE`. Without a penalty a farkle leads from (x, y) to (y, x), a cycle of two
solved by secant steps, and one pass solves the game. With passing (no penalty), each
turn's throw values at every turn total are kept in ``built``: what building on an offer
there is worth, read by the banks of pairs of lower sum.

Runs where the shipped tables are written (``python build/win_tables.py``), never on a
device; ``tests/engine/test_win_solver.py`` checks it against the engine's solver.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import numba
import numpy as np
import numpy.typing as npt

from engine.advice.values import _hot_dice_escape, _throws
from engine.advice.win_pairs import _lowest, _streaks
from engine.advice.win_turn import _last_turn, _last_turn_start, _moves
from engine.dice import MAX_DICE
from engine.rules import Rules

__all__ = ["Solved", "solve", "TOLERANCE"]

TOLERANCE = 1e-11
"""A pass that moves no start value by more than this ends the solve."""
MOST_PASSES = 1000
CYCLE_TOLERANCE = 1e-13
"""A pair's own cycle (secant steps, or a total at the lowest) ends when it moves less."""

Floats = npt.NDArray[np.float64]
Ints = npt.NDArray[np.int64]
Throws = tuple[Ints, Ints, Ints, Floats, Floats, Floats, Ints, Ints, Ints, Ints]
"""Every throw of 1 to 6 dice (index n): the keeps it may take as (``gain`` grid steps,
``left`` dice), ``keys`` of them; ``single`` the chance of the throws with only that keep;
``farkle``; the throws with a choice, ``choices`` of them, each its chance ``choice_p``
and its keeps ``choice_keys[choice_from:choice_to]``."""
Game = tuple[int, int, int, int, int, bool, float, bool, int, bool]
"""(levels, streaks, zero, least_on, entry, first_to_target, escape, must_roll, reach,
passing): totals per player, streaks told apart, the index of 0, the least bank on and off
the board in steps, the end rule, the chance hot dice that must be thrown are escaped, the
most steps one keep adds, and whether a bank passes its points and dice on."""


@dataclass(frozen=True)
class Solved:
    """A rule set's start values and what the solve took."""

    rules: Rules
    start: Floats
    """``start[x, s, y, t]`` as in the module docstring."""
    built: Floats
    """With passing: ``built[x, y, k, n - 1]``, the chance of the player starting a turn at
    ``x`` against ``y`` who builds on an offer of ``k`` steps and ``n`` dice (throws them)."""
    passes: int
    seconds: float
    moved: float
    """The most a start value moved in the last pass."""


def solve(rules: Rules, *, report: bool = False) -> Solved:
    """Every start value of a two-player game under ``rules`` (a lowest total; no steal, and
    no passing beside a penalty)."""
    if rules.steal or rules.progressive and rules.triple_farkle_penalty:
        raise ValueError("stealing, or passing dice beside a penalty, is not solved here")
    if rules.triple_farkle_penalty and rules.lowest_total is None:
        raise ValueError("a penalty with no lowest total is not solved here")
    began = time.perf_counter()
    step = _moves(rules).step
    lowest = _lowest(rules)
    zero = -lowest // step
    levels = zero + -(-rules.target // step)
    streaks = _streaks(rules)
    after_penalty = np.array([index - rules.penalty_on(lowest + index * step) // step for index in range(levels)],
                             np.int64)
    first_to_target = rules.end_rule == "first_to_target"
    last = np.array([] if first_to_target else
                    [_last_turn_start(rules, short) for short in range(len(_last_turn(rules).chances))], np.float64)
    throws = _arrays(rules)
    least_on = -(-rules.minimum_bank // step)
    entry = -(-rules.entry_threshold // step)
    escape = _hot_dice_escape(_throws(rules)) if rules.must_roll_after_hot_dice else 1.0
    reach = int(throws[0].max())
    game: Game = (levels, streaks, zero, least_on, entry, first_to_target, escape, rules.must_roll_after_hot_dice,
                  reach, rules.progressive)
    span = levels + len(last) + least_on + entry + 2 * reach + 3
    built = np.zeros((levels, levels, levels, MAX_DICE) if rules.progressive else (1, 1, 1, MAX_DICE))
    chances = _last_turn(rules)
    gaps = np.array([chances.ahead[1:], *(row[1:] for row in chances.chances)], np.float64)
    start = np.full((levels, streaks, levels, streaks), 0.5 if streaks > 1 else 0.0)
    moved = 1.0
    passes = 0
    while moved > TOLERANCE and passes < MOST_PASSES:
        moved = _pass(start, built, game, after_penalty, last, gaps, throws, span)
        passes += 1
        if report:
            print(f"  pass {passes}: moved {moved:.1e}, first player {start[zero, 0, zero, 0]:.6%}, "
                  f"{time.perf_counter() - began:.0f} s", flush=True)
        if streaks == 1:
            break
    return Solved(rules, start, built, passes, time.perf_counter() - began, moved)


def _arrays(rules: Rules) -> Throws:
    """The engine's throws (:func:`engine.advice.win_turn._moves`: every keep each offers) as arrays."""
    throws = _moves(rules).throws
    size = MAX_DICE + 1
    most_keys = max(len(throw.keys) for throw in throws)
    most_choices = max(1, max(len(throw.choice_keys) for throw in throws))
    most_flat = max(1, max(sum(map(len, throw.choice_keys)) for throw in throws))
    gain, left = np.zeros((size, most_keys), np.int64), np.zeros((size, most_keys), np.int64)
    keys, single_p, farkle = np.zeros(size, np.int64), np.zeros((size, most_keys)), np.zeros(size)
    choice_p = np.zeros((size, most_choices))
    choice_from, choice_to = np.zeros((size, most_choices), np.int64), np.zeros((size, most_choices), np.int64)
    choices, choice_keys = np.zeros(size, np.int64), np.zeros((size, most_flat), np.int64)
    for n, throw in enumerate(throws, 1):
        for key, (steps, dice) in enumerate(throw.keys):
            gain[n, key], left[n, key] = steps, dice
        keys[n] = len(throw.keys)
        for key, chance in zip(throw.single_keys, throw.single_chances):
            single_p[n, key] = chance
        farkle[n] = throw.farkle
        choices[n] = len(throw.choice_keys)
        flat = 0
        for c, (chance, found) in enumerate(zip(throw.choice_chances, throw.choice_keys)):
            choice_p[n, c], choice_from[n, c] = chance, flat
            for key in found:
                choice_keys[n, flat] = key
                flat += 1
            choice_to[n, c] = flat
    return gain, left, keys, single_p, farkle, choice_p, choice_from, choice_to, choices, choice_keys


@numba.njit(cache=True, parallel=True)
def _pass(start: Floats, built: Floats, game: Game, after_penalty: Ints, last: Floats, gaps: Floats, throws: Throws,
          span: int) -> float:
    """One pass over every start value; the most any moved."""
    levels = game[0]
    moved = 0.0
    for total in range(2 * levels - 2, -1, -1):
        low = max(0, total - levels + 1)
        pairs = total // 2 + 1 - low
        most = np.zeros(max(1, pairs))
        for i in numba.prange(pairs):
            work = (np.zeros((span, MAX_DICE)), np.zeros(throws[0].shape[1]), np.zeros(MAX_DICE + 1),
                    np.zeros(MAX_DICE), np.zeros(MAX_DICE))
            most[i] = _pair(start, built, low + i, total - low - i, game, after_penalty, last, gaps, throws, work)
        moved = max(moved, most.max())
    return moved


Work = tuple[Floats, Floats, Floats, Floats, Floats]
"""A turn's scratch arrays: the rows after a keep by turn total, the values of one throw's
keeps, the throw values by dice, the bank's values by dice left, and the bank's before."""


@numba.njit(cache=True)
def _pair(start: Floats, built: Floats, x: int, y: int, game: Game, after_penalty: Ints, last: Floats,
          gaps: Floats, throws: Throws, work: Work) -> float:
    """Every start value of the totals (x, y) and (y, x); how far the most moved."""
    streaks = game[1]
    if streaks == 1:
        return _cycle(start, built, x, y, game, last, gaps, throws, work)
    floored = after_penalty[x] == x or after_penalty[y] == y
    moved = 0.0
    while True:
        most = 0.0
        for both in range(2 * streaks - 2, -1, -1):
            for s in range(max(0, both - streaks + 1), min(both, streaks - 1) + 1):
                u = both - s
                for side in range(2 if x != y else 1):
                    me, mine, other, theirs = (x, s, y, u) if side == 0 else (y, u, x, s)
                    if mine == streaks - 1:
                        farkled = 1.0 - start[other, theirs, after_penalty[me], 0]
                    else:
                        farkled = 1.0 - start[other, theirs, me, mine + 1]
                    value = _turn(start, built, me, other, theirs, farkled, game, last, gaps, throws, work)
                    most = max(most, abs(value - start[me, mine, other, theirs]))
                    start[me, mine, other, theirs] = value
        moved = max(moved, most)
        if not floored or most <= CYCLE_TOLERANCE:  # at the lowest total a third farkle comes back here
            return moved


@numba.njit(cache=True)
def _cycle(start: Floats, built: Floats, x: int, y: int, game: Game, last: Floats, gaps: Floats, throws: Throws,
           work: Work) -> float:
    """Without streaks: (x, y) and (y, x), each the other's farkle value, by secant steps on
    ``a -> F(a)`` (piecewise linear: two points on one piece give its fixed point)."""
    point = start[x, 0, y, 0]
    ours, theirs = _round(start, built, x, y, point, game, last, gaps, throws, work)
    slope = 0.0
    for _ in range(60):
        miss = ours - point
        if abs(miss) <= CYCLE_TOLERANCE:
            break
        following = min(1.0, max(0.0, point + miss / (1.0 - slope)))
        if following == point:
            break
        before_point, before_miss, point = point, miss, following
        ours, theirs = _round(start, built, x, y, point, game, last, gaps, throws, work)
        slope = min(0.999, max(-0.999, 1.0 + (ours - point - before_miss) / (point - before_point)))
    moved = float(abs(ours - start[x, 0, y, 0]))
    start[x, 0, y, 0], start[y, 0, x, 0] = ours, theirs
    return moved


@numba.njit(cache=True)
def _round(start: Floats, built: Floats, x: int, y: int, guess: float, game: Game, last: Floats, gaps: Floats,
           throws: Throws, work: Work) -> tuple[float, float]:
    """One round of the cycle from a guess of (x, y)'s start value."""
    theirs = guess if x == y else _turn(start, built, y, x, 0, 1.0 - guess, game, last, gaps, throws, work)
    return _turn(start, built, x, y, 0, 1.0 - theirs, game, last, gaps, throws, work), theirs


@numba.njit(cache=True)
def _throw(rows: Floats, k: int, farkled: float, throws: Throws, kept: Floats, throw: Floats) -> None:
    """``throw[n]``: the value of throwing ``n`` dice at turn total ``k``, every throw's best keep read in ``rows``."""
    gain, left, keys, single, farkle, choice_p, choice_from, choice_to, choices, choice_keys = throws
    for n in range(1, MAX_DICE + 1):
        for m in range(keys[n]):
            kept[m] = rows[k + gain[n, m], left[n, m]]
        value = farkle[n] * farkled
        for m in range(keys[n]):
            value += single[n, m] * kept[m]
        for c in range(choices[n]):
            best = 0.0
            for f in range(choice_from[n, c], choice_to[n, c]):
                best = max(best, kept[choice_keys[n, f]])
            value += choice_p[n, c] * best
        throw[n] = value


@numba.njit(cache=True)
def _keep_row(rows: Floats, k: int, throw: Floats, banks: Floats, bankable: bool, must_roll: bool) -> None:
    """The row after a keep at turn total ``k``: bank (by the dice left) or throw on, hot dice six."""
    for d in range(MAX_DICE):
        on = throw[d if d > 0 else MAX_DICE]
        rows[k, d] = max(banks[d], on) if bankable else on
    if must_roll:
        rows[k, 0] = throw[MAX_DICE]


@numba.njit(cache=True)
def _turn(start: Floats, built: Floats, x: int, y: int, t: int, farkled: float, game: Game, last: Floats,
          gaps: Floats, throws: Throws, work: Work) -> float:
    """A turn started at ``x`` against (y, t), a farkle worth ``farkled``: backward
    induction over the turn total from where banking is best (with passing in the final
    round: from where every row is the same, see :func:`_beyond`) down to the start. With
    passing, each turn total's throw values are kept in ``built[x, y]``."""
    levels, _, zero, least_on, entry, first_to_target, escape, must_roll, reach, passing = game
    rows, kept, throw, banks, before = work
    farkle = throws[4]
    least = least_on if x > zero or entry == 0 else entry
    top = levels
    if not first_to_target and passing:  # from where building on the offer beats the other's fresh last turn
        floor = 1.0
        for n in range(1, MAX_DICE + 1):
            floor = min(floor, _built_last(x - y, n, gaps))
        short = last.shape[0]
        while short > 0 and last[short - 1] <= floor:
            short -= 1
        top = max(levels, y + short)
    elif not first_to_target:  # past the target, bank once the other's last turn is too likely to fail
        margin = farkle[MAX_DICE] * (1.0 - farkled)
        short = 0
        while short < last.shape[0] and last[short] > margin:
            short += 1
        top = max(levels, y + short)
    span = max(top, x + least) - x
    if passing and not first_to_target:
        _beyond(x - y, span, farkled, must_roll, reach, gaps, throws, work)
    else:
        for k in range(span, span + reach + 1):
            value = _bank(start, y, t, x + k, game, last)
            rows[k, 0] = escape * value + (1.0 - escape) * farkled
            for d in range(1, MAX_DICE):
                rows[k, d] = value
    if passing and span < levels:  # every row above is the same: so is every throw value
        _throw(rows, span, farkled, throws, kept, throw)
        for k in range(span, levels):
            built[x, y, k, :] = throw[1:]
    for k in range(span - 1, -1, -1):
        _throw(rows, k, farkled, throws, kept, throw)
        if passing and k < levels:
            built[x, y, k, :] = throw[1:]
        if k == 0:
            break
        bankable = k >= least
        if bankable:
            _banks(start, built, x, y, t, k, game, last, gaps, banks)
        _keep_row(rows, k, throw, banks, bankable, must_roll)
    return float(throw[MAX_DICE])


@numba.njit(cache=True)
def _built_last(gap: int, n: int, gaps: Floats) -> float:
    """The other's last turn built on an offer of ``n`` dice, ``gap`` steps short once its points count."""
    if gap < 0:
        return float(gaps[0, n - 1])
    return float(gaps[gap + 1, n - 1]) if gap + 1 < gaps.shape[0] else 0.0


@numba.njit(cache=True)
def _beyond(gap: int, span: int, farkled: float, must_roll: bool, reach: int, gaps: Floats, throws: Throws,
            work: Work) -> None:
    """Passing in the final round: the rows from ``span`` up, past the other's fresh last
    turn, where a bank hands over an offer that leaves the other ``gap`` steps short at
    any total: one row, the fixed point of bank or throw on, by policy iteration as
    :func:`engine.advice.win_turn._settled` finds it."""
    rows, kept, throw, banks, before = work
    gain, left, keys, single, farkle, choice_p, choice_from, choice_to, choices, choice_keys = throws
    for d in range(MAX_DICE):
        banks[d] = 1.0 - _built_last(gap, d if d > 0 else MAX_DICE, gaps)
        rows[span, d] = banks[d]
    system = np.zeros((MAX_DICE, MAX_DICE + 1))
    for _ in range(100):
        for k in range(span + 1, span + reach + 1):
            rows[k, :] = rows[span, :]
        before[:] = rows[span, :]
        _throw(rows, span, farkled, throws, kept, throw)
        system[:, :] = 0.0
        for d in range(MAX_DICE):
            n = d if d > 0 else MAX_DICE
            system[d, d] = 1.0
            system[d, MAX_DICE] = banks[d]
            if banks[d] < throw[n] or must_roll and d == 0:
                system[d, MAX_DICE] = farkle[n] * farkled
                for m in range(keys[n]):
                    system[d, left[n, m]] -= single[n, m]
                for c in range(choices[n]):
                    best = choice_keys[n, choice_from[n, c]]
                    for f in range(choice_from[n, c] + 1, choice_to[n, c]):
                        if before[left[n, choice_keys[n, f]]] > before[left[n, best]]:
                            best = choice_keys[n, f]
                    system[d, left[n, best]] -= choice_p[n, c]
        _solve_into(system, rows[span])
        if np.abs(rows[span, :] - before).max() <= 1e-12:
            break
    for k in range(span + 1, span + reach + 1):
        rows[k, :] = rows[span, :]


@numba.njit(cache=True)
def _solve_into(system: Floats, values: Floats) -> None:
    """Linear equations (coefficients, then the right-hand side) solved into ``values``
    by Gaussian elimination with partial pivoting."""
    size = system.shape[0]
    for column in range(size):
        pivot = column
        for row in range(column + 1, size):
            if abs(system[row, column]) > abs(system[pivot, column]):
                pivot = row
        if pivot != column:
            swap = system[column, :].copy()
            system[column, :] = system[pivot, :]
            system[pivot, :] = swap
        for row in range(column + 1, size):
            factor = system[row, column] / system[column, column]
            if factor != 0.0:
                system[row, :] -= factor * system[column, :]
    for row in range(size - 1, -1, -1):
        known = 0.0
        for column in range(row + 1, size):
            known += system[row, column] * values[column]
        values[row] = (system[row, size] - known) / system[row, row]


@numba.njit(cache=True)
def _banks(start: Floats, built: Floats, x: int, y: int, t: int, k: int, game: Game, last: Floats, gaps: Floats,
           banks: Floats) -> None:
    """``banks[d]``: banking turn total ``k`` of a turn started at ``x`` against (y, t) with
    ``d`` dice left; with passing the other starts on the offer, built on or not."""
    levels, first_to_target, passing = game[0], game[5], game[9]
    a = x + k
    if not passing or a >= levels and first_to_target:
        banks[:] = _bank(start, y, t, a, game, last)
        return
    for d in range(MAX_DICE):
        n = d if d > 0 else MAX_DICE
        if a < levels:
            banks[d] = 1.0 - max(start[y, t, a, 0], built[y, a, k, n - 1])
        else:
            fresh = last[a - y] if a - y < last.shape[0] else 0.0
            banks[d] = 1.0 - max(fresh, _built_last(x - y, n, gaps))


@numba.njit(cache=True)
def _bank(start: Floats, y: int, t: int, a: int, game: Game, last: Floats) -> float:
    """Banking to total index ``a`` against (y, t): the other player's start, or the end."""
    levels, first_to_target = game[0], game[5]
    if a < levels:
        return 1.0 - float(start[y, t, a, 0])
    if first_to_target:
        return 1.0
    short = a - y
    return 1.0 - float(last[short]) if short < last.shape[0] else 1.0
