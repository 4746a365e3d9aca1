"""The event in one line, as the organizer's screens show it: a table's result by place, and
where the event stands.

The words are the engine's, said once, from the tournament's state:
:meth:`engine.tournament.Tournament.result_summary` and
:meth:`engine.tournament.Tournament.state_line` read them from here, and the screens call
those (they never put a result or the event's state in words of their own).

>>> from engine.tournament import Tournament
>>> t = Tournament("Club night", event_id="CLUB-1", secret=bytes(16))
>>> for name in ("Ann", "Bob", "Cy", "Di", "Ed", "Flo"):
...     t.check_in(t.sign_up(name))
>>> t.state_line()
'Sign-up: 6 signed up, 6 checked in.'
>>> t.draw_seats(seed=1)
((3, 5, 6), (4, 1, 2))
>>> t.state_line()
'Round 1 is being played: waiting for tables 1, 2.'
>>> t.result_summary(t.record_result(1, [4_000, 10_050, 7_500], reason="paper score sheet"))
'1. Ed 10,050, 2. Flo 7,500, 3. Cy 4,000'
>>> t.state_line()
'Round 1 is being played: waiting for table 2.'
"""

from __future__ import annotations

from engine.codec import TableResult
from engine.tournament.corrections import flags
from engine.tournament.state import TournamentState
from engine.words import Words, listed, say, say_n

__all__ = ["result_summary", "state_line", "sentence"]


def result_summary(state: TournamentState, result: TableResult) -> Words:
    """``1. Bob 10,050, 2. Ann 7,500``: the result's players by place, with their totals."""
    order = sorted(zip(result.places, result.numbers, result.totals))
    return listed([say("{place}. {name} {total:,}", place=place, name=state.players[number].name, total=total)
                   for place, number, total in order])


def state_line(state: TournamentState) -> Words:
    """Where the event stands: its champion, the round being played and the tables it waits
    for, the round just closed, or the sign-up so far; and how many flags a correction raised."""
    flagged = len(flags(state))
    if not flagged:
        return _stage(state)
    return say_n("{stage} {count} flag: recorded before a correction (see Standings).",
                 "{stage} {count} flags: recorded before a correction (see Standings).", flagged, stage=_stage(state),
                 count=flagged)


def _stage(state: TournamentState) -> Words:
    champion = state.champion
    if champion is not None:
        return say("Champion: {name} (number {number}).", name=state.players[champion].name, number=champion)
    if state.round_open:
        missing = state.missing_tables()
        name = state.plan()[len(state.rounds) - 1].name
        if not missing:
            return say("{round} is being played: every table has a result.", round=name)
        return say_n("{round} is being played: waiting for table {tables}.",
                     "{round} is being played: waiting for tables {tables}.", len(missing), round=name,
                     tables=", ".join(map(str, missing)))
    if state.rounds:
        return say("Round {number} is closed: draw the next round.", number=len(state.rounds))
    active = [p for p in state.players.values() if not p.withdrawn]
    checked = sum(p.checked_in for p in active)
    return say("Sign-up: {count} signed up, {checked} checked in.", count=len(active), checked=checked)


def sentence(words: str) -> str:
    """``words`` with a capital first letter (the rest, names included, as written)."""
    return words[:1].upper() + words[1:]
