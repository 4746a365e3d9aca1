"""Reading dice as people type them: ``"1 2 3 3 3 5"``, ``"123335"``, ``"1,2,3"`` or ints."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Sequence
from functools import lru_cache
from itertools import combinations_with_replacement

from engine.errors import InvalidInput
from engine.words import say, say_n

__all__ = ["Dice", "FACES", "MAX_DICE", "parse_dice", "format_dice", "missing_from"]

Dice = tuple[int, ...]
"""Faces of some dice, always sorted so equal throws compare equal."""

FACES = range(1, 7)
MAX_DICE = 6

_SEPARATORS = re.compile(r"[\s,;\-/+]+")
_THROWS: dict[Dice, Dice] = {
    throw: throw for size in range(1, MAX_DICE + 1) for throw in combinations_with_replacement(FACES, size)
}
"""Every throw there can be, sorted: a list of faces read from a log is looked up here first."""


def parse_dice(dice: str | Iterable[int]) -> Dice:
    """Return the faces as a sorted tuple, or raise :class:`InvalidInput` quoting the entry.

    >>> parse_dice("1 2 3 3 3 5")
    (1, 2, 3, 3, 3, 5)
    >>> parse_dice("531")
    (1, 3, 5)
    """
    if isinstance(dice, (list, tuple)):
        try:
            known = _THROWS.get(tuple(dice)) or _THROWS.get(tuple(sorted(dice)))  # a log keeps them sorted
        except TypeError:
            known = None
        if known is not None and tuple(map(type, dice)).count(int) == len(known):  # True and 1.0 equal 1: no faces
            return known
    if isinstance(dice, str):
        faces = _parse_text(dice)
    else:
        faces = _parse_ints(dice)
    if not faces:
        raise InvalidInput(say("No dice entered in {dice!r}: enter the faces thrown, 1 to 6.", dice=dice))
    if len(faces) > MAX_DICE:
        raise InvalidInput(say("{dice} is {count} dice: a throw has at most {most}.",
                               dice=format_dice(faces), count=len(faces), most=MAX_DICE))
    return tuple(sorted(faces))


def _parse_text(text: str) -> list[int]:
    digits = _SEPARATORS.sub("", text)
    if not digits:
        return []
    if not digits.isdigit() or not digits.isascii():
        raise InvalidInput(say("{text!r} is not a list of dice: type faces 1 to 6, like 1 2 3 3 3 5.", text=text))
    faces = [int(ch) for ch in digits]
    _check_faces(faces, text)
    return faces


def _parse_ints(dice: Iterable[int]) -> list[int]:
    faces = list(dice)
    for face in faces:
        if isinstance(face, bool) or not isinstance(face, int):
            raise InvalidInput(say("{face!r} in {faces!r} is not a die face: faces are 1 to 6.", face=face, faces=faces))
    _check_faces(faces, faces)
    return faces


def _check_faces(faces: Sequence[int], entered: object) -> None:
    wrong = sorted({face for face in faces if face not in FACES})
    if wrong:
        named = ", ".join(str(face) for face in wrong)
        raise InvalidInput(say_n("{faces} in {entered!r} is not a die face: a die shows 1 to 6.",
                                 "{faces} in {entered!r} are not die faces: a die shows 1 to 6.", len(wrong),
                                 faces=named, entered=entered))


def format_dice(dice: Iterable[int]) -> str:
    """The faces as people say them: ``"1 3 3 5"``."""
    return " ".join(str(face) for face in dice)


@lru_cache(maxsize=4096)
def missing_from(wanted: Dice, available: Dice) -> Dice:
    """The dice of ``wanted`` that ``available`` does not hold (as a multiset)."""
    short = Counter(wanted) - Counter(available)
    return tuple(sorted(short.elements()))
