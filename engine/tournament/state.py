"""The tournament as it stands: frozen values, the fold of :func:`engine.tournament.replay.apply`
over the log (:mod:`engine.tournament.replay`).

Like a game's (:mod:`engine.game.state`), every state is a frozen value, so the organizer's
undo is a pop. What grows (the players, each round's results) is a
:class:`~engine.shared_map.SharedMap` the next state shares, not copies, so replaying a log
takes time in proportion to its length.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Literal, TypeVar

from engine.codec import TableResult, key_for
from engine.errors import IllegalAction, InvalidInput
from engine.shared_map import SharedMap
from engine.tournament.events import PlaceTaken, PlayerMissing
from engine.tournament.format import Cut, RoundPlan, TournamentFormat
from engine.tournament.seating import Tables
from engine.words import Words, say

__all__ = [
    "Player", "Prize", "WithdrawnPrize", "Correction", "Recorded", "Revocation", "Voided", "RoundState",
    "TournamentState", "clock",
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
class WithdrawnPrize:
    """A recorded prize that no longer stands: a correction of the final's result left its
    champion no longer the champion. Kept to be shown (flagged) until a prize is recorded again."""

    prize: Prize
    round: int
    table: int
    kind: Literal["voided", "replaced"]
    reason: str


@dataclass(frozen=True)
class Correction:
    round: int
    table: int
    kind: Literal["voided", "replaced", "held result taken", "held result dismissed"]
    reason: str
    after_close: bool

    @property
    def what(self) -> Words:
        """``result voided``: what the correction did, as a sentence names it (never its kind's id)."""
        return _CORRECTED[self.kind]

    def describe(self) -> Words:
        """``Round 1, table 2: result voided (wrong table)``, and whether the round had closed."""
        if self.after_close:
            return say("Round {round}, table {table}: {what} ({reason}) after the round closed", round=self.round,
                       table=self.table, what=self.what, reason=self.reason)
        return say("Round {round}, table {table}: {what} ({reason})", round=self.round, table=self.table,
                   what=self.what, reason=self.reason)


_CORRECTED = {"voided": say("result voided"), "replaced": say("result replaced"),
              "held result taken": say("held result taken"), "held result dismissed": say("held result dismissed")}


@dataclass(frozen=True)
class Recorded:
    """A table result as it was counted or held: where it came from, and why if typed in."""

    result: TableResult
    code: str
    """The result code (QR form), or "" for a result entered by the organizer."""
    reason: str = ""
    issue: int = 0
    """Which printing of the table's card signed the code (the one in use when it arrived)."""
    at: str | None = None
    """When it was counted (ISO local time); None for a result held first, and in old logs."""
    entry: int = 0
    """The log entry that counted it: the room lists the latest results first by it."""

    def confirmation_line(self, players: Mapping[int, Player]) -> Words:
        """How the table's players confirmed it (:meth:`TableResult.confirmation_line`), or
        ``entered by hand`` for a result the organizer typed in."""
        if not self.code:
            return say("entered by hand")
        return self.result.confirmation_line([players[n].name for n in self.result.numbers])


@dataclass(frozen=True)
class Revocation:
    """A table's card revoked: the table signs with a card of the next issue from then on."""

    table: int
    reason: str
    at: str | None = None

    @property
    def described(self) -> Words:
        """``revoked at 14:02 for: phone lost`` (the time as the organizer's device recorded it)."""
        time = clock(self.at)
        return say("revoked at {time} for: {reason}", time=time, reason=self.reason) if time else \
            say("revoked for: {reason}", reason=self.reason)


@dataclass(frozen=True)
class Voided:
    """A counted result struck out: it stays void, however often its code is scanned again,
    and so does whatever else the card that signed it signs for the table."""

    recorded: Recorded
    reason: str
    at: str | None = None

    @property
    def described(self) -> Words:
        """``voided at 14:02 for: wrong table`` (without the time in logs from before it was kept)."""
        time = clock(self.at)
        return say("voided at {time} for: {reason}", time=time, reason=self.reason) if time else \
            say("voided for: {reason}", reason=self.reason)


def clock(at: str | None) -> str:
    """``14:02`` for an ISO time (in the organizer's local time as recorded), "" for none."""
    if not at:
        return ""
    try:
        return f"{datetime.fromisoformat(at):%H:%M}"
    except ValueError:
        return ""


@dataclass(frozen=True)
class RoundState:
    """A drawn round: its seating, the results in, and who went on once it closed."""

    number: int
    spec_index: int
    cut: Cut
    seed: int
    tables: Tables
    clashes: int
    results: SharedMap[int, Recorded] = field(default_factory=SharedMap)
    held: SharedMap[int, tuple[Recorded, ...]] = field(default_factory=SharedMap)
    roll_offs: SharedMap[int, tuple[tuple[tuple[int, int], ...], ...]] = field(default_factory=SharedMap)
    """Roll-offs the organizer recorded, by table (0: a tie over all tables)."""
    advancing: tuple[int, ...] | None = None
    rules_switched: str | None = None
    corrections: tuple[Correction, ...] = ()
    key_scheme: int = 1
    """How the tables' keys are derived (:mod:`engine.codec.keys`): 1 in draws logged before scheme 2."""
    draw: str = ""
    """The draw's own id (scheme 2), part of every table's key."""
    drawn_at: str | None = None
    """When it was drawn (ISO local time): its tables are playing since then. None in old logs."""
    revoked: SharedMap[int, tuple[Revocation, ...]] = field(default_factory=SharedMap)
    """Each table's revoked cards, first to last: the card in use is of issue ``len(revoked[table])``."""
    voided: SharedMap[int, tuple[Voided, ...]] = field(default_factory=SharedMap)
    cut_corrections: int = 0
    """How many of its corrections the round's cut takes in (it closed, or its cut was taken
    again, after them): the ones after those came later and are flagged."""
    places_taken: tuple[PlaceTaken, ...] = ()
    """Places in its cut taken by the next in line after a withdrawal, first to last."""
    missing: tuple[PlayerMissing, ...] = ()
    """Players drawn who did not come: :attr:`tables` seats the tables as they play, without them."""
    seats: Mapping[int, tuple[int, int]] = field(init=False, repr=False, compare=False)
    """(table, seat) of each player, both from 1."""

    def __post_init__(self) -> None:
        seats = {n: (t, s) for t, table in enumerate(self.tables, 1) for s, n in enumerate(table, 1)}
        object.__setattr__(self, "seats", seats)

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


@dataclass(frozen=True)
class TournamentState:
    """Who signed up, the rounds drawn and their results; made only by :func:`apply`."""

    name: str = ""
    event_id: str = ""
    secret: bytes = b""
    format: TournamentFormat = field(default_factory=lambda: TournamentFormat.house(check_plans=False))
    """Until the creation is applied: the log names the format."""
    players: SharedMap[int, Player] = field(default_factory=SharedMap)
    active: int = 0
    """How many players signed up and have not withdrawn."""
    rounds: tuple[RoundState, ...] = ()
    cancelled: tuple[RoundState, ...] = ()
    """Draws cancelled (or drawn again), oldest first: their cards sign nothing that counts."""
    prize: Prize | None = None
    withdrawn_prize: WithdrawnPrize | None = None
    """The prize recorded before a correction of the final's result changed its champion."""
    applied: int = 0
    memo: dict[str, Any] = field(default_factory=dict, compare=False, repr=False)
    """What :meth:`cached` computed for this state (standings, cuts): never part of its value."""

    def cached(self, key: str, compute: Callable[[], _Value]) -> _Value:
        """``compute()``, computed once for this state (standings and cuts are asked for often).

        Read once and kept in a local: a copy of the tournament acting in a worker thread (a
        sign-up list's preview) may clear this memo at any moment, which only costs a recompute.
        """
        try:
            value: _Value = self.memo[key]
        except KeyError:
            value = self.memo[key] = compute()
        return value

    # -- what follows from the rounds ------------------------------------------------

    @property
    def round_open(self) -> bool:
        return bool(self.rounds) and not self.rounds[-1].closed

    @property
    def champion(self) -> int | None:
        """The winner of the final, while the final is closed with its result in (a void takes it back)."""
        final = self.rounds[-1] if self.rounds else None
        if final is not None and final.closed and final.complete and final.cut.kind == "final":
            return final.advancing[0] if final.advancing else None
        return None

    def drawn_round(self, number: int | None) -> RoundState:
        """Round ``number`` as drawn (None: the last one drawn); refused when there is none such."""
        if not self.rounds:
            raise IllegalAction(say("No round has been drawn yet."))
        if number is None:
            return self.rounds[-1]
        if isinstance(number, bool) or not isinstance(number, int) or not 1 <= number <= len(self.rounds):
            raise InvalidInput(say("There is no round {number!r}: rounds 1 to {count} have been drawn.",
                                   number=number, count=len(self.rounds)))
        return self.rounds[number - 1]

    def open_round(self) -> RoundState:
        """The round being played; refused between rounds."""
        if not self.round_open:
            raise IllegalAction(say("No round is being played now: draw the next round first."))
        return self.rounds[-1]

    def missing_tables(self) -> tuple[int, ...]:
        """Tables of the round being played still without a result (none while no round is open)."""
        if not self.round_open:
            return ()
        round_ = self.rounds[-1]
        return tuple(table for table in range(1, len(round_.tables) + 1) if table not in round_.results)

    def entrants(self) -> tuple[int, ...]:
        """Who would be seated in the next round, in number order."""
        if not self.rounds:
            return tuple(n for n, p in self.players.items() if p.checked_in and not p.withdrawn)
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

    def label(self, number: int) -> Words:
        """``Ann (number 3)``: a player as a message names them."""
        return say("{name} (number {number})", name=self.players[number].name, number=number)

    def where(self, round_: RoundState, number: int) -> Words:
        """A player and their table in ``round_``, for a message."""
        seat = round_.seats.get(number)
        label = self.label(number) if number in self.players else say("number {number}", number=number)
        return say("{label} (table {table})", label=label, table=seat[0]) if seat else label
