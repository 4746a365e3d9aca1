"""Sign-up at the door: a pasted list or a CSV file read into names and numbers, and its preview.

The organizer pastes one name a line, or a CSV (a spreadsheet's export) with a name and
an optional number; :func:`read_sign_up_list` reads it line by line without judging it.
:meth:`engine.tournament.Tournament.preview_sign_ups` then tries each line on a copy of
the event with the same checks as one sign-up, so the preview says exactly what one tap
will add and why each other line is refused, before anything is recorded.

>>> [(item.line, item.name, item.number) for item in read_sign_up_list("Name,No\\nAnn,7\\n\\nBob")]
[(2, 'Ann', '7'), (4, 'Bob', '')]
"""

from __future__ import annotations

import csv
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, Final

from engine.errors import InvalidInput
from engine.names import NameClash, clean_name, find_clash
from engine.words import Words, say

__all__ = [
    "ListedPlayer", "PreviewLine", "SignUpPreview", "read_sign_up_list", "clash_refusal", "LIST_LONGEST", "LIST_LARGEST",
    "refused_sign_up",
]

LIST_LONGEST: Final = 1_000
"""The most lines a list may have: a few hundred players at the most, with room for blanks."""
LIST_LARGEST: Final = 250_000
"""The most bytes (UTF-8) a list may take, measured before it is read: 1,000 lines of 250 bytes,
a registration spreadsheet's export with a dozen columns (a 500-player one with name, e-mail,
phone, club and notes takes about 75 KB)."""

_NAME_HEADINGS: Final = frozenset({"name", "names", "player", "players", "player name", "full name"})
_FIRST_HEADINGS: Final = frozenset({"first name", "first", "given name", "forename"})
_LAST_HEADINGS: Final = frozenset({"last name", "last", "surname", "family name"})
_NUMBER_HEADINGS: Final = frozenset({"number", "no", "no.", "nr", "nr.", "#", "num", "player number"})
_NUMBER: Final = re.compile(r"#?\s*[0-9]+")


@dataclass(frozen=True)
class ListedPlayer:
    """One line of a sign-up list as entered: its line number (from 1), the name and number texts."""

    line: int
    name: str
    number: str
    """The number as typed ("" for none: the next free one)."""

    def player_number(self) -> int | None:
        """The number typed (``12`` or ``#12``) as a player number; None when none is given.

        >>> ListedPlayer(3, "Ann", "# 12").player_number(), ListedPlayer(4, "Bob", "").player_number()
        (12, None)
        """
        cleaned = "".join(self.number.split()).lstrip("#")
        if not cleaned:
            return None
        if not (cleaned.isascii() and cleaned.isdigit()) or len(cleaned) > 5 or int(cleaned) < 1:
            raise InvalidInput(say("\"{number}\" is not a player number: use 1 to 99999, or leave it out.",
                                   number=self.number))
        return int(cleaned)


@dataclass(frozen=True)
class PreviewLine:
    """What one line of the list comes to: added as ``name`` with ``number``, or refused with the reason."""

    line: int
    entered: str
    name: str = ""
    number: int | None = None
    refusal: str = ""

    @property
    def added(self) -> bool:
        return not self.refusal

    def describe(self) -> Words:
        """``41. Ann`` for a name to add; ``Line 5: <why it is refused>`` for one that is not."""
        return say("{number}. {name}", number=self.number, name=self.name) if self.added else \
            say("Line {line}: {refusal}", line=self.line, refusal=self.refusal)


@dataclass(frozen=True)
class SignUpPreview:
    """A list tried against the event: every line, in order, added or refused."""

    lines: tuple[PreviewLine, ...]

    @property
    def added(self) -> tuple[PreviewLine, ...]:
        return tuple(line for line in self.lines if line.added)

    @property
    def refused(self) -> tuple[PreviewLine, ...]:
        return tuple(line for line in self.lines if not line.added)

    @property
    def entries(self) -> tuple[tuple[str, int], ...]:
        """(name, number) of each player the list adds, in list order: what one tap signs up."""
        return tuple((line.name, line.number) for line in self.added if line.number is not None)


def clash_refusal(entered: str, name: str, clash: NameClash, line: int | None = None) -> Words:
    """Why ``entered`` (kept as ``name``) is refused: the player it is or looks like, by number
    or by the ``line`` of the list that has them."""
    typed = " ".join(str(entered).split())
    quoted = say('"{typed}" (read as "{name}")', typed=typed, name=name) if typed != name else \
        say('"{typed}"', typed=typed)
    if line is not None:
        if clash.kind == "same":
            return say("{quoted} is on this list twice: {name} on line {line}. Add something to tell them apart.",
                       quoted=quoted, name=clash.name, line=line)
        return say("{quoted} looks like a name on this list: {name} on line {line}. Add something to tell them apart.",
                   quoted=quoted, name=clash.name, line=line)
    if clash.kind == "same":
        return say("{quoted} is already signed up: {name} (number {number}). Add something to tell them apart.",
                   quoted=quoted, name=clash.name, number=clash.number)
    return say("{quoted} looks like a player signed up: {name} (number {number}). Add something to tell them apart.",
               quoted=quoted, name=clash.name, number=clash.number)


