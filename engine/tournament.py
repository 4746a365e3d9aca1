"""A tournament on the organizer's device: what happened is logged, the state is its replay.

Like :class:`engine.game.Game`, every organizer action is checked, recorded as a small
past-tense event, and applied; :meth:`Tournament.from_events` rebuilds the same
tournament and :meth:`Tournament.undo` drops the last action. Results arrive from the
tables as signed codes (:mod:`engine.codec`) and are checked before they count.

Scaling for fewer sign-ups (:meth:`TournamentFormat.plan`): players are seated at tables
of the round's size or one less, as even as possible (a lone table of 5 only for exactly
5 players). A cut of *best k per table* scales by itself with the number of tables. A
cut of *best N totals overall* keeps the same share of the field as the format has at
full size (the house tournament's 32 of 40 is 80 %: 23 players keep 18), rounded to
nearest, at least 2, and lowered when the count could not be seated at the next
round's tables (5 players for tables of 4 become 4). As soon as the players left fit
at one table, the next round is the final.
"""

from __future__ import annotations

import csv
import dataclasses
import io
import random
import secrets
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, Final, Literal, Union

from engine.codec import (
    DIGEST_SIZE,
    ResultImpossible,
    SeatedPlayer,
    TableResult,
    TableSetup,
    check_possible,
    decode_result,
    encode_setup,
    read_code,
    table_key,
)
from engine.errors import IllegalAction, InvalidInput
from engine.ranking import places_from
from engine.ranking import rank_blocks as order_by_roll_offs
from engine.rules import Rules

__all__ = [
    "Cut",
    "RoundSpec",
    "TournamentFormat",
    "RoundPlan",
    "Tournament",
    "Player",
    "ImportReport",
    "RollOffNeeded",
    "Correction",
    "Flag",
    "StandingRow",
    "PlayerLookup",
    "Prize",
    "WrongEvent",
    "WrongRound",
    "WrongTable",
    "WrongPlayers",
    "table_sizes",
]

CutKind = Literal["overall", "per_table", "final"]
_EVENT_ID_CHARS: Final = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"
_MAX_NAME: Final = 40


class WrongEvent(IllegalAction):
    """A genuine-looking result, but from another tournament."""


class WrongRound(IllegalAction):
    """A result for a round that is not being played now."""


class WrongTable(IllegalAction):
    """A result for a table the round does not have."""


class WrongPlayers(IllegalAction):
    """A result whose players are not the ones seated at that table, in that order."""


# -- format ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Cut:
    """Who goes on after a round: best ``count`` totals overall, best ``count`` of each table, or the final's winner."""

    kind: CutKind
    count: int = 1

    @classmethod
    def overall(cls, count: int) -> Cut:
        return cls("overall", count)

    @classmethod
    def per_table(cls, count: int) -> Cut:
        return cls("per_table", count)

    @classmethod
    def table_winners(cls) -> Cut:
        return cls("per_table", 1)

    @classmethod
    def final(cls) -> Cut:
        return cls("final", 1)

    def describe(self) -> str:
        if self.kind == "overall":
            return f"the {self.count} best totals over all tables go on"
        if self.kind == "final":
            return "the winner is the champion"
        if self.count == 1:
            return "each table's winner goes on"
        return f"places 1 to {self.count} of each table go on"


@dataclass(frozen=True)
class RoundSpec:
    """One round of a format: its rules preset, table size and cut."""

    rules: str
    cut: Cut
    table_size: int = 4
    spread: bool = True
    """Keep apart, where possible, players who shared a table in the round before."""
    switch_to: str | None = None
    """A preset the organizer may switch the tables to during the game (the final)."""

    def __post_init__(self) -> None:
        Rules.preset(self.rules)
        if self.switch_to is not None:
            Rules.preset(self.switch_to)
        if not 2 <= self.table_size <= 8:
            raise InvalidInput(f"Tables seat 2 to 8 players, not {self.table_size}.")
        if self.cut.kind not in ("overall", "per_table", "final") or self.cut.count < 1:
            raise InvalidInput(f"{self.cut!r} is not a cut.")


@dataclass(frozen=True)
class RoundPlan:
    """A round as planned or played, shown to the room before it starts."""

    number: int
    name: str
    rules: str
    players: int
    table_sizes: tuple[int, ...]
    cut: Cut
    advancing: int
    """How many go on (1 for the final: the champion)."""
    spec_index: int

    @property
    def is_final(self) -> bool:
        return self.cut.kind == "final"

    def describe(self) -> str:
        tables = Counter(self.table_sizes)
        seating = " and ".join(
            f"{count} table{'s' if count > 1 else ''} of {size}" for size, count in sorted(tables.items(), reverse=True)
        )
        return f"{self.name}: {self.players} players, {seating}, {self.rules} rules; {self.cut.describe()}."


def table_sizes(players: int, size: int) -> tuple[int, ...]:
    """Tables of ``size`` or ``size - 1`` as even as possible, biggest first.

    >>> table_sizes(23, 4), table_sizes(10, 4), table_sizes(5, 4)
    ((4, 4, 4, 4, 4, 3), (4, 3, 3), (5,))
    """
    count, small, extra = _table_shape(players, size)
    return (small + 1,) * extra + (small,) * (count - extra)


