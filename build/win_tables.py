"""Write the shipped win-chance tables: ``python build/win_tables.py``.

Solves every rule set of :data:`engine.advice.win_tables.SHIPPED` in compiled code
(:mod:`win_solver`) and writes them to :data:`engine.advice.win.TABLES_FILE`, which the
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

from engine.advice.win import TABLES_FILE, WinTable, read_tables, write_tables  # noqa: E402
from engine.advice.win_tables import SHIPPED, busche_neller_rules, fairest_compensation  # noqa: E402
from win_solver import solve  # noqa: E402

__all__ = ["main"]


def solved(name: str, rules_index: int) -> WinTable:
    """One shipped rule set's table, with what it took."""
    found = solve(SHIPPED[rules_index][1], report=True)
    table = WinTable(found.rules, tuple(float(value) for value in found.start.ravel()))
    print(f"{name}: first player {table.chance(0, 0):.4%}, {found.passes} passes, {found.seconds:.0f} s, "
          f"last pass moved {found.moved:.1e}", flush=True)
    return table


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
            tables.append(WinTable(rules, kept[rules]))
    data = write_tables(tables)
    TABLES_FILE.write_bytes(data)
    print(f"{TABLES_FILE.name}: {len(data):,} bytes")


if __name__ == "__main__":
    main()
