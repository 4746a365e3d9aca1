"""What happened at the table, in the order it happened: the game is the replay of these."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Final, Union

from engine.dice import Dice, parse_dice
from engine.errors import InvalidInput
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
    "event_from_dict",
]


@dataclass(frozen=True)
class GameStarted:
    players: tuple[str, ...]
    rules: Rules
    first: int

    def to_dict(self) -> dict[str, Any]:
        return {"type": "started", "players": list(self.players), "rules": self.rules.to_dict(), "first": self.first}


@dataclass(frozen=True)
class Rolled:
    """A throw of the real dice, entered as faces."""

    dice: Dice

    def to_dict(self) -> dict[str, Any]:
        return {"type": "rolled", "dice": list(self.dice)}


@dataclass(frozen=True)
class Kept:
    """The dice set aside from the last throw (a later Kept replaces the selection)."""

    dice: Dice

    def to_dict(self) -> dict[str, Any]:
        return {"type": "kept", "dice": list(self.dice)}


@dataclass(frozen=True)
class Banked:
    def to_dict(self) -> dict[str, Any]:
        return {"type": "banked"}


@dataclass(frozen=True)
class Built:
    """The player took the dice and points offered by the previous player."""

    def to_dict(self) -> dict[str, Any]:
        return {"type": "built"}


@dataclass(frozen=True)
class RulesChanged:
    """New rules, in force from the next turn."""

    rules: Rules

    def to_dict(self) -> dict[str, Any]:
        return {"type": "rules_changed", "rules": self.rules.to_dict()}


@dataclass(frozen=True)
class RolledOff:
    """One round of a roll-off for the win: the die each tied seat threw."""

    faces: tuple[tuple[int, int], ...]

    def to_dict(self) -> dict[str, Any]:
        return {"type": "rolled_off", "faces": {str(seat): face for seat, face in self.faces}}


Event = Union[GameStarted, Rolled, Kept, Banked, Built, RulesChanged, RolledOff]


def event_from_dict(data: Mapping[str, Any]) -> Event:
    """Read one logged event back, each field of the JSON type it is written as.

    A log is read from a file anyone may have edited: anything malformed (a text where a
    number belongs, a seat that is no number) is refused as :class:`InvalidInput`, and so
    is anything that fails while it is read, never an error of another kind.
    """
    if not isinstance(data, Mapping):
        raise InvalidInput(f"A game log entry is {type(data).__name__}, not an object: the log is damaged.")
    kind = data.get("type")
    try:
        if kind == "started":
            players, first = data["players"], data["first"]
            if not isinstance(players, list) or not all(isinstance(name, str) for name in players):
                raise InvalidInput("A game's start lists its players as texts: the log is damaged.")
            return GameStarted(tuple(players), Rules.from_dict(data["rules"]), _whole(first, "The first player"))
        if kind == "rolled":
            return Rolled(parse_dice(_dice(data["dice"])))
        if kind == "kept":
            return Kept(parse_dice(_dice(data["dice"])))
        if kind == "banked":
            return Banked()
        if kind == "built":
            return Built()
        if kind == "rules_changed":
            return RulesChanged(Rules.from_dict(data["rules"]))
        if kind == "rolled_off":
            faces = data["faces"]
            if not isinstance(faces, dict) or not all(_SEAT.fullmatch(seat) for seat in faces):
                raise InvalidInput("A roll-off names each seat by its number: the log is damaged.")
            return RolledOff(tuple(sorted((int(seat), _whole(face, "A roll-off die")) for seat, face in faces.items())))
    except InvalidInput:
        raise
    except Exception as error:  # noqa: BLE001 - a damaged entry may fail any way: a refusal, not a crash
        raise InvalidInput(f"A {str(kind)[:20]!r} entry of the game log is damaged: {error!r}.") from error
    raise InvalidInput(f"The game log has an entry of an unknown kind ({str(kind)[:40]!r}): it is damaged.")


_SEAT: Final = re.compile(r"[0-9]{1,2}")


def _whole(value: Any, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise InvalidInput(f"{what} is logged as {value!r:.40}, not a whole number: the log is damaged.")
    return value


def _dice(value: Any) -> list[int]:
    """The faces as a log writes them: a list of whole numbers (a text would be read as typed dice)."""
    if not isinstance(value, list) or not all(isinstance(face, int) and not isinstance(face, bool) for face in value):
        raise InvalidInput(f"Dice are logged as a list of faces, not {value!r:.40}: the log is damaged.")
    return value