def refused_sign_up(log: Iterable[Mapping[str, Any]]) -> Words | None:
    """Why today's sign-up would refuse a name ``log`` signs up (one that hides characters, is
    not in its one form, or is or looks like a player still in when it was signed up), or None.

    Replaying a log never judges its names, so an event kept on this device always opens; a
    log brought from elsewhere (a saved copy) is checked with this before it is kept.

    >>> refused_sign_up([{"type": "player_signed_up", "number": 1, "name": "Ann"},
    ...                  {"type": "player_signed_up", "number": 2, "name": "Anո"}])
    'Player 2: "Anո" looks like a player signed up: Ann (number 1). Add something to tell them apart.'
    >>> refused_sign_up([{"type": "player_signed_up", "number": 1, "name": "Ann"},
    ...                  {"type": "player_withdrew", "number": 1},
    ...                  {"type": "player_signed_up", "number": 2, "name": "Ann"}]) is None
    True
    """
    still_in: dict[int, str] = {}
    for entry in log:
        number = entry.get("number")
        if entry.get("type") == "player_withdrew" and isinstance(number, int):
            still_in.pop(number, None)
        if entry.get("type") != "player_signed_up" or not isinstance(number, int):
            continue
        name = entry.get("name")
        if not isinstance(name, str):
            return say("Player {number} has no name written.", number=number)
        try:
            kept = clean_name(name)
        except InvalidInput as error:
            return say("Player {number}: {refusal}", number=number, refusal=error.words)
        if kept != name:
            return say("Player {number}'s name, {name!r}, is not written as the app keeps names (read as \"{kept}\").",
                       number=number, name=name, kept=kept)
        clash = find_clash(kept, still_in)
        if clash is not None:
            return say("Player {number}: {refusal}", number=number, refusal=clash_refusal(kept, kept, clash))
        still_in[number] = kept
    return None


def read_sign_up_list(text: str) -> tuple[ListedPlayer, ...]:
    """Each non-blank line of a pasted list or CSV: the name and the number as entered.

    One name a line; or CSV rows (comma, semicolon or tab separated, quotes allowed) of a
    name and a number in either order. A first row of headings ("Name", "Number", "First
    name", "Surname"...) says which columns to read and is skipped; without one, a field of
    digits (``12`` or ``#12``) is the number and the other fields make the name.
    """
    size = len(str(text).encode("utf-8", "surrogatepass"))
    if size > LIST_LARGEST:
        raise InvalidInput(say("The list is {size:,} bytes: at most {list_largest:,} are read at once (1,000 lines "
                               "of a spreadsheet's export). Paste it in parts, or keep only the name and number "
                               "columns.", size=size, list_largest=LIST_LARGEST))
    lines = str(text).lstrip("\ufeff").splitlines()
    if len(lines) > LIST_LONGEST:
        raise InvalidInput(say("The list has {count:,} lines: at most {list_longest:,} are read at once.",
                               count=len(lines), list_longest=LIST_LONGEST))
    delimiter = _delimiter(lines)
    rows = [(index, _fields(line, delimiter)) for index, line in enumerate(lines, 1)]
    rows = [(index, fields) for index, fields in rows if any(fields)]
    columns = _columns(rows[0][1]) if rows else None
    if columns is not None:
        rows = rows[1:]
    return tuple(_listed(index, fields, columns) for index, fields in rows)


def _delimiter(lines: list[str]) -> str | None:
    for delimiter in ("\t", ",", ";"):
        if any(delimiter in line for line in lines):
            return delimiter
    return None


def _fields(line: str, delimiter: str | None) -> list[str]:
    if delimiter is None:
        return [line.strip()]
    return [field.strip() for field in next(csv.reader([line], delimiter=delimiter), [])]


_Columns = tuple[tuple[int, ...], int | None]
"""(the columns that make the name, first to last; the number's column, if any)."""


def _columns(fields: list[str]) -> _Columns | None:
    """The name and number columns a row of headings names; None if the row is not headings."""
    headings = [" ".join(field.casefold().split()) for field in fields]
    number = next((i for i, h in enumerate(headings) if h in _NUMBER_HEADINGS), None)
    name = tuple(i for i, h in enumerate(headings) if h in _NAME_HEADINGS)
    parts = tuple(i for i, h in enumerate(headings) if h in _FIRST_HEADINGS) + tuple(
        i for i, h in enumerate(headings) if h in _LAST_HEADINGS)
    if not (name or parts):
        return None
    return (name[:1] or parts), number


def _listed(line: int, fields: list[str], columns: _Columns | None) -> ListedPlayer:
    if columns is not None:
        names, number = columns
        name = " ".join(fields[i] for i in names if i < len(fields) and fields[i])
        return ListedPlayer(line, name, fields[number] if number is not None and number < len(fields) else "")
    numbers = [i for i, field in enumerate(fields) if _NUMBER.fullmatch(field)]
    if len(fields) > 1 and len(numbers) == 1:
        at = numbers[0]
        return ListedPlayer(line, " ".join(f for i, f in enumerate(fields) if i != at and f), fields[at])
    return ListedPlayer(line, " ".join(field for field in fields if field), "")
