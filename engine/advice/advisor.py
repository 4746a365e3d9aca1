"""Advice for the player to act: every keep valued, bank or throw on, build or six fresh dice.

The numbers are :mod:`engine.advice.values`'s: the most points on average (under a
three-farkle penalty, over the long run, the player's farkle streak counted), or, for a
player's last turn in the final round, the best chance to bank more than the leader.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Literal

from engine.advice.values import (bank_allowed, catch_up_chance, keep_chances, keep_values, roll_value, step_of,
                                  third_farkle_cost)
from engine.advice.win import win_chance, win_table_ready
from engine.dice import MAX_DICE, Dice, format_dice
from engine.errors import IllegalAction
from engine.game import Game, GameState, bank_refusal
from engine.rules import Rules
from engine.scoring import farkle_chance, scoring_options
from engine.words import Words, say

__all__ = ["Advice", "KeepChoice", "advise", "turn_advice", "throw_advice", "DICE_WORDS", "percent"]

DICE_WORDS = (say("no dice"), say("one die"), say("two dice"), say("three dice"), say("four dice"), say("five dice"),
              say("six dice"))


def percent(chance: float) -> Words:
    """A chance in whole percents, as the advice writes it: ``44 %``."""
    return say("{percent:.0f} %", percent=chance * 100)


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
    """That a throw of ``dice`` dice scores nothing (the throw advised, or the one a bank declines)."""
    need: int | None = None
    """In the final round: the points this turn must bank to lead."""
    win_chance: float | None = None
    """In a game of two with a win table ready (:func:`engine.advice.win.win_table_ready`):
    the chance the player to act wins, both playing to win from here."""
    penalty: int = 0
    """What a farkle now would also cost: the three-farkle penalty (or what the total has of
    it) on the player's second farkle in a row; 0 otherwise. The values count it."""

    @property
    def best_keep(self) -> KeepChoice | None:
        return self.keeps[0] if self.keeps else None

    @property
    def value(self) -> float:
        """What the advised play is worth: the expected bank, or, playing for the lead, its chance."""
        if self.action == "keep":
            return self.keeps[0].value
        if self.action in ("build", "fresh"):
            return max(self.build or 0.0, self.fresh or 0.0)
        return max(self.throw_on or 0.0, self.bank or 0.0)

    def describe(self) -> Words:
        """The advice in one line, with its numbers: ``Bank: 350 now; throwing two dice is
        worth 303 on average (44 % farkle).``, and the win chance where there is one."""
        if self.goal == "lead":
            return self._describe_lead()
        line = self._describe_points()
        if self.win_chance is None:
            return line
        return say("{advice} {player} wins {chance} of the time.", advice=line,
                   player=self.player or say("The player to act"), chance=percent(self.win_chance))

    def _describe_points(self) -> Words:
        farkle = say("{chance} farkle", chance=percent(self.farkle_chance))
        risk = say("a third farkle would also cost {penalty:,}; ", penalty=self.penalty) if self.penalty else ""
        counted = say(", a third farkle's {penalty:,} counted", penalty=self.penalty) if self.penalty else ""
        if self.action == "keep":
            best = self.keeps[0]
            line = say("Keep {keep} and bank: {risk}worth {value:,.0f} on average", keep=format_dice(best.keep),
                       risk=risk, value=best.value) if best.banks else \
                say("Keep {keep} and throw {dice}: worth {value:,.0f} on average{counted}", keep=format_dice(best.keep),
                    dice=DICE_WORDS[best.dice_left or 6], value=best.value, counted=counted)
            others = [choice for choice in self.keeps[1:] if choice.keep != best.keep][:1]
            if others:
                return say("{advice}; keeping {keep} is worth {value:,.0f}.", advice=line,
                           keep=format_dice(others[0].keep), value=others[0].value)
            return say("{advice}.", advice=line)
        if self.action == "bank":
            assert self.throw_on is not None
            return say("Bank: {risk}{points:,} now; throwing {dice} is worth {value:,.0f} on average{counted} "
                       "({farkle}).", risk=risk, points=self.turn_points, dice=DICE_WORDS[self.dice],
                       value=self.throw_on, counted=counted, farkle=farkle)
        if self.action in ("build", "fresh"):
            assert self.build is not None and self.fresh is not None
            if self.action == "build":
                return say("Build: worth {value:,.0f} on average{counted}; six fresh dice is worth {other:,.0f}.",
                           value=self.build, counted=counted, other=self.fresh)
            return say("Throw six fresh dice: worth {value:,.0f} on average{counted}; building is worth {other:,.0f}.",
                       value=self.fresh, counted=counted, other=self.build)
        assert self.throw_on is not None
        if self.bank is None:
            return say("Throw {dice}: worth {value:,.0f} on average{counted} ({farkle}).", dice=DICE_WORDS[self.dice],
                       value=self.throw_on, counted=counted, farkle=farkle)
        return say("Throw {dice}: worth {value:,.0f} on average{counted} ({farkle}); banking gives {bank:,.0f}.",
                   dice=DICE_WORDS[self.dice], value=self.throw_on, counted=counted, farkle=farkle, bank=self.bank)

    def _describe_lead(self) -> Words:
        head = say("{player} needs {need:,} to lead: {chance}", player=self.player, need=self.need,
                   chance=percent(self.value))
        if self.action == "keep":
            return say("{head} keeping {keep}.", head=head, keep=format_dice(self.keeps[0].keep))
        if self.action == "bank":
            return say("{head}: bank now.", head=head)
        if self.action == "build":
            return say("{head} building on the offer.", head=head)
        if self.action == "fresh":
            return say("{head} with six fresh dice.", head=head)
        return say("{head} throwing {dice}.", head=head, dice=DICE_WORDS[self.dice])


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
        raise IllegalAction(say("There is no throw to advise on: the game is over.") if phase == "over" else
                            say("There is no throw to advise on: the tie for the win is thrown off."))
    advice = _advise(state)
    return dataclasses.replace(advice, win_chance=_win_chance(state, advice))


