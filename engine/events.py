"""What happened at the table, in the order it happened: the game is the replay of these."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Union

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
    """Read one logged event back; anything malformed is refused as :class:`InvalidInput`."""
    try:
        kind = data["type"]
        if kind == "started":
            return GameStarted(tuple(data["players"]), Rules.from_dict(data["rules"]), int(data["first"]))
        if kind == "rolled":
            return Rolled(parse_dice(data["dice"]))
        if kind == "kept":
            return Kept(parse_dice(data["dice"]))
        if kind == "banked":
            return Banked()
        if kind == "built":
            return Built()
        if kind == "rules_changed":
            return RulesChanged(Rules.from_dict(data["rules"]))
        if kind == "rolled_off":
            faces = tuple(sorted((int(seat), int(face)) for seat, face in data["faces"].items()))
            return RolledOff(faces)
    except (KeyError, TypeError, AttributeError, ValueError) as error:
        if isinstance(error, InvalidInput):
            raise
        raise InvalidInput(f"The game log entry {dict(data)!r} is damaged: {error}.") from error
    raise InvalidInput(f"The game log entry {dict(data)!r} is of an unknown kind.")
