"""What the organizer did, as small past-tense events, and how the log keeps them.

The log is the tournament: the organizer's device stores these events as JSON and the
state is their replay (:mod:`engine.tournament.state`). They are logged as a game's
are (:mod:`engine.event_log`), under :data:`TOURNAMENT_LOG`: typed fields, a table's
result as its :class:`~engine.codec.TableResult`, a format as its
:class:`~engine.tournament.format.TournamentFormat`.

>>> data = event_to_dict(PlayerSignedUp(7, "Ann"))
>>> data
{'type': 'player_signed_up', 'number': 7, 'name': 'Ann'}
>>> event_from_dict(data)
PlayerSignedUp(number=7, name='Ann')
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar, Final, Union

from engine.codec import TableResult
from engine.event_log import Codec, Damaged, EventLog, kind_of, record
from engine.tournament.format import Cut, TournamentFormat

__all__ = [
    "MISSING",
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
    "PlaceTaken",
    "PlayerMissing",
    "TOURNAMENT_LOG",
    "event_to_dict",
    "events_to_dicts",
    "event_from_dict",
]


@dataclass(frozen=True)
class TournamentCreated:
    TYPE: ClassVar[str] = "tournament_created"
    name: str
    event_id: str
    secret: bytes
    """The event secret (logged in hex): each table's signing key is derived from it."""
    format: TournamentFormat


@dataclass(frozen=True)
class FormatChanged:
    TYPE: ClassVar[str] = "format_changed"
    format: TournamentFormat


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
    cut: Cut | None = None
    """The cut as scaled for the players seated (logged as ``[kind, count]``); None in logs from
    before it was kept, which scale the format's cut again."""
    keys: int | None = None
    """The scheme of the tables' keys (:mod:`engine.codec.keys`); None in logs from before
    it was kept: scheme 1, a key per event, round and table."""
    draw: str | None = None
    """This draw's own id, part of each table's key under scheme 2: a card of a cancelled
    draw signs nothing that counts. None under scheme 1."""
    at: str | None = None
    """When, as ISO 8601 local time with its offset (the room sees tables "playing since");
    None in logs from before it was kept."""


@dataclass(frozen=True)
class DrawCancelled:
    TYPE: ClassVar[str] = "draw_cancelled"
    round: int
    recut: tuple[int, ...] | None = None
    """When the round before had a result corrected after its cut: who goes on from it
    now, its cut taken again (:mod:`engine.tournament.corrections`), or () when none can be
    taken (a result missing, a tie to roll off) and it is open again. None when nothing
    changes its cut, and in logs from before it was kept."""


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
    result: TableResult
    code: str
    """The code it came from (QR form), or "" for a result entered by the organizer."""
    reason: str = ""
    """Why the organizer entered it by hand (a lost device, a paper score sheet); "" for a code."""
    at: str | None = None
    """When it was counted, as ISO 8601 local time with its offset; None in logs from before it was kept."""


@dataclass(frozen=True)
class ResultHeld:
    TYPE: ClassVar[str] = "result_held"
    round: int
    table: int
    result: TableResult
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
    recut: tuple[int, ...] | None = None
    """When it corrects the round drawn last, after it closed: who goes on from it
    now, its cut taken again (:mod:`engine.tournament.corrections`), or () when none can be
    taken (a result missing, a tie to roll off) and it is open again. None when nothing
    changes its cut, and in logs from before it was kept."""


@dataclass(frozen=True)
class ResultReplaced:
    TYPE: ClassVar[str] = "result_replaced"
    round: int
    table: int
    result: TableResult
    code: str
    reason: str
    recut: tuple[int, ...] | None = None
    """When it corrects the round drawn last, after it closed: who goes on from it
    now, its cut taken again (:mod:`engine.tournament.corrections`), or () when none can be
    taken (a result missing, a tie to roll off) and it is open again. None when nothing
    changes its cut, and in logs from before it was kept."""


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


