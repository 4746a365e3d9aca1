"""Play advice off the tap path: the engine's tables solved, and a game's decisions judged,
while taps go on.

A rule set's tables take about a second to solve in CPython (longer in the browser),
once; a screen asks :func:`prepare_advice` and shows the advice when it returns.
"""

from __future__ import annotations

import asyncio

from app.runtime import in_browser
from engine import (CostlyTurn, Game, GameState, Rules, WinChances, costliest, judge_decisions, prepare,
                    prepare_win_chance, prepared, win_chances, win_table_ready, work_out_win_chances)

__all__ = ["prepare_advice", "review_decisions", "work_out_chances"]

JUDGED_PER_SLICE = 20
"""Events judged between two looks at other tasks in the browser (a few milliseconds)."""


async def prepare_advice(rules: Rules) -> None:
    """Solve the advice tables for ``rules`` without holding up taps: in a worker thread on
    a host; in the browser, which has no threads, a slice at a time between other tasks.
    The win chance's table is read where it is shipped (and, on a host, solved for a small
    target), so advice in a game of two can say it.

    :raises InvalidInput: the rules' tables are too large to work out here (an absurd target).
    """
    if in_browser():
        if not prepared(rules):
            for _ in prepare(rules):
                await asyncio.sleep(0)
        if win_table_ready(rules):
            prepare_win_chance(rules)
        return
    if not (prepared(rules) and win_table_ready(rules)):
        await asyncio.to_thread(_solve, rules)


def _solve(rules: Rules) -> None:
    prepare_win_chance(rules)
    for _ in prepare(rules):
        pass


async def review_decisions(game: Game) -> dict[int, tuple[CostlyTurn, ...]]:
    """Each seat's costliest turns of ``game`` (:func:`engine.costly_decisions`), judged
    off the tap path as :func:`prepare_advice` solves its tables."""
    await prepare_advice(game.rules)
    if not in_browser():
        return await asyncio.to_thread(_review, game)
    found = []
    for count, decision in enumerate(judge_decisions(game)):
        if decision is not None:
            found.append(decision)
        if count % JUDGED_PER_SLICE == 0:
            await asyncio.sleep(0)
    return costliest(found, len(game.players))


def _review(game: Game) -> dict[int, tuple[CostlyTurn, ...]]:
    return costliest((d for d in judge_decisions(game) if d is not None), len(game.players))


async def work_out_chances(state: GameState) -> WinChances:
    """Each player's chance to win (:func:`engine.win_chances`: the engine picks the method)
    without holding up taps: in a worker thread on a host, a slice of games at a time in
    the browser. Needs the advice tables of the state's rules (:func:`prepare_advice`)."""
    if not in_browser():
        return await asyncio.to_thread(win_chances, state)
    work = work_out_win_chances(state)
    while True:
        try:
            next(work)
        except StopIteration as done:
            chances: WinChances = done.value
            return chances
        await asyncio.sleep(0)

