"""The tournament's log replayed: :func:`apply` gives the next state of an event, :func:`replay` them all.

``apply`` trusts the event: the checks were made when the organizer's action was
recorded (:mod:`engine.tournament.tournament`), so replaying a log never refuses what was
allowed then. It reads nothing but the state and the event: a seat draw carries its
tables, its round of the format and its cut, and a format read from the log is not
checked again by today's planner. Logs from before draws kept their round and cut ask
the planner for them, as the engine of their day did, and replay as they always have.
A log that cannot be replayed (damaged, or written by hand) is refused saying at which
entry and why.

>>> from engine.tournament.events import PlayerSignedUp, TournamentCreated
>>> from engine.tournament.format import TournamentFormat
>>> states = replay([TournamentCreated("Cup", "CUP-1", bytes(16), TournamentFormat.house()), PlayerSignedUp(1, "Ann")])
>>> states[-1].players[1]
Player(number=1, name='Ann', checked_in=False, withdrawn=False, reason='')
"""

from __future__ import annotations

import dataclasses
import logging
from collections.abc import Iterable
from typing import Any, Literal, TypeVar

from engine.codec import TableResult
from engine.errors import InvalidInput
from engine.frozen import evolved
from engine.rules import PRESET_NAMES
from engine.shared_map import SharedMap
from engine.tournament.events import (
    MISSING,
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
)
from engine.tournament.state import (
    Correction, Player, Prize, Recorded, Revocation, RoundState, TournamentState, Voided, WithdrawnPrize,
)
from engine.words import say

__all__ = ["apply", "replay"]

logger = logging.getLogger(__name__)


def _next(state: TournamentState, **changes: Any) -> TournamentState:
    """The state after ``state`` with ``changes``; its memo starts empty (what was worked out
    for ``state`` may not hold for it)."""
    return evolved(state, memo={}, **changes)


_Item = TypeVar("_Item")


def _appended(items: SharedMap[int, tuple[_Item, ...]], key: int, item: _Item) -> SharedMap[int, tuple[_Item, ...]]:
    return items.set(key, items.get(key, ()) + (item,))


def apply(state: TournamentState, event: Event) -> TournamentState:
    """The state after ``event``; the checks were made when it was recorded."""
    before = state
    if isinstance(event, TournamentCreated):
        if state.applied:
            raise InvalidInput(say("A tournament is created once; the log has a second creation."))
        state = _next(state, name=event.name, event_id=event.event_id, secret=event.secret, format=event.format)
    elif not state.applied:
        raise InvalidInput(say("A tournament log must begin with the tournament's creation."))
    elif isinstance(event, FormatChanged):
        if state.rounds:
            raise InvalidInput(say("The tournament log changes the format after a draw: it is damaged."))
        state = _next(state, format=event.format)
    elif isinstance(event, (PlayerSignedUp, PlayerCheckedIn, PlayerWithdrew)):
        state = _player(state, event)
    elif isinstance(event, SeatsDrawn):
        state = _seat(state, event)
    elif isinstance(event, DrawCancelled):
        if not state.rounds:
            raise InvalidInput(say("The tournament log cancels a draw before any: it is damaged."))
        state = _next(state, rounds=state.rounds[:-1], cancelled=state.cancelled + state.rounds[-1:])
        if event.recut is not None:
            if not state.rounds:
                raise InvalidInput(say("The tournament log takes the cut of a round before round 1 again: it is "
                                       "damaged."))
            state = _with_round(state, _recut(state, state.rounds[-1], event.recut))
    elif isinstance(event, PlaceTaken):
        state = _with_round(state, _place_taken(state, event))
    elif isinstance(event, PlayerMissing):
        state = _missing(state, event)
    elif isinstance(event, PrizeAwarded):
        prize = Prize(state.champion or 0, event.amount, event.currency, event.split, event.note)
        state = _next(state, prize=prize, withdrawn_prize=None)
    else:
        round_ = state.rounds[event.round - 1]
        state = _prize_after(_with_round(state, _round_after(state, round_, event)), event)
    object.__setattr__(state, "applied", before.applied + 1)  # a new value, held by nobody yet
    return state


def _with_round(state: TournamentState, round_: RoundState) -> TournamentState:
    index = round_.number - 1
    return _next(state, rounds=state.rounds[:index] + (round_,) + state.rounds[index + 1 :])


def _player(state: TournamentState, event: PlayerSignedUp | PlayerCheckedIn | PlayerWithdrew) -> TournamentState:
    if isinstance(event, PlayerSignedUp):
        _check_sign_up(state, event)
        return _next(state, players=state.players.set(event.number, Player(event.number, event.name)),
                       active=state.active + 1)
    player = state.players[event.number]
    if isinstance(event, PlayerCheckedIn):
        return _next(state, players=state.players.set(event.number, dataclasses.replace(player, checked_in=True)))
    changed = dataclasses.replace(player, withdrawn=True, reason=event.reason)
    return _next(state, players=state.players.set(event.number, changed),
                   active=state.active - (not player.withdrawn))


