"""The tournament as it stands: a fold of :meth:`TournamentState.apply` over the log.

``apply`` trusts the event: the checks were made when the organizer's action was
recorded (:mod:`engine.tournament.facade`), so replaying a log never refuses what was
allowed then. It reads nothing but the state and the event: a seat draw carries its
tables, its round of the format and its cut, and a format read from the log is not
checked again by today's planner. Logs from before draws kept their round and cut ask
the planner for them, as the engine of their day did, and replay as they always have.

>>> from engine.tournament.events import PlayerSignedUp, TournamentCreated
>>> state = replay([TournamentCreated("Cup", "CUP-1", "00" * 16, TournamentFormat.house().to_dict()),
...                 PlayerSignedUp(1, "Ann")])
>>> state.players[1]
Player(number=1, name='Ann', checked_in=False, withdrawn=False, reason='')
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal, TypeVar

from datetime import datetime

from engine.codec import TableResult, key_for
from engine.errors import InvalidInput
from engine.rules import PRESET_NAMES
from engine.tournament.events import (
    CardRevoked,
    DrawCancelled,
    Event,
    FormatChanged,
    HeldResultSettled,
    PlayerCheckedIn,
    PlayerSignedUp,
    PlayerWithdrew,
    PrizeAwarded,
    ResultHeld,
    ResultRecorded,
    ResultReplaced,
    ResultVoided,
    RollOffRecorded,
    RoundClosed,
    RulesSwitched,
    SeatsDrawn,
    TournamentCreated,
    result_from_dict,
)
from engine.tournament.format import Cut, RoundPlan, TournamentFormat
from engine.tournament.seating import Tables

__all__ = [
    "Player", "Prize", "Correction", "Recorded", "Revocation", "Voided", "RoundState", "TournamentState", "replay",
    "clock",
]

_Value = TypeVar("_Value")


@dataclass(frozen=True)
class Player:
    number: int
    name: str
    checked_in: bool = False
    withdrawn: bool = False
    reason: str = ""


@dataclass(frozen=True)
class Prize:
    champion: int
    amount: int
    currency: str
    split: tuple[tuple[int, int], ...]
    note: str


@dataclass(frozen=True)
class Correction:
    round: int
    table: int
    kind: Literal["voided", "replaced", "held result taken", "held result dismissed"]
    reason: str
    after_close: bool


@dataclass(frozen=True)
class Recorded:
    """A table result as it was counted or held: where it came from, and why if typed in."""

    result: TableResult
    code: str
    """The result code (QR form), or "" for a result entered by the organizer."""
    reason: str = ""
    issue: int = 0
    """Which printing of the table's card signed the code (the one in use when it arrived)."""

    def confirmation_line(self, players: Mapping[int, Player]) -> str:
        """How the table's players confirmed it (:meth:`TableResult.confirmation_line`), or
        ``entered by hand`` for a result the organizer typed in."""
        if not self.code:
            return "entered by hand"
        return self.result.confirmation_line([players[n].name for n in self.result.numbers])


@dataclass(frozen=True)
class Revocation:
    """A table's card revoked: the table signs with a card of the next issue from then on."""

    table: int
    reason: str
    at: str | None = None

    @property
    def described(self) -> str:
        """``revoked at 14:02 for: phone lost`` (the time as the organizer's device recorded it)."""
        return f"revoked{clock(self.at)} for: {self.reason}"


@dataclass(frozen=True)
class Voided:
    """A counted result struck out: it stays void, however often its code is scanned again,
    and so does whatever else the card that signed it signs for the table."""

    recorded: Recorded
    reason: str
    at: str | None = None

    @property
    def described(self) -> str:
        """``voided at 14:02 for: wrong table`` (without the time in logs from before it was kept)."""
        return f"voided{clock(self.at)} for: {self.reason}"


def clock(at: str | None) -> str:
    """`` at 14:02`` for an ISO time (in the organizer's local time as recorded), "" for none."""
    if not at:
        return ""
    try:
        return f" at {datetime.fromisoformat(at):%H:%M}"
    except ValueError:
        return ""


