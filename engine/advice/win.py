"""The chance to win a two-player game when both play to win: the public questions, answered
from a shipped table (:mod:`engine.advice.win_format`), or solved on the device for a small
target (:mod:`engine.advice.win_pairs`, which says how the game is solved).

Supported: every scoring, entry threshold, minimum bank, end rule, progressive passing
and three-farkle penalty with a lowest total (a turn banks only from the entry threshold
off the board and the minimum bank on it; a last turn short of the leader by less than
the minimum bank must reach the minimum bank). Not solved: steals (the state would also
need a farkle's points and dice), passing beside a penalty, a penalty with no lowest
total, and a penalty beside an entry threshold (a total of 0 or less may be on the board
or not): there :func:`win_table_ready` is False and
:func:`engine.advice.simulation.win_chances` simulates, with its error.

Cost: about ``levels**3`` turn totals a pass; CPython solves ``house`` to 4,000 in about
two minutes, so the tables players meet are shipped (:mod:`engine.advice.win_tables`:
``house`` to 4,000, 5,000 and 10,000, ``official`` to 4,000 and 10,000, Busche's Facebook
Farkle, ``progressive`` and ``classic`` to 4,000 and 10,000), solved by the compiled twin
of this solver (``python build/win_tables.py``; ``tests/engine/test_win_solver.py`` checks
one against the other), and targets up to :data:`ON_DEMAND_LEVELS` steps without a penalty
are solved when asked. With passing, the start values are shipped exactly and the values
of building on an offer on a coarser grid (:mod:`engine.advice.win_offers`): an offer's
value read there is within 0.13 % of the exact one on average to 10,000 (0.11 % to
4,000), 1.5 % for 99 % of offers (1.2 %) and 17.5 % at worst (11 %), where the other
player is a step short of the target; a chance in the turn after it, one turn solved on the device against
those values, has at most their error.

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

from collections.abc import Sequence
from functools import lru_cache

from engine.advice.values import _level, _reach, bank_allowed
from engine.advice.win_format import TABLES_FILE, _Part, _parts
from engine.advice.win_pairs import WinTable, _lowest, _Solver
from engine.advice.win_turn import _moves, last_turn_chances
from engine.dice import MAX_DICE
from engine.errors import InvalidInput
from engine.rules import Rules
from engine.words import Words, say

__all__ = ["win_chance", "last_turn_chances", "WinTable", "solve_win_table", "win_table_ready", "prepare_win_chance",
           "supports_win_chance"]


def supports_win_chance(rules: Rules) -> Words | None:
    """Why the win chance cannot be solved under ``rules``, or None when it can."""
    if rules.steal:
        return say("stealing a farkle's dice is not solved for the win chance")
    if rules.progressive and rules.triple_farkle_penalty:
        return say("passing dice beside a three-farkle penalty is not solved for the win chance")
    if rules.triple_farkle_penalty and rules.lowest_total is None:
        return say("a three-farkle penalty with no lowest total is not solved for the win chance (totals have no end "
                   "below)")
    if rules.triple_farkle_penalty and rules.entry_threshold:
        return say("a three-farkle penalty with an entry threshold is not solved for the win chance (a total of 0 "
                   "or less may be on the board or not)")
    return None


ON_DEMAND_LEVELS = 10
"""Targets up to this many grid steps (500 points at 50) are solved when first asked (a
few seconds; half a minute on a busy machine: the turns past the target cost the most
there); larger ones only from a shipped table or :func:`solve_win_table` (minutes)."""

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
        raise InvalidInput(say("No win chance under these rules: {reason}.", reason=reason))


def _solver(rules: Rules) -> _Solver:
    _refuse_unsupported(rules)
    solver = _SOLVED.get(rules)
    if solver is not None:
        return solver
    shipped = _shipped(rules)
    solver = _Solver(rules)
    if shipped is not None:
        solver.start, solver.offers = list(shipped.start), shipped.offers
    elif _on_demand(rules):
        solver.solve()
    else:
        raise InvalidInput(say("The win chance to {target:,} under these rules has no shipped table and takes "
                               "minutes to solve: call solve_win_table first, or ship it with python "
                               "build/win_tables.py.", target=rules.target))
    _SOLVED[rules] = solver
    return solver


@lru_cache(maxsize=1)
def _shipped_tables() -> dict[Rules, _Part]:
    if not TABLES_FILE.exists():
        return {}
    return _parts(TABLES_FILE.read_bytes())


def _shipped(rules: Rules) -> WinTable | None:
    part = _shipped_tables().get(rules)
    return None if part is None else part.table()


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
            raise InvalidInput(say("An offer of {points:,} is taken at the start of a turn under progressive "
                                   "passing: not with {turn_points:,} in the turn and {dice} dice to throw.",
                                   points=points, turn_points=turn_points, dice=dice))
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
        over = not final_round or other >= levels
        raise InvalidInput(say("{score:,} has reached the target {target:,}: the game is over.", score=max(scores),
                               target=rules.target) if over else
                           say("{score:,} has reached the target {target:,}: the other player has the last turn.",
                               score=max(scores), target=rules.target))
    on_board = mine > zero or rules.entry_threshold == 0
    bankable = may_bank and bank_allowed(rules, turn_points, on_board)
    least = -(-(rules.minimum_bank if on_board else rules.entry_threshold) // step)
    if other >= levels and other - mine < least and turn < least:  # short of the minimum bank: reach it to lead
        return _reach(rules, least).chances[turn][dice]
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
        raise InvalidInput(say("{scores!r}: the win chance is for two players, give their two scores.", scores=scores))
    for value in scores:
        if isinstance(value, bool) or not isinstance(value, int) or value < lowest or value % step:
            raise InvalidInput(say("{value!r} is no banked score here: scores are {lowest:,} or more, in steps of "
                                   "{step}.", value=value, lowest=lowest, step=step))
    if to_move not in (0, 1) or isinstance(to_move, bool):
        raise InvalidInput(say("{to_move!r} is no seat: the player to move is 0 or 1.", to_move=to_move))
    return (scores[to_move] - lowest) // step, (scores[1 - to_move] - lowest) // step


def _streaks_of(rules: Rules, streaks: Sequence[int], to_move: int) -> tuple[int, int]:
    """The mover's and the other's farkle streak as the table tells them apart (none
    without a penalty)."""
    if isinstance(streaks, (str, bytes)) or not isinstance(streaks, Sequence) or len(streaks) != 2 or any(
            isinstance(value, bool) or not isinstance(value, int) or value < 0 for value in streaks):
        raise InvalidInput(say("{streaks!r}: give the two players' farkles in a row, each 0 or more.",
                               streaks=streaks))
    if not rules.triple_farkle_penalty:
        return 0, 0
    if max(streaks) > 2:
        raise InvalidInput(say("{streaks!r}: under a three-farkle penalty a streak is 0, 1 or 2 (a third farkle "
                               "starts it again).", streaks=streaks))
    return streaks[to_move], streaks[1 - to_move]