def _place_taken(state: TournamentState, event: PlaceTaken) -> RoundState:
    """The closed round drawn last with the next in line going on in the withdrawn player's place."""
    round_ = state.rounds[-1]
    if (round_.number != event.round or event.withdrawn not in (round_.advancing or ())
            or event.replacement in (round_.advancing or ()) or event.replacement not in round_.seats):
        raise InvalidInput(say("Number {replacement} cannot take number {withdrawn}'s place after round {round}.",
                               replacement=event.replacement, withdrawn=event.withdrawn, round=event.round))
    advancing = tuple(event.replacement if n == event.withdrawn else n for n in round_.advancing or ())
    return evolved(round_, advancing=advancing, places_taken=round_.places_taken + (event,))


def _missing(state: TournamentState, event: PlayerMissing) -> TournamentState:
    """The round being played with ``event``'s table seating the players who came; the missing player is out."""
    round_ = state.rounds[-1]
    if round_.number != event.round or round_.closed or round_.seats.get(event.number, (0,))[0] != event.table:
        raise InvalidInput(say("Number {number} is not seated at table {table} of round {round} being played.",
                               number=event.number, table=event.table, round=event.round))
    tables = tuple(tuple(n for n in seated if n != event.number) for seated in round_.tables)
    seats = {n: (t, s) for t, seated in enumerate(tables, 1) for s, n in enumerate(seated, 1)}
    played = evolved(round_, tables=tables, seats=seats, missing=round_.missing + (event,))
    player = state.players[event.number]
    reason = say("did not come") if event.reason == MISSING else event.reason  # the default: in the reader's language
    out = dataclasses.replace(player, withdrawn=True, reason=reason)
    return _next(_with_round(state, played), players=state.players.set(event.number, out),
                 active=state.active - (not player.withdrawn))


def _check_sign_up(state: TournamentState, event: PlayerSignedUp) -> None:
    """A sign-up as the organizer's device records one: before the draw, under the cap, a new number."""
    if state.rounds:
        raise InvalidInput(say("Number {number} signs up after round 1 was drawn.", number=event.number))
    if event.number in state.players:
        raise InvalidInput(say("Number {number} signs up twice.", number=event.number))
    if state.active >= state.format.cap:
        raise InvalidInput(say("Number {number} signs up when the event is full ({cap} players).",
                               number=event.number, cap=state.format.cap))


def _seat(state: TournamentState, event: SeatsDrawn) -> TournamentState:
    if event.spec_index is None:  # a log from before draws kept their round of the format
        spec_index = state.plan()[event.round - 1].spec_index
    elif 0 <= event.spec_index < len(state.format.rounds):
        spec_index = event.spec_index
    else:
        raise InvalidInput(
            say("The draw of round {round} names round {spec_index} of the format, which has rounds 0 to {count}: "
                "the log is damaged.", round=event.round, spec_index=event.spec_index, count=len(state.format.rounds) - 1)
        )
    strangers = [n for table in event.tables for n in table if n not in state.players]
    if strangers or not event.tables or not 1 <= event.round <= len(state.rounds) + 1:
        raise InvalidInput(
            say("The draw of round {round} seats number {number}, who never signed up.", round=event.round,
                number=strangers[0]) if strangers else
            say("The draw of round {round} seats tables no round can have.", round=event.round)
        )
    players = sum(len(table) for table in event.tables)
    cut = state.format.scaled_cut(spec_index, players) if event.cut is None else event.cut
    drawn = RoundState(
        event.round, spec_index, cut, event.seed, event.tables, event.clashes,
        key_scheme=event.keys or 1, draw=event.draw or "", drawn_at=event.at,
    )
    if len(state.rounds) >= event.round:  # drawn again: the draw before is cancelled
        state = _next(state, rounds=state.rounds[:-1], cancelled=state.cancelled + state.rounds[-1:])
    return _next(state, rounds=state.rounds + (drawn,))


