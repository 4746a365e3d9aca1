"""Players' names as the room reads them: one form per name, nothing hidden, no look-alikes.

A name typed or pasted at the door may carry what nobody sees: a zero-width space, a
right-to-left override, a NUL from a spreadsheet, a Hangul filler that is a letter
printed as nothing, full-width letters from a phone's keyboard, a Cyrillic ``А`` in
``Аnn``, an Armenian ``ո`` in ``Anո``. Two such names print the same on the standings
and the room cannot tell the players apart, so:

* :func:`clean_name` gives the one form a name is kept in (NFKC, single spaces) and
  refuses control characters and every default-ignorable code point (Unicode's
  characters that print as nothing), saying which and where; the few that are part of
  how a name is written are kept where they belong (see :func:`clean_name`);
* :func:`name_key` is what two names share when they are the same name (``Ann``,
  ``ANN``, full-width ``Ａｎｎ``);
* :func:`skeleton` is what two names share when they look alike (``Ann`` and a Cyrillic
  ``Аnn``): Unicode's confusable skeleton (UTS #39) over every script, case folded;
* :func:`short_forms` is how a table's phone names its players where a line is short:
  ``Aleksandra G.`` for ``Aleksandra García-Márquez``, unique at the table.

The Unicode data (confusables.txt and Default_Ignorable_Code_Point) is read from
``names_unicode.txt`` beside this module, written by build/names_unicode.py.

>>> clean_name("  Ａｎｎ   Lee ")
'Ann Lee'
>>> name_key("ANN") == name_key("Ａｎｎ"), skeleton("\\u0410nn") == skeleton("Anո") == skeleton("Ann")
(True, True)
>>> short_forms(["Aleksandra García-Márquez", "Bartholomew García-Márquez", "Ann"])
('Aleksandra G.', 'Bartholomew G.', 'Ann')
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Final, Literal

from engine.errors import InvalidInput
from engine.words import say, say_n

__all__ = ["NAME_LONGEST", "SHOWN_WHOLE", "NameClash", "clean_name", "name_key", "skeleton", "find_clash",
           "table_names", "shown", "short_forms"]

NAME_LONGEST: Final = 40
"""The most characters a player's name may have, at the table and in a tournament alike: a
full name as a sign-up sheet holds it ("Bartholomew García-Márquez" and longer). The
standings, prints and pages show it whole; a table's phone shows its :func:`short_forms`."""

SHOWN_WHOLE: Final = 24
"""The longest name a table's scoreboard shows whole: one line of a 390 px phone at its
type size (every name was at most this long before sign-up took 40)."""

UNICODE_DATA: Final = Path(__file__).with_name("names_unicode.txt")
"""Unicode's look-alikes and default-ignorable code points, as build/names_unicode.py writes them."""

_HIDDEN_CATEGORIES: Final = frozenset({"Cc", "Cf", "Co", "Cs", "Cn", "Zl", "Zp"})
"""Control, format (zero-width, bidi), private-use, surrogate and unassigned characters."""

_JOINERS: Final = frozenset({"\u200c", "\u200d"})
"""Zero-width (non-)joiners: part of how Persian, Arabic or Indic names are written."""

_LATIN_LOOKING_SCRIPTS: Final = ("LATIN", "CYRILLIC", "GREEK")

_EMOJI_SELECTORS: Final = frozenset({"\ufe0e", "\ufe0f"})
"""Text and emoji presentation selectors: ``❤️`` is ``❤`` and U+FE0F."""

_SKIN_TONES: Final = range(0x1F3FB, 0x1F400)
_KEYCAP: Final = "\u20e3"

_BLACK_FLAG: Final = "\U0001f3f4"
_TAGS: Final = range(0xE0020, 0xE007F)
_CANCEL_TAG: Final = "\U000e007f"
"""A region's flag is 🏴, tag letters, a cancel tag (Scotland's, Wales's)."""

