"""Each player's chance to win, for any rule set and two to eight players.

One entry point, :func:`win_chances`: the chances, how they were found, and their error.

* ``"decided"``: the game is over (the winner 1, the others 0) or waits for a roll-off
  (the tied players at even odds, the others 0).
* ``"exact"``: a game of two with a solved or shipped win table
  (:func:`engine.advice.win.win_table_ready`; ``house`` to 4,000, 5,000 and 10,000,
  ``official`` to 4,000 and 10,000, Busche's Facebook Farkle, ``progressive`` and
  ``classic`` to 4,000 and 10,000) and a turn the advice puts a win chance on: both playing to win, both
  farkle streaks counted, an offer built on or not; no error, but where an offer is
  weighed under a shipped passing table, the offers' table's (README).
* ``"simulated"`` otherwise: seeded games of advised play from the game's state as it
  stands (totals, whose turn, the turn in progress and a throw on the table, farkle
  streaks and the three-farkle penalty, who is on the board, an offer passed and
  progressive or steal passing, a minimum bank, how low a penalty may take a total, the
  end rule (a final round, or the first to bank the target wins), the final round and
  who is still owed a last turn, a rule change waiting for the next turn). Every
  simulated player plays the app's own advice (:mod:`engine.advice.values`): the keep and
  the bank worth the most points on average, on their farkle streak under a penalty (a
  farkle counted at what it would cost out of their total, as the advice counts it), build on an offer when it is worth
  more than six fresh dice, and in their last turn of the final round the keeps with the
  best chance to bank more than the leader, banking as soon as they do. A tie for the win
  counts as a roll-off at even odds. The error is the half-width of each chance's 95 %
  interval (1.96 standard errors of the mean of the games' outcomes).

Seeded: the same state gives the same figures (:data:`SEED`, the same for every state,
so two states are compared on common random numbers). Bounded: games are played until
:data:`TURN_BUDGET` turns have been simulated (at least :data:`FEWEST_GAMES`, at most
:data:`MOST_GAMES` games), so a final round, whose games are a few turns long, is
simulated over more games than a game's first turn. Figures: ``tests/bench/bench_win_simulation.py``.
"""

from __future__ import annotations

import math
import random
from bisect import bisect_right
from collections.abc import Generator, Iterator
from dataclasses import dataclass
from functools import lru_cache
from itertools import accumulate
from typing import Literal

from engine.advice.advisor import advise, percent
from engine.advice.values import STREAKS, Choices, _farkle_worth, _goal, _reach, _throws, roll_value, step_of
from engine.advice.win import win_table_ready
from engine.dice import MAX_DICE
from engine.game import GameState, bank_refusal
from engine.rules import Rules
from engine.scoring import scoring_options
from engine.words import Words, listed, say

__all__ = ["WinChances", "win_chances", "work_out_win_chances", "SEED", "TURN_BUDGET", "FEWEST_GAMES", "MOST_GAMES"]

SEED = 26
"""Every simulation starts from this seed: the same state always gives the same figures."""
TURN_BUDGET = 200_000
"""Turns simulated for one state's chances (about 0.4 s of CPython here; see the benchmark)."""
FEWEST_GAMES = 400
"""Games simulated at least, however long they are."""
MOST_GAMES = 10_000
"""Games simulated at most, however short (a final round's last turns)."""
SLICE = 25
"""Games simulated between two looks at other tasks (:func:`work_out_win_chances`; the
advised turn's ends are worked out one turn total at a time between them)."""
Z95 = 1.96
"""Standard errors in half a 95 % interval."""

Method = Literal["decided", "exact", "simulated"]
_Player = tuple[bool, int, int]
"""A player as the advice tells them apart: on the board or not, their farkle streak, and a
total standing for every total a farkle costs as much out of (see :func:`_player`)."""
Result = tuple[bool, int, int]
"""A turn's end: (banked, turn total in grid steps, dice: left after the bank or thrown in the farkle)."""