def _win_chance(state: GameState, advice: Advice) -> float | None:
    """The chance the player to act wins a game of two with the best play from here, both
    playing to win, under the rules' end rule (None with more players or no table ready
    for the rules): with an offer passed, built on or not, whichever is better; in the last
    turn, the chance to bank more than the leader with a tie counted as half (a roll-off
    at even odds)."""
    if len(state.scores) != 2 or not win_table_ready(state.rules):
        return None
    seat, streaks = state.current, state.farkle_streak
    offer = state.open_offer
    if offer is not None:
        return win_chance(state.rules, state.scores, seat, streaks=streaks, offer=(offer.points, offer.dice))
    if advice.action == "keep":
        return max(win_chance(state.rules, state.scores, seat, advice.turn_points + choice.points,
                              choice.dice_left or MAX_DICE, streaks) for choice in advice.keeps)
    return win_chance(state.rules, state.scores, seat, state.turn_points, advice.dice, streaks,
                      may_bank=bank_refusal(state) is None)


def _advise(state: GameState) -> Advice:
    phase = state.phase
    rules, seat = state.rules, state.current
    on_board = state.on_board[seat]
    need = None
    if state.final_round and seat in state.last_turns:
        need = max(state.scores) - state.scores[seat] + step_of(rules)
    player = state.name(seat)
    streak, total = state.farkle_streak[seat], state.scores[seat]
    if phase == "keep":
        return throw_advice(rules, state.turn_points, state.last_throw or (), on_board, player=player, need=need,
                            streak=streak, total=total)
    offer = state.open_offer
    if offer is not None:
        return _offer_advice(rules, offer.points, offer.dice, on_board, player, need, streak, total)
    bankable = phase == "choose" and bank_refusal(state) is None
    return turn_advice(rules, state.turn_points, state.dice_to_throw or MAX_DICE, on_board,
                       player=player, need=need, may_bank=bankable, streak=streak, total=total)