_HAN_SELECTORS: Final = frozenset(chr(point) for point in (*range(0xFE00, 0xFE03), *range(0xE0100, 0xE01F0)))
"""Variation selectors that choose an ideograph's glyph, as some Japanese family names need."""

_MONGOLIAN_SELECTORS: Final = frozenset("\u180b\u180c\u180d\u180e\u180f")
"""Mongolian free variation selectors and vowel separator: part of how Mongolian is written."""


@dataclass(frozen=True)
class NameClash:
    """A name already taken (``same``) or one it looks like (``look-alike``)."""

    number: int
    name: str
    kind: Literal["same", "look-alike"]


def shown(text: str) -> str:
    """``text`` in quotes with every hidden character named, for a message: ``"Ann[zero width space]"``
    (not those in their place: ``"❤️ Ann"``)."""
    return '"' + "".join(f"[{_char_name(char)}]" if _hidden(char) and not _in_its_place(text, index) else char
                         for index, char in enumerate(text)) + '"'


def clean_name(text: str) -> str:
    """The form a player's name is kept in: NFKC, runs of spaces made one, ends trimmed.

    Characters that print as nothing are refused (controls, format characters, every
    default-ignorable code point such as a Hangul filler or a combining grapheme joiner,
    a blank Braille cell), except where they are part of how the name is written: a
    (non-)joiner between letters of a script that joins (Persian, Arabic, Indic), a
    presentation selector on a symbol (``❤️``), a joiner inside an emoji (``👩‍💻``), a
    region's tags on 🏴 (Scotland's flag), a glyph selector on a Han ideograph, and
    Mongolian's selectors on its letters. Each of these prints, or joins what prints.

    :raises InvalidInput: nothing was entered, the name holds characters that print as
        nothing (named, with what was entered) or nothing that prints at all, or it is
        longer than :data:`NAME_LONGEST`.
    """
    if not isinstance(text, str):
        raise InvalidInput(say("A player's name is text, not {kind}.", kind=type(text).__name__))
    name = " ".join(unicodedata.normalize("NFKC", text).split())
    hidden = [char for index, char in enumerate(name) if _hidden(char) and not _in_its_place(name, index)]
    if hidden:
        kinds = list(dict.fromkeys(f"U+{ord(char):04X} {_char_name(char)}" for char in hidden))
        if not any(_prints(char) for char in name):
            raise InvalidInput(say("The name entered, {name}, is only invisible characters ({kinds}): "
                                   "type the player's name.", name=shown(name), kinds=", ".join(kinds)))
        if len(kinds) == 1:
            raise InvalidInput(say_n("The name {name} holds an invisible or control character, {kinds}. "
                                     "Type it again without it.",
                                     "The name {name} holds an invisible or control character, {kinds}. "
                                     "Type it again without them.", len(hidden), name=shown(name), kinds=kinds[0]))
        raise InvalidInput(say("The name {name} holds invisible or control characters: {kinds}. "
                               "Type it again without them.", name=shown(name), kinds=", ".join(kinds)))
    if not name:
        raise InvalidInput(say("A player needs a name: nothing was entered."))
    if not any(_prints(char) for char in name):
        raise InvalidInput(say("The name entered, {name}, is only accents or marks, with no letter to sit on: "
                               "type the player's name.", name=shown(name)))
    if len(name) > NAME_LONGEST:
        raise InvalidInput(say("{name} has {count} characters: a name has at most {longest}. "
                               "Shorten it (a middle name to its initial, say).",
                               name=shown(name), count=len(name), longest=NAME_LONGEST))
    return name


