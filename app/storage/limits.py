"""How much one document may hold: a bound on what a save writes and a read trusts.

A document past either limit is refused on save (:class:`~app.storage.DocumentTooLarge`)
and, found stored, kept aside as too large instead of being read.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final, Optional

__all__ = ["EVENTS_FIELD", "MAX_DOCUMENT_BYTES", "MAX_EVENTS", "limit_problem", "size_problem"]

MAX_DOCUMENT_BYTES: Final = 5_000_000
"""The most one stored document may take as compact JSON (a finished four-player game
is about 60 KB; the browser grants about 5 MB for everything)."""

MAX_EVENTS: Final = 100_000
"""The most entries one document's ``"events"`` log may hold (a long game has under 2,000)."""

EVENTS_FIELD: Final = "events"


def size_problem(size: int) -> Optional[str]:
    """Why ``size`` bytes are too many for one document, or ``None``."""
    if size > MAX_DOCUMENT_BYTES:
        return f"too large: {size:,} bytes, the most a document may take is {MAX_DOCUMENT_BYTES:,}"
    return None


def limit_problem(document: Mapping[str, Any], size: int) -> Optional[str]:
    """Why a document of ``size`` bytes (compact JSON) holds too much, or ``None``."""
    events = document.get(EVENTS_FIELD)
    if isinstance(events, list) and len(events) > MAX_EVENTS:
        return f"too large: {len(events):,} events, the most a document may hold is {MAX_EVENTS:,}"
    return size_problem(size)
