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
import types
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, ClassVar, Final, Union, get_args, get_origin, get_type_hints

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


MAX_TEXT: Final = 10_000
"""The longest text a log entry keeps: names, reasons and codes are far shorter."""
MAX_ITEMS: Final = 10_000
"""The most items a list in a log entry holds (tables, players going on, roll-off faces)."""
_MAX_WHOLE: Final = 2**63 - 1

_LEAST: Final[dict[str, int]] = {
    "round": 1, "table": 1, "number": 1, "clashes": 0, "spec_index": 0, "keys": 1, "index": 0, "amount": 0,
}
"""The least value of each whole-number field, by name; a roll-off's table may be 0 (a tie over all tables)."""


def _kind_of(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true/false"
    if isinstance(value, int):
        return "a whole number"
    if isinstance(value, (list, tuple)):
        return "a list"
    return {float: "a decimal number", str: "a text", dict: "an object"}.get(type(value), type(value).__name__)


_Check = Callable[[Any, str], "str | None"]
"""Why a value (found at the place named) is not of one field type, or None."""


def _expecting(expected: str, fits: Callable[[Any], bool]) -> _Check:
    def check(value: Any, where: str) -> str | None:
        return None if fits(value) else f"{where} is {_kind_of(value)}, expected {expected}"

    return check


def _check_of(hint: Any) -> _Check:
    """The check of a field type as a dataclass declares it, built once per field on import.

    :raises TypeError: a type this reader has no check for (a new field's): fails on import,
        never on a stored log.
    """
    origin, args = get_origin(hint), get_args(hint)
    if origin in (Union, types.UnionType):
        options = [_check_of(option) for option in args]

        def either(value: Any, where: str) -> str | None:
            reasons = [option(value, where) for option in options]
            return None if None in reasons else next(reason for reason in reasons if reason)

        return either
    if origin is tuple:
        return _list_check(args)
    simple: dict[Any, _Check] = {
        Any: lambda value, where: None,
        type(None): _expecting("nothing (null)", lambda value: value is None),
        str: _expecting(f"a text of at most {MAX_TEXT:,} characters",
                        lambda value: isinstance(value, str) and len(value) <= MAX_TEXT),
        bool: _expecting("true or false", lambda value: isinstance(value, bool)),
        int: _expecting("a whole number", lambda value: isinstance(value, int) and not isinstance(value, bool)
                        and abs(value) <= _MAX_WHOLE),
    }
    if origin is dict:
        return _expecting("an object", lambda value: isinstance(value, dict))
    if hint not in simple:
        raise TypeError(f"No log check for the field type {hint!r}: add one to _check_of.")
    return simple[hint]


def _list_check(args: tuple[Any, ...]) -> _Check:
    """A JSON list of the tuple type's items: any number of one type (``X, ...``), or exactly these."""
    shape = _expecting(f"a list of at most {MAX_ITEMS:,} items",
                       lambda value: isinstance(value, (list, tuple)) and len(value) <= MAX_ITEMS)
    repeated = args[-1] is Ellipsis
    items = [_check_of(item) for item in (args[:1] if repeated else args)]

    def check(value: Any, where: str) -> str | None:
        reason = shape(value, where)
        if reason is not None:
            return reason
        if not repeated and len(value) != len(items):
            return f"{where} is a list of {len(value)} items, expected {len(items)}"
        for position, item in enumerate(value):
            reason = (items[0] if repeated else items[position])(item, f"{where}[{position}]")
            if reason is not None:
                return reason
        return None

    return check


def _range_problem(kind: type[Any], name: str, value: Any) -> str | None:
    """Why a well-typed field holds a value no organizer's action records, or None."""
    least = 0 if (kind, name) == (RollOffRecorded, "table") else _LEAST.get(name)
    if least is not None and isinstance(value, int) and value < least:
        return f"{name} is {value}, expected {least} or more"
    if name in ("tables", "advancing"):
        numbers = [n for table in value for n in table] if name == "tables" else list(value)
        if any(n < 1 for n in numbers) or len(set(numbers)) != len(numbers):
            return f"{name} names a player number below 1 or twice"
    if name == "faces" and any(not 1 <= face <= 6 for _, face in value):
        return "faces has a die face other than 1 to 6"
    if name == "split" and any(number < 1 or amount < 0 for number, amount in value):
        return "split has a player number below 1 or a negative share"
    return None


def event_from_dict(data: Mapping[str, Any]) -> Event:
    """The event a log entry records, every field of the type and range its event declares.

    A log is read from a file anyone may have edited: a field of another type, out of its
    range or past its cap is :class:`InvalidInput` naming the field, never an event that
    breaks a screen later (unknown extra fields are ignored: a newer app may add some).
    """
    if not isinstance(data, Mapping):
        raise InvalidInput(f"A tournament log entry is {_kind_of(data)}, not an object: the log is damaged.")
    kind = EVENT_TYPES.get(str(data.get("type")))
    if kind is None:
        shown = str(data.get("type"))[:40]
        raise InvalidInput(f"The tournament log has an entry of an unknown kind ({shown!r}): it is damaged.")
    checks = _FIELD_CHECKS[kind]
    values: dict[str, Any] = {}
    for item in dataclasses.fields(kind):
        if item.name not in data:
            if item.default is dataclasses.MISSING:  # fields added later have a default: older logs lack them
                raise InvalidInput(f"A {kind.TYPE} entry of the tournament log has no {item.name}: it is damaged.")
            continue
        value = data[item.name]
        reason = checks[item.name](value, item.name) or _range_problem(kind, item.name, value)
        if reason is not None:
            raise InvalidInput(f"A {kind.TYPE} entry of the tournament log is damaged: {reason}.")
        values[item.name] = value if isinstance(value, dict) else _tuples(value)
    event: Event = kind(**values)
    return event


_FIELD_CHECKS: Final[dict[type[Any], dict[str, _Check]]] = {
    kind: {name: _check_of(hint) for name, hint in get_type_hints(kind).items() if name != "TYPE"}
    for kind in EVENT_TYPES.values()
}
"""Each event's field checks, from the types its dataclass declares: the schema a log entry is read with."""


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
