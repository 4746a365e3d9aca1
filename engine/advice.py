"""Play advice: what a turn is worth, when to bank, and the chance to reach a total, exactly.

A turn is a Markov decision process over (turn total, dice to throw): throw, set aside
one of the throw's legal keeps, then bank or throw on. Its values are solved by
backward induction over the turn total, which only grows within a turn (the method of
Neller & Presser, "Optimal Play of the Dice Game Pig", UMAP Journal 2004, applied to
Farkle as in Busche & Neller, "Optimal Play of the Farkle Dice Game", Advances in
Computer Games 2017). Every throw's keeps come from :func:`engine.scoring_options`, so
the advice follows the table's own rules: the points of every combination, the entry
threshold (a player not on the board may bank only once the turn reaches it), hot dice
(six dice again, which must be thrown when the rules say so).

Tables are computed once per rule set and kept (a second or so in CPython).

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
from collections.abc import Sequence
from dataclasses import dataclass, replace
from functools import lru_cache
from itertools import combinations_with_replacement
from typing import Literal

from engine.dice import FACES, MAX_DICE, Dice
from engine.errors import IllegalAction, InvalidInput
from engine.game import Game, GameState, bank_refusal
from engine.rules import Rules
from engine.scoring import farkle_chance, scoring_options

__all__ = ["expected_turn", "bank_thresholds", "catch_up_chance", "roll_value", "keep_values", "keep_chances",
           "advise", "Advice", "KeepChoice", "costly_decisions", "CostlyDecision"]

Choices = tuple[tuple[int, int], ...]
"""A throw's keeps as (points, dice left), the most points for each number of dice left."""

_CEILING_TURNS = 4
"""Turn totals are solved up to this many targets (at least 40,000): far above any total
from which throwing on could pay, so banking there is exact, not a guess (checked in the
tests: every bank threshold lies well below it)."""


@dataclass(frozen=True)
class _Throws:
    """Every distinct outcome of throwing ``n`` dice, with its chance, for one rule set."""

    step: int
    """The largest number every score divides: turn totals move on this grid."""
    outcomes: tuple[tuple[tuple[float, Choices], ...], ...]
    """``outcomes[n]``: (chance, choices) for each distinct set of choices ``n`` dice can give."""


@lru_cache(maxsize=16)
def _throws(rules: Rules) -> _Throws:
    grouped: list[dict[Choices, float]] = [{} for _ in range(MAX_DICE + 1)]
    step = 0
    for n in range(1, MAX_DICE + 1):
        for roll in combinations_with_replacement(FACES, n):
            best: dict[int, int] = {}
            for option in scoring_options(roll, rules):
                step = math.gcd(step, option.points)
                best[option.dice_left] = max(best.get(option.dice_left, 0), option.points)
            if best:
                choices = tuple(sorted(best.items(), key=lambda item: (item[1], item[0])))
                keyed = tuple((points, left) for left, points in choices)
                grouped[n][keyed] = grouped[n].get(keyed, 0.0) + _arrangements(roll) / 6**n
    return _Throws(step, tuple(tuple((chance, choices) for choices, chance in group.items()) for group in grouped))


def _arrangements(dice: Dice) -> int:
    ways = math.factorial(len(dice))
    for count in Counter(dice).values():
        ways //= math.factorial(count)
    return ways


@dataclass(frozen=True)
class _TurnValues:
    """``roll[i][n]``: the expected bank of throwing ``n`` dice holding ``i`` grid steps,
    playing on for the most points; banking is allowed from ``entry`` steps on."""

    step: int
    entry: int
    must_roll_hot_dice: bool
    roll: list[tuple[float, ...]]
    """Filled from the top total down: a keep only ever adds points, so every value
    :meth:`choice` reads is already there."""

    def choice(self, level: int, left: int) -> float:
        """The best of banking and throwing on, just after a keep left ``left`` dice."""
        if level >= len(self.roll):
            return float(level * self.step)
        throw_on = self.roll[level][left or MAX_DICE]
        if left == 0 and self.must_roll_hot_dice:
            return throw_on
        return max(throw_on, float(level * self.step)) if level >= self.entry else throw_on


