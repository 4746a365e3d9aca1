"""What building on a progressive offer is worth, as shipped: a coarse table of the exact values.

With passing, a bank's value is the other player's chance at the start of their turn with
the offer, the better of six fresh dice and building (throwing the dice passed at the
offer's points, :meth:`engine.advice.win_pairs._Solver.built`). Exactly that is a value
per (builder's total, other's total, offer's points, dice passed): 48 million to 10,000,
too many to ship (25 MB packed; the budget for every table is 2 MB). So the shipped table
keeps them on a coarser grid, in coordinates where they change smoothly: the builder's
total with the offer counted (``totals``: a target is reached along it), the builder's
lead (``leads``: in the final round the offer passed back puts the other player that far
short) and the offer's points; every step of the first near the target and of the second
near a tie, where the values change fastest. Between grid points they are read linearly.
The error against the exact values is measured where the table is written
(``python build/win_tables.py`` prints it) and stated in the README.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Sequence
from dataclasses import dataclass

from engine.dice import MAX_DICE

__all__ = ["OfferTable", "offer_grids"]

SCALE = 4095
"""An offer's value is shipped as round(value x SCALE): to 1/8,190, well within the
grid's own error, and a third smaller packed than two full bytes."""
TOTALS_PER_STEP = 50
"""A target's steps per grid step of the totals (4 steps, 200 points, to 10,000; 2 to
4,000); the other axes' grid steps are multiples of it."""
PAST_STEPS = 4
"""Past the target, where any score reaches it and the values change slowly."""
LEAD_STEPS = 2
POINTS_STEPS = 2.5
DENSE_TOTALS = 16
"""Every total this near the target (below and above) is on the grid."""
DENSE_LEADS = 10
"""Every lead this near a tie is on the grid."""


def offer_grids(levels: int) -> tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]:
    """The grid (in grid steps) of totals with the offer (up to twice the target), leads
    and offers' points for a target ``levels`` steps above the lowest total: as fine for
    every target, relative to it."""
    total = -(-levels // TOTALS_PER_STEP)
    past, lead, point = (int(total * times) for times in (PAST_STEPS, LEAD_STEPS, POINTS_STEPS))
    totals = (set(range(0, levels, total)) | set(range(max(0, levels - DENSE_TOTALS), levels + DENSE_TOTALS))
              | set(range(levels, 2 * levels - 1, past)) | {2 * levels - 2})
    leads = set(range(1 - levels, levels, lead)) | set(range(-DENSE_LEADS, DENSE_LEADS + 1)) | {levels - 1}
    points = set(range(0, levels, point)) | {1, levels - 1}
    return (tuple(sorted(totals)), tuple(sorted(lead for lead in leads if abs(lead) < levels)),
            tuple(sorted(points)))


@dataclass(frozen=True)
class OfferTable:
    """Building's value at every grid point, ``values[((t * len(leads) + l) * len(points) + p)
    * 6 + n - 1]`` for ``totals[t]``, ``leads[l]``, ``points[p]`` and ``n`` dice."""

    totals: tuple[int, ...]
    leads: tuple[int, ...]
    points: tuple[int, ...]
    values: tuple[float, ...]

    def built(self, mine: int, other: int, points: int, dice: int) -> float:
        """Building on ``points`` steps and ``dice`` dice at totals ``mine`` and ``other``
        (grid steps above the lowest), read linearly between the grid's points."""
        corners = [(_bracket(self.totals, mine + points)), _bracket(self.leads, mine - other),
                   _bracket(self.points, points)]
        value = 0.0
        for total, total_weight in corners[0]:
            for lead, lead_weight in corners[1]:
                for point, point_weight in corners[2]:
                    at = ((total * len(self.leads) + lead) * len(self.points) + point) * MAX_DICE + dice - 1
                    value += total_weight * lead_weight * point_weight * self.values[at]
        return value


def _bracket(grid: Sequence[int], value: int) -> tuple[tuple[int, float], ...]:
    """The grid points on either side of ``value`` with their weights (one, at a grid point
    or past either end)."""
    right = bisect_left(grid, value)
    if right < len(grid) and grid[right] == value or right == len(grid) or right == 0:
        return ((min(right, len(grid) - 1), 1.0),)
    left = right - 1
    share = (value - grid[left]) / (grid[right] - grid[left])
    return (left, 1.0 - share), (right, share)
