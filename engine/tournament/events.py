"""What the organizer did, as small past-tense events, and how the log keeps them.

The log is the tournament: the organizer's device stores these events as JSON and the
state is their replay (:mod:`engine.tournament.state`). A log written once must replay
the same for ever, so an event only gains fields with a default, and a field left at
``None`` is not written out: a log read back is written back unchanged.

>>> data = event_to_dict(PlayerSignedUp(7, "Ann"))
>>> data
{'type': 'player_signed_up', 'number': 7, 'name': 'Ann'}
>>> event_from_dict(data)
PlayerSignedUp(number=7, name='Ann')
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar, Final, Union

from engine.codec import TableResult
from engine.errors import InvalidInput
from engine.rules import Rules

__all__ = [
    "Event",
    "TournamentCreated",
    "FormatChanged",
    "PlayerSignedUp",
    "PlayerCheckedIn",
    "PlayerWithdrew",
    "SeatsDrawn",
    "DrawCancelled",
    "CardRevoked",
    "ResultRecorded",
    "ResultHeld",
    "HeldResultSettled",
    "ResultVoided",
    "ResultReplaced",
    "RollOffRecorded",
    "RoundClosed",
    "RulesSwitched",
    "PrizeAwarded",
    "event_to_dict",
    "event_from_dict",
    "result_to_dict",
    "result_from_dict",
]


@dataclass(frozen=True)
class TournamentCreated:
    TYPE: ClassVar[str] = "tournament_created"
    name: str
    event_id: str
    secret: str
    """The event secret in hex: each table's signing key is derived from it."""
    format: dict[str, Any]


@dataclass(frozen=True)
class FormatChanged:
    TYPE: ClassVar[str] = "format_changed"
    format: dict[str, Any]


@dataclass(frozen=True)
class PlayerSignedUp:
    TYPE: ClassVar[str] = "player_signed_up"
    number: int
    name: str


@dataclass(frozen=True)
class PlayerCheckedIn:
    TYPE: ClassVar[str] = "player_checked_in"
    number: int


@dataclass(frozen=True)
class PlayerWithdrew:
    TYPE: ClassVar[str] = "player_withdrew"
    number: int
    reason: str


@dataclass(frozen=True)
class SeatsDrawn:
    """A round seated: everything its replay needs, so a later planner cannot change it."""

    TYPE: ClassVar[str] = "seats_drawn"
    round: int
    seed: int
    tables: tuple[tuple[int, ...], ...]
    """Player numbers at each table (table 1 first), in seat order; the table sizes with them."""
    clashes: int
    spec_index: int | None = None
    """Which round of the format was drawn (its rules, its spread); None in logs from
    before it was kept, which ask the planner."""
    cut: tuple[str, int] | None = None
    """The cut as scaled for the players seated (``(kind, count)``); None in logs from
    before it was kept, which scale the format's cut again."""
    keys: int | None = None
    """The scheme of the tables' keys (:mod:`engine.codec.keys`); None in logs from before
    it was kept: scheme 1, a key per event, round and table."""
    draw: str | None = None
    """This draw's own id, part of each table's key under scheme 2: a card of a cancelled
    draw signs nothing that counts. None under scheme 1."""


@dataclass(frozen=True)
class DrawCancelled:
    TYPE: ClassVar[str] = "draw_cancelled"
    round: int


@dataclass(frozen=True)
class CardRevoked:
    """A table's card no longer signs (a lost phone): the table gets a card of the next issue."""

    TYPE: ClassVar[str] = "card_revoked"
    round: int
    table: int
    reason: str
    at: str | None = None
    """When, as ISO 8601 local time with its offset."""


@dataclass(frozen=True)
class ResultRecorded:
    TYPE: ClassVar[str] = "result_recorded"
    round: int
    table: int
    result: dict[str, Any]
    code: str
    """The code it came from (QR form), or "" for a result entered by the organizer."""
    reason: str = ""
    """Why the organizer entered it by hand (a lost device, a paper score sheet); "" for a code."""


@dataclass(frozen=True)
class ResultHeld:
    TYPE: ClassVar[str] = "result_held"
    round: int
    table: int
    result: dict[str, Any]
    code: str


@dataclass(frozen=True)
class HeldResultSettled:
    TYPE: ClassVar[str] = "held_result_settled"
    round: int
    table: int
    index: int
    taken: bool
    reason: str


@dataclass(frozen=True)
class ResultVoided:
    TYPE: ClassVar[str] = "result_voided"
    round: int
    table: int
    reason: str
    at: str | None = None
    """When, as ISO 8601 local time with its offset; None in logs from before it was kept."""