def _table_shape(players: int, size: int) -> tuple[int, int, int]:
    """(tables, players at the smaller tables, how many tables have one more)."""
    if players < 2:
        raise IllegalAction(f"{players} player{'s' if players != 1 else ''} cannot make a table: a game needs 2.")
    count = -(-players // size)
    while count > 1 and players // count < size - 1:
        count -= 1
    return count, players // count, players % count


@dataclass(frozen=True)
class TournamentFormat:
    """Player cap and rounds; the last round is the final (one table)."""

    name: str
    cap: int
    rounds: tuple[RoundSpec, ...]

    def __post_init__(self) -> None:
        if not 2 <= self.cap <= 10_000:
            raise InvalidInput(f"A player cap of {self.cap} is not possible: 2 to 10,000.")
        if not self.rounds or self.rounds[-1].cut.kind != "final":
            raise InvalidInput("A format ends with a final round.")
        if any(spec.cut.kind == "final" for spec in self.rounds[:-1]):
            raise InvalidInput("Only the last round of a format can be the final.")
        for players in range(2, self.cap + 1):
            plans = self.plan(players)
            if plans[-1].players > self.rounds[-1].table_size:
                raise InvalidInput(
                    f"With {players} players this format brings {plans[-1].players} to a final table of "
                    f"{self.rounds[-1].table_size}: cut more before the final."
                )

    @classmethod
    def house(cls) -> TournamentFormat:
        """The seed's event: 40 players; house to top 32; progressive, 2 per table; house, winners; final."""
        return cls(
            "House tournament",
            40,
            (
                RoundSpec("house", Cut.overall(32)),
                RoundSpec("progressive", Cut.per_table(2)),
                RoundSpec("house", Cut.table_winners()),
                RoundSpec("house", Cut.final(), switch_to="progressive"),
            ),
        )

    @property
    def final_size(self) -> int:
        return self.rounds[-1].table_size

    def round_name(self, number: int, spec_index: int) -> str:
        return "Final" if spec_index == len(self.rounds) - 1 else f"Round {number}"

    def nominal_players(self, spec_index: int) -> int:
        """Players entering round ``spec_index`` when the event is full: the base for scaling."""
        players = self.cap
        for index in range(spec_index):
            players = self._advancing(index, players, scale=False)
        return players

    def scaled_cut(self, spec_index: int, players: int) -> Cut:
        """The round's cut for ``players`` entrants (see the module docstring)."""
        spec = self.rounds[spec_index]
        if spec.cut.kind != "overall":
            return spec.cut
        nominal = self.nominal_players(spec_index)
        count = (2 * players * spec.cut.count + nominal) // (2 * nominal)
        count = max(2, min(count, spec.cut.count, players))
        next_size = self.rounds[min(spec_index + 1, len(self.rounds) - 1)].table_size
        while count > 2 and count > self.final_size and not self._seatable(count, next_size):
            count -= 1
        return Cut.overall(count)

    def plan(self, players: int, first_number: int = 1, spec_index: int = 0) -> tuple[RoundPlan, ...]:
        """The rounds ahead for ``players`` entrants, from round ``first_number`` on."""
        plans: list[RoundPlan] = []
        number = first_number
        while True:
            if players <= self.final_size or spec_index >= len(self.rounds) - 1:
                spec_index = len(self.rounds) - 1
            spec = self.rounds[spec_index]
            cut = self.scaled_cut(spec_index, players)
            sizes = (players,) if cut.kind == "final" else table_sizes(players, spec.table_size)
            advancing = self._advancing(spec_index, players)
            plans.append(
                RoundPlan(number, self.round_name(number, spec_index), spec.rules, players, sizes, cut, advancing, spec_index)
            )
            if cut.kind == "final":
                return tuple(plans)
            players, number, spec_index = advancing, number + 1, spec_index + 1

    def _advancing(self, spec_index: int, players: int, scale: bool = True) -> int:
        spec = self.rounds[spec_index]
        if spec.cut.kind == "final":
            return 1
        if spec.cut.kind == "overall":
            return self.scaled_cut(spec_index, players).count if scale else min(spec.cut.count, players)
        count, small, extra = _table_shape(players, spec.table_size)
        k = spec.cut.count
        return extra * min(k, small + 1) + (count - extra) * min(k, small)

    @staticmethod
    def _seatable(players: int, size: int) -> bool:
        _, small, extra = _table_shape(players, size)
        return small >= size - 1 and small + (1 if extra else 0) <= size

    def to_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "cap": self.cap,
            "rounds": [
                {
                    "rules": spec.rules,
                    "cut": [spec.cut.kind, spec.cut.count],
                    "table_size": spec.table_size,
                    "spread": spec.spread,
                    "switch_to": spec.switch_to,
                }
                for spec in self.rounds
            ],
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> TournamentFormat:
        try:
            rounds = tuple(
                RoundSpec(
                    spec["rules"],
                    Cut(spec["cut"][0], int(spec["cut"][1])),
                    int(spec["table_size"]),
                    bool(spec["spread"]),
                    spec["switch_to"],
                )
                for spec in data["rounds"]
            )
            return cls(str(data["name"]), int(data["cap"]), rounds)
        except (KeyError, TypeError, IndexError) as error:
            raise InvalidInput(f"The tournament format {dict(data)!r} is damaged: {error}.") from error


# -- events ------------------------------------------------------------------------------


@dataclass(frozen=True)
class TournamentCreated:
    TYPE: ClassVar[str] = "tournament_created"
    name: str
    event_id: str
    secret: str
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
    TYPE: ClassVar[str] = "seats_drawn"
    round: int
    seed: int
    tables: tuple[tuple[int, ...], ...]
    clashes: int


@dataclass(frozen=True)
class DrawCancelled:
    TYPE: ClassVar[str] = "draw_cancelled"
    round: int


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
    TournamentCreated, FormatChanged, PlayerSignedUp, PlayerCheckedIn, PlayerWithdrew, SeatsDrawn, DrawCancelled,
    ResultRecorded, ResultHeld, HeldResultSettled, ResultVoided, ResultReplaced, RollOffRecorded,
    RoundClosed, RulesSwitched, PrizeAwarded,
]
_EVENT_TYPES: Final[dict[str, type[Any]]] = {
    kind.TYPE: kind
    for kind in (
        TournamentCreated, FormatChanged, PlayerSignedUp, PlayerCheckedIn, PlayerWithdrew, SeatsDrawn, DrawCancelled,
        ResultRecorded, ResultHeld, HeldResultSettled, ResultVoided, ResultReplaced, RollOffRecorded,
        RoundClosed, RulesSwitched, PrizeAwarded,
    )
}


def _json(value: Any) -> Any:
    if isinstance(value, tuple):
        return [_json(item) for item in value]
    return value


def _tuples(value: Any) -> Any:
    if isinstance(value, list):
        return tuple(_tuples(item) for item in value)
    return value


def _event_to_dict(event: Event) -> dict[str, Any]:
    data: dict[str, Any] = {"type": event.TYPE}
    for item in dataclasses.fields(event):
        data[item.name] = _json(getattr(event, item.name))
    return data


def _event_from_dict(data: Mapping[str, Any]) -> Event:
    kind = _EVENT_TYPES.get(str(data.get("type")))
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


def _result_to_dict(result: TableResult) -> dict[str, Any]:
    return {
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


def _result_from_dict(data: Mapping[str, Any]) -> TableResult:
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
    )


# -- state values ------------------------------------------------------------------------


@dataclass(frozen=True)
class Player:
    number: int
    name: str
    checked_in: bool = False
    withdrawn: bool = False
    reason: str = ""


@dataclass(frozen=True)
class ImportReport:
    """What became of a result code: counted, a duplicate, or held for the organizer."""

    status: Literal["accepted", "duplicate", "held"]
    round: int
    table: int
    message: str


@dataclass(frozen=True)
class RollOffNeeded:
    """A tie at a cut: these players throw one die each before anyone goes on."""

    round: int
    table: int
    """0: a tie over all tables (best N totals)."""
    numbers: tuple[int, ...]
    total: int
    places: tuple[int, int]
    """First and last place the tied players are competing for."""

    def describe(self) -> str:
        where = "over all tables" if self.table == 0 else f"at table {self.table}"
        first, last = self.places
        return (
            f"Round {self.round}: players {', '.join(map(str, self.numbers))} are tied on {self.total:,} {where} "
            f"for places {first} to {last}: record their roll-off."
        )


@dataclass(frozen=True)
class Correction:
    round: int
    table: int
    kind: Literal["voided", "replaced", "held result taken", "held result dismissed"]
    reason: str
    after_close: bool


@dataclass(frozen=True)
class Flag:
    """Something recorded earlier rests on a result that was corrected since."""

    round: int
    table: int
    message: str


@dataclass(frozen=True)
class StandingRow:
    rank: int
    number: int
    name: str
    status: str
    totals: tuple[int | None, ...]
    """Each round's total, None where the player did not play or has no result yet."""
    round: int
    """The last round the player was seated in (0: none yet)."""


@dataclass(frozen=True)
class PlayerLookup:
    """A player found by name or number: where they sit now and how they stand."""

    number: int
    name: str
    status: str
    round: int
    table: int | None
    seat: int | None
    """From 1, in playing order."""
    rank: int


@dataclass(frozen=True)
class Prize:
    champion: int
    amount: int
    currency: str
    split: tuple[tuple[int, int], ...]
    note: str


@dataclass
class _Recorded:
    result: TableResult
    code: str
    reason: str = ""


