"""Play advice: what to keep, throw or bank, computed exactly under a table's own rules.

``values`` solves what a turn is worth (and the chance to reach a total) for a rule set,
``win`` the chance to win a game of two (solved by ``win_pairs`` a pair of totals at a
time with ``win_turn``'s arithmetic of one turn, shipped in ``win_format``'s file with
``win_offers``' coarser table of offers under passing; ``win_tables`` names the shipped
rule sets), ``simulation`` each player's chance to win for any rules and two to eight
players, ``advisor`` turns them into advice for the player to act, ``review`` finds each
player's costliest decisions once the game is over.
"""

from engine.advice.advisor import DICE_WORDS, Advice, KeepChoice, advise, throw_advice, turn_advice
from engine.advice.review import CostlyDecision, CostlyTurn, costliest, costly_decisions, judge_decisions
from engine.advice.win import prepare_win_chance, solve_win_table, win_chance, win_table_ready
from engine.advice.simulation import WinChances, win_chances, work_out_win_chances
from engine.advice.values import (
    bank_thresholds,
    catch_up_chance,
    expected_turn,
    keep_chances,
    keep_values,
    prepare,
    prepared,
    roll_value,
    step_of,
)

__all__ = ["expected_turn", "bank_thresholds", "catch_up_chance", "roll_value", "keep_values", "keep_chances",
           "prepare", "prepared", "step_of", "Advice", "KeepChoice", "advise", "turn_advice", "throw_advice", "DICE_WORDS",
           "CostlyDecision", "CostlyTurn", "costly_decisions", "judge_decisions", "costliest", "win_chance",
           "win_table_ready", "prepare_win_chance", "solve_win_table", "WinChances", "win_chances", "work_out_win_chances"]
