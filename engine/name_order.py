"""The order names are listed in for people: alphabetical as a reader expects, accents aside.

A seat list on the wall is read by finding one's own name, so "Émile" stands among the E's,
not after "Zoë" as code points would put it, and "ann" beside "Ann". Letters are compared
without their accents and case first (Unicode's canonical decomposition with the combining
marks left out, then case folding), then with them, so the order is the same on every
device: no locale's collation is asked for (the PWA's Python has none).

>>> sorted(["Zoë", "émile", "Bob", "Émile", "ann", "Ann"], key=name_order)
['Ann', 'ann', 'Bob', 'Émile', 'émile', 'Zoë']
"""

from __future__ import annotations

import unicodedata
from functools import lru_cache

__all__ = ["name_order"]


@lru_cache(maxsize=4096)
def name_order(name: str) -> tuple[str, str, str]:
    """The key that sorts ``name`` among others: its letters without accents and case, then
    case folded with its accents, then as written (two spellings never tie by accident)."""
    folded = unicodedata.normalize("NFKC", name).casefold()
    bare = "".join(char for char in unicodedata.normalize("NFKD", folded) if not unicodedata.combining(char))
    return bare, folded, name