@dataclass(frozen=True)
class PlaceTaken:
    """A player who made ``round``'s cut withdrew before the next draw, and the next in line
    takes their place (:mod:`engine.tournament.replacements`)."""

    TYPE: ClassVar[str] = "place_taken"
    round: int
    withdrawn: int
    replacement: int
    roll_off: tuple[tuple[int, int], ...] = ()
    """The die each tied next-in-line player threw for the place; () when one was next alone."""


@dataclass(frozen=True)
class PlayerMissing:
    """A player drawn at ``table`` of ``round`` did not come: the table plays without them."""

    TYPE: ClassVar[str] = "player_missing"
    round: int
    table: int
    number: int
    reason: str


MISSING = "did not come"
"""The reason logged for a player marked missing without one: data, kept in English; shown
in the reader's language (:func:`engine.tournament.replay.apply`)."""

Event = Union[
    TournamentCreated, FormatChanged, PlayerSignedUp, PlayerCheckedIn, PlayerWithdrew, SeatsDrawn, DrawCancelled, CardRevoked,
    ResultRecorded, ResultHeld, HeldResultSettled, ResultVoided, ResultReplaced, RollOffRecorded,
    RoundClosed, RulesSwitched, PrizeAwarded, PlaceTaken, PlayerMissing,
]


def _read_format(value: Any, where: str) -> TournamentFormat:
    """A format as logged; not checked again by today's planner (it was when put in place)."""
    if not isinstance(value, dict):
        raise Damaged(f"{where} is {kind_of(value)}, expected an object")
    return TournamentFormat.from_dict(value, check_plans=False)


def _read_cut(value: Any, where: str) -> Cut:
    if not (isinstance(value, list) and len(value) == 2 and isinstance(value[0], str)
            and isinstance(value[1], int) and not isinstance(value[1], bool)):
        raise Damaged(f"{where} is {kind_of(value)}, expected a list of a kind of cut and a whole number")
    return Cut.from_list(value)


_LEAST: Final[dict[str, int]] = {
    "round": 1, "table": 1, "number": 1, "clashes": 0, "spec_index": 0, "keys": 1, "index": 0, "amount": 0,
    "withdrawn": 1, "replacement": 1,
}
"""The least value of each whole-number field, by name; a roll-off's table may be 0 (a tie over all tables)."""


def _range_problem(kind: type[Any], name: str, value: Any) -> str | None:
    """Why a well-typed field holds a value no organizer's action records, or None."""
    least = 0 if (kind, name) == (RollOffRecorded, "table") else _LEAST.get(name)
    if least is not None and isinstance(value, int) and value < least:
        return f"{name} is {value}, expected {least} or more"
    if name in ("tables", "advancing", "recut"):
        numbers = [n for table in value for n in table] if name == "tables" else list(value or ())
        if any(n < 1 for n in numbers) or len(set(numbers)) != len(numbers):
            return f"{name} names a player number below 1 or twice"
    if name in ("faces", "roll_off") and any(not 1 <= face <= 6 for _, face in value):
        return f"{name} has a die face other than 1 to 6"
    if name == "split" and any(number < 1 or amount < 0 for number, amount in value):
        return "split has a player number below 1 or a negative share"
    return None


TOURNAMENT_LOG: Final[EventLog[Event]] = EventLog(
    "tournament",
    (
        TournamentCreated, FormatChanged, PlayerSignedUp, PlayerCheckedIn, PlayerWithdrew, SeatsDrawn, DrawCancelled, CardRevoked,
        ResultRecorded, ResultHeld, HeldResultSettled, ResultVoided, ResultReplaced, RollOffRecorded,
        RoundClosed, RulesSwitched, PrizeAwarded, PlaceTaken, PlayerMissing,
    ),
    values={
        TournamentFormat: Codec(TournamentFormat.to_dict, _read_format),
        Cut: Codec(Cut.to_list, _read_cut),
        TableResult: record(TableResult),
    },
    check=_range_problem,
)
"""How a tournament's events are logged and read back: every field of the type and range
its event declares (a table result's ``confirmations`` only when its code carried them)."""
event_to_dict: Final = TOURNAMENT_LOG.to_dict
events_to_dicts: Final = TOURNAMENT_LOG.to_dicts
event_from_dict: Final = TOURNAMENT_LOG.from_dict