def table_names(entered: Iterable[str]) -> list[str]:
    """The names of one table's players, each in its one form (:func:`clean_name`): a name
    that is, or looks like, one entered before it is refused, naming that one."""
    names: list[str] = []
    for text in entered:
        name = clean_name(text)
        clash = find_clash(name, dict(enumerate(names)))
        if clash is not None:
            typed = " ".join(text.split())
            if clash.kind == "look-alike":
                said = say('"{typed}" looks like {name}, already at this table. Add something to tell them apart.',
                           typed=typed, name=clash.name)
            elif typed == clash.name:
                said = say('"{typed}" is entered twice. Add something to tell them apart.', typed=typed)
            else:
                said = say('"{typed}" is {name}, already at this table. Add something to tell them apart.',
                           typed=typed, name=clash.name)
            raise InvalidInput(said)
        names.append(name)
    return names


def short_forms(names: Sequence[str]) -> tuple[str, ...]:
    """Each name of a table as its scoreboard shows it (in seat order): whole when it has at
    most :data:`SHOWN_WHOLE` characters, else the given name and an initial (``Aleksandra G.``),
    the initial made longer until no other name at the table could be read so.

    A form is the first of the name's :func:`_abbreviations` (shortest first, the name itself
    last) that is none of another player's abbreviations, letter for look-alike letter
    (:func:`skeleton`): so two players never share a form, ``Ann L.`` is not shown beside
    ``Ann Lee``, and a form is never longer than its name. ``names`` are a table's, told
    apart as :func:`table_names` tells them.

    >>> short_forms(["Bartholomew García-Márquez", "Bartholomew Grünewald-Osterhagen"])
    ('Bartholomew Ga.', 'Bartholomew Gr.')
    >>> short_forms(["Wolfeschlegelsteinhausenbergerdorff", "Ann Lee", "Ann Leeeeeeeeeeeeeeeeeeeeeeee"])
    ('Wolfeschlegelsteinhause.', 'Ann Lee', 'Ann Le.')
    """
    return _short_forms(tuple(names))


@lru_cache(maxsize=256)
def _short_forms(names: tuple[str, ...]) -> tuple[str, ...]:
    """:func:`short_forms`, worked out once for a table (its screen asks at every redraw)."""
    readings = [{skeleton(form) for form in _abbreviations(name)} for name in names]
    forms: list[str] = []
    for seat, name in enumerate(names):
        others = set().union(*(reading for other, reading in enumerate(readings) if other != seat))
        shortened = (form for form in _abbreviations(name) if skeleton(form) not in others)
        forms.append(name if len(name) <= SHOWN_WHOLE else next(shortened, name))
    return tuple(forms)


def _abbreviations(name: str) -> tuple[str, ...]:
    """The forms a name may be shortened to, shortest first, ending with the name itself: the
    given name and the rest cut after 1, 2... characters (``Ann L.``, ``Ann Le.``), or a single
    word cut to :data:`SHOWN_WHOLE` characters and more. A cut falls after a letter or digit,
    never inside a letter's accents, an emoji's joined parts or just after a hyphen."""
    given, _, rest = name.partition(" ")
    head, tail, shortest = (given + " ", rest, 1) if rest else ("", name, SHOWN_WHOLE - 1)
    cuts = (head + tail[:at] + "." for at in range(shortest, len(tail) - 1) if _cut_fits(tail, at))
    return (*cuts, name)


def _cut_fits(text: str, at: int) -> bool:
    """``text[:at]`` ends after a letter or digit, and what follows is not part of that letter."""
    before, after = text[at - 1], text[at]
    return (unicodedata.category(before)[0] in "LN" and unicodedata.category(after)[0] != "M"
            and not _hidden(after) and ord(after) not in _SKIN_TONES)


@lru_cache(maxsize=4096)
def name_key(name: str) -> str:
    """What two spellings of the same name share (NFKC, case folded)."""
    return unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", name).casefold())


@lru_cache(maxsize=4096)
def skeleton(name: str) -> str:
    """What two names that look alike share: UTS #39's skeleton of the name without its
    hidden characters (a name stored before they were refused may hold some), case folded
    and taken again (a capital's small letter may pass for another), spaces made one."""
    plain = "".join(char for char in unicodedata.normalize("NFKC", name) if not _hidden(char))
    return " ".join(_prototypes(_prototypes(plain).casefold()).split())


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


