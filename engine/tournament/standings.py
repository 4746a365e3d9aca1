"""Who goes on and who stands where (what a late correction changed: :mod:`engine.tournament.corrections`).

A cut walks the ranking (:mod:`engine.ranking`) of a round's totals, over all tables or
table by table, and stops at a tie it cannot split: nothing advances on a silent tie,
the organizer records a roll-off first. The standings rank everyone by the furthest
round reached, then their place in it, then the rounds before.

Only the organizer's roll-offs rank a cut over all tables: a table's roll-off settled
that table's win, not its place in the field.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from engine.errors import InvalidInput
from engine.ranking import places_in, rank_blocks
from engine.tournament.replacements import place_taken_words
from engine.tournament.state import Player, RoundState, TournamentState
from engine.words import Words, all_of, say

__all__ = [
    "RollOffNeeded", "StandingRow", "PlayerLookup", "cut_of", "standings", "round_places", "lookup",
]


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
    names: tuple[str, ...]
    """The tied players' names, in the order of :attr:`numbers`."""

    @property
    def players(self) -> str:
        """``Ann (20) and Bob (36)``: the tied players by name and number."""
        return all_of([say("{name} ({number})", name=name, number=number)
                       for name, number in zip(self.names, self.numbers)])

    def describe(self) -> Words:
        first, last = self.places
        if self.table == 0:
            return say("Round {round}: {players} are tied on {total:,} over all tables for places {first} to {last}: "
                       "record their roll-off.", round=self.round, players=self.players, total=self.total, first=first,
                       last=last)
        return say("Round {round}: {players} are tied on {total:,} at table {table} for places {first} to {last}: "
                   "record their roll-off.", round=self.round, players=self.players, total=self.total, table=self.table,
                   first=first, last=last)


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


Cutting = tuple[tuple[int, ...], tuple[RollOffNeeded, ...]]
"""(who goes on, the ties that stop the cut)."""


# -- cuts --------------------------------------------------------------------------------


def cut_of(state: TournamentState, round_: RoundState) -> Cutting:
    """Who goes on from ``round_`` and the roll-offs still needed (nothing until every table has a result)."""
    return state.cached(f"cut{round_.number}", lambda: _cut(round_, state.players))


def _cut(round_: RoundState, players: Mapping[int, Player]) -> Cutting:
    if not round_.complete:
        return (), ()
    cut = round_.cut
    advancing: list[int] = []
    pending: list[RollOffNeeded] = []
    if cut.kind == "overall":
        totals = _field_totals(round_)
        _walk(round_, 0, rank_blocks(totals, list(round_.roll_offs.get(0, ()))), totals, cut.count, advancing, pending,
              players)
    else:
        for table in range(1, len(round_.tables) + 1):
            result = round_.results[table].result
            totals = result.totals_by_number
            blocks = rank_blocks(totals, list(result.roll_offs_by_number) + list(round_.roll_offs.get(table, ())))
            _walk(round_, table, blocks, totals, cut.count, advancing, pending, players)
    return tuple(advancing), tuple(pending)


def _field_totals(round_: RoundState) -> dict[int, int]:
    return {n: t for recorded in round_.results.values() for n, t in recorded.result.totals_by_number.items()}


def _walk(
    round_: RoundState, table: int, blocks: list[list[int]], totals: Mapping[int, int], count: int,
    advancing: list[int], pending: list[RollOffNeeded], players: Mapping[int, Player],
) -> None:
    """Take blocks best first until ``count`` are in; a block across the line needs a roll-off."""
    taken = 0
    for block in blocks:
        if taken >= count:
            return
        if taken + len(block) > count:
            tied = tuple(sorted(block))
            pending.append(
                RollOffNeeded(round_.number, table, tied, totals[block[0]], (taken + 1, taken + len(block)),
                              tuple(players[n].name for n in tied))
            )
            return
        advancing.extend(block)
        taken += len(block)


# -- standings ---------------------------------------------------------------------------


def standings(state: TournamentState) -> tuple[StandingRow, ...]:
    """Everyone, best first: furthest round reached, then place in it, then the rounds before."""
    return state.cached("standings", lambda: _standings(state))


