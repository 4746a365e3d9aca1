"""Write the shipped win-chance tables: ``python build/win_tables.py``.

Solves every rule set of :data:`engine.advice.win_tables.SHIPPED` in compiled code
(:mod:`win_solver`) and writes them to :data:`engine.advice.win_format.TABLES_FILE`, which the
app and the PWA read instead of solving. ``--only NAME`` re-solves one table and keeps the
others as shipped; ``--busche-neller TARGET`` prints the fairest head start for the second
player under Busche & Neller's simplest scoring instead.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import numpy as np  # noqa: E402
import numpy.typing as npt  # noqa: E402

from engine.advice.win import WinTable  # noqa: E402
from engine.advice.win_format import TABLES_FILE, read_tables, write_tables  # noqa: E402
from engine.advice.win_offers import SCALE, OfferTable, offer_grids  # noqa: E402
from engine.advice.win_tables import SHIPPED, busche_neller_rules, fairest_compensation  # noqa: E402
from win_solver import Solved, solve  # noqa: E402

__all__ = ["main", "offer_table", "offer_errors"]


def solved(name: str, rules_index: int) -> WinTable:
    """One shipped rule set's table, with what it took (with passing, and the offers'
    table's error against the exact values)."""
    found = solve(SHIPPED[rules_index][1], report=True)
    offers = offer_table(found) if found.rules.progressive else None
    table = WinTable(found.rules, tuple(float(value) for value in found.start.ravel()), offers)
    print(f"{name}: first player {table.chance(0, 0):.4%}, {found.passes} passes, {found.seconds:.0f} s, "
          f"last pass moved {found.moved:.1e}", flush=True)
    if offers is not None:
        worst, mean, most = offer_errors(found, offers)
        print(f"{name}: an offer's value read in the shipped table is off by {mean:.3%} on average, at most "
              f"{most:.2%} for 99 % of offers and {worst:.2%} at worst", flush=True)
    return table


def offer_table(found: Solved) -> OfferTable:
    """Building's exact values (``found.built``) at the points of the offers' grid
    (:func:`engine.advice.win_offers.offer_grids`; a point no game reaches reads the
    nearest that one does)."""
    levels = found.built.shape[0]
    totals, leads, points = offer_grids(levels)
    total = np.array(totals)[:, None, None]
    lead = np.array(leads)[None, :, None]
    point = np.broadcast_to(np.array(points)[None, None, :], (len(totals), len(leads), len(points)))
    mine = np.clip(total - point, 0, levels - 1)
    other = np.clip(mine - lead, 0, levels - 1)
    values = found.built[mine, other, point, :]
    return OfferTable(totals, leads, points, tuple(float(value) for value in values.ravel()))


def offer_errors(found: Solved, offers: OfferTable) -> tuple[float, float, float]:
    """How far an offer's value (the better of building and fresh dice) read in ``offers``
    as shipped (two bytes a value) is from the exact one, over every offer a game can
    make (``points`` no more than the banker's new total): the worst, the mean and the
    99th percentile."""
    levels = found.built.shape[0]
    fresh = found.start[:, 0, :, 0]
    values = np.round(np.array(offers.values) * SCALE).reshape(
        len(offers.totals), len(offers.leads), len(offers.points), -1) / SCALE
    other, point = np.meshgrid(np.arange(levels), np.arange(levels), indexing="ij")
    made = point <= other
    other, point = other[made], point[made]
    errors = []
    for mine in range(levels):
        brackets = [_bracket(offers.totals, mine + point), _bracket(offers.leads, mine - other),
                    _bracket(offers.points, point)]
        read = np.zeros((len(point), values.shape[3]))
        for total, total_weight in brackets[0]:
            for lead, lead_weight in brackets[1]:
                for at, point_weight in brackets[2]:
                    read += (total_weight * lead_weight * point_weight)[:, None] * values[total, lead, at]
        exact = np.maximum(found.built[mine, other, point], fresh[mine, other][:, None])
        errors.append(np.abs(np.maximum(read, fresh[mine, other][:, None]) - exact).ravel())
    every = np.concatenate(errors)
    return float(every.max()), float(every.mean()), float(np.quantile(every, 0.99))


Ints = npt.NDArray[np.int64]


def _bracket(grid: tuple[int, ...], values: Ints) -> list[tuple[Ints, npt.NDArray[np.float64]]]:
    """Each value's grid points on either side with their weights, as
    :func:`engine.advice.win_offers._bracket` reads them (clamped at the ends)."""
    points = np.array(grid)
    right = np.clip(np.searchsorted(points, values, side="left"), 1, len(points) - 1)
    left = right - 1
    share = np.clip((values - points[left]) / (points[right] - points[left]), 0.0, 1.0)
    return [(left, 1.0 - share), (right, share)]


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python build/win_tables.py", description=__doc__)
    parser.add_argument("--only", choices=[name for name, _ in SHIPPED], help="re-solve this table only")
    parser.add_argument("--busche-neller", type=int, metavar="TARGET",
                        help="print the fairest head start under Busche & Neller's rules to TARGET")
    args = parser.parse_args(argv)
    if args.busche_neller:
        found = solve(busche_neller_rules(args.busche_neller))
        table = WinTable(found.rules, tuple(float(value) for value in found.start.ravel()))
        points, chance = fairest_compensation(table)
        print(f"Busche & Neller to {args.busche_neller:,}: first player {table.chance(0, 0):.4%}; fairest with "
              f"{points} points for the second player ({chance:.4%}); {found.seconds:.0f} s")
        return
    kept = read_tables(TABLES_FILE.read_bytes()) if args.only and TABLES_FILE.exists() else {}
    tables = []
    for index, (name, rules) in enumerate(SHIPPED):
        if args.only in (None, name):
            tables.append(solved(name, index))
        elif rules in kept:
            tables.append(kept[rules])
    data = write_tables(tables)
    TABLES_FILE.write_bytes(data)
    print(f"{TABLES_FILE.name}: {len(data):,} bytes")


if __name__ == "__main__":
    main()
