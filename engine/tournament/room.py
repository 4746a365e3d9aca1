"""Where the room stands, for a projector and for the organizer's round at a glance.

One frozen value read from the tournament's state: the round drawn last and each of its
tables (reported, playing since when, held, or waiting for a roll-off), its seating, the
standings with the cut line, the latest results and the champion, and what must happen
before the round can close, in words. The display and the event page render it; neither
works out a status or a cut of its own.

>>> from datetime import datetime
>>> from engine.tournament import Tournament
>>> t = Tournament("Club night", event_id="CLUB-1", secret=bytes(16))
>>> for name in ("Ann", "Bob", "Cy", "Di", "Ed", "Flo"):
...     t.check_in(t.sign_up(name))
>>> t.draw_seats(seed=1, at=datetime(2026, 5, 2, 14, 2))
((3, 5, 6), (4, 1, 2))
>>> room = t.room()
>>> room.round_name, [table.words for table in room.tables]
('Round 1', ['playing since 14:02', 'playing since 14:02'])
>>> _ = t.record_result(1, [4_000, 10_050, 7_500], reason="paper score sheet", at=datetime(2026, 5, 2, 14, 40))
>>> t.room().tables[0].words, t.room().to_close
('reported at 14:40: 1. Ed 10,050, 2. Flo 7,500, 3. Cy 4,000', ('Waiting for the result of table 2.',))
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Final, Literal

from engine.tournament.standings import RollOffNeeded, cut_of, standings
from engine.tournament.state import RoundState, TournamentState
from engine.tournament.summary import result_summary, state_line
from engine.words import Words, listed, say, say_n

__all__ = ["TableStatus", "RoomTable", "RoomResult", "RoomStanding", "CutLine", "Room", "room_of", "LATEST_RESULTS"]

TableStatus = Literal["reported", "playing", "held", "roll-off"]
LATEST_RESULTS: Final = 12
"""How many results the room lists, newest first: a round of ten tables and the two before."""


@dataclass(frozen=True)
class RoomTable:
    """A table of the round drawn last: who sits there and how far it is."""

    table: int
    status: TableStatus
    seats: tuple[tuple[int, str], ...]
    """(number, name) of each player, in seat order."""
    words: str
    """``playing since 14:02``, ``reported at 14:40: 1. Ed 10,050, …``, ``held: …``, ``roll-off pending: …``."""
    since: str | None = None
    """HH:MM the table started playing (the draw), None when the log has no time."""
    at: str | None = None
    """HH:MM its result was counted (reported, or waiting for a roll-off), None when not or not known."""


@dataclass(frozen=True)
class RoomResult:
    """A counted result, for the room's latest results."""

    round_name: str
    table: int
    summary: str
    """``1. Bob 10,050, 2. Ann 7,500``."""
    at: str | None
    """HH:MM it was counted, None when the log has no time."""


@dataclass(frozen=True)
class RoomStanding:
    rank: int
    number: int
    name: str
    status: str
    total: int | None
    """This round's total (None: no result yet, or not seated in it)."""
    mark: Literal["going on", "roll-off", ""]
    """Going on from this round by its cut, tied across the cut line (a roll-off decides), or neither."""


@dataclass(frozen=True)
class CutLine:
    """The line under the first ``after`` standings, and what it means."""

    after: int
    words: str


@dataclass(frozen=True)
class Room:
    """Where the event stands, everything a room display shows (see the module docstring)."""

    event_name: str
    event_code: str
    round: int
    """The round drawn last (0 before the first draw)."""
    round_name: str
    """``Round 2``, ``Final``; "" before the first draw."""
    stage: str
    """Where the event stands in one line (:func:`engine.tournament.summary.state_line`)."""
    tables: tuple[RoomTable, ...]
    to_close: tuple[str, ...]
    """What must happen before the round can close, one sentence each; () when it can close
    (or no round is being played)."""
    standings: tuple[RoomStanding, ...]
    cut_line: CutLine | None
    roll_offs: tuple[str, ...]
    """Ties at the cut to throw off, in words."""
    latest: tuple[RoomResult, ...]
    """Counted results, newest first (at most :data:`LATEST_RESULTS`)."""
    champion: str | None
    """The champion's name once the final is closed."""

    def count(self, status: TableStatus) -> int:
        """How many tables of the round are ``status``."""
        return sum(table.status == status for table in self.tables)


def room_of(state: TournamentState) -> Room:
    """The room as ``state`` stands (worked out once per state)."""
    return state.cached("room", lambda: _room(state))


def _room(state: TournamentState) -> Room:
    champion = state.champion
    round_ = state.rounds[-1] if state.rounds else None
    going_on: tuple[int, ...] = ()
    pending: tuple[RollOffNeeded, ...] = ()
    if round_ is not None:
        going_on, pending = (round_.advancing or (), ()) if round_.closed else cut_of(state, round_)
        going_on = tuple(n for n in going_on if not state.players[n].withdrawn)  # a place left empty goes on empty
    rows = _standings(state, round_, going_on, tuple(n for item in pending for n in item.numbers))
    return Room(
        event_name=state.name, event_code=state.event_id,
        round=0 if round_ is None else round_.number, round_name="" if round_ is None else _name(state, round_),
        stage=state_line(state),
        tables=() if round_ is None else tuple(_table(state, round_, t, pending) for t in range(1, len(round_.tables) + 1)),
        to_close=() if round_ is None or round_.closed else _to_close(state, round_, pending),
        standings=rows, cut_line=None if round_ is None else _cut_line(state, round_, rows, going_on),
        roll_offs=tuple(_roll_off(item) for item in pending), latest=_latest(state),
        champion=None if champion is None else state.players[champion].name,
    )