@dataclass
class RoundState:
    """A drawn round: its seating, the results in, and who went on once it closed."""

    number: int
    spec_index: int
    cut: Cut
    seed: int
    tables: Tables
    clashes: int
    results: dict[int, Recorded] = field(default_factory=dict)
    held: dict[int, list[Recorded]] = field(default_factory=dict)
    roll_offs: dict[int, list[tuple[tuple[int, int], ...]]] = field(default_factory=dict)
    """Roll-offs the organizer recorded, by table (0: a tie over all tables)."""
    advancing: tuple[int, ...] | None = None
    rules_switched: str | None = None
    corrections: list[Correction] = field(default_factory=list)
    key_scheme: int = 1
    """How the tables' keys are derived (:mod:`engine.codec.keys`): 1 in draws logged before scheme 2."""
    draw: str = ""
    """The draw's own id (scheme 2), part of every table's key."""
    revoked: dict[int, list[Revocation]] = field(default_factory=dict)
    """Each table's revoked cards, first to last: the card in use is of issue ``len(revoked[table])``."""
    voided: dict[int, list[Voided]] = field(default_factory=dict)
    seats: dict[int, tuple[int, int]] = field(init=False, repr=False)
    """(table, seat) of each player, both from 1."""

    def __post_init__(self) -> None:
        self.seats = {n: (t, s) for t, table in enumerate(self.tables, 1) for s, n in enumerate(table, 1)}

    @property
    def closed(self) -> bool:
        return self.advancing is not None

    @property
    def players(self) -> int:
        return len(self.seats)

    @property
    def table_sizes(self) -> tuple[int, ...]:
        return tuple(len(table) for table in self.tables)

    @property
    def complete(self) -> bool:
        """Every table has a counted result."""
        return len(self.results) == len(self.tables)

    def issue(self, table: int) -> int:
        """Which printing of its card ``table`` signs with now: 0, then 1 after a revocation..."""
        return len(self.revoked.get(table, ()))


