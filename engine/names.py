"""Players' names as the room reads them: one form per name, nothing hidden, no look-alikes.

A name typed or pasted at the door may carry what nobody sees: a zero-width space, a
right-to-left override, a NUL from a spreadsheet, full-width letters from a phone's
keyboard, a Cyrillic ``А`` in ``Аnn``. Two such names print the same on the standings
and the room cannot tell the players apart, so:

* :func:`clean_name` gives the one form a name is kept in (NFKC, single spaces) and
  refuses invisible and control characters, saying which and where;
* :func:`name_key` is what two names share when they are the same name (``Ann``,
  ``ANN``, full-width ``Ａｎｎ``);
* :func:`skeleton` is what two names share when they look alike (``Ann`` and a Cyrillic
  ``Аnn``): Unicode's confusable skeleton (UTS #39) cut down to the Latin, Cyrillic
  and Greek letters that pass for one another.

>>> clean_name("  Ａｎｎ   Lee ")
'Ann Lee'
>>> name_key("ANN") == name_key("Ａｎｎ"), skeleton("\\u0410nn") == skeleton("Ann")
(True, True)
"""

from __future__ import annotations

import unicodedata
from collections.abc import Mapping
from functools import lru_cache
from dataclasses import dataclass
from typing import Final, Literal

from engine.errors import InvalidInput

__all__ = ["NAME_LONGEST", "NameClash", "clean_name", "name_key", "skeleton", "find_clash", "shown"]

NAME_LONGEST: Final = 24
"""The most characters a player's name may have, at the table and in a tournament alike:
it must fit one line of a phone's scoreboard, and every name goes into its table's setup QR."""

_HIDDEN_CATEGORIES: Final = frozenset({"Cc", "Cf", "Co", "Cs", "Cn", "Zl", "Zp"})
"""Control, format (zero-width, bidi), private-use, surrogate and unassigned characters."""

_JOINERS: Final = frozenset({"\u200c", "\u200d"})
"""Zero-width (non-)joiners: part of how Persian, Arabic or Indic names are written."""

_LATIN_LOOKING_SCRIPTS: Final = ("LATIN", "CYRILLIC", "GREEK")

_CONFUSABLES: Final[Mapping[str, str]] = {
    # Cyrillic capitals
    "А": "A", "В": "B", "Е": "E", "Ё": "Ë", "І": "I", "Ї": "Ï", "Ј": "J", "К": "K", "М": "M",
    "Н": "H", "О": "O", "Р": "P", "С": "C", "Ѕ": "S", "Т": "T", "У": "Y", "Х": "X", "Ү": "Y", "Һ": "H",
    "Ӏ": "I", "Ԛ": "Q", "Ԝ": "W",
    # Cyrillic small letters
    "а": "a", "е": "e", "ё": "ë", "і": "i", "ї": "ï", "ј": "j", "к": "k", "о": "o", "р": "p", "с": "c",
    "ѕ": "s", "у": "y", "х": "x", "ү": "y", "һ": "h", "ӏ": "l", "ԁ": "d", "ԛ": "q", "ԝ": "w",
    # Greek capitals
    "Α": "A", "Β": "B", "Ε": "E", "Ζ": "Z", "Η": "H", "Ι": "I", "Ϊ": "Ï", "Κ": "K", "Μ": "M", "Ν": "N",
    "Ο": "O", "Ρ": "P", "Τ": "T", "Υ": "Y", "Ϋ": "Ÿ", "Χ": "X",
    # Greek small letters
    "α": "a", "ι": "i", "κ": "k", "ν": "v", "ο": "o", "ρ": "p", "υ": "u", "χ": "x", "ϲ": "c", "ϳ": "j",
    # Latin letters that pass for plainer ones
    "ı": "i", "ɑ": "a", "ɡ": "g", "ɩ": "i", "ʏ": "y",
}
"""Letters that print like a Latin letter, each mapped (case kept) to the letter it passes for."""


