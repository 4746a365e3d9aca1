"""The shipped win tables' file: what ``python build/win_tables.py`` writes and the app reads."""

from __future__ import annotations

import json
import zlib
from collections.abc import Sequence
from dataclasses import dataclass, replace
from itertools import accumulate
from pathlib import Path
from typing import Any

from engine.advice.win_offers import SCALE as OFFER_SCALE
from engine.advice.win_offers import OfferTable
from engine.advice.win_pairs import WinTable, _streaks
from engine.dice import MAX_DICE
from engine.rules import Rules

__all__ = ["read_tables", "write_tables", "TABLES_FILE"]

SCALE = 65535
"""A shipped chance is kept as round(chance x SCALE) in two bytes."""

TABLES_FILE = Path(__file__).with_name("win_tables.bin")
"""The shipped tables, written by ``python build/win_tables.py``: zlib over, per table,
one JSON line (rules, end rule, levels and, with passing, the grid and scale of the
offers' table: :class:`engine.advice.win_offers.OfferTable`) and the ``(levels x
streaks)**2`` start values in :class:`WinTable`'s order (streaks follow from the rules: 3
under a three-farkle penalty, else 1), then any offers' values, each kept as round(chance
x scale) in two bytes (65535 for a start value and where a head names no scale): as
each value's step from the one
before (mod 65536), all the high bytes, then all the low bytes (neighbouring chances are
close: zlib then halves the file)."""


@dataclass(frozen=True)
class _Part:
    """One table's head and its encoded start values and offers' values, decoded when asked for."""

    rules: Rules
    head: dict[str, Any]
    start: bytes
    offers: bytes

    def table(self) -> WinTable:
        grid = self.head.get("offers")
        offers = None if grid is None else OfferTable(tuple(grid["totals"]), tuple(grid["leads"]),
                                                      tuple(grid["points"]), _decoded(self.offers, grid.get("scale", SCALE)))
        return WinTable(self.rules, _decoded(self.start), offers)


def read_tables(data: bytes) -> dict[Rules, WinTable]:
    """The tables in a file written by :func:`write_tables`, by the rules each was solved for."""
    return {rules: part.table() for rules, part in _parts(data).items()}


def _parts(data: bytes) -> dict[Rules, _Part]:
    """Each table's encoded values, by its rules (the end rule read from the head's
    ``final_round``; a ``streaks`` in the head, as files before passing wrote, is not
    needed)."""
    raw = zlib.decompress(data)
    parts = {}
    at = 0
    while at < len(raw):
        end = raw.index(b"\n", at)
        head = json.loads(raw[at:end])
        rules = Rules.from_dict(head["rules"])
        if not head["final_round"]:
            rules = replace(rules, end_rule="first_to_target")
        size = 2 * (head["levels"] * _streaks(rules)) ** 2
        grid = head.get("offers")
        offers = 0 if grid is None else 2 * len(grid["totals"]) * len(grid["leads"]) * len(grid["points"]) * MAX_DICE
        start = end + 1
        parts[rules] = _Part(rules, head, raw[start:start + size], raw[start + size:start + size + offers])
        at = start + size + offers
    return parts


def _decoded(part: bytes, scale: int = SCALE) -> tuple[float, ...]:
    """Chances from their encoding (see :data:`TABLES_FILE`)."""
    count = len(part) // 2
    steps = (high * 256 + low for high, low in zip(part[:count], part[count:]))
    return tuple(value / scale for value in accumulate(steps, lambda value, step: (value + step) & 0xFFFF))


def _encoded(values: Sequence[float], scale: int = SCALE) -> list[bytes]:
    scaled = [round(value * scale) for value in values]
    steps = [(value - before) & 0xFFFF for before, value in zip([0, *scaled], scaled)]
    return [bytes(step // 256 for step in steps), bytes(step % 256 for step in steps)]


def write_tables(tables: Sequence[WinTable]) -> bytes:
    """``tables`` in the shipped file's format (see :data:`TABLES_FILE`)."""
    parts = []
    for table in tables:
        head: dict[str, Any] = {"rules": table.rules.to_dict(), "final_round": table.final_round,
                                "levels": table.levels}
        offers = table.offers
        if offers is not None:
            head["offers"] = {"totals": offers.totals, "leads": offers.leads, "points": offers.points,
                              "scale": OFFER_SCALE}
        parts += [json.dumps(head, sort_keys=True).encode() + b"\n", *_encoded(table.start)]
        if offers is not None:
            parts += _encoded(offers.values, OFFER_SCALE)
    return zlib.compress(b"".join(parts), 9)
