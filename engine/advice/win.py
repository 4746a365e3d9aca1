"""The chance to win a two-player game when both play to win, solved by value iteration.

A game of two is a Markov decision process over (mover's total and farkle streak, other's
total and streak, turn total, dice to throw), solved as Neller & Presser solve Pig
("Optimal Play of the Dice Game Pig", UMAP Journal 2004) and Busche & Neller solve Farkle
("Optimal Play of the Farkle Dice Game", Advances in Computer Games 2017). A start value
is the chance that the player about to start a turn wins (:class:`WinTable`); totals are
counted in grid steps from the lowest total a player can hold (0, or the rules' lowest
total where a three-farkle penalty may take a total below 0), streaks are 0 to 2 under a
penalty and not told apart without one:

* within a turn the total only grows, so the turn of fixed start values is solved by
  backward induction over its total, with every keep a throw offers
  (:mod:`engine.advice.values` keeps only the most points per dice left, which is not
  always best here: see below);
* a bank leads to the other player's start at a pair of totals of higher sum, so pairs
  are solved in descending order of their sum;
* a farkle that is not a third leads to the other player's start at the same totals, one
  streak further on: without a penalty that is the cycle (i, j) <-> (j, i), solved by
  iterating those two start values to a fixed point (secant steps: each start value is
  piecewise linear in the other's, with slope below 1; to 1e-9); with one, the streak
  pairs of a pair of totals are solved in descending order of the streaks' sum;
* a third farkle takes the penalty (down to the lowest total) and starts the streak
  again: a pair of lower sum, solved later in the same pass, so passes repeat until none
  moves a start value by more than :data:`TOLERANCE` (9 passes to 4,000 under
  ``official``, 12 to 10,000);
* the end is the rules' :attr:`~engine.rules.Rules.end_rule`: under ``"final_round"`` a
  bank reaching the target gives the other player one last turn
  (:func:`last_turn_chances`: bank more to win, the same to throw off a tie at even
  odds); under ``"first_to_target"`` the first to bank the target wins at once (Busche &
  Neller's rule).

A turn total past the target is solved up to where banking is provably best: throwing
``n`` dice is worth at most ``(1 - farkle chance) + farkle chance x farkle value``, so a
bank is best once the other player's last-turn chance is below ``farkle chance x (1 -
farkle value)``. Under the final round, more points are not always better: at 0-0 to 300,
250 with two dice is best banked (51 %); at 50-0 the same bank makes 300 and hands the
other player a last turn that catches up 78 % of the time, so the turn is worth 50 %.

Progressive passing (``progressive``, ``classic``): a bank hands the other player its
points and the dice left (six on hot dice), and the start of their turn is the better of
six fresh dice and building on the offer. Building is throwing those dice at that turn
total in the builder's own turn, so the offer's value is a row of that turn's solution:
every turn solved keeps them (:meth:`_Solver.throws`), and a bank at a pair of totals
reads them at the pair it leads to, of higher sum, solved already. A bank now has a value
per dice left. In the final round the offer puts the other player as far short as the
banker started the turn, however much the turn made; past where that beats the other's
fresh last turn every turn total is the same row, solved as one (:func:`_settled`).

Supported: every scoring, entry threshold, minimum bank, end rule, progressive passing
and three-farkle penalty with a lowest total (a turn banks only from the entry threshold
off the board and the minimum bank on it; a last turn short of the leader by less than
the minimum bank must reach the minimum bank). Not solved: steals (the state would also
need a farkle's points and dice), passing beside a penalty, a penalty with no lowest
total, and a penalty beside an entry threshold (a total of 0 or less may be on the board
or not): there
:func:`win_table_ready` is False and :func:`engine.advice.simulation.win_chances`
simulates, with its error. Cost: about ``levels**3`` turn totals a pass; CPython solves
``house`` to 4,000 in about two minutes, so the tables players meet are shipped
(:mod:`engine.advice.win_tables`: ``house`` to 4,000, 5,000 and 10,000, ``official`` to
4,000 and 10,000, Busche's Facebook Farkle), solved by the compiled twin of this solver
(``python build/win_tables.py``; ``tests/engine/test_win_solver.py`` checks one against the
other), and targets up to :data:`ON_DEMAND_LEVELS` steps without a penalty are solved when
asked.

Published figures (tests/app/test_win_chance.py checks them):

* Busche & Neller 2017: simplest scoring (1 = 100, 5 = 50, three of a kind only), no entry
  threshold, first to bank 10,000 wins: 200 points for the second player make the game
  fairest. Reproduced: ``python build/win_tables.py --busche-neller 10000`` finds 200 (the
  first player then wins 50.40 %; 53.70 % with no head start). To 1,000, 2,000 and 3,000
  the fairest head start is 250.
* Busche 2016, "Maximizing Win Probability in the Game of Farkle": the first player wins
  53.487 % under "Facebook Farkle" rules (:data:`engine.advice.win_tables.FACEBOOK_FARKLE`:
  a penalty of 500 down to -2,500, a minimum bank of 300, the first to bank 10,000
  wins). Reproduced from the shipped table. For comparison, the first player wins
  54.71 % under ``house`` to 4,000, 54.31 % to 5,000 and 53.20 % to 10,000, and 55.22 %
  under ``official`` to 4,000 and 53.55 % to 10,000.
"""

