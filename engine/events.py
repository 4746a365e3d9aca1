"""What happened at the table, in the order it happened: the game is the replay of these.

Each event is logged by :data:`GAME_LOG` (:mod:`engine.event_log`), as the tournament's are:

>>> event_to_dict(Rolled((1, 2, 3, 3, 3, 5)))
{'type': 'rolled', 'dice': [1, 2, 3, 3, 3, 5]}
>>> event_from_dict({"type": "rolled_off", "faces": {"0": 6, "1": 2}})
RolledOff(faces=((0, 6), (1, 2)))
>>> event_from_dict({"type": "kept", "dice": "135"})
Traceback (most recent call last):
...
engine.errors.InvalidInput: A kept entry of the game log is damaged: dice is a text, expected a list of faces.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Annotated, Any, ClassVar, Final, Union

from engine.dice import Dice, parse_dice
from engine.event_log import Codec, Damaged, EventLog, kind_of
from engine.rules import Rules

__all__ = [
    "Event",
    "GameStarted",
    "Rolled",
    "Kept",
    "Banked",
    "Built",
    "RulesChanged",
    "RolledOff",
    "PointsBanked",
    "PointsFarkled",
    "EntrySwitched",
    "GAME_LOG",
    "event_to_dict",
    "events_to_dicts",
    "event_from_dict",
]


def _read_dice(value: Any, where: str) -> Dice:
    """The faces as a log writes them: a list of whole numbers (a text would be read as typed dice)."""
    if not isinstance(value, list) or not all(isinstance(face, int) and not isinstance(face, bool) for face in value):
        raise Damaged(f"{where} is {kind_of(value)}, expected a list of faces")
    return parse_dice(value)


THROWN: Final[Codec[Dice]] = Codec(list, _read_dice)
"""Dice as a list of faces, read back as :func:`~engine.dice.parse_dice` reads them."""

_SEAT: Final = re.compile(r"[0-9]{1,2}")


def _read_seat_faces(value: Any, where: str) -> tuple[tuple[int, int], ...]:
    if not isinstance(value, dict) or not all(_SEAT.fullmatch(seat) for seat in value):
        raise Damaged(f"{where} is {kind_of(value)}, expected an object of a die face by seat number")
    faces = value.items()
    if not all(isinstance(face, int) and not isinstance(face, bool) for _, face in faces):
        raise Damaged(f"{where} has a die face that is no whole number")
    return tuple(sorted((int(seat), face) for seat, face in faces))


SEAT_FACES: Final[Codec[tuple[tuple[int, int], ...]]] = Codec(
    lambda faces: {str(seat): face for seat, face in faces}, _read_seat_faces
)
"""A roll-off's (seat, face) pairs as an object of each seat's face: ``{"0": 6, "1": 2}``."""


@dataclass(frozen=True)
class GameStarted:
    TYPE: ClassVar[str] = "started"
    players: tuple[str, ...]
    rules: Rules
    first: int
    points_only: bool | None = None
    """True: turns are entered as their points (:class:`PointsBanked`); left out (None) for
    die by die, so logs from before points-only scoring read and write back unchanged."""


@dataclass(frozen=True)
class Rolled:
    """A throw of the real dice, entered as faces."""

    TYPE: ClassVar[str] = "rolled"
    dice: Annotated[Dice, THROWN]


@dataclass(frozen=True)
class Kept:
    """The dice set aside from the last throw (a later Kept replaces the selection)."""

    TYPE: ClassVar[str] = "kept"
    dice: Annotated[Dice, THROWN]


@dataclass(frozen=True)
class Banked:
    TYPE: ClassVar[str] = "banked"


@dataclass(frozen=True)
class Built:
    """The player took the dice and points offered by the previous player."""

    TYPE: ClassVar[str] = "built"


@dataclass(frozen=True)
class RulesChanged:
    """New rules, in force from the next turn."""

    TYPE: ClassVar[str] = "rules_changed"
    rules: Rules


@dataclass(frozen=True)
class RolledOff:
    """One round of a roll-off for the win: the die each tied seat threw."""

    TYPE: ClassVar[str] = "rolled_off"
    faces: Annotated[tuple[tuple[int, int], ...], SEAT_FACES]


@dataclass(frozen=True)
class PointsBanked:
    """A turn entered as the points it banked (points only): the throws were not entered."""

    TYPE: ClassVar[str] = "points_banked"
    points: int
    """The whole bank, including the points built on."""
    passed: int | None = None
    """The dice left to pass on (progressive passing), or None when none are offered."""


@dataclass(frozen=True)
class PointsFarkled:
    """A turn entered as a farkle (points only): its throws were not entered."""

    TYPE: ClassVar[str] = "points_farkled"


@dataclass(frozen=True)
class EntrySwitched:
    """From this turn on, turns are entered as points (True) or die by die (False)."""

    TYPE: ClassVar[str] = "entry_switched"
    points_only: bool


Event = Union[
    GameStarted, Rolled, Kept, Banked, Built, RulesChanged, RolledOff, PointsBanked, PointsFarkled, EntrySwitched
]

GAME_LOG: Final[EventLog[Event]] = EventLog(
    "game",
    (GameStarted, Rolled, Kept, Banked, Built, RulesChanged, RolledOff, PointsBanked, PointsFarkled, EntrySwitched),
)
"""How a game's events are logged and read back."""
event_to_dict: Final = GAME_LOG.to_dict
events_to_dicts: Final = GAME_LOG.to_dicts
event_from_dict: Final = GAME_LOG.from_dict