def _round_after(state: TournamentState, round_: RoundState, event: Event) -> RoundState:
    """``round_`` after an event of one of its tables (a result, a roll-off, a revoked card) or of the round."""
    if isinstance(event, RulesSwitched):
        if event.rules not in PRESET_NAMES:
            raise InvalidInput(say("Round {round} is switched to rules {rules!r}, which are no preset.",
                                   round=event.round, rules=event.rules[:40]))
        return evolved(round_, rules_switched=event.rules)
    if isinstance(event, RoundClosed):
        strangers = [n for n in event.advancing if n not in round_.seats]
        if strangers:
            raise InvalidInput(say("Round {round} closes with number {number} going on, who was not seated in "
                                   "it.", round=event.round, number=strangers[0]))
        return evolved(round_, advancing=event.advancing, cut_corrections=len(round_.corrections))
    if isinstance(event, RollOffRecorded):
        return evolved(round_, roll_offs=_appended(round_.roll_offs, event.table, event.faces))
    if isinstance(event, CardRevoked):
        return evolved(round_, revoked=_appended(round_.revoked, event.table, Revocation(event.table, event.reason, event.at)))
    if not isinstance(event, (ResultRecorded, ResultHeld, HeldResultSettled, ResultVoided, ResultReplaced)):
        raise InvalidInput(say("{event!r} is not a tournament event.", event=event))
    table = event.table
    if not 1 <= table <= len(round_.tables):
        raise InvalidInput(say("Round {number} has tables 1 to {count}, not {table}.",
                               number=round_.number, count=len(round_.tables), table=table))
    entry = state.applied + 1
    if isinstance(event, ResultRecorded):
        recorded = Recorded(
            _result_at(round_, table, event.result), event.code, event.reason, round_.issue(table), event.at, entry
        )
        return evolved(round_, results=round_.results.set(table, recorded))
    if isinstance(event, ResultHeld):
        held = Recorded(_result_at(round_, table, event.result), event.code, "", round_.issue(table))
        return evolved(round_, held=_appended(round_.held, table, held))
    if isinstance(event, HeldResultSettled):
        items = round_.held[table]
        taken, left = items[event.index], items[: event.index] + items[event.index + 1 :]
        kind: Literal["held result taken", "held result dismissed"] = (
            "held result taken" if event.taken else "held result dismissed"
        )
        return evolved(
            round_,
            held=round_.held.set(table, left) if left else round_.held.without(table),
            results=round_.results.set(table, evolved(taken, entry=entry)) if event.taken else round_.results,
            corrections=round_.corrections + (Correction(round_.number, table, kind, event.reason, round_.closed),),
        )
    if isinstance(event, ResultVoided):
        voided = Voided(round_.results[table], event.reason, event.at)
        corrected = evolved(
            round_,
            results=round_.results.without(table),
            voided=_appended(round_.voided, table, voided),
            corrections=round_.corrections + (Correction(round_.number, table, "voided", event.reason, round_.closed),),
        )
    else:
        recorded = Recorded(_result_at(round_, table, event.result), event.code, event.reason, round_.issue(table),
                            entry=entry)
        corrected = evolved(
            round_,
            results=round_.results.set(table, recorded),
            corrections=round_.corrections + (Correction(round_.number, table, "replaced", event.reason, round_.closed),),
        )
    return _recut(state, corrected, event.recut)


def _recut(state: TournamentState, round_: RoundState, recut: tuple[int, ...] | None) -> RoundState:
    """``round_``, the round drawn last, with the cut a correction took again: who goes on now,
    or () to open it again (:mod:`engine.tournament.corrections`); as it is for None."""
    if recut is None:
        return round_
    if not round_.closed or round_.number != len(state.rounds):
        raise InvalidInput(
            say("The log takes round {number}'s cut again, which only a closed round drawn last has.", number=round_.number)
        )
    strangers = [n for n in recut if n not in round_.seats]
    if strangers:
        raise InvalidInput(
            say("Round {number}'s cut is taken again with number {player}, who was not seated in it.",
                number=round_.number, player=strangers[0])
        )
    return evolved(round_, advancing=recut or None, cut_corrections=len(round_.corrections))


def _prize_after(state: TournamentState, event: Event) -> TournamentState:
    """The prize withdrawn when a correction leaves the champion it was recorded with no longer the champion."""
    prize = state.prize
    if prize is None or state.champion == prize.champion or not isinstance(event, (ResultVoided, ResultReplaced)):
        return state
    kind: Literal["voided", "replaced"] = "voided" if isinstance(event, ResultVoided) else "replaced"
    withdrawn = WithdrawnPrize(prize, event.round, event.table, kind, event.reason)
    return _next(state, prize=None, withdrawn_prize=withdrawn)


def _result_at(round_: RoundState, table: int, result: TableResult) -> TableResult:
    """A logged result, which must be for the table it is logged at and for the players seated there."""
    if (result.round, result.table, result.numbers) != (round_.number, table, round_.tables[table - 1]):
        raise InvalidInput(
            say("A result logged for round {number}, table {table} is for round {round}, table {logged_table} or for "
                "other players.", number=round_.number, table=table, round=result.round, logged_table=result.table)
        )
    return result


def replay(events: Iterable[Event]) -> list[TournamentState]:
    """The state after each of ``events``; :class:`InvalidInput` naming the entry where a log is damaged."""
    states: list[TournamentState] = []
    state = TournamentState()
    for position, event in enumerate(events, 1):
        try:
            state = apply(state, event)
        except InvalidInput as refusal:
            raise InvalidInput(say("The tournament log is damaged at entry {position} ({type}): {refusal}",
                                   position=position, type=event.TYPE, refusal=refusal.words)) from refusal
        except Exception as error:  # noqa: BLE001 - a log read from a file may fail any way: a refusal, not a crash
            logger.warning("Tournament log entry %d (%s) failed to apply (damaged, or a bug)", position, event.TYPE,
                           exc_info=True)
            raise InvalidInput(say("The tournament log is damaged at entry {position} ({type}): {error!r}.",
                                   position=position, type=event.TYPE, error=error)) from error
        states.append(state)
    if not states:
        raise InvalidInput(say("A tournament log must begin with the tournament's creation."))
    return states