from __future__ import annotations

import json
import math
import zlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from functools import lru_cache
from itertools import accumulate
from operator import itemgetter, mul
from pathlib import Path

from engine.advice.values import _hot_dice_escape, _level, _reach, _throws, bank_allowed
from engine.dice import MAX_DICE
from engine.errors import InvalidInput
from engine.rules import Rules

__all__ = ["win_chance", "last_turn_chances", "WinTable", "solve_win_table", "win_table_ready", "prepare_win_chance",
           "supports_win_chance",
           "read_tables", "write_tables", "TABLES_FILE"]

SCALE = 65535
"""A shipped start value is kept as round(chance x SCALE) in two bytes."""

TOLERANCE = 1e-9
"""A start value is final when one more round of the (i, j) <-> (j, i) cycle moves it less."""

NEGLIGIBLE = 1e-12
"""A last-turn chance below this counts as none: the lead it needs is never worth throwing on for."""

MAX_STEPS = 60
"""Secant steps a cycle may take; three or four suffice as a rule."""
SLOPE_CAP = 0.999
"""A start value moves less than its guess does (some turns end in a bank): keeps a step finite."""
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


def supports_win_chance(rules: Rules) -> str | None:
    """Why the win chance cannot be solved under ``rules``, or None when it can."""
    if rules.steal:
        return "stealing a farkle's dice is not solved for the win chance"
    if rules.progressive and rules.triple_farkle_penalty:
        return "passing dice beside a three-farkle penalty is not solved for the win chance"
    if rules.triple_farkle_penalty and rules.lowest_total is None:
        return "a three-farkle penalty with no lowest total is not solved for the win chance (totals have no end below)"
    if rules.triple_farkle_penalty and rules.entry_threshold:
        return ("a three-farkle penalty with an entry threshold is not solved for the win chance (a total of 0 "
                "or less may be on the board or not)")
    return None


