"""Changes during the day: a place after a cut left by a withdrawal, and a table that starts short.

A player who made a cut and withdraws before the next round is drawn leaves a place. The
organizer chooses: the next in line takes it (:class:`~engine.tournament.events.PlaceTaken`),
or it stays empty (the withdrawal alone). The next in line is the best-placed player below
the cut by the ranking the cut used: over all tables for a cut of the best totals, at the
withdrawn player's table for a cut of places per table. Players tied there throw one die
each for the place, as they would at the cut itself (engine/RULES.md §5.8).

A player drawn who does not come is marked missing at their table
(:class:`~engine.tournament.events.PlayerMissing`) before it has a result: the table plays
as a table of one fewer, its card names the players who came, and its result and its
places count among them.

>>> from engine.tournament import Tournament
>>> t = Tournament("Cup", event_id="CUP-1", secret=bytes(16))
>>> for name in ("Ann", "Bob", "Cy", "Di", "Ed", "Flo", "Gus", "Hal"):
...     t.check_in(t.sign_up(name))
>>> t.draw_seats(seed=1)
((2, 8, 4, 5), (1, 6, 7, 3))
>>> t.mark_missing(4, "did not come")
>>> t.seating(), t.short_table(1)
(((2, 8, 5), (1, 6, 7, 3)), 'plays as three (Di did not come)')
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from engine.errors import IllegalAction, InvalidInput
from engine.ranking import rank_blocks
from engine.tournament.events import MISSING, PlaceTaken, PlayerMissing, PlayerWithdrew
from engine.tournament.state import RoundState, TournamentState
from engine.words import Words, all_of, say, say_n

__all__ = [
    "Vacancy", "withdrawal", "vacancy", "take_place", "place_taken_words", "mark_missing", "missing_words", "as_drawn",
]


@dataclass(frozen=True)
class Vacancy:
    """A place after a cut that a withdrawal leaves, and who is next in line for it."""

    round: int
    """The round whose cut the place was won in."""
    withdrawn: int
    name: str
    """The withdrawn player's name."""
    next_round: str
    """Where the place leads, as a sentence says it: ``the final``, ``round 3``."""
    next_in_line: tuple[int, ...]
    """The one player next in line, or the tied players who throw for the place; () for nobody left."""
    names: tuple[str, ...]
    """Their names, in the order of :attr:`next_in_line`."""
    total: int | None
    """Their total in :attr:`round` (None: nobody is left below the cut)."""

    @property
    def tied(self) -> bool:
        return len(self.next_in_line) > 1

    @property
    def named(self) -> str:
        """``Ed and Flo``: who is next in line, by name."""
        return all_of(self.names)

    def describe(self) -> Words:
        """The question the organizer answers, in words."""
        if not self.next_in_line:
            return say("Nobody below the cut is left to take {name}'s place in {round}: it stays empty.",
                       name=self.name, round=self.next_round)
        if self.tied:
            return say("{named} are tied on {total:,} for {name}'s place in {round}: they throw one die each (highest "
                       "takes it), or the place stays empty.", named=self.named, total=self.total, name=self.name,
                       round=self.next_round)
        return say("{next} ({total:,}) is next in line for {name}'s place in {round}: they take it, or it stays empty.",
                   next=self.names[0], total=self.total, name=self.name, round=self.next_round)


def withdrawal(state: TournamentState, number: int, reason: str) -> PlayerWithdrew:
    """A player leaving the event before a round (not while seated in one being played: they are
    then missing at their table, or the draw is cancelled), until it has its champion."""
    if number not in state.players:
        raise InvalidInput(say("There is no player number {number!r}.", number=number))
    label = state.label(number)
    if state.players[number].withdrawn:
        raise IllegalAction(say("{label} has already withdrawn.", label=label))
    if state.champion is not None:
        raise IllegalAction(say("The event is over: {label} can no longer withdraw.", label=label))
    if state.rounds:
        last = state.rounds[-1]
        seated = last.seats.get(number)
        if seated is not None and not last.closed:
            raise IllegalAction(
                say("{label} is seated at table {seated} of round {number}, which is being played: a withdrawal "
                    "takes effect before a round (mark them missing at their table before it has a result, or "
                    "cancel the draw).", label=label, seated=seated[0], number=last.number)
            )
        if number not in state.entrants():
            raise IllegalAction(say("{label} is already out of the event.", label=label))
    return PlayerWithdrew(number, reason.strip())


