"""A number typed into a form field, read as a whole number or refused in the words of that field.

The new game's rule options (target, points to get on the board, combination values) and
the organizer's numbers (a player number, the cap, a paper total, a prize, a draw seed) are
typed as text, so a half-typed entry is never lost; they become numbers only here.
"""

from __future__ import annotations

from app.i18n import local_number, tr
import re
from typing import Final, Literal, overload

from engine import InvalidInput

__all__ = ["parse_number", "MOST_DIGITS", "ORGANIZER_DIGITS"]

MOST_DIGITS: Final = 6
"""The most digits a rule option takes (a target of 999,999 is plenty)."""
ORGANIZER_DIGITS: Final = 9
"""The most digits an organizer's number takes (a prize, a paper total, a draw seed)."""

_SHOWN_LONGEST: Final = 20


@overload
def parse_number(label: str, text: str, *, optional: Literal[False] = False, minimum: int = 0,
                 digits: int = MOST_DIGITS) -> int: ...


@overload
def parse_number(label: str, text: str, *, optional: bool, minimum: int = 0,
                 digits: int = MOST_DIGITS) -> int | None: ...


def parse_number(label: str, text: str, *, optional: bool = False, minimum: int = 0,
                 digits: int = MOST_DIGITS) -> int | None:
    """A number field's whole number: ASCII digits only (commas, spaces and the session language's
    thousands mark between them are allowed: a German 1.050 as the app shows it), 1 to ``digits``
    of them, at least ``minimum``; empty gives None when ``optional``.

    >>> parse_number("Target", "10,000")
    10000
    >>> parse_number("Target", "²")
    Traceback (most recent call last):
    ...
    engine.errors.InvalidInput: Target: '²' is not a whole number.
    >>> parse_number("A player number", "0", minimum=1)
    Traceback (most recent call last):
    ...
    engine.errors.InvalidInput: A player number: '0' is less than 1: enter 1 or more.
    """
    compact = text.translate({ord(mark): None for mark in _group_marks()})
    if not compact:
        if optional:
            return None
        raise InvalidInput(tr("{label}: enter a whole number of 1 to {digits} digits.", label=label, digits=digits))
    if compact.isascii() and compact.isdigit() and len(compact) > digits:
        raise InvalidInput(tr("{label}: {shown} has {count:,} digits: enter at most {digits}.",
                              label=label, shown=_shown(text), count=len(compact), digits=digits))
    if not re.fullmatch(f"[0-9]{{1,{digits}}}", compact):
        raise InvalidInput(tr("{label}: {shown} is not a whole number.", label=label, shown=_shown(text)))
    if int(compact) < minimum:
        raise InvalidInput(tr("{label}: {shown} is less than {minimum}: enter {minimum} or more.",
                              label=label, shown=_shown(text), minimum=minimum))
    return int(compact)


def _group_marks() -> str:
    """The thousands marks a number may be typed with: a comma, spaces, and the mark the session's
    language groups with (``local_number(1000)`` is 1.000 in German, 1 000 in French)."""
    return ", \u00a0\u202f" + local_number(1000)[1:-3]


def _shown(text: str) -> str:
    return repr(text if len(text) <= _SHOWN_LONGEST else text[:_SHOWN_LONGEST - 3] + "...")