class TournamentState:
    """Who signed up, the rounds drawn and their results; changed only by :meth:`apply`."""

    def __init__(self) -> None:
        self.name = ""
        self.event_id = ""
        self.secret = b""
        self.format = TournamentFormat.house(check_plans=False)
        """Until the creation is applied: the log names the format."""
        self.players: dict[int, Player] = {}
        self.rounds: list[RoundState] = []
        self.cancelled: list[RoundState] = []
        """Draws cancelled (or drawn again), oldest first: their cards sign nothing that counts."""
        self.prize: Prize | None = None
        self.applied = 0
        self._cache: dict[str, Any] = {}

    def cached(self, key: str, compute: Callable[[], _Value]) -> _Value:
        """``compute()``, kept until the next event (standings and cuts are asked for often)."""
        if key not in self._cache:
            self._cache[key] = compute()
        value: _Value = self._cache[key]
        return value

    # -- what follows from the rounds ------------------------------------------------

    @property
    def round_open(self) -> bool:
        return bool(self.rounds) and not self.rounds[-1].closed

    @property
    def champion(self) -> int | None:
        if self.rounds and self.rounds[-1].closed and self.rounds[-1].cut.kind == "final":
            advancing = self.rounds[-1].advancing
            return advancing[0] if advancing else None
        return None

    def entrants(self) -> tuple[int, ...]:
        """Who would be seated in the next round, in number order."""
        if not self.rounds:
            return tuple(n for n, p in sorted(self.players.items()) if p.checked_in and not p.withdrawn)
        last = self.rounds[-1]
        base = last.advancing if last.closed else tuple(n for table in last.tables for n in table)
        return tuple(sorted(n for n in base or () if not self.players[n].withdrawn))

    def plan(self) -> tuple[RoundPlan, ...]:
        """Every round, as played so far and as planned from now (with the cuts scaled)."""
        plans: list[RoundPlan] = []
        for round_ in self.rounds:
            spec = self.format.rounds[round_.spec_index]
            advancing = len(round_.advancing) if round_.advancing is not None else round_.cut.advancing(round_.table_sizes)
            plans.append(
                RoundPlan(
                    round_.number, self.format.round_name(round_.number, round_.spec_index),
                    round_.rules_switched or spec.rules, round_.players,
                    round_.table_sizes, round_.cut, advancing, round_.spec_index,
                )
            )
        if self.champion is not None:
            return tuple(plans)
        if self.round_open:
            last = plans[-1]
            if last.is_final:
                return tuple(plans)
            upcoming = max(last.advancing, 2)
            return tuple(plans) + self.format.plan(upcoming, last.number + 1, last.spec_index + 1)
        entrants = len(self.entrants())
        if entrants < 2:
            return tuple(plans)
        spec_index = self.rounds[-1].spec_index + 1 if self.rounds else 0
        return tuple(plans) + self.format.plan(entrants, len(self.rounds) + 1, spec_index)

    def card_key(self, round_: RoundState, table: int, issue: int | None = None) -> bytes:
        """The key of ``table``'s card in the draw ``round_`` (its current issue unless given)."""
        return key_for(
            self.secret, self.event_id, round_.number, table, scheme=round_.key_scheme, draw=round_.draw,
            issue=round_.issue(table) if issue is None else issue,
        )

    # -- names for messages --------------------------------------------------------------

    def label(self, number: int) -> str:
        return f"{self.players[number].name} (number {number})"

    def where(self, round_: RoundState, number: int) -> str:
        """A player and their table in ``round_``, for a message."""
        seat = round_.seats.get(number)
        label = self.label(number) if number in self.players else f"number {number}"
        return f"{label} (table {seat[0]})" if seat else label

    # -- the fold ------------------------------------------------------------------------

    def apply(self, event: Event) -> None:
        """Fold one event into the state; the checks were made when it was recorded."""
        self._cache.clear()
        if isinstance(event, TournamentCreated):
            if self.applied:
                raise InvalidInput("A tournament is created once; the log has a second creation.")
            self.name, self.event_id = event.name, event.event_id
            self.secret = bytes.fromhex(event.secret)
            self.format = TournamentFormat.from_dict(event.format, check_plans=False)
        elif not self.applied:
            raise InvalidInput("A tournament log must begin with the tournament's creation.")
        elif isinstance(event, FormatChanged):
            if self.rounds:
                raise InvalidInput("The tournament log changes the format after a draw: it is damaged.")
            self.format = TournamentFormat.from_dict(event.format, check_plans=False)
        elif isinstance(event, PlayerSignedUp):
            self._check_sign_up(event)
            self.players[event.number] = Player(event.number, event.name)
        elif isinstance(event, PlayerCheckedIn):
            self.players[event.number] = dataclasses.replace(self.players[event.number], checked_in=True)
        elif isinstance(event, PlayerWithdrew):
            player = self.players[event.number]
            self.players[event.number] = dataclasses.replace(player, withdrawn=True, reason=event.reason)
        elif isinstance(event, SeatsDrawn):
            self._seat(event)
        elif isinstance(event, DrawCancelled):
            self.cancelled.append(self.rounds.pop())
        elif isinstance(event, CardRevoked):
            round_ = self.rounds[event.round - 1]
            round_.revoked.setdefault(event.table, []).append(Revocation(event.table, event.reason, event.at))
        elif isinstance(event, RulesSwitched):
            if event.rules not in PRESET_NAMES:
                raise InvalidInput(f"Round {event.round} is switched to rules {event.rules[:40]!r}, which are no preset.")
            self.rounds[event.round - 1].rules_switched = event.rules
        elif isinstance(event, RoundClosed):
            round_ = self.rounds[event.round - 1]
            strangers = [n for n in event.advancing if n not in round_.seats]
            if strangers:
                raise InvalidInput(
                    f"Round {event.round} closes with number {strangers[0]} going on, who was not seated in it."
                )
            round_.advancing = event.advancing
        elif isinstance(event, PrizeAwarded):
            self.prize = Prize(self.champion or 0, event.amount, event.currency, event.split, event.note)
        else:
            self._apply_result(event)
        self.applied += 1

    def _check_sign_up(self, event: PlayerSignedUp) -> None:
        """A sign-up as the organizer's device records one: before the draw, under the cap, a new number."""
        if self.rounds:
            raise InvalidInput(f"Number {event.number} signs up after round 1 was drawn.")
        if event.number in self.players:
            raise InvalidInput(f"Number {event.number} signs up twice.")
        active = sum(not player.withdrawn for player in self.players.values())
        if active >= self.format.cap:
            raise InvalidInput(
                f"Number {event.number} signs up when the event is full ({self.format.cap} players)."
            )

    def _seat(self, event: SeatsDrawn) -> None:
        if event.spec_index is None:  # a log from before draws kept their round of the format
            spec_index = self.plan()[event.round - 1].spec_index
        elif 0 <= event.spec_index < len(self.format.rounds):
            spec_index = event.spec_index
        else:
            raise InvalidInput(
                f"The draw of round {event.round} names round {event.spec_index} of the format, "
                f"which has rounds 0 to {len(self.format.rounds) - 1}: the log is damaged."
            )
        strangers = [n for table in event.tables for n in table if n not in self.players]
        if strangers or not event.tables or not 1 <= event.round <= len(self.rounds) + 1:
            raise InvalidInput(
                f"The draw of round {event.round} seats "
                + (f"number {strangers[0]}, who never signed up" if strangers else "tables no round can have")
                + "."
            )
        players = sum(len(table) for table in event.tables)
        cut = self.format.scaled_cut(spec_index, players) if event.cut is None else Cut.from_list(event.cut)
        if len(self.rounds) >= event.round:
            self.cancelled.append(self.rounds.pop())
        self.rounds.append(
            RoundState(
                event.round, spec_index, cut, event.seed, event.tables, event.clashes,
                key_scheme=event.keys or 1, draw=event.draw or "",
            )
        )

    def _apply_result(self, event: Event) -> None:
        if isinstance(event, RollOffRecorded):
            self.rounds[event.round - 1].roll_offs.setdefault(event.table, []).append(event.faces)
            return
        if not isinstance(event, (ResultRecorded, ResultHeld, HeldResultSettled, ResultVoided, ResultReplaced)):
            raise InvalidInput(f"{event!r} is not a tournament event.")
        round_ = self.rounds[event.round - 1]
        table = event.table
        if not 1 <= table <= len(round_.tables):
            raise InvalidInput(f"Round {round_.number} has tables 1 to {len(round_.tables)}, not {table}.")
        if isinstance(event, ResultRecorded):
            round_.results[table] = Recorded(_result_at(round_, table, event.result), event.code, event.reason, round_.issue(table))
        elif isinstance(event, ResultHeld):
            round_.held.setdefault(table, []).append(Recorded(_result_at(round_, table, event.result), event.code, "", round_.issue(table)))
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
            voided = round_.results.pop(table)
            round_.voided.setdefault(table, []).append(Voided(voided, event.reason, event.at))
            round_.corrections.append(Correction(round_.number, table, "voided", event.reason, round_.closed))
        else:
            round_.results[table] = Recorded(_result_at(round_, table, event.result), event.code, event.reason, round_.issue(table))
            round_.corrections.append(Correction(round_.number, table, "replaced", event.reason, round_.closed))


def _result_at(round_: RoundState, table: int, data: Mapping[str, Any]) -> TableResult:
    """A logged result, which must be for the table it is logged at and for the players seated there."""
    result = result_from_dict(data)
    if (result.round, result.table, result.numbers) != (round_.number, table, round_.tables[table - 1]):
        raise InvalidInput(
            f"A result logged for round {round_.number}, table {table} is for round {result.round}, "
            f"table {result.table} or for other players."
        )
    return result


def replay(events: Iterable[Event]) -> TournamentState:
    """The state after ``events``; :class:`InvalidInput` naming the entry where a log is damaged."""
    state = TournamentState()
    for position, event in enumerate(events, 1):
        try:
            state.apply(event)
        except InvalidInput as refusal:
            raise InvalidInput(f"The tournament log is damaged at entry {position} ({event.TYPE}): {refusal}") from refusal
        except Exception as error:  # noqa: BLE001 - a log read from a file may fail any way: a refusal, not a crash
            raise InvalidInput(f"The tournament log is damaged at entry {position} ({event.TYPE}): {error!r}.") from error
    if not state.applied:
        raise InvalidInput("A tournament log must begin with the tournament's creation.")
    return state