@dataclass(frozen=True)
class NameClash:
    """A name already taken (``same``) or one it looks like (``look-alike``)."""

    number: int
    name: str
    kind: Literal["same", "look-alike"]


def shown(text: str) -> str:
    """``text`` in quotes with every hidden character named, for a message: ``"Ann[zero width space]"``."""
    return '"' + "".join(f"[{_char_name(char)}]" if _hidden(char) else char for char in text) + '"'


def clean_name(text: str, *, longest: int = NAME_LONGEST) -> str:
    """The form a player's name is kept in: NFKC, runs of spaces made one, ends trimmed.

    :raises InvalidInput: nothing was entered, the name holds invisible or control
        characters (named, with what was entered), or it is longer than ``longest``.
    """
    if not isinstance(text, str):
        raise InvalidInput(f"A player's name is text, not {type(text).__name__}.")
    name = " ".join(unicodedata.normalize("NFKC", text).split())
    hidden = [char for index, char in enumerate(name) if _hidden(char) and not _joins_letters(name, index)]
    if hidden:
        kinds = list(dict.fromkeys(f"U+{ord(char):04X} {_char_name(char)}" for char in hidden))
        if len(hidden) == len(name):
            raise InvalidInput(f"The name entered, {shown(name)}, is only invisible characters ({', '.join(kinds)}): "
                               "type the player's name.")
        what = f"an invisible or control character, {kinds[0]}" if len(kinds) == 1 else (
            f"invisible or control characters: {', '.join(kinds)}")
        raise InvalidInput(f"The name {shown(name)} holds {what}. Type it again without "
                           f"{'it' if len(hidden) == 1 else 'them'}.")
    if not name:
        raise InvalidInput("A player needs a name: nothing was entered.")
    if len(name) > longest:
        raise InvalidInput(f"{shown(name)} has {len(name)} characters: a name has at most {longest}, "
                           "to fit on a phone's scoreboard.")
    return name


@lru_cache(maxsize=4096)
def name_key(name: str) -> str:
    """What two spellings of the same name share (NFKC, case folded)."""
    return unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", name).casefold())


@lru_cache(maxsize=4096)
def skeleton(name: str) -> str:
    """What two names that look alike share: look-alike letters made Latin, invisible characters
    dropped (a name stored before they were refused may hold one), case folded."""
    plain = unicodedata.normalize("NFKC", name)
    mapped = "".join(_CONFUSABLES.get(char, char) for char in plain if not _hidden(char))
    return name_key(mapped)


def find_clash(name: str, taken: Mapping[int, str]) -> NameClash | None:
    """The taken name (by player number) that ``name`` is, or looks like; None if it is new.

    (Each name's key and skeleton are computed once: a list of hundreds checks each line
    against every name before it.)
    """
    key, look = name_key(name), skeleton(name)
    alike: NameClash | None = None
    for number, other in sorted(taken.items()):
        if name_key(other) == key:
            return NameClash(number, other, "same")
        if alike is None and skeleton(other) == look:
            alike = NameClash(number, other, "look-alike")
    return alike


def _hidden(char: str) -> bool:
    return unicodedata.category(char) in _HIDDEN_CATEGORIES


def _joins_letters(name: str, index: int) -> bool:
    """A zero-width (non-)joiner between two letters of a script that writes with it (not Latin-looking)."""
    if name[index] not in _JOINERS or not 0 < index < len(name) - 1:
        return False
    return all(_letter_of_joining_script(name[index + step]) for step in (-1, 1))


def _letter_of_joining_script(char: str) -> bool:
    if unicodedata.category(char)[0] not in "LM":
        return False
    return not unicodedata.name(char, "").startswith(_LATIN_LOOKING_SCRIPTS)


def _char_name(char: str) -> str:
    """``zero width space``; ``control character`` for controls, which Unicode leaves unnamed."""
    default = "control character" if unicodedata.category(char) == "Cc" else "unnamed character"
    return unicodedata.name(char, default).lower()