@dataclass(frozen=True)
class WinTable:
    """``start``: the chance that the player starting a turn wins, both playing to win,
    for every (mover's total, mover's farkle streak, other's total, other's streak), as
    one row-major sequence (:meth:`chance` reads it). Totals are grid steps above
    ``lowest`` (the rules' lowest total, 0 unless a penalty may take a total below 0);
    streaks are 0 to 2 under a three-farkle penalty, else only 0."""

    rules: Rules
    start: tuple[float, ...]

    @property
    def final_round(self) -> bool:
        """A bank reaching the target gives the other player a last turn (the rules' end rule)."""
        return self.rules.end_rule == "final_round"

    @property
    def streaks(self) -> int:
        return _streaks(self.rules)

    @property
    def levels(self) -> int:
        """Totals per player: from the lowest total up to one step short of the target."""
        return math.isqrt(len(self.start) // self.streaks ** 2)

    def chance(self, mine: int, other: int, streaks: tuple[int, int] = (0, 0)) -> float:
        """The start value at banked totals ``mine`` and ``other`` (points) and farkle streaks."""
        step = _moves(self.rules).step
        low = _lowest(self.rules)
        return self.start[_index(self.levels, self.streaks, (mine - low) // step, streaks[0],
                                 (other - low) // step, streaks[1])]


def _streaks(rules: Rules) -> int:
    """Farkle streaks a player is told apart by: 0, 1 and 2 under a penalty, else none."""
    return 3 if rules.triple_farkle_penalty else 1


def _lowest(rules: Rules) -> int:
    """The lowest total a player can hold (points): what a penalty may take a total down to."""
    return min(0, rules.lowest_total or 0) if rules.triple_farkle_penalty else 0


def _index(levels: int, streaks: int, mine: int, streak: int, other: int, theirs: int) -> int:
    return ((mine * streaks + streak) * levels + other) * streaks + theirs


@dataclass
class _Solver:
    """One rule set's game, solved a pair of totals at a time (see the module)."""

    rules: Rules
    final_round: bool = field(init=False)
    moves: _Moves = field(init=False)
    levels: int = field(init=False)
    """Totals per player, from the lowest (index 0) to one step short of the target."""
    zero: int = field(init=False)
    """The index of a total of 0."""
    streaks: int = field(init=False)
    entry: int = field(init=False)
    least: int = field(init=False)
    after_penalty: tuple[int, ...] = field(init=False)
    """The total a third farkle leaves, by the total it was taken from (index)."""
    start: list[float] = field(init=False)
    last: tuple[float, ...] = field(init=False)
    """The other player's last-turn chance, by the steps they are short of a tie."""
    escape: float = field(init=False)
    """Hot dice that must be thrown: the chance they are escaped (1 where they need not be)."""
    passing: bool = field(init=False)
    """A bank hands its points and the dice left to the other player (progressive)."""
    turns: dict[tuple[int, int, int, int], list[list[float]]] = field(default_factory=dict, init=False)
    """:meth:`throws` of the turns asked for since the table was solved."""
    slopes: list[float] = field(default_factory=lambda: [0.0, 0.0], init=False)
    """How much ``F`` moved with its guess in the last cycle solved (see :meth:`cycle`), off
    the diagonal and on it (where ``F`` falls as its guess rises)."""

    def __post_init__(self) -> None:
        self.final_round = self.rules.end_rule == "final_round"
        self.moves = _moves(self.rules)
        step = self.moves.step
        lowest = _lowest(self.rules)
        self.zero = -lowest // step
        self.levels = self.zero + -(-self.rules.target // step)
        self.streaks = _streaks(self.rules)
        self.entry = -(-self.rules.entry_threshold // step)
        self.least = -(-self.rules.minimum_bank // step)
        self.after_penalty = tuple(index - self.rules.penalty_on(lowest + index * step) // step
                                   for index in range(self.levels))
        self.start = [0.5 if self.streaks > 1 else 0.0] * (self.levels * self.streaks) ** 2
        self.last = tuple(_last_turn_start(self.rules, short) for short in range(len(_last_turn(self.rules).chances))
                          ) if self.final_round else ()
        self.escape = _hot_dice_escape(_throws(self.rules)) if self.rules.must_roll_after_hot_dice else 1.0
        self.passing = self.rules.progressive

    def at(self, mine: int, streak: int, other: int, theirs: int) -> float:
        return self.start[_index(self.levels, self.streaks, mine, streak, other, theirs)]

    def put(self, mine: int, streak: int, other: int, theirs: int, value: float) -> None:
        self.start[_index(self.levels, self.streaks, mine, streak, other, theirs)] = value

    def farkled(self, mine: int, streak: int, other: int, theirs: int) -> float:
        """A farkle now: the other player starts, this one a farkle further on (a third:
        back to none, and the total down by the penalty)."""
        if streak == self.streaks - 1:
            return 1.0 - self.at(other, theirs, self.after_penalty[mine], 0)
        return 1.0 - self.at(other, theirs, mine, streak + 1)

    def bank(self, other: int, theirs: int, total: int) -> float:
        """Banking a total of ``total`` steps against ``other`` on streak ``theirs``."""
        if total < self.levels:
            return 1.0 - self.at(other, theirs, total, 0)
        short = total - other
        return 1.0 - self.last[short] if short < len(self.last) else 1.0

    def banks(self, mine: int, other: int, theirs: int, total: int) -> Row:
        """Banking a total of ``total`` steps in a turn started at ``mine``, by the dice left
        (0: hot dice). With passing the other player starts on the offer of the turn's
        points and those dice (six on hot dice), built on or not, whichever is better for
        them; in their last turn too."""
        if not self.passing:
            return (self.bank(other, theirs, total),) * MAX_DICE
        if total >= self.levels and not self.final_round:
            return (1.0,) * MAX_DICE
        if total >= self.levels:
            short = total - other
            fresh = self.last[short] if short < len(self.last) else 0.0
            return tuple(1.0 - max(fresh, self.last_built(mine - other, left or MAX_DICE)) for left in range(MAX_DICE))
        fresh = self.at(other, theirs, total, 0)
        return tuple(1.0 - max(fresh, self.built(other, theirs, total, total - mine, left or MAX_DICE))
                     for left in range(MAX_DICE))

    def built(self, mine: int, streak: int, other: int, points: int, dice: int) -> float:
        """Building on an offer of ``points`` steps and ``dice`` dice at the start of a turn:
        throwing those dice at that turn total (the other player's start values at higher
        sums of totals, solved already)."""
        throws = self.throws(mine, streak, other, 0)
        if points < len(throws):
            return throws[points][dice]
        return self.turn(mine, streak, other, 0, low=mine + points)[dice]

    def last_built(self, short: int, dice: int) -> float:
        """The last turn built on an offer: throwing ``dice`` dice ``short`` steps short of
        the leader once the offer's points are counted (the leader's own turn added as much)."""
        last = _last_turn(self.rules)
        if short < 0:
            return last.ahead[dice]
        return last.chances[short][dice] if short < len(last.chances) else 0.0

    def beyond(self, mine: int, other: int, farkled: float) -> Row:
        """With passing in the final round, the row at every total from :meth:`top` up: a
        bank there hands over its dice and points, which put the other ``mine - other``
        steps short whatever the total, and building on them beats the other's fresh last
        turn; so the rows are one row, the fixed point of bank or throw on."""
        bank = tuple(1.0 - self.last_built(mine - other, left or MAX_DICE) for left in range(MAX_DICE))
        return _settled(self.moves, bank, farkled, self.rules.must_roll_after_hot_dice)

    def top(self, mine: int, other: int, farkled: float) -> int:
        """The turn total from which banking beats throwing on whatever comes: throwing on
        adds at most ``farkle chance x (1 - farkled)`` to a bank already won. With passing,
        from where the other's fresh last turn is never better than building on the offer
        (see :meth:`beyond`)."""
        if not self.final_round:
            return self.levels
        if self.passing:
            floor = min(self.last_built(mine - other, dice) for dice in range(1, MAX_DICE + 1))
            short = len(self.last)
            while short and self.last[short - 1] <= floor:
                short -= 1
            return max(self.levels, other + short)
        margin = self.moves.throws[-1].farkle * (1.0 - farkled)
        short = 0
        while short < len(self.last) and self.last[short] > margin:
            short += 1
        return max(self.levels, other + short)

    def turn(self, mine: int, streak: int, other: int, theirs: int, low: int | None = None,
             record: list[list[float]] | None = None) -> list[float]:
        """The value of throwing 1 to 6 dice at turn total ``low`` (the turn's start when
        None) in a turn started with ``mine`` on ``streak`` against ``other`` on
        ``theirs``. ``record`` gets the throw values of every total from the top down."""
        farkled = self.farkled(mine, streak, other, theirs)
        low = mine if low is None else low
        top = self.top(mine, other, farkled)
        reach = self.moves.reach
        least = self.least if mine > self.zero or self.entry == 0 else self.entry
        high = max(top, low + 1, mine + least)
        must_roll = self.rules.must_roll_after_hot_dice
        rows: list[Row] = [()] * (high - low)
        if self.passing and self.final_round:
            rows += [self.beyond(mine, other, farkled)] * (reach + 1)
        else:
            rows += [self._banked(other, theirs, total, farkled) for total in range(high, high + reach + 1)]
        for total in range(high - 1, low, -1):
            throw = _throw_row(self.moves, rows, total - low, farkled)
            if record is not None:
                record.append(throw)
            bankable = total - mine >= least
            rows[total - low] = _after_keep(throw, self.banks(mine, other, theirs, total) if bankable else None,
                                            must_roll)
        return _throw_row(self.moves, rows, 0, farkled)

    def throws(self, mine: int, streak: int, other: int, theirs: int) -> list[list[float]]:
        """The throw values of a turn started with ``mine`` against ``other``, for every
        turn total from the start (index 0) up to where banking is best; kept."""
        key = (mine, streak, other, theirs)
        found = self.turns.get(key)
        if found is None:
            found = []
            found.append(self.turn(mine, streak, other, theirs, record=found))
            found.reverse()
            self.turns[key] = found
        return found

    def _banked(self, other: int, theirs: int, total: int, farkled: float) -> Row:
        """A row past the turn's top: bank (hot dice that must be thrown: bank once they leave dice)."""
        value = self.bank(other, theirs, total)
        return (self.escape * value + (1.0 - self.escape) * farkled,) + (value,) * (MAX_DICE - 1)

    def solve(self) -> WinTable:
        """Pairs of totals in descending order of their sum (a bank leads to a higher sum,
        solved already); under a penalty, passes until nothing moves (a third farkle leads
        to a lower sum, solved later in the pass)."""
        levels = self.levels
        moved = 1.0
        while moved > TOLERANCE:
            moved = 0.0
            for total in range(2 * levels - 2, -1, -1):
                for mine in range(max(0, total - levels + 1), total // 2 + 1):
                    if self.streaks == 1:
                        self.cycle(mine, total - mine)
                    else:
                        moved = max(moved, self.streak_pairs(mine, total - mine))
        return WinTable(self.rules, tuple(self.start))

    def streak_pairs(self, mine: int, other: int) -> float:
        """Every streak pair of (mine, other) and (other, mine), in descending order of the
        streaks' sum (a farkle that is not a third raises it); again while a total at the
        lowest, which a third farkle leaves where it is, keeps them moving."""
        moved = 0.0
        floored = self.after_penalty[mine] == mine or self.after_penalty[other] == other
        top = self.streaks - 1
        while True:
            most = 0.0
            for both in range(2 * top, -1, -1):
                for streak in range(max(0, both - top), min(both, top) + 1):
                    sides = ((mine, streak, other, both - streak), (other, both - streak, mine, streak))
                    for state in sides[:1] if mine == other else sides:
                        value = self.turn(*state)[MAX_DICE]
                        most = max(most, abs(value - self.at(*state)))
                        self.put(*state, value)
            moved = max(moved, most)
            if not floored or most <= TOLERANCE:
                return moved

    def guess(self, mine: int, other: int) -> float:
        """The start value of (mine, other) extrapolated from the three pairs just above it."""
        if other + 1 < self.levels:
            return min(1.0, max(0.0, self.at(mine + 1, 0, other, 0) + self.at(mine, 0, other + 1, 0)
                                - self.at(mine + 1, 0, other + 1, 0)))
        return self.at(mine + 1, 0, other, 0) if mine + 1 < self.levels else 1.0

    def cycle(self, mine: int, other: int) -> None:
        """Without streaks: the start values of (mine, other) and (other, mine), each the
        other's farkle value, by secant steps on ``a -> F(a)``, one round of the cycle:
        ``F`` is piecewise linear, so two points on one piece give the fixed point exactly.
        The first step takes the slope the pair before ended on."""
        def once(guess: float) -> tuple[float, float]:
            self.put(mine, 0, other, 0, guess)
            if mine != other:
                self.put(other, 0, mine, 0, self.turn(other, 0, mine, 0)[MAX_DICE])
            theirs = self.at(other, 0, mine, 0)
            return self.turn(mine, 0, other, 0)[MAX_DICE], theirs

        point = self.guess(mine, other)
        ours, theirs = once(point)
        slope = self.slopes[mine == other]
        for _ in range(MAX_STEPS):
            miss = ours - point
            if abs(miss) <= TOLERANCE:
                break
            following = min(1.0, max(0.0, point + miss / (1.0 - slope)))
            if following == point:
                break
            previous, point = (point, miss), following
            ours, theirs = once(point)
            slope = min(SLOPE_CAP, max(-SLOPE_CAP, 1.0 + (ours - point - previous[1]) / (point - previous[0])))
        self.slopes[mine == other] = slope
        self.put(mine, 0, other, 0, ours)
        self.put(other, 0, mine, 0, theirs)


ON_DEMAND_LEVELS = 10
"""Targets up to this many grid steps (500 points at 50) are solved when first asked (a
few seconds; half a minute on a busy machine: the turns past the target cost the most
there); larger ones only from a shipped table or :func:`solve_win_table` (minutes)."""

TABLES_FILE = Path(__file__).with_name("win_tables.bin")
"""The shipped tables, written by ``python build/win_tables.py``: zlib over, per table,
one JSON line (rules, end rule, levels, streaks) and the ``(levels x streaks)**2`` start
values in :class:`WinTable`'s order, each kept as round(chance x 65535) in two bytes: as
each value's step from the one before (mod 65536), all the high bytes, then all the low
bytes (neighbouring chances are close: zlib then halves the file)."""

_SOLVED: dict[Rules, _Solver] = {}


def solve_win_table(rules: Rules) -> WinTable:
    """Solve (or look up) every start value of a two-player game under ``rules``; kept for
    :func:`win_chance`. Minutes for a target of thousands of points in CPython (hours
    under a three-farkle penalty: ``build/win_solver.py`` solves those in compiled code).

    :raises InvalidInput: rules the win chance is not solved for.
    """
    _refuse_unsupported(rules)
    solver = _SOLVED.get(rules)
    if solver is None:
        solver = _Solver(rules)
        solver.solve()
        _SOLVED[rules] = solver
    return WinTable(rules, tuple(solver.start))


def win_table_ready(rules: Rules) -> bool:
    """:func:`win_chance` answers at once under ``rules``: its table is solved or shipped."""
    return supports_win_chance(rules) is None and (rules in _SOLVED or _shipped(rules) is not None)


def _on_demand(rules: Rules) -> bool:
    """Small enough to solve when first asked: a few seconds (a penalty's streaks and
    passes make any target minutes in CPython)."""
    return not rules.triple_farkle_penalty and -(-rules.target // _moves(rules).step) <= ON_DEMAND_LEVELS


def prepare_win_chance(rules: Rules) -> bool:
    """Make :func:`win_chance` answer at once under ``rules`` where it can: read its shipped
    table, or solve a small target (:data:`ON_DEMAND_LEVELS`, seconds). False where the
    rules are not solved for or the table would take minutes."""
    if supports_win_chance(rules) is not None:
        return False
    if win_table_ready(rules) or _on_demand(rules):
        _solver(rules)
        return True
    return False


def _refuse_unsupported(rules: Rules) -> None:
    reason = supports_win_chance(rules)
    if reason is not None:
        raise InvalidInput(f"No win chance under these rules: {reason}.")


def _solver(rules: Rules) -> _Solver:
    _refuse_unsupported(rules)
    solver = _SOLVED.get(rules)
    if solver is not None:
        return solver
    shipped = _shipped(rules)
    solver = _Solver(rules)
    if shipped is not None:
        solver.start = list(shipped)
    elif _on_demand(rules):
        solver.solve()
    else:
        raise InvalidInput(f"The win chance to {rules.target:,} under these rules has no shipped table and takes "
                           f"minutes to solve: call solve_win_table first, or ship it with "
                           f"python build/win_tables.py.")
    _SOLVED[rules] = solver
    return solver


@lru_cache(maxsize=1)
def _shipped_tables() -> dict[Rules, bytes]:
    if not TABLES_FILE.exists():
        return {}
    return _parts(TABLES_FILE.read_bytes())


def _shipped(rules: Rules) -> tuple[float, ...] | None:
    part = _shipped_tables().get(rules)
    return None if part is None else _decoded(part)


def read_tables(data: bytes) -> dict[Rules, tuple[float, ...]]:
    """The tables in a file written by :func:`write_tables`, by the rules each was solved for."""
    return {rules: _decoded(part) for rules, part in _parts(data).items()}


def _parts(data: bytes) -> dict[Rules, bytes]:
    """Each table's encoded start values, by its rules (the end rule read from the head's
    ``final_round``): decoded only when a table is asked for."""
    raw = zlib.decompress(data)
    parts = {}
    at = 0
    while at < len(raw):
        end = raw.index(b"\n", at)
        head = json.loads(raw[at:end])
        rules = Rules.from_dict(head["rules"])
        if not head["final_round"]:
            rules = replace(rules, end_rule="first_to_target")
        size = 2 * (head["levels"] * head["streaks"]) ** 2
        parts[rules] = raw[end + 1:end + 1 + size]
        at = end + 1 + size
    return parts


def _decoded(part: bytes) -> tuple[float, ...]:
    """Start values from their encoding (see :data:`TABLES_FILE`)."""
    count = len(part) // 2
    steps = (high * 256 + low for high, low in zip(part[:count], part[count:]))
    return tuple(value / SCALE for value in accumulate(steps, lambda value, step: (value + step) & 0xFFFF))


def write_tables(tables: Sequence[WinTable]) -> bytes:
    """``tables`` in the shipped file's format (see :data:`TABLES_FILE`)."""
    parts = []
    for table in tables:
        head = {"rules": table.rules.to_dict(), "final_round": table.final_round, "levels": table.levels,
                "streaks": table.streaks}
        scaled = [round(value * SCALE) for value in table.start]
        steps = [(value - before) & 0xFFFF for before, value in zip([0, *scaled], scaled)]
        parts += [json.dumps(head, sort_keys=True).encode() + b"\n", bytes(step // 256 for step in steps),
                  bytes(step % 256 for step in steps)]
    return zlib.compress(b"".join(parts), 9)


def win_chance(rules: Rules, scores: Sequence[int], to_move: int, turn_points: int = 0, dice: int = MAX_DICE,
               streaks: Sequence[int] = (0, 0), *, may_bank: bool = True, offer: tuple[int, int] | None = None
               ) -> float:
    """The chance that the player ``to_move`` (0 or 1) wins a two-player game at banked
    ``scores``, holding ``turn_points`` with ``dice`` dice to throw, when both play to win;
    ``streaks`` are the players' farkles in a row (what a three-farkle penalty counts).
    ``may_bank`` False: the dice must be thrown first (just built on an offer). ``offer``:
    at the start of a turn, the points and dice passed (progressive), built on or not,
    whichever is better.

    The end is the rules' end rule: under the final round a bank reaching the target
    gives the other player one last turn, in which banking more wins and the same throws
    off a tie at even odds. With the other player already at the target, this is that
    last turn's chance (what :func:`engine.catch_up_chance` answers, a tie counted as
    half). Under first to target the first to bank the target wins at once.

    >>> house = Rules.preset("house")
    >>> win_chance(house, (9_850, 10_000), 0, 150, 2)  # a tie if banked; two dice score 5/9
    0.5555555555555556

    :raises InvalidInput: not two scores or streaks, a seat other than 0 or 1, a total no
        throw can make, a game already decided, or rules the win chance is not solved for.
    """
    _refuse_unsupported(rules)
    if offer is not None:
        points, passed = offer
        if not rules.progressive or turn_points or dice != MAX_DICE:
            raise InvalidInput(f"An offer of {points:,} is taken at the start of a turn under progressive "
                               f"passing: not with {turn_points:,} in the turn and {dice} dice to throw.")
        fresh = win_chance(rules, scores, to_move, streaks=streaks)
        return max(fresh, win_chance(rules, scores, to_move, points, passed, streaks, may_bank=False))
    step = _moves(rules).step
    lowest = _lowest(rules)
    mine, other = _scores(scores, to_move, step, lowest)
    streak, theirs = _streaks_of(rules, streaks, to_move)
    turn = _level(rules, turn_points, dice)
    zero = -lowest // step
    levels = zero + -(-rules.target // step)
    final_round = rules.end_rule == "final_round"
    if mine >= levels or other >= levels and not final_round:
        raise InvalidInput(f"{max(scores):,} has reached the target {rules.target:,}: "
                           + ("the game is over." if not final_round or other >= levels
                              else "the other player has the last turn."))
    on_board = mine > zero or rules.entry_threshold == 0
    bankable = may_bank and bank_allowed(rules, turn_points, on_board)
    least = -(-(rules.minimum_bank if on_board else rules.entry_threshold) // step)
    if other >= levels and other - mine < least:  # short of the minimum bank: reach it to lead
        return 1.0 if turn >= least else _reach(rules, least).chances[turn][dice]
    if other >= levels:
        banked = 1.0 if mine + turn > other else 0.5 if mine + turn == other else 0.0
        throw_on = last_turn_chances(rules, (other - mine - turn) * step, dice)
        return max(throw_on, banked) if bankable else throw_on
    solver = _solver(rules)
    if turn == 0 and dice == MAX_DICE:
        return solver.at(mine, streak, other, theirs)
    throws = solver.throws(mine, streak, other, theirs)
    if turn < len(throws):
        throw_on = throws[turn][dice]
    else:
        throw_on = solver.turn(mine, streak, other, theirs, low=mine + turn)[dice]
    return max(throw_on, solver.banks(mine, other, theirs, mine + turn)[dice % MAX_DICE]) if bankable else throw_on


def _scores(scores: Sequence[int], to_move: int, step: int, lowest: int) -> tuple[int, int]:
    """The mover's and the other's total in grid steps above the lowest total."""
    if isinstance(scores, (str, bytes)) or not isinstance(scores, Sequence) or len(scores) != 2:
        raise InvalidInput(f"{scores!r}: the win chance is for two players, give their two scores.")
    for value in scores:
        if isinstance(value, bool) or not isinstance(value, int) or value < lowest or value % step:
            raise InvalidInput(f"{value!r} is no banked score here: scores are {lowest:,} or more, "
                               f"in steps of {step}.")
    if to_move not in (0, 1) or isinstance(to_move, bool):
        raise InvalidInput(f"{to_move!r} is no seat: the player to move is 0 or 1.")
    return (scores[to_move] - lowest) // step, (scores[1 - to_move] - lowest) // step


def _streaks_of(rules: Rules, streaks: Sequence[int], to_move: int) -> tuple[int, int]:
    """The mover's and the other's farkle streak as the table tells them apart (none
    without a penalty)."""
    if isinstance(streaks, (str, bytes)) or not isinstance(streaks, Sequence) or len(streaks) != 2 or any(
            isinstance(value, bool) or not isinstance(value, int) or value < 0 for value in streaks):
        raise InvalidInput(f"{streaks!r}: give the two players' farkles in a row, each 0 or more.")
    if not rules.triple_farkle_penalty:
        return 0, 0
    if max(streaks) > 2:
        raise InvalidInput(f"{streaks!r}: under a three-farkle penalty a streak is 0, 1 or 2 (a third farkle "
                           f"starts it again).")
    return streaks[to_move], streaks[1 - to_move]