@dataclass(frozen=True)
class WinChances:
    """Each seat's chance to win, how it was found, and its error.

    >>> WinChances((0.53, 0.47), "simulated", (0.012, 0.012), 6_000).describe(("Ann", "Bob"))
    'Ann 53 % ± 2, Bob 47 % ± 2'
    """

    chances: tuple[float, ...]
    method: Method
    errors: tuple[float, ...]
    """Half the 95 % interval of each chance; 0 where it is decided or exact."""
    games: int = 0
    """Games simulated (0 unless ``method`` is ``"simulated"``)."""

    def shown(self, seat: int) -> Words:
        """A seat's chance in whole percents, with its error where there is one: ``41 % ± 1``."""
        if self.method != "simulated" or self.errors[seat] == 0:
            return percent(self.chances[seat])
        return say("{chance} ± {error}", chance=percent(self.chances[seat]),
                   error=max(1, math.ceil(self.errors[seat] * 100)))

    def describe(self, players: tuple[str, ...]) -> Words:
        return listed([say("{name} {chance}", name=name, chance=self.shown(seat)) for seat, name in enumerate(players)])


def win_chances(state: GameState, *, seed: int = SEED, turns: int = TURN_BUDGET, exact: bool = True) -> WinChances:
    """Each player's chance to win ``state``'s game (see the module for how); ``exact=False``
    simulates even where the exact table answers."""
    work = work_out_win_chances(state, seed=seed, turns=turns, exact=exact)
    try:
        while True:
            next(work)
    except StopIteration as done:
        chances: WinChances = done.value
        return chances


def work_out_win_chances(state: GameState, *, seed: int = SEED, turns: int = TURN_BUDGET,
                         exact: bool = True) -> Generator[None, None, WinChances]:
    """:func:`win_chances` a slice of games at a time, yielding between slices (Python in
    the browser has no threads); the chances are the generator's return value."""
    count = len(state.players)
    if state.winner is not None:
        return WinChances(tuple(float(seat == state.winner) for seat in range(count)), "decided", (0.0,) * count)
    if state.tied:
        share = 1.0 / len(state.tied)
        return WinChances(tuple(share if seat in state.tied else 0.0 for seat in range(count)), "decided",
                          (0.0,) * count)
    if exact and count == 2 and win_table_ready(state.rules):
        mine = advise(state).win_chance
        if mine is not None:
            seat = state.current
            return WinChances(tuple(mine if other == seat else 1.0 - mine for other in range(2)), "exact", (0.0, 0.0))
    for seat in range(count):  # the advised turns' ends of the players now, between looks at other tasks
        for streak in range(STREAKS) if state.rules.triple_farkle_penalty else (0,):
            player = _player(state.rules, state.on_board[seat], streak, state.scores[seat])
            if (state.rules, *player) not in _FRESH:
                yield from _work_out_fresh_turns(state.rules, *player)
    table = _Table(state, random.Random(seed))
    totals, squares = [0.0] * count, [0.0] * count
    games = simulated = 0
    while games < FEWEST_GAMES or simulated < turns and games < MOST_GAMES:
        credits, played = table.play()
        for seat, credit in enumerate(credits):
            totals[seat] += credit
            squares[seat] += credit * credit
        games += 1
        simulated += played
        if games % SLICE == 0:
            yield
    means = tuple(total / games for total in totals)
    errors = tuple(Z95 * math.sqrt(max(0.0, square / games - mean * mean) / (games - 1))
                   for square, mean in zip(squares, means))
    return WinChances(means, "simulated", errors, games)


@dataclass(frozen=True)
class _Dice:
    """Throwing ``n`` dice under a rule set: ``cumulative[n]`` the running chances of
    ``keeps[n]``, each a distinct set of (points, dice left) a throw offers; past the
    last, a farkle."""

    step: int
    cumulative: tuple[tuple[float, ...], ...]
    keeps: tuple[tuple[Choices, ...], ...]