def vacancy(state: TournamentState, number: int) -> Vacancy | None:
    """The place ``number`` holds after the last cut (withdrawn or about to), with who is next in line.

    None when they hold none another could take: no round closed since the last draw, the
    event over, or ``number`` not going on.
    """
    round_ = state.rounds[-1] if state.rounds else None
    if round_ is None or round_.advancing is None or state.champion is not None or number not in round_.advancing:
        return None
    blocks = _below_the_cut(state, round_, round_.seats[number][0])
    line = tuple(blocks[0]) if blocks else ()
    totals = _totals(round_)
    return Vacancy(
        round_.number, number, state.players[number].name, _next_round(state, round_), line,
        tuple(state.players[n].name for n in line), totals[line[0]] if line else None,
    )


def take_place(state: TournamentState, withdrawn: int, roll_off: Mapping[int, int] | None = None) -> PlaceTaken:
    """The next in line taking ``withdrawn``'s place; ``roll_off``: the die each tied player threw."""
    if withdrawn not in state.players:
        raise InvalidInput(say("There is no player number {withdrawn!r}.", withdrawn=withdrawn))
    place = vacancy(state, withdrawn)
    if place is None:
        raise IllegalAction(
            say("{label} holds no place after the last cut that the next in line could take.",
                label=state.label(withdrawn))
        )
    if not state.players[withdrawn].withdrawn:
        raise IllegalAction(say("{label} has not withdrawn: their place is theirs.", label=state.label(withdrawn)))
    if not place.next_in_line:
        raise IllegalAction(place.describe())
    faces = dict(roll_off or {})
    if not place.tied:
        if faces:
            raise IllegalAction(say("{names} is next in line alone: there is no roll-off to throw.",
                                    names=place.names[0]))
        return PlaceTaken(place.round, withdrawn, place.next_in_line[0])
    for number, face in faces.items():
        if isinstance(face, bool) or not isinstance(face, int) or not 1 <= face <= 6:
            raise InvalidInput(say("{face!r} for player {number} is not a die face: a die shows 1 to 6.",
                                   face=face, number=number))
    if set(faces) != set(place.next_in_line):
        raise IllegalAction(say("{named} are tied for {name}'s place: each of them, and only them, throws one die.",
                                named=place.named, name=place.name))
    best = max(faces.values())
    winners = [n for n in place.next_in_line if faces[n] == best]
    if len(winners) > 1:
        who = all_of([state.players[n].name for n in winners])
        raise IllegalAction(say("{who} both threw {best}: the tied players throw again.", who=who, best=best)
                            if len(winners) == 2 else
                            say("{who} all threw {best}: the tied players throw again.", who=who, best=best))
    return PlaceTaken(place.round, withdrawn, winners[0], tuple(sorted(faces.items())))


def place_taken_words(state: TournamentState, taken: PlaceTaken) -> Words:
    """``takes Ann's place in the final``: the replacement's standing until that round is drawn, and the log's words."""
    return say("takes {name}'s place in {round}", name=state.players[taken.withdrawn].name,
               round=_next_round(state, state.rounds[taken.round - 1]))