@lru_cache(maxsize=1)
def _unicode_data() -> tuple[frozenset[int], dict[int, str]]:
    """The default-ignorable code points, and each look-alike's prototype (for ``str.translate``)."""
    ignorable: set[int] = set()
    prototypes: dict[int, str] = {}
    for line in UNICODE_DATA.read_text(encoding="utf-8").splitlines():
        head, *rest = line.split()
        if head == "ignorable":
            for span in rest:
                first, _, last = span.partition("-")
                ignorable.update(range(int(first, 16), int(last or first, 16) + 1))
        elif head != "#":
            prototypes[int(head, 16)] = "".join(chr(int(point, 16)) for point in rest)
    return frozenset(ignorable), prototypes


def _prototypes(text: str) -> str:
    """UTS #39's skeleton of a text without default-ignorable code points: NFD, each
    character its prototype, NFD."""
    return unicodedata.normalize("NFD", unicodedata.normalize("NFD", text).translate(_unicode_data()[1]))


def _hidden(char: str) -> bool:
    """Prints as nothing: a control or format character, a default-ignorable code point, a blank."""
    if unicodedata.category(char) in _HIDDEN_CATEGORIES:
        return True
    ignorable, prototypes = _unicode_data()
    return ord(char) in ignorable or prototypes.get(ord(char), "x").isspace()


def _prints(char: str) -> bool:
    """Shows on its own: not hidden, a space, nor a mark that sits on another character."""
    return not (_hidden(char) or char.isspace() or unicodedata.category(char)[0] == "M")


def _in_its_place(name: str, index: int) -> bool:
    """A hidden character that is part of how the name is written where it stands (each
    such character follows the one it joins, varies or tags)."""
    if index == 0:
        return False
    char, before, after = name[index], name[index - 1], name[index + 1:index + 2]
    if char in _JOINERS:
        return after != "" and ((_letter_of_joining_script(before) and _letter_of_joining_script(after)) or (
            char == "\u200d" and _emoji(_emoji_base(name, index)) and _emoji(after)))
    if char in _EMOJI_SELECTORS:
        return unicodedata.category(before)[0] in "SP" or (before in "0123456789#*" and after == _KEYCAP)
    if char in _HAN_SELECTORS:
        return unicodedata.name(before, "").startswith("CJK UNIFIED IDEOGRAPH")
    if char in _MONGOLIAN_SELECTORS:
        return unicodedata.name(before, "").startswith("MONGOLIAN LETTER")
    return (ord(char) in _TAGS or char == _CANCEL_TAG) and _in_region_flag(name, index)


def _emoji(char: str) -> bool:
    return unicodedata.category(char)[0] == "S"


def _emoji_base(name: str, joiner: int) -> str:
    """The emoji a joiner follows, past its presentation selector and skin tone."""
    index = joiner - 1
    while index > 0 and (name[index] in _EMOJI_SELECTORS or ord(name[index]) in _SKIN_TONES):
        index -= 1
    return name[index]


def _in_region_flag(name: str, index: int) -> bool:
    """Inside 🏴, tag letters, cancel tag: a region's flag."""
    start = end = index
    while start > 0 and ord(name[start - 1]) in _TAGS:
        start -= 1
    while end < len(name) and ord(name[end]) in _TAGS:
        end += 1
    return 0 < start < end < len(name) and name[start - 1] == _BLACK_FLAG and name[end] == _CANCEL_TAG


def _letter_of_joining_script(char: str) -> bool:
    if unicodedata.category(char)[0] not in "LM":
        return False
    return not unicodedata.name(char, "").startswith(_LATIN_LOOKING_SCRIPTS)


def _char_name(char: str) -> str:
    """``zero width space``; ``control character`` for controls, which Unicode leaves unnamed."""
    default = "control character" if unicodedata.category(char) == "Cc" else "unnamed character"
    return unicodedata.name(char, default).lower()