def turn_advice(rules: Rules, turn_points: int, dice: int, on_board: bool = True, *, player: str = "",
                need: int | None = None, may_bank: bool | None = None, streak: int = 0,
                total: int | None = None) -> Advice:
    """Bank or throw on, holding ``turn_points`` with ``dice`` dice to throw (the lookup's
    "Roll or bank?"). ``may_bank`` defaults to what the rules allow at that total; with
    ``need``, the play is for the best chance to bank at least that much. Under a
    three-farkle penalty, the player is on ``streak`` farkles in a row (0 to 2) with
    ``total`` (None: a total the whole penalty comes out of).

    :raises InvalidInput: not 1 to 6 dice, a total no throw can make, or not 0 to 2 farkles in a row.
    """
    penalty = third_farkle_cost(rules, streak, total, on_board)
    if need is None:  # the values first: they check what was asked before it is compared
        throw_on = roll_value(rules, turn_points, dice, on_board, streak=streak, total=total)
    else:
        chance = catch_up_chance(rules, need, turn_points, dice, on_board)
        throw_on = chance if turn_points < need else 1.0
    if may_bank is None:
        may_bank = bank_allowed(rules, turn_points, on_board)
    bank: float | None = None
    if may_bank:
        bank = float(turn_points) if need is None else float(turn_points >= need)
    banks = bank is not None and bank >= throw_on
    return Advice(player, "points" if need is None else "lead", "bank" if banks else "throw", turn_points, dice,
                  bank=bank, throw_on=throw_on, farkle_chance=float(farkle_chance(dice, rules)), need=need,
                  penalty=penalty if need is None else 0)


def throw_advice(rules: Rules, turn_points: int, roll: Dice, on_board: bool = True, *, player: str = "",
                 need: int | None = None, streak: int = 0, total: int | None = None) -> Advice:
    """Which keep of ``roll`` (thrown holding ``turn_points``) is best, each keep valued
    with throwing on and with banking after it (under a penalty, on ``streak`` farkles in a
    row with ``total``, as :func:`turn_advice`).

    :raises InvalidInput: a throw of no dice or of more than six, a total no throw can make,
        or not 0 to 2 farkles in a row.
    :raises IllegalAction: nothing in ``roll`` scores (a farkle has no keep).
    """
    options = scoring_options(roll, rules)
    if not options:
        raise IllegalAction(say("{dice} is a farkle: nothing can be set aside.", dice=format_dice(roll)))
    penalty = third_farkle_cost(rules, streak, total, on_board)
    if need is None:
        values = keep_values(rules, turn_points, roll, on_board, streak=streak, total=total)
    else:
        values = keep_chances(rules, need, turn_points, roll, on_board)
    choices = []
    for option, value in zip(options, values):
        held = turn_points + option.points
        bankable = (not (option.hot_dice and rules.must_roll_after_hot_dice)
                    and bank_allowed(rules, held, on_board))
        bank: float | None = None
        if bankable:
            bank = float(held) if need is None else (1.0 if held >= need else 0.0)
        if need is None:
            value = roll_value(rules, held, option.dice_left or MAX_DICE, on_board, streak=streak, total=total)
        choices.append(KeepChoice(option.keep, option.points, option.dice_left, value, bank))
    choices.sort(key=lambda choice: (-choice.value, -choice.points, -choice.dice_left))
    dice = choices[0].dice_left or MAX_DICE
    return Advice(player, "points" if need is None else "lead", "keep", turn_points, dice, keeps=tuple(choices),
                  farkle_chance=float(farkle_chance(dice, rules)), need=need, penalty=penalty if need is None else 0)


def _offer_advice(rules: Rules, points: int, dice: int, on_board: bool, player: str, need: int | None,
                  streak: int, total: int) -> Advice:
    """Build on a progressive offer (its points and dice), or throw six fresh dice."""
    if need is None:
        build = roll_value(rules, points, dice, on_board, streak=streak, total=total)
        fresh = roll_value(rules, 0, MAX_DICE, on_board, streak=streak, total=total)
    else:
        build = catch_up_chance(rules, need, points, dice, on_board)
        fresh = catch_up_chance(rules, need, 0, MAX_DICE, on_board)
    builds = build > fresh
    thrown = dice if builds else MAX_DICE
    return Advice(player, "points" if need is None else "lead", "build" if builds else "fresh", 0, thrown,
                  build=build, fresh=fresh, farkle_chance=float(farkle_chance(thrown, rules)), need=need,
                  penalty=third_farkle_cost(rules, streak, total, on_board) if need is None else 0)
