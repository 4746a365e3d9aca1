"""Who is ahead: totals first, then the roll-offs thrown to settle equal totals.

One ordering serves a game (seats at the end of play), a table's result (the places a
result code carries) and a tournament's standings and cuts (player numbers), so a place
means the same thing on the table's device and on the organizer's.

A roll-off round is a die face for each player of one block of equal totals; it splits
that block by face, highest first, and equal faces stay tied for the next round.
Players still tied share a place, and the next place is skipped (1, 1, 3).

>>> totals = {1: 500, 2: 900, 3: 900, 4: 100}
>>> rank_blocks(totals, [])
[[2, 3], [1], [4]]
>>> rank_blocks(totals, [[(2, 3), (3, 5)]])
[[3], [2], [1], [4]]
>>> places_from((900, 900, 100), [])
(1, 1, 3)
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from engine.errors import InvalidInput
from engine.words import say

__all__ = ["RollOff", "rank_blocks", "places_in", "places_from", "ranked_seats"]

RollOff = Iterable[tuple[int, int]]
"""One roll-off round: (player or seat, die face) for each of the players still tied."""


def rank_blocks(totals: Mapping[int, int], roll_offs: Iterable[RollOff]) -> list[list[int]]:
    """Players best first, in blocks still tied; each block in key order (seat or number).

    Raises :class:`InvalidInput` for a roll-off not thrown by exactly one block of tied
    players.
    """
    by_total: dict[int, list[int]] = {}
    for key, total in totals.items():
        by_total.setdefault(total, []).append(key)
    blocks = [sorted(by_total[total]) for total in sorted(by_total, reverse=True)]
    for round_ in roll_offs:
        faces = dict(round_)
        at = next((index for index, block in enumerate(blocks) if set(block) == set(faces)), None)
        if at is None or len(blocks[at]) < 2:
            raise InvalidInput(
                say("A roll-off among {faces} does not match any group of tied players: each roll-off is thrown "
                    "by all the players still tied, and only them.", faces=sorted(faces))
            )
        by_face: dict[int, list[int]] = {}
        for key in blocks[at]:
            by_face.setdefault(faces[key], []).append(key)
        blocks[at : at + 1] = [by_face[face] for face in sorted(by_face, reverse=True)]
    return blocks


def places_in(blocks: Iterable[Sequence[int]]) -> dict[int, int]:
    """Each player's place from :func:`rank_blocks`: a tied block shares the place of its first.

    >>> places_in([[3], [1, 2], [4]])
    {3: 1, 1: 2, 2: 2, 4: 4}
    """
    places: dict[int, int] = {}
    done = 0
    for block in blocks:
        for key in block:
            places[key] = done + 1
        done += len(block)
    return places


def places_from(totals: Sequence[int], roll_offs: Iterable[RollOff]) -> tuple[int, ...]:
    """Each seat's place from the totals in seat order and roll-offs among seats (from 0)."""
    places = places_in(rank_blocks(dict(enumerate(totals)), roll_offs))
    return tuple(places[seat] for seat in range(len(totals)))


def ranked_seats(totals: Sequence[int], roll_offs: Iterable[RollOff]) -> tuple[int, ...]:
    """Seats best first; seats still tied keep seat order.

    >>> ranked_seats((2100, 2100, 2100), [[(0, 5), (1, 5), (2, 2)], [(0, 3), (1, 6)]])
    (1, 0, 2)
    """
    return tuple(seat for block in rank_blocks(dict(enumerate(totals)), roll_offs) for seat in block)
