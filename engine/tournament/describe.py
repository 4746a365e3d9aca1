"""What an organizer action was, in a few words: what Undo says it took back.

The words read the state the action was recorded in (names, seats, totals), so
``Undone: table 4's result in round 1 (Ann 10,350, Bob 9,000, Cy 4,000)`` names what the
room saw, as the table's Undo does ("Undone: Bob's bank of 650").
"""

from __future__ import annotations

from engine.codec import TableResult
from engine.tournament.events import (
    CardRevoked,
    DrawCancelled,
    Event,
    FormatChanged,
    HeldResultSettled,
    PlaceTaken,
    PlayerCheckedIn,
    PlayerMissing,
    PlayerSignedUp,
    PlayerWithdrew,
    ResultHeld,
    ResultRecorded,
    ResultReplaced,
    ResultVoided,
    RollOffRecorded,
    RoundClosed,
    RulesSwitched,
    SeatsDrawn,
    TournamentCreated,
)
from engine.tournament.replacements import place_taken_words
from engine.tournament.state import TournamentState

__all__ = ["describe"]


def describe(event: Event, state: TournamentState) -> str:
    """``event`` in words, read against ``state`` (the state with the event applied)."""
    if isinstance(event, TournamentCreated):
        return f"the creation of {event.name}"
    if isinstance(event, FormatChanged):
        return f"the change of format to {event.format.name}"
    if isinstance(event, PlayerSignedUp):
        return f"{event.name}'s sign-up (number {event.number})"
    if isinstance(event, (PlayerCheckedIn, PlayerWithdrew)):
        what = "check-in" if isinstance(event, PlayerCheckedIn) else "withdrawal"
        return f"{state.players[event.number].name}'s {what} (number {event.number})"
    if isinstance(event, SeatsDrawn):
        return f"the draw of round {event.round} (seed {event.seed})"
    if isinstance(event, DrawCancelled):
        return f"the cancelling of round {event.round}'s draw"
    if isinstance(event, CardRevoked):
        return f"the revoking of table {event.table}'s card in round {event.round} ({event.reason})"
    if isinstance(event, (ResultRecorded, ResultHeld, ResultReplaced)):
        what = {ResultRecorded: "table {}'s result", ResultHeld: "the result held for table {}",
                ResultReplaced: "the replacement of table {}'s result"}[type(event)].format(event.table)
        return f"{what} in round {event.round} ({_totals(event.result, state)})"
    if isinstance(event, HeldResultSettled):
        kept = "the counted result kept" if event.table in state.rounds[event.round - 1].results else "the table asked again"
        choice = "the held result counted" if event.taken else kept
        return f"the choice for table {event.table} in round {event.round} ({choice})"
    if isinstance(event, ResultVoided):
        return f"the void of table {event.table}'s result in round {event.round} ({event.reason})"
    if isinstance(event, RollOffRecorded):
        where = "over all tables" if event.table == 0 else f"at table {event.table}"
        faces = ", ".join(f"{state.players[number].name} {face}" for number, face in event.faces)
        return f"the roll-off {where} in round {event.round} ({faces})"
    if isinstance(event, RoundClosed):
        if state.rounds[event.round - 1].cut.kind == "final" and event.advancing:
            return f"the close of the final ({state.players[event.advancing[0]].name} champion)"
        return f"the close of round {event.round} ({len(event.advancing)} going on)"
    if isinstance(event, PlaceTaken):
        return f"{state.players[event.replacement].name} as next in line ({place_taken_words(state, event)})"
    if isinstance(event, PlayerMissing):
        return f"{state.players[event.number].name} missing from table {event.table} in round {event.round}"
    if isinstance(event, RulesSwitched):
        return f"the switch of round {event.round} to {event.rules} rules"
    shares = ", ".join(f"{state.players[number].name} {event.currency}{amount:,}" for number, amount in event.split)
    return f"the prize of {event.currency}{event.amount:,} ({shares})"


def _totals(result: TableResult, state: TournamentState) -> str:
    """``Ann 10,350, Bob 9,000``: a result's players by place, with their totals."""
    order = sorted(zip(result.places, result.numbers, result.totals))
    return ", ".join(f"{state.players[number].name} {total:,}" for _, number, total in order)