@dataclass(frozen=True)
class ResultReplaced:
    TYPE: ClassVar[str] = "result_replaced"
    round: int
    table: int
    result: dict[str, Any]
    code: str
    reason: str


@dataclass(frozen=True)
class RollOffRecorded:
    TYPE: ClassVar[str] = "roll_off_recorded"
    round: int
    table: int
    """0 for a tie at a cut over all tables."""
    faces: tuple[tuple[int, int], ...]


@dataclass(frozen=True)
class RoundClosed:
    TYPE: ClassVar[str] = "round_closed"
    round: int
    advancing: tuple[int, ...]


@dataclass(frozen=True)
class RulesSwitched:
    TYPE: ClassVar[str] = "rules_switched"
    round: int
    rules: str


@dataclass(frozen=True)
class PrizeAwarded:
    TYPE: ClassVar[str] = "prize_awarded"
    amount: int
    currency: str
    split: tuple[tuple[int, int], ...]
    note: str


Event = Union[
    TournamentCreated, FormatChanged, PlayerSignedUp, PlayerCheckedIn, PlayerWithdrew, SeatsDrawn, DrawCancelled, CardRevoked,
    ResultRecorded, ResultHeld, HeldResultSettled, ResultVoided, ResultReplaced, RollOffRecorded,
    RoundClosed, RulesSwitched, PrizeAwarded,
]
EVENT_TYPES: Final[dict[str, type[Any]]] = {
    kind.TYPE: kind
    for kind in (
        TournamentCreated, FormatChanged, PlayerSignedUp, PlayerCheckedIn, PlayerWithdrew, SeatsDrawn, DrawCancelled, CardRevoked,
        ResultRecorded, ResultHeld, HeldResultSettled, ResultVoided, ResultReplaced, RollOffRecorded,
        RoundClosed, RulesSwitched, PrizeAwarded,
    )
}
"""Each event class by the ``type`` it is logged under."""


def _json(value: Any) -> Any:
    if isinstance(value, tuple):
        return [_json(item) for item in value]
    return value


def _tuples(value: Any) -> Any:
    if isinstance(value, list):
        return tuple(_tuples(item) for item in value)
    return value


def event_to_dict(event: Event) -> dict[str, Any]:
    """The event as a JSON-ready dict: ``type`` and its fields (those added later only when set)."""
    data: dict[str, Any] = {"type": event.TYPE}
    for item in dataclasses.fields(event):
        value = getattr(event, item.name)
        if value is None and item.default is None:
            continue
        data[item.name] = _json(value)
    return data


def event_from_dict(data: Mapping[str, Any]) -> Event:
    """The event a log entry records; :class:`InvalidInput` quoting the entry if it is not one."""
    kind = EVENT_TYPES.get(str(data.get("type")))
    if kind is None:
        raise InvalidInput(f"The tournament log entry {dict(data)!r} is of an unknown kind.")
    try:
        values = {
            item.name: data[item.name] if isinstance(data[item.name], dict) else _tuples(data[item.name])
            for item in dataclasses.fields(kind)
            if item.name in data or item.default is dataclasses.MISSING  # logs from before a field was added
        }
        event: Event = kind(**values)
    except (KeyError, TypeError) as error:
        raise InvalidInput(f"The tournament log entry {dict(data)!r} is damaged: {error}.") from error
    return event


def result_to_dict(result: TableResult) -> dict[str, Any]:
    """A checked table result as the log keeps it (the signature is not kept: it was checked).

    ``confirmations`` is written only for a code that carried them, so a log of results
    without them reads and writes exactly as before.
    """
    data: dict[str, Any] = {
        "event_id": result.event_id,
        "round": result.round,
        "table": result.table,
        "numbers": list(result.numbers),
        "totals": list(result.totals),
        "places": list(result.places),
        "roll_offs": [[list(pair) for pair in round_] for round_ in result.roll_offs],
        "rules": result.rules.to_dict(),
        "digest": result.digest.hex(),
    }
    if result.confirmations is not None:
        data["confirmations"] = list(result.confirmations)
    return data


def result_from_dict(data: Mapping[str, Any]) -> TableResult:
    return TableResult(
        data["event_id"],
        data["round"],
        data["table"],
        tuple(data["numbers"]),
        tuple(data["totals"]),
        tuple(data["places"]),
        tuple(tuple((seat, face) for seat, face in round_) for round_ in data["roll_offs"]),
        Rules.from_dict(dict(data["rules"])),
        bytes.fromhex(data["digest"]),
        None if data.get("confirmations") is None else tuple(data["confirmations"]),
    )
