"""The start values of a game of two, solved by value iteration (the engine's solver; the
compiled twin in ``build/win_solver.py`` writes the shipped tables the same way).

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
fresh last turn every turn total is the same row, solved as one (:func:`engine.advice.win_turn._settled`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from engine.advice.values import _hot_dice_escape, _throws
from engine.advice.win_offers import OfferTable
from engine.advice.win_turn import (Row, _after_keep, _last_turn, _last_turn_start, _moves, _Moves, _settled,
                                    _throw_row)
from engine.dice import MAX_DICE
from engine.rules import Rules

__all__ = ["WinTable"]

TOLERANCE = 1e-9
"""A start value is final when one more round of the (i, j) <-> (j, i) cycle moves it less."""

MAX_STEPS = 60
"""Secant steps a cycle may take; three or four suffice as a rule."""
SLOPE_CAP = 0.999
"""A start value moves less than its guess does (some turns end in a bank): keeps a step finite."""


@dataclass(frozen=True)
class WinTable:
    """``start``: the chance that the player starting a turn wins, both playing to win,
    for every (mover's total, mover's farkle streak, other's total, other's streak), as
    one row-major sequence (:meth:`chance` reads it). Totals are grid steps above
    ``lowest`` (the rules' lowest total, 0 unless a penalty may take a total below 0);
    streaks are 0 to 2 under a three-farkle penalty, else only 0. With passing, as
    shipped, ``offers``: what building on an offer is worth, on a coarser grid."""

    rules: Rules
    start: tuple[float, ...]
    offers: OfferTable | None = None

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
    offers: OfferTable | None = field(default=None, init=False)
    """As shipped: building's values, read instead of solving each turn they come from."""
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
        sums of totals, solved already), or read in the shipped table."""
        if self.offers is not None:
            return self.offers.built(mine, other, points, dice)
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
