"""Play advice off the tap path: the engine's tables solved for a rule set while taps go on.

A rule set's tables take about a second to solve in CPython (longer in the browser),
once; a screen asks :func:`prepare_advice` and shows the advice when it returns.
"""

from __future__ import annotations

import asyncio

from app.tournament_table import static_site
from engine import Rules, prepare, prepared

__all__ = ["prepare_advice"]


async def prepare_advice(rules: Rules) -> None:
    """Solve the advice tables for ``rules`` without holding up taps: in a worker thread on
    a host; in the browser, which has no threads, a slice at a time between other tasks."""
    if prepared(rules):
        return
    if static_site():
        for _ in prepare(rules):
            await asyncio.sleep(0)
        return
    await asyncio.to_thread(_solve, rules)


def _solve(rules: Rules) -> None:
    for _ in prepare(rules):
        pass
