"""A number typed into a form field, read as a whole number or refused in the words of that field.

The new game's rule options (target, points to get on the board, combination values) are
typed as text, so a half-typed entry is never lost; they become numbers only here.
"""

from __future__ import annotations

import re
from typing import Final

from engine import InvalidInput

__all__ = ["parse_number", "parse_whole", "MOST_DIGITS"]

MOST_DIGITS: Final = 6
"""The most digits a number field takes (a target of 999,999 is plenty)."""

_DIGITS: Final = re.compile(f"[0-9]{{1,{MOST_DIGITS}}}")
_SHOWN_LONGEST: Final = 20


def parse_number(label: str, text: str, *, optional: bool = False) -> int | None:
    """A number field's whole number: ASCII digits only (commas and spaces between them are
    allowed), 1 to :data:`MOST_DIGITS` of them; empty gives None when ``optional``.

    >>> parse_number("Target", "10,000")
    10000
    >>> parse_number("Target", "²")
    Traceback (most recent call last):
    ...
    engine.errors.InvalidInput: Target: '²' is not a whole number.
    """
    compact = text.replace(",", "").replace(" ", "")
    if not compact:
        if optional:
            return None
        raise InvalidInput(f"{label}: enter a whole number of 1 to {MOST_DIGITS} digits.")
    if compact.isascii() and compact.isdigit() and len(compact) > MOST_DIGITS:
        raise InvalidInput(f"{label}: {_shown(text)} has {len(compact):,} digits: enter at most {MOST_DIGITS}.")
    if not _DIGITS.fullmatch(compact):
        raise InvalidInput(f"{label}: {_shown(text)} is not a whole number.")
    return int(compact)


def _shown(text: str) -> str:
    return repr(text if len(text) <= _SHOWN_LONGEST else text[:_SHOWN_LONGEST - 3] + "...")


def parse_whole(text: str, what: str, *, minimum: int = 0) -> int:
    """A whole number typed by the organizer, or a clear refusal (:class:`engine.InvalidInput`)."""
    cleaned = str(text).replace(",", "").replace(" ", "").strip()
    if not _WHOLE.fullmatch(cleaned) or int(cleaned) < minimum:
        shown = str(text).strip()
        if len(shown) > 24:
            shown = shown[:24] + "…"
        entered = f', not "{shown}"' if shown else ": nothing was entered"
        raise InvalidInput(f"{what} must be a whole number{f' of {minimum} or more' if minimum else ''} "
                           f"(digits 0-9, at most 9){entered}.")
    return int(cleaned)


_WHOLE = re.compile(r"[0-9]{1,9}")
"""ASCII digits only ("²" and other digits that ``str.isdigit`` takes are refused), of a sane length."""