@lru_cache(maxsize=16)
def _dice(rules: Rules) -> _Dice:
    throws = _throws(rules)
    return _Dice(throws.step, tuple(tuple(accumulate(chance for chance, _ in group)) for group in throws.outcomes),
                 tuple(tuple(keeps for _, keeps in group) for group in throws.outcomes))


def _player(rules: Rules, on_board: bool, streak: int, total: int) -> _Player:
    """A player with ``total`` points as the advice tells them apart: on the board or not,
    their farkle streak, and what a farkle would cost them (:func:`engine.advice.values.roll_value`
    with ``total``); the first total seen with a cost stands for every total with it, so
    the advised play is worked out once per cost, not once per total."""
    if not rules.triple_farkle_penalty:
        return on_board, 0, 0
    worth = _farkle_worth(rules, on_board, streak, total)
    return on_board, streak, _STANDING.setdefault((rules, on_board, streak, worth), total)


_STANDING: dict[tuple[Rules, bool, int, float], int] = {}
"""The total standing for each farkle's worth (see :func:`_player`)."""


class _Policy:
    """The advice's play for the most points (:func:`engine.advice.advisor.throw_advice`'s
    order: the keep worth the most, then more points, then more dice), for a player on the
    board or not, on a farkle streak with a total (under a penalty, a farkle counted at
    what it would cost out of it); each decision worked out once."""

    def __init__(self, rules: Rules, on_board: bool, streak: int, total: int) -> None:
        self.rules, self.on_board, self.streak, self.step = rules, on_board, streak, step_of(rules)
        self.total = total
        self.kept: dict[tuple[int, Choices], tuple[int, int, bool]] = {}
        self.built: dict[tuple[int, int], bool] = {}

    def keep(self, level: int, keeps: Choices) -> tuple[int, int, bool]:
        """The advised keep of a throw made holding ``level`` steps: (new level, dice left, bank then)."""
        found = self.kept.get((level, keeps))
        if found is None:
            step = self.step
            points, left = max(keeps, key=lambda keep: (self.value(level + keep[0] // step, keep[1]), keep[0], keep[1]))
            after = level + points // step
            found = self.kept[(level, keeps)] = (after, left, self.banks(after, left))
        return found

    def value(self, level: int, left: int) -> float:
        throw_on = self.roll(level, left or MAX_DICE)
        return max(throw_on, float(level * self.step)) if self.bankable(level, left) else throw_on

    def banks(self, level: int, left: int) -> bool:
        """Banking ``level`` steps with ``left`` dice left is advised (and allowed)."""
        points = level * self.step
        return self.bankable(level, left) and points >= self.roll(level, left or MAX_DICE)

    def builds(self, level: int, dice: int) -> bool:
        """Building on an offer of ``level`` steps and ``dice`` dice beats six fresh dice."""
        found = self.built.get((level, dice))
        if found is None:
            found = self.built[(level, dice)] = self.roll(level, dice) > self.roll(0, MAX_DICE)
        return found

    def roll(self, level: int, dice: int) -> float:
        return roll_value(self.rules, level * self.step, dice, self.on_board, streak=self.streak, total=self.total)

    def bankable(self, level: int, left: int) -> bool:
        rules, points = self.rules, level * self.step
        if left == 0 and rules.must_roll_after_hot_dice:
            return False
        return points > 0 and points >= (rules.minimum_bank if self.on_board else rules.entry_threshold)


@lru_cache(maxsize=128)
def _policy(rules: Rules, on_board: bool, streak: int, total: int) -> _Policy:
    return _Policy(rules, on_board, streak, total)


Ends = tuple[tuple[float, ...], tuple[Result, ...]]
"""How a turn ends: the running chances of each end, and the ends, likeliest first."""
_FRESH: dict[tuple[Rules, bool, int, int], Ends] = {}


def _work_out_fresh_turns(rules: Rules, on_board: bool, streak: int, total: int) -> Iterator[None]:
    """How a turn of six fresh dice played for the most points ends, worked out exactly and
    kept in :data:`_FRESH`, one turn total between two yields (a keep only raises the
    total: totals in order)."""
    dice, policy = _dice(rules), _policy(rules, on_board, streak, total)
    ends: dict[Result, float] = {}
    held: dict[int, list[float]] = {0: [0.0] * MAX_DICE + [1.0]}
    while held:
        level = min(held)
        yield
        for n, mass in enumerate(held.pop(level)):
            if mass < 1e-13:
                continue
            previous = 0.0
            for running, keeps in zip(dice.cumulative[n], dice.keeps[n]):
                after, left, banks = policy.keep(level, keeps)
                chance, previous = mass * (running - previous), running
                if banks:
                    ends[(True, after, left)] = ends.get((True, after, left), 0.0) + chance
                else:
                    held.setdefault(after, [0.0] * (MAX_DICE + 1))[left or MAX_DICE] += chance
            ends[(False, level, n)] = ends.get((False, level, n), 0.0) + mass * (1.0 - previous)
    listed = sorted(ends.items(), key=lambda end: -end[1])
    _FRESH[(rules, on_board, streak, total)] = tuple(accumulate(chance for _, chance in listed)), tuple(end for end, _ in listed)


class _Table:
    """One simulated table: plays the game on from ``state`` to its end, again and again."""

    def __init__(self, state: GameState, rng: random.Random) -> None:
        self.state, self.rng = state, rng
        self.rules = state.rules
        self.later = state.pending_rules or state.rules
        self.dice = _dice(state.rules)
        self.step = self.dice.step
        self.target = -(-state.rules.target // self.step)
        self.players: dict[tuple[bool, int, int], _Player] = {}

    def play(self) -> tuple[list[float], int]:
        """One game to its end: each seat's share of the win, and the turns played."""
        state, step = self.state, self.step
        scores = [score // step for score in state.scores]
        streaks, on_board = list(state.farkle_streak), list(state.on_board)
        final, last_turns = state.final_round, list(state.last_turns)
        seat, count, rules, turns = state.current, len(scores), self.rules, 0
        offer: tuple[int, int] | None = None  # passed on (the first turn reads the state's own)
        first = True
        while True:
            need = max(scores) - scores[seat] + 1 if final and seat in last_turns else None
            player = self.player(on_board[seat], streaks[seat], scores[seat])
            end = self.turn_now(need, player) if first else self.turn(need, player, offer)
            banked, level, dice = end
            turns += 1
            offer = None
            if banked:
                scores[seat] += level
                on_board[seat], streaks[seat] = True, 0
                offer = (level, dice or MAX_DICE) if rules.progressive else None
                if not final and scores[seat] >= self.target and rules.end_rule == "first_to_target":
                    return [float(other == seat) for other in range(count)], turns
                if not final and scores[seat] >= self.target:
                    final, last_turns = True, [(seat + ahead) % count for ahead in range(1, count)]
            else:
                streaks[seat] += 1
                if streaks[seat] == STREAKS:
                    scores[seat] -= rules.penalty_on(scores[seat] * step) // step
                    streaks[seat] = 0
                offer = (level, dice) if rules.steal and level else None
            rules, first = self.later, False
            if offer is not None and not (rules.progressive if banked else rules.steal):
                offer = None
            if final:
                if seat in last_turns:
                    last_turns.remove(seat)
                if not last_turns:
                    top = max(scores)
                    leaders = [other for other in range(count) if scores[other] == top]
                    return [1.0 / len(leaders) if other in leaders else 0.0 for other in range(count)], turns
            seat = (seat + 1) % count

    def player(self, on_board: bool, streak: int, score: int) -> _Player:
        """:func:`_player` for a score in grid steps, looked up once per table."""
        key = (on_board, streak, score)
        found = self.players.get(key)
        if found is None:
            found = self.players[key] = _player(self.rules, on_board, streak, score * self.step)
        return found

    def turn(self, need: int | None, player: _Player, offer: tuple[int, int] | None) -> Result:
        """A turn from its start, an offer passed or not: drawn from its ends where they are
        worked out (the players at the table now), else thrown a throw at a time."""
        if offer is not None and self.builds(need, player, *offer):
            return self.play_on(need, player, *offer)
        fresh = _FRESH.get((self.rules, *player)) if need is None else None
        if fresh is not None:
            running, ends = fresh
            return ends[min(bisect_right(running, self.rng.random()), len(ends) - 1)]
        return self.play_on(need, player, 0, MAX_DICE)

    def turn_now(self, need: int | None, player: _Player) -> Result:
        """The turn in progress in the game's state, from where it stands."""
        state, step = self.state, self.step
        level = state.turn_points // step
        if state.phase == "keep":
            keeps = tuple((option.points, option.dice_left) for option in scoring_options(state.last_throw or (),
                                                                                           self.rules))
            after, left, banks = self.keep(need, player, level, keeps)
            return (True, after, left) if banks else self.play_on(need, player, after, left or MAX_DICE)
        if state.phase == "choose":
            dice = state.dice_in_hand
            if bank_refusal(state) is None and self.banks(need, player, level, 0 if state.hot_dice else dice):
                return True, level, dice
            return self.play_on(need, player, level, dice)
        if state.building and state.offer is not None:
            return self.play_on(need, player, level, state.offer.dice)
        offer = (state.offer.points // step, state.offer.dice) if state.offer is not None else None
        return self.turn(need, player, offer)

    def builds(self, need: int | None, player: _Player, level: int, dice: int) -> bool:
        """Building on an offer is advised over six fresh dice."""
        if need is None:
            return _policy(self.rules, *player).builds(level, dice)
        return self.lead(need, player, level, dice) > self.lead(need, player, 0, MAX_DICE)

    def play_on(self, need: int | None, player: _Player, level: int, dice: int) -> Result:
        """Throw ``dice`` dice holding ``level`` steps, and on as advised, to the turn's end."""
        cumulative, keeps = self.dice.cumulative, self.dice.keeps
        while True:
            found = bisect_right(cumulative[dice], self.rng.random())
            if found == len(keeps[dice]):
                return False, level, dice
            level, left, banks = self.keep(need, player, level, keeps[dice][found])
            if banks:
                return True, level, left
            dice = left or MAX_DICE

    def keep(self, need: int | None, player: _Player, level: int, keeps: Choices) -> tuple[int, int, bool]:
        if need is None:
            return _policy(self.rules, *player).keep(level, keeps)
        step = self.step
        best = max(keeps, key=lambda keep: (self.lead(need, player, level + keep[0] // step, keep[1] or MAX_DICE,
                                                      kept=keep[1] == 0), keep[0], keep[1]))
        after = level + best[0] // step
        return after, best[1], self.banks(need, player, after, best[1])

    def banks(self, need: int | None, player: _Player, level: int, left: int) -> bool:
        if need is None:
            return _policy(self.rules, *player).banks(level, left)
        return level >= self.goal(need, player[0]) and not (left == 0 and self.rules.must_roll_after_hot_dice)

    def goal(self, need: int, on_board: bool) -> int:
        """``need`` steps, or what the rules let the player bank at least (the advice's own goal)."""
        return _goal(self.rules, need * self.step, on_board)

    def lead(self, need: int, player: _Player, level: int, dice: int, kept: bool = False) -> float:
        """The best chance to bank ``need`` steps or more, throwing ``dice`` holding ``level``
        (``kept``: just after a keep that left hot dice, where banking may be allowed)."""
        goal = self.goal(need, player[0])
        reach = _reach(self.rules, _room(goal))
        return reach.after_keep(level + reach.goal - goal, 0 if kept else dice)


def _room(goal: int) -> int:
    """The goal :func:`engine.advice.values._reach` is solved for: the next power of two
    at least ``goal`` (a chance depends only on the steps still to go, so one table serves
    every smaller goal)."""
    return 1 << max(6, (goal - 1).bit_length())
