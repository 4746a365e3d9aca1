"""Write the shipped win-chance tables: ``python -m engine.advice.win_tables``.

Each table is every start value of a two-player game (:mod:`engine.advice.win`), solved
in pure Python and written to :data:`engine.advice.win.TABLES_FILE`, which the app and
the PWA read instead of solving. ``--busche-neller TARGET`` prints the fairest
compensation for the second player under Busche & Neller's simplest scoring instead.
"""

from __future__ import annotations

import argparse
import dataclasses
import time
from collections.abc import Sequence

from engine.advice.values import step_of
from engine.advice.win import TABLES_FILE, WinTable, solve_win_table, win_chance, write_tables
from engine.rules import Rules

__all__ = ["SHIPPED", "busche_neller_rules", "fairest_compensation", "main"]

SHIPPED: tuple[tuple[str, int], ...] = (("house", 4000), ("house", 5000), ("house", 10000))
"""(preset, target) of the shipped tables. Of the presets only ``house`` is solved for (no
passing, no three-farkle penalty); pure Python solves it to 4,000 (the two-player target
RULES.md lists) in about two minutes of CPU, to 5,000 in about three and to 10,000 (the
preset's own target) in about 23: the whole command takes about half an hour."""


def busche_neller_rules(target: int = 10_000) -> Rules:
    """Busche & Neller's simplest scoring: single 1 = 100, single 5 = 50, three of a kind
    only, no entry threshold, the first to bank ``target`` wins."""
    return Rules(target=target, entry_threshold=0, n_of_a_kind="none", straight=None, three_pairs=None,
                 two_triplets=None, end_rule="first_to_target")


def fairest_compensation(rules: Rules) -> tuple[int, float]:
    """The head start for the second player that brings the first player's chance nearest
    one half, and that chance (the first player moves at 0 against the head start)."""
    step = step_of(rules)
    best = (0, win_chance(rules, (0, 0), 0))
    points = step
    while points < rules.target:
        chance = win_chance(rules, (0, points), 0)
        if abs(chance - 0.5) < abs(best[1] - 0.5):
            best = (points, chance)
        if chance < 0.5:
            break
        points += step
    return best


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m engine.advice.win_tables", description=__doc__)
    parser.add_argument("--busche-neller", type=int, metavar="TARGET",
                        help="print the fairest compensation under Busche & Neller's rules to TARGET")
    args = parser.parse_args(argv)
    if args.busche_neller:
        rules = busche_neller_rules(args.busche_neller)
        started = time.perf_counter()
        solve_win_table(rules)
        points, chance = fairest_compensation(rules)
        first = win_chance(rules, (0, 0), 0)
        print(f"Busche & Neller to {rules.target:,}: first player {first:.4%}; "
              f"fairest with {points} points for the second player ({chance:.4%}); "
              f"{time.perf_counter() - started:.0f} s")
        return
    tables: list[WinTable] = []
    for name, target in SHIPPED:
        started = time.perf_counter()
        tables.append(solve_win_table(dataclasses.replace(Rules.preset(name), target=target)))
        data = write_tables(tables)
        TABLES_FILE.write_bytes(data)
        print(f"{name} to {target:,}: first player {tables[-1].start[0][0]:.4%}, "
              f"{time.perf_counter() - started:.0f} s; {TABLES_FILE.name}: {len(data):,} bytes", flush=True)


if __name__ == "__main__":
    main()
