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

__all__ = ["result_summary", "state_line", "sentence"]


def result_summary(state: TournamentState, result: TableResult) -> str:
    """``1. Bob 10,050, 2. Ann 7,500``: the result's players by place, with their totals."""
    order = sorted(zip(result.places, result.numbers, result.totals))
    return ", ".join(f"{place}. {state.players[number].name} {total:,}" for place, number, total in order)


def state_line(state: TournamentState) -> str:
    """Where the event stands: its champion, the round being played and the tables it waits
    for, the round just closed, or the sign-up so far; and how many flags a correction raised."""
    flagged = len(flags(state))
    return _stage(state) + (
        f" {flagged} flag{'s' if flagged > 1 else ''}: recorded before a correction (see Standings)." if flagged else ""
    )


def _stage(state: TournamentState) -> str:
    champion = state.champion
    if champion is not None:
        return f"Champion: {state.players[champion].name} (number {champion})."
    if state.round_open:
        missing = state.missing_tables()
        waiting = (f"waiting for table{'s' if len(missing) > 1 else ''} {', '.join(map(str, missing))}"
                   if missing else "every table has a result")
        return f"{state.plan()[len(state.rounds) - 1].name} is being played: {waiting}."
    if state.rounds:
        return f"Round {len(state.rounds)} is closed: draw the next round."
    active = [p for p in state.players.values() if not p.withdrawn]
    checked = sum(p.checked_in for p in active)
    return f"Sign-up: {len(active)} signed up, {checked} checked in."


def sentence(words: str) -> str:
    """``words`` with a capital first letter (the rest, names included, as written)."""
    return words[:1].upper() + words[1:]