def mark_missing(state: TournamentState, number: int, reason: str) -> PlayerMissing:
    """A player drawn who did not come, marked at their table before it has a result."""
    round_ = state.open_round()
    label = state.label(number) if number in state.players else say("Number {number!r}", number=number)
    seat = round_.seats.get(number)
    if seat is None:
        raise IllegalAction(say("{label} is not seated in round {number}: only a player drawn can be missing.",
                                label=label, number=round_.number))
    table = seat[0]
    if table in round_.results or table in round_.held:
        raise IllegalAction(say("Table {table} of round {number} already has a result: {label} played there.",
                                table=table, number=round_.number, label=label))
    if len(round_.tables[table - 1]) <= 2:
        raise IllegalAction(
            say("Table {table} of round {number} seats only {count}: without {name} nobody is left to play (cancel "
                "the draw and draw again).",
                table=table, number=round_.number, count=len(round_.tables[table - 1]),
                name=state.players[number].name)
        )
    return PlayerMissing(round_.number, table, number, " ".join(reason.split()) or MISSING)


def missing_words(state: TournamentState, round_: RoundState, table: int) -> str:
    """``plays as three (Dan did not come)`` for a table that started short, "" for one as drawn."""
    names = [state.players[item.number].name for item in round_.missing if item.table == table]
    if not names:
        return ""
    count = len(round_.tables[table - 1])
    return say_n("plays as {size} ({names} did not come)", "plays as {size} ({names} did not come)", len(names),
                 size=_SIZES.get(count, str(count)), names=all_of(names))


_SIZES = {2: say("two"), 3: say("three"), 4: say("four"), 5: say("five")}
"""How many play at a short table, in words (it started with one or more of its players missing)."""


def as_drawn(round_: RoundState) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """(players, table sizes) as ``round_`` was drawn, the players missing since included: what its seed re-runs."""
    players = sorted([*round_.seats, *(item.number for item in round_.missing)])
    sizes = tuple(len(table) + sum(item.table == at for item in round_.missing) for at, table in enumerate(round_.tables, 1))
    return tuple(players), sizes


def _below_the_cut(state: TournamentState, round_: RoundState, table: int) -> list[list[int]]:
    """Players out at ``round_``'s cut and still in the event, best first in tied blocks, by the
    cut's own ranking (over all tables, or at ``table``) and the throws for places taken since."""
    going_on = set(round_.advancing or ())
    if round_.cut.kind == "overall":
        totals, roll_offs = _totals(round_), list(round_.roll_offs.get(0, ()))
    else:
        result = round_.results[table].result
        totals = result.totals_by_number
        roll_offs = list(result.roll_offs_by_number) + list(round_.roll_offs.get(table, ()))
    try:
        ranked = rank_blocks(totals, roll_offs)
    except InvalidInput:  # a roll-off a correction left unmatched: the totals alone, as the standings do
        ranked = rank_blocks(totals, [])
    blocks = [[n for n in block if n not in going_on and not state.players[n].withdrawn] for block in ranked]
    blocks = [block for block in blocks if block]
    for taken in round_.places_taken:
        thrown = dict(taken.roll_off)
        blocks = [part for block in blocks for part in _split(block, thrown)]
    return blocks


def _split(block: list[int], thrown: Mapping[int, int]) -> list[list[int]]:
    """``block`` split by a roll-off every one of its players threw (highest first); as it is otherwise."""
    if len(block) < 2 or any(n not in thrown for n in block):
        return [block]
    faces = sorted({thrown[n] for n in block}, reverse=True)
    return [[n for n in block if thrown[n] == face] for face in faces]


def _totals(round_: RoundState) -> dict[int, int]:
    return {n: total for recorded in round_.results.values() for n, total in recorded.result.totals_by_number.items()}


def _next_round(state: TournamentState, round_: RoundState) -> Words:
    """The round after ``round_`` as a sentence names it: ``the final``, ``round 3``."""
    plans = state.plan()
    final = len(plans) > round_.number and plans[round_.number].name == "Final"
    return say("the final") if final else say("round {number}", number=round_.number + 1)