@lru_cache(maxsize=32)
def _turn_values(rules: Rules, on_board: bool) -> _TurnValues:
    throws = _throws(rules)
    step = throws.step
    top = max(_CEILING_TURNS * rules.target, 40_000) // step
    entry = 1 if on_board else max(1, -(-rules.entry_threshold // step))
    values = _TurnValues(step, entry, rules.must_roll_after_hot_dice, [()] * (top + 1))
    for level in range(top, -1, -1):
        row = [0.0] * (MAX_DICE + 1)
        for n in range(1, MAX_DICE + 1):
            row[n] = sum(chance * max(values.choice(level + points // step, left) for points, left in choices)
                         for chance, choices in throws.outcomes[n])
        values.roll[level] = tuple(row)
    return values


def _level(rules: Rules, turn_points: int, dice: int) -> int:
    if isinstance(dice, bool) or not isinstance(dice, int) or not 1 <= dice <= MAX_DICE:
        raise InvalidInput(f"{dice!r} dice: a throw is of 1 to {MAX_DICE} dice.")
    step = _throws(rules).step
    if isinstance(turn_points, bool) or not isinstance(turn_points, int) or turn_points < 0:
        raise InvalidInput(f"{turn_points!r} is not a turn total: give the points of this turn so far (0 or more).")
    if turn_points % step:
        raise InvalidInput(f"{turn_points:,} is no turn total under these rules: every score is a multiple of {step}.")
    return turn_points // step


def roll_value(rules: Rules, turn_points: int = 0, dice: int = MAX_DICE, on_board: bool = True) -> float:
    """The expected bank at the end of the turn if the player throws ``dice`` dice now,
    holding ``turn_points``, and plays on for the most points."""
    level = _level(rules, turn_points, dice)
    values = _turn_values(rules, on_board)
    if level >= len(values.roll):
        return _beyond_the_table(rules, turn_points, dice)
    return values.roll[level][dice]


def _beyond_the_table(rules: Rules, turn_points: int, dice: int) -> float:
    """Throwing once more, then banking: exact where the table ends, since there banking
    beats every further throw."""
    total = 0.0
    for chance, choices in _throws(rules).outcomes[dice]:
        total += chance * max(turn_points + points for points, _ in choices)
    return total


def expected_turn(rules: Rules, turn_points: int = 0, dice: int = MAX_DICE, on_board: bool = True) -> float:
    """The expected points banked by the end of the turn under expected-score-optimal play,
    holding ``turn_points`` with ``dice`` dice to throw.

    Banking is one of the choices when the rules allow it: a player not ``on_board`` may
    bank only once the turn reaches the entry threshold, and a turn total of 0 banks
    nothing.

    :raises InvalidInput: not 1 to 6 dice, or a turn total no throw can make.
    """
    throw_on = roll_value(rules, turn_points, dice, on_board)
    bankable = turn_points > 0 and (on_board or turn_points >= rules.entry_threshold)
    return max(throw_on, float(turn_points)) if bankable else throw_on


def bank_thresholds(rules: Rules, on_board: bool = True) -> dict[int, int]:
    """For 1 to 6 dice left, the smallest turn total from which banking maximises the
    expected score (at that total and at every higher one).

    With one die left a throw is worth more than with two: one in three scores, and that
    is hot dice (six dice again).

    >>> bank_thresholds(Rules.preset("house"))
    {1: 350, 2: 250, 3: 450, 4: 1050, 5: 3100, 6: 18200}
    """
    values = _turn_values(rules, on_board)
    lowest = values.entry
    thresholds: dict[int, int] = {}
    for dice in range(1, MAX_DICE + 1):
        level = len(values.roll) - 1
        while level - 1 >= lowest and values.roll[level - 1][dice] <= (level - 1) * values.step:
            level -= 1
        thresholds[dice] = level * values.step
    return thresholds


def keep_values(rules: Rules, turn_points: int, roll: Sequence[int], on_board: bool = True) -> tuple[float, ...]:
    """For each of :func:`engine.scoring_options` of ``roll`` (in that order), the expected
    bank of setting it aside with ``turn_points`` held before the throw, then playing on
    for the most points."""
    level = _level(rules, turn_points, len(roll) or 1)
    values = _turn_values(rules, on_board)
    step = values.step
    return tuple(values.choice(level + option.points // step, option.dice_left)
                 for option in scoring_options(tuple(roll), rules))


def catch_up_chance(rules: Rules, need: int, turn_points: int = 0, dice: int = MAX_DICE,
                    on_board: bool = True) -> float:
    """The highest chance that the turn ends with a bank of at least ``need`` points (the
    final round's question), holding ``turn_points`` with ``dice`` dice to throw.

    The strategy that reaches it never banks short of ``need`` (nothing less is any use)
    and, at every throw, sets aside the keep with the best chance from there; a player
    not on the board needs the entry threshold too.

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
    """``need`` in grid steps (the entry threshold too, off the board); a bank of nothing is no bank."""
    if isinstance(need, bool) or not isinstance(need, int):
        raise InvalidInput(f"{need!r} is not a number of points to reach.")
    needed = need if on_board else max(need, rules.entry_threshold)
    return max(1, -(-needed // _throws(rules).step))


# -- a live game ------------------------------------------------------------------------------

DICE_WORDS = ("no dice", "one die", "two dice", "three dice", "four dice", "five dice", "six dice")


@dataclass(frozen=True)
class KeepChoice:
    """One keep of the throw on the table and what it is worth: the expected bank (or, in
    the final round, the chance to take the lead) of throwing on after it, and of banking."""

    keep: Dice
    points: int
    dice_left: int
    throw_on: float
    bank: float | None
    """Banking right after this keep; None where the rules do not allow it then."""

    @property
    def value(self) -> float:
        return self.throw_on if self.bank is None else max(self.throw_on, self.bank)

    @property
    def banks(self) -> bool:
        """Banking after this keep is at least as good as throwing on."""
        return self.bank is not None and self.bank >= self.throw_on


@dataclass(frozen=True)
class Advice:
    """What the player to act should do, with the numbers behind it.

    ``goal`` is ``"points"`` (the most points on average) or, for a player's last turn
    in the final round, ``"lead"`` (the best chance to bank more than the leader's total:
    every value is then a chance from 0 to 1).
    """

    player: str
    goal: Literal["points", "lead"]
    action: Literal["keep", "bank", "throw", "build", "fresh"]
    turn_points: int
    dice: int
    """The dice the advised throw has (after the advised keep, for a keep)."""
    keeps: tuple[KeepChoice, ...] = ()
    """Every keep of the throw on the table, best first; empty outside the keep phase."""
    bank: float | None = None
    throw_on: float | None = None
    build: float | None = None
    """Building on the offer (the offer's points and dice), against ``fresh`` six dice."""
    fresh: float | None = None
    farkle_chance: float = 0.0
    """That a throw of ``dice`` dice scores nothing (the throw advised, or declined for a bank)."""
    need: int | None = None
    """In the final round: the points this turn must bank to lead."""

    @property
    def best_keep(self) -> KeepChoice | None:
        return self.keeps[0] if self.keeps else None

    def describe(self) -> str:
        """The advice in one line, with its numbers: ``Bank: 350 now; throwing two dice is
        worth 303 on average (44 % farkle).``"""
        if self.goal == "lead":
            return self._describe_lead()
        farkle = f"{self.farkle_chance:.0%} farkle".replace("%", " %")
        if self.action == "keep":
            best = self.keeps[0]
            then = "bank" if best.banks else f"throw {DICE_WORDS[best.dice_left or 6]}"
            line = f"Keep {_dice(best.keep)} and {then}: worth {best.value:,.0f} on average"
            others = [choice for choice in self.keeps[1:] if choice.keep != best.keep][:1]
            if others:
                line += f"; keeping {_dice(others[0].keep)} is worth {others[0].value:,.0f}"
            return line + "."
        if self.action == "bank":
            assert self.throw_on is not None
            return (f"Bank: {self.turn_points:,} now; throwing {DICE_WORDS[self.dice]} is worth "
                    f"{self.throw_on:,.0f} on average ({farkle}).")
        if self.action in ("build", "fresh"):
            assert self.build is not None and self.fresh is not None
            chosen, other = (("Build", "six fresh dice"), ("Throw six fresh dice", "building"))[self.action == "fresh"]
            first, second = (self.build, self.fresh) if self.action == "build" else (self.fresh, self.build)
            return f"{chosen}: worth {first:,.0f} on average; {other} is worth {second:,.0f}."
        assert self.throw_on is not None
        if self.bank is None:
            return f"Throw {DICE_WORDS[self.dice]}: worth {self.throw_on:,.0f} on average ({farkle})."
        return (f"Throw {DICE_WORDS[self.dice]}: worth {self.throw_on:,.0f} on average ({farkle}); "
                f"banking gives {self.bank:,.0f}.")

    def _describe_lead(self) -> str:
        chance = {"keep": self.keeps[0].value if self.keeps else 0.0, "bank": 1.0}.get(
            self.action, self.throw_on if self.action == "throw" else max(self.build or 0.0, self.fresh or 0.0))
        head = f"{self.player} needs {self.need:,} to lead: {chance:.0%}".replace("%", " %")
        if self.action == "keep":
            return f"{head} keeping {_dice(self.keeps[0].keep)}."
        if self.action == "bank":
            return f"{head}: bank now."
        if self.action in ("build", "fresh"):
            return f"{head} {'building on the offer' if self.action == 'build' else 'with six fresh dice'}."
        return f"{head} throwing {DICE_WORDS[self.dice]}."


def _dice(dice: Dice) -> str:
    return " ".join(map(str, dice))


def advise(game: Game | GameState) -> Advice:
    """The advice for the player to act in ``game``, under its rules: every keep of the
    throw on the table with the value of throwing on and of banking after it; bank or
    throw on; build on a progressive offer or throw six fresh dice; the chance the
    advised throw farkles; in the player's last turn of the final round, the play with
    the best chance to take the lead instead of the most points.

    :raises IllegalAction: the game is over, or waits for a roll-off.
    """
    state = game.state if isinstance(game, Game) else game
    phase = state.phase
    if phase in ("over", "roll_off"):
        raise IllegalAction("There is no throw to advise on: "
                            + ("the game is over." if phase == "over" else "the tie for the win is thrown off."))
    rules, seat = state.rules, state.current
    on_board = state.on_board[seat]
    need = None
    if state.final_round and seat in state.last_turns:
        need = max(state.scores) - state.scores[seat] + _throws(rules).step
    base = Advice(state.name(seat), "lead" if need is not None else "points", "throw", state.turn_points,
                  state.dice_to_throw or MAX_DICE, need=need)
    if phase == "keep":
        return _advise_keep(state, need, on_board, base)
    if phase == "throw" and state.offer is not None and not state.building:
        offer = state.offer
        if need is None:
            build, fresh = roll_value(rules, offer.points, offer.dice, on_board), roll_value(rules, 0, 6, on_board)
        else:
            build = catch_up_chance(rules, need, offer.points, offer.dice, on_board)
            fresh = catch_up_chance(rules, need, 0, 6, on_board)
        builds = build > fresh
        dice = offer.dice if builds else MAX_DICE
        return replace(base, action="build" if builds else "fresh", dice=dice, build=build, fresh=fresh,
                       farkle_chance=float(farkle_chance(dice, rules)))
    dice = state.dice_to_throw or MAX_DICE
    points = state.turn_points
    refusal = bank_refusal(state) if phase == "choose" else "nothing to bank"
    if need is None:
        throw_on = roll_value(rules, points, dice, on_board)
        bank = float(points) if refusal is None else None
    else:
        throw_on = catch_up_chance(rules, need, points, dice, on_board) if points < need or refusal else 1.0
        bank = (1.0 if points >= need else 0.0) if refusal is None else None
    banks = bank is not None and bank >= throw_on
    return replace(base, action="bank" if banks else "throw", dice=dice, bank=bank, throw_on=throw_on,
                   farkle_chance=float(farkle_chance(dice, rules)))


def _advise_keep(state: GameState, need: int | None, on_board: bool, base: Advice) -> Advice:
    rules = state.rules
    throw = state.last_throw or ()
    held = state.turn_points
    options = scoring_options(throw, rules)
    if need is None:
        throw_on = keep_values(rules, held, throw, on_board)
    else:
        throw_on = keep_chances(rules, need, held, throw, on_board)
    choices = []
    for option, value in zip(options, throw_on):
        total = held + option.points
        bankable = (not (option.hot_dice and rules.must_roll_after_hot_dice)
                    and (on_board or total >= rules.entry_threshold))
        bank: float | None = None
        if bankable:
            bank = float(total) if need is None else (1.0 if total >= need else 0.0)
        throws_on = value if need is not None else _throw_on_after(rules, total, option.dice_left, on_board)
        choices.append(KeepChoice(option.keep, option.points, option.dice_left, throws_on, bank))
    choices.sort(key=lambda choice: (-choice.value, -choice.points, -choice.dice_left))
    best = choices[0]
    dice = best.dice_left or MAX_DICE
    return replace(base, action="keep", dice=dice, keeps=tuple(choices),
                   farkle_chance=float(farkle_chance(dice, rules)))


def _throw_on_after(rules: Rules, total: int, left: int, on_board: bool) -> float:
    """The expected bank of throwing on (never banking first) after a keep."""
    return roll_value(rules, total, left or MAX_DICE, on_board)


# -- after the game ---------------------------------------------------------------------------


@dataclass(frozen=True)
class CostlyDecision:
    """A decision that gave away points on average against the most-points play."""

    seat: int
    turn: int
    """The game's turn number (from 1) it was taken in."""
    taken: str
    better: str
    cost: float

    def describe(self) -> str:
        return f"Turn {self.turn}: {self.taken}; {self.better} (+{self.cost:,.0f} on average)."


def costly_decisions(game: Game, per_player: int = 3, at_least: float = 10.0) -> dict[int, tuple[CostlyDecision, ...]]:
    """For each seat, the decisions of the game that cost most against expected-score
    play (at most ``per_player``, each costing at least ``at_least`` points on average),
    costliest first. A last turn of the final round plays for the lead, not for points,
    so its decisions are not judged here."""
    events = game.events
    replay = Game.from_events(events[:1])
    found: list[CostlyDecision] = []
    for event in events[1:]:
        state = replay.state
        if state.phase not in ("over", "roll_off") and event.get("type") in ("kept", "banked", "rolled", "built"):
            found += _judge(state, event, len(state.history) + 1)
        replay.redo(event)
    by_seat: dict[int, tuple[CostlyDecision, ...]] = {}
    for seat in range(len(game.players)):
        mine = sorted((d for d in found if d.seat == seat and d.cost >= at_least), key=lambda d: -d.cost)
        by_seat[seat] = tuple(mine[:per_player])
    return by_seat


def _judge(state: GameState, event: dict[str, object], turn: int) -> list[CostlyDecision]:
    advice = advise(state)
    if advice.goal != "points":
        return []
    seat, kind = state.current, event.get("type")
    if advice.action == "keep" and kind == "kept":
        kept = tuple(sorted(event.get("dice") or ()))  # type: ignore[call-overload]
        chosen = next((c for c in advice.keeps if tuple(sorted(c.keep)) == kept), None)
        best = advice.keeps[0]
        if chosen is None or chosen.value >= best.value:
            return []
        return [CostlyDecision(seat, turn, f"kept {_dice(chosen.keep)} ({chosen.points:,})",
                               f"keeping {_dice(best.keep)} was worth {best.value:,.0f}", best.value - chosen.value)]
    if advice.bank is not None and advice.throw_on is not None and state.phase == "choose":
        dice = DICE_WORDS[advice.dice]
        if kind == "banked" and advice.throw_on > advice.bank:
            return [CostlyDecision(seat, turn, f"banked {state.turn_points:,} with {dice} left",
                                   f"throwing on was worth {advice.throw_on:,.0f}", advice.throw_on - advice.bank)]
        if kind == "rolled" and advice.bank > advice.throw_on:
            return [CostlyDecision(seat, turn, f"threw {dice} holding {state.turn_points:,}",
                                   f"banking was worth {advice.bank:,.0f}", advice.bank - advice.throw_on)]
    if advice.build is not None and advice.fresh is not None:
        if kind == "built" and advice.fresh > advice.build:
            return [CostlyDecision(seat, turn, "built on the offer",
                                   f"six fresh dice were worth {advice.fresh:,.0f}", advice.fresh - advice.build)]
        if kind == "rolled" and advice.build > advice.fresh:
            return [CostlyDecision(seat, turn, "threw six fresh dice",
                                   f"building on the offer was worth {advice.build:,.0f}", advice.build - advice.fresh)]
    return []
