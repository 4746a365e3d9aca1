"""One turn of a game of two, the arithmetic the win chance's solvers share: every throw's
keeps arranged for the inner loop, one turn total's throw values, the row after a keep,
the row that repeats where a bank's value no longer depends on the total, and the last
turn of the final round (see :mod:`engine.advice.win_pairs` for the game they solve)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from operator import itemgetter, mul

from engine.advice.values import _hot_dice_escape, _reach, _throws
from engine.dice import MAX_DICE
from engine.rules import Rules

__all__ = ["last_turn_chances"]

NEGLIGIBLE = 1e-12
"""A last-turn chance below this counts as none: the lead it needs is never worth throwing on for."""

MAX_ROUNDS = 100
"""Rounds of :func:`_settled`'s play and its values; two or three suffice."""

Row = tuple[float, ...]
"""After a keep at one turn total: the value with 0 (hot dice) to 5 dice left."""


Pick = Callable[[list[float]], tuple[float, ...]]


@dataclass(frozen=True)
class _Throw:
    """Throwing ``n`` dice, arranged for the turn solver's inner loop: the keeps any throw
    may take as (grid steps gained, dice left); the throws with one keep, as chances summed
    per keep; the throws with a choice, each its chance and the keeps it chooses from."""

    keys: tuple[tuple[int, int], ...]
    farkle: float
    single_keys: tuple[int, ...]
    """The keeps (indices into ``keys``) of the throws with one keep."""
    single_chances: tuple[float, ...]
    choice_keys: tuple[tuple[int, ...], ...]
    """Each throw with a choice: the keeps it chooses from."""
    choice_chances: tuple[float, ...]
    single_pick: Pick = field(init=False)
    choice_picks: tuple[Pick, ...] = field(init=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "single_pick", _pick(self.single_keys))
        object.__setattr__(self, "choice_picks", tuple(_pick(keys) for keys in self.choice_keys))


@dataclass(frozen=True)
class _Moves:
    """A rule set's throws for the solver: its grid step and each number of dice's :class:`_Throw`."""

    step: int
    throws: tuple[_Throw, ...]
    """1 to 6 dice."""
    reach: int
    """The most grid steps one keep adds."""


