"""What an organizer action was, in a few words: what Undo says it took back.

The words read the state the action was recorded in (names, seats, totals), so
``Undone: table 4's result in round 1 (Ann 10,350, Bob 9,000, Cy 4,000)`` names what the
room saw, as the table's Undo does ("Undone: Bob's bank of 650").
"""

from __future__ import annotations

from engine.codec import TableResult
from engine.rules import preset_words
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
from engine.words import Words, listed, say

__all__ = ["describe"]


def describe(event: Event, state: TournamentState) -> Words:
    """``event`` in words, read against ``state`` (the state with the event applied)."""
    if isinstance(event, TournamentCreated):
        return say("the creation of {event}", event=event.name)
    if isinstance(event, FormatChanged):
        return say("the change of format to {format}", format=event.format.name)
    if isinstance(event, PlayerSignedUp):
        return say("{name}'s sign-up (number {number})", name=event.name, number=event.number)
    if isinstance(event, PlayerCheckedIn):
        return say("{name}'s check-in (number {number})", name=state.players[event.number].name, number=event.number)
    if isinstance(event, PlayerWithdrew):
        return say("{name}'s withdrawal (number {number})", name=state.players[event.number].name, number=event.number)
    if isinstance(event, SeatsDrawn):
        return say("the draw of round {round} (seed {seed})", round=event.round, seed=event.seed)
    if isinstance(event, DrawCancelled):
        return say("the cancelling of round {round}'s draw", round=event.round)
    if isinstance(event, CardRevoked):
        return say("the revoking of table {table}'s card in round {round} ({reason})", table=event.table,
                   round=event.round, reason=event.reason)
    if isinstance(event, ResultRecorded):
        return say("table {table}'s result in round {round} ({totals})", table=event.table, round=event.round,
                   totals=_totals(event.result, state))
    if isinstance(event, ResultHeld):
        return say("the result held for table {table} in round {round} ({totals})", table=event.table,
                   round=event.round, totals=_totals(event.result, state))
    if isinstance(event, ResultReplaced):
        return say("the replacement of table {table}'s result in round {round} ({totals})", table=event.table,
                   round=event.round, totals=_totals(event.result, state))
    if isinstance(event, HeldResultSettled):
        kept = say("the counted result kept") if event.table in state.rounds[event.round - 1].results else \
            say("the table asked again")
        return say("the choice for table {table} in round {round} ({choice})", table=event.table, round=event.round,
                   choice=say("the held result counted") if event.taken else kept)
    if isinstance(event, ResultVoided):
        return say("the void of table {table}'s result in round {round} ({reason})", table=event.table,
                   round=event.round, reason=event.reason)
    if isinstance(event, RollOffRecorded):
        faces = ", ".join(f"{state.players[number].name} {face}" for number, face in event.faces)
        if event.table == 0:
            return say("the roll-off over all tables in round {round} ({faces})", round=event.round, faces=faces)
        return say("the roll-off at table {table} in round {round} ({faces})", table=event.table, round=event.round,
                   faces=faces)
    if isinstance(event, RoundClosed):
        if state.rounds[event.round - 1].cut.kind == "final" and event.advancing:
            return say("the close of the final ({name} champion)", name=state.players[event.advancing[0]].name)
        return say("the close of round {round} ({count} going on)", round=event.round, count=len(event.advancing))
    if isinstance(event, PlaceTaken):
        return say("{name} as next in line ({taken})", name=state.players[event.replacement].name,
                   taken=place_taken_words(state, event))
    if isinstance(event, PlayerMissing):
        return say("{name} missing from table {table} in round {round}", name=state.players[event.number].name,
                   table=event.table, round=event.round)
    if isinstance(event, RulesSwitched):
        return say("the switch of round {round} to {rules} rules", round=event.round, rules=preset_words(event.rules))
    shares = listed([say("{name} {currency}{amount:,}", name=state.players[number].name, currency=event.currency,
                         amount=amount) for number, amount in event.split])
    return say("the prize of {currency}{amount:,} ({shares})", currency=event.currency, amount=event.amount,
               shares=shares)


def _totals(result: TableResult, state: TournamentState) -> Words:
    """``Ann 10,350, Bob 9,000``: a result's players by place, with their totals."""
    order = sorted(zip(result.places, result.numbers, result.totals))
    return listed([say("{name} {total:,}", name=state.players[number].name, total=total) for _, number, total in order])