@dataclass
class _Round:
    number: int
    spec_index: int
    seed: int
    tables: tuple[tuple[int, ...], ...]
    clashes: int
    results: dict[int, _Recorded] = field(default_factory=dict)
    held: dict[int, list[_Recorded]] = field(default_factory=dict)
    roll_offs: dict[int, list[tuple[tuple[int, int], ...]]] = field(default_factory=dict)
    advancing: tuple[int, ...] | None = None
    rules_switched: str | None = None
    corrections: list[Correction] = field(default_factory=list)

    @property
    def closed(self) -> bool:
        return self.advancing is not None


# -- the tournament ----------------------------------------------------------------------


class Tournament:
    """One event, from sign-up to the champion's prize.

    >>> t = Tournament("Spring cup", event_id="SPRING-26", secret=bytes(16))
    >>> for name in ["Ann", "Bob", "Cy", "Di", "Ed", "Flo"]:
    ...     t.check_in(t.sign_up(name))
    >>> [plan.describe() for plan in t.plan()]  # doctest: +NORMALIZE_WHITESPACE
    ['Round 1: 6 players, 2 tables of 3, house rules; the 4 best totals over all tables go on.',
     'Final: 4 players, 1 table of 4, house rules; the winner is the champion.']
    """

    def __init__(
        self,
        name: str,
        format: TournamentFormat | None = None,
        *,
        event_id: str | None = None,
        secret: bytes | None = None,
    ) -> None:
        name = name.strip() if isinstance(name, str) else ""
        if not name:
            raise InvalidInput("The tournament needs a name.")
        if event_id is None:
            event_id = "FT-" + "".join(secrets.choice(_EVENT_ID_CHARS) for _ in range(6))
        event_id = event_id.strip().upper()
        if not 1 <= len(event_id) <= 16 or any(char not in "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-" for char in event_id):
            raise InvalidInput(f"{event_id!r} cannot be an event id: 1 to 16 letters, digits or dashes.")
        secret = secrets.token_bytes(16) if secret is None else secret
        if len(secret) < 16:
            raise InvalidInput("The event secret must be at least 16 bytes.")
        fmt = format or TournamentFormat.house()
        self._events: list[Event] = []
        self._reset()
        self._push(TournamentCreated(name, event_id, secret.hex(), fmt.to_dict()))

    def _reset(self) -> None:
        self.name = ""
        self.event_id = ""
        self._secret = b""
        self.format = TournamentFormat.house()
        self._players: dict[int, Player] = {}
        self._names: dict[str, int] = {}
        self._rounds: list[_Round] = []
        self._prize: Prize | None = None
        self._cache: dict[str, Any] = {}

    @classmethod
    def from_events(cls, events: Iterable[Mapping[str, Any]]) -> Tournament:
        """Rebuild a tournament from its log (as kept by :attr:`events`)."""
        items = [_event_from_dict(data) for data in events]
        if not items or not isinstance(items[0], TournamentCreated):
            raise InvalidInput("A tournament log must begin with the tournament's creation.")
        tournament = cls.__new__(cls)
        tournament._events = []
        tournament._reset()
        for position, event in enumerate(items, 1):
            try:
                tournament._push(event)
            except (KeyError, IndexError, TypeError, ValueError) as error:
                if isinstance(error, InvalidInput):
                    raise
                raise InvalidInput(f"The tournament log is damaged at entry {position} ({event.TYPE}): {error!r}.") from error
        return tournament

    @property
    def events(self) -> list[dict[str, Any]]:
        """The whole log as JSON-ready dicts."""
        return [_event_to_dict(event) for event in self._events]

    def undo(self) -> None:
        """Take back the last organizer action (the state is rebuilt from the rest)."""
        if len(self._events) == 1:
            raise IllegalAction("Nothing to undo: the tournament has just been created.")
        kept = self._events[:-1]
        self._events = []
        self._reset()
        for event in kept:
            self._push(event)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Tournament):
            return NotImplemented
        return self._events == other._events

    def __hash__(self) -> int:
        raise TypeError("A tournament changes as it is run; it cannot be hashed.")

    def __repr__(self) -> str:
        return f"<Tournament {self.name!r} ({self.event_id}): {len(self._players)} players, {len(self._rounds)} rounds>"

    def change_format(self, fmt: TournamentFormat) -> bool:
        """Put another format in place before round 1 is drawn; False if it is the same one.

        Refused once a round is drawn (the seating rests on it) and when more players are
        signed up than the new cap seats.
        """
        if not isinstance(fmt, TournamentFormat):
            raise InvalidInput(f"{fmt!r} is not a tournament format.")
        if self._rounds:
            raise IllegalAction("Round 1 is drawn: the format is fixed for the rest of the event.")
        active = sum(not player.withdrawn for player in self._players.values())
        if active > fmt.cap:
            raise IllegalAction(
                f"{active} players are signed up: a cap of {fmt.cap} would leave {active - fmt.cap} without a seat "
                "(withdraw players first, or keep a higher cap)."
            )
        if fmt.to_dict() == self.format.to_dict():
            return False
        self._push(FormatChanged(fmt.to_dict()))
        return True

    # -- players -------------------------------------------------------------------------

    @property
    def players(self) -> tuple[Player, ...]:
        return tuple(self._players[number] for number in sorted(self._players))

    def player(self, number: int) -> Player:
        if number not in self._players:
            raise InvalidInput(f"There is no player number {number!r}.")
        return self._players[number]

    def sign_up(self, name: str, number: int | None = None) -> int:
        """Sign a player up; returns their number (the next free one unless given)."""
        name = " ".join(name.split()) if isinstance(name, str) else ""
        if not name or len(name) > _MAX_NAME:
            raise InvalidInput(f"A player needs a name of 1 to {_MAX_NAME} characters, not {name!r}.")
        if self._rounds:
            raise IllegalAction(f"Round 1 is drawn: sign-ups are closed, so {name} cannot join.")
        active = sum(not player.withdrawn for player in self._players.values())
        if active >= self.format.cap:
            raise IllegalAction(f"The event is full ({self.format.cap} players): {name} cannot sign up.")
        if name.casefold() in self._names:
            other = self._names[name.casefold()]
            raise IllegalAction(f"{name!r} is already signed up as number {other}: add something to tell them apart.")
        if number is None:
            number = max(self._players, default=0) + 1
        if isinstance(number, bool) or not isinstance(number, int) or not 1 <= number <= 99_999:
            raise InvalidInput(f"{number!r} is not a player number: use 1 to 99999.")
        if number in self._players:
            raise IllegalAction(f"Number {number} is already {self._players[number].name}'s: choose another for {name}.")
        self._push(PlayerSignedUp(number, name))
        return number

    def check_in(self, number: int) -> None:
        player = self.player(number)
        if self._rounds:
            raise IllegalAction(f"Round 1 is drawn: check-in is closed ({player.name}, number {number}).")
        if player.withdrawn:
            raise IllegalAction(f"{player.name} (number {number}) has withdrawn and cannot check in.")
        if player.checked_in:
            raise IllegalAction(f"{player.name} (number {number}) is already checked in.")
        self._push(PlayerCheckedIn(number))

    def withdraw(self, number: int, reason: str = "") -> None:
        """Withdraw a player before a round: they are not seated in any later round."""
        player = self.player(number)
        if player.withdrawn:
            raise IllegalAction(f"{player.name} (number {number}) has already withdrawn.")
        if self.champion is not None:
            raise IllegalAction(f"The event is over: {player.name} (number {number}) can no longer withdraw.")
        if self._rounds:
            last = self._rounds[-1]
            seated = self._seat_of(last, number)
            if seated is not None and not last.closed:
                raise IllegalAction(
                    f"{player.name} (number {number}) is seated at table {seated[0]} of round {last.number}, "
                    "which is being played: a withdrawal takes effect before a round (cancel the draw first)."
                )
            if number not in self._entrants():
                raise IllegalAction(f"{player.name} (number {number}) is already out of the event.")
        self._push(PlayerWithdrew(number, reason.strip()))

    # -- rounds and seating --------------------------------------------------------------

    @property
    def round(self) -> int:
        """The number of the round drawn last (0 before the first draw)."""
        return len(self._rounds)

    @property
    def round_open(self) -> bool:
        """A round is drawn and not yet closed."""
        return bool(self._rounds) and not self._rounds[-1].closed

    @property
    def champion(self) -> int | None:
        if self._rounds and self._rounds[-1].closed and self._is_final(self._rounds[-1]):
            advancing = self._rounds[-1].advancing
            return advancing[0] if advancing else None
        return None

    def _is_final(self, round_: _Round) -> bool:
        return self.format.rounds[round_.spec_index].cut.kind == "final"

    def _entrants(self) -> tuple[int, ...]:
        """Who would be seated in the next round, in number order."""
        if not self._rounds:
            return tuple(n for n, p in sorted(self._players.items()) if p.checked_in and not p.withdrawn)
        last = self._rounds[-1]
        base = last.advancing if last.closed else tuple(n for table in last.tables for n in table)
        return tuple(sorted(n for n in base or () if not self._players[n].withdrawn))

    def plan(self) -> tuple[RoundPlan, ...]:
        """Every round, as played so far and as planned from now (with the cuts scaled)."""
        plans: list[RoundPlan] = []
        for round_ in self._rounds:
            spec = self.format.rounds[round_.spec_index]
            players = sum(len(table) for table in round_.tables)
            cut = self.format.scaled_cut(round_.spec_index, players)
            advancing = len(round_.advancing) if round_.advancing is not None else self.format._advancing(round_.spec_index, players)
            plans.append(
                RoundPlan(
                    round_.number, self.format.round_name(round_.number, round_.spec_index),
                    round_.rules_switched or spec.rules, players,
                    tuple(len(table) for table in round_.tables), cut, advancing, round_.spec_index,
                )
            )
        if self.champion is not None:
            return tuple(plans)
        if self._rounds and not self._rounds[-1].closed:
            last = plans[-1]
            if last.is_final:
                return tuple(plans)
            upcoming = max(last.advancing, 2)
            return tuple(plans) + self.format.plan(upcoming, last.number + 1, last.spec_index + 1)
        entrants = len(self._entrants())
        if entrants < 2:
            return tuple(plans)
        spec_index = self._rounds[-1].spec_index + 1 if self._rounds else 0
        return tuple(plans) + self.format.plan(entrants, len(self._rounds) + 1, spec_index)

    def next_round(self) -> RoundPlan:
        """The round the next draw will seat."""
        if self.champion is not None:
            raise IllegalAction(f"The event is over: {self._label(self.champion)} is the champion.")
        if self.round_open:
            raise IllegalAction(f"Round {self.round} is still being played: close it before drawing the next.")
        entrants = self._entrants()
        if len(entrants) < 2:
            if self._rounds:
                raise IllegalAction(f"Only {len(entrants)} player is left: there is no round to draw.")
            who = "Nobody has" if not entrants else "Only one player has"
            raise IllegalAction(f"{who} checked in: a round needs at least 2 players.")
        return self.plan()[len(self._rounds)]

    def draw_seats(self, seed: int | None = None) -> tuple[tuple[int, ...], ...]:
        """Seat the next round at random, reproducibly: the seed is recorded with the draw.

        Players who shared a table in the round before are spread over different tables
        where the numbers allow; the clashes left are recorded too.
        """
        plan = self.next_round()
        if seed is None:
            seed = secrets.randbelow(2**32)
        if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
            raise InvalidInput(f"{seed!r} is not a draw seed: a whole number, 0 or more.")
        tables, clashes = self._draw(plan, seed)
        self._push(SeatsDrawn(plan.number, seed, tables, clashes))
        return tables

    def rerun_draw(self, round_number: int) -> tuple[tuple[int, ...], ...]:
        """Re-run a recorded draw from its seed, to show the room it was not arranged."""
        round_ = self._round(round_number)
        players = sum(len(table) for table in round_.tables)
        cut = self.format.scaled_cut(round_.spec_index, players)
        spec = self.format.rounds[round_.spec_index]
        sizes = (players,) if cut.kind == "final" else table_sizes(players, spec.table_size)
        plan = RoundPlan(round_.number, "", spec.rules, players, sizes, cut, 0, round_.spec_index)
        entrants = tuple(sorted(n for table in round_.tables for n in table))
        return self._draw(plan, round_.seed, entrants)[0]

    def _draw(
        self, plan: RoundPlan, seed: int, entrants: tuple[int, ...] | None = None
    ) -> tuple[tuple[tuple[int, ...], ...], int]:
        rng = random.Random(seed)
        players = list(self._entrants() if entrants is None else entrants)
        rng.shuffle(players)
        sizes = plan.table_sizes
        spec = self.format.rounds[plan.spec_index]
        previous: dict[int, int] = {}
        if spec.spread and plan.number > 1:
            before = self._rounds[plan.number - 2]
            previous = {n: index for index, table in enumerate(before.tables) for n in table}
        groups: dict[int, list[int]] = {}
        for number in players:
            groups.setdefault(previous.get(number, -1 - number), []).append(number)
        order = [n for group in sorted(groups.values(), key=len, reverse=True) for n in group]
        tables: list[list[int]] = [[] for _ in sizes]
        met: list[Counter[int]] = [Counter() for _ in sizes]
        ties = list(range(len(sizes)))
        rng.shuffle(ties)
        clashes = 0
        for number in order:
            group = previous.get(number, -1 - number)
            best = min(
                (index for index in range(len(sizes)) if len(tables[index]) < sizes[index]),
                key=lambda index: (met[index][group], len(tables[index]) * 12 // sizes[index], ties[index]),
            )
            clashes += met[best][group]
            tables[best].append(number)
            met[best][group] += 1
        for table in tables:
            rng.shuffle(table)
        return tuple(tuple(table) for table in tables), clashes

    def cancel_draw(self) -> None:
        """Undo the current round's draw (nothing recorded for it yet), e.g. for a withdrawal."""
        round_ = self._open_round()
        if round_.results or round_.held or round_.roll_offs:
            raise IllegalAction(f"Round {round_.number} already has results: its draw can no longer be cancelled.")
        self._push(DrawCancelled(round_.number))

    def seating(self, round_number: int | None = None) -> tuple[tuple[int, ...], ...]:
        """Player numbers at each table (table 1 first), in seat order."""
        return self._round(round_number).tables

    def round_advancing(self, round_number: int | None = None) -> tuple[int, ...] | None:
        """Who went on from a round, as recorded when it closed (None while it is played)."""
        return self._round(round_number).advancing

    def draw_info(self, round_number: int | None = None) -> tuple[int, int]:
        """(seed, clashes) of a round's draw: shown so anyone can re-run it."""
        round_ = self._round(round_number)
        return round_.seed, round_.clashes

    def rules_for(self, round_number: int | None = None) -> Rules:
        round_ = self._round(round_number)
        spec = self.format.rounds[round_.spec_index]
        return Rules.preset(round_.rules_switched or spec.rules)

    def switch_rules(self) -> None:
        """The organizer switches the final to its alternative rules (the seed: progressive)."""
        round_ = self._open_round()
        spec = self.format.rounds[round_.spec_index]
        if spec.switch_to is None:
            raise IllegalAction(f"Round {round_.number} is played under {spec.rules} rules throughout: no switch allowed.")
        if round_.rules_switched:
            raise IllegalAction(f"Round {round_.number} is already switched to {round_.rules_switched} rules.")
        self._push(RulesSwitched(round_.number, spec.switch_to))

    def setup(self, table: int, link_base: str = "") -> TableSetup:
        """What the table's device needs for the current round (see :func:`engine.codec.encode_setup`)."""
        round_ = self._open_round()
        numbers = self._table(round_, table)
        spec = self.format.rounds[round_.spec_index]
        switch = Rules.preset(spec.switch_to) if spec.switch_to and not round_.rules_switched else None
        return TableSetup(
            self.event_id,
            round_.number,
            table,
            tuple(SeatedPlayer(n, self._players[n].name) for n in numbers),
            self.rules_for(round_.number),
            table_key(self._secret, self.event_id, round_.number, table),
            switch,
            link_base,
        )

    def setup_code(self, table: int, link_base: str = "") -> str:
        return encode_setup(self.setup(table, link_base))

    # -- results -------------------------------------------------------------------------

    def check_result(self, code: str, *, correcting: bool = False) -> TableResult:
        """Read and check a result code against the event; raises with the reason it is refused.

        In order: damaged (:class:`CodeDamaged`), another event (:class:`WrongEvent`), altered
        (:class:`CodeAltered`), another round or table, players not seated there,
        impossible totals or places (:class:`ResultImpossible`). ``correcting`` allows a
        closed round (for :meth:`replace_result`).
        """
        return self._placed(self._authentic(code), correcting)

    def _authentic(self, code: str) -> TableResult:
        """Readable, of this event, and signed with the key of the table it names."""
        signed = decode_result(code)
        result = signed.result
        if result.event_id != self.event_id:
            raise WrongEvent(
                f"This result is from event {result.event_id}, not this one ({self.event_id}): refused."
            )
        return signed.verify(table_key(self._secret, self.event_id, result.round, result.table))

    def _placed(self, result: TableResult, correcting: bool) -> TableResult:
        """For a table of a round being played, by its players, possible under its rules."""
        if not 1 <= result.round <= len(self._rounds):
            raise WrongRound(
                f"This result is for round {result.round}, which has not been drawn"
                + (f" (round {self.round} is the latest)." if self._rounds else ".")
            )
        round_ = self._rounds[result.round - 1]
        if round_.closed and not correcting:
            now = f"round {self.round} is being played" if self.round_open else "no round is being played"
            raise WrongRound(
                f"This result is for round {round_.number}, table {result.table}, which is closed ({now}): "
                "it does not count. To correct a closed round, replace the result with a reason."
            )
        if not 1 <= result.table <= len(round_.tables):
            raise WrongTable(
                f"This result is for table {result.table}, but round {round_.number} has {len(round_.tables)} tables."
            )
        seated = round_.tables[result.table - 1]
        if result.numbers != seated:
            strangers = [n for n in result.numbers if n not in seated]
            if strangers:
                where = ", ".join(self._where(round_, n) for n in strangers)
                problem = f"{where} {'is' if len(strangers) == 1 else 'are'} not seated there"
            else:
                problem = "the seat order differs"
            raise WrongPlayers(
                f"Round {round_.number}, table {result.table} seats {', '.join(map(str, seated))}; this result has "
                f"{', '.join(map(str, result.numbers))}: {problem}. Was it played from an old setup code?"
            )
        self._check_rules(round_, result)
        check_possible(result, result.rules)
        return result

    def import_result(self, code: str) -> ImportReport:
        """Check a result code and count it; a second copy is a duplicate, a different one is held.

        A copy of a counted result is reported as a duplicate even once its round is
        closed (scanning a table's code twice is harmless); any other result for a closed
        round is refused as another round.
        """
        result = self._authentic(code)
        where = f"Round {result.round}, table {result.table}"
        if 1 <= result.round <= len(self._rounds):
            round_ = self._rounds[result.round - 1]
            recorded = round_.results.get(result.table)
            if recorded is not None and recorded.result == result:
                return ImportReport("duplicate", result.round, result.table, f"{where}: this result is already counted (duplicate).")
            if any(held.result == result for held in round_.held.get(result.table, [])):
                return ImportReport("duplicate", result.round, result.table, f"{where}: this result is already held (duplicate).")
        self._placed(result, correcting=False)
        code = read_code(code)
        round_ = self._rounds[result.round - 1]
        recorded = round_.results.get(result.table)
        if recorded is not None:
            self._push(ResultHeld(result.round, result.table, _result_to_dict(result), code))
            return ImportReport(
                "held", result.round, result.table,
                f"{where} already has a different result: this one is held for the organizer to choose.",
            )
        self._push(ResultRecorded(result.round, result.table, _result_to_dict(result), code))
        return ImportReport("accepted", result.round, result.table, f"{where}: result counted ({self._summary(result)}).")

    def record_result(
        self, table: int, totals: Sequence[int], roll_offs: Sequence[Mapping[int, int]] = (), *, reason: str = ""
    ) -> TableResult:
        """The organizer enters a table's result by hand (totals in seat order), e.g. from a paper score sheet.

        It is checked as a result code is (the players seated there, totals and places
        possible under the round's rules) and kept as entered by hand, with ``reason``.
        A tie for the win without a roll-off is accepted here: the roll-off is then
        recorded with :meth:`record_roll_off` before the round can close.
        """
        round_ = self._open_round()
        if table in round_.results:
            raise IllegalAction(f"Table {table} of round {round_.number} already has a result: replace it with a reason instead.")
        result = self._manual(round_, table, totals, roll_offs)
        self._push(ResultRecorded(round_.number, table, _result_to_dict(result), "", " ".join(reason.split())))
        return result

    def result_source(self, round_number: int, table: int) -> tuple[str, str]:
        """How a counted result arrived: ("code" or "entered" by hand, the reason kept with it)."""
        recorded = self._round(round_number).results.get(table)
        if recorded is None:
            raise IllegalAction(f"Round {round_number}, table {table} has no result.")
        return ("code" if recorded.code else "entered"), recorded.reason

    def _manual(self, round_: _Round, table: int, totals: Sequence[int], roll_offs: Sequence[Mapping[int, int]]) -> TableResult:
        numbers = self._table(round_, table)
        totals = tuple(totals)
        if len(totals) != len(numbers):
            raise InvalidInput(f"Table {table} seats {len(numbers)} players: enter {len(numbers)} totals, not {len(totals)}.")
        seat = {n: index for index, n in enumerate(numbers)}
        try:
            rounds = tuple(tuple(sorted((seat[n], face) for n, face in faces.items())) for faces in roll_offs)
        except KeyError as error:
            raise InvalidInput(f"Player {error.args[0]} is not at table {table}: only its players roll off.") from error
        try:
            places = places_from(totals, rounds)
        except InvalidInput as error:
            raise ResultImpossible(f"Round {round_.number}, table {table}: {error}") from error
        result = TableResult(
            self.event_id, round_.number, table, numbers, totals, places, rounds,
            self.rules_for(round_.number), bytes(DIGEST_SIZE),
        )
        check_possible(result, result.rules, need_roll_off=False)
        return result

    def _check_rules(self, round_: _Round, result: TableResult) -> None:
        spec = self.format.rounds[round_.spec_index]
        allowed = [Rules.preset(spec.rules)] + ([Rules.preset(spec.switch_to)] if spec.switch_to else [])
        if result.rules not in allowed:
            names = " or ".join(rules.describe() for rules in allowed)
            raise ResultImpossible(
                f"Round {round_.number}, table {result.table} was played under other rules ({result.rules.describe()}); "
                f"this round is played under {names}."
            )

    def void_result(self, round_number: int, table: int, reason: str) -> None:
        """Strike a table's result out; the reason is kept and what depended on it is flagged."""
        round_ = self._round(round_number)
        self._need_reason(reason)
        if table not in round_.results:
            raise IllegalAction(f"Round {round_.number}, table {table} has no result to void.")
        self._push(ResultVoided(round_.number, table, reason.strip()))

    def replace_result(
        self,
        round_number: int,
        table: int,
        reason: str,
        *,
        code: str | None = None,
        totals: Sequence[int] | None = None,
        roll_offs: Sequence[Mapping[int, int]] = (),
    ) -> None:
        """Put another result in a table's place, from a code or typed totals, with the reason kept."""
        round_ = self._round(round_number)
        self._need_reason(reason)
        if (code is None) == (totals is None):
            raise InvalidInput("Replace a result with either a result code or the totals, not both or neither.")
        if code is not None:
            result = self.check_result(code, correcting=True)
            if (result.round, result.table) != (round_.number, table):
                raise WrongTable(f"That code is for round {result.round}, table {result.table}, not round {round_.number}, table {table}.")
            source = read_code(code)
        else:
            result = self._manual(round_, table, totals or (), roll_offs)
            source = ""
        self._push(ResultReplaced(round_.number, table, _result_to_dict(result), source, reason.strip()))

    def held_results(self) -> tuple[tuple[int, int, TableResult, TableResult | None], ...]:
        """(round, table, held result, result counted now) for every conflict awaiting a choice."""
        return tuple(
            (round_.number, table, held.result, round_.results[table].result if table in round_.results else None)
            for round_ in self._rounds
            for table, items in sorted(round_.held.items())
            for held in items
        )

    def settle_held(self, table: int, take: bool, reason: str, index: int = 0) -> None:
        """Choose between the counted result and a held one (``take=True``: the held one counts)."""
        round_ = self._open_round()
        self._need_reason(reason)
        items = round_.held.get(table, [])
        if not 0 <= index < len(items):
            raise IllegalAction(f"Round {round_.number}, table {table} has no held result number {index + 1}.")
        self._push(HeldResultSettled(round_.number, table, index, take, reason.strip()))

    def missing_tables(self) -> tuple[int, ...]:
        """Tables of the current round still without a result."""
        if not self.round_open:
            return ()
        round_ = self._rounds[-1]
        return tuple(table for table in range(1, len(round_.tables) + 1) if table not in round_.results)

    def results(self, round_number: int | None = None) -> dict[int, TableResult]:
        round_ = self._round(round_number)
        return {table: recorded.result for table, recorded in sorted(round_.results.items())}

    def corrections(self) -> tuple[Correction, ...]:
        return tuple(item for round_ in self._rounds for item in round_.corrections)

    # -- cuts and roll-offs --------------------------------------------------------------

    def pending_roll_offs(self, round_number: int | None = None) -> tuple[RollOffNeeded, ...]:
        """Ties at the cut that block the round from closing (only once every table has a result)."""
        round_ = self._round(round_number)
        return self._cut(round_)[1]

    def record_roll_off(self, table: int, faces: Mapping[int, int]) -> None:
        """The die each tied player threw at a cut (``table`` 0: a tie over all tables)."""
        round_ = self._open_round()
        for number, face in faces.items():
            if isinstance(face, bool) or not isinstance(face, int) or not 1 <= face <= 6:
                raise InvalidInput(f"{face!r} for player {number} is not a die face: a die shows 1 to 6.")
        needed = [item for item in self._cut(round_)[1] if item.table == table]
        if not any(set(item.numbers) == set(faces) for item in needed):
            if not needed:
                where = "over all tables" if table == 0 else f"at table {table}"
                raise IllegalAction(f"Round {round_.number} has no tie to roll off {where}.")
            wanted = " or ".join(", ".join(map(str, item.numbers)) for item in needed)
            raise IllegalAction(
                f"The roll-off must be thrown by players {wanted} (all still tied, and only them), "
                f"not {', '.join(map(str, sorted(faces)))}."
            )
        self._push(RollOffRecorded(round_.number, table, tuple(sorted(faces.items()))))

    def close_round(self) -> tuple[int, ...]:
        """Apply the cut and record who goes on (the champion, after the final)."""
        round_ = self._open_round()
        missing = self.missing_tables()
        if missing:
            raise IllegalAction(f"Round {round_.number} waits for the results of table{'s' if len(missing) > 1 else ''} {', '.join(map(str, missing))}.")
        if round_.held:
            tables = ", ".join(map(str, sorted(round_.held)))
            raise IllegalAction(f"Round {round_.number} has held results for table {tables}: choose which counts first.")
        advancing, pending = self._cut(round_)
        if pending:
            raise IllegalAction("Nothing goes on while a tie is open. " + " ".join(item.describe() for item in pending))
        self._push(RoundClosed(round_.number, advancing))
        return advancing

    def _cut(self, round_: _Round) -> tuple[tuple[int, ...], tuple[RollOffNeeded, ...]]:
        key = f"cut{round_.number}"
        if key not in self._cache:
            self._cache[key] = self._compute_cut(round_)
        value: tuple[tuple[int, ...], tuple[RollOffNeeded, ...]] = self._cache[key]
        return value

    def _compute_cut(self, round_: _Round) -> tuple[tuple[int, ...], tuple[RollOffNeeded, ...]]:
        if len(round_.results) < len(round_.tables):
            return (), ()
        players = sum(len(table) for table in round_.tables)
        cut = self.format.scaled_cut(round_.spec_index, players)
        advancing: list[int] = []
        pending: list[RollOffNeeded] = []
        if cut.kind == "overall":
            # Only the organizer's roll-offs rank the field: a table's roll-off settled that table's win.
            totals = {n: t for recorded in round_.results.values() for n, t in recorded.result.totals_by_number.items()}
            blocks = order_by_roll_offs(totals, round_.roll_offs.get(0, []))
            self._walk(round_, 0, blocks, totals, cut.count, advancing, pending)
        else:
            for table in range(1, len(round_.tables) + 1):
                result = round_.results[table].result
                totals = result.totals_by_number
                blocks = order_by_roll_offs(totals, list(result.roll_offs_by_number) + round_.roll_offs.get(table, []))
                self._walk(round_, table, blocks, totals, cut.count, advancing, pending)
        return tuple(advancing), tuple(pending)

    @staticmethod
    def _walk(
        round_: _Round, table: int, blocks: list[list[int]], totals: Mapping[int, int], count: int,
        advancing: list[int], pending: list[RollOffNeeded],
    ) -> None:
        taken = 0
        for block in blocks:
            if taken >= count:
                return
            if taken + len(block) > count:
                pending.append(
                    RollOffNeeded(round_.number, table, tuple(sorted(block)), totals[block[0]], (taken + 1, taken + len(block)))
                )
                return
            advancing.extend(block)
            taken += len(block)

    # -- corrections and flags -----------------------------------------------------------

    def flags(self) -> tuple[Flag, ...]:
        """What rests on results corrected after their round closed: shown, never rewritten."""
        out: list[Flag] = []
        for round_ in self._rounds:
            late = [item for item in round_.corrections if item.after_close]
            if not late or round_.advancing is None:
                continue
            now, pending = self._compute_cut(round_) if len(round_.results) == len(round_.tables) else ((), ())
            complete = len(round_.results) == len(round_.tables)
            later = f"; round {round_.number + 1}'s seating was drawn from the cut as recorded" if len(self._rounds) > round_.number else ""
            for item in late:
                if not complete:
                    effect = "the round now lacks a result, so its cut cannot be checked"
                elif pending:
                    effect = "the cut now has an open tie (" + "; ".join(p.describe() for p in pending) + ")"
                elif set(now) != set(round_.advancing):
                    gone = sorted(set(round_.advancing) - set(now))
                    new = sorted(set(now) - set(round_.advancing))
                    effect = (
                        f"the cut would now differ: {', '.join(map(str, new))} instead of {', '.join(map(str, gone))}"
                    )
                else:
                    effect = "the cut is unchanged, standings changed"
                out.append(
                    Flag(
                        round_.number, item.table,
                        f"Round {round_.number}, table {item.table}: result {item.kind} after the cut "
                        f"({item.reason}): {effect}{later}.",
                    )
                )
        return tuple(out)

    # -- standings, lookup, prize ---------------------------------------------------------

    def standings(self) -> tuple[StandingRow, ...]:
        """Everyone, best first: furthest round reached, then place in it, then the rounds before."""
        if "standings" not in self._cache:
            self._cache["standings"] = self._compute_standings()
        rows: tuple[StandingRow, ...] = self._cache["standings"]
        return rows

    def _compute_standings(self) -> tuple[StandingRow, ...]:
        keys_by_round = [self._round_keys(round_) for round_ in self._rounds]
        reached: dict[int, int] = {}
        for round_ in self._rounds:
            for table in round_.tables:
                for n in table:
                    reached[n] = round_.number
        champion = self.champion
        rows: list[tuple[tuple[Any, ...], int]] = []
        for number in self._players:
            last = reached.get(number, 0)
            key: tuple[Any, ...] = (-last,) + tuple(keys_by_round[r - 1].get(number, (2,)) for r in range(last, 0, -1))
            rows.append((key, number))
        rows.sort()
        out: list[StandingRow] = []
        previous: tuple[Any, ...] | None = None
        rank = 0
        for index, (key, number) in enumerate(rows):
            if key != previous:
                rank, previous = index + 1, key
            player = self._players[number]
            last = reached.get(number, 0)
            totals = tuple(
                round_.results[t].result.totals_by_number.get(number) if (t := self._table_of(round_, number)) in round_.results else None
                for round_ in self._rounds
            )
            out.append(StandingRow(rank, number, player.name, self._status(number, last, champion), totals, last))
        return tuple(out)

    def _round_keys(self, round_: _Round) -> dict[int, tuple[int, int, int]]:
        """Sort key of each player within a round: (has no result, position, -total)."""
        keys: dict[int, tuple[int, int, int]] = {}
        cut = self.format.scaled_cut(round_.spec_index, sum(len(table) for table in round_.tables))
        if cut.kind == "overall":
            totals = {n: t for recorded in round_.results.values() for n, t in recorded.result.totals_by_number.items()}
            try:
                blocks = order_by_roll_offs(totals, round_.roll_offs.get(0, []))
            except InvalidInput:
                blocks = order_by_roll_offs(totals, [])
            for position, block in enumerate(blocks):
                for n in block:
                    keys[n] = (0, position, -totals[n])
            return keys
        for table, recorded in round_.results.items():
            totals = recorded.result.totals_by_number
            try:
                blocks = order_by_roll_offs(totals, list(recorded.result.roll_offs_by_number) + round_.roll_offs.get(table, []))
            except InvalidInput:
                blocks = order_by_roll_offs(totals, [])
            done = 0
            for block in blocks:
                for n in block:
                    keys[n] = (0, done + 1, -totals[n])
                done += len(block)
        return keys

    def _status(self, number: int, last: int, champion: int | None) -> str:
        player = self._players[number]
        if number == champion:
            return "champion"
        if player.withdrawn:
            return "withdrawn"
        if last == 0:
            return "checked in" if player.checked_in else ("not checked in" if self._rounds else "signed up")
        round_ = self._rounds[last - 1]
        if round_.advancing is None:
            return f"playing {self.format.round_name(last, round_.spec_index).lower()}"
        if number in round_.advancing:
            return f"through to round {last + 1}"
        return f"out in {self.format.round_name(last, round_.spec_index).lower()}"

    def lookup(self, query: str | int) -> tuple[PlayerLookup, ...]:
        """Find players by number or by part of their name: table, seat and standing."""
        text = str(query).strip()
        if not text:
            raise InvalidInput("Type a player's number or part of their name.")
        if text.lstrip("#").isdigit():
            numbers = [int(text.lstrip("#"))] if int(text.lstrip("#")) in self._players else []
        else:
            wanted = text.casefold()
            numbers = [n for n, p in sorted(self._players.items()) if wanted in p.name.casefold()]
        rows = {row.number: row for row in self.standings()}
        found: list[PlayerLookup] = []
        for number in numbers:
            row = rows[number]
            table = seat = None
            if row.round:
                round_ = self._rounds[row.round - 1]
                position = self._seat_of(round_, number)
                if position is not None:
                    table, seat = position
            found.append(PlayerLookup(number, row.name, row.status, row.round, table, seat, row.rank))
        return tuple(found)

    def award_prize(self, amount: int, currency: str = "$", split: Mapping[int, int] | None = None, note: str = "") -> Prize:
        """Record the prize with the champion; ``split``: what each finalist agreed to take."""
        champion = self.champion
        if champion is None:
            raise IllegalAction("There is no champion yet: the prize is recorded after the final.")
        if self._prize is not None:
            raise IllegalAction("The prize is already recorded: undo to change it.")
        if isinstance(amount, bool) or not isinstance(amount, int) or amount < 1:
            raise InvalidInput(f"{amount!r} is not a prize amount: a whole amount above 0.")
        shares = dict(split or {champion: amount})
        finalists = set(self._rounds[-1].tables[0])
        strangers = sorted(set(shares) - finalists)
        if strangers:
            raise IllegalAction(f"Players {', '.join(map(str, strangers))} did not play the final: only finalists share the prize.")
        if any(isinstance(v, bool) or not isinstance(v, int) or v < 0 for v in shares.values()):
            raise InvalidInput(f"Shares {shares!r} must be whole amounts, 0 or more.")
        if sum(shares.values()) != amount:
            raise IllegalAction(f"The shares add up to {sum(shares.values()):,}, not the prize of {amount:,}.")
        self._push(PrizeAwarded(amount, currency.strip() or "$", tuple(sorted(shares.items())), note.strip()))
        assert self._prize is not None
        return self._prize

    @property
    def prize(self) -> Prize | None:
        return self._prize

    # -- exports -------------------------------------------------------------------------

    def standings_csv(self) -> str:
        out = io.StringIO()
        writer = csv.writer(out, lineterminator="\n")
        names = [self.format.round_name(r.number, r.spec_index) for r in self._rounds]
        writer.writerow(["Rank", "Number", "Name", "Status", *names])
        for row in self.standings():
            writer.writerow([row.rank, row.number, row.name, row.status, *("" if t is None else t for t in row.totals)])
        return out.getvalue()

    def results_csv(self) -> str:
        out = io.StringIO()
        writer = csv.writer(out, lineterminator="\n")
        writer.writerow(["Round", "Table", "Seat", "Number", "Name", "Total", "Place", "Source", "Status", "Reason"])
        for round_ in self._rounds:
            for table in range(1, len(round_.tables) + 1):
                entries = [("counted", round_.results[table])] if table in round_.results else []
                entries += [("held", held) for held in round_.held.get(table, [])]
                for status, recorded in entries:
                    result = recorded.result
                    for seat, (n, total, place) in enumerate(zip(result.numbers, result.totals, result.places), 1):
                        writer.writerow([
                            round_.number, table, seat, n, self._players[n].name, total, place,
                            "code" if recorded.code else "entered", status, recorded.reason,
                        ])
        return out.getvalue()

    # -- helpers -------------------------------------------------------------------------

    def _round(self, number: int | None) -> _Round:
        if not self._rounds:
            raise IllegalAction("No round has been drawn yet.")
        if number is None:
            return self._rounds[-1]
        if isinstance(number, bool) or not isinstance(number, int) or not 1 <= number <= len(self._rounds):
            raise InvalidInput(f"There is no round {number!r}: rounds 1 to {len(self._rounds)} have been drawn.")
        return self._rounds[number - 1]

    def _open_round(self) -> _Round:
        if not self.round_open:
            raise IllegalAction("No round is being played now: draw the next round first.")
        return self._rounds[-1]

    def _table(self, round_: _Round, table: int) -> tuple[int, ...]:
        if isinstance(table, bool) or not isinstance(table, int) or not 1 <= table <= len(round_.tables):
            raise WrongTable(f"Round {round_.number} has tables 1 to {len(round_.tables)}, not {table!r}.")
        return round_.tables[table - 1]

    def _seat_of(self, round_: _Round, number: int) -> tuple[int, int] | None:
        key = f"seats{round_.number}"
        if key not in self._cache:
            self._cache[key] = {n: (t, s) for t, table in enumerate(round_.tables, 1) for s, n in enumerate(table, 1)}
        index: dict[int, tuple[int, int]] = self._cache[key]
        return index.get(number)

    def _table_of(self, round_: _Round, number: int) -> int | None:
        seat = self._seat_of(round_, number)
        return seat[0] if seat else None

    def _where(self, round_: _Round, number: int) -> str:
        seat = self._seat_of(round_, number)
        label = self._label(number) if number in self._players else f"number {number}"
        return f"{label} (table {seat[0]})" if seat else label

    def _label(self, number: int) -> str:
        return f"{self._players[number].name} (number {number})"

    def _summary(self, result: TableResult) -> str:
        order = sorted(zip(result.places, result.numbers, result.totals))
        return ", ".join(f"{place}. {self._players[n].name} {total:,}" for place, n, total in order)

    @staticmethod
    def _need_reason(reason: str) -> None:
        if not isinstance(reason, str) or not reason.strip():
            raise InvalidInput("Give a reason: corrections are kept with their reason.")

    # -- replay --------------------------------------------------------------------------

    def _push(self, event: Event) -> None:
        self._apply(event)
        self._events.append(event)
        self._cache.clear()

    def _apply(self, event: Event) -> None:
        """Fold one event into the state; the checks were made when it was recorded."""
        if isinstance(event, TournamentCreated):
            if self._events:
                raise InvalidInput("A tournament is created once; the log has a second creation.")
            self.name, self.event_id = event.name, event.event_id
            self._secret = bytes.fromhex(event.secret)
            self.format = TournamentFormat.from_dict(event.format)
            return
        if not self._events:
            raise InvalidInput("A tournament log must begin with the tournament's creation.")
        if isinstance(event, FormatChanged):
            if self._rounds:
                raise InvalidInput("The tournament log changes the format after a draw: it is damaged.")
            self.format = TournamentFormat.from_dict(event.format)
        elif isinstance(event, PlayerSignedUp):
            self._players[event.number] = Player(event.number, event.name)
            self._names[event.name.casefold()] = event.number
        elif isinstance(event, PlayerCheckedIn):
            self._players[event.number] = dataclasses.replace(self._players[event.number], checked_in=True)
        elif isinstance(event, PlayerWithdrew):
            player = self._players[event.number]
            self._players[event.number] = dataclasses.replace(player, withdrawn=True, reason=event.reason)
            if not self._rounds:
                self._names.pop(player.name.casefold(), None)
        elif isinstance(event, SeatsDrawn):
            spec_index = self.plan()[event.round - 1].spec_index
            if len(self._rounds) >= event.round:
                self._rounds.pop()
            self._rounds.append(_Round(event.round, spec_index, event.seed, event.tables, event.clashes))
        elif isinstance(event, DrawCancelled):
            self._rounds.pop()
        elif isinstance(event, RulesSwitched):
            self._rounds[event.round - 1].rules_switched = event.rules
        elif isinstance(event, RoundClosed):
            self._rounds[event.round - 1].advancing = event.advancing
        elif isinstance(event, PrizeAwarded):
            self._prize = Prize(self.champion or 0, event.amount, event.currency, event.split, event.note)
        else:
            self._apply_result(event)

    def _apply_result(self, event: Event) -> None:
        if isinstance(event, RollOffRecorded):
            self._rounds[event.round - 1].roll_offs.setdefault(event.table, []).append(event.faces)
            return
        if not isinstance(event, (ResultRecorded, ResultHeld, HeldResultSettled, ResultVoided, ResultReplaced)):
            raise InvalidInput(f"{event!r} is not a tournament event.")
        round_ = self._rounds[event.round - 1]
        table = event.table
        if isinstance(event, ResultRecorded):
            round_.results[table] = _Recorded(_result_from_dict(event.result), event.code, event.reason)
        elif isinstance(event, ResultHeld):
            round_.held.setdefault(table, []).append(_Recorded(_result_from_dict(event.result), event.code))
        elif isinstance(event, HeldResultSettled):
            held = round_.held[table].pop(event.index)
            if not round_.held[table]:
                del round_.held[table]
            if event.taken:
                round_.results[table] = held
            kind: Literal["held result taken", "held result dismissed"] = (
                "held result taken" if event.taken else "held result dismissed"
            )
            round_.corrections.append(Correction(round_.number, table, kind, event.reason, round_.closed))
        elif isinstance(event, ResultVoided):
            del round_.results[table]
            round_.corrections.append(Correction(round_.number, table, "voided", event.reason, round_.closed))
        else:
            round_.results[table] = _Recorded(_result_from_dict(event.result), event.code, event.reason)
            round_.corrections.append(Correction(round_.number, table, "replaced", event.reason, round_.closed))