@lru_cache(maxsize=16)
def _moves(rules: Rules) -> _Moves:
    outcomes = _throws(rules)
    step = outcomes.step
    throws = []
    for n in range(1, MAX_DICE + 1):
        index: dict[tuple[int, int], int] = {}
        single: dict[int, float] = {}
        multi: list[tuple[float, tuple[int, ...]]] = []
        for chance, keeps in outcomes.every_keep[n]:
            found = tuple(index.setdefault((points // step, left), len(index)) for points, left in keeps)
            if len(found) == 1:
                single[found[0]] = single.get(found[0], 0.0) + chance
            else:
                multi.append((chance, found))
        farkle = 1.0 - sum(chance for chance, _ in outcomes.outcomes[n])
        throws.append(_Throw(tuple(index), farkle, tuple(single), tuple(single.values()),
                             tuple(keys for _, keys in multi), tuple(chance for chance, _ in multi)))
    reach = max(points // step for group in outcomes.outcomes for _, keeps in group for points, _ in keeps)
    return _Moves(step, tuple(throws), reach)


def _pick(keys: Sequence[int]) -> Pick:
    """The values at ``keys``, as a tuple however many there are."""
    if not keys:
        return lambda values: ()
    if len(keys) == 1:
        key = keys[0]
        return lambda values: (values[key],)
    return itemgetter(*keys)


def _throw_row(moves: _Moves, rows: list[Row], at: int, farkled: float) -> list[float]:
    """The value of throwing 1 to 6 dice (index 1..6) at row ``at``: every throw's best
    keep, read in the rows above, and ``farkled`` for a farkle."""
    values = [0.0]
    for throw in moves.throws:
        kept = [rows[at + gain][left] for gain, left in throw.keys]
        values.append(throw.farkle * farkled + sum(map(mul, throw.single_chances, throw.single_pick(kept)))
                      + sum(map(mul, throw.choice_chances, [max(pick(kept)) for pick in throw.choice_picks])))
    return values


def _settled(moves: _Moves, bank: Row, farkled: float, must_roll_hot_dice: bool) -> Row:
    """The row that repeats at every turn total when banking is worth ``bank`` (by the
    dice left) at each: the fixed point of bank or throw on, by policy iteration (the best
    play against the row so far, then that play's own values, until the play stays).
    Value iteration would take hundreds of rounds where throwing on is best: six dice
    farkle only 2.3 % of the time."""
    row = bank
    for _ in range(MAX_ROUNDS):
        throw = _throw_row(moves, [row] * (moves.reach + 1), 0, farkled)
        system = []
        for left in range(MAX_DICE):
            equation = [0.0] * MAX_DICE + [bank[left]]
            equation[left] = 1.0
            if bank[left] < throw[left or MAX_DICE] or must_roll_hot_dice and left == 0:
                play = moves.throws[(left or MAX_DICE) - 1]
                equation[MAX_DICE] = play.farkle * farkled
                for key, chance in zip(play.single_keys, play.single_chances):
                    equation[play.keys[key][1]] -= chance
                for keys, chance in zip(play.choice_keys, play.choice_chances):
                    best = max(keys, key=lambda key: row[play.keys[key][1]])
                    equation[play.keys[best][1]] -= chance
            system.append(equation)
        following = _solved(system)
        if max(abs(a - b) for a, b in zip(following, row)) <= NEGLIGIBLE:
            return following
        row = following
    return row


def _solved(system: list[list[float]]) -> Row:
    """The solution of linear equations, each its coefficients and then its right-hand side
    (Gaussian elimination with partial pivoting; the play's equations are never singular:
    every throw may farkle)."""
    size = len(system)
    for column in range(size):
        pivot = max(range(column, size), key=lambda row: abs(system[row][column]))
        system[column], system[pivot] = system[pivot], system[column]
        for row in range(column + 1, size):
            factor = system[row][column] / system[column][column]
            if factor:
                system[row] = [a - factor * b for a, b in zip(system[row], system[column])]
    values = [0.0] * size
    for row in range(size - 1, -1, -1):
        known = sum(system[row][column] * values[column] for column in range(row + 1, size))
        values[row] = (system[row][size] - known) / system[row][row]
    return tuple(values)


def _after_keep(throw: Sequence[float], banks: Row | None, must_roll_hot_dice: bool) -> Row:
    """The row at a turn total from the throw values there and the bank's by the dice left
    (what passing hands on): bank or throw on, hot dice six."""
    best = [throw[left or MAX_DICE] if banks is None else max(banks[left], throw[left or MAX_DICE])
            for left in range(MAX_DICE)]
    if must_roll_hot_dice:
        best[0] = throw[MAX_DICE]
    return tuple(best)


@dataclass(frozen=True)
class _LastTurn:
    """The last turn of the final round: ``chances[r][n]``, the best chance to win by
    throwing ``n`` dice ``r`` grid steps short of the leader's total (bank more to win, the
    same to throw off the tie at even odds)."""

    chances: tuple[tuple[float, ...], ...]
    ahead: tuple[float, ...]
    """Throwing ``n`` dice already past the leader: any score keeps the lead."""


@lru_cache(maxsize=16)
def _last_turn(rules: Rules) -> _LastTurn:
    """Solved from a tie up, as far as a chance above :data:`NEGLIGIBLE` remains."""
    moves = _moves(rules)
    escape = _hot_dice_escape(_throws(rules)) if rules.must_roll_after_hot_dice else 1.0
    lead: Row = (escape,) + (1.0,) * (MAX_DICE - 1)
    rows: list[Row] = [lead] * (moves.reach + 1)
    ahead = tuple(_throw_row(moves, rows, 0, 0.0))
    chances: list[tuple[float, ...]] = []
    while not chances or chances[-1][MAX_DICE] > NEGLIGIBLE:
        throw = _throw_row(moves, rows, 0, 0.0)
        chances.append(tuple(throw))
        rows[0] = _after_keep(throw, (0.5,) * MAX_DICE if len(chances) == 1 else None, rules.must_roll_after_hot_dice)
        rows.insert(0, lead)
    return _LastTurn(tuple(chances), ahead)


def _last_turn_start(rules: Rules, short: int) -> float:
    """The chance to win a last turn from its start, ``short`` grid steps short of a tie
    with the leader, on the board: bank more (or the same, for a tie at even odds), and
    at least the minimum bank."""
    least = -(-rules.minimum_bank // _moves(rules).step)
    if short < least:
        return _reach(rules, least).chances[0][MAX_DICE]
    return _last_turn(rules).chances[short][MAX_DICE]


def last_turn_chances(rules: Rules, short: int, dice: int = MAX_DICE) -> float:
    """The best chance to win a last turn of the final round by throwing ``dice`` dice,
    ``short`` points short of a tie with the leader (negative: already ahead)."""
    last = _last_turn(rules)
    level = -(-short // _moves(rules).step)
    if level < 0:
        return last.ahead[dice]
    return last.chances[level][dice] if level < len(last.chances) else 0.0