def _name(state: TournamentState, round_: RoundState) -> Words:
    return state.format.round_name(round_.number, round_.spec_index)


def _hhmm(at: str | None) -> str | None:
    """``14:02`` for an ISO time as the organizer's device recorded it; None for none (or a damaged one)."""
    try:
        return None if not at else f"{datetime.fromisoformat(at):%H:%M}"
    except ValueError:
        return None


def _table(state: TournamentState, round_: RoundState, table: int, pending: tuple[RollOffNeeded, ...]) -> RoomTable:
    numbers = round_.tables[table - 1]
    seats = tuple((n, state.players[n].name) for n in numbers)
    since = _hhmm(round_.drawn_at)
    held = round_.held.get(table, ())
    recorded = round_.results.get(table)
    if held:
        why = (say("a second, different result") if recorded is not None
               else held[0].confirmation_line(state.players))
        return RoomTable(table, "held", seats, say("held for the organizer ({why})", why=why), since)
    if recorded is None:
        playing = say("playing since {time}", time=since) if since else say("playing")
        return RoomTable(table, "playing", seats, playing, since)
    at = _hhmm(recorded.at)
    ties = [item for item in pending if set(item.numbers) & set(numbers)]
    if ties:
        words = say("roll-off pending: {players}", players=listed([item.players for item in ties], "; "))
        return RoomTable(table, "roll-off", seats, words, since, at)
    summary = result_summary(state, recorded.result)
    words = say("reported at {time}: {result}", time=at, result=summary) if at else \
        say("reported: {result}", result=summary)
    return RoomTable(table, "reported", seats, words, since, at)


def _to_close(state: TournamentState, round_: RoundState, pending: tuple[RollOffNeeded, ...]) -> tuple[str, ...]:
    missing = state.missing_tables()
    needs: list[str] = []
    if missing:
        needs.append(say_n("Waiting for the result of table {tables}.", "Waiting for the results of tables {tables}.",
                           len(missing), tables=", ".join(map(str, missing))))
    needs.extend(say("Table {table}: a held result waits for the organizer to count it or ask again.", table=table)
                 for table in sorted(round_.held))
    needs.extend(say("Roll-off: {tie}.", tie=_roll_off(item)) for item in pending)
    return tuple(needs)


def _roll_off(item: RollOffNeeded) -> Words:
    first, last = item.places
    if item.table == 0:
        return say("{players}, tied on {total:,} over all tables, throw for places {first} to {last}",
                   players=item.players, total=item.total, first=first, last=last)
    return say("{players}, tied on {total:,} at table {table}, throw for places {first} to {last}",
               players=item.players, total=item.total, table=item.table, first=first, last=last)


def _standings(
    state: TournamentState, round_: RoundState | None, going_on: tuple[int, ...], tied: tuple[int, ...]
) -> tuple[RoomStanding, ...]:
    index = None if round_ is None else round_.number - 1
    return tuple(
        RoomStanding(
            row.rank, row.number, row.name, row.status, None if index is None else row.totals[index],
            "going on" if row.number in going_on else "roll-off" if row.number in tied else "",
        )
        for row in standings(state)
    )


def _cut_line(
    state: TournamentState, round_: RoundState, rows: tuple[RoomStanding, ...], going_on: tuple[int, ...]
) -> CutLine | None:
    """The line under those going on (once the cut is known), or under those still in the round being
    played; None for the final and when others still in stand among those going on. A player who
    withdrew above the line leaves it where it was: their place went to the next in line, who
    may stand below them (the line goes under the last one going on), or stays empty."""
    if round_.cut.kind == "final":
        return None
    later = state.plan()[round_.number:]
    onward = "" if not later else say(" to the final") if later[0].is_final else say(" to {round}", round=later[0].name)
    if going_on:
        after = 1 + max(place for place, row in enumerate(rows) if row.number in going_on)
        if any(row.number not in going_on and not state.players[row.number].withdrawn for row in rows[:after]):
            return None
        when = "" if round_.closed else say(" when the round closes")
        return CutLine(after, say("Above the line: the {count} who go on{onward}{when}.", count=len(going_on),
                                  onward=onward, when=when))
    if round_.number == 1:
        return None
    return CutLine(round_.players, say("Above the line: the {count} still in, playing {round}.", count=round_.players,
                                       round=_name(state, round_)))


def _latest(state: TournamentState) -> tuple[RoomResult, ...]:
    counted = sorted(
        ((recorded.entry, _name(state, round_), table, recorded) for round_ in state.rounds
         for table, recorded in round_.results.items()),
        key=lambda item: item[0], reverse=True,
    )[:LATEST_RESULTS]
    return tuple(RoomResult(name, table, result_summary(state, recorded.result), _hhmm(recorded.at))
                 for _, name, table, recorded in counted)