def _standings(state: TournamentState) -> tuple[StandingRow, ...]:
    keys_by_round = [_round_keys(round_) for round_ in state.rounds]
    reached: dict[int, int] = {}
    for round_ in state.rounds:
        for table in round_.tables:
            for n in table:
                reached[n] = round_.number
    champion = state.champion
    players = state.players.view()
    totals_by_round = [_field_totals(round_) for round_ in state.rounds]
    rows: list[tuple[tuple[Any, ...], int]] = []
    for number in players:
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
        last = reached.get(number, 0)
        totals = tuple(by_round.get(number) for by_round in totals_by_round)
        player = players[number]
        out.append(StandingRow(rank, number, player.name, _status(state, player, last, champion), totals, last))
    return tuple(out)


def round_places(state: TournamentState) -> dict[int, tuple[int | None, ...]]:
    """Each player's place in each round, which ranks them before the total: over all tables for
    a cut of the best totals overall, at their table otherwise; None where they have no result."""
    keys_by_round = [_round_keys(round_) for round_ in state.rounds]
    return {
        number: tuple(keys[number][1] if number in keys else None for keys in keys_by_round)
        for number in state.players
    }


def _round_keys(round_: RoundState) -> dict[int, tuple[int, int, int]]:
    """Sort key of each player with a result in a round: (0, place, -total).

    The place is over all tables for a cut of best totals overall, at the player's table
    otherwise; a roll-off that no longer matches the totals (after a correction) is left
    out rather than refusing the standings.
    """
    keys: dict[int, tuple[int, int, int]] = {}
    if round_.cut.kind == "overall":
        groups = [(_field_totals(round_), list(round_.roll_offs.get(0, ())))]
    else:
        groups = [
            (recorded.result.totals_by_number, list(recorded.result.roll_offs_by_number) + list(round_.roll_offs.get(table, ())))
            for table, recorded in round_.results.items()
        ]
    for totals, roll_offs in groups:
        try:
            places = places_in(rank_blocks(totals, roll_offs))
        except InvalidInput:
            places = places_in(rank_blocks(totals, []))
        for n, place in places.items():
            keys[n] = (0, place, -totals[n])
    return keys


def _status(state: TournamentState, player: Player, last: int, champion: int | None) -> Words:
    number = player.number
    if number == champion:
        return say("champion")
    if player.withdrawn:
        return say("withdrawn")
    if last == 0:
        return say("checked in") if player.checked_in else (say("not checked in") if state.rounds else say("signed up"))
    round_ = state.rounds[last - 1]
    if round_.advancing is None:
        return say("playing {round}", round=_round_words(state, last, round_.spec_index))
    if number in round_.advancing:
        taken = [item for item in round_.places_taken if item.replacement == number]
        onward = _round_words(state, last + 1, round_.spec_index + 1)
        return place_taken_words(state, taken[-1]) if taken else say("through to {round}", round=onward)
    return say("out in {round}", round=_round_words(state, last, round_.spec_index))


def _round_words(state: TournamentState, number: int, spec_index: int) -> Words:
    """``round 2``, or ``the final`` for the format's last round, as a sentence says it."""
    return say("the final") if spec_index == len(state.format.rounds) - 1 else say("round {number}", number=number)


def lookup(state: TournamentState, query: str | int) -> tuple[PlayerLookup, ...]:
    """Find players by number or by part of their name: table, seat and standing."""
    text = str(query).strip()
    if not text:
        raise InvalidInput(say("Type a player's number or part of their name."))
    if text.lstrip("#").isdigit():
        numbers = [int(text.lstrip("#"))] if int(text.lstrip("#")) in state.players else []
    else:
        wanted = text.casefold()
        numbers = [n for n, p in sorted(state.players.items()) if wanted in p.name.casefold()]
    rows = {row.number: row for row in standings(state)}
    found: list[PlayerLookup] = []
    for number in numbers:
        row = rows[number]
        table = seat = None
        if row.round:
            position = state.rounds[row.round - 1].seats.get(number)
            if position is not None:
                table, seat = position
        found.append(PlayerLookup(number, row.name, row.status, row.round, table, seat, row.rank))
    return tuple(found)
