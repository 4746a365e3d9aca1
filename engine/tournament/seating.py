"""The seat draw: random, reproducible from its seed, and spreading recent tablemates.

The organizer's device draws the seats and records the seed with the tables; anyone can
re-run the draw from the seed and the players to see it was not arranged. Players who
shared a table in the round before are spread over different tables where the numbers
allow it; the clashes left (each pair of former tablemates at one table) are recorded.

Everything random comes from ``random.Random(seed)`` in a fixed order, so a draw that
was recorded once is drawn the same by any later version: change this module only in
ways that keep every recorded draw (``tests/engine/test_engine_compat.py`` checks the old ones).

>>> draw_tables([1, 2, 3, 4, 5, 6], (3, 3), seed=1, before=[(1, 2, 3), (4, 5, 6)])
(((3, 6, 2), (1, 4, 5)), 2)
>>> draw_tables([1, 2, 3, 4, 5, 6], (3, 3), seed=1) == draw_tables([1, 2, 3, 4, 5, 6], (3, 3), seed=1)
True
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable, Sequence

__all__ = ["Tables", "draw_tables"]

Tables = tuple[tuple[int, ...], ...]
"""Player numbers at each table (table 1 first), in seat order."""


def draw_tables(
    players: Sequence[int], sizes: Sequence[int], seed: int, before: Iterable[Sequence[int]] = ()
) -> tuple[Tables, int]:
    """Seat ``players`` (in number order) at tables of ``sizes``: (tables, clashes).

    ``before``: the tables of the round before, whose players are kept apart; empty for
    the first round or a round that does not spread them.
    """
    rng = random.Random(seed)
    order = list(players)
    rng.shuffle(order)
    previous = {n: index for index, table in enumerate(before) for n in table}

    def group_of(number: int) -> int:
        """The table a player sat at before; a group of their own if none."""
        return previous.get(number, -1 - number)

    groups: dict[int, list[int]] = {}
    for number in order:
        groups.setdefault(group_of(number), []).append(number)
    biggest_first = [n for group in sorted(groups.values(), key=len, reverse=True) for n in group]
    tables: list[list[int]] = [[] for _ in sizes]
    met: list[Counter[int]] = [Counter() for _ in sizes]
    ties = list(range(len(sizes)))
    rng.shuffle(ties)
    clashes = 0
    for number in biggest_first:
        group = group_of(number)
        best = min(
            (index for index in range(len(sizes)) if len(tables[index]) < sizes[index]),
            key=lambda index: (met[index][group], len(tables[index]) * 12 // sizes[index], ties[index]),
        )
        clashes += met[best][group]
        tables[best].append(number)
        met[best][group] += 1
    for table in tables:
        rng.shuffle(table)
    return tuple(tuple(table) for table in tables), clashes
